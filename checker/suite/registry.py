"""Every case kind by name, in the order the pages and the schema list them, and the runner
that hands one case's inputs to its kind."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from checker.engine.errors import PlayError
from checker.engine.order import make_context
from checker.engine.ruleset import Ruleset

from . import botcase, kinds, matchcases, roundcases
from .fields import DECLARED, CaseKind, Outcome

# The modules declaring kinds (@case_kind), in the order their kinds are listed: between
# rounds, the table, the trick, the bots. The order holds whichever module was imported first.
DECLARING = (matchcases, roundcases, kinds, botcase)

KINDS: dict[str, CaseKind] = {
    name: kind
    for module in DECLARING
    for name, kind in DECLARED.items()
    if kind.runner.__module__ == module.__name__
}


def run_kind(rs: Ruleset, kind: str, data: Mapping[str, Any]) -> Outcome:
    """Run one case's inputs through the engine for the given ruleset."""
    record = KINDS.get(kind)
    if record is None:
        raise PlayError(
            f"{rs.title} 不支持用例类型“{kind}”",
            en=f"{rs.name} does not support case kind “{kind}”",
            field="kind",
        )
    level = data.get("level")
    if rs.has_level and level is None:
        level = rs.levels[0]  # a case that omits the level plays the first one (2, or 3)
    ctx = make_context(rs, level if rs.has_level else None, data.get("trump"))
    return record.runner(rs, ctx, data)
