"""Cards and the case-file notation: parsing every accepted spelling, formatting with suit symbols."""

from __future__ import annotations

import re
from collections import _count_elements  # type: ignore[attr-defined]
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .errors import CardError
from .native import mypyc_attr
from .vocab import BIG_JOKER as BIG_JOKER
from .vocab import (
    BIG_JOKER_SPELLINGS,
    CARD_SEPARATORS,
    JOKER_NAMES_ZH,
    RANK_ALIASES,
    SMALL_JOKER_SPELLINGS,
    SUIT_ALIASES,
)
from .vocab import RANK_LABELS as RANK_LABELS
from .vocab import SMALL_JOKER as SMALL_JOKER
from .vocab import SUIT_NAMES_EN as SUIT_NAMES_EN
from .vocab import SUIT_NAMES_ZH as SUIT_NAMES_ZH
from .vocab import SUIT_SYMBOLS as SUIT_SYMBOLS
from .vocab import SUITS as SUITS

POINTS = {5: 5, 10: 10, 13: 10}


# Per face code (index 0 unused): the suit, the rank and the points of the card.
_SUIT: list[str] = [""]
_RANK: list[int] = [0]
POINTS_BY_CODE: list[int] = [0]
_BY_FACE: dict[tuple[str, int], Card] = {}


@mypyc_attr(native_class=False)  # a subclass of a builtin: a plain class when compiled
class Card(int):
    """One physical card face: suit letter ("" for jokers) and rank (2..14, 15 小王, 16 大王).

    A card is a small integer, its face code: one shared object per face, numbered from 1 in
    the order of (suit, rank), so cards sort, hash and compare as those pairs did, a dict finds
    one by its value alone, and a hand is written as bytes directly (`bytes(cards)`). Being an
    int, a card equals its code: keep cards and other integers apart in one set or dict."""

    __slots__ = ()

    def __new__(cls, suit: str, rank: int) -> Card:
        card = _BY_FACE.get((suit, rank))
        return card if card is not None else _register(suit, rank)

    @property
    def suit(self) -> str:
        """Return the suit letter ("" for jokers); replaced by a C-level getter below."""
        return _SUIT[self]

    @property
    def rank(self) -> int:
        """Return the rank (2..14, 15 小王, 16 大王); replaced by a C-level getter below."""
        return _RANK[self]

    @property
    def is_joker(self) -> bool:
        return _RANK[self] >= SMALL_JOKER

    @property
    def points(self) -> int:
        return POINTS_BY_CODE[self]

    def __iter__(self) -> Iterator[str | int]:  # suit, rank = card
        return iter((_SUIT[self], _RANK[self]))

    def __getitem__(self, index: int) -> str | int:  # card[0] is the suit, card[1] the rank
        return (_SUIT[self], _RANK[self])[index]

    def __getnewargs__(self) -> tuple[str, int]:  # type: ignore[override]
        return (_SUIT[self], _RANK[self])

    def __repr__(self) -> str:
        return f"Card(suit={_SUIT[self]!r}, rank={_RANK[self]!r})"

    def __str__(self) -> str:
        return format_card(self)


# C-level getters: a card's suit and rank are read on every hot path. Set after the class, not
# in an `if TYPE_CHECKING` branch of its body, which the compiled build would leave out.
setattr(Card, "suit", property(_SUIT.__getitem__))  # noqa: B010
setattr(Card, "rank", property(_RANK.__getitem__))  # noqa: B010


def _register(suit: str, rank: int) -> Card:
    """Give a face its code and its one shared object (faces outside a deck get the next codes)."""
    code = len(_SUIT)
    if code > 255:
        raise CardError(
            f"牌面过多，无法再编码：{suit!r} {rank!r}",
            en=f"too many card faces for byte codes: {suit!r} {rank!r}",
            value=f"{suit}{rank}",
        )
    _SUIT.append(suit)
    _RANK.append(rank)
    POINTS_BY_CODE.append(0 if rank >= SMALL_JOKER else POINTS.get(rank, 0))
    card = _BY_FACE[(suit, rank)] = int.__new__(Card, code)
    return card


for _face in sorted(
    [("", SMALL_JOKER), ("", BIG_JOKER)] + [(s, r) for s in SUITS for r in range(2, 15)]
):
    _register(*_face)

BIG = Card("", BIG_JOKER)
SMALL = Card("", SMALL_JOKER)


# Letters match in ASCII upper or lower case only, spelled out: re.IGNORECASE would also take
# the Kelvin sign (U+212A) for K and the long s (U+017F) for S.
def _either_case(spelling: str) -> str:
    """Write a spelling as a pattern matching its ASCII letters in either case."""
    return "".join(
        f"[{c}{c.lower()}]" if c.isascii() and c.isalpha() else re.escape(c) for c in spelling
    )


def _alternatives(spellings: Iterable[str]) -> str:
    """Join spellings into one group of alternatives, the longest tried first."""
    return "|".join(_either_case(s) for s in sorted(spellings, key=lambda s: (-len(s), s)))


_JOKER_SPELLINGS = BIG_JOKER_SPELLINGS + SMALL_JOKER_SPELLINGS
_TOKEN = re.compile(
    f"({_alternatives(_JOKER_SPELLINGS)})|({_alternatives(SUIT_ALIASES)})({_alternatives(RANK_ALIASES)})"
)
_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_SYMBOL_START = re.compile(
    _alternatives([s for s in (*SUIT_ALIASES, *_JOKER_SPELLINGS) if not s.isascii()])
)
_SEPARATORS = re.compile(f"[\\s{re.escape(CARD_SEPARATORS)}]+")


def ascii_upper(text: str) -> str:
    """Upper-case the ASCII letters of a text and nothing else (no Unicode case mapping)."""
    return text.translate(_ASCII_UPPER)


def parse_rank(text: str) -> int:
    """Parse a level rank such as 2, "10", "T", "J" or "A" into its number."""
    key = ascii_upper(str(text).strip())
    if key in RANK_ALIASES:
        return RANK_ALIASES[key]
    raise CardError(
        f"“{text}” 不是点数（应为 2–10、J、Q、K、A）",
        en=f"“{text}” is not a rank (2–10, J, Q, K or A)",
        value=str(text),
    )


def parse_suit(text: str) -> str:
    """Parse a suit written as a symbol or letter into its letter."""
    key = ascii_upper(str(text).strip())
    if key in SUIT_ALIASES:
        return SUIT_ALIASES[key]
    raise CardError(
        f"“{text}” 不是花色（应为 ♠ ♥ ♣ ♦ 或 S H C D）",
        en=f"“{text}” is not a suit (♠ ♥ ♣ ♦ or S H C D)",
        value=str(text),
    )


def parse_card(token: str) -> Card:
    """Parse exactly one card token in any accepted spelling."""
    cards = parse_cards(token)
    if len(cards) != 1:
        raise CardError(f"“{token}” 不是一张牌", en=f"“{token}” is not one card", value=token)
    return cards[0]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a card list: tokens split by spaces or commas, symbol tokens may run together."""
    if not isinstance(text, str):
        chunks: list[str] = []
        for item in text:
            chunks.extend(_SEPARATORS.split(str(item).replace("\ufe0f", "")))
    else:
        chunks = _SEPARATORS.split(text.replace("\ufe0f", ""))
    cards: list[Card] = []
    for chunk in chunks:
        if not chunk:
            continue
        pos = 0
        while pos < len(chunk):
            match = _TOKEN.match(chunk, pos)
            if match is None:
                bad = _bad_token(chunk, pos)
                raise CardError(
                    f"无法识别的牌“{bad}”（应写作 ♠A、SA、H10、HT、大王/BJ、小王/LJ）",
                    en=f"unknown card “{bad}” (write ♠A, SA, H10, HT, BJ for the big joker, LJ for the small one)",
                    value=bad,
                )
            joker, suit, rank = match.groups()
            if joker:
                cards.append(BIG if ascii_upper(joker) in BIG_JOKER_SPELLINGS else SMALL)
            else:
                cards.append(Card(SUIT_ALIASES[ascii_upper(suit)], RANK_ALIASES[ascii_upper(rank)]))
            pos = match.end()
    return cards


def _bad_token(chunk: str, pos: int) -> str:
    """Cut the offending token out of a chunk: symbol tokens run together, ASCII ones do not."""
    if not _SYMBOL_START.search(chunk):
        return chunk
    if not _SYMBOL_START.match(chunk, pos):
        return chunk[pos:]
    nxt = _SYMBOL_START.search(chunk, pos + 1)
    return chunk[pos : nxt.start() if nxt else len(chunk)]


# Each card's text once written (a deck has at most 54 distinct cards).
_TEXT: dict[Card, str] = {}


def format_card(card: Card) -> str:
    """Write a card with its suit symbol, or 大王 / 小王."""
    text = _TEXT.get(card)
    if text is None:
        if card.rank in JOKER_NAMES_ZH:
            text = JOKER_NAMES_ZH[card.rank]
        else:
            text = SUIT_SYMBOLS[card.suit] + RANK_LABELS[card.rank]
        _TEXT[card] = text
    return text


def format_cards(cards: Iterable[Card]) -> str:
    """Write a card list with suit symbols, space separated."""
    get = _TEXT.get
    return " ".join([get(c) or format_card(c) for c in cards])


def ascii_card(card: Card) -> str:
    """Write a card in the link-friendly ASCII spelling (SA, H10, BJ, LJ)."""
    if card.rank == BIG_JOKER:
        return "BJ"
    if card.rank == SMALL_JOKER:
        return "LJ"
    return card.suit + RANK_LABELS[card.rank]


def format_rank(rank: int) -> str:
    """Write a level rank as 2..10, J, Q, K, A."""
    return RANK_LABELS[rank]


def count_points(cards: Iterable[Card]) -> int:
    """Add up the point cards (5 = 5, 10 and K = 10)."""
    points = POINTS_BY_CODE
    return sum([points[c] for c in cards])


def count_play_points(plays: Iterable[Iterable[Card]]) -> int:
    """Add up the point cards of several plays (a trick's), as `count_points` does."""
    points = POINTS_BY_CODE
    return sum([points[c] for play in plays for c in play])


# Add each element's count to a dict, in the order elements first appear: the C loop behind
# `Counter.update`, without a Counter built around it.
count_into: Callable[[dict[Any, int], Iterable[Any]], None] = _count_elements


def copies(cards: Iterable[Card]) -> dict[Card, int]:
    """Count the copies of each card, in the order the cards first appear (a light Counter)."""
    counts: dict[Card, int] = {}
    count_into(counts, cards)
    return counts


def is_subset(part: Iterable[Card], whole: Iterable[Card]) -> bool:
    """Tell whether every card of part (with multiplicity) is in whole."""
    if type(part) is tuple or type(part) is list:
        if len(part) == 1:
            return part[0] in whole
        if not part:
            return True
        if type(whole) is tuple or type(whole) is list:
            # A card is its byte code: every code of part in whole, each as often.
            wanted, have = bytes(part), bytes(whole)
            return not wanted.translate(None, have) and (
                len(set(wanted)) == len(wanted) or holds(have, wanted)
            )
    need: dict[Card, int] = {}
    for c in part:
        need[c] = need.get(c, 0) + 1
    if not need:
        return True
    left = len(need)
    for c in whole:
        n = need.get(c)
        if n:
            if n == 1:
                left -= 1
                if not left:
                    return True
            need[c] = n - 1
    return False


def holds(codes: bytes, wanted: bytes) -> bool:
    """Tell whether a code string holds every code of `wanted` (with multiplicity)."""
    need: dict[int, int] = {}
    count_into(need, wanted)  # one pass in C; only a code wanted twice or more is counted
    for x, k in need.items():  # noqa: SIM110 - a plain loop: no generator on the hot path
        if k > 1 and codes.count(x) < k:
            return False
        if k == 1 and x not in codes:
            return False
    return True


def remove_cards(whole: Iterable[Card], part: Iterable[Card]) -> list[Card]:
    """Return whole without one copy of each card of part (part must be a subset)."""
    left = list(part)  # a few cards: a list finds and drops them faster than a Counter
    out: list[Card] = []
    for c in whole:
        if left and c in left:
            left.remove(c)
        else:
            out.append(c)
    return out
