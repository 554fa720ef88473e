"""A hand seen through one deal's card order: the copies of each card and each group's cards,
worked out once per hand (`Context.held`), each part only when first asked for, and shared by
every judgement of a follow from that hand.

A hand is also kept as a string of card codes (a byte per card: a card is its face's small
integer, `cards.Card`, so the string is `bytes(cards)`) and of their groups' codes (`Codes`): a
card or a group is then counted in a hand with one bytes operation instead of a dictionary
look-up per card."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .cards import BIG, SMALL, Card, copies, count_into
from .cards import holds as holds
from .jokers import mixes_jokers, pair_view
from .ruleset import Ruleset
from .structure import Answer

if TYPE_CHECKING:
    from .follow import FollowVerdict

# The best answer a group's cards give to a lead's tractors and pairs: (group, tractor lengths,
# lone pairs) -> Answer, filled by `follow.judge_follow` for leads with tractors (pairs alone
# are counted afresh each time, as cheaply as looked up); the cards that show it
# (`combos.match_copies`), filled by `follow.generate_example`.
AnswerKey = tuple[str | None, tuple[int, ...], int]

# A hand's codes and, per group code, its copies of each code in the pair view, and per lead
# shape the best answer (`Codes.seen`).
Seen = tuple[bytes, dict[int, dict[int, int]], dict[AnswerKey, Answer]]

NO_GROUP = 255  # the group code of a lead without a group: no card has it
OUTSIDE = 254  # the group code of a face the deck lacks
_EVERY_CODE = bytes(range(256))


class Codes:
    """One deal's cards as small integers: a card's code is the card itself (its face code,
    `cards.Card`), so a hand is written as bytes directly. Per deal: each group's code, the
    table that turns card codes into group codes (`bytes.translate`; a face the deck lacks
    turns into OUTSIDE), each code's tractor position (`Context.link`), and whether the jokers
    mix in the pair view."""

    __slots__ = (
        "group",
        "to_group",
        "outside",
        "link",
        "small",
        "big",
        "mixed",
        "to_pos",
        "weaker",
        "stronger_set",
        "last",
        "seen",
        "card",
    )

    def __init__(
        self, key: Mapping[Card, tuple[str, int]], link: Mapping[Card, int], rs: Ruleset
    ) -> None:
        groups = [g for g, _ in key.values()]
        self.group: dict[str | None, int] = {g: i for i, g in enumerate(dict.fromkeys(groups))}
        to_group = bytearray([OUTSIDE]) * 256
        to_pos = bytearray(256)
        tractor = [0] * 256
        for card, (g, pos) in key.items():
            to_group[card] = self.group[g]
            to_pos[card] = pos
            tractor[card] = link[card]
        self.to_group = bytes(to_group)
        # Each code's strength position in its group (`bytes.translate` of a group's codes).
        self.to_pos = bytes(to_pos)
        self.card: dict[int, Card] = {int(card): card for card in key}  # each code's card
        # Per group code, when first asked (`group_cards`): the codes of every card outside it.
        self.outside: dict[int, bytes] = {}
        # Per group code and strength position, when first asked (`weaker`): the codes to
        # delete to keep a hand's stronger cards of the group.
        self.weaker: dict[tuple[int, int], bytes] = {}
        # The same, when first asked (`stronger`): the codes kept, as a set.
        self.stronger_set: dict[tuple[int, int], frozenset[int]] = {}
        self.link = tractor
        self.small = int(SMALL) if SMALL in key else -1
        self.big = int(BIG) if BIG in key else -1
        self.mixed = mixes_jokers(rs) and self.small >= 0 and self.big >= 0
        # The hand read last (`read`): its cards, codes and group codes.
        self.last: tuple[tuple[Card, ...], bytes, bytes] = ((), b"", b"")
        # What one-off follow checks worked out from the codes of the hand read last (that
        # very object, `last`), replaced in one step (threads share a context): the codes,
        # per group code the copies of each code in the pair view (`group_copies`), per lead
        # shape the best answer (as `Held.answers`).
        self.seen: Seen = (b"", {}, {})

    def encode(self, cards: Sequence[Card]) -> tuple[bytes, bytes]:
        """Write cards as their codes and their groups' codes, in order; a card the deck lacks
        raises KeyError."""
        codes = bytes(cards)
        groups = codes.translate(self.to_group)
        if OUTSIDE in groups:
            raise KeyError(cards[groups.index(OUTSIDE)])
        return codes, groups

    def read(self, cards: tuple[Card, ...]) -> tuple[tuple[Card, ...], bytes, bytes]:
        """Write a hand as `encode` does, keeping only the last hand read: the same cards read
        again in a row (one follow checked twice, or several follows from one hand) are not
        encoded again. Return the cards (the tuple kept), their codes and group codes."""
        last = self.last
        if last[0] == cards:
            return last
        codes = bytes(cards)
        groups = codes.translate(self.to_group)
        if OUTSIDE in groups:
            raise KeyError(cards[groups.index(OUTSIDE)])
        last = self.last = (cards, codes, groups)
        return last

    def group_cards(self, codes: bytes, group: int) -> bytes:
        """Cut the codes of one group (by its group code) out of a code string, in order."""
        return codes.translate(None, self.outside_of(group))

    def outside_of(self, group: int) -> bytes:
        """Return the codes of every card outside one group (by its group code): what
        `bytes.translate` deletes to keep that group's codes."""
        outside = self.outside.get(group)
        if outside is None:
            inside = bytes(i for i, g in enumerate(self.to_group) if g == group)
            outside = self.outside[group] = _EVERY_CODE.translate(None, inside)
        return outside

    def not_above(self, group: int, top: int) -> bytes:
        """Return the codes `bytes.translate` deletes to keep, of a hand's codes, the cards of
        the group (by its group code) stronger than position `top`, and the faces the deck
        lacks (OUTSIDE): the hand has a stronger card of the group if anything is left that
        is not outside the deck."""
        key = (group, top)
        table = self.weaker.get(key)
        if table is None:
            to_group, to_pos = self.to_group, self.to_pos
            kept = bytes(
                x for x, g in enumerate(to_group) if g == OUTSIDE or g == group and to_pos[x] > top
            )
            table = self.weaker[key] = _EVERY_CODE.translate(None, kept)
        return table

    def stronger(self, group: int, top: int) -> frozenset[int]:
        """Return the codes `not_above(group, top)` keeps, as a set: a hand holding one of them
        (`isdisjoint`, one C loop) has a stronger card of the group or a face the deck lacks."""
        key = (group, top)
        found = self.stronger_set.get(key)
        if found is None:
            weak = self.not_above(group, top)
            found = self.stronger_set[key] = frozenset(_EVERY_CODE.translate(None, weak))
        return found

    def cards_of(self, codes: bytes) -> list[Card]:
        """Give back the cards of some codes of this deal, in order."""
        return list(map(self.card.__getitem__, codes))

    def copies(self, codes: bytes) -> dict[int, int]:
        """Count the copies of each code, in the pair view (`jokers.pair_view`): one 大王 read
        as a 小王 when both jokers are odd in number and the ruleset mixes them."""
        counts: dict[int, int] = {}
        count_into(counts, codes)  # one pass in C, where a count per code rescans
        if self.mixed:
            self.pair_view(counts)
        return counts

    def pair_view(self, counts: dict[int, int]) -> None:
        """Read copies per code in the pair view, in place: one 大王 read as a 小王 when both
        jokers are odd in number (for a ruleset that mixes them, `mixed`)."""
        big, small = counts.get(self.big, 0), counts.get(self.small, 0)
        if big % 2 and small % 2:
            counts[self.small] = small + 1
            if big == 1:
                del counts[self.big]
            else:
                counts[self.big] = big - 1

    def seen_for(self, codes: bytes) -> Seen | None:
        """Return what was worked out from these codes (`seen`), afresh for the codes of the
        hand read last (`last`); None for any other codes (nothing is kept for them)."""
        seen = self.seen
        if seen[0] is not codes:
            if codes is not self.last[1]:
                return None
            seen = self.seen = (codes, {}, {})
        return seen

    def group_copies(self, codes: bytes, group: int, seen: Seen | None) -> dict[int, int]:
        """Return the copies of each code of one group of a hand in the pair view (`copies`
        of its `group_cards`), kept in what is seen of the hand (`seen_for`) if anything.
        Shared: read it, never change it."""
        if seen is None:
            return self.copies(self.group_cards(codes, group))
        counts = seen[1].get(group)
        if counts is None:
            counts = seen[1][group] = self.copies(self.group_cards(codes, group))
        return counts

    def pair_counts(self, counts: Mapping[int, int]) -> dict[int, int]:
        """Map each tractor position to the pairs held there, from copies per code (as
        `combos.pair_counts` does from cards)."""
        link = self.link
        out: dict[int, int] = {}
        for x, k in counts.items():
            if k >= 2:
                p = link[x]
                out[p] = out.get(p, 0) + k // 2
        return out


class Held:
    """One hand: its cards, their codes and group codes (`Codes`), and per group its cards in
    the pair view (`jokers.pair_view`) with their copies and the most copies of one card."""

    # Made when first needed (the class's None until then, so that a fresh hand, met once by
    # most judgements, sets only what it has): per group its cards in the pair view, the most
    # copies of one and the copies of each; per lead shape the best answer and the cards
    # showing it.
    views: dict[str | None, tuple[tuple[Card, ...], int, dict[Card, int]]] | None = None
    answers: dict[AnswerKey, Answer] | None = None
    matches: dict[AnswerKey, tuple[Card, ...]] | None = None

    def __init__(
        self,
        key: Mapping[Card, tuple[str, int]],
        cards: tuple[Card, ...],
        codes: bytes | None = None,
        groups: bytes | None = None,
    ) -> None:
        self.cards = cards
        self.codes = codes  # `Codes.encode(cards)`, once a follow from the hand is judged
        self.groups = groups  # the group code of each card (`Codes.to_group`)
        self.key = key
        # Follows judged from this hand: play -> verdict (which names the lead it answers).
        self.verdicts: dict[tuple[Card, ...], FollowVerdict] = {}

    def _group(
        self, group: str | None, rs: Ruleset
    ) -> tuple[tuple[Card, ...], int, dict[Card, int]]:
        views = self.views
        if views is None:
            views = self.views = {}
        hit = views.get(group)
        if hit is None:
            key = self.key
            picked = [c for c in self.cards if key[c][0] == group]
            # Only the jokers' group can hold the mixed pair the pair view reads.
            jokers = key.get(BIG)
            cards = tuple(pair_view(rs, picked) if jokers and jokers[0] == group else picked)
            counts = copies(cards)
            hit = views[group] = (cards, max(counts.values(), default=0), counts)
        return hit

    def view(self, group: str | None, rs: Ruleset) -> tuple[tuple[Card, ...], int]:
        """Return a group's cards in the pair view, in hand order, and the most copies of one
        card among them (0 if none)."""
        cards, widest, _ = self._group(group, rs)
        return cards, widest

    def copies(self, group: str | None, rs: Ruleset) -> dict[Card, int]:
        """Return the copies of each card of a group in the pair view (`view`), in hand order.
        Shared by every caller: read it, never change it."""
        return self._group(group, rs)[2]
