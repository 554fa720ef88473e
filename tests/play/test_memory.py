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
