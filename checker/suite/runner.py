"""Running cases against the engine and reporting: results, summary, table/JSON/JUnit."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import yaml

from checker.engine.cards import parse_cards, parse_rank, parse_suit
from checker.engine.errors import EngineError
from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_names
from checker.engine.vocab import code_of, is_no_trump

from .cases import Case, load_cases
from .fields import Fault, english
from .registry import run_kind

# Expected types may be written as words (对子, 非法牌型); 非法 is the short form, and the
# multi-deck names (推土机, 火车, 三条) stand for their types.
TYPE_ALIASES = {"非法": "invalid", "推土机": "tractor", "火车": "tractor", "三条": "tuple"}
CARD_KEYS = {"forced", "example", "card", "pair_cards", "single_cards"}
# Seconds of engine time one case file may use in a run; its later cases become error rows.
# The slowest file of the suite takes well under a second.
FILE_BUDGET_S = 10.0


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one case under one ruleset."""

    id: str
    file: str
    line: int
    ruleset: str
    kind: str
    title: str
    category: str
    status: str
    expected: dict[str, Any]
    actual: dict[str, Any]
    message: str
    explanation: str
    input: dict[str, Any]
    source: str | None = None
    note: str | None = None
    diff: tuple[str, ...] = ()
    order: int = 0
    yaml_source: str = ""
    explanation_en: str = ""
    message_en: str = ""
    title_en: str = ""
    category_en: str = ""

    def title_for(self, lang: str) -> str:
        """The row label in zh-Hans or English (the Chinese title where no English is written)."""
        return self.title_en if lang == "en" and self.title_en else self.title

    def category_for(self, lang: str) -> str:
        """The category name in zh-Hans or English (the Chinese one where no English is written)."""
        return self.category_en if lang == "en" and self.category_en else self.category

    def as_json(self) -> dict[str, Any]:
        """Return the contract's JSON fields of a result, and the English explanation."""
        return {
            "id": self.id,
            "file": self.file,
            "line": self.line,
            "ruleset": self.ruleset,
            "kind": self.kind,
            "title": self.title,
            "title_en": self.title_en,
            "category": self.category,
            "category_en": self.category_en,
            "status": self.status,
            "expected": self.expected,
            "actual": self.actual,
            "message": self.message,
            "message_en": self.message_en or self.message,
            "explanation": self.explanation,
            "explanation_en": self.explanation_en,
        }


@dataclass
class SuiteReport:
    """All results of a run with its summary figures."""

    results: list[CaseResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def passed(self) -> int:
        return sum(r.status == "pass" for r in self.results)

    @property
    def failed(self) -> int:
        return sum(r.status == "fail" for r in self.results)

    @property
    def errors(self) -> int:
        return sum(r.status == "error" for r in self.results)

    @property
    def ok(self) -> bool:
        return self.passed == self.total

    @property
    def by_ruleset(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for r in self.results:
            entry = out.setdefault(r.ruleset, {"total": 0, "passed": 0, "failed": 0, "errors": 0})
            entry["total"] += 1
            key = {"pass": "passed", "fail": "failed", "error": "errors"}[r.status]
            entry[key] += 1
        return out

    def summary(self) -> dict[str, Any]:
        """Return the contract's summary object."""
        return {
            "total": self.total,
            "passed": self.passed,
            "failed": self.failed,
            "errors": self.errors,
            "by_ruleset": self.by_ruleset,
            "seconds": round(self.seconds, 3),
        }

    def categories(self) -> list[tuple[str, list[CaseResult]]]:
        """Group results by category in file order."""
        groups: dict[str, list[CaseResult]] = {}
        for r in self.results:
            groups.setdefault(r.category, []).append(r)
        return list(groups.items())


def _normal(key: str, value: Any) -> Any:
    """Bring an expected or actual value to a comparable form."""
    if key in CARD_KEYS or (key in ("pairs", "singles") and isinstance(value, list)):
        if value is None:
            return None
        cards = parse_cards(value if isinstance(value, str) else [str(v) for v in value])
        return sorted(Counter(cards).items())
    if key == "trump":
        if value is None:
            return None
        text = str(value).strip()
        if is_no_trump(text):
            return "none"
        try:
            return parse_suit(text)
        except EngineError:
            return text
    if key == "type" and isinstance(value, str):
        text = value.strip()
        return TYPE_ALIASES.get(text) or code_of(text) or text.lower()
    if key == "suit" and isinstance(value, str) and value.strip() in ("主", "主牌"):
        return "trump"
    if key == "suit" and isinstance(value, str) and value != "trump":
        try:
            return parse_suit(value)
        except EngineError:
            return value
    if key == "order" and value is not None:  # cards whose order matters
        try:
            return parse_cards(value if isinstance(value, str) else [str(v) for v in value])
        except EngineError:
            return value
    if key == "levels" and isinstance(value, list):
        try:
            return [parse_rank(str(v)) for v in value]
        except EngineError:
            return value
    if key == "next_level" and value is not None:
        try:
            return parse_rank(str(value))
        except EngineError:
            return value
    return value


def compare(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> list[str]:
    """List the keys whose expected value differs from the actual one (subset comparison)."""
    diffs: list[str] = []
    for key, want in expected.items():
        if key in ("pairs", "singles") and isinstance(want, list):
            got = actual.get(f"{key[:-1]}_cards")
        else:
            got = actual.get(key)
        try:
            same = _normal(key, want) == _normal(key, got)
        except EngineError:
            same = False
        if not same:
            diffs.append(key)
    return diffs


def _input_of(case: Case) -> dict[str, Any]:
    return case.inputs


def _base(case: Case, ruleset_name: str) -> dict[str, Any]:
    """The fields every result of a case under a ruleset carries, whatever its status."""
    return dict(
        id=case.id,
        file=case.file,
        line=case.line,
        ruleset=ruleset_name,
        kind=case.kind,
        title=case.title,
        title_en=case.title_en,
        category=case.category,
        category_en=case.category_en,
        input=_input_of(case),
        source=case.data.get("source"),
        note=case.data.get("note"),
        order=case.order,
        yaml_source=case.source_text,
    )


def _error(
    base: Mapping[str, Any], expected: Mapping[str, Any], message: str, message_en: str
) -> CaseResult:
    return CaseResult(
        status="error",
        expected=dict(expected),
        actual={},
        message=message,
        message_en=message_en,
        explanation="",
        **base,
    )


def run_case(case: Case, ruleset_name: str, ruleset: Ruleset | None = None) -> CaseResult:
    """Run one case under one ruleset and compare with its expectation; `ruleset`, when given,
    is judged in place of the named one (a draft derived from it, against its expectations)."""
    base = _base(case, ruleset.name if ruleset is not None else ruleset_name)
    where = f"{case.file} · {case.id}"
    raw_expect = case.data.get("expect")
    if case.problem is not None:
        expected = dict(raw_expect) if isinstance(raw_expect, dict) else {}
        return _error(
            base, expected, f"{where}: {case.problem}", f"{where}: {english(case.problem)}"
        )
    expected = case.expected_for(ruleset_name)
    try:
        rs = (ruleset or load_ruleset(ruleset_name)).with_options(case.data.get("options"))
        actual, say = run_kind(rs, case.kind, case.data)
        explanation, explanation_en = say("zh"), say("en")
    except EngineError as exc:
        return _error(base, expected, f"{where}: {exc.message}", f"{where}: {exc.message_en}")
    except (TypeError, KeyError, AttributeError, ValueError, IndexError) as exc:
        # Input of a shape the adapters did not foresee: report it, never crash the run.
        return _error(
            base,
            expected,
            f"{where}: 无法处理的输入（{type(exc).__name__}: {exc}）",
            f"{where}: input of a shape the runner cannot read ({type(exc).__name__}: {exc})",
        )
    diffs = compare(expected, actual)
    if diffs:
        parts = [f"{k}: 期望 {expected[k]!r}，实际 {actual.get(k)!r}" for k in diffs]
        parts_en = [f"{k}: expected {expected[k]!r}, got {actual.get(k)!r}" for k in diffs]
        return CaseResult(
            status="fail",
            expected=expected,
            actual=actual,
            message="；".join(parts),
            message_en="; ".join(parts_en),
            explanation=explanation,
            explanation_en=explanation_en,
            diff=tuple(diffs),
            **base,
        )
    return CaseResult(
        status="pass",
        expected=expected,
        actual=actual,
        message="",
        explanation=explanation,
        explanation_en=explanation_en,
        **base,
    )


def run_suite(
    paths: Iterable[str | Path] | None = None,
    rulesets: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
) -> SuiteReport:
    """Load and run every case (optionally filtered by ruleset and kind)."""
    start = time.perf_counter()
    report = SuiteReport()
    loaded = load_cases(paths, ruleset_names())
    for err in loaded.errors:
        report.results.append(
            CaseResult(
                id=err.case_id or Path(err.file).name,
                file=err.file,
                line=err.line,
                ruleset="-",
                kind="-",
                title=err.file,
                title_en=err.file,
                category="文件错误",
                category_en="File errors",
                status="error",
                expected={},
                actual={},
                message=str(err),
                message_en=err.message_en,
                explanation="",
                input={},
            )
        )
    spent: dict[str, float] = {}
    for case in loaded.cases:
        if kinds and case.kind not in kinds:
            continue
        for name in case.rulesets:
            if rulesets and name not in rulesets:
                continue
            used = spent.get(case.file, 0.0)
            if used > FILE_BUDGET_S and case.problem is None:
                late = replace(
                    case,
                    problem=Fault(
                        f"{case.file} 用完了每个文件 {FILE_BUDGET_S:g} 秒的时间预算，此用例未运行",
                        f"{case.file} used up its time budget of {FILE_BUDGET_S:g} s per file: "
                        "this case was not run",
                    ),
                )
                report.results.append(run_case(late, name))
                continue
            began = time.perf_counter()
            report.results.append(run_case(case, name))
            spent[case.file] = used + time.perf_counter() - began
    report.seconds = time.perf_counter() - start
    return report


def to_json(report: SuiteReport) -> str:
    """Render a report as the contract's JSON object."""
    return json.dumps(
        {"summary": report.summary(), "results": [r.as_json() for r in report.results]},
        ensure_ascii=False,
        indent=2,
        default=str,  # a stray YAML date or the like in an error row's expect stays readable
    )


def to_junit(report: SuiteReport) -> str:
    """Render a report as JUnit XML, one testcase per case and ruleset."""
    suite = ET.Element(
        "testsuite",
        name="tractor-cases",
        tests=str(report.total),
        failures=str(report.failed),
        errors=str(report.errors),
        time=f"{report.seconds:.3f}",
    )
    for r in report.results:
        tc = ET.SubElement(
            suite,
            "testcase",
            classname=f"{r.ruleset}.{r.category}",
            name=f"{r.id} [{r.ruleset}]",
            file=r.file,
            line=str(r.line),
        )
        if r.status == "fail":
            node = ET.SubElement(tc, "failure", message=r.message)
            node.text = f"expected: {r.expected}\nactual: {r.actual}\n{r.explanation}"
        elif r.status == "error":
            ET.SubElement(tc, "error", message=r.message)
        if r.explanation:
            ET.SubElement(tc, "system-out").text = r.explanation
    return ET.tostring(suite, encoding="unicode", xml_declaration=True)


def to_table(report: SuiteReport) -> str:
    """Render a report as a plain-text table grouped by category."""
    lines: list[str] = []
    mark = {"pass": "通过", "fail": "失败", "error": "错误"}
    for category, results in report.categories():
        ok = sum(r.status == "pass" for r in results)
        lines.append(f"\n{category} {ok}/{len(results)}")
        for r in results:
            lines.append(f"  [{mark[r.status]}] {r.ruleset:<12} {r.id}  {r.title}")
            if r.status != "pass":
                lines.append(f"         {r.message}")
    s = report
    verdict = "全部通过" if s.ok else f"{s.failed} 失败，{s.errors} 错误"
    lines.append(f"\n引擎自检 {s.passed}/{s.total} {verdict}（{s.seconds:.2f} 秒）")
    lines.append(f"{s.passed} passed, {s.failed + s.errors} failed")
    return "\n".join(lines)


def case_yaml(result: CaseResult) -> str:
    """Write a result back as a case in the contract's YAML format."""
    data: dict[str, Any] = {"id": result.id, "title": result.title}
    if result.title_en:
        data["title_en"] = result.title_en
    data["kind"] = result.kind
    data.update(result.input)
    data["expect"] = result.expected
    if result.source:
        data["source"] = result.source
    return yaml.safe_dump(
        {"rulesets": [result.ruleset], "cases": [data]}, allow_unicode=True, sort_keys=False
    )
