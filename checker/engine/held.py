"""A hand seen through one deal's card order: the copies of each card and each group's cards,
worked out once per hand (`Context.held`) and shared by every judgement of a follow from it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .cards import Card

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

    __slots__ = ("counts", "groups", "unknown", "widths", "answers")

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
        self.widths: dict[str | None, int] = {}
        self.answers: dict[AnswerKey, Answer] = {}

    def of(self, group: str | None) -> tuple[Card, ...]:
        """Return the hand's cards of one group, in hand order."""
        if self.unknown is not None:
            raise KeyError(self.unknown)
        return () if group is None else self.groups.get(group, ())

    def widest(self, group: str | None) -> int:
        """Return the most copies of one card among the hand's cards of a group (0 if none)."""
        width = self.widths.get(group)
        if width is None:
            counts = self.counts
            width = self.widths[group] = max((counts[c] for c in self.of(group)), default=0)
        return width

    def has(self, cards: Sequence[Card]) -> bool:
        """Tell whether the hand holds every card of `cards` (with multiplicity)."""
        counts = self.counts
        if len(cards) == 1:
            return cards[0] in counts
        need: dict[Card, int] = {}
        for c in cards:
            need[c] = need.get(c, 0) + 1
        return all(counts.get(c, 0) >= n for c, n in need.items())
