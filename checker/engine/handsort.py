"""Hand order for display (seed 004 §1.1): trumps first, then ♠ ♥ ♦ ♣, each strongest first."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import Card
from .order import TRUMP, Context

# The side suits in the order a sorted hand shows them, and the tie order of equal trumps
# (the off-suit level cards, the off-suit 2s) by their suit.
SUIT_ORDER = ("S", "H", "D", "C")


def sort_hand(ctx: Context, cards: Iterable[Card]) -> list[Card]:
    """Sort a hand: trumps strongest first, then ♠ ♥ ♦ ♣ each from high to low."""
    groups = {TRUMP: 0, **{s: i + 1 for i, s in enumerate(SUIT_ORDER)}}
    suits = {s: i for i, s in enumerate(SUIT_ORDER)}

    def key(card: Card) -> tuple[int, int, int]:
        group, pos = ctx.key[card]
        return groups[group], -pos, suits.get(card.suit, -1)

    return sorted(cards, key=key)
