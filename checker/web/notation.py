"""The card notation for scripts that read card text: the engine's spellings as JSON."""

from __future__ import annotations

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString

from checker.engine.vocab import card_notation

register = template.Library()


def card_notation_script() -> SafeString:
    """Render the engine's card spellings in a JSON script element (id card-notation)."""
    return json_script(card_notation(), "card-notation")


register.simple_tag(card_notation_script)
