"""Follow hints by shape (issue 8, item 4): what a follow from a hand must hold, in words."""

from __future__ import annotations

from checker.engine.cards import parse_cards
from checker.engine.combos import classify
from checker.engine.follow import judge_follow
from checker.engine.hints import requirement_words
from checker.engine.order import make_context
from checker.engine.ruleset import load_ruleset

CTX = make_context(load_ruleset("classic"), 2, "H")


def words(lead: str, hand: str, lang: str = "zh") -> str:
    return requirement_words(CTX, classify(CTX, parse_cards(lead)), parse_cards(hand), lang)  # type: ignore[arg-type]


def test_pair_plus_free_cards_of_the_suit() -> None:
    assert words("SA SA SK SQ", "S3 S3 S5 S6 S7") == "须出：一对♠ + 任意 2 张♠"
    assert words("SA SA SK SQ", "S3 S3 S5 S6 S7", "en") == "Must play: a ♠ pair + any 2 ♠"


def test_tractor_named_by_its_length() -> None:
    assert words("SA SA SK SK", "S3 S3 S4 S4 S9") == "须出：2连对拖拉机（♠）"


def test_short_suit_plays_all_of_it_then_anything() -> None:
    assert words("SA SA SK", "S3 D4 D5 C6") == "须出：全部 1 张♠ + 任意 2 张其他牌"


def test_void_in_a_side_suit_may_ruff_but_not_in_trumps() -> None:
    assert "用主牌杀" in words("SA", "D4 C5")
    assert words("HA", "D4 C5") == "须出：任意 1 张（没有主牌，只能垫牌）"


def test_trump_lead_void_explanation_offers_no_ruff() -> None:
    lead = classify(CTX, parse_cards("HA"))
    verdict = judge_follow(CTX, lead, parse_cards("D4 C5"), parse_cards("D4"))
    assert verdict.legal and "用主牌杀" not in verdict.explanation
    assert "ruff" not in verdict.explanation_en
