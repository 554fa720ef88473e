"""Explanations in two languages: zh-Hans (the contract's `explanation`) and English.

Each message is written once, its Chinese and English wording side by side
(`pick(lang, zh, en)`), and rendered only when a caller asks for it: the verdicts
keep what decided them and build words on demand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .cards import Card, format_card
from .vocab import JOKER_NAMES_EN as JOKER_NAMES_EN
from .vocab import SUIT_NAMES_EN, SUIT_SYMBOLS
from .vocab import Lang as Lang
from .vocab import as_lang as as_lang

ZH: Lang = "zh"
EN: Lang = "en"

# A message not yet rendered: give it a language, get the words.
Say = Callable[[Lang], str]

SUIT_WORDS_EN = {s: f"{SUIT_SYMBOLS[s]} {name}" for s, name in SUIT_NAMES_EN.items()}


def pick(lang: Lang, zh: str, en: str) -> str:
    """Choose the wording of one message in the language asked for."""
    return en if lang == EN else zh


def card_text(card: Card, lang: Lang) -> str:
    """Write one card: suit symbol and rank, jokers as 大王/小王 or Big Joker/Small Joker."""
    if lang == EN and card.rank in JOKER_NAMES_EN:
        return JOKER_NAMES_EN[card.rank]
    return format_card(card)


def cards_text(cards: Iterable[Card], lang: Lang) -> str:
    """Write a card list, space separated, in the language asked for."""
    return " ".join(card_text(c, lang) for c in cards)


def count_en(n: int, word: str, plural: str | None = None) -> str:
    """Write a count with its noun in English, e.g. 1 pair, 2 pairs."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def capitalize(text: str) -> str:
    """Upper-case the first letter of a sentence, leaving the rest alone."""
    return text[:1].upper() + text[1:]


class Explained:
    """A verdict that explains itself in either language from one `_explain(lang)`."""

    __slots__ = ()

    def _explain(self, lang: Lang) -> str:
        raise NotImplementedError

    def explanation_for(self, lang: str) -> str:
        """Explain the verdict in the given language ("zh" or "en")."""
        return self._explain(as_lang(lang))

    @property
    def explanation(self) -> str:
        """Explain the verdict in Chinese (the contract's zh-Hans explanation)."""
        return self._explain(ZH)

    @property
    def explanation_en(self) -> str:
        """Explain the verdict in English."""
        return self._explain(EN)


class Spoken(Explained):
    """A verdict whose words are a message kept unrendered in its `say` field."""

    __slots__ = ()
    say: Say

    def _explain(self, lang: Lang) -> str:
        return self.say(lang)
