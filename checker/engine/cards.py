"""Cards and the case-file notation: parsing every accepted spelling, formatting with suit symbols."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from .errors import CardError

SUITS = "SHCD"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
SUIT_NAMES_ZH = {"S": "黑桃", "H": "红桃", "C": "梅花", "D": "方块"}
SUIT_NAMES_EN = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
SMALL_JOKER = 15
BIG_JOKER = 16
RANK_LABELS = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}
POINTS = {5: 5, 10: 10, 13: 10}


class Card(NamedTuple):
    """One physical card face: suit letter ("" for jokers) and rank (2..14, 15 小王, 16 大王)."""

    suit: str
    rank: int

    @property
    def is_joker(self) -> bool:
        return self.rank >= SMALL_JOKER

    @property
    def points(self) -> int:
        return 0 if self.rank >= SMALL_JOKER else POINTS.get(self.rank, 0)

    def __str__(self) -> str:
        return format_card(self)


BIG = Card("", BIG_JOKER)
SMALL = Card("", SMALL_JOKER)

_SUIT_ALIASES = {
    "♠": "S",
    "♤": "S",
    "S": "S",
    "♥": "H",
    "♡": "H",
    "H": "H",
    "♣": "C",
    "♧": "C",
    "C": "C",
    "♦": "D",
    "♢": "D",
    "D": "D",
}
_RANK_ALIASES = {
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "10": 10,
    "T": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
    "A": 14,
}
_TOKEN = re.compile(
    r"(大王|小王|BJ|LJ)|([♠♤♥♡♣♧♦♢SHCD])(10|[2-9TJQKA])",
    re.IGNORECASE,
)
_SYMBOL_START = re.compile(r"[♠♤♥♡♣♧♦♢]|大王|小王")
_SEPARATORS = re.compile(r"[\s,，、;；+]+")


def parse_rank(text: str) -> int:
    """Parse a level rank such as 2, "10", "T", "J" or "A" into its number."""
    key = str(text).strip().upper()
    if key in _RANK_ALIASES:
        return _RANK_ALIASES[key]
    raise CardError(f"“{text}” 不是点数（应为 2–10、J、Q、K、A）", value=str(text))


def parse_suit(text: str) -> str:
    """Parse a suit written as a symbol or letter into its letter."""
    key = str(text).strip().upper()
    if key in _SUIT_ALIASES:
        return _SUIT_ALIASES[key]
    raise CardError(f"“{text}” 不是花色（应为 ♠ ♥ ♣ ♦ 或 S H C D）", value=str(text))


def parse_card(token: str) -> Card:
    """Parse exactly one card token in any accepted spelling."""
    cards = parse_cards(token)
    if len(cards) != 1:
        raise CardError(f"“{token}” 不是一张牌", value=token)
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
                    value=bad,
                )
            joker, suit, rank = match.groups()
            if joker:
                cards.append(BIG if joker.upper() in ("大王", "BJ") else SMALL)
            else:
                cards.append(Card(_SUIT_ALIASES[suit.upper()], _RANK_ALIASES[rank.upper()]))
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


def format_card(card: Card) -> str:
    """Write a card with its suit symbol, or 大王 / 小王."""
    if card.rank == BIG_JOKER:
        return "大王"
    if card.rank == SMALL_JOKER:
        return "小王"
    return SUIT_SYMBOLS[card.suit] + RANK_LABELS[card.rank]


def format_cards(cards: Iterable[Card]) -> str:
    """Write a card list with suit symbols, space separated."""
    return " ".join(format_card(c) for c in cards)


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
    return sum(c.points for c in cards)


def is_subset(part: Iterable[Card], whole: Iterable[Card]) -> bool:
    """Tell whether every card of part (with multiplicity) is in whole."""
    need = Counter(part)
    have = Counter(whole)
    return all(have[c] >= n for c, n in need.items())


def remove_cards(whole: Iterable[Card], part: Iterable[Card]) -> list[Card]:
    """Return whole without one copy of each card of part (part must be a subset)."""
    left = Counter(part)
    out: list[Card] = []
    for c in whole:
        if left[c]:
            left[c] -= 1
        else:
            out.append(c)
    return out
