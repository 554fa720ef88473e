"""Hand strength for declaring: suit and no-trump strength and the quarter/half gates."""

from __future__ import annotations

from checker.engine.ruleset import load_ruleset
from checker.play.bots.strength import (
    below_half,
    below_quarter,
    nt_strength,
    strength_scale,
    suit_strength,
)

from .util import cards

RS = load_ruleset("classic")


def test_suit_strength_counts_suit_and_level_cards_not_jokers() -> None:
    hand = cards("♣2 ♣2 ♥2 ♣5 ♣9 大王 ♠3")
    assert suit_strength(RS, 2, hand, "C") == 5
    assert suit_strength(RS, 2, hand, "S") == 4


def test_no_trump_strength_counts_jokers_and_level_cards() -> None:
    assert nt_strength(RS, 2, cards("大王 大王 ♥2 ♦2 ♠5")) == 4


def test_gates_are_a_quarter_and_half_of_the_non_joker_trumps() -> None:
    assert strength_scale(RS, 2) == 32
    assert below_quarter(RS, 2, 4) and not below_quarter(RS, 2, 8)
    assert below_half(RS, 2, 13) and not below_half(RS, 2, 16)


def test_fixed_trump_ranks_count_in_every_suit_under_shuangsheng() -> None:
    ss = load_ruleset("shuangsheng")
    assert suit_strength(ss, 5, cards("♣2 ♥5 ♠9"), "S") == 3
