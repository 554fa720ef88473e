"""Bot v1: follows legally, discards the smallest cards, feeds a winning partner whenever it
can, ruffs cheaply, remembers the cards played (no voids) and keeps its weak overrides."""

from __future__ import annotations

from .follow import Style
from .rulebot import RuleBot


class V1Bot(RuleBot):
    """Seed 000's first bot: the plain rules without v2's refinements."""

    name = "v1"
    style = Style("v1", safe_feed=False, block=False, void_discards=False, last_seat=False)
    infer_voids = False
    weak_overrides = True
    plans_bury = False
    refined_leads = False
