"""Deals a seat could be facing: the hidden hands (and kitty) drawn from what its view shows.

Only the view is read: the seat's own hand, the finished tricks and the trick so far, the
declarations and, for the banker, the kitty it buried. The other seats hold every card not
seen yet, as many as the view implies (every seat starts a trick with as many cards as the
others), never a card of a group they have shown a void in by failing to follow it, and a
declarer still holds the declaring cards it has not played. Cards beyond what the seats and the
kitty can hold (a bot case's history may leave early tricks out) were played out of sight.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from checker.engine.cards import Card

from ..players import PlayerView
from .memory import read_memory

TRIES = 20


class Sample(NamedTuple):
    """One deal the seat could be facing: every seat's hand (its own as it is) and the kitty."""

    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]


class Knowledge(NamedTuple):
    """What the view tells about the hidden cards: the pool, each seat's count and its voids."""

    pool: tuple[Card, ...]
    sizes: dict[int, int]  # seat -> cards it holds now (the other seats)
    voids: dict[int, frozenset[str]]
    held: dict[int, tuple[Card, ...]]  # seat -> declaring cards it still holds
    kitty: tuple[Card, ...] | None  # the kitty, when the seat buried it


def read_knowledge(view: PlayerView) -> Knowledge:
    """Read from a lead or follow view what the seat knows of the cards it cannot see."""
    ctx = view.ctx
    assert ctx is not None
    rs, me = view.ruleset, view.seat
    mem = read_memory(ctx, me, view.hand, view.history, view.trick, view.kitty)
    pool = tuple(sorted(mem.unseen.elements()))
    played_now = {s for s, _ in view.trick}
    lead_size = len(view.trick[0][1]) if view.trick else 0
    mine = len(view.hand)
    sizes = {s: mine - lead_size if s in played_now else mine for s in range(rs.players) if s != me}
    voids = {s: frozenset(g) for s, g in mem.voids.items() if s != me}
    shown: dict[int, Counter[Card]] = {}
    for t in [*view.history, view.trick]:
        for s, cards in t:
            shown.setdefault(s, Counter()).update(cards)
    held: dict[int, tuple[Card, ...]] = {}
    for s, cards in view.declarations:
        if s == me:
            continue
        left = Counter(cards) - shown.get(s, Counter())
        held[s] = tuple(sorted(left.elements()))
    kitty = tuple(view.kitty) if me == view.banker and view.kitty else None
    return Knowledge(pool, sizes, voids, held, kitty)


def draw_deal(view: PlayerView, know: Knowledge, rng: random.Random) -> Sample | None:
    """Draw one deal consistent with the knowledge (None when the view cannot be met)."""
    for strict in (True, False):
        for _ in range(TRIES):
            dealt = _try_deal(view, know, rng, strict)
            if dealt is not None:
                return dealt
    return None


def _try_deal(view: PlayerView, know: Knowledge, rng: random.Random, strict: bool) -> Sample | None:
    """Try to place the pool's cards once: the declarers' cards first, then the most bound."""
    ctx = view.ctx
    assert ctx is not None
    key = ctx.key
    room = dict(know.sizes)
    hands: dict[int, list[Card]] = {s: [] for s in room}
    pool = Counter(know.pool)  # a known kitty is seen already: not in the pool
    for s, declared in know.held.items():
        for c in declared:
            if pool[c] and room.get(s, 0):
                pool[c] -= 1
                hands[s].append(c)
                room[s] -= 1
    cards = list(pool.elements())
    rng.shuffle(cards)
    voids = know.voids if strict else {}

    def able(c: Card) -> list[int]:
        return [s for s in room if key[c][0] not in voids.get(s, ())]

    cards.sort(key=lambda c: len(able(c)))
    kitty_room = 0 if know.kitty is not None else view.ruleset.kitty_size
    spare = len(cards) - sum(room.values()) - kitty_room
    if spare < 0:
        return None
    kitty: list[Card] = []
    for c in cards:
        seats = [s for s in able(c) if room[s]]
        sink = kitty_room - len(kitty) + spare
        total = sum(room[s] for s in seats) + sink
        if total == 0:
            return None
        pick = rng.randrange(total)
        for s in seats:
            if pick < room[s]:
                hands[s].append(c)
                room[s] -= 1
                break
            pick -= room[s]
        else:
            if pick < kitty_room - len(kitty):
                kitty.append(c)
            else:
                spare -= 1  # played in a trick the view leaves out
    if any(room.values()) or (know.kitty is None and len(kitty) != kitty_room):
        return None
    full = tuple(
        tuple(view.hand) if s == view.seat else tuple(hands[s]) for s in range(view.ruleset.players)
    )
    return Sample(full, know.kitty if know.kitty is not None else tuple(kitty))


def draw_deals(view: PlayerView, count: int, rng: random.Random) -> list[Sample]:
    """Draw up to `count` deals the view's seat could be facing (fewer when it cannot be met)."""
    know = read_knowledge(view)
    out: list[Sample] = []
    for _ in range(count):
        dealt = draw_deal(view, know, rng)
        if dealt is None:
            break
        out.append(dealt)
    return out
