"""Round rules outside the tricks themselves: the 暗牌 shown at a 70 bid (二七王 §4.3), 报无主
(§5.4.2) and the ban on throwing again after a failed throw (§5.4.5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .cards import Card
from .order import TRUMP, Context
from .ruleset import Ruleset


def is_kitty_shown(rs: Ruleset, bid: int | None) -> bool:
    """Tell whether the 暗牌 are shown to every player before the banker takes them."""
    show = (rs.bidding or {}).get("show_kitty")
    return show is not None and bid == int(show)


def announces_no_trump(rs: Ruleset) -> bool:
    """Tell whether players must announce 无主 when they run out of trumps."""
    return bool((rs.reveal_rules or {}).get("no_trump", False))


def must_announce_no_trump(ctx: Context, hand: Sequence[Card]) -> bool:
    """Tell whether a hand with cards left but no trump must announce 无主."""
    return bool(hand) and all(ctx.key[c][0] != TRUMP for c in hand)


def trump_count(ctx: Context, hand: Sequence[Card]) -> tuple[int, int]:
    """Count a hand's trumps and the pairs among them (§9: what 可查牌 shows after 报无主)."""
    trumps = Counter(c for c in hand if ctx.key[c][0] == TRUMP)
    return sum(trumps.values()), sum(n // 2 for n in trumps.values())
