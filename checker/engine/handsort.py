"""The hand's display order as data, for a client that sorts cards itself (check.js).

The order is the engine's one display order (`order.Context.sort_cards`, answered through
`Ruleset.hand_suits`); this module only writes it out for every deal a page can pick.
"""

from __future__ import annotations

from .cards import SUITS, ascii_card
from .order import context_for
from .ruleset import Ruleset


def deal_key(level: int | None, trump: str | None) -> str:
    """Name a deal in `hand_orders`: the level rank's number and the trump letter, e.g. 2|H,
    10|none, or |S without a level."""
    return f"{level or ''}|{trump or 'none'}"


def hand_orders(ruleset: Ruleset) -> dict[str, dict[str, object]]:
    """Return, per deal (`deal_key`), the deck in display order (ASCII spellings, space-separated)
    and how many of its first cards are trumps."""
    levels: tuple[int | None, ...] = ruleset.ranks if ruleset.has_level else (None,)
    out: dict[str, dict[str, object]] = {}
    for level in levels:
        for trump in (*SUITS, None):
            ctx = context_for(ruleset, level, trump)
            deck = ctx.display_deck()
            out[deal_key(level, trump)] = {
                "cards": " ".join(ascii_card(c) for c in deck),
                "trumps": sum(1 for c in deck if ctx.is_trump(c)),
            }
    return out
