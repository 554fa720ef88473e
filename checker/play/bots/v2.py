"""Bot v2: v1 plus middle-seat blocking, void-making discards with point thresholds,
last-seat play, void inference from history, planned burying and the v2 override gates."""

from __future__ import annotations

from .follow import Style
from .rulebot import RuleBot


class V2Bot(RuleBot):
    """Seed 000's improved bot, the strongest one."""

    name = "v2"
    style = Style("v2", safe_feed=True, block=True, void_discards=True, last_seat=True)
    infer_voids = True
    weak_overrides = False
    plans_bury = True
    refined_leads = True
