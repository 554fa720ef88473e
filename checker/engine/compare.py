"""Comparing plays that answer one lead: width before rank for one-unit plays (5555 > 6677),
and layer by layer, unit shape by unit shape, for ruffs of a throw (read exactly by `ruffs`)."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import BIG, SMALL, Card
from .combos import SINGLE, Combo, classify
from .order import Context
from .ruffs import RuffKey, read_throw_ruff

# A one-unit play's strength: (width, top position). Equal card counts only.
UnitKey = tuple[int, int]


def unit_key(ctx: Context, lead: Combo, cards: Sequence[Card]) -> UnitKey | None:
    """Return the strength of a one-unit play answering a one-unit lead, or None if it cannot.

    It must be one unit with as many cards as the lead and at least the lead's width: a wider
    unit of the same count outranks (相同数量的对牌大于相同数量的拖拉机); equal widths compare
    by the top rank. Under two decks this is exactly "same shape, then higher".
    """
    if len(cards) != len(lead.cards) or not lead.units:
        return None
    if len(cards) == 1:
        return (1, ctx.key[cards[0]][1])
    # Two different cards are two units (or none), unless they are both jokers, which some
    # rulesets read as a pair (`jokers.pair_view`).
    if len(cards) == 2 and cards[0] != cards[1] and (BIG not in cards or SMALL not in cards):
        return None
    combo = classify(ctx, cards)
    if len(combo.units) != 1:
        return None
    unit = combo.units[0]
    if unit.width < lead.width:
        return None
    return (unit.width, unit.top)


def ruff_key(ctx: Context, lead: Combo, cards: Sequence[Card]) -> RuffKey | None:
    """Read cards unit by unit in the lead's shape at their strongest; None if they lack it.

    One unit answers a one-unit lead by width then rank. A throw is read exactly at every
    width (`ruffs.read_throw_ruff`): each unit by a unit of its own width and span, layer by
    layer from the widest, then the singles.
    """
    if lead.type == SINGLE and len(cards) == 1:  # what read_throw_ruff reads, directly
        top = (ctx.key[cards[0]][1],)
        return RuffKey((top,), (top,))
    if len(lead.units) == 1 and lead.type != SINGLE:
        key = unit_key(ctx, lead, cards)
        return None if key is None else RuffKey(((key[0],), (key[1],)))
    shapes = [(u.width, u.span) for u in lead.units if u.kind != SINGLE]
    return read_throw_ruff(ctx, shapes, len(lead.units) - len(shapes), cards)


__all__ = ["RuffKey", "UnitKey", "ruff_key", "unit_key"]
