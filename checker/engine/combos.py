"""Combinations: splitting cards of one group into tractors, pairs and singles, and matching
a follower's cards against the structure of a lead."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import NamedTuple, cast

from .cards import BIG, SMALL, Card, copies
from .held import OUTSIDE
from .jokers import pair_view, restore
from .order import TRUMP, Context
from .records import fast_init
from .ruffs import RuffKey, read_throw_ruff
from .structure import Answer as Answer
from .structure import plan_answer, rank_answer
from .texts import ZH, Lang, cards_text, count_en, pick
from .units import PAIR as PAIR
from .units import SINGLE as SINGLE
from .units import TRACTOR as TRACTOR
from .units import TUPLE as TUPLE
from .units import Stock, shape_name, unit_kind, unit_words
from .vocab import term

THROW = "throw"
INVALID = "invalid"


def type_name(kind: str, lang: Lang = ZH) -> str:
    """Name a combination type (single, pair, tractor, throw) in the language asked for."""
    return term(kind, lang)


def tractor_name(length: int, lang: Lang = ZH) -> str:
    """Name a tractor by its length, e.g. 2连对拖拉机 or 2-pair tractor."""
    return pick(lang, f"{length}连对拖拉机", f"{length}-pair tractor")


def lead_words(combo: Combo, lang: Lang = ZH) -> str:
    """Name a lead as a noun phrase, e.g. 对子 or a pair, a 2-pair tractor, a throw (...)."""
    if combo.type == THROW:
        return pick(lang, f"甩牌（{combo.shape()}）", f"a throw ({combo.shape(lang)})")
    if combo.type in (TRACTOR, TUPLE):
        unit = combo.units[0]
        return pick(lang, unit.words(), f"a {unit.words(lang)}")
    return pick(lang, type_name(combo.type), f"a {type_name(combo.type, lang)}")


def invalid_reason(ctx: Context, cards: Sequence[Card], group: str | None, lang: Lang = ZH) -> str:
    """Say why cards cannot be led together: none, mixed groups, or a forbidden side-suit throw."""
    if not cards:
        return pick(lang, "没有出牌", "no cards played")
    if group is None:
        groups = sorted({ctx.key[c][0] for c in cards})
        names = pick(lang, "、", ", ").join(ctx.group_name(g, lang) for g in groups)
        return pick(
            lang,
            f"混有不同花色（{names}）",
            f"they mix suits ({names})",
        )
    return pick(
        lang,
        "本规则只有主牌可以甩牌，副牌须分开出",
        "only trumps may be thrown under these rules; off-suit cards must be led one unit at a time",
    )


class Unit(NamedTuple):
    """One component of a play: `width` identical cards on each of `length` adjacent ranks
    (a single, a pair, 三条 …, or a tractor); a single's length is written 0.

    A tuple, so that a classification builds one in a single step (`_unit`).
    """

    kind: str
    cards: tuple[Card, ...]
    top: int
    length: int

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def width(self) -> int:
        """Copies per rank: 1 single, 2 pair, 3 三条 …"""
        return len(self.cards) // max(self.length, 1)

    @property
    def span(self) -> int:
        """Consecutive ranks covered (1 for a single)."""
        return max(self.length, 1)

    def words(self, lang: Lang = ZH) -> str:
        """Name the unit's exact shape, e.g. 对子, 三条, 2连对拖拉机, 3连三条拖拉机."""
        return unit_words(self.width, self.span, lang)

    def name(self, ctx: Context, lang: Lang = ZH) -> str:
        """Name the unit as the ruleset does: 对子, 三条, 拖拉机, 推土机, 火车 …"""
        return shape_name(self.width, self.span, ctx.ruleset.deck.tractor_names, lang)

    def describe(self, lang: Lang = ZH) -> str:
        """Name the unit with its cards, e.g. 对子 ♠5 ♠5 or pair ♠5 ♠5."""
        return f"{self.words(lang)} {cards_text(self.cards, lang)}"


# Make a unit from its fields in one step (`Unit`'s own constructor is a Python function).
_unit = cast(Callable[[tuple[str, tuple[Card, ...], int, int]], Unit], partial(tuple.__new__, Unit))


@fast_init
@dataclass(frozen=True)
class Combo:
    """A classified play: its type, group and decomposition into units (longest first)."""

    type: str
    group: str | None
    cards: tuple[Card, ...]
    units: tuple[Unit, ...]
    reason: str = ""
    # What follows read of a lead, from its units, when first read (`__getattr__`): copies
    # per rank of the biggest unit (1 when there is none), whether any unit is wider than a
    # single, and the tractors' lengths in pairs with the number of lone pairs (see
    # `lead_slots`). Not `cached_property`s: mypyc compiles those into properties that
    # compute again at every read.
    width: int = field(init=False, repr=False, compare=False)
    has_pairs: bool = field(init=False, repr=False, compare=False)
    pair_slots: tuple[tuple[int, ...], int] = field(init=False, repr=False, compare=False)

    def __getattr__(self, name: str) -> object:
        """Read one of the fields filled when first read, and keep it."""
        read = _FIRST_READ.get(name)
        if read is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        value = self.__dict__[name] = read(self)
        return value

    @property
    def tractors(self) -> list[Unit]:
        return [u for u in self.units if u.kind == TRACTOR]

    @property
    def pairs(self) -> list[Unit]:
        return [u for u in self.units if u.kind == PAIR]

    @property
    def singles(self) -> list[Unit]:
        return [u for u in self.units if u.kind == SINGLE]

    @property
    def tuples(self) -> list[Unit]:
        return [u for u in self.units if u.kind == TUPLE]

    @property
    def is_valid(self) -> bool:
        return self.type != INVALID

    def largest_unit(self) -> Unit:
        """Return the unit with the most cards (a tractor before a pair before a single)."""
        return max(self.units, key=lambda u: (u.size, u.top))

    def shape(self, lang: Lang = ZH) -> str:
        """Describe the decomposition, e.g. 2连对拖拉机+2对+1单 or 2-pair tractor + 2 pairs + 1 single."""
        parts = [u.words(lang) for u in self.units if u.kind in (TRACTOR, TUPLE)]
        if self.pairs:
            n = len(self.pairs)
            parts.append(pick(lang, f"{n}对", count_en(n, "pair")))
        if self.singles:
            n = len(self.singles)
            parts.append(pick(lang, f"{n}单", count_en(n, "single")))
        return pick(lang, "+", " + ").join(parts)

    def reason_for(self, ctx: Context, lang: Lang = ZH) -> str:
        """Say why an invalid lead cannot be led, in the language asked for ("" when valid)."""
        if self.is_valid:
            return ""
        return self.reason if lang == ZH else invalid_reason(ctx, self.cards, self.group, lang)


def _width(combo: Combo) -> int:
    return combo.units[0].width if combo.units else 1


def _has_pairs(combo: Combo) -> bool:
    return any(u.kind != SINGLE for u in combo.units)


def _pair_slots(combo: Combo) -> tuple[tuple[int, ...], int]:
    return tuple(u.length for u in combo.tractors), len(combo.pairs)


_FIRST_READ: dict[str, Callable[[Combo], object]] = {
    "width": _width,
    "has_pairs": _has_pairs,
    "pair_slots": _pair_slots,
}


class PairStock:
    """The pairs available in a set of cards of one group, by tractor position (`Context.link`)."""

    __slots__ = ("at",)

    def __init__(self, ctx: Context, counts: Mapping[Card, int]) -> None:
        self.at: dict[int, list[Card]] = {}
        at, link = self.at, ctx.link
        for card, n in counts.items():
            if n >= 2:
                p = link[card]
                cards = at.get(p)
                if cards is None:
                    at[p] = [card] * (n // 2)
                else:  # equal cards of different suits share a position: keep them in order
                    cards += [card] * (n // 2)
                    cards.sort()

    def count(self) -> int:
        return sum(len(v) for v in self.at.values())

    def counts(self) -> dict[int, int]:
        """Map each ladder position to the number of pairs held there."""
        return {p: len(v) for p, v in self.at.items()}

    def runs(self) -> list[tuple[int, int]]:
        """List maximal runs of consecutive positions holding a pair, as (low, high)."""
        return self.runs_of(self.at)

    @staticmethod
    def runs_of(at: Mapping[int, object]) -> list[tuple[int, int]]:
        """List maximal runs of consecutive keys of `at`, as (low, high)."""
        out: list[tuple[int, int]] = []
        start = prev = None
        for p in sorted(at):
            if prev is not None and p == prev + 1:
                prev = p
                continue
            if start is not None and prev is not None:
                out.append((start, prev))
            start = prev = p
        if start is not None and prev is not None:
            out.append((start, prev))
        return out

    def longest_run(self) -> tuple[int, int] | None:
        """Return the longest run (ties: the highest), or None when there is no pair."""
        best = None
        for low, high in self.runs():
            if best is None or (high - low, high) > (best[1] - best[0], best[1]):
                best = (low, high)
        return best

    def highest_run(self, length: int) -> tuple[int, int] | None:
        """Return the highest `length`-long stretch of some run, or None."""
        best = None
        for low, high in self.runs():
            if high - low + 1 >= length and (best is None or high > best[1]):
                best = (high - length + 1, high)
        return best

    def take(self, low: int, high: int) -> list[Card]:
        """Remove one pair at each position low..high and return their cards."""
        cards: list[Card] = []
        for p in range(high, low - 1, -1):
            card = self.at[p].pop()
            if not self.at[p]:
                del self.at[p]
            cards += (card, card)
        return cards

    def take_highest_pair(self) -> list[Card] | None:
        if not self.at:
            return None
        p = max(self.at)
        return self.take(p, p)


class UnitTable:
    """One deal's single and pair of each card, as units and as classified plays, built once
    per context when first asked (`unit_table`): they are immutable, so every play shares
    them; and each card's strength position, for sorting by it."""

    __slots__ = ("single", "pair", "single_play", "pair_play", "strength")

    def __init__(self, ctx: Context) -> None:
        self.single: dict[Card, Unit] = {}
        self.pair: dict[Card, Unit] = {}
        self.single_play: dict[Card, Combo] = {}
        self.pair_play: dict[Card, Combo] = {}
        self.strength: dict[Card, int] = {}
        for card, (group, pos) in ctx.key.items():
            one, two = (card,), (card, card)
            single = self.single[card] = _unit((SINGLE, one, pos, 0))
            pair = self.pair[card] = _unit((PAIR, two, pos, 1))
            self.single_play[card] = Combo(SINGLE, group, one, (single,))
            self.pair_play[card] = Combo(PAIR, group, two, (pair,))
            self.strength[card] = pos


def unit_table(ctx: Context) -> UnitTable:
    """Return the deal's table of single and pair units (`UnitTable`), built when first asked."""
    table = ctx.units
    if table is None:
        table = ctx.units = UnitTable(ctx)
    return table


def _units_from(ctx: Context, cards: Sequence[Card]) -> tuple[Unit, ...]:
    """Split cards of one group into units, widest first: at each width, the longest runs."""
    counts = copies(cards)
    if len(counts) == len(cards):  # no card twice: singles, highest first (ties in order)
        table = ctx.units or unit_table(ctx)
        ranked = sorted(cards, key=table.strength.__getitem__, reverse=True)
        return tuple(map(table.single.__getitem__, ranked))
    if max(counts.values()) <= 2:
        return _pair_units(ctx, counts)  # the same split, on the lighter pair stock
    stock = Stock(ctx, Counter(counts))
    units: list[Unit] = []
    for width in range(stock.max_width(), 1, -1):
        while (run := stock.longest_run(width)) is not None:
            low, high = run
            taken = stock.take(low, high, width)
            top = high if high > low else ctx.key[taken[0]][1]  # n-of-a-kind: by strength
            units.append(
                _unit((unit_kind(width, high - low + 1), tuple(taken), top, high - low + 1))
            )
    units.sort(key=lambda u: (-u.width, -u.length, -u.top))
    table = ctx.units or unit_table(ctx)
    units += map(
        table.single.__getitem__,
        sorted(stock.elements(), key=table.strength.__getitem__, reverse=True),
    )
    return tuple(units)


def _pair_units(ctx: Context, counts: dict[Card, int]) -> tuple[Unit, ...]:
    """Split cards of at most two copies: longest pair runs as tractors, then pairs, singles."""
    table = ctx.units or unit_table(ctx)
    units: list[Unit] = []
    singles = [c for c, n in counts.items() if n == 1]
    paired = [c for c, n in counts.items() if n == 2]
    link = ctx.link
    if len(paired) == 1:
        units.append(table.pair[paired[0]])
    elif paired:
        at = {link[c]: c for c in paired}
        if len(at) == len(paired):  # one pair per position: its runs are the tractors
            pairs = _pair_runs(at, units)
        else:
            stock = PairStock(ctx, {c: 2 for c in paired})
            while (run := stock.longest_run()) is not None and run[1] > run[0]:
                taken = stock.take(*run)
                units.append(_unit((TRACTOR, tuple(taken), run[1], run[1] - run[0] + 1)))
            pairs = [card for p in sorted(stock.at, reverse=True) for card in stock.at[p]]
        # Pairs rank by strength (a stable sort, highest first: equal ones keep ladder order).
        pairs.sort(key=table.strength.__getitem__, reverse=True)
        units += map(table.pair.__getitem__, pairs)
    # Every card held twice is in a tractor or a pair; the others are singles, highest first.
    singles.sort(key=table.strength.__getitem__, reverse=True)
    units += map(table.single.__getitem__, singles)
    return tuple(units)


def _pair_runs(at: dict[int, Card], units: list[Unit]) -> list[Card]:
    """Add to `units` the tractors of pairs held one per tractor position (`at`: position ->
    card), as the pair stock's longest runs are taken one by one: every run of two positions
    or more, longest first (ties: the highest); return the cards of the lone pairs, highest
    position first."""
    runs: list[tuple[int, int, int]] = []  # (length, high, low) of each maximal run
    low = prev = -2
    for p in sorted(at):
        if p != prev + 1:
            if prev >= 0:
                runs.append((prev - low + 1, prev, low))
            low = p
        prev = p
    runs.append((prev - low + 1, prev, low))
    runs.sort(reverse=True)
    lone: list[Card] = []
    for length, high, low in runs:
        if length == 1:
            lone.append(at[high])
            continue
        cards: list[Card] = []
        for p in range(high, low - 1, -1):
            card = at[p]
            cards += (card, card)
        units.append(_unit((TRACTOR, tuple(cards), high, length)))
    return lone


def _real_units(cards: Sequence[Card], units: tuple[Unit, ...]) -> tuple[Unit, ...]:
    """Give units found in a pair view their real cards (a 小王 pair may be 小王 + 大王)."""
    real = restore(cards, [c for u in units for c in u.cards])
    out: list[Unit] = []
    i = 0
    for u in units:
        out.append(_unit((u.kind, tuple(real[i : i + u.size]), u.top, u.length)))
        i += u.size
    return tuple(out)


# Plays memoised per context (`Context.classified`) before the memo starts afresh.
CLASSIFY_MEMO = 1 << 15


def classify(ctx: Context, cards: Sequence[Card]) -> Combo:
    """Classify cards as a lead: single, pair, tractor, throw or invalid, with their units."""
    cards = tuple(cards)
    n = len(cards)
    if n == 1:  # a single, or a pair of one card: the deal's table holds them
        return (ctx.units or unit_table(ctx)).single_play[cards[0]]
    if n == 2 and cards[0] == cards[1]:
        return (ctx.units or unit_table(ctx)).pair_play[cards[0]]
    memo = ctx.classified
    combo = memo.get(cards)
    if combo is None:
        combo = _classify(ctx, cards)
        if len(memo) >= CLASSIFY_MEMO:
            memo.clear()
        memo[cards] = combo
    return combo


def _classify(ctx: Context, cards: tuple[Card, ...]) -> Combo:
    n = len(cards)  # neither one card nor two copies of one (`classify`)
    if n == 2:  # two singles of one group, highest first (of equal ones, as they came)
        (group, at), (other, second_at) = ctx.key[cards[0]], ctx.key[cards[1]]
        if group == other and (BIG not in cards or SMALL not in cards):
            single = (ctx.units or unit_table(ctx)).single
            first, second = cards if second_at <= at else cards[::-1]
            return _several(ctx, group, cards, (single[first], single[second]))
    if not cards:
        return Combo(INVALID, None, cards, (), invalid_reason(ctx, cards, None))
    # One group (the codes of the cards' groups all alike), or none; a card the deck lacks
    # raises the KeyError a look-up of it gives (as `Codes.encode`).
    groups = bytes(cards).translate((ctx.codes or ctx.card_codes()).to_group)
    if groups.count(groups[0]) != n:
        if OUTSIDE in groups:
            raise KeyError(cards[groups.index(OUTSIDE)])
        return Combo(INVALID, None, cards, (), invalid_reason(ctx, cards, None))
    group = ctx.key[cards[0]][0]
    # The pair view reads differently only with both jokers among the cards.
    view = pair_view(ctx.ruleset, cards) if BIG in cards and SMALL in cards else cards
    units = _units_from(ctx, view)
    if view is not cards and view.count(SMALL) != cards.count(SMALL):
        units = _real_units(cards, units)
    if len(units) == 1:
        return Combo(units[0].kind, group, cards, units)
    return _several(ctx, group, cards, units)


def _several(ctx: Context, group: str, cards: tuple[Card, ...], units: tuple[Unit, ...]) -> Combo:
    """Classify cards of one group split into several units: a throw, or an invalid lead
    where only trumps may be thrown."""
    if group != TRUMP and ctx.ruleset.throws_trump_only:
        return Combo(INVALID, group, cards, units, invalid_reason(ctx, cards, group))
    return Combo(THROW, group, cards, units)


@fast_init
@dataclass(frozen=True)
class Match:
    """A best answer to a lead's structure together with the cards that show it."""

    answer: Answer
    cards: tuple[Card, ...]


def lead_slots(lead: Combo) -> tuple[list[int], int]:
    """Return the lead's tractors (their lengths in pairs) and its number of lone pairs."""
    lengths, lone = lead.pair_slots
    return list(lengths), lone


def pair_counts(ctx: Context, cards: Iterable[Card]) -> dict[int, int]:
    """Map each tractor position (`Context.link`) to the number of pairs the cards hold there."""
    out: dict[int, int] = {}
    link = ctx.link
    for card, k in copies(cards).items():
        if k >= 2:
            p = link[card]
            out[p] = out.get(p, 0) + k // 2
    return out


def answer_structure(ctx: Context, lead: Combo, cards: Iterable[Card]) -> Answer:
    """Rank the best answer cards of the led group give to the lead's tractors and pairs."""
    bins, lone = lead_slots(lead)
    tractors, units = rank_answer(pair_counts(ctx, cards), bins, lone)
    return Answer(tractors, units - sum(tractors))


def match_structure(ctx: Context, lead: Combo, cards: Iterable[Card]) -> Match:
    """Answer the lead's tractors and pairs as well as cards allow, and name the cards used.

    One exact search (`structure.plan_answer`) for the whole hand and for a play alike: the
    longest tractors first, then as many pairs as the lead holds; ties go to the highest cards.
    """
    return match_copies(ctx, lead, copies(cards))


def match_copies(ctx: Context, lead: Combo, counts: Mapping[Card, int]) -> Match:
    """Answer the lead's tractors and pairs as `match_structure` does, from cards given as
    their copies per card (`cards.copies`)."""
    stock = PairStock(ctx, counts)
    bins, lone = lead.pair_slots
    plan = plan_answer(stock.counts(), bins, lone)
    used: list[Card] = []
    for low, high in plan.pieces:
        used += stock.take(low, high)
    for p in plan.lone:
        used += stock.take(p, p)
    return Match(Answer(plan.lengths, len(plan.lone)), tuple(used))


def required_answer(ctx: Context, lead: Combo, counts: Mapping[Card, int]) -> Answer:
    """Return the tractors and pairs a follow from these cards of the led group (their copies)
    must hold, as `match_copies` answers: a lead without tractors asks for as many of its
    lone pairs as the cards hold, without the search."""
    bins, lone = lead.pair_slots
    if bins:
        return match_copies(ctx, lead, counts).answer
    return Answer((), min(lone, PairStock(ctx, counts).count()))


def structure_key(ctx: Context, lead: Combo, cards: Sequence[Card]) -> RuffKey | None:
    """Read cards in the lead's shape at their strongest; None if they cannot take that shape.

    Every unit of the lead takes a unit of its own width and span, the rest are singles; of
    all such readings the highest counts, layer by layer (see `ruffs`), at every width.
    """
    shapes = [(u.width, u.span) for u in lead.units if u.kind != SINGLE]
    return read_throw_ruff(ctx, shapes, len(lead.units) - len(shapes), cards)
