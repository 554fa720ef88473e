"""大王 + 小王 as a pair (seed 004 §6 "王的特殊", option `joker_pair: mixed`).

A pair is two identical cards. Under `joker_pair: mixed` a 大王 and a 小王 left over once the
identical pairs are made also count as a pair, ranking as a 小王 pair (its lower card): it
connects where a 小王 pair does, and it must be played as a pair where a pair is owed.

The engine reads such cards through a *pair view*: one 大王 is read as a 小王 when both jokers
have an odd count, so every structure search (classification, follow, ruffs, throws) sees the
pair without knowing about it; `restore` turns the view's cards back into the real ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .cards import BIG, SMALL, Card
from .ruleset import Ruleset

JOKER_PAIR = "joker_pair"
MIXED = "mixed"


def mixes_jokers(rs: Ruleset) -> bool:
    """Tell whether a 大王 and a 小王 make a pair under this ruleset (option joker_pair)."""
    return rs.has_option(JOKER_PAIR) and rs.option(JOKER_PAIR) == MIXED


def pair_view(rs: Ruleset, cards: Sequence[Card]) -> list[Card]:
    """Read one 大王 as a 小王 when both jokers are odd in number (the mixed pair); else the
    cards themselves."""
    if BIG not in cards or SMALL not in cards or not mixes_jokers(rs):
        return list(cards)
    counts = Counter(cards)
    if counts[BIG] % 2 == 0 or counts[SMALL] % 2 == 0:
        return list(cards)
    out = list(cards)
    out[out.index(BIG)] = SMALL
    return out


def restore(real: Iterable[Card], seen: Sequence[Card]) -> list[Card]:
    """Give back the real cards of some cards chosen from a pair view of `real`: a 小王 beyond
    the real 小王s is the 大王 read as one."""
    if SMALL not in seen:
        return list(seen)
    small = Counter(real)[SMALL]
    out: list[Card] = []
    for card in seen:
        if card == SMALL:
            if small:
                small -= 1
            else:
                card = BIG
        out.append(card)
    return out
