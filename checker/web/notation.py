"""The card notation and the hand's display order for scripts that read card text: the engine's
spellings and orders as JSON."""

from __future__ import annotations

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString

from checker.engine.handsort import hand_orders
from checker.engine.ruleset import Ruleset
from checker.engine.vocab import card_notation

register = template.Library()


def card_notation_script() -> SafeString:
    """Render the engine's card spellings in a JSON script element (id card-notation)."""
    return json_script(card_notation(), "card-notation")


def hand_order_script(ruleset: Ruleset) -> SafeString:
    """Render the ruleset's display order of every deal in a JSON script element (id hand-order)."""
    return json_script(hand_orders(ruleset), "hand-order")


register.simple_tag(card_notation_script)
register.simple_tag(hand_order_script)
