"""Exact structure search: the best answer some cards give to a lead's tractors and pairs.

Cards of one group are seen through their units: at each ladder position, how many disjoint
units they hold there (a unit is a pair today; any width-w set of equal cards works the same
way). A lead asks for tractors — bins of a given length, in units — and for lone units (its
pairs). An answer puts *pieces* (runs of consecutive positions, one unit from each) into the
lead's tractors, each piece no longer than what is left of its tractor; units outside the
pieces then fill any capacity left, in a tractor or in a lone slot.

Answers are ordered, best first:

1. by the lengths of their tractor pieces (≥ 2 positions) listed longest first, compared
   lexicographically: the longer first piece wins; if equal, the longer second piece; …; a list
   that continues where another stops wins;
2. then by the number of units used in all (as many as the lead holds, if the cards have them).

The search is a depth-first search over the runs of positions, memoised on their shape (a
suit has at most about 20 positions), never over subsets of cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from .records import fast_init

Runs = tuple[tuple[int, ...], ...]


class Answer(NamedTuple):
    """How much of a lead's structure some cards answer at best (found by the search below).

    `tractors` holds the lengths of the tractors used, longest first; `pairs` the pairs used
    besides them. `rank` orders answers: tractors first (longest first), then pairs in all.
    A tuple, so that a follow's judgement builds one in a single step.
    """

    tractors: tuple[int, ...]
    pairs: int

    @property
    def rank(self) -> tuple[tuple[int, ...], int]:
        return (self.tractors, sum(self.tractors) + self.pairs)

    @property
    def is_empty(self) -> bool:
        return not self.tractors and not self.pairs


@fast_init
@dataclass(frozen=True)
class Plan:
    """One best answer: its tractor pieces (low, high), the other units' positions, its rank."""

    pieces: tuple[tuple[int, int], ...]
    lone: tuple[int, ...]

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(high - low + 1 for low, high in self.pieces)

    @property
    def units(self) -> int:
        return sum(self.lengths) + len(self.lone)


def rank_answer(
    counts: Mapping[int, int], bins: Sequence[int], lone: int
) -> tuple[tuple[int, ...], int]:
    """Rank the best answer: (tractor piece lengths longest first, units used in all)."""
    if not bins or len(counts) < 2:
        return (), min(sum(counts.values()), sum(bins) + lone)
    if len(bins) == 1:
        found = _one_tractor(counts, bins[0], lone)
        if found is not None:
            return found
    canon = _CANON.get(bins) if type(bins) is tuple else None
    if canon is None:
        canon = _bins(bins)
        if type(bins) is tuple and len(_CANON) < MEMO:
            _CANON[bins] = canon
    return _rank(_profile(counts), canon, sum(bins) + lone)


def _one_tractor(
    counts: Mapping[int, int], tractor: int, lone: int
) -> tuple[tuple[int, ...], int] | None:
    """Rank the best answer to a lead with one tractor as `_rank` does (`_one_piece`), read
    directly off the longest stretch of positions; None when the search must decide."""
    units = run = longest = 0
    prev = -2
    for p, k in sorted([item for item in counts.items() if item[1] > 0]):
        units += k
        run = run + 1 if p == prev + 1 else 1
        prev = p
        if run > longest:
            longest = run
    length = min(tractor, longest)
    if tractor - length >= 2:
        return None
    return ((length,) if length >= 2 else ()), min(units, tractor + lone)


# A lead's tractor lengths (as `Combo.pair_slots` gives them) in canonical form (`_bins`).
_CANON: dict[tuple[int, ...], tuple[int, ...]] = {}


def plan_answer(counts: Mapping[int, int], bins: Sequence[int], lone: int) -> Plan:
    """Build one best answer, preferring the highest pieces and then the highest lone units."""
    return _plan(_profile(counts), tuple(sorted(bins, reverse=True)), lone)


def slack(counts: Mapping[int, int], bins: Sequence[int], lone: int) -> dict[int, int]:
    """Map each position to how many of its units can be taken away (one position at a time)
    before the best answer's rank drops."""
    return dict(_slack(_profile(counts), tuple(sorted(bins, reverse=True)), lone))


def forget_answers() -> None:
    """Empty the memoised searches and answers (a benchmark of a first search starts here)."""
    for memo in (_best, _rank, _plan, _slack, _lengths):
        memo.cache_clear()


# Answers memoised per problem: a profile of units by position, the lead's tractors and pairs.
# Plays and hands repeat profiles far more often than cards, and each search is pure.
MEMO = 1 << 14


def _profile(counts: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
    """Canonical form of units by position: (position, units) where some are held, in order."""
    return tuple(sorted([item for item in counts.items() if item[1] > 0]))


@lru_cache(maxsize=MEMO)
def _rank(
    profile: tuple[tuple[int, int], ...], bins: tuple[int, ...], room: int
) -> tuple[tuple[int, ...], int]:
    units = min(sum(k for _, k in profile), room)
    counts = dict(profile)
    if len(bins) == 1:
        length = _one_piece(_spans(counts), bins[0])
        if length is not None:
            return ((length,) if length else ()), units
    return _best(_shape(_runs(counts)), bins, _INF), units


@lru_cache(maxsize=MEMO)
def _slack(
    profile: tuple[tuple[int, int], ...], bins: tuple[int, ...], lone: int
) -> tuple[tuple[int, int], ...]:
    counts = dict(profile)
    best = rank_answer(counts, bins, lone)
    out: list[tuple[int, int]] = []
    for p, k in profile:
        free = 0
        while free < k and rank_answer({**counts, p: k - free - 1}, bins, lone) == best:
            free += 1
        out.append((p, free))
    return tuple(out)


@lru_cache(maxsize=MEMO)
def _plan(profile: tuple[tuple[int, int], ...], bins: tuple[int, ...], lone: int) -> Plan:
    left = dict(profile)
    if len(bins) == 1:
        return _plan_one_tractor(left, bins[0], lone)
    return _plan_searched(left, bins, lone)


def _plan_one_tractor(left: dict[int, int], bin_: int, lone: int) -> Plan:
    """Plan the answer to a lead with one tractor directly when it has room for one piece.

    The piece is as long as the tractor and the longest run allow; when what is left of the
    tractor could hold no second piece, the highest such stretch is the one the search would
    place (see `_place`). Otherwise the search decides.
    """
    spans = _spans(left)
    length = _one_piece(spans, bin_)
    if length is None:
        return _plan_searched(left, (bin_,), lone)
    pieces: list[tuple[int, int]] = []
    if length:
        high = max([h for low, h in spans if h - low + 1 >= length])
        pieces.append((high - length + 1, high))
        for p in range(high - length + 1, high + 1):
            left[p] -= 1
            if not left[p]:
                del left[p]
    return _with_lone(left, pieces, bin_ + lone)


def _one_piece(spans: list[tuple[int, int]], tractor: int) -> int | None:
    """Return the length of the one piece a lead's only tractor takes from these spans (0 for
    none), or None when what is left of the tractor could hold a second piece (then the search
    decides). The piece is as long as the tractor and the longest span allow."""
    length = min(tractor, max([high - low + 1 for low, high in spans], default=0))
    if tractor - length >= 2:
        return None
    return length if length >= 2 else 0


def _plan_searched(left: dict[int, int], bins: tuple[int, ...], lone: int) -> Plan:
    """Plan the answer by the search: the best piece lengths, then each piece placed highest."""
    caps = list(bins)
    target = _best(_shape(_runs(left)), _bins(caps), _INF) if caps else ()
    pieces: list[tuple[int, int]] = []
    for i, length in enumerate(target):
        rest = target[i + 1 :]
        pieces.append(_place(left, caps, length, rest))
    return _with_lone(left, pieces, sum(bins) + lone)


def _with_lone(left: dict[int, int], pieces: list[tuple[int, int]], room: int) -> Plan:
    """Finish a plan: the units left over, highest first, fill the room the pieces leave."""
    used = sum(high - low + 1 for low, high in pieces)
    total = min(used + sum(left.values()), room)
    spare: list[int] = []
    for p in sorted(left, reverse=True):
        spare += [p] * left[p]
    return Plan(tuple(pieces), tuple(spare[: total - used]))


_INF = 1 << 30


def _place(
    left: dict[int, int], caps: list[int], length: int, rest: tuple[int, ...]
) -> tuple[int, int]:
    """Cut one piece of `length` (the highest that still allows `rest`) out of left and caps.

    The last piece (`rest` empty) needs no check: the searched answer is the best, so no
    placement of it leaves room for a further piece, and the highest one is taken.
    """
    for low, high in sorted(_spans(left), key=lambda s: -s[1]):
        for start in range(high - length + 1, low - 1, -1):
            trial = dict(left)
            for p in range(start, start + length):
                trial[p] -= 1
                if not trial[p]:
                    del trial[p]
            shape = _shape(_runs(trial)) if rest else ()
            for j in [j for j, b in enumerate(caps) if b >= length]:
                after = caps[:j] + [caps[j] - length] + caps[j + 1 :]
                if not rest or _best(shape, _bins(after), length) == rest:
                    left.clear()
                    left.update(trial)
                    caps[:] = after
                    return (start, start + length - 1)
    raise AssertionError("no placement reaches the searched answer")  # pragma: no cover


def _spans(counts: Mapping[int, int]) -> list[tuple[int, int]]:
    """List maximal stretches of consecutive positions holding a unit, as (low, high)."""
    out: list[tuple[int, int]] = []
    for p in sorted([p for p, k in counts.items() if k > 0]):
        if out and out[-1][1] == p - 1:
            out[-1] = (out[-1][0], p)
        else:
            out.append((p, p))
    return out


def _runs(counts: Mapping[int, int]) -> list[tuple[int, ...]]:
    return [tuple(counts[p] for p in range(low, high + 1)) for low, high in _spans(counts)]


def _shape(runs: Iterable[tuple[int, ...]]) -> Runs:
    """Canonical form of runs: only those of 2+ positions, each read from its smaller end."""
    return tuple(sorted(min(r, r[::-1]) for r in runs if len(r) >= 2))


def _bins(bins: Iterable[int]) -> tuple[int, ...]:
    """Canonical form of tractor capacities: those that still fit a piece, largest first."""
    return tuple(sorted((b for b in bins if b >= 2), reverse=True))


def _cut(run: tuple[int, ...], start: int, length: int) -> list[tuple[int, ...]]:
    """Take one unit at each of `length` positions from `start`; return what is left, split."""
    cut = list(run)
    for j in range(start, start + length):
        cut[j] -= 1
    out: list[tuple[int, ...]] = []
    part: list[int] = []
    for k in cut:
        if k:
            part.append(k)
        elif part:
            out.append(tuple(part))
            part = []
    if part:
        out.append(tuple(part))
    return out


@lru_cache(maxsize=1 << 16)
def _best(shape: Runs, bins: tuple[int, ...], cap: int) -> tuple[int, ...]:
    """Return the best list of piece lengths (each ≤ cap) that runs of `shape` fit into bins."""
    if not shape or not bins:
        return ()
    top = min(cap, bins[0], max(len(r) for r in shape))
    # No answer beats one piece per bin, each as long as the bin (and cap) allow.
    ideal = tuple(min(b, top) for b in bins)
    for length in range(top, 1, -1):
        best: tuple[int, ...] | None = None
        tried: set[tuple[Runs, tuple[int, ...]]] = set()
        for i, run in enumerate(shape):
            if len(run) < length or run in shape[:i]:
                continue
            others = shape[:i] + shape[i + 1 :]
            for start in range(len(run) - length + 1):
                after = _shape(others + tuple(_cut(run, start, length)))
                for b in sorted(set(bins), reverse=True):
                    if b < length:
                        break
                    k = bins.index(b)
                    rest = _bins(bins[:k] + (b - length,) + bins[k + 1 :])
                    if (after, rest) in tried:
                        continue
                    tried.add((after, rest))
                    found = (length, *_best(after, rest, length))
                    if best is None or found > best:
                        best = found
                        if best == ideal:
                            return best
        if best is not None:
            return best
    return ()


def rank_single(mask: int, bins: Sequence[int]) -> tuple[int, ...]:
    """Return the best tractor piece lengths (longest first), as `rank_answer` finds them, for
    positions holding one unit each, given as a bit mask (bit p set: a unit at position p).

    The search runs on the lengths of the runs of set bits (`_lengths`): a piece is cut from
    the end of its run, as the rest of one run holds whatever two shorter runs of the same
    total would, so no other cut finds more.
    """
    runs: list[int] = []
    while mask:
        low = mask & -mask
        above = mask + low  # the lowest run cleared, the bit above it set
        length = ((mask & ~above) // low).bit_length()
        if length >= 2:
            runs.append(length)
        mask &= above
    canon = _CANON.get(bins) if type(bins) is tuple else None
    if canon is None:
        canon = _bins(bins)
    if not runs or not canon:
        return ()
    return _lengths(tuple(sorted(runs, reverse=True)), canon, _INF)


def _shorten(sizes: tuple[int, ...], i: int, length: int) -> tuple[int, ...]:
    """Cut `length` off sizes[i]: what is left stays when it still holds a pair (longest first)."""
    rest = sizes[i] - length
    out = sizes[:i] + sizes[i + 1 :]
    return tuple(sorted((*out, rest), reverse=True)) if rest >= 2 else out


@lru_cache(maxsize=MEMO)
def _lengths(runs: tuple[int, ...], bins: tuple[int, ...], cap: int) -> tuple[int, ...]:
    # The first piece is as long as the cap, the widest bin and the longest run allow (one
    # always fits), so only its run and bin are chosen; runs and bins are longest first.
    length = min(cap, bins[0], runs[0])
    best: tuple[int, ...] = ()
    seen_run = 0
    for i, r in enumerate(runs):
        if r < length:
            break
        if r == seen_run:
            continue
        seen_run = r
        after = _shorten(runs, i, length)
        seen_bin = 0
        for k, b in enumerate(bins):
            if b < length:
                break
            if b == seen_bin:
                continue
            seen_bin = b
            others = _shorten(bins, k, length)
            found = (length, *_lengths(after, others, length)) if after and others else (length,)
            if found > best:
                best = found
    return best
