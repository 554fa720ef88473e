"""Case kinds about a round's table rather than a trick: sort_hand (seed 004 §1.1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from checker.engine.order import Context
from checker.engine.ruleset import Ruleset
from checker.engine.texts import Lang, cards_text, pick
from checker.engine.vocab import SUIT_SYMBOLS

from . import fields as F
from .fields import Outcome, case_kind
from .kinds import card_strings, parse_all


@case_kind(
    "sort_hand",
    "理牌",
    "Sort a hand",
    inputs={"cards": F.CARDS},
    required=("cards",),
    outputs={"order": F.CARDS},
)
def run_sort_hand(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    cards = parse_all(ctx, data, "cards")
    order = ctx.sort_cards(cards)

    def explain(lang: Lang) -> str:
        shown, setting = cards_text(order, lang), ctx.describe(lang)
        suits = " ".join(SUIT_SYMBOLS[s] for s in rs.hand_suits)
        return pick(
            lang,
            f"理牌（{setting}）：主牌在前（从大到小），再按 {suits} 各自从大到小：{shown}。",
            f"Sorted ({setting}): trumps first, strongest first, then {suits}, each from "
            f"high to low: {shown}.",
        )

    return {"order": card_strings(order)}, explain
