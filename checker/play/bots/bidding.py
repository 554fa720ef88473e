"""Bidding rulesets (二七王): the bid a hand is worth, the surrender decision and the trump
suit the banker names, all from the hand's strength."""

from __future__ import annotations

from checker.engine.cards import Card

from ..players import PlayerView
from .strength import best_suit, bid_strength, permanent_trumps

# A hand with this many permanent trumps (jokers and the fixed ranks) bids the ruleset's
# highest (weakest) bid; each one more lowers the bid by one step.
BID_BASE = 8
# At the surrender bid, a banker whose hand with the kitty measures under this gives up.
SURRENDER_BELOW = 14.0


def bid_target(view: PlayerView, low: int, high: int, step: int) -> int:
    """Return the lowest bid this hand is worth (lower bids promise more)."""
    permanent = permanent_trumps(view.ruleset, view.hand)
    return max(low, high - step * max(0, permanent - BID_BASE))


def choose_bid(view: PlayerView, low: int, high: int, step: int, must: bool) -> int | None:
    """Bid when the hand is worth a lower bid than the standing one; pass otherwise."""
    target = bid_target(view, low, high, step)
    standing = [b for _, b in view.bids if b is not None]
    if must or not standing:
        return target
    best = min(standing)
    if target < best:
        # Bid one step under the standing bid while the hand is worth it, not the whole way.
        return max(target, best - step)
    return None


def should_surrender(view: PlayerView) -> bool:
    """Give up at the surrender bid when the hand with the kitty is still weak."""
    return bid_strength(view.ruleset, view.hand) < SURRENDER_BELOW


def choose_trump(view: PlayerView) -> str:
    """Name the suit with the most would-be trumps (pairs break ties) as trump."""
    hand: list[Card] = list(view.hand)
    return best_suit(view.ruleset, None, hand)[0]
