"""The engine self-check as the dashboard shows it: a cached suite run per ruleset.

The suite is re-run only when a case file, ruleset file or engine/suite module
changed (a cheap stat of those trees), so the dashboard answers from memory.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from django.conf import settings

from checker.engine.errors import EngineError
from checker.engine.ruleset import load_ruleset
from checker.scenarios.matrix import derived_results
from checker.suite.runner import CaseResult, SuiteReport, run_suite
from checker.suite.seedcheck import SeedReport, seed_report
from checker.web import saved
from checker.web.present import category_name, quoted_lang

BASE = Path(settings.BASE_DIR)
WATCHED = [
    BASE / "cases",
    BASE / "rulesets",
    BASE / "checker" / "engine",
    BASE / "checker" / "suite",
]
FILE_ERROR_RULESET = "-"


def fingerprint() -> tuple[tuple[str, int, int], ...]:
    """Stat the watched trees: path, mtime and size of every case, ruleset and engine file."""
    entries: list[tuple[str, int, int]] = []
    for root in WATCHED:
        if not root.is_dir():
            continue
        for path in root.rglob("*"):
            if path.suffix in (".yaml", ".yml", ".py"):
                try:
                    st = path.stat()
                except OSError:
                    continue
                entries.append((str(path), st.st_mtime_ns, st.st_size))
    entries.sort()
    return tuple(entries)


@dataclass
class Run:
    """One suite run restricted to a ruleset (file errors included)."""

    ruleset: str
    report: SuiteReport
    finished_at: float
    results: list[CaseResult] = field(default_factory=list)
    file_errors: list[CaseResult] = field(default_factory=list)

    @property
    def cases(self) -> list[CaseResult]:
        return self.results

    @property
    def seed_file(self) -> str:
        """The seed this ruleset comes from (its `source`), or "" when unknown."""
        try:
            return load_ruleset(self.ruleset).source
        except EngineError:
            return ""

    @cached_property
    def seed(self) -> SeedReport | None:
        """The seed's own self-check rows and the supplementary cases, when the seed has a
        table; file errors count among the supplementary cases."""
        return seed_report(self.seed_file, [*self.results, *self.file_errors])

    @property
    def counts(self) -> SuiteReport:
        """This ruleset's results and the file errors, counted the runner's way."""
        return SuiteReport(self.results + self.file_errors, self.report.seconds)

    @property
    def total(self) -> int:
        return self.counts.total

    @property
    def passed(self) -> int:
        return self.counts.passed

    @property
    def failed(self) -> int:
        return self.counts.failed

    @property
    def errors(self) -> int:
        return self.counts.errors

    @property
    def ok(self) -> bool:
        return self.total > 0 and self.counts.ok

    @property
    def seconds(self) -> float:
        return self.report.seconds

    def categories(self) -> list[tuple[str, list[CaseResult]]]:
        groups: dict[str, list[CaseResult]] = {}
        for r in self.results:
            groups.setdefault(r.category, []).append(r)
        return list(groups.items())

    def find(self, case_id: str) -> CaseResult | None:
        for r in self.results:
            if r.id == case_id:
                return r
        for r in self.file_errors:
            if r.id == case_id:
                return r
        return None


_lock = threading.Lock()
_cache: dict[str, tuple[tuple[tuple[str, int, int], ...], Run]] = {}


def get_run(ruleset: str, force: bool = False) -> Run:
    """The suite results for one ruleset, from cache when nothing changed on disk."""
    stamp = fingerprint()
    with _lock:
        hit = _cache.get(ruleset)
        if hit is not None and hit[0] == stamp and not force:
            return hit[1]
    report = _suite_of(ruleset)
    results = [r for r in report.results if r.ruleset == ruleset]
    file_errors = [r for r in report.results if r.ruleset == FILE_ERROR_RULESET]
    results.sort(key=lambda r: r.order)
    run = Run(ruleset, report, time.time(), results, file_errors)
    with _lock:
        _cache[ruleset] = (stamp, run)
    return run


def _suite_of(ruleset: str) -> SuiteReport:
    """Run the cases naming a ruleset; a saved workshop ruleset (no case names it) runs its
    base's cases against the base's expectations, so a changed verdict shows as a failure."""
    if saved.saved_text(ruleset) is None:
        return run_suite(rulesets=[ruleset])
    start = time.perf_counter()
    rs = load_ruleset(ruleset)
    report = SuiteReport(results=derived_results(saved.case_root(rs.extends), rs))
    report.seconds = time.perf_counter() - start
    return report


def clear_cache() -> None:
    with _lock:
        _cache.clear()


def matches(result: CaseResult, status: str, category: str, text: str) -> bool:
    """Apply the dashboard filters to one result."""
    if status and result.status != status:
        return False
    if category and result.category != category:
        return False
    if text:
        needle = text.casefold()
        hay = " ".join(
            str(x)
            for x in (
                result.id,
                result.title,
                result.title_en,
                result.kind,
                result.message,
                result.note or "",
                _flatten(result.input),
                _flatten(result.expected),
            )
        ).casefold()
        if needle not in hay:
            return False
    return True


def _flatten(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k} {_flatten(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " ".join(_flatten(v) for v in value)
    return str(value)


def category_labels(results: Iterable[CaseResult]) -> dict[str, str]:
    """Each category (its key, the Chinese name) with its name in the page's language."""
    labels: dict[str, str] = {}
    for r in results:
        if r.category not in labels:
            labels[r.category] = category_name(r)
    return labels


def category_tiles(results: Iterable[CaseResult]) -> list[dict[str, Any]]:
    """Count each category's results for the dashboard's tiles, with its name in words."""
    tiles: dict[str, dict[str, Any]] = {}
    for r in results:
        if r.category not in tiles:
            label = category_name(r)
            tiles[r.category] = {
                "name": r.category,
                "label": label,
                "label_lang": quoted_lang(label),
                "total": 0,
                "passed": 0,
                "failed": 0,
                "errors": 0,
            }
        tile = tiles[r.category]
        tile["total"] += 1
        tile[{"pass": "passed", "fail": "failed", "error": "errors"}[r.status]] += 1
    return list(tiles.values())
