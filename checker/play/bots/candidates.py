"""The sensible plays a searching bot tries at a lead or follow: a few per group and shape,
never every subset of a hand (each follow shape once, no single split off a pair for nothing).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from checker.engine.cards import Card
from checker.engine.combos import SINGLE, Combo
from checker.engine.follow import generate_example, judge_follow
from checker.engine.order import Context

from ..players import LEAD, PlayerView, groups_of, lead_units, random_follow
from .moves import follow_options, in_group, ruff_options

MAX_CANDIDATES = 8
Play = tuple[Card, ...]


def _spread(ctx: Context, cards: Sequence[Card]) -> list[Play]:
    """Pick the representative singles of one group: lowest, highest and the point cards
    (lowest and highest), singles not in a pair first."""
    key = ctx.key
    counts = Counter(cards)
    lone = [c for c in counts if counts[c] == 1] or list(counts)
    lone.sort(key=lambda c: (key[c][1], c))
    points = [c for c in lone if c.points]
    picks = [lone[0], lone[-1], *points[:1], *points[-1:]]
    return [(c,) for c in dict.fromkeys(picks)]


def _lead_plays(ctx: Context, hand: Sequence[Card]) -> list[Play]:
    """List the leads worth trying: per group its spread of singles, its top pair and tractor."""
    key = ctx.key
    per_group: list[list[Play]] = []
    for cards in groups_of(ctx, hand).values():
        units = lead_units(ctx, cards)
        pairs = [u for u in units if len(u) == 2]
        tractors = [u for u in units if len(u) > 2]
        plays = _spread(ctx, cards)
        if tractors:
            longest: list[Card] = max(tractors, key=len)
            plays.insert(0, tuple(longest))
        if pairs:
            top: list[Card] = max(pairs, key=lambda u: key[u[0]][1])
            plays.insert(0, tuple(top))
        per_group.append(plays)
    out: list[Play] = []
    depth = max(len(p) for p in per_group)
    for i in range(depth):  # round robin: every group gets its best tries first
        out += [plays[i] for plays in per_group if i < len(plays)]
    return out


def _follow_plays(
    ctx: Context, lead: Combo, hand: Sequence[Card], rng: random.Random
) -> list[Play]:
    """List the follows worth trying: in-suit spread or shapes, ruffs and cheap discards."""
    key = ctx.key
    suit = in_group(ctx, lead.group, hand)
    n = len(lead.cards)
    if lead.type == SINGLE:
        if suit:
            return _spread(ctx, suit)
        out: list[Play] = []
        for cards in groups_of(ctx, hand).values():
            out += _spread(ctx, cards)
        return out
    prefs = (
        lambda c: (key[c][1],),
        lambda c: (-key[c][1],),
        lambda c: (c.points, key[c][1]),
        lambda c: (-c.points, key[c][1]),
    )
    plays = [tuple(p) for p in follow_options(ctx, lead, hand, prefs)]
    if len(suit) < n:
        plays += [tuple(p) for p in ruff_options(ctx, lead, hand)]
    plays.append(tuple(generate_example(ctx, lead, hand)))
    plays += [tuple(random_follow(rng, ctx, lead, hand)) for _ in range(3)]
    return plays


def candidate_plays(view: PlayerView, first: Sequence[Card], rng: random.Random) -> list[Play]:
    """List the distinct legal plays to try, `first` (the rule bot's own choice) first."""
    ctx = view.ctx
    assert ctx is not None
    if view.phase == LEAD:
        tries = _lead_plays(ctx, view.hand)
    else:
        assert view.lead is not None
        tries = _follow_plays(ctx, view.lead, view.hand, rng)
    out: list[Play] = []
    seen: set[Play] = set()
    for play in [tuple(first), *tries]:
        known = tuple(sorted(play))
        if known in seen or not _legal(view, play):
            continue
        seen.add(known)
        out.append(play)
        if len(out) == MAX_CANDIDATES:
            break
    return out


def _legal(view: PlayerView, play: Play) -> bool:
    """Tell whether a play is one the seat may make (a lead is any unit of its hand)."""
    if view.phase == LEAD:
        return True  # built from single units of the hand, or the rule bot's own lead
    assert view.ctx is not None and view.lead is not None
    return judge_follow(view.ctx, view.lead, view.hand, play).legal
