"""The follow ladder for units of any width (先同再降, 符合搭配, 不同基数的级别拆牌).

A lead's units (pairs, 三条, tractors of any width) are *bins*: a width and a capacity in cards.
An answer fills bins with *pieces*, each `v` identical cards on each of `l` consecutive ranks:
a piece fits a bin when v is at most the bin's width and v·l at most what is left of it, so a
wider column may be broken into narrower pieces (拆牌). A single unit wider than the bin with
exactly the cards left in it counts as the bin's own shape (777777 is a special 3的拖拉机).

Answers are ordered by their pieces, largest first, compared width first, then length:
8 → 7+1 → 6+2 → 5+3 → 4的拖拉机 → 4+4 → 3的拖拉机 → 3+3 → 2的拖拉机 → 2+2 → 1. Singles
never count. A follow is legal when the cards it plays give as good an answer as the
follower's cards of the led suit can. Under two decks (widths 1 and 2) this is the classic
order: tractors longest first, then pairs.

The search runs over columns of copy counts by position, memoised on their shape; it never
looks at subsets of cards. Once no column holds more than two copies, what is left is the
pair problem, and the exact pair search of `structure` answers it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Card
from .order import Context
from .structure import plan_answer, rank_answer
from .units import unit_words

Shape = tuple[int, int]  # (width, length) of a piece: ordered width first
Bin = tuple[int, int]  # (width, capacity in cards) of a lead unit still to answer
Column = tuple[int, ...]  # copies of each distinct card at one position, largest first
Cols = tuple[tuple[int, Column], ...]  # nonempty positions, ascending
Profile = tuple[Shape, ...]


@dataclass(frozen=True)
class Move:
    """One piece taken: its shape as ranked, its real width and length, where, and for which bin."""

    shape: Shape
    width: int
    length: int
    top: int
    picks: tuple[int, ...]  # per position from the top down: the copy count reduced there
    bin: Bin


def lead_bins(units: Iterable[tuple[int, int]]) -> tuple[Bin, ...]:
    """Make the bins of a lead from its units as (width, cards); singles ask for nothing."""
    return tuple(sorted(((w, n) for w, n in units if w >= 2), reverse=True))


def columns(ctx: Context, cards: Iterable[Card]) -> Cols:
    """Count the copies of each card by tractor position (`Context.link`), as the search's
    canonical columns."""
    by_pos: dict[int, list[int]] = {}
    link = ctx.link
    for card, n in Counter(cards).items():
        by_pos.setdefault(link[card], []).append(n)
    return tuple((p, tuple(sorted(ns, reverse=True))) for p, ns in sorted(by_pos.items()))


def _runs(cols: Cols, width: int) -> list[tuple[int, int]]:
    """List maximal runs of consecutive positions holding `width` copies of some card."""
    out: list[tuple[int, int]] = []
    for p, column in cols:
        if column[0] < width:
            continue
        if out and out[-1][1] == p - 1:
            out[-1] = (out[-1][0], p)
        else:
            out.append((p, p))
    return out


def _longest(cols: Cols, width: int) -> int:
    return max((high - low + 1 for low, high in _runs(cols, width)), default=0)


def _best_shapes(cols: Cols, bins: tuple[Bin, ...]) -> tuple[Shape | None, list[Move]]:
    """Find the best piece any bin can take, and every way to take it."""
    widest = max((column[0] for _, column in cols), default=0)
    per_bin: dict[Bin, tuple[Shape | None, list[tuple[int, int, bool]]]] = {}
    for b in set(bins):
        w, cap = b
        real: Shape | None = None
        for v in range(min(w, widest), 1, -1):
            length = min(_longest(cols, v), cap // v)
            if length >= 1:
                real = (v, length)
                break
        special: list[tuple[int, int, bool]] = []
        if cap % w == 0 and cap // w >= 2:
            for v in range(w + 1, min(widest, cap) + 1):
                if cap % v == 0 and _longest(cols, v) >= cap // v:
                    special.append((v, cap // v, True))
        if special:
            per_bin[b] = (
                (w, cap // w),
                special + ([(*real, False)] if real == (w, cap // w) else []),
            )
        elif real is not None:
            per_bin[b] = (real, [(*real, False)])
    shapes = [s for s, _ in per_bin.values() if s is not None]
    if not shapes:
        return None, []
    best = max(shapes)
    moves: list[Move] = []
    counts = dict(cols)
    for b, (shape, ways) in sorted(per_bin.items(), reverse=True):
        if shape != best:
            continue
        for v, length, _special in ways:
            for low, high in _runs(cols, v):
                for top in range(high, low + length - 2, -1):
                    for picks in _picks(counts, top, length, v):
                        moves.append(Move(best, v, length, top, picks, b))
    return best, moves


def _picks(counts: dict[int, Column], top: int, length: int, width: int) -> list[tuple[int, ...]]:
    """List the distinct choices of which copy count to reduce at each position of a piece."""
    out: list[tuple[int, ...]] = [()]
    for p in range(top, top - length, -1):
        options = sorted({n for n in counts[p] if n >= width})
        out = [(*prefix, n) for prefix in out for n in options]
    return out


def _rest_bins(bins: tuple[Bin, ...], move: Move) -> tuple[Bin, ...]:
    """Return the bins once a move's cards are in its bin."""
    rest = list(bins)
    rest.remove(move.bin)
    left = move.bin[1] - move.width * move.length
    if left >= 2:
        rest.append((move.bin[0], left))
    return tuple(sorted(rest, reverse=True))


def _apply(cols: Cols, bins: tuple[Bin, ...], move: Move) -> tuple[Cols, tuple[Bin, ...]]:
    """Take a move's cards out of the columns and its cards out of its bin."""
    counts = dict(cols)
    for i, n in enumerate(move.picks):
        p = move.top - i
        column = list(counts[p])
        column.remove(n)
        if n - move.width:
            column.append(n - move.width)
        if column:
            counts[p] = tuple(sorted(column, reverse=True))
        else:
            del counts[p]
    return tuple(sorted(counts.items())), _rest_bins(bins, move)


def _pair_problem(cols: Cols, bins: tuple[Bin, ...]) -> tuple[dict[int, int], list[int], int]:
    """Read columns of at most two copies as the pair search's input: pairs per position, the
    bins as tractor lengths in pairs, and the bins with room for one pair only."""
    units = {p: sum(n // 2 for n in column) for p, column in cols}
    units = {p: k for p, k in units.items() if k}
    tractors = [cap // 2 for _, cap in bins if cap // 2 >= 2]
    lone = sum(1 for _, cap in bins if cap // 2 == 1)
    return units, tractors, lone


def _pair_answer(cols: Cols, bins: tuple[Bin, ...]) -> Profile:
    """Answer a pairs-only state with the exact pair search (tractors longest first, then pairs)."""
    lengths, used = rank_answer(*_pair_problem(cols, bins))
    return (*((2, n) for n in lengths), *((2, 1),) * (used - sum(lengths)))


def _shape(cols: Cols) -> tuple[tuple[Column, ...], ...]:
    """Canonical form of columns for the memo: runs of positions holding a pair or more, each
    read from its smaller end (only adjacency matters, not where a run sits)."""
    runs: list[list[Column]] = []
    prev = -2
    for p, column in cols:
        if column[0] < 2:
            prev = -2
            continue
        if p == prev + 1:
            runs[-1].append(column)
        else:
            runs.append([column])
        prev = p
    return tuple(sorted(min(tuple(r), tuple(reversed(r))) for r in runs))


class Ladder:
    """Best answers to one lead's bins, memoised across the calls of one judgement."""

    __slots__ = ("bins", "memo")

    def __init__(self, bins: tuple[Bin, ...]) -> None:
        self.bins = bins
        self.memo: dict[tuple[tuple[tuple[Column, ...], ...], tuple[Bin, ...]], Profile] = {}

    def best(self, cols: Cols, bins: tuple[Bin, ...] | None = None) -> Profile:
        """Return the best answer the columns give to the bins (all of the lead's by default)."""
        bins = self.bins if bins is None else bins
        if not bins or not cols:
            return ()
        key = (_shape(cols), bins)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if max(column[0] for _, column in cols) <= 2:
            self.memo[key] = _pair_answer(cols, bins)
            return self.memo[key]
        shape, moves = _best_shapes(cols, bins)
        best: Profile = ()
        if shape is not None:
            # No child beats the same bins answered from all the cards (nothing taken yet):
            # stop as soon as a move reaches that bound. Moves that waste the fewest copies
            # (best fit) come first, so the first one usually does.
            bound = max((shape, *self.best(cols, _rest_bins(bins, m))) for m in moves)
            moves.sort(key=lambda m: (sum(m.picks) - m.width * len(m.picks), -m.top))
            seen: set[tuple[tuple[tuple[Column, ...], ...], tuple[Bin, ...]]] = set()
            for move in moves:
                child = _apply(cols, bins, move)
                ckey = (_shape(child[0]), child[1])
                if ckey in seen:
                    continue
                seen.add(ckey)
                answer = (shape, *self.best(*child))
                if answer > best:
                    best = answer
                    if best == bound:
                        break
        self.memo[key] = best
        return best

    def plan(self, ctx: Context, cards: Sequence[Card]) -> list[Card]:
        """Build the cards of one best answer, preferring the highest pieces."""
        cols = columns(ctx, cards)
        bins = self.bins
        target = self.best(cols)
        stock: dict[int, Counter[Card]] = {}
        for card, n in Counter(cards).items():
            stock.setdefault(ctx.link[card], Counter())[card] = n
        out: list[Card] = []
        while target:
            if max(column[0] for _, column in cols) <= 2:
                return out + _pair_cards(stock, *_pair_problem(cols, bins))
            shape, moves = _best_shapes(cols, bins)
            assert shape == target[0]
            for move in moves:
                nxt = _apply(cols, bins, move)
                if (shape, *self.best(*nxt)) == target:
                    break
            else:  # pragma: no cover - the search found this answer, so one move reaches it
                raise AssertionError("no move reaches the searched answer")
            for i, n in enumerate(move.picks):
                column = stock[move.top - i]
                card = max(c for c, k in column.items() if k == n)
                column[card] -= move.width
                out += [card] * move.width
            cols, bins = nxt
            target = target[1:]
        return out


def _pair_cards(
    stock: dict[int, Counter[Card]], units: dict[int, int], tractors: list[int], lone: int
) -> list[Card]:
    """Take the cards of the pair search's plan out of the stock (a pair at each position)."""
    plan = plan_answer(units, tractors, lone)
    positions = [p for low, high in plan.pieces for p in range(high, low - 1, -1)]
    out: list[Card] = []
    for p in [*positions, *plan.lone]:
        column = stock[p]
        card = max(c for c, k in column.items() if k >= 2)
        column[card] -= 2
        out += [card, card]
    return out


def needs_ladder(lead_width: int, cards: Iterable[Card]) -> bool:
    """Tell whether widths above 2 take part (a wide lead or 3+ copies of a card)."""
    return lead_width >= 3 or any(n >= 3 for n in Counter(cards).values())


def first_gap(need: Profile, got: Profile) -> Shape | None:
    """Return the first piece the required answer has and the shown one lacks (None if equal)."""
    for i, shape in enumerate(need):
        if i >= len(got) or got[i] != shape:
            return shape
    return None


def profile_words(profile: Profile, lang: str = "zh") -> str:
    """Say what an answer holds, e.g. 一个三条和一个对子 or a triple and a pair."""
    en = lang == "en"
    parts: list[str] = []
    for shape in sorted(set(profile), reverse=True):
        k = profile.count(shape)
        name = unit_words(shape[0], shape[1], "en" if en else "zh")
        parts.append((f"{k} × {name}" if k > 1 else f"a {name}") if en else f"{k}个{name}")
    if not parts:
        return "no pairs or wider units" if en else "没有对子或更宽的牌"
    return (" and " if en else "、").join(parts)


def forced_counts(ladder: Ladder, ctx: Context, cards: Sequence[Card], n: int) -> Counter[Card]:
    """Count, per card, the copies every best answer of n cards from `cards` must contain."""
    target = ladder.best(columns(ctx, cards))
    counts = Counter(cards)
    used = Counter(ladder.plan(ctx, cards))
    forced: Counter[Card] = Counter()
    for card, m in counts.items():
        # The most copies that can go while the answer stays as good (monotone: binary search).
        # One best answer uses used[card] copies, so m - used[card] can go while the rest still
        # fill the n cards; a card with no copy in that answer is never forced by structure.
        spare = m - used[card]
        if len(cards) - spare >= n:
            if not used[card]:
                continue
            low, high = spare, m
        else:
            low, high = 0, m
        while low < high:
            mid = (low + high + 1) // 2
            trial = counts.copy()
            trial[card] -= mid
            rest = list(trial.elements())
            if len(rest) >= n and ladder.best(columns(ctx, rest)) == target:
                low = mid
            else:
                high = mid - 1
        if low < m:
            forced[card] = m - low
    return forced
