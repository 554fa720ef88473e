"""The engine's error types: each message quotes the offending input and names the rule."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""

    def __init__(self, message: str, *, field: str | None = None, value: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.value = value


class CardError(EngineError):
    """A card token that is not a card, or a card the ruleset's deck does not hold."""


class HandError(EngineError):
    """A hand or play that cannot exist: too many copies, or cards not in the hand."""


class RulesetError(EngineError):
    """An unknown ruleset, a malformed ruleset file, or an unknown option."""


class PlayError(EngineError):
    """A play that the rules do not allow to be made at all (e.g. an invalid lead)."""
