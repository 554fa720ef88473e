"""Small helpers shared by the engine tests: a classic deal context and card shorthand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from checker.engine.cards import Card, parse_cards
from checker.engine.order import Context, make_context
from checker.engine.ruleset import Ruleset, load_ruleset

CLASSIC: Ruleset = load_ruleset("classic")


def deal(level: object = 2, trump: object = "H", **options: Any) -> Context:
    """The card order of one classic deal (level rank, trump suit or None, options)."""
    rs = CLASSIC.with_options(options) if options else CLASSIC
    return make_context(rs, level, trump)


def cs(text: str) -> list[Card]:
    """Parse a card list written in the case notation."""
    return parse_cards(text)


def c(text: str) -> Card:
    """Parse exactly one card."""
    (card,) = parse_cards(text)
    return card


def ms(cards: Iterable[Card] | str) -> Counter[Card]:
    """A card list as a multiset."""
    return Counter(parse_cards(cards) if isinstance(cards, str) else cards)
