"""Ruffs of a throw read exactly: the strongest way trumps hold every unit of a throw.

A throw's units are shapes (width, span): a tractor of width w over l ranks takes w copies of
one card at each of l adjacent positions, an n-of-a-kind w copies of one card at one position
(a wider column may give them: 拆牌), and whatever is left are the singles. A ruff holds the
throw when some reading gives every shape. Its strength is the best reading's key, layer by
layer: the widest units first, tractors before n-of-a-kind of the same width, within a layer
the longer tractors first and equal shapes from the highest; the singles last. Two comparisons
read the key: every unit of each layer in turn, or only the first unit of each layer
(`trick.compares_every_unit`); each has its own best reading.

Built directly, one key entry at a time: each entry is set as high as it can go while the
shapes still to place fit into what is left, checked by a search over copy columns memoised on
their shape, never over subsets of cards. Two decks are the case w ≤ 2 of the same search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from .cards import Card
from .jokers import pair_view
from .ladder import Cols, Column, columns
from .order import Context

Shape = tuple[int, int]  # (width, span) of one unit of the throw; singles are not shapes
Runs = tuple[tuple[Column, ...], ...]  # canonical columns: runs of adjacent positions
Key = tuple[int, ...]
Ranks = tuple[tuple[int, int], ...] | None  # tractor position → strength, when they differ


def key_order(shapes: Sequence[Shape]) -> tuple[Shape, ...]:
    """Order a throw's shapes as its key reads them: wider first, tractors before n-of-a-kind,
    longer tractors first."""
    return tuple(sorted(shapes, key=lambda s: (s[0], s[1] >= 2, s[1]), reverse=True))


def layer_of(shape: Shape) -> tuple[int, bool]:
    """Name the key layer of a shape: its width, and whether it is a tractor."""
    return (shape[0], shape[1] >= 2)


@dataclass(frozen=True)
class RuffKey:
    """Strength of a play holding the lead's full structure, layer by layer (widest first).

    `layers` is the best reading compared unit by unit; `heads` the best reading compared by
    the first unit of each layer only (None: the first entries of `layers`).
    """

    layers: tuple[tuple[int, ...], ...]
    heads: tuple[tuple[int, ...], ...] | None = None

    def value(self, every_unit: bool) -> tuple[tuple[int, ...], ...]:
        """Give the key as one comparison reads it: every unit, or each layer's first."""
        if every_unit:
            return self.layers
        if self.heads is not None:
            return self.heads
        return tuple(layer[:1] for layer in self.layers)


def read_throw_ruff(
    ctx: Context, shapes: Sequence[Shape], singles: int, cards: Sequence[Card]
) -> RuffKey | None:
    """Read cards in a throw's shapes (and `singles` singles) at their strongest, for both
    comparisons; None when no reading holds every shape. Where 大王 + 小王 may pair, the
    readings with and without that pair both count."""
    view = pair_view(ctx.ruleset, cards)
    plain = _read(ctx, shapes, singles, cards)
    if view == list(cards):
        return plain
    mixed = _read(ctx, shapes, singles, view)
    if plain is None or mixed is None:
        return plain or mixed
    return RuffKey(
        max(plain.value(True), mixed.value(True)), max(plain.value(False), mixed.value(False))
    )


def _read(
    ctx: Context, shapes: Sequence[Shape], singles: int, cards: Sequence[Card]
) -> RuffKey | None:
    order = key_order(shapes)
    cols = columns(ctx, cards)
    if not fits(cols, order):
        return None
    ranks = _ranks(ctx, cards)
    full = _best(cols, order, (), singles, True, ranks)
    heads, free = _heads(order)
    top = _best(cols, heads, free, singles, False, ranks)
    assert full is not None and top is not None  # the shapes fit, so readings exist
    return RuffKey(_layers(order, full, every=True), _layers(order, top, every=False))


def _ranks(ctx: Context, cards: Sequence[Card]) -> Ranks:
    """Map tractor positions to strength when they differ (None: they are the same)."""
    pairs = {ctx.link[c]: ctx.key[c][1] for c in cards}
    if all(p == v for p, v in pairs.items()):
        return None
    return tuple(sorted(pairs.items()))


def _layers(order: tuple[Shape, ...], flat: Key, *, every: bool) -> tuple[tuple[int, ...], ...]:
    """Cut a flat key into its layers (the singles last)."""
    layers: list[tuple[int, ...]] = []
    prev: tuple[int, bool] | None = None
    i = 0
    for shape in order:
        new = layer_of(shape) != prev
        prev = layer_of(shape)
        if new:
            layers.append(())
        if new or every:
            layers[-1] += (flat[i],)
            i += 1
    layers.append(flat[i:])
    return tuple(layers)


def _heads(order: tuple[Shape, ...]) -> tuple[tuple[Shape, ...], tuple[Shape, ...]]:
    """Split shapes into the first of each layer (compared) and the rest (only placed)."""
    heads: list[Shape] = []
    free: list[Shape] = []
    for i, shape in enumerate(order):
        if i and layer_of(order[i - 1]) == layer_of(shape):
            free.append(shape)
        else:
            heads.append(shape)
    return tuple(heads), tuple(free)


@lru_cache(maxsize=1 << 14)
def _best(
    cols: Cols,
    todo: tuple[Shape, ...],
    free: tuple[Shape, ...],
    singles: int,
    every: bool,
    ranks: Ranks,
) -> Key | None:
    """Return the highest key entries for `todo` (then the singles) that still let every shape
    of todo and free fit, or None when they cannot."""
    if not todo:
        return _singles(cols, free, singles, every, ranks)
    (width, span), rest = todo[0], todo[1:]
    need = rest + free
    for value, tops in _tops(cols, width, span, ranks):
        found: Key | None = None
        for top in tops:
            for after in _take(cols, top, width, span):
                if not fits(after, need):
                    continue
                tail = _best(after, rest, free, singles, every, ranks)
                if tail is not None and (found is None or (value, *tail) > found):
                    found = (value, *tail)
        if found is not None:
            return found
    return None


def _rank(ranks: Ranks, p: int) -> int:
    """Give the strength of the cards at tractor position p (p itself on the ladder)."""
    return p if ranks is None else dict(ranks)[p]


def _singles(cols: Cols, free: tuple[Shape, ...], singles: int, every: bool, ranks: Ranks) -> Key:
    """Give the singles' part of the key: all of them, or the highest one a reading leaves."""
    if every:
        values = [_rank(ranks, p) for p, column in cols for _ in range(sum(column))]
        return tuple(sorted(values, reverse=True))
    if not singles:
        return ()
    for p, column in sorted(cols, key=lambda pc: _rank(ranks, pc[0]), reverse=True):
        for n in sorted(set(column)):
            if fits(_reduce(cols, {p: (n, 1)}), free):
                return (_rank(ranks, p),)
    return ()  # pragma: no cover - a reading exists, and it leaves a single somewhere


def _tops(cols: Cols, width: int, span: int, ranks: Ranks) -> list[tuple[int, list[int]]]:
    """List the places a shape can have its top, highest key value first, with that value:
    a tractor by its tractor position, an n-of-a-kind by strength (equal ones together)."""
    wide = {p for p, column in cols if column[0] >= width}
    if span >= 2:
        tops = [p for p in sorted(wide, reverse=True) if all(p - i in wide for i in range(span))]
        return [(p, [p]) for p in tops]
    by_value: dict[int, list[int]] = {}
    for p in sorted(wide, reverse=True):
        by_value.setdefault(_rank(ranks, p), []).append(p)
    return sorted(by_value.items(), reverse=True)


def _take(cols: Cols, top: int, width: int, span: int) -> set[Cols]:
    """List the distinct columns left after taking a shape with its top at `top`."""
    counts = dict(cols)
    options = [sorted({n for n in counts[top - i] if n >= width}) for i in range(span)]
    out: set[Cols] = set()
    for picks in product(*options):
        out.add(_reduce(cols, {top - i: (n, width) for i, n in enumerate(picks)}))
    return out


def _reduce(cols: Cols, cuts: dict[int, tuple[int, int]]) -> Cols:
    """Take `k` copies from one card holding `n` at each position p of cuts (p: (n, k))."""
    out: list[tuple[int, Column]] = []
    for p, column in cols:
        if p in cuts:
            n, k = cuts[p]
            left = list(column)
            left.remove(n)
            if n - k:
                left.append(n - k)
            if not left:
                continue
            column = tuple(sorted(left, reverse=True))
        out.append((p, column))
    return tuple(out)


def fits(cols: Cols, shapes: Sequence[Shape]) -> bool:
    """Tell whether every shape can be taken from the columns at once."""
    if not shapes:
        return True
    order = tuple(sorted(shapes, key=lambda s: (s[1], s[0]), reverse=True))
    return _fits(_canon(cols, order), order)


def _canon(cols: Cols, shapes: tuple[Shape, ...]) -> Runs:
    """Reduce columns to what matters for placing shapes: copy counts at least the narrowest
    width, grouped into runs of adjacent positions (each position alone when no tractor is
    left), each run read from its smaller end."""
    narrowest = min(w for w, _ in shapes)
    tractors = any(span >= 2 for _, span in shapes)
    runs: list[list[Column]] = []
    prev = None
    for p, column in cols:
        kept = tuple(n for n in column if n >= narrowest)
        if not kept:
            prev = None
            continue
        if tractors and prev is not None and p == prev + 1:
            runs[-1].append(kept)
        else:
            runs.append([kept])
        prev = p
    return tuple(sorted(min(tuple(r), tuple(reversed(r))) for r in runs))


@lru_cache(maxsize=1 << 16)
def _fits(runs: Runs, shapes: tuple[Shape, ...]) -> bool:
    """Search placements of the shapes (longest, then widest first) in canonical runs."""
    if not shapes:
        return True
    if sum(sum(c) for r in runs for c in r) < sum(w * s for w, s in shapes):
        return False
    (width, span), rest = shapes[0], shapes[1:]
    for i, run in enumerate(runs):
        if run in runs[:i]:
            continue
        others = runs[:i] + runs[i + 1 :]
        for start in range(len(run) - span + 1):
            piece = run[start : start + span]
            if any(column[0] < width for column in piece):
                continue
            options = [sorted({n for n in column if n >= width}) for column in piece]
            for picks in product(*options):
                if not rest:
                    return True
                cuts = {start + j: (n, width) for j, n in enumerate(picks)}
                left = _reduce(tuple(enumerate(run)), cuts)
                after = _respace(others) + _shift(left, len(others) * 64 + 64)
                if _fits(_canon(after, rest), rest):
                    return True
    return False


def _respace(runs: Runs) -> Cols:
    """Lay canonical runs out as columns again, far apart so no two runs touch."""
    out: list[tuple[int, Column]] = []
    for i, run in enumerate(runs):
        out.extend((i * 64 + j, column) for j, column in enumerate(run))
    return tuple(out)


def _shift(cols: Cols, by: int) -> Cols:
    return tuple((p + by, column) for p, column in cols)
