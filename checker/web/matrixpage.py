"""The variant matrix page's context: the cross-ruleset case rows under their filters, and one
checker scenario judged under every ruleset (`checker.scenarios.matrix` judges; `variants`
draws)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from checker.engine.cards import ascii_upper
from checker.engine.errors import EngineError
from checker.engine.ruleset import Ruleset, ruleset_known, ruleset_names
from checker.scenarios.matrix import MatrixRow, case_matrix, scenario_matrix
from checker.suite.runner import SuiteReport
from checker.web import checkpage, present, selfcheck, variants
from checker.web.context import DEFAULT_RULESET
from checker.web.forms import CheckForm
from checker.web.links import trump_param
from checker.web.selfcheckpage import case_row, read_filters

MATRIX_ONLY = ("", "diff")


def matrix_report(extra: tuple[str, ...] = ()) -> SuiteReport:
    """Every ruleset's cached self-check run as one report (file errors left out)."""
    results = []
    for name in [*ruleset_names(), *extra]:
        results += selfcheck.get_run(name).results
    return SuiteReport(results=results)


def extra_rulesets(params: Mapping[str, str]) -> tuple[str, ...]:
    """A ruleset named in the query that is not a column already (a saved workshop ruleset):
    the matrix shows it too."""
    name = params.get("ruleset", "")
    return (name,) if name not in ruleset_names() and ruleset_known(name) else ()


def _shown(rows: Sequence[MatrixRow], filters: Mapping[str, str]) -> list[MatrixRow]:
    only, kind, text = filters["only"], filters["kind"], filters["q"]
    return [
        row
        for row in rows
        if (not only or row.differs)
        and (not kind or row.kind == kind)
        and (not text or variants.matches(row, text))
    ]


def _unjudgeable(result: Mapping[str, Any], columns: Sequence[Ruleset]) -> str:
    """Say why a scenario no ruleset can judge fails, each ruleset's reason when they differ."""
    messages: list[str] = []
    for name in result["rulesets"]:
        cell = result["cells"][name]
        field = f"{cell['field']}: " if cell.get("field") else ""
        messages.append(field + present.error_of(cell))
    if len(set(messages)) > 1:
        titles = {rs.name: present.ruleset_title(rs) for rs in columns}
        messages = [
            f"{titles.get(n, n)} — {m}" for n, m in zip(result["rulesets"], messages, strict=True)
        ]
    return _("这个局面在任何规则下都无法判定：") + _("；").join(dict.fromkeys(messages))


def _scenario_view(
    scenario: Mapping[str, str], columns: Sequence[Ruleset], problems: list[str]
) -> dict[str, Any] | None:
    """Judge the scenario under every ruleset; None (and a problem) when it cannot be drawn."""
    if not scenario.get("lead") or problems:
        if not problems and any(k not in ("level", "trump") for k in scenario):
            problems.append(_("缺少领牌（lead）：先填“领出的牌”。"))
        return None
    try:
        result = scenario_matrix(scenario, tuple(rs.name for rs in columns[len(ruleset_names()) :]))
    except (EngineError, ValueError) as exc:  # defensive: scenario errors are per cell
        problems.append(str(exc))
        return None
    if all("error" in c for c in result["cells"].values()):
        problems.append(_unjudgeable(result, columns))
        return None
    return variants.scenario_view(scenario, result, columns)


def _seats(columns: Sequence[Ruleset], scenario: Mapping[str, str]) -> list[dict[str, Any]]:
    """The widest ruleset's seat fields, each noting the rulesets without that player."""
    widest = max(columns, key=lambda rs: (rs.players, len(rs.ranks), rs.decks))
    seats = checkpage.seat_fields(widest, scenario)
    for seat in seats:
        seat["note"] = " ".join(
            _("（%(t)s没有这位玩家）") % {"t": present.ruleset_title(rs)}
            for rs in columns
            if rs.players <= seat["seat"]
        )
    return seats


def _scenario_form(columns: Sequence[Ruleset], scenario: Mapping[str, str]) -> dict[str, Any]:
    """What the scenario form draws: the deal's choices, the seats and the card grid."""
    level_ranks = sorted({r for rs in columns if rs.has_level for r in rs.ranks})
    widest = max(columns, key=lambda rs: len(rs.ranks))  # its grid and its hand order
    # The form shows what was judged: no trump parameter means 无主 once there is a lead.
    trump = scenario.get("trump") or ("none" if scenario.get("lead") else columns[0].default_trump)
    # Unasked, the lowest default level of the columns with levels (打2 unless all start higher).
    levels = [rs.default_level for rs in columns if rs.default_level is not None]
    level = scenario.get("level") or (present.rank_label(min(levels)) if levels else "")
    return {
        "has_level": any(rs.has_level for rs in columns),
        "no_level_titles": [present.ruleset_title(rs) for rs in columns if not rs.has_level],
        "level_choices": [present.rank_label(r) for r in level_ranks],
        "level_value": ascii_upper(level),
        "trump_value": trump_param(trump),
        "trump_choices": checkpage.trump_choices(),
        "seats": _seats(columns, scenario),
        "grid": checkpage.card_grid(widest),
        "order_ruleset": widest,
        "decks": max(rs.decks for rs in columns),
        "jokers": any(rs.jokers for rs in columns),
    }


def page_context(query: Mapping[str, str], form: CheckForm) -> dict[str, Any]:
    """Build the matrix page: the filtered case rows and the scenario judged in every column."""
    extra = extra_rulesets(form.params)
    columns = variants.rulesets(extra)
    problem = form.error_for(present.engine_lang())
    scenario_problems = [problem["message"]] if problem else []
    all_rows = case_matrix(matrix_report(extra))
    kinds = sorted({row.kind for row in all_rows})
    filters, filter_problems = read_filters(
        query,
        {
            "only": (MATRIX_ONLY, _("“只看”只能是 diff，收到“%(v)s”。")),
            "kind": (kinds, _("没有名为“%(v)s”的用例类型。")),
        },
    )
    shown = _shown(all_rows, filters)
    scenario = variants.scenario_params(form.params, columns)
    return {
        "nav": "matrix",
        "columns": columns,
        "rows": variants.case_rows(shown, columns),
        "total_rows": len(all_rows),
        "differing_rows": sum(row.differs for row in all_rows),
        "shown": len(shown),
        "kinds": [(k, present.KIND_LABELS.get(k, k)) for k in kinds],
        "file_errors": [case_row(r) for r in selfcheck.get_run(DEFAULT_RULESET).file_errors],
        "filters": filters,
        "filtered": any(filters.values()),
        "filter_problems": filter_problems,
        "filter_hidden": [(k, v) for k, v in filters.items() if v],
        "scenario": scenario,
        "scenario_hidden": list(scenario.items()),
        "scenario_view": _scenario_view(scenario, columns, scenario_problems),
        "scenario_problems": scenario_problems,
        **_scenario_form(columns, scenario),
        "page_url": reverse("matrix"),
        "extra_ruleset": extra[0] if extra else "",
    }
