"""Card memory (记牌): the cards a seat has seen, the cards still unseen, and the voids each
other seat has shown, read from the trick history its view carries."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from checker.engine.cards import Card, copies
from checker.engine.combos import SINGLE, Unit
from checker.engine.order import Context
from checker.engine.throws import find_beater

Play = tuple[int, tuple[Card, ...]]
Trick = Sequence[Play]


@dataclass
class Memory:
    """What one seat knows about the cards: seen copies, unseen copies and shown voids.

    `voids[seat]` holds the groups (TRUMP or a suit letter) that seat has shown it lacks: it
    played other cards on a lead of that group. With `infer_voids=False` (v1) no voids are
    read, only the cards seen.
    """

    ctx: Context
    seat: int
    unseen: Counter[Card] = field(default_factory=Counter)
    voids: dict[int, set[str]] = field(default_factory=dict)
    # What `seen` counts, counted when first asked: the finished tricks, then the seat's own
    # cards, the kitty it knows and the trick so far.
    tricks: Sequence[Trick] = ()
    now: Sequence[Card] = ()
    # Read once per group and per unit: `unseen` never changes once the memory is built.
    _groups: dict[str, list[Card]] = field(default_factory=dict, repr=False, compare=False)
    _beaters: dict[tuple[Unit, str, bool], tuple[Card, ...] | None] = field(
        default_factory=dict, repr=False, compare=False
    )
    _tops: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def seen(self) -> Counter[Card]:
        """Count the copies of each card this seat has seen (own hand included)."""
        seen: Counter[Card] = Counter()
        for trick in self.tricks:
            for _, cards in trick:
                seen.update(cards)
        seen.update(self.now)
        return seen

    def is_void(self, seat: int, group: str) -> bool:
        """Tell whether a seat has shown that it holds no card of the group."""
        return group in self.voids.get(seat, set())

    def unseen_in(self, group: str) -> list[Card]:
        """List the unseen cards of one group, with their copies."""
        groups = self._groups
        if not groups:  # every group's list in one pass
            key = self.ctx.key
            for c in self.unseen.elements():
                found = groups.get(key[c][0])
                if found is None:
                    groups[key[c][0]] = [c]
                else:
                    found.append(c)
        return list(groups.get(group, ()))

    def unseen_points(self, group: str) -> int:
        """Add up the points of the unseen cards of one group."""
        return sum(c.points for c in self.unseen_in(group))

    def can_be_beaten(self, unit: Unit, group: str, *, wider: bool = True) -> bool:
        """Tell whether the unseen cards of the group could make a unit beating this one, by
        the referee's own rule (`throws.find_beater`). `wider`: a wider unit with as many cards
        counts too, as it does against a lone unit in a trick (not against a ruff of a throw;
        against a throw's unit as the ruleset says, `throws.beats_wider_in_throw`)."""
        if unit.kind == SINGLE:  # find_beater's single: any higher unseen card of the group
            return self._top(group) > unit.top
        return self.beater(unit, group, wider=wider) is not None

    def _top(self, group: str) -> int:
        """Return the highest strength position among the group's unseen cards (-1: none)."""
        tops = self._tops
        top = tops.get(group)
        if top is None:
            key = self.ctx.key
            top = tops[group] = max((key[c][1] for c in self.unseen_in(group)), default=-1)
        return top

    def beater(self, unit: Unit, group: str, *, wider: bool = True) -> tuple[Card, ...] | None:
        """Find a unit the unseen cards of the group could make that beats this one (as
        `can_be_beaten`), or None."""
        known = (unit, group, wider)
        if known in self._beaters:
            return self._beaters[known]
        found = self._beaters[known] = find_beater(
            self.ctx, unit, group, self.unseen_in(group), wider=wider
        )
        return found

    def void_chance(self, seat: int, group: str, held: int) -> float:
        """Estimate the chance that a seat holding `held` unknown cards has none of the group.

        A shown void is certain; otherwise the seat's cards are taken as drawn at random from
        the unseen ones (hypergeometric).
        """
        if self.is_void(seat, group):
            return 1.0
        total = sum(self.unseen.values())
        of_group = len(self.unseen_in(group))
        chance = 1.0
        for i in range(min(held, total)):
            chance *= max(0, total - of_group - i) / (total - i)
            if chance == 0.0:
                break
        return chance

    def count_seen(self, card: Card) -> int:
        """Count the copies of a card this seat has seen (own hand included)."""
        return self.seen[card]


class HistoryCache:
    """A bot's running reading of one round's history: finished tricks only ever grow, so each
    decision reads just the tricks added since the last one."""

    def __init__(self) -> None:
        self.ctx: Context | None = None
        self.tricks: list[Trick] = []
        # The copies of each card the history leaves unseen, in the deck's order (none: absent).
        self.unseen: dict[Card, int] = {}
        self.voids: dict[int, set[str]] = {}
        self.infer_voids = True

    def read(self, ctx: Context, history: Sequence[Trick], *, infer_voids: bool) -> None:
        """Bring the cached cards and voids up to date with the history."""
        n = len(self.tricks)
        # The same tricks read so far (equal ones read the same: a comparison in C).
        same = (
            ctx is self.ctx
            and infer_voids == self.infer_voids
            and len(history) >= n
            and list(history[:n]) == self.tricks
        )
        if not same:
            self.ctx, self.infer_voids = ctx, infer_voids
            self.tricks, self.voids = [], {}
            decks = ctx.ruleset.decks
            self.unseen = dict.fromkeys(ctx.deck, decks)
        for past in history[len(self.tricks) :]:
            cards = [c for _, played in past for c in played]
            _take(self.unseen, cards)
            if infer_voids and past:
                _read_voids(ctx, self.voids, past)
            self.tricks.append(past)


def _take(unseen: dict[Card, int], cards: Sequence[Card]) -> None:
    """Count these cards as seen: their copies fewer unseen, a card with none left dropped (the
    others keep their order); copies seen beyond what was unseen change nothing more."""
    for c, k in copies(cards).items():
        left = unseen.get(c)
        if left is None:
            continue
        if left > k:
            unseen[c] = left - k
        else:
            unseen.pop(c)  # dict's own: Counter's `del` is written in Python


def read_memory(
    ctx: Context,
    seat: int,
    hand: Iterable[Card],
    history: Sequence[Trick],
    trick: Trick = (),
    kitty: Iterable[Card] = (),
    *,
    infer_voids: bool = True,
    cache: HistoryCache | None = None,
) -> Memory:
    """Build a seat's memory from its hand, the finished tricks, the trick so far and the kitty."""
    cache = cache or HistoryCache()
    cache.read(ctx, history, infer_voids=infer_voids)
    voids = {s: set(v) for s, v in cache.voids.items()}
    now = [*hand, *kitty]
    for _, cards in trick:
        now += cards
    if infer_voids and trick:
        _read_voids(ctx, voids, trick)
    unseen: Counter[Card] = Counter()
    dict.update(unseen, cache.unseen)  # a plain copy: Counter's update first checks the type
    _take(unseen, now)
    return Memory(ctx, seat, unseen, voids, list(history), now)


def _read_voids(ctx: Context, voids: dict[int, set[str]], trick: Trick) -> None:
    key = ctx.key
    group = key[trick[0][1][0]][0]
    for who, cards in trick[1:]:
        if any(key[c][0] != group for c in cards):
            # It played every card of the group it had: it is void there from now on. A side
            # discard says nothing about trumps (ruffing is optional); a trump lead does.
            voids.setdefault(who, set()).add(group)
