"""The variant matrix: one scenario or case evaluated under every ruleset, side by side."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_names
from checker.suite.cases import load_cases
from checker.suite.runner import CaseResult, SuiteReport, run_case, run_suite

from .scenario import ScenarioError, check_scenario


@dataclass
class MatrixRow:
    """One case or question across rulesets: each ruleset's cell and which keys differ."""

    id: str
    title: str
    kind: str
    file: str
    cells: dict[str, CaseResult] = field(default_factory=dict)
    differing: set[str] = field(default_factory=set)

    @property
    def differs(self) -> bool:
        return bool(self.differing)


def _differing(cells: Mapping[str, CaseResult]) -> set[str]:
    keys: set[str] = set()
    results = [c for c in cells.values() if c.status != "error"]
    for result in results:
        keys.update(result.expected)
    out = set()
    for key in keys:
        values = {repr(r.actual.get(key)) for r in results}
        if len(values) > 1:
            out.add(key)
    return out


def case_matrix(report: SuiteReport | None = None) -> list[MatrixRow]:
    """Collect every case that names two or more rulesets, one row per case."""
    report = report or run_suite()
    rows: dict[str, MatrixRow] = {}
    counts: dict[str, int] = {}
    for r in report.results:
        counts[r.id] = counts.get(r.id, 0) + 1
    for r in report.results:
        if counts[r.id] < 2 or r.ruleset == "-":
            continue
        row = rows.setdefault(r.id, MatrixRow(r.id, r.title, r.kind, r.file))
        row.cells[r.ruleset] = r
    for row in rows.values():
        row.differing = _differing(row.cells)
    return list(rows.values())


def derived_results(base: str, rs: Ruleset) -> list[CaseResult]:
    """Run every case of the base ruleset under a ruleset derived from it, against the base's
    expectations (a verdict the new rules change is a failure)."""
    return [
        run_case(case, base, rs)
        for case in load_cases(None, ruleset_names()).cases
        if base in case.rulesets
    ]


def derived_rows(
    base: str, rs: Ruleset, base_results: list[CaseResult], cases_of: str = ""
) -> list[MatrixRow]:
    """Pair the base's results with the derived ruleset's (judging the cases that name
    `cases_of`, the base by default); return the rows whose verdict changes."""
    mine = {r.id: r for r in base_results}
    rows = []
    for after in derived_results(cases_of or base, rs):
        before = mine.get(after.id)
        if before is None:
            continue
        row = MatrixRow(
            after.id, after.title, after.kind, after.file, {base: before, rs.name: after}
        )
        row.differing = _differing(row.cells)
        if before.status != after.status and not row.differing:
            row.differing.add("status")  # judged under one, an error under the other
        if row.differing:
            rows.append(row)
    return rows


SUMMARY_FIELDS = ("lead.type", "throw.allowed", "throw.forced", "trick.winner")


def _summary(result: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    lead = result.get("lead") or {}
    out["lead.type"] = lead.get("type")
    throw = result.get("throw")
    if throw:
        out["throw.allowed"] = throw["allowed"]
        out["throw.forced"] = " ".join(throw["forced"])
    for entry in result.get("follows") or []:
        if entry and "legal" in entry:
            out[f"follow{entry['player']}.legal"] = entry["legal"]
        if entry and "forced" in entry:
            out[f"follow{entry['player']}.forced"] = " ".join(entry["forced"])
    trick = result.get("trick")
    if trick:
        out["trick.winner"] = trick["winner"]
        out["trick.points"] = trick["points"]
    return out


def scenario_matrix(params: Mapping[str, str], extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """Judge one checker scenario under every ruleset (and the `extra` ones named, such as a
    saved workshop ruleset); cells hold verdicts or the error."""
    cells: dict[str, dict[str, Any]] = {}
    for name in [*ruleset_names(), *extra]:
        rs = load_ruleset(name)
        local = {k: v for k, v in params.items() if k not in ("ruleset", "options")}
        local["ruleset"] = name
        for key in list(local):
            if key[:1] in ("h", "p") and key[1:].isdigit() and int(key[1:]) >= rs.players:
                del local[key]
        try:
            result = check_scenario(local)
        except ScenarioError as exc:
            cells[name] = {"error": exc.message, "error_en": exc.message_en, "field": exc.field}
            continue
        cells[name] = {"result": result, "summary": _summary(result)}
    keys: list[str] = []
    for cell in cells.values():
        for k in cell.get("summary", {}):
            if k not in keys:
                keys.append(k)
    differing = [
        k
        for k in keys
        if len({repr(c.get("summary", {}).get(k)) for c in cells.values() if "summary" in c}) > 1
    ]
    return {"rulesets": list(cells), "cells": cells, "keys": keys, "differing": differing}
