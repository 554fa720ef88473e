"""Combinations (seed: 出牌组合): singles, pairs, tractors, throws and their decomposition."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from checker.engine.cards import BIG, SMALL, Card
from checker.engine.combos import INVALID, PAIR, SINGLE, THROW, TRACTOR, Combo, Unit, classify
from checker.engine.order import TRUMP, Context

from .util import cs, deal


def kind(ctx: Context, text: str) -> str:
    return classify(ctx, cs(text)).type


def shape(combo: Combo) -> tuple[list[int], int, int]:
    """(tractor lengths longest first, standalone pairs, standalone singles)."""
    return (
        [u.length for u in combo.tractors],
        len(combo.pairs),
        len(combo.singles),
    )


# --- singles and pairs ---------------------------------------------------------------------


def test_a_unit_is_a_fixed_record_of_its_fields() -> None:
    ctx = deal(2, "H")
    unit = classify(ctx, cs("♠5 ♠5 ♠6 ♠6")).units[0]
    assert unit == Unit(TRACTOR, tuple(cs("♠6 ♠6 ♠5 ♠5")), unit.top, 2)
    assert hash(unit) == hash(classify(ctx, cs("♠6 ♠6 ♠5 ♠5")).units[0])
    assert (unit.size, unit.width, unit.span) == (4, 2, 2)
    with pytest.raises(AttributeError):
        unit.top = 0  # type: ignore[misc]
    assert not hasattr(unit, "__dict__")
    assert repr(unit).startswith("Unit(kind='tractor', cards=(")


def test_single_is_any_one_card() -> None:
    ctx = deal(2, "H")
    for text in ("♠3", "♥A", "♣2", "大王"):
        assert kind(ctx, text) == SINGLE


def test_pair_requires_identical_cards() -> None:
    ctx = deal(2, "H")
    combo = classify(ctx, cs("♠Q ♠Q"))
    assert combo.type == PAIR
    assert combo.group == "S"


def test_same_rank_different_suits_is_not_a_pair() -> None:
    # ♠Q ♥Q: two side suits (trump ♣) cannot even be led together.
    assert kind(deal(2, "C"), "♠Q ♥Q") == INVALID


def test_big_and_small_joker_do_not_pair() -> None:
    combo = classify(deal(2, None), cs("小王 大王"))
    assert combo.type == THROW
    assert shape(combo) == ([], 0, 2)


def test_level_cards_of_different_suits_do_not_pair() -> None:
    # 打♠2: ♥2 + ♣2 is a throw of two singles, not a pair.
    combo = classify(deal(2, "S"), cs("♥2 ♣2"))
    assert combo.type == THROW
    assert combo.group == TRUMP
    assert shape(combo) == ([], 0, 2)


def test_trump_pair_of_jokers() -> None:
    assert kind(deal(2, "H"), "大王 大王") == PAIR
    assert kind(deal(2, "H"), "小王 小王") == PAIR


# --- tractors: every example of the seed's rule section -------------------------------------


@pytest.mark.parametrize(
    ("level", "trump", "cards"),
    [
        (10, "H", "♠9♠9 ♠J♠J"),  # 打 10: skips the level rank
        (5, "H", "♠4♠4 ♠6♠6"),  # 打 5: skips the level rank
        (2, "S", "♠2♠2 小王小王"),  # trump-suit level next to 小王
        (2, "S", "♦2♦2 ♠2♠2"),  # off-suit level next to trump-suit level
        (2, "S", "♠A♠A ♦2♦2"),  # top plain trump next to off-suit level
        (2, None, "♠2♠2 小王小王"),  # no-trump: level cards next to 小王
        (2, None, "小王小王 大王大王"),
        (3, "H", "♥3♥3 小王小王"),
        (3, "H", "♣3♣3 ♥3♥3"),
        (3, "H", "♥A♥A ♣3♣3"),
        ("A", "C", "♣A♣A 小王小王"),
        ("A", "C", "♠A♠A ♣A♣A"),
        ("A", "C", "♣K♣K ♠A♠A"),
        (2, "C", "♣9♣9 ♣10♣10"),
    ],
)
def test_consecutive_pairs_are_a_tractor(level: object, trump: str | None, cards: str) -> None:
    combo = classify(deal(level, trump), cs(cards))
    assert combo.type == TRACTOR
    assert combo.units[0].length == 2


def test_three_pair_trump_tractor_level_small_big() -> None:
    # 打♠2: ♠2♠2 小王小王 大王大王 is one tractor of three pairs.
    combo = classify(deal(2, "S"), cs("♠2♠2 小王小王 大王大王"))
    assert combo.type == TRACTOR
    assert combo.units[0].length == 3


@pytest.mark.parametrize(
    ("level", "trump", "cards"),
    [
        (2, "S", "♦2♦2 小王小王"),  # ♠2 lies between
        (2, "S", "♠A♠A ♠2♠2"),  # the off-suit 2s lie between
        (3, "H", "♣3♣3 小王小王"),
        (3, "H", "♥A♥A ♥3♥3"),
        ("A", "C", "♠A♠A 小王小王"),
        ("A", "C", "♣K♣K ♣A♣A"),
        (2, "H", "♠3♠3 ♠5♠5"),  # gap in a side suit
    ],
)
def test_pairs_with_a_card_between_are_not_a_tractor(
    level: object, trump: str | None, cards: str
) -> None:
    combo = classify(deal(level, trump), cs(cards))
    assert combo.type == THROW
    assert shape(combo) == ([], 2, 0)


def test_pairs_of_equal_offsuit_level_cards_are_not_a_tractor() -> None:
    # 无主打2: ♠2♠2 ♥2♥2 ♦2 ♣2 is a throw of 2 pairs and 2 singles.
    combo = classify(deal(2, None), cs("♠2 ♠2 ♥2 ♥2 ♦2 ♣2"))
    assert combo.type == THROW
    assert shape(combo) == ([], 2, 2)


def test_offsuit_level_singles_with_trump_pair_are_not_a_tractor() -> None:
    # 打♥J: ♣J ♦J ♥A♥A is a throw (pair + 2 singles), not a tractor.
    combo = classify(deal("J", "H"), cs("♣J ♦J ♥A ♥A"))
    assert combo.type == THROW
    assert shape(combo) == ([], 1, 2)


def test_side_suit_pairs_across_the_trump_gap_are_not_a_tractor() -> None:
    # 打2主♣: ♣K♣K ♠A ♥A — ♠A and ♥A are different side suits.
    assert kind(deal(2, "C"), "♣K ♣K ♠A ♥A") == INVALID


def test_level_pair_and_small_joker_in_a_suit_game_are_not_adjacent_when_offsuit() -> None:
    assert classify(deal(7, "D"), cs("♣7♣7 小王小王")).type == THROW


def test_tractor_through_offsuit_level_and_trump_level_into_jokers() -> None:
    combo = classify(deal(2, "H"), cs("♥A♥A ♠2♠2 ♥2♥2 小王小王 大王大王"))
    assert combo.type == TRACTOR
    assert combo.units[0].length == 5


# --- throws ----------------------------------------------------------------------------------


def test_throw_is_singles_pairs_and_tractors_of_one_suit() -> None:
    combo = classify(deal(2, "H"), cs("♠A ♠Q ♠J ♠J"))
    assert combo.type == THROW
    assert combo.group == "S"
    assert shape(combo) == ([], 1, 2)


def test_throw_decomposes_tractors_longest_first_then_pairs_then_singles() -> None:
    combo = classify(deal(2, "H"), cs("♠3♠3 ♠8♠8♠9♠9 ♠4♠4♠5♠5 ♠J♠J ♠A ♠K"))
    assert combo.type == THROW
    assert shape(combo) == ([3, 2], 1, 2)
    kinds = [u.kind for u in combo.units]
    assert kinds == [TRACTOR, TRACTOR, PAIR, SINGLE, SINGLE]
    assert Counter(combo.units[0].cards) == Counter(cs("♠3♠3♠4♠4♠5♠5"))
    assert Counter(combo.units[2].cards) == Counter(cs("♠J♠J"))


def test_throw_units_hold_exactly_the_cards_played() -> None:
    cards = cs("♠3♠3 ♠4♠4 ♠6♠6 ♠7 ♠K♠K ♠A")
    combo = classify(deal(2, "H"), cards)
    assert Counter(x for u in combo.units for x in u.cards) == Counter(cards)


def test_trump_throw_with_level_and_joker_units() -> None:
    combo = classify(deal(2, "S"), cs("♠A♠A ♦2♦2 大王 ♠3"))
    assert combo.type == THROW
    assert combo.group == TRUMP
    assert shape(combo) == ([2], 0, 2)


def test_cards_of_a_side_suit_and_trump_cannot_be_led_together() -> None:
    combo = classify(deal(2, "H"), cs("♠A ♥A"))
    assert combo.type == INVALID
    assert combo.reason


def test_level_card_belongs_to_trump_not_to_its_printed_suit() -> None:
    # ♠2 is trump when playing 2 (hearts trump): it cannot go with spades.
    assert kind(deal(2, "H"), "♠A ♠2") == INVALID
    assert kind(deal(2, "H"), "♥A ♠2") == THROW


def test_no_cards_is_invalid() -> None:
    assert classify(deal(2, "H"), []).type == INVALID


# --- classification does not depend on card order (property) --------------------------------

SUIT_CARDS = st.lists(st.integers(0, 2), min_size=13, max_size=13)


def spades_from_counts(counts: list[int]) -> list[Card]:
    return [Card("S", rank) for rank, n in zip(range(2, 15), counts, strict=True) for _ in range(n)]


def trumps_from_counts(ctx: Context, counts: list[int]) -> list[Card]:
    faces = sorted(x for x in ctx.deck if ctx.is_trump(x))
    return [face for face, n in zip(faces, counts, strict=False) for _ in range(n)]


def signature(combo: Combo) -> tuple[str, list[tuple[str, int, int, tuple[Card, ...]]]]:
    units = sorted((u.kind, u.length, u.top, tuple(sorted(u.cards))) for u in combo.units)
    return combo.type, units


@given(
    counts=SUIT_CARDS,
    level=st.integers(2, 14),
    trump=st.sampled_from(["S", "H", None]),
    data=st.data(),
)
def test_classification_is_independent_of_card_order(
    counts: list[int], level: int, trump: str | None, data: st.DataObject
) -> None:
    ctx = deal("23456789TJQKA"[level - 2], trump)
    # one group: all spades when spades are trump, else the side suit without its level card
    cards = [x for x in spades_from_counts(counts) if trump == "S" or x.rank != level]
    shuffled = data.draw(st.permutations(cards))
    assert signature(classify(ctx, shuffled)) == signature(classify(ctx, cards))


@given(
    counts=st.lists(st.integers(0, 2), min_size=18, max_size=18),
    level=st.integers(2, 14),
    trump=st.sampled_from(["S", "D", None]),
    data=st.data(),
)
def test_trump_classification_is_independent_of_card_order(
    counts: list[int], level: int, trump: str | None, data: st.DataObject
) -> None:
    ctx = deal("23456789TJQKA"[level - 2], trump)
    cards = trumps_from_counts(ctx, counts)
    shuffled = data.draw(st.permutations(cards))
    combo = classify(ctx, shuffled)
    assert signature(combo) == signature(classify(ctx, cards))
    if cards:
        assert combo.group == TRUMP
        assert Counter(x for u in combo.units for x in u.cards) == Counter(cards)


@given(counts=SUIT_CARDS, data=st.data())
def test_decomposition_accounts_for_every_card(counts: list[int], data: st.DataObject) -> None:
    ctx = deal(2, "H")
    side = [x for x in spades_from_counts(counts) if x.rank != 2]
    cards = data.draw(st.permutations(side))
    combo = classify(ctx, cards)
    assert Counter(x for u in combo.units for x in u.cards) == Counter(cards)
    assert (combo.type in (SINGLE, PAIR, TRACTOR)) == (len(combo.units) == 1 and bool(cards))
    if cards and len(combo.units) > 1:
        assert combo.type == THROW
    lengths = [u.length for u in combo.tractors]
    assert lengths == sorted(lengths, reverse=True)
    # units come tractors first, then pairs, then singles
    order = {TRACTOR: 0, PAIR: 1, SINGLE: 2}
    assert [order[u.kind] for u in combo.units] == sorted(order[u.kind] for u in combo.units)


@given(start=st.integers(3, 13), length=st.integers(2, 12), data=st.data())
def test_an_unbroken_run_of_pairs_is_one_tractor(
    start: int, length: int, data: st.DataObject
) -> None:
    # Playing 2 (hearts trump): spades run 3..A with no level card inside.
    ranks = list(range(start, min(start + length, 15)))
    if len(ranks) < 2:
        return
    cards = data.draw(st.permutations([Card("S", r) for r in ranks for _ in range(2)]))
    combo = classify(deal(2, "H"), cards)
    assert combo.type == TRACTOR
    assert combo.units[0].length == len(ranks)


@given(counts=SUIT_CARDS)
def test_no_pair_means_all_singles(counts: list[int]) -> None:
    ctx = deal(2, "H")
    cards = [Card("S", r) for r, n in zip(range(3, 15), counts[1:], strict=True) if n]
    combo = classify(ctx, cards)
    if len(cards) > 1:
        assert combo.type == THROW
        assert shape(combo) == ([], 0, len(cards))


def test_jokers_only_in_trump() -> None:
    ctx = deal(2, "H")
    assert classify(ctx, [BIG, SMALL]).group == TRUMP
