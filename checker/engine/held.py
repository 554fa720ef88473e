"""A hand seen through one deal's card order: the copies of each card and each group's cards,
worked out once per hand (`Context.held`), each part only when first asked for, and shared by
every judgement of a follow from that hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .cards import Card, copies
from .jokers import pair_view
from .ruleset import Ruleset

if TYPE_CHECKING:
    from .combos import Answer, Combo
    from .follow import FollowVerdict

# The best answer a group's cards give to a lead's tractors and pairs: (group, tractor lengths,
# lone pairs) -> Answer, filled by `follow.judge_follow`; the cards that show it
# (`combos.match_copies`), filled by `follow.generate_example`.
AnswerKey = tuple[str | None, tuple[int, ...], int]


class Held:
    """One hand: its cards, the copies of each card, and per group its cards in the pair view
    (`jokers.pair_view`) with their copies and the most copies of one card there."""

    __slots__ = (
        "cards",
        "key",
        "counts",
        "views",
        "group_counts",
        "answers",
        "matches",
        "verdicts",
    )

    def __init__(self, key: Mapping[Card, tuple[str, int]], cards: tuple[Card, ...]) -> None:
        self.cards = cards
        self.key = key
        self.counts: dict[Card, int] | None = None
        self.views: dict[str | None, tuple[tuple[Card, ...], int]] = {}
        self.group_counts: dict[str | None, dict[Card, int]] = {}
        self.answers: dict[AnswerKey, Answer] = {}
        self.matches: dict[AnswerKey, tuple[Card, ...]] = {}
        # Follows judged from this hand: (id of the lead, play) -> (that lead, verdict).
        self.verdicts: dict[tuple[int, tuple[Card, ...]], tuple[Combo, FollowVerdict]] = {}

    def view(self, group: str | None, rs: Ruleset) -> tuple[tuple[Card, ...], int]:
        """Return a group's cards in the pair view, in hand order, and the most copies of one
        card among them (0 if none). A card the deck lacks raises KeyError, as it always has."""
        hit = self.views.get(group)
        if hit is None:
            key = self.key
            cards = tuple(pair_view(rs, [c for c in self.cards if key[c][0] == group]))
            counts = self.group_counts[group] = copies(cards)
            hit = self.views[group] = (cards, max(counts.values(), default=0))
        return hit

    def copies(self, group: str | None, rs: Ruleset) -> dict[Card, int]:
        """Return the copies of each card of a group in the pair view (`view`), in hand order.
        Shared by every caller: read it, never change it."""
        if group not in self.group_counts:
            self.view(group, rs)
        return self.group_counts[group]

    def has(self, cards: Sequence[Card]) -> bool:
        """Tell whether the hand holds every card of `cards` (with multiplicity)."""
        if len(cards) == 1:
            return cards[0] in self.cards
        counts = self.counts
        if counts is None:
            counts = self.counts = copies(self.cards)
        taken: dict[Card, int] = {}
        for c in cards:
            k = taken.get(c, 0) + 1
            if k > counts.get(c, 0):
                return False
            taken[c] = k
        return True
