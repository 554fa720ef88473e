"""Throw legality (seed: 甩牌合法性校验, 服务器甩牌失败自动罚牌逻辑)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from checker.engine.cards import Card
from checker.engine.combos import PAIR, SINGLE, TRACTOR
from checker.engine.errors import PlayError
from checker.engine.order import Context
from checker.engine.throws import ThrowVerdict, judge_throw

from .util import cs, deal, ms


def throw(ctx: Context, cards: str, *others: str) -> ThrowVerdict:
    return judge_throw(ctx, cs(cards), [cs(o) for o in others])


# --- the seed's examples ------------------------------------------------------------------------


def test_throw_fails_when_any_single_is_beaten() -> None:
    # 甩 ♠K + ♠QQ, an opponent holds ♠A: ♠A beats the single ♠K.
    verdict = throw(deal(2, "H"), "♠K ♠Q ♠Q", "♠A ♦3")
    assert verdict.combo.type == "throw"
    assert verdict.allowed is False
    assert Counter(verdict.forced) == ms("♠K")


def test_throw_stands_when_every_unit_is_the_highest() -> None:
    # 甩 ♠A + ♠QQ, the opponent holds only ♠K: a single cannot beat a pair.
    verdict = throw(deal(2, "H"), "♠A ♠Q ♠Q", "♠K ♦3")
    assert verdict.allowed is True
    assert Counter(verdict.forced) == ms("♠A ♠Q ♠Q")
    assert verdict.penalty == 0


def test_trump_throw_of_offsuit_level_singles_is_not_beaten_by_an_equal_card() -> None:
    # 主♠打2: 甩 ♥2 ♣2; ♦2 is equal, not higher.
    assert throw(deal(2, "S"), "♥2 ♣2", "♦2 ♦3").allowed is True


@pytest.mark.parametrize("beater", ["♠2", "小王", "大王"])
def test_trump_throw_of_offsuit_level_singles_is_beaten_by_a_higher_trump(beater: str) -> None:
    verdict = throw(deal(2, "S"), "♥2 ♣2", f"{beater} ♦3")
    assert verdict.allowed is False
    assert len(verdict.forced) == 1
    assert verdict.forced[0] in cs("♥2 ♣2")


# --- check order: singles, then pairs, then tractors --------------------------------------------


def test_singles_are_checked_before_pairs() -> None:
    # ♠K is beaten by ♠A (second opponent), ♠J♠J by ♠Q♠Q (first opponent): the single is forced.
    verdict = throw(deal(2, "H"), "♠K ♠J ♠J", "♠Q ♠Q ♦3", "♠A ♦4")
    assert verdict.allowed is False
    assert Counter(verdict.forced) == ms("♠K")
    assert verdict.beaten is not None and verdict.beaten.kind == SINGLE


def test_pairs_are_checked_before_tractors() -> None:
    # ♠3♠3♠4♠4 is beaten by ♠5♠5♠6♠6, ♠K♠K by ♠A♠A: the pair is forced.
    verdict = throw(deal(2, "H"), "♠3♠3♠4♠4 ♠K♠K", "♠5♠5♠6♠6", "♠A♠A")
    assert verdict.allowed is False
    assert Counter(verdict.forced) == ms("♠K ♠K")
    assert verdict.beaten is not None and verdict.beaten.kind == PAIR


def test_smaller_beaten_single_is_forced_first() -> None:
    # Both ♠Q and ♠9 can be beaten by ♠K; the smaller single is checked first.
    verdict = throw(deal(2, "H"), "♠A ♠Q ♠9", "♠K ♠10")
    assert Counter(verdict.forced) == ms("♠9")


# --- tractors in throws -----------------------------------------------------------------------


def test_tractor_unit_is_beaten_by_a_higher_tractor_of_the_same_length() -> None:
    verdict = throw(deal(2, "H"), "♠3♠3♠4♠4 ♠A", "♠5♠5♠6♠6")
    assert verdict.allowed is False
    assert Counter(verdict.forced) == ms("♠3♠3♠4♠4")
    assert verdict.beaten is not None and verdict.beaten.kind == TRACTOR


def test_tractor_unit_is_beaten_by_part_of_a_longer_tractor() -> None:
    verdict = throw(deal(2, "H"), "♠3♠3♠4♠4 ♠A", "♠7♠7♠8♠8♠9♠9")
    assert verdict.allowed is False
    assert Counter(verdict.forced) == ms("♠3♠3♠4♠4")


def test_tractor_unit_is_not_beaten_by_unconnected_higher_pairs() -> None:
    assert throw(deal(2, "H"), "♠3♠3♠4♠4 ♠A", "♠6♠6 ♠8♠8 ♠10♠10").allowed is True


def test_tractor_unit_is_not_beaten_by_a_lower_tractor() -> None:
    assert throw(deal(2, "H"), "♠9♠9♠10♠10 ♠A", "♠5♠5♠6♠6").allowed is True


def test_three_pair_tractor_is_not_beaten_by_a_higher_two_pair_tractor() -> None:
    assert throw(deal(2, "H"), "♠3♠3♠4♠4♠5♠5 ♠A", "♠J♠J♠Q♠Q").allowed is True


def test_pair_unit_is_beaten_by_a_pair_inside_a_tractor() -> None:
    verdict = throw(deal(2, "H"), "♠A ♠Q ♠Q", "♠K♠K♠A")
    assert verdict.allowed is False
    assert Counter(verdict.forced) == ms("♠Q ♠Q")


# --- whose cards count ------------------------------------------------------------------------


def test_trumps_do_not_beat_a_side_suit_throw() -> None:
    # Beating a throw's unit means a higher card of the same suit; ruffing does not count.
    assert throw(deal(2, "H"), "♠K ♠Q ♠Q", "♥A ♥A 大王 ♣A").allowed is True


def test_trump_throw_is_beaten_by_any_higher_trump() -> None:
    verdict = throw(deal(2, "H"), "♥A ♥K ♥K", "♠2 ♠3")
    assert verdict.allowed is False
    assert Counter(verdict.forced) == ms("♥A")


def test_offsuit_level_cards_of_two_suits_do_not_beat_a_trump_pair() -> None:
    assert throw(deal(2, "H"), "♥A ♥K ♥K", "♣2 ♦2", "♠3").allowed is False  # ♣2 beats ♥A
    assert throw(deal(2, "H"), "小王 ♥K ♥K", "♣2 ♦2").allowed is True


def test_every_other_hand_is_checked() -> None:
    hands = ["♦3 ♦4", "♣5 ♣6", "♠A ♥3"]
    verdict = throw(deal(2, "H"), "♠K ♠Q ♠Q", *hands)
    assert verdict.allowed is False
    assert verdict.beater is not None and verdict.beater[0] == 2


def test_several_hands_without_a_beater_let_the_throw_stand() -> None:
    hands = ["♠3 ♠4 ♦A", "♠J ♠J ♣5", "♠10 ♥A ♥A"]
    assert throw(deal(2, "H"), "♠A ♠K ♠Q ♠Q", *hands).allowed is True


def test_a_single_unit_lead_always_stands() -> None:
    for cards in ("♠3", "♠3 ♠3", "♠3♠3♠4♠4"):
        verdict = throw(deal(2, "H"), cards, "♠A ♠A ♠K ♠K ♠Q ♠Q")
        assert verdict.allowed is True
        assert verdict.combo.type != "throw"


def test_classic_has_no_throw_penalty() -> None:
    verdict = throw(deal(2, "H"), "♠K ♠Q ♠Q", "♠A")
    assert (verdict.penalty, verdict.penalty_to) == (0, "none")


def test_a_lead_that_cannot_be_led_is_an_error() -> None:
    with pytest.raises(PlayError):
        throw(deal(2, "H"), "♠K ♦Q", "♠A")


def test_explanation_names_the_beaten_unit_and_the_beater() -> None:
    verdict = throw(deal(2, "H"), "♠K ♠Q ♠Q", "♠A ♦3")
    assert "♠K" in verdict.explanation and "♠A" in verdict.explanation


# --- property: a throw stands exactly when no unit is beaten -----------------------------------

SPADE_FACES = [Card("S", r) for r in range(3, 15)]  # playing 2, hearts trump


def _beats(ctx: Context, kind: str, top: int, length: int, hand: list[Card]) -> bool:
    """Seed rule written directly: a same-suit single / pair / tractor strictly higher."""
    spades = [x for x in hand if ctx.group(x) == "S"]
    if kind == SINGLE:
        return any(ctx.pos(x) > top for x in spades)
    pairs = {ctx.pos(x) for x, n in Counter(spades).items() if n >= 2}
    if kind == PAIR:
        return any(p > top for p in pairs)
    return any(t > top and all(t - i in pairs for i in range(length)) for t in pairs)


@settings(max_examples=400, deadline=None)
@given(
    counts=st.lists(st.integers(0, 2), min_size=12, max_size=12),
    split=st.lists(st.integers(0, 2), min_size=12, max_size=12),
)
def test_throw_stands_exactly_when_no_other_hand_beats_a_unit(
    counts: list[int], split: list[int]
) -> None:
    ctx = deal(2, "H")
    mine = [x for x, n in zip(SPADE_FACES, counts, strict=True) for _ in range(n)]
    # the other copies go to two opponents, as `split` says
    rest = [(x, 2 - n) for x, n in zip(SPADE_FACES, counts, strict=True)]
    first = [x for (x, n), k in zip(rest, split, strict=True) for _ in range(min(n, k))]
    second = list((Counter({x: n for x, n in rest}) - Counter(first)).elements())
    assume(len(mine) >= 2)
    verdict = judge_throw(ctx, mine, [first, second + [Card("D", 3)]])
    units = verdict.combo.units
    beaten = [
        u for u in units if any(_beats(ctx, u.kind, u.top, u.length, h) for h in (first, second))
    ]
    if verdict.combo.type != "throw":
        assert verdict.allowed
        return
    assert verdict.allowed == (not beaten)
    if beaten:
        order = {SINGLE: 0, PAIR: 1, TRACTOR: 2}
        assert verdict.beaten is not None
        assert order[verdict.beaten.kind] == min(order[u.kind] for u in beaten)
        assert Counter(verdict.forced) == Counter(verdict.beaten.cards)


def test_a_verdict_compares_hashes_and_shows_its_fields_but_the_context() -> None:
    # A verdict is a tuple built in one step, yet compares as the frozen record it was.
    verdict = throw(deal(2, "H"), "♠K ♠Q ♠Q", "♠A ♦3")
    bare = verdict._replace(ctx=None)
    assert verdict == bare and (verdict != bare) is False and hash(verdict) == hash(bare)
    assert verdict != tuple(verdict) and tuple(verdict) != verdict
    assert verdict != throw(deal(2, "H"), "♠A ♠Q ♠Q", "♠K ♦3")
    assert repr(verdict).startswith("ThrowVerdict(combo=Combo(") and "ctx=" not in repr(verdict)
    with pytest.raises(AttributeError):
        verdict.allowed = True  # type: ignore[misc]
