"""The variant matrix as /matrix/ draws it: cross-ruleset cases and one scenario under every ruleset.

The judging is done by `checker.scenarios.matrix`; this module only turns its rows and
cells into what the template draws (cards as chips with each ruleset's own trump
badges, values that differ from the other rulesets marked with a ≠).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from checker.engine.errors import EngineError
from checker.engine.order import make_context
from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_names
from checker.scenarios.matrix import MatrixRow
from checker.web import present, selfcheck
from checker.web.links import case_checker_params, checker_query

# Checker parameters that mean the same under every ruleset (ruleset and options do not).
DEAL_KEYS = ("level", "trump")


def rulesets(extra: tuple[str, ...] = ()) -> list[Ruleset]:
    """Every ruleset (and the `extra` ones named), in the order of the matrix columns."""
    out = []
    for name in [*ruleset_names(), *extra]:
        try:
            out.append(load_ruleset(name))
        except EngineError:
            continue
    return out


def max_players(columns: Sequence[Ruleset]) -> int:
    return max((rs.players for rs in columns), default=4)


def scenario_keys(columns: Sequence[Ruleset]) -> list[str]:
    """The query parameters of a scenario, in the contract's order."""
    keys = [*DEAL_KEYS, "lead", "h0"]
    for seat in range(1, max_players(columns)):
        keys += [f"h{seat}", f"p{seat}"]
    return keys


def scenario_params(params: Mapping[str, str], columns: Sequence[Ruleset]) -> dict[str, str]:
    """The ruleset-independent part of a checker scenario (no ruleset, no options)."""
    return {k: params[k] for k in scenario_keys(columns) if params.get(k)}


def odd_ones(values: Mapping[str, Mapping[str, Any]], keys: Iterable[str]) -> dict[str, set[str]]:
    """For each key, the rulesets whose value is not the one most rulesets share.

    With three rulesets and two agreeing, only the third is odd; when no value is held
    by a strict majority (two rulesets, or all different), every ruleset is odd.
    """
    odd: dict[str, set[str]] = {name: set() for name in values}
    for key in keys:
        counts = Counter(repr(v.get(key)) for v in values.values())
        ranked = counts.most_common()
        if len(ranked) < 2:
            continue
        top, n = ranked[0]
        shared = n >= 2 and n > ranked[1][1]
        for name, v in values.items():
            if not shared or repr(v.get(key)) != top:
                odd[name].add(key)
    return odd


def _dl(items: Sequence[tuple[str, SafeString, bool]]) -> SafeString:
    """A definition list; items marked True get the ≠ marker of a differing value."""
    if not items:
        return mark_safe('<span class="none">—</span>')
    parts = []
    for label, value, odd in items:
        shown = f'<span class="diff">{value}</span>' if odd else str(value)
        parts.append(f"<dt>{escape(label)}</dt><dd>{shown}</dd>")
    return mark_safe('<dl class="kv">' + "".join(parts) + "</dl>")


# ---------------------------------------------------------------------------
# Cases that name several rulesets
# ---------------------------------------------------------------------------


def _shown_value(result: Any, key: str) -> Any:
    """The actual value drawn for an expected key (pair and single lists as cards)."""
    want = result.expected.get(key)
    if key in ("pairs", "singles") and isinstance(want, list):
        return result.actual.get(f"{key[:-1]}_cards", result.actual.get(key))
    return result.actual.get(key)


def _case_cell(rs: Ruleset, result: Any, keys: Sequence[str], odd_keys: set[str]) -> dict[str, Any]:
    """One ruleset's cell of a case row: its values (the odd ones marked) and its links."""
    ctx = present.deal_context(rs.name, result.input or {})
    items = []
    if result.status != "error":
        for key in keys:
            if key in result.actual or key in result.expected:
                value = present.render_value(key, _shown_value(result, key), ctx)
                items.append((present.field_label(key), value, key in odd_keys))
    params = case_checker_params(result)
    return {
        "ruleset": rs,
        "absent": False,
        "r": result,
        "odd": bool(odd_keys),
        "explanation": present.explanation(result),
        "message": present.message(result),
        "values_html": _dl(items),
        "expected_html": present.kv_rows(result.expected, ctx, set(result.diff or ())),
        "case_url": reverse("case", args=[rs.name, result.id]),
        "checker_url": reverse("check") + "?" + checker_query(params) if params else "",
    }


def case_rows(rows: Iterable[MatrixRow], columns: Sequence[Ruleset]) -> list[dict[str, Any]]:
    """Everything the case matrix draws for each row, one cell per ruleset column."""
    out = []
    for row in rows:
        keys: list[str] = []
        for cell in row.cells.values():
            for key in cell.expected:
                if key not in keys:
                    keys.append(key)
        judged = {n: r for n, r in row.cells.items() if r.status != "error"}
        odd = odd_ones({n: r.actual for n, r in judged.items()}, row.differing)
        first = next(iter(row.cells.values()))
        data = first.input or {}
        cells = []
        for rs in columns:
            result = row.cells.get(rs.name)
            if result is None:
                cells.append({"ruleset": rs, "absent": True})
                continue
            cells.append(_case_cell(rs, result, keys, odd.get(rs.name, set())))
        params = case_checker_params(first)
        scenario = {k: v for k, v in (params or {}).items() if k not in ("ruleset", "options")}
        title = present.case_title(first)
        out.append(
            {
                "row": row,
                "title": title,
                "title_lang": present.quoted_lang(title),
                "anchor": f"m-{row.id}",
                "kind_label": present.KIND_LABELS.get(row.kind, row.kind),
                "deal": present.deal_words(data.get("level"), data.get("trump"), True),
                "input_html": present.kv_rows(
                    {k: v for k, v in data.items() if k not in ("level", "trump", "options")}
                ),
                "options": data.get("options") or {},
                "differing_labels": _("、").join(
                    present.field_label(k) for k in keys if k in row.differing
                ),
                "cells": cells,
                "scenario_url": reverse("matrix") + "?" + checker_query(scenario) + "#scenario"
                if scenario.get("lead")
                else "",
            }
        )
    return out


def matches(row: MatrixRow, text: str) -> bool:
    """The text filter: any cell's id, title, kind, input or expectation contains the text."""
    return any(selfcheck.matches(r, "", "", text) for r in row.cells.values())


# ---------------------------------------------------------------------------
# One checker scenario under every ruleset
# ---------------------------------------------------------------------------


def summary_label(key: str) -> str:
    """A summary key of `scenario_matrix` in words."""
    fixed = {
        "lead.type": _("领牌牌型"),
        "throw.allowed": _("甩牌成立"),
        "throw.forced": _("甩牌实际打出"),
        "trick.winner": _("本墩赢家"),
        "trick.points": _("本墩分数"),
    }
    if key in fixed:
        return fixed[key]
    head, _dot, tail = key.partition(".")
    if head.startswith("follow") and head[6:].isdigit():
        seat = head[6:]
        if tail == "legal":
            return _("玩家 %(n)s 的出牌合法") % {"n": seat}
        if tail == "forced":
            return _("玩家 %(n)s 必须出的牌") % {"n": seat}
    return key


def summary_value(key: str, value: Any, ctx: Any) -> SafeString:
    if value is None:
        return mark_safe('<span class="none">—</span>')
    if isinstance(value, bool):
        return present.render_value(key, value, ctx)
    if key.endswith(".forced"):
        cards = present.to_cards(value)
        if cards is not None:
            return present.chips(cards, ctx)
    if key == "lead.type":
        return present.render_value("type", str(value), ctx)
    if key == "trick.winner":
        return format_html("{}", _("玩家 %(n)s") % {"n": value})
    return format_html("{}", value)


def _column_context(rs: Ruleset, params: Mapping[str, str]) -> Any:
    level = params.get("level") or present.default_level(rs) or None
    try:
        return make_context(rs, level, params.get("trump") or "none")
    except (EngineError, ValueError):
        return None


def _explanations(result: Mapping[str, Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    lead = result.get("lead") or {}
    if lead.get("explanation"):
        out.append((_("领牌"), present.explanation(lead)))
    throw = result.get("throw")
    if throw and throw.get("explanation"):
        out.append((_("甩牌"), present.explanation(throw)))
    for entry in result.get("follows") or []:
        if entry and entry.get("explanation"):
            label = _("玩家 %(n)s 跟牌") % {"n": entry.get("player")}
            out.append((label, present.explanation(entry)))
    trick = result.get("trick")
    if trick and trick.get("explanation"):
        out.append((_("这一墩"), present.explanation(trick)))
    return out


def _scenario_column(
    rs: Ruleset, cell: Mapping[str, Any], params: Mapping[str, str], odd: bool
) -> dict[str, Any]:
    """One ruleset's column head: its deal or error, why some inputs do not apply, its links."""
    notes = []
    if params.get("level") and not rs.has_level:
        notes.append(_("没有级牌，忽略“打几”"))
    dropped = sorted(
        {
            int(k[1:])
            for k in params
            if k[:1] in ("h", "p") and k[1:].isdigit() and int(k[1:]) >= rs.players
        }
    )
    if dropped:
        notes.append(
            _("只有 %(p)d 位玩家，忽略玩家 %(seats)s")
            % {"p": rs.players, "seats": _("、").join(str(s) for s in dropped)}
        )
    local = {k: v for k, v in params.items()}
    for seat in dropped:
        local.pop(f"h{seat}", None)
        local.pop(f"p{seat}", None)
    local["ruleset"] = rs.name
    return {
        "ruleset": rs,
        "error": present.error_of(cell),
        "field": cell.get("field"),
        "setting": present.deal_words(
            params.get("level") or present.default_level(rs),
            params.get("trump") or "none",
            rs.has_level,
        )
        if "result" in cell
        else "",
        "odd": odd,
        "notes": notes,
        "checker_url": reverse("check") + "?" + checker_query(local),
        "explanations": _explanations(cell.get("result") or {}),
    }


def scenario_view(
    params: Mapping[str, str], result: Mapping[str, Any], columns: Sequence[Ruleset]
) -> dict[str, Any]:
    """The scenario table: one row per summary key, one column per ruleset."""
    by_name = {rs.name: rs for rs in columns}
    cells = result["cells"]
    summaries = {n: c["summary"] for n, c in cells.items() if "summary" in c}
    odd = odd_ones(summaries, result["differing"])
    cols = []
    contexts = {}
    for name in result["rulesets"]:
        rs = by_name.get(name) or load_ruleset(name)
        cell = cells[name]
        contexts[name] = _column_context(rs, params)
        cols.append(_scenario_column(rs, cell, params, bool(odd.get(name))))
    rows = []
    for key in result["keys"]:
        row_cells = []
        for col in cols:
            name = col["ruleset"].name
            if col["error"]:
                row_cells.append({"na": True})
                continue
            value = summaries[name].get(key)
            row_cells.append(
                {
                    "na": False,
                    "html": summary_value(key, value, contexts[name]),
                    "odd": key in odd.get(name, set()),
                }
            )
        rows.append(
            {
                "key": key,
                "label": summary_label(key),
                "differing": key in result["differing"],
                "cells": row_cells,
            }
        )
    applicable = [c for c in cols if not c["error"]]
    return {
        "columns": cols,
        "rows": rows,
        "differing": _("、").join(summary_label(k) for k in result["differing"]),
        "applicable": len(applicable),
        "lead_html": present.chips(present.to_cards(params.get("lead", "")) or []),
        "deal": present.deal_words(params.get("level"), params.get("trump") or "none", True),
    }
