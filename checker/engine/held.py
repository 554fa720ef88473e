"""A hand seen through one deal's card order: the copies of each card and each group's cards,
worked out once per hand (`Context.held`) and shared by every judgement of a follow from it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .cards import Card
from .jokers import pair_view
from .ruleset import Ruleset

if TYPE_CHECKING:
    from .combos import Answer

# The best answer a group's cards give to a lead's tractors and pairs: (group, tractor lengths,
# lone pairs) -> Answer, filled by `follow.judge_follow`.
AnswerKey = tuple[str | None, tuple[int, ...], int]


class Held:
    """The copies of each card of a hand and its cards by group (TRUMP or a suit), in hand order.

    `unknown` is the first card the deal's deck lacks (None when all are known): such a card
    belongs to no group, and judging a follow from that hand fails as it always has.
    """

    __slots__ = ("counts", "groups", "unknown", "views", "answers")

    def __init__(self, key: Mapping[Card, tuple[str, int]], cards: Sequence[Card]) -> None:
        counts: dict[Card, int] = {}
        groups: dict[str, list[Card]] = {}
        unknown: Card | None = None
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
            place = key.get(c)
            if place is None:
                if unknown is None:
                    unknown = c
                continue
            mine = groups.get(place[0])
            if mine is None:
                groups[place[0]] = [c]
            else:
                mine.append(c)
        self.counts = counts
        self.groups = {g: tuple(cs) for g, cs in groups.items()}
        self.unknown = unknown
        self.views: dict[str | None, tuple[list[Card], int]] = {}
        self.answers: dict[AnswerKey, Answer] = {}

    def of(self, group: str | None) -> tuple[Card, ...]:
        """Return the hand's cards of one group, in hand order."""
        if self.unknown is not None:
            raise KeyError(self.unknown)
        return () if group is None else self.groups.get(group, ())

    def view(self, group: str | None, rs: Ruleset) -> tuple[list[Card], int]:
        """Return a group's cards in the pair view (`jokers.pair_view`) and the most copies of
        one card there (0 if none), worked out once per group."""
        hit = self.views.get(group)
        if hit is None:
            cards = pair_view(rs, self.of(group))
            widest = 0
            if cards:
                copies: dict[Card, int] = {}
                for c in cards:
                    copies[c] = copies.get(c, 0) + 1
                widest = max(copies.values())
            hit = self.views[group] = (cards, widest)
        return list(hit[0]), hit[1]

    def has(self, cards: Sequence[Card]) -> bool:
        """Tell whether the hand holds every card of `cards` (with multiplicity)."""
        counts = self.counts
        if len(cards) == 1:
            return cards[0] in counts
        need: dict[Card, int] = {}
        for c in cards:
            need[c] = need.get(c, 0) + 1
        return all(counts.get(c, 0) >= n for c, n in need.items())
