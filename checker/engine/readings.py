"""Readings of a lead ("which did you mean?"): the units the rules read it as, and the other
ways its cards could be split (narrower units, or the same units unlinked), each built
directly from the cards' copies, so a player sees how the engine reads a throw, and why,
before playing it. The rules fix the reading: widest units first, then the longest runs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, copies
from .combos import Unit, _real_units, classify, unit_table
from .jokers import pair_view
from .order import Context
from .texts import Lang, cards_text, pick
from .units import Stock, unit_kind

# Why the rules do not read the cards as another reading does.
WIDER = "wider"  # the other reading splits a wider unit: the widest units are read first
LINKED = "linked"  # the other reading leaves adjacent units apart: they join into a tractor


def split(ctx: Context, cards: Sequence[Card], widest: int, longest: int = 0) -> tuple[Unit, ...]:
    """Split cards of one group into units at most `widest` copies wide, widest first, each
    run of adjacent ranks at most `longest` long (0: any), the longest runs first."""
    stock = Stock(ctx, Counter(copies(cards)))
    units: list[Unit] = []
    for width in range(widest, 1, -1):
        while (run := stock.longest_run(width, longest)) is not None:
            low, high = run
            taken = tuple(stock.take(low, high, width))
            top = high if high > low else ctx.key[taken[0]][1]
            units.append(Unit(unit_kind(width, high - low + 1), taken, top, high - low + 1))
    units.sort(key=lambda u: (-u.width, -u.length, -u.top))
    strength = unit_table(ctx).strength
    left = sorted(stock.elements(), key=strength.__getitem__, reverse=True)
    return (*units, *(unit_table(ctx).single[c] for c in left))


def shape_of(units: Sequence[Unit]) -> tuple[tuple[int, int], ...]:
    """Return a reading's shape: each unit's (width, span), biggest first."""
    return tuple(sorted(((u.width, u.span) for u in units), reverse=True))


@dataclass(frozen=True)
class Reading:
    """One way to read a lead: its units, and (for another reading) why the rules do not."""

    units: tuple[Unit, ...]
    why: str = ""


@dataclass(frozen=True)
class Readings:
    """The rules' reading of a lead and the other readings its cards allow."""

    ctx: Context
    chosen: Reading
    others: tuple[Reading, ...]

    def words(self, reading: Reading, lang: Lang) -> str:
        """Write a reading as its units, e.g. 拖拉机 ♠5 ♠5 ♠6 ♠6 + 单张 ♠8."""
        units = reading.units
        return " + ".join(f"{u.name(self.ctx, lang)} {cards_text(u.cards, lang)}" for u in units)

    def why(self, lang: Lang) -> str:
        """Say why the rules read the cards their way and not the others'."""
        said = {
            WIDER: pick(
                lang,
                "先读最宽的分量：相同张数时宽的大，跟牌也先同再降",
                "the widest units are read first, as at the same number of cards the wider unit "
                "is bigger and a follow owes the same width first",
            ),
            LINKED: pick(
                lang,
                "同宽度的相邻分量连成最长的拖拉机",
                "adjacent units of one width join into the longest tractor",
            ),
        }
        whys = dict.fromkeys(r.why for r in self.others)
        return pick(lang, "；", "; and ").join(said[w] for w in whys)

    def text(self, lang: Lang) -> str:
        """Say how the rules read the lead, what else it could be seen as, and why."""
        chosen = self.words(self.chosen, lang)
        others = pick(lang, "；或 ", "; or ").join(self.words(r, lang) for r in self.others)
        return pick(
            lang,
            f"这手牌读作：{chosen}（也可看作 {others}，按规则读作前者，因为{self.why(lang)}）",
            f"Read as: {chosen} (it could also be seen as {others}; the rules read it the first "
            f"way because {self.why(lang)}).",
        )


def lead_readings(ctx: Context, cards: Sequence[Card]) -> Readings | None:
    """Read a lead as the rules do and list the other ways to split it; None when the lead is
    invalid or its cards allow no other reading.

    The others are built directly: the cards read at most one copy narrower than the
    widest unit, read as pairs only, and read with the same widths but no runs.
    """
    combo = classify(ctx, cards)
    if not combo.is_valid:
        return None
    view = pair_view(ctx.ruleset, cards)
    widest = max(u.width for u in combo.units)
    tries = [(cap, 0, WIDER) for cap in dict.fromkeys((widest - 1, 2)) if 2 <= cap < widest]
    if any(u.span > 1 for u in combo.units):
        tries.append((widest, 1, LINKED))
    seen = {shape_of(combo.units)}
    others: list[Reading] = []
    for cap, longest, why in tries:
        units = split(ctx, view, cap, longest)
        if shape_of(units) not in seen:
            seen.add(shape_of(units))
            others.append(Reading(_real_units(cards, units), why))
    if not others:
        return None
    return Readings(ctx, Reading(combo.units), tuple(others))
