"""Saved workshop rulesets as the engine finds them by name: a lookup installed at start-up.

The engine never imports Django; this module gives it a finder (`add_ruleset_lookup`) that
reads the `HouseRuleset` table. Saved rulesets never change, so a found text is kept.
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime
from typing import Any

from django.db import DatabaseError
from django.db.models import QuerySet

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


def stale_names(before: datetime, games: QuerySet[Any], runs: QuerySet[Any]) -> list[str]:
    """Name the saved rulesets made before `before` that nothing stored still uses: none of
    `games` and `runs` (those that stay), no study arm, no kept saved ruleset derived from them."""
    from checker.models import HouseRuleset, Study

    bases = dict(HouseRuleset.objects.values_list("name", "base"))
    old = set(HouseRuleset.objects.filter(created__lt=before).values_list("name", flat=True))
    kept = set(bases) - old
    kept |= old & set(games.values_list("ruleset", flat=True).distinct())
    kept |= old & set(runs.values_list("ruleset", flat=True).distinct())
    for spec in Study.objects.values_list("spec", flat=True).iterator():
        kept |= old & {arm.get("ruleset") for arm in spec.get("arms", [])}
    todo = list(kept)
    while todo:  # a kept ruleset keeps its base, and that base its own
        base = bases.get(todo.pop(), "")
        if base in old and base not in kept:
            kept.add(base)
            todo.append(base)
    return sorted(old - kept)


def install() -> None:
    """Let the engine find saved workshop rulesets by name (called once the apps are ready)."""
    add_ruleset_lookup(saved_text)
