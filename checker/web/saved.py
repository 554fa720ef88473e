"""Saved workshop rulesets as the engine finds them by name: a lookup installed at start-up.

The engine never imports Django; this module gives it a finder (`add_ruleset_lookup`) that
reads the `HouseRuleset` table. Saved rulesets never change, so a found text is kept.
"""

from __future__ import annotations

import re
import secrets

from django.db import DatabaseError

from checker.engine.ruleset import add_ruleset_lookup, load_ruleset

NAME = re.compile(r"^h-[a-z0-9]{8}$")
_FOUND: dict[str, str] = {}
KEEP = 512


def new_name() -> str:
    """Draw a saved ruleset's name: `h-` and 8 lower-case letters or digits."""
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "h-" + "".join(secrets.choice(alphabet) for _ in range(8))


def saved_text(name: str) -> str | None:
    """Find the YAML of a saved workshop ruleset by its name (None: no such ruleset)."""
    if not isinstance(name, str) or not NAME.match(name):
        return None
    hit = _FOUND.get(name)
    if hit is not None:
        return hit
    from checker.models import HouseRuleset

    try:
        text = HouseRuleset.objects.filter(name=name).values_list("text", flat=True).first()
    except DatabaseError:
        return None
    if text is not None:
        if len(_FOUND) >= KEEP:
            _FOUND.clear()
        _FOUND[name] = text
    return text


def case_root(name: str) -> str:
    """Name the ruleset whose cases a saved ruleset is judged by: its first ancestor that is
    not itself saved (the ruleset itself when it is not a saved one)."""
    for _step in range(32):  # a saved ruleset's parent was saved before it: no loop
        if saved_text(name) is None:
            return name
        name = load_ruleset(name).extends
    return name


def install() -> None:
    """Let the engine find saved workshop rulesets by name (called once the apps are ready)."""
    add_ruleset_lookup(saved_text)
