"""Declaring and overriding trump (seed: 亮主规则)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from checker.engine.declare import DeclareVerdict, judge_declaration

from .util import CLASSIC, cs

ENHANCED = CLASSIC.with_options({"enhanced_joker_override": True})


def declare(
    cards: str,
    seat: int = 1,
    current: Sequence[tuple[int, str]] = (),
    hand: str | None = None,
    level: int = 2,
    enhanced: bool = False,
) -> DeclareVerdict:
    return judge_declaration(
        ENHANCED if enhanced else CLASSIC,
        level,
        [(s, cs(text)) for s, text in current],
        seat,
        cs(cards),
        None if hand is None else cs(hand),
    )


def outcome(v: DeclareVerdict) -> tuple[bool, str | None, int | None, str]:
    return v.accepted, v.trump, v.declarer, v.reason


# --- first declaration ------------------------------------------------------------------------


def test_single_level_card_declares_its_suit() -> None:
    assert outcome(declare("♥2", seat=0)) == (True, "H", 0, "")


def test_level_card_of_the_current_level_only() -> None:
    assert outcome(declare("♥7", seat=0, level=7)) == (True, "H", 0, "")
    assert outcome(declare("♥2", seat=0, level=7))[:2] == (False, None)
    assert declare("♥2", seat=0, level=7).reason == "not_level_card"


def test_first_declaration_may_be_a_level_pair() -> None:
    assert outcome(declare("♣2 ♣2", seat=3)) == (True, "C", 3, "")


@pytest.mark.parametrize("pair", ["小王 小王", "大王 大王"])
def test_joker_pair_declares_no_trump(pair: str) -> None:
    assert outcome(declare(pair, seat=2)) == (True, None, 2, "")


@pytest.mark.parametrize("joker", ["大王", "小王"])
def test_single_joker_cannot_declare(joker: str) -> None:
    assert outcome(declare(joker, seat=0, hand="大王 小王 小王")) == (
        False,
        None,
        None,
        "single_joker",
    )


def test_two_different_jokers_are_not_a_pair() -> None:
    assert declare("小王 大王", seat=0).reason == "not_a_pair"


def test_level_cards_of_two_suits_are_not_a_pair() -> None:
    assert declare("♠2 ♥2", seat=0).reason == "not_a_pair"


def test_non_level_pair_cannot_declare() -> None:
    assert declare("♠9 ♠9", seat=0).reason == "not_level_card"


def test_three_cards_cannot_declare() -> None:
    assert declare("♠2 ♠2 ♥2", seat=0).reason == "wrong_count"


def test_declared_cards_must_be_in_the_hand() -> None:
    assert declare("♠2 ♠2", seat=0, hand="♠2 ♥3").reason == "not_in_hand"
    assert declare("♠2 ♠2", seat=0, hand="♠2 ♠2 ♥3").accepted is True


# --- overriding ------------------------------------------------------------------------------


def test_single_cannot_follow_a_single() -> None:
    # 如果其它玩家已经亮主，则单张无法再亮
    assert outcome(declare("♥2", seat=1, current=[(0, "♠2")])) == (False, "S", 0, "not_stronger")


def test_single_joker_cannot_override_a_single() -> None:
    verdict = declare("大王", seat=1, current=[(0, "♠2")])
    assert verdict.accepted is False
    assert verdict.reason in ("not_stronger", "single_joker")
    assert (verdict.trump, verdict.declarer) == ("S", 0)


def test_pair_overrides_another_players_single() -> None:
    assert outcome(declare("♥2 ♥2", seat=1, current=[(0, "♠2")])) == (True, "H", 1, "")


def test_own_single_reinforced_by_own_same_suit_pair() -> None:
    assert outcome(declare("♠2 ♠2", seat=0, current=[(0, "♠2")])) == (True, "S", 0, "")


def test_own_single_cannot_be_changed_by_own_other_suit_pair() -> None:
    verdict = declare("♥2 ♥2", seat=0, current=[(0, "♠2")])
    assert verdict.accepted is False
    assert verdict.reason == "self_override"
    assert (verdict.trump, verdict.declarer) == ("S", 0)


def test_pair_cannot_override_a_pair() -> None:
    verdict = declare("♥2 ♥2", seat=1, current=[(0, "♠2 ♠2")])
    assert outcome(verdict) == (False, "S", 0, "not_stronger")


def test_locked_pair_after_own_single_cannot_be_overridden() -> None:
    verdict = declare("♥2 ♥2", seat=1, current=[(0, "♠2"), (0, "♠2 ♠2")])
    assert outcome(verdict) == (False, "S", 0, "not_stronger")


def test_latest_override_is_the_standing_declaration() -> None:
    verdict = declare("♦2", seat=3, current=[(0, "♠2"), (1, "♥2 ♥2")])
    assert outcome(verdict) == (False, "H", 1, "not_stronger")


def test_joker_pair_overrides_a_single_like_a_pair() -> None:
    assert outcome(declare("小王 小王", seat=1, current=[(0, "♠2")])) == (True, None, 1, "")


def test_joker_pair_cannot_override_a_level_pair_by_default() -> None:
    verdict = declare("大王 大王", seat=1, current=[(0, "♠2 ♠2")])
    assert outcome(verdict) == (False, "S", 0, "not_stronger")


def test_big_joker_pair_cannot_override_small_joker_pair_by_default() -> None:
    verdict = declare("大王 大王", seat=1, current=[(0, "小王 小王")])
    assert verdict.accepted is False
    assert verdict.reason == "not_stronger"


def test_level_pair_cannot_override_a_joker_pair() -> None:
    for enhanced in (False, True):
        verdict = declare("♥2 ♥2", seat=1, current=[(0, "小王 小王")], enhanced=enhanced)
        assert outcome(verdict) == (False, None, 0, "not_stronger")


# --- enhanced_joker_override ------------------------------------------------------------------


@pytest.mark.parametrize("pair", ["小王 小王", "大王 大王"])
def test_enhanced_joker_pair_overrides_a_level_pair(pair: str) -> None:
    verdict = declare(pair, seat=1, current=[(0, "♠2 ♠2")], enhanced=True)
    assert outcome(verdict) == (True, None, 1, "")


def test_enhanced_big_joker_pair_overrides_small_joker_pair() -> None:
    verdict = declare("大王 大王", seat=1, current=[(0, "小王 小王")], enhanced=True)
    assert outcome(verdict) == (True, None, 1, "")


def test_enhanced_small_joker_pair_cannot_override_big_joker_pair() -> None:
    verdict = declare("小王 小王", seat=1, current=[(0, "大王 大王")], enhanced=True)
    assert outcome(verdict) == (False, None, 0, "not_stronger")


def test_enhanced_does_not_let_a_level_pair_override_a_level_pair() -> None:
    verdict = declare("♥2 ♥2", seat=1, current=[(0, "♠2 ♠2")], enhanced=True)
    assert verdict.reason == "not_stronger"


def test_enhanced_still_refuses_a_single_joker() -> None:
    assert declare("大王", seat=0, enhanced=True).reason == "single_joker"


# --- explanations -----------------------------------------------------------------------------


def test_refusal_explanation_is_in_words() -> None:
    verdict = declare("♥2 ♥2", seat=1, current=[(0, "♠2 ♠2")])
    assert verdict.explanation.startswith("拒绝")


def test_acceptance_explanation_names_the_suit() -> None:
    assert "♥" in declare("♥2", seat=0).explanation
