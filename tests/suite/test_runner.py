"""The runcases contract (case-format.md, "Runner"): exit codes, JSON and JUnit output, filters,
and malformed case files reported as `error` results that name file, case id and value."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
import yaml

import checker.engine.ruleset as ruleset_module
from checker.suite.runner import CaseResult, SuiteReport, run_suite, to_json, to_junit

PROJECT = Path(__file__).resolve().parents[2]
PYTHON = PROJECT / ".venv" / "bin" / "python"

GOOD = """\
category: 测试
rulesets: [classic]
cases:
  - id: t-follow-pair-must-play-pair
    title: 跟对子：有对子必须出对子
    kind: follow
    level: 2
    trump: H
    lead: ♣9 ♣9
    hand: ♣Q ♣Q ♣10 ♣5
    play: ♣Q ♣Q
    expect:
      legal: true
      forced: ♣Q ♣Q
  - id: t-classify-pair
    title: 对子
    kind: classify
    level: 2
    trump: H
    cards: SQ SQ
    expect:
      type: pair
      suit: S
"""

FAILING = """\
category: 测试
rulesets: [classic]
cases:
  - id: t-classify-wrong-expectation
    title: 对子被写成拖拉机
    kind: classify
    level: 2
    trump: H
    cards: ♠Q ♠Q
    expect:
      type: tractor
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def runcases(*args: str | Path) -> subprocess.CompletedProcess[str]:
    python = str(PYTHON) if PYTHON.exists() else sys.executable
    return subprocess.run(
        [python, "manage.py", "runcases", *map(str, args)],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def by_id(report: SuiteReport) -> dict[str, CaseResult]:
    return {r.id: r for r in report.results}


# --- exit status (subprocess) --------------------------------------------------------------------


def test_exit_0_when_every_case_passes(tmp_path: Path) -> None:
    proc = runcases("--cases", write(tmp_path, "good.yaml", GOOD))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_exit_1_when_a_case_fails(tmp_path: Path) -> None:
    write(tmp_path, "good.yaml", GOOD)
    write(tmp_path, "bad.yaml", FAILING)
    proc = runcases("--cases", tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr


def test_exit_1_when_a_case_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "err.yaml", GOOD.replace("hand: ♣Q ♣Q ♣10 ♣5", "hand: ♣Q ♣Q ♣X ♣5"))
    proc = runcases("--cases", path)
    assert proc.returncode == 1, proc.stdout + proc.stderr


def test_exit_1_when_a_file_does_not_parse(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.yaml", "cases: [\n  - id: x\n")
    assert runcases("--cases", path).returncode == 1


@pytest.mark.parametrize(
    "args",
    [
        ["--ruleset", "no-such-ruleset"],
        ["--format", "xml"],
        ["--cases", "/no/such/path/cases.yaml"],
        ["--kind", "no-such-kind"],
        ["--no-such-flag"],
    ],
    ids=["unknown-ruleset", "bad-format", "missing-path", "unknown-kind", "unknown-flag"],
)
def test_exit_2_when_the_command_line_is_wrong(args: list[str]) -> None:
    proc = runcases(*args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.strip()


def test_unknown_ruleset_on_the_command_line_is_named(tmp_path: Path) -> None:
    proc = runcases("--ruleset", "no-such-ruleset", "--cases", write(tmp_path, "g.yaml", GOOD))
    assert "no-such-ruleset" in proc.stderr


def test_json_on_stdout_parses(tmp_path: Path) -> None:
    proc = runcases("--cases", write(tmp_path, "good.yaml", GOOD), "--format", "json")
    data = json.loads(proc.stdout)
    assert data["summary"]["total"] == 2
    assert data["summary"]["passed"] == 2


def test_junit_on_stdout_parses(tmp_path: Path) -> None:
    proc = runcases("--cases", write(tmp_path, "good.yaml", GOOD), "--format", "junit")
    root = ET.fromstring(proc.stdout.strip())
    testcases = list(root.iter("testcase"))
    assert len(testcases) == 2
    assert all("[classic]" in (tc.get("name") or "") for tc in testcases)


def test_output_file_receives_the_report(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    proc = runcases(
        "--cases", write(tmp_path, "c/good.yaml", GOOD), "--format", "json", "--output", out
    )
    assert proc.returncode == 0
    assert json.loads(out.read_text(encoding="utf-8"))["summary"]["passed"] == 2


def test_default_cases_folder_is_the_projects_and_exit_status_matches_summary() -> None:
    proc = runcases("--format", "json")
    data = json.loads(proc.stdout)
    summary = data["summary"]
    assert summary["total"] > 0
    assert all(r["file"].startswith("cases/") for r in data["results"])
    assert (proc.returncode == 0) == (summary["passed"] == summary["total"])
    assert proc.returncode in (0, 1)


# --- JSON shape --------------------------------------------------------------------------------

RESULT_KEYS = {
    "id",
    "file",
    "ruleset",
    "kind",
    "title",
    "status",
    "expected",
    "actual",
    "message",
    "explanation",
}


def test_json_summary_shape(tmp_path: Path) -> None:
    write(tmp_path, "good.yaml", GOOD)
    write(tmp_path, "bad.yaml", FAILING)
    data = json.loads(to_json(run_suite([tmp_path])))
    summary = data["summary"]
    assert {"total", "passed", "failed", "errors", "by_ruleset"} <= set(summary)
    assert (summary["total"], summary["passed"], summary["failed"], summary["errors"]) == (
        3,
        2,
        1,
        0,
    )
    assert summary["by_ruleset"]["classic"]["total"] == 3
    assert summary["by_ruleset"]["classic"]["passed"] == 2


def test_json_result_shape(tmp_path: Path) -> None:
    write(tmp_path, "good.yaml", GOOD)
    write(tmp_path, "bad.yaml", FAILING)
    data = json.loads(to_json(run_suite([tmp_path])))
    assert len(data["results"]) == 3
    for result in data["results"]:
        assert set(result) >= RESULT_KEYS
        assert result["status"] in ("pass", "fail", "error")
        assert result["ruleset"] == "classic"
        assert result["file"].endswith(".yaml")
    results = {r["id"]: r for r in data["results"]}
    passed = results["t-follow-pair-must-play-pair"]
    assert passed["kind"] == "follow"
    assert passed["title"] == "跟对子：有对子必须出对子"
    assert passed["expected"] == {"legal": True, "forced": "♣Q ♣Q"}
    assert passed["actual"]["legal"] is True
    assert sorted(passed["actual"]["forced"]) == ["♣Q", "♣Q"]
    failed = results["t-classify-wrong-expectation"]
    assert failed["status"] == "fail"
    assert failed["actual"]["type"] == "pair"
    assert "type" in failed["message"]


def test_json_writes_cards_with_suit_symbols(tmp_path: Path) -> None:
    data = json.loads(to_json(run_suite([write(tmp_path, "g.yaml", GOOD)])))
    example = next(r for r in data["results"] if r["kind"] == "follow")["actual"]["example"]
    assert all(card[0] in "♠♥♣♦" or card in ("大王", "小王") for card in example)


def test_every_passing_project_case_has_an_explanation() -> None:
    report = run_suite()
    assert report.total > 0
    missing = [
        f"{r.ruleset}:{r.id}"
        for r in report.results
        if r.status == "pass" and not r.explanation.strip()
    ]
    assert missing == []


def test_failing_case_keeps_its_explanation(tmp_path: Path) -> None:
    (result,) = run_suite([write(tmp_path, "bad.yaml", FAILING)]).results
    assert result.status == "fail"
    assert result.explanation.strip()


CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def test_every_judged_project_case_is_explained_in_english() -> None:
    report = run_suite()
    bad = [
        f"{r.ruleset}:{r.id}: {r.explanation_en!r}"
        for r in report.results
        if r.status != "error" and (not r.explanation_en.strip() or CJK.search(r.explanation_en))
    ]
    assert bad == []


def test_json_has_the_english_explanation_beside_the_chinese(tmp_path: Path) -> None:
    data = json.loads(to_json(run_suite([write(tmp_path, "good.yaml", GOOD)])))
    for result in data["results"]:
        assert result["explanation"].strip() and CJK.search(result["explanation"])
        assert result["explanation_en"].strip() and not CJK.search(result["explanation_en"])


# --- JUnit --------------------------------------------------------------------------------------


@pytest.fixture
def two_rulesets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ruleset folder holding classic and an identical copy named classictwin."""
    folder = tmp_path / "rulesets"
    folder.mkdir()
    shutil.copy(ruleset_module.RULESET_DIR / "classic.yaml", folder / "classic.yaml")
    data = yaml.safe_load((folder / "classic.yaml").read_text(encoding="utf-8"))
    data["name"] = "classictwin"
    (folder / "classictwin.yaml").write_text(
        yaml.safe_dump(data, allow_unicode=True), encoding="utf-8"
    )
    shortdeck = dict(data, name="shortdeck", ranks=[r for r in data["ranks"] if r not in (3, 4)])
    (folder / "shortdeck.yaml").write_text(
        yaml.safe_dump(shortdeck, allow_unicode=True), encoding="utf-8"
    )
    monkeypatch.setattr(ruleset_module, "RULESET_DIR", folder)
    return folder


def test_junit_has_one_testcase_per_case_and_ruleset(tmp_path: Path, two_rulesets: Path) -> None:
    cases = write(
        tmp_path,
        "cases/good.yaml",
        GOOD.replace("rulesets: [classic]", "rulesets: [classic, classictwin]"),
    )
    write(tmp_path, "cases/bad.yaml", FAILING)
    report = run_suite([cases.parent])
    root = ET.fromstring(to_junit(report))
    testcases = list(root.iter("testcase"))
    assert len(testcases) == 2 * 2 + 1 == report.total
    names = {tc.get("name") for tc in testcases}
    assert any("classictwin" in (n or "") for n in names)
    failures = [tc for tc in testcases if tc.find("failure") is not None]
    assert len(failures) == 1
    assert root.get("tests") == "5"
    assert root.get("failures") == "1"


def test_junit_reports_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "e.yaml", GOOD.replace("cards: SQ SQ", "cards: SQ SQ SQ"))
    root = ET.fromstring(to_junit(run_suite([path])))
    errors = [tc for tc in root.iter("testcase") if tc.find("error") is not None]
    assert len(errors) == 1
    assert "♠Q" in (errors[0].find("error").get("message") or "")  # type: ignore[union-attr]


# --- paths and filters --------------------------------------------------------------------------


def test_cases_outside_the_project_run(tmp_path: Path) -> None:
    assert not tmp_path.resolve().is_relative_to(PROJECT)
    path = write(tmp_path, "outside.yaml", GOOD)
    report = run_suite([path])
    assert report.total == 2 and report.ok
    assert all(Path(r.file).name == "outside.yaml" for r in report.results)


def test_cases_folder_is_searched_recursively(tmp_path: Path) -> None:
    write(tmp_path, "a/b/c/deep.yaml", GOOD)
    write(tmp_path, "a/ignored.txt", "not yaml")
    assert run_suite([tmp_path / "a"]).total == 2


def test_kind_filter(tmp_path: Path) -> None:
    path = write(tmp_path, "good.yaml", GOOD)
    report = run_suite([path], kinds=["classify"])
    assert [r.id for r in report.results] == ["t-classify-pair"]
    assert run_suite([path], kinds=["follow", "classify"]).total == 2


def test_kind_filter_through_the_command(tmp_path: Path) -> None:
    proc = runcases(
        "--cases", write(tmp_path, "g.yaml", GOOD), "--kind", "follow", "--format", "json"
    )
    data = json.loads(proc.stdout)
    assert [r["kind"] for r in data["results"]] == ["follow"]


def test_ruleset_filter(tmp_path: Path, two_rulesets: Path) -> None:
    path = write(tmp_path, "g.yaml", GOOD.replace("[classic]", "[classic, classictwin]"))
    report = run_suite([path], rulesets=["classictwin"])
    assert {r.ruleset for r in report.results} == {"classictwin"}
    assert report.total == 2


def test_case_level_rulesets_override_the_file_default(tmp_path: Path, two_rulesets: Path) -> None:
    text = GOOD.replace("    kind: classify\n", "    kind: classify\n    rulesets: [classictwin]\n")
    report = run_suite([write(tmp_path, "g.yaml", text)])
    assert by_id(report)["t-classify-pair"].ruleset == "classictwin"
    assert by_id(report)["t-follow-pair-must-play-pair"].ruleset == "classic"


def test_expect_by_ruleset_overrides_expect_for_one_ruleset(
    tmp_path: Path, two_rulesets: Path
) -> None:
    text = FAILING.replace("[classic]", "[classic, classictwin]").replace(
        "      type: tractor\n",
        "      type: tractor\n    expect_by_ruleset:\n      classic: {type: pair}\n",
    )
    results = {r.ruleset: r.status for r in run_suite([write(tmp_path, "x.yaml", text)]).results}
    assert results == {"classic": "pass", "classictwin": "fail"}


def test_card_lists_in_expect_compare_as_multisets(tmp_path: Path) -> None:
    text = GOOD.replace("forced: ♣Q ♣Q", "forced: [CQ, ♣Q]")
    assert run_suite([write(tmp_path, "g.yaml", text)]).ok


def test_expect_is_a_subset_comparison(tmp_path: Path) -> None:
    text = GOOD.replace("      type: pair\n      suit: S\n", "      suit: ♠\n")
    assert run_suite([write(tmp_path, "g.yaml", text)]).ok


# --- malformed files ---------------------------------------------------------------------------

SECOND_GOOD = """\
  - id: t-still-runs
    title: 其余用例照常运行
    kind: classify
    level: 2
    trump: H
    cards: ♠K ♠K
    expect: {type: pair}
"""


def case_file(tmp_path: Path, name: str, case: str) -> Path:
    """A file with one (bad) case followed by a good one."""
    text = (
        "category: 坏用例\nrulesets: [classic]\ncases:\n"
        + textwrap.indent(textwrap.dedent(case), "  ")
        + SECOND_GOOD
    )
    return write(tmp_path, name, text)


BAD_CASES = {
    # name: (case text, offending value, how it is reported)
    "missing-kind": (
        """\
        - id: t-missing-kind
          title: 缺少 kind
          cards: ♠Q ♠Q
          expect: {type: pair}
        """,
        "kind",
    ),
    "unknown-key": (
        """\
        - id: t-unknown-key
          title: 未知字段
          kind: classify
          level: 2
          colour: red
          cards: ♠Q ♠Q
          expect: {type: pair}
        """,
        "colour",
    ),
    "unknown-ruleset": (
        """\
        - id: t-unknown-ruleset
          title: 未知规则集
          kind: classify
          rulesets: [nosuchrules]
          level: 2
          cards: ♠Q ♠Q
          expect: {type: pair}
        """,
        "nosuchrules",
    ),
    "bad-token": (
        """\
        - id: t-bad-token
          title: 坏牌
          kind: follow
          level: 2
          trump: H
          lead: ♣9 ♣9
          hand: ♣Q ♣Q ♣Z ♣5
          expect: {forced: []}
        """,
        "♣Z",
    ),
    "three-aces": (
        """\
        - id: t-three-aces
          title: 三张♠A
          kind: follow
          level: 2
          trump: H
          lead: ♠A
          hand: SA sa ♦3
          expect: {forced: []}
        """,
        "♠A",
    ),
    "cannot-lead": (
        """\
        - id: t-cannot-lead
          title: 不能领出
          kind: follow
          level: 2
          trump: C
          lead: ♠A ♥K
          hand: ♠3 ♥4
          expect: {forced: []}
        """,
        "♠A ♥K",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_CASES))
def test_malformed_case_is_an_error_result_and_the_others_still_run(
    tmp_path: Path, name: str
) -> None:
    case, value = BAD_CASES[name]
    path = case_file(tmp_path, f"{name}.yaml", case)
    results = by_id(run_suite([path]))
    bad_id = "t-" + name
    assert results[bad_id].status == "error"
    assert results[bad_id].file == str(path)
    assert value in results[bad_id].message
    assert results["t-still-runs"].status == "pass"


@pytest.mark.parametrize(
    "name",
    sorted(BAD_CASES),
)
def test_malformed_case_message_names_file_and_case_id(tmp_path: Path, name: str) -> None:
    case, value = BAD_CASES[name]
    path = case_file(tmp_path, f"{name}.yaml", case)
    result = by_id(run_suite([path]))["t-" + name]
    assert path.name in result.message
    assert "t-" + name in result.message
    assert value in result.message


def test_duplicate_id_is_an_error_and_the_first_still_runs(tmp_path: Path) -> None:
    first = write(tmp_path, "a.yaml", GOOD)
    second = write(tmp_path, "b.yaml", GOOD.replace("t-classify-pair", "t-other"))
    report = run_suite([tmp_path])
    statuses = [(Path(r.file).name, r.id, r.status) for r in report.results]
    assert (first.name, "t-follow-pair-must-play-pair", "pass") in statuses
    assert (second.name, "t-follow-pair-must-play-pair", "error") in statuses
    assert (second.name, "t-other", "pass") in statuses
    dup = next(r for r in report.results if r.status == "error")
    assert "t-follow-pair-must-play-pair" in dup.message


def test_duplicate_id_message_names_the_file_of_the_duplicate(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", GOOD)
    second = write(tmp_path, "b.yaml", GOOD.replace("t-classify-pair", "t-other"))
    dup = next(r for r in run_suite([tmp_path]).results if r.status == "error")
    assert str(second) in dup.message


def test_yaml_syntax_error_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    broken = write(
        tmp_path, "broken.yaml", "category: x\ncases:\n  - id: a\n    title: [unclosed\n"
    )
    write(tmp_path, "good.yaml", GOOD)
    report = run_suite([tmp_path])
    errors = [r for r in report.results if r.status == "error"]
    assert len(errors) == 1
    assert str(broken) in errors[0].message
    assert "行" in errors[0].message
    assert report.passed == 2


def test_file_without_cases_list_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "empty.yaml", "category: x\n")
    (result,) = run_suite([path]).results
    assert result.status == "error"
    assert str(path) in result.message


def test_unknown_file_key_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "x.yaml", "categroy: x\n" + GOOD)
    results = run_suite([path]).results
    assert [r.status for r in results] == ["error"]
    assert "categroy" in results[0].message


def test_card_not_in_the_rulesets_deck_is_an_error(tmp_path: Path, two_rulesets: Path) -> None:
    case = """\
    - id: t-not-in-deck
      title: 牌不在这副牌里
      kind: classify
      rulesets: [shortdeck]
      level: 2
      trump: H
      cards: ♠3 ♠3
      expect: {type: pair}
    """
    path = case_file(tmp_path, "deck.yaml", case)
    results = by_id(run_suite([path]))
    bad = results["t-not-in-deck"]
    assert bad.status == "error"
    assert "♠3" in bad.message
    assert path.name in bad.message and "t-not-in-deck" in bad.message
    assert results["t-still-runs"].status == "pass"


def test_no_crash_on_a_case_that_is_not_a_mapping(tmp_path: Path) -> None:
    path = write(
        tmp_path, "x.yaml", "rulesets: [classic]\ncases:\n  - just a string\n" + SECOND_GOOD
    )
    report = run_suite([path])
    assert [r.status for r in report.results] == ["error", "pass"]


def test_wrong_card_field_type_is_an_error_not_a_crash(tmp_path: Path) -> None:
    path = write(tmp_path, "x.yaml", GOOD.replace("cards: SQ SQ", "cards: {a: 1}"))
    statuses = sorted(r.status for r in run_suite([path]).results)
    assert statuses == ["error", "pass"]


def test_json_errors_carry_an_english_message(tmp_path: Path) -> None:
    path = write(tmp_path, "err.yaml", GOOD.replace("hand: ♣Q ♣Q ♣10 ♣5", "hand: ♣Q ♣Q ♣X ♣5"))
    report = run_suite([path])
    result = next(r for r in report.results if r.status == "error")
    data = result.as_json()
    assert "无法识别" in data["message"]
    assert "unknown card “♣X”" in data["message_en"]


ENGLISH = """\
category: 测试
category_en: Tests
rulesets: [classic]
cases:
  - id: t-english-pair
    title: 对子
    title_en: A pair
    kind: classify
    level: 2
    trump: H
    cards: SQ SQ
    expect:
      type: pair
  - {id: t-english-flow, title: 单张, title_en: "A single, in flow style", kind: classify,
     level: 2, trump: H, cards: SQ, expect: {type: single}}
"""


def test_json_carries_title_en_beside_title(tmp_path: Path) -> None:
    write(tmp_path, "en.yaml", ENGLISH)
    write(tmp_path, "zh.yaml", FAILING)
    results = {r["id"]: r for r in json.loads(to_json(run_suite([tmp_path])))["results"]}
    pair = results["t-english-pair"]
    assert (pair["status"], pair["title"], pair["title_en"]) == ("pass", "对子", "A pair")
    assert (pair["category"], pair["category_en"]) == ("测试", "Tests")
    assert results["t-english-flow"]["title_en"] == "A single, in flow style"
    # A case without title_en carries an empty string, as the contract says.
    chinese_only = results["t-classify-wrong-expectation"]
    assert (chinese_only["title_en"], chinese_only["category_en"]) == ("", "")


@pytest.mark.parametrize(
    ("line", "field"),
    [("    title_en: 7\n", "title_en"), ('    title_en: ""\n', "title_en")],
)
def test_a_title_en_that_is_not_a_text_is_an_error_row(
    tmp_path: Path, line: str, field: str
) -> None:
    text = ENGLISH.replace("    title_en: A pair\n", line)
    results = by_id(run_suite([write(tmp_path, "en.yaml", text)]))
    broken = results["t-english-pair"]
    assert broken.status == "error"
    assert field in broken.message and "t-english-pair" in broken.message
    assert results["t-english-flow"].status == "pass"


def test_a_category_en_that_is_not_a_text_is_a_file_error(tmp_path: Path) -> None:
    text = ENGLISH.replace("category_en: Tests", "category_en: [Tests]")
    (result,) = run_suite([write(tmp_path, "en.yaml", text)]).results
    assert result.status == "error"
    assert "category_en" in result.message
