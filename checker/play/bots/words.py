"""Building a bot's Decision: its cards, the rule that decided and the reason in zh and en."""

from __future__ import annotations

from collections.abc import Sequence

from checker.engine.cards import SUIT_SYMBOLS, Card
from checker.engine.texts import Lang, cards_text, pick

from ..players import Decision


def decided(bot: str, rule: str, cards: Sequence[Card], zh: str, en: str) -> Decision:
    """Make a decision whose words name the bot, the rule (zh and en wording) and the cards.

    `zh` and `en` may hold `{cards}`, replaced by the cards in that language.
    """
    chosen = tuple(cards)

    def say(lang: Lang) -> str:
        shown = cards_text(chosen, lang) or pick(lang, "不出", "nothing")
        text = pick(lang, zh, en).replace("{cards}", shown)
        return f"{bot} {text}"

    return Decision(chosen, f"{bot}.{rule}", say)


def suit_word(suit: str | None, lang: Lang) -> str:
    """Name a trump choice: ♠ or 无主 / no-trump."""
    if suit is None:
        return pick(lang, "无主", "no-trump")
    return SUIT_SYMBOLS[suit]
