"""Readings of a lead ("which did you mean?"): the rules' reading and the other splits, each
built directly from the cards' copies (no subset search), with the reason in both languages."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from checker.engine.cards import SMALL, Card
from checker.engine.combos import classify
from checker.engine.order import Context, make_context
from checker.engine.readings import LINKED, WIDER, Reading, lead_readings, shape_of, split
from checker.engine.ruleset import load_ruleset

from .util import cs, deal

MULTI = load_ruleset("multideck")


def multi(decks: int = 3) -> Context:
    """A multideck deal at level 3, hearts trump."""
    return make_context(MULTI.with_options({"decks": decks}), 3, "H")


def read(ctx: Context, text: str) -> tuple[Reading, list[tuple[tuple[tuple[int, int], ...], str]]]:
    """The rules' reading and each other reading as (shape, why)."""
    readings = lead_readings(ctx, cs(text))
    assert readings is not None
    return readings.chosen, [(shape_of(r.units), r.why) for r in readings.others]


def test_a_triple_and_a_pair_could_be_a_tractor_and_a_single_but_read_widest_first() -> None:
    chosen, others = read(multi(), "S5 S5 S5 S6 S6")
    assert shape_of(chosen.units) == ((3, 1), (2, 1))
    assert others == [(((2, 2), (1, 1)), WIDER)]


def test_adjacent_pairs_could_be_two_pairs_but_read_as_a_tractor() -> None:
    chosen, others = read(deal(2, "H"), "S5 S5 S6 S6 S8")
    assert shape_of(chosen.units) == ((2, 2), (1, 1))
    assert others == [(((2, 1), (2, 1), (1, 1)), LINKED)]


def test_a_bulldozer_has_a_narrower_and_an_unlinked_reading() -> None:
    _, others = read(multi(), "S5 S5 S5 S6 S6 S6")
    assert others == [
        (((2, 2), (1, 1), (1, 1)), WIDER),
        (((3, 1), (3, 1)), LINKED),
    ]


def test_four_decks_list_one_narrower_the_pairs_only_and_the_unlinked_reading() -> None:
    _, others = read(multi(4), "S5 S5 S5 S5 S6 S6 S7 S7")
    assert others == [
        (((3, 1), (2, 2), (1, 1)), WIDER),
        (((2, 3), (2, 1)), WIDER),
        (((4, 1), (2, 1), (2, 1)), LINKED),
    ]


@pytest.mark.parametrize("text", ["S5 S5 S8", "S5 S6 S9", "S5", "S5 S5", "S5 H6"])
def test_a_lead_with_one_reading_or_an_invalid_lead_has_none(text: str) -> None:
    assert lead_readings(multi(), cs(text)) is None


def test_every_reading_holds_exactly_the_lead_cards() -> None:
    cards = cs("S5 S5 S5 S6 S6 S6 S7 S7 S9")
    readings = lead_readings(multi(), cards)
    assert readings is not None
    for reading in (readings.chosen, *readings.others):
        assert Counter(c for u in reading.units for c in u.cards) == Counter(cards)


def test_split_at_the_widest_width_is_the_rules_reading() -> None:
    """The direct split reproduces the classification on random one-suit picks."""
    rng = random.Random(26)
    for decks in (2, 3, 4):
        ctx = multi(decks)
        spades = [c for c in ctx.key if c.suit == "S" and ctx.key[c][0] == "S"]
        for _ in range(200):
            cards = rng.sample([c for c in spades for _ in range(decks)], rng.randint(2, 12))
            combo = classify(ctx, cards)
            assert shape_of(split(ctx, cards, combo.width)) == shape_of(combo.units)


def test_the_mixed_joker_pair_keeps_its_real_cards_in_every_reading() -> None:
    rs = load_ruleset("shuangsheng").with_options({"joker_pair": "mixed"})
    ctx = make_context(rs, 2, "H")
    cards: list[Card] = cs("BJ LJ H2 H2")
    readings = lead_readings(ctx, cards)
    assert readings is not None
    for reading in readings.others:
        assert Counter(c for u in reading.units for c in u.cards) == Counter(cards)
    assert shape_of(readings.chosen.units) == ((2, 2),)
    assert SMALL in readings.chosen.units[0].cards


def test_the_reading_is_said_in_both_languages() -> None:
    readings = lead_readings(deal(2, "H"), cs("S5 S5 S6 S6 S8"))
    assert readings is not None
    assert readings.text("zh") == (
        "这手牌读作：拖拉机 ♠6 ♠6 ♠5 ♠5 + 单张 ♠8（也可看作 对子 ♠6 ♠6 + 对子 ♠5 ♠5 + 单张 ♠8，"
        "按规则读作前者，因为同宽度的相邻分量连成最长的拖拉机）"
    )
    assert readings.text("en") == (
        "Read as: tractor ♠6 ♠6 ♠5 ♠5 + single ♠8 (it could also be seen as pair ♠6 ♠6 + "
        "pair ♠5 ♠5 + single ♠8; the rules read it the first way because adjacent units of one "
        "width join into the longest tractor)."
    )
