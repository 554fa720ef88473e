"""Comparing plays that answer one lead: width before rank for one-unit plays (5555 > 6677),
and layer by layer, unit shape by unit shape, for ruffs of a throw."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .combos import SINGLE, TRACTOR, Combo, classify, structure_key
from .order import Context
from .units import Stock

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
    combo = classify(ctx, cards)
    if len(combo.units) != 1:
        return None
    unit = combo.units[0]
    if unit.width < lead.width:
        return None
    return (unit.width, unit.top)


@dataclass(frozen=True)
class RuffKey:
    """Strength of a play holding the lead's full structure, layer by layer (widest first)."""

    layers: tuple[tuple[int, ...], ...]

    def value(self, every_unit: bool) -> tuple[tuple[int, ...], ...]:
        if every_unit:
            return self.layers
        return tuple(layer[:1] for layer in self.layers)


def _layer(width: int, length: int) -> tuple[int, int]:
    """Order layers: wider first, tractors before n-of-a-kind of the same width."""
    return (width, 1 if length >= 2 else 0)


def ruff_key(ctx: Context, lead: Combo, cards: Sequence[Card]) -> RuffKey | None:
    """Match cards unit by unit to the lead with the highest units; None if they lack its shape.

    One unit answers a one-unit lead by width then rank. A throw of pairs and singles is read
    by the exact `structure_key` (tractors in the lead's order, then pairs, then singles); a
    throw with wider units takes, unit by unit (widest first), the highest of each shape.
    """
    if lead.type == SINGLE and len(cards) == 1:
        return RuffKey(((), (), (ctx.key[cards[0]][1],)))
    if len(lead.units) == 1 and lead.type != SINGLE:
        key = unit_key(ctx, lead, cards)
        return None if key is None else RuffKey(((key[0],), (key[1],)))
    if lead.width <= 2:
        pairs = structure_key(ctx, lead, cards)
        return None if pairs is None else RuffKey((pairs.tractors, pairs.pairs, pairs.singles))
    stock = Stock(ctx, Counter(cards))
    tops: dict[tuple[int, int], list[int]] = {}
    for unit in lead.units:
        if unit.kind == SINGLE:
            continue
        width, span = unit.width, unit.span
        if unit.kind == TRACTOR:
            run = stock.highest_run(width, span)
            if run is None:
                return None
            stock.take(*run, width)
            top = run[1]
        else:
            places = [p for p in stock.at if stock.width_at(p) >= width]
            if not places:
                return None
            top = max(places)
            stock.take(top, top, width)
        tops.setdefault(_layer(width, span), []).append(top)
    singles = sorted((ctx.key[c][1] for c in stock.elements()), reverse=True)
    layers = [tuple(sorted(tops[k], reverse=True)) for k in sorted(tops, reverse=True)]
    layers.append(tuple(singles))
    return RuffKey(tuple(layers))
