"""The /play/ table's hand tools: the rule the person's play must meet (before any try), a
legal example one tap away, and whether the picked cards may be played (the 出牌 button)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from checker.engine.cards import Card, ascii_card
from checker.engine.order import Context
from checker.engine.texts import Lang
from checker.play.game import Ask
from checker.play.players import BURY, FOLLOW, LEAD
from checker.play.selection import judge_picks, picks_reading, requirement
from checker.web import present
from checker.web.readingview import reading_view

PICKING = (BURY, LEAD, FOLLOW)


def picks_verdict(ask: Ask | None, cards: Sequence[Card], lang: Lang) -> dict[str, Any]:
    """Judge the picks for the play button: legal or not, why not once cards are picked, and
    how the rules read a lead that could be read several ways."""
    if ask is None or ask.phase not in PICKING:
        return {"legal": False, "why": ""}
    judged = judge_picks(ask.view, cards)
    why = judged.why(lang) if judged.why is not None and cards else ""
    reading = reading_view(picks_reading(ask.view, cards), lang) if judged.legal else None
    return {"legal": judged.legal, "why": why, "reading": reading}


def hand_tools(
    ask: Ask | None, cards: Sequence[Card], ctx: Context | None, lang: Lang
) -> dict[str, Any] | None:
    """State the rule of this decision, one legal example, and the verdict on the picks."""
    if ask is None or ask.phase not in PICKING:
        return None
    rule = requirement(ask.view)
    tools: dict[str, Any] = {"rule": "", "example": "", "example_chips": ""}
    if rule is not None:
        tools["rule"] = rule.say(lang)
        tools["example"] = " ".join(ascii_card(c) for c in rule.example)
        tools["example_chips"] = present.chips(rule.example, ctx)
        tools["count"] = rule.count
    tools.update(picks_verdict(ask, cards, lang))
    return tools
