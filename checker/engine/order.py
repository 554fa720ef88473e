"""Card order for one deal: which cards are trump, their strength and ladder positions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .cards import (
    BIG,
    SMALL,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    format_card,
    format_rank,
    parse_rank,
    parse_suit,
)
from .errors import CardError, HandError
from .held import Codes, Held
from .ruleset import Ruleset, TractorOrder
from .texts import ZH, Lang, pick
from .vocab import is_no_trump, suit_name, term

if TYPE_CHECKING:
    from .combos import Combo, UnitTable

TRUMP = "T"
HELD_MEMO = 1 << 13  # hands (by codes and by id) kept per context before starting afresh


class Context:
    """The card order of one deal: ruleset, level rank and trump suit, precomputed per card.

    Every card maps to a group (TRUMP or its suit letter) and a position: a larger position is
    stronger, equal positions are equal in strength, and consecutive positions are adjacent
    for tractors. `classified` memoises `combos.classify` for this deal (plays are immutable),
    `hands` the `Held` view of each hand judged.
    """

    __slots__ = (
        "ruleset",
        "level",
        "trump",
        "key",
        "tiers",
        "deck",
        "link",
        "display",
        "strength",
        "cheap",
        "classified",
        "hands",
        "codes",
        "units",
    )

    def __init__(self, ruleset: Ruleset, level: int | None, trump: str | None) -> None:
        self.ruleset = ruleset
        self.level = level if ruleset.has_level else None
        self.trump = trump
        self.key: dict[Card, tuple[str, int]] = {}
        self.tiers: dict[str, list[list[Card]]] = {}
        trump_ranks: list[int] = []
        for r in ruleset.trump_ranks:
            rank = self.level if r == "level" else r
            if isinstance(rank, int) and rank not in trump_ranks:
                trump_ranks.append(rank)
        for suit in SUITS:
            if suit == trump:
                continue
            plain = [r for r in ruleset.ranks if r not in trump_ranks]
            self._assign(suit, [[Card(suit, r)] for r in plain])
        tiers: list[list[Card]] = []
        if trump is not None:
            tiers.extend([Card(trump, r)] for r in ruleset.ranks if r not in trump_ranks)
        for rank in reversed(trump_ranks):
            if rank not in ruleset.ranks:
                continue
            tiers.append([Card(s, rank) for s in SUITS if s != trump])
            if trump is not None:
                tiers.append([Card(trump, rank)])
        if ruleset.jokers:
            tiers.append([SMALL])
            tiers.append([BIG])
        self._assign(TRUMP, tiers)
        self.deck = frozenset(self.key)
        # Display order (`sort_cards`), the one order every hand is shown in: trumps first,
        # then the side suits in the ruleset's order, strongest first; equal cards (off-suit
        # level cards, fixed trumps) in the same suit order. `strength`: the same trumps, then
        # every side card by rank, the suits of one rank side by side (`sort_cards(by_rank=True)`).
        suits = {s: i for i, s in enumerate(ruleset.hand_suits)}
        self.display = {
            c: (0 if g == TRUMP else 1 + suits[g], -p, suits.get(c.suit, -1))
            for c, (g, p) in self.key.items()
        }
        self.strength = {
            c: (0, -p, suits.get(c.suit, -1)) if g == TRUMP else (1, -c.rank, suits[g])
            for c, (g, p) in self.key.items()
        }
        # Cheapest first (a follow's filler cards): side suits before trumps, fewest points,
        # then weakest.
        self.cheap = {c: (1 if g == TRUMP else 0, c.points, p) for c, (g, p) in self.key.items()}
        self.classified: dict[tuple[Card, ...], Combo] = {}
        # Hands by their card codes (`card_codes`) and by the id of the object last asked for.
        self.hands: dict[bytes | int, Held] = {}
        self.codes: Codes | None = None  # built when first asked (`card_codes`)
        self.units: UnitTable | None = None  # built when first asked (`combos.unit_table`)
        # Adjacency for tractors, per card within its group: the strength position itself,
        # unless the ruleset reads trump tractors in their natural order.
        self.link: dict[Card, int] = {c: p for c, (_, p) in self.key.items()}
        if tractor_order(ruleset) == TractorOrder.NATURAL:
            self._natural_links()

    def _natural_links(self) -> None:
        """Chain the trump suit in rank order (its level card and 2 at their own rank), then the
        jokers; every other trump gets a place next to nothing."""
        chain = [Card(self.trump, r) for r in self.ruleset.ranks] if self.trump else []
        if self.ruleset.jokers:
            chain += [SMALL, BIG]
        chain = [c for c in chain if self.key.get(c, ("", 0))[0] == TRUMP]
        for i, card in enumerate(chain):
            self.link[card] = i
        linked = set(chain)
        apart = (c for c in self.key if self.key[c][0] == TRUMP and c not in linked)
        for j, card in enumerate(sorted(apart, key=lambda c: (self.key[c][1], c.suit))):
            self.link[card] = len(chain) + 1 + 2 * j

    def _assign(self, group: str, tiers: list[list[Card]]) -> None:
        self.tiers[group] = tiers
        for pos, tier in enumerate(tiers):
            for card in tier:
                self.key[card] = (group, pos)

    def held(self, hand: Sequence[Card]) -> Held:
        """Return a hand's cards per group and their copies (worked out once per hand object;
        the cards are compared each time, so a changed hand is seen afresh)."""
        cards = tuple(hand)
        hands = self.hands
        held = hands.get(id(hand))
        if held is None or held.cards != cards:
            if len(hands) >= HELD_MEMO:
                hands.clear()
            held = hands[id(hand)] = Held(self.key, cards)  # its codes once a follow is judged
        return held

    def forget_hands(self) -> None:
        """Drop the hands kept for the follows judged so far: a round calls it once a trick is
        over, when every hand that followed has changed (kept, they would only be more
        objects for the garbage collector to walk)."""
        self.hands.clear()

    def coded(self, held: Held) -> bytes:
        """Write the card codes of a hand seen so far without them (`held`), and keep the
        hand under them. A card the deck lacks raises KeyError."""
        table = self.codes or self.card_codes()
        codes, groups = table.encode(held.cards)
        held.codes, held.groups = codes, groups
        self.hands.setdefault(codes, held)
        return codes

    def card_codes(self) -> Codes:
        """Return the deal's tables over card codes (`held.Codes`), built when first asked."""
        codes = self.codes
        if codes is None:
            codes = self.codes = Codes(self.key, self.link, self.ruleset)
        return codes

    def group(self, card: Card) -> str:
        """Return the card's group: TRUMP or its suit letter."""
        return self.key[card][0]

    def pos(self, card: Card) -> int:
        """Return the card's strength position within its group."""
        return self.key[card][1]

    def is_trump(self, card: Card) -> bool:
        """Tell whether the card is a trump in this deal."""
        return self.key[card][0] == TRUMP

    def ladder(self, group: str = TRUMP) -> list[list[Card]]:
        """List the tiers of a group from strongest to weakest (equal cards share a tier)."""
        return list(reversed(self.tiers.get(group, [])))

    def sort_cards(self, cards: Iterable[Card], *, by_rank: bool = False) -> list[Card]:
        """Sort cards for display: trumps first, strongest first, then the side suits in the
        ruleset's order (`Ruleset.hand_suits`) each from high to low, or with `by_rank` every
        side card by rank, the suits of one rank side by side."""
        return sorted(cards, key=(self.strength if by_rank else self.display).__getitem__)

    def display_deck(self, *, by_rank: bool = False) -> list[Card]:
        """List every card of the deck once, in display order (`sort_cards`)."""
        return self.sort_cards(self.deck, by_rank=by_rank)

    def group_name(self, group: str, lang: Lang = ZH) -> str:
        """Name a group: 主牌 or the suit in Chinese, trumps or e.g. ♠ spades in English."""
        if group == TRUMP:
            return pick(lang, "主牌", "trumps")
        return suit_name(group, lang)

    def describe(self, lang: Lang = ZH) -> str:
        """Describe the deal's trump setting in words, e.g. 打2，主♥ or level 2, ♥ trump."""
        parts = []
        if self.level is not None:
            rank = format_rank(self.level)
            parts.append(pick(lang, f"打{rank}", f"level {rank}"))
        if self.trump is None:
            parts.append(term("no_trump", lang))
        else:
            symbol = SUIT_SYMBOLS[self.trump]
            parts.append(pick(lang, "主" + symbol, f"{symbol} trump"))
        return pick(lang, "，", ", ").join(parts)

    def check_cards(self, cards: Iterable[Card], what: str) -> None:
        """Reject cards that this ruleset's deck does not contain."""
        for c in cards:
            if c not in self.key:
                raise CardError(
                    f"{what}中的“{format_card(c)}”不在{self.ruleset.title}的牌里",
                    en=f"“{format_card(c)}” in {what} is not in the {self.ruleset.name} deck",
                    value=format_card(c),
                )


TRACTOR_ORDER = "tractor_order"


def tractor_order(ruleset: Ruleset) -> TractorOrder:
    """Return how trump tractors connect: the `tractor_order` option when the ruleset has one,
    else its `tractor_order` field (ladder unless written)."""
    if ruleset.has_option(TRACTOR_ORDER):
        return TractorOrder(ruleset.option(TRACTOR_ORDER))
    return ruleset.deck.tractor_order


def parse_level(ruleset: Ruleset, level: object) -> int | None:
    """Parse the level rank of a deal; None for rulesets without one."""
    if not ruleset.has_level:
        return None
    if level is None or level == "":
        raise CardError("缺少级牌（level）", en="the level is missing", field="level")
    rank = parse_rank(str(level))
    if rank not in ruleset.ranks:
        raise CardError(
            f"级牌“{level}”不在{ruleset.title}的牌里",
            en=f"level “{level}” is not a rank of the {ruleset.name} deck",
            field="level",
            value=str(level),
        )
    return rank


def parse_trump(trump: object) -> str | None:
    """Parse a trump suit: a suit symbol or letter, or none / 无主 / NT for no-trump."""
    if trump is None:
        return None
    text = str(trump).strip()
    if text == "" or is_no_trump(text):
        return None
    try:
        return parse_suit(text)
    except CardError as exc:
        raise CardError(
            f"主花色“{trump}”无效（应为 S H C D、♠♥♣♦ 或 none）",
            en=f"trump “{trump}” is not valid (S H C D, ♠♥♣♦ or none)",
            field="trump",
            value=text,
        ) from exc


def make_context(ruleset: Ruleset, level: object, trump: object) -> Context:
    """Build the card order of a deal from a ruleset, level and trump as written in a case."""
    return context_for(ruleset, parse_level(ruleset, level), parse_trump(trump))


_CACHE: dict[tuple[int, int | None, str | None], Context] = {}


def context_for(ruleset: Ruleset, level: int | None, trump: str | None) -> Context:
    """Return the card order of a deal, built once per ruleset, level and trump (memos kept)."""
    key = (id(ruleset), level, trump)
    ctx = _CACHE.get(key)
    if ctx is None or ctx.ruleset is not ruleset:
        ctx = Context(ruleset, level, trump)
        if len(_CACHE) > 512:
            _CACHE.clear()
        _CACHE[key] = ctx
    return ctx


def check_copies(ctx: Context, hands: dict[str, list[Card]]) -> None:
    """Reject card lists that together hold more copies of a card than the decks have."""
    total: Counter[Card] = Counter()
    for what, cards in hands.items():
        ctx.check_cards(cards, what)
        total.update(cards)
    for card, n in total.items():
        if n > ctx.ruleset.decks:
            raise HandError(
                f"“{format_card(card)}”出现了 {n} 次，但{ctx.ruleset.decks}副牌只有"
                f" {ctx.ruleset.decks} 张",
                en=f"“{format_card(card)}” appears {n} times but {ctx.ruleset.decks} deck(s)"
                f" hold only {ctx.ruleset.decks}",
                value=format_card(card),
            )


__all__ = [
    "TRUMP",
    "Context",
    "tractor_order",
    "check_copies",
    "make_context",
    "parse_level",
    "parse_trump",
]
