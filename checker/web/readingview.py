"""A lead's readings as the pages draw them ("which did you mean?"): the rules' reading and
the other ways to split the cards, each as its unit groups of card chips, and why."""

from __future__ import annotations

from typing import Any

from checker.engine.readings import Reading, Readings
from checker.engine.texts import Lang

from . import present


def reading_view(readings: Readings | None, lang: Lang) -> dict[str, Any] | None:
    """Draw a lead's readings as unit groups of chips with the reason; None when it has one."""
    if readings is None:
        return None
    ctx = readings.ctx

    def groups(reading: Reading) -> list[dict[str, Any]]:
        return [
            {"name": u.name(ctx, lang), "html": present.chips(u.cards, ctx)} for u in reading.units
        ]

    return {
        "chosen": groups(readings.chosen),
        "others": [groups(r) for r in readings.others],
        "why": readings.why(lang),
        "text": readings.text(lang),
    }
