"""The hand's display order lives in one engine function (`Context.sort_cards`), answered through
the ruleset (`Ruleset.hand_suits`): trumps first, strongest first; then the side suits in the
ruleset's order (alternating colours unless its seed says otherwise), each from high to low;
equal trumps (off-suit level cards, fixed trumps) in the same suit order (issue 25.5)."""

from __future__ import annotations

import random

import pytest
import yaml

from checker.engine.cards import format_card
from checker.engine.errors import RulesetError
from checker.engine.order import context_for
from checker.engine.ruleset import RULESET_DIR, load_ruleset, parse_ruleset

from .util import cs


def shown(ruleset: str, level: int | None, trump: str | None, hand: str, **kw: bool) -> str:
    """Shuffle a hand and sort it for display under a ruleset and deal; return it as text."""
    cards = cs(hand)
    random.Random(len(cards)).shuffle(cards)
    ctx = context_for(load_ruleset(ruleset), level, trump)
    return " ".join(format_card(c) for c in ctx.sort_cards(cards, **kw))


def test_trump_suit_deal_shows_trumps_then_alternating_colours() -> None:
    hand = "♦3 ♣A ♠K 大王 ♥2 ♠2 ♦A ♥A 小王 ♥5 ♣2 ♦2 ♠3"
    assert shown("classic", 2, "H", hand) == "大王 小王 ♥2 ♠2 ♣2 ♦2 ♥A ♥5 ♠K ♠3 ♣A ♦A ♦3"


def test_no_trump_deal_shows_level_cards_in_suit_order() -> None:
    hand = "♣5 ♥5 小王 ♠A ♦5 ♣A ♥2 ♠5 大王"
    assert shown("classic", 5, None, hand) == "大王 小王 ♠5 ♥5 ♣5 ♦5 ♠A ♥2 ♣A"


def test_erqiwang_fixed_trumps_7_above_2_each_in_suit_order() -> None:
    hand = "♣2 ♥7 ♠A 小王 ♦7 ♠2 ♣7 ♠7 ♥A ♦K ♥2"
    assert shown("erqiwang", None, "S", hand) == "小王 ♠7 ♥7 ♣7 ♦7 ♠2 ♥2 ♣2 ♠A ♥A ♦K"
    assert shown("erqiwang", None, None, hand) == "小王 ♠7 ♥7 ♣7 ♦7 ♠2 ♥2 ♣2 ♠A ♥A ♦K"


def test_multideck_copies_stay_together_and_2s_are_trump() -> None:
    hand = "♠4 ♦2 ♠4 ♠4 ♣K ♥2 ♥3 ♥3 ♣3 大王 大王 大王 ♦9"
    expected = "大王 大王 大王 ♥3 ♥3 ♣3 ♥2 ♦2 ♠4 ♠4 ♠4 ♣K ♦9"
    assert shown("multideck", 3, "H", hand) == expected


def test_shuangsheng_shows_its_seeds_suit_order() -> None:
    assert load_ruleset("shuangsheng").hand_suits == "SHDC"
    hand = "♣3 ♠K 大王 ♥2 ♠2 ♦A ♥A 小王 ♥5 ♣2"
    assert shown("shuangsheng", 2, "H", hand) == "大王 小王 ♥2 ♠2 ♣2 ♥A ♥5 ♠K ♦A ♣3"


def test_by_rank_keeps_trumps_first_then_the_suits_of_one_rank_together() -> None:
    hand = "♦3 ♣A ♠K 大王 ♥2 ♠2 ♦A ♥A ♥5 ♠3"
    assert shown("classic", 2, "H", hand, by_rank=True) == "大王 ♥2 ♠2 ♥A ♥5 ♣A ♦A ♠K ♠3 ♦3"


def test_the_deck_in_display_order_holds_each_card_once() -> None:
    ctx = context_for(load_ruleset("classic"), 2, "S")
    deck = ctx.display_deck()
    assert len(deck) == len(set(deck)) == 54
    assert ctx.sort_cards(reversed(deck)) == deck


def test_a_ruleset_naming_other_suits_is_refused() -> None:
    data = yaml.safe_load((RULESET_DIR / "classic.yaml").read_text(encoding="utf-8"))
    with pytest.raises(RulesetError, match="hand_suits"):
        parse_ruleset(data | {"hand_suits": "SHCX"}, "x.yaml")
