"""Card memory (记牌): seen and unseen cards and the voids read from the trick history."""

from __future__ import annotations

from checker.engine.cards import parse_card
from checker.engine.order import TRUMP, make_context
from checker.engine.ruleset import load_ruleset
from checker.play.bots.memory import read_memory

from .util import cards

CTX = make_context(load_ruleset("classic"), 2, "S")


def _trick(*plays: tuple[int, str]) -> tuple[tuple[int, tuple], ...]:  # type: ignore[type-arg]
    return tuple((s, cards(c)) for s, c in plays)


def test_side_discard_shows_a_void_in_the_led_suit_only() -> None:
    history = [_trick((2, "♥J"), (3, "♥6"), (0, "♥9"), (1, "♣4"))]
    mem = read_memory(CTX, 0, cards("♦10"), history)
    assert mem.is_void(1, "H") and not mem.is_void(1, TRUMP)
    assert not mem.is_void(3, "H")


def test_discard_on_a_trump_lead_shows_a_trump_void() -> None:
    history = [_trick((2, "♠A"), (3, "♠3"), (0, "♠5"), (1, "♦4"))]
    mem = read_memory(CTX, 0, cards("♦10"), history)
    assert mem.is_void(1, TRUMP)


def test_v1_memory_reads_cards_but_no_voids() -> None:
    history = [_trick((2, "♥J"), (3, "♥6"), (0, "♥9"), (1, "♣4"))]
    mem = read_memory(CTX, 0, cards("♦10"), history, infer_voids=False)
    assert mem.voids == {}
    assert mem.unseen[parse_card("♥J")] == 1


def test_unseen_points_count_what_is_neither_held_nor_played() -> None:
    history = [_trick((1, "♠A"), (2, "♠7"), (3, "♠5"), (0, "♠5"))]
    mem = read_memory(make_context(load_ruleset("classic"), 2, "H"), 2, cards("♥Q ♠K"), history)
    assert mem.unseen_points("S") == 30


def test_cached_reading_of_a_growing_history_matches_a_fresh_one() -> None:
    from checker.play.bots.memory import HistoryCache

    t1 = _trick((2, "♥J"), (3, "♥6"), (0, "♥9"), (1, "♣4"))
    t2 = _trick((2, "♠A"), (3, "♠3"), (0, "♠5"), (1, "♦4"))
    cache = HistoryCache()
    read_memory(CTX, 0, cards("♦10"), [t1], cache=cache)
    cached = read_memory(CTX, 0, cards("♦10"), [t1, t2], cache=cache)
    fresh = read_memory(CTX, 0, cards("♦10"), [t1, t2])
    assert cached.unseen == fresh.unseen and cached.voids == fresh.voids


def _unit(ctx, text: str):  # type: ignore[no-untyped-def]
    from checker.engine.combos import classify

    combo = classify(ctx, cards(text))
    assert len(combo.units) == 1, text
    return combo.units[0]


def test_a_tractor_is_beaten_by_a_wider_set_of_as_many_cards_with_three_decks() -> None:
    # 相同数量的对牌大于相同数量的拖拉机: ♠3♠3♠3♠4♠4♠4 beats ♠A♠A♠K♠K♠Q♠Q in a trick, and in a
    # throw under multideck's default throw_beaten_by: same_count, not under same_shape.
    rs = load_ruleset("multideck")
    ctx = make_context(rs, 5, "H")
    hand = cards("♠A ♠A ♠K ♠K ♠Q ♠Q ♣7 ♦4")
    mem = read_memory(ctx, 0, hand, [])
    tractor = _unit(ctx, "♠A ♠A ♠K ♠K ♠Q ♠Q")
    assert mem.can_be_beaten(tractor, "S")  # led alone: the trick's rule
    assert not mem.can_be_beaten(tractor, "S", wider=False)  # nothing of its own shape is higher
    from checker.play.bots.lead import is_unbeatable

    assert not is_unbeatable(mem, tractor, "S", in_throw=True)
    shape_only = make_context(rs.with_options({"throw_beaten_by": "same_shape"}), 5, "H")
    mem_shape = read_memory(shape_only, 0, hand, [])
    assert is_unbeatable(mem_shape, tractor, "S", in_throw=True)
    assert not is_unbeatable(mem_shape, tractor, "S")  # led alone it can still be beaten


def test_a_pair_is_beaten_by_a_stronger_pair_whatever_the_tractor_order() -> None:
    # 双升 tractor_order: natural chains the trump suit in rank order, but strength stays §2's:
    # the trump-suit level pair ♥2♥2 is still above ♥A♥A.
    rs = load_ruleset("shuangsheng").with_options({"tractor_order": "natural"})
    ctx = make_context(rs, 2, "H")
    mem = read_memory(ctx, 0, cards("♥A ♥A ♣7 ♦4"), [])
    assert mem.can_be_beaten(_unit(ctx, "♥A ♥A"), TRUMP)
    # Once the pairs above it cannot be made (one copy of each stronger trump played by
    # others, the rest held here), the pair stands.
    top = cards("大王 大王 小王 小王 ♥2 ♥2 ♠2 ♠2 ♣2 ♣2 ♦2 ♦2")
    mem = read_memory(ctx, 0, [*top, *cards("♥A ♥A")], [])
    assert not mem.can_be_beaten(_unit(ctx, "♥A ♥A"), TRUMP)
