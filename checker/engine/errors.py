"""The engine's error types: each message quotes the offending input and names the rule.

Every message exists in Chinese (`message`, the contract's `error`) and English
(`message_en`, the `error_en` beside it); an error raised without English words
falls back to the Chinese ones.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""

    def __init__(
        self,
        message: str,
        *,
        en: str | None = None,
        field: str | None = None,
        value: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.message_en = en or message
        self.field = field
        self.value = value

    def message_for(self, lang: str) -> str:
        """Give the error's message in the language asked for ("zh" or "en")."""
        return self.message_en if lang.lower().startswith("en") else self.message


class CardError(EngineError):
    """A card token that is not a card, or a card the ruleset's deck does not hold."""


class HandError(EngineError):
    """A hand or play that cannot exist: too many copies, or cards not in the hand."""


class RulesetError(EngineError):
    """An unknown ruleset, a malformed ruleset file, or an unknown option."""


class PlayError(EngineError):
    """A play that the rules do not allow to be made at all (e.g. an invalid lead)."""
