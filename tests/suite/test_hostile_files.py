"""Case files that cannot hurt (issue 9.3): limits, aliases, special files, wrong types, a time
budget; each is an error row naming the file (and case and field), never a hang or traceback."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from checker.perf.hostile import GOOD_CASE, alias_bomb, write_hostile_files
from checker.suite import runner
from checker.suite.cases import (
    MAX_CASES,
    MAX_DEPTH,
    MAX_NODES,
    SAFE_LOADER,
    YamlLimitError,
    check_node_graph,
    fits_as_tree,
    load_cases,
    parse_yaml,
)
from checker.suite.runner import run_suite

PROJECT = Path(__file__).resolve().parents[2]


def _limited() -> None:  # pragma: no cover - runs in the child
    # Old code read /dev/zero until memory ran out: cap the child at 2 GB.
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def runcases_json(*paths: Path) -> tuple[int, dict]:  # type: ignore[type-arg]
    """Run `manage.py runcases --format json` in a child process, bounded in time and memory."""
    args = [sys.executable, "manage.py", "runcases", "--format", "json", "--cases"]
    done = subprocess.run(
        [*args, *map(str, paths)],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limited,
    )
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    return done.returncode, json.loads(done.stdout)


def test_every_hostile_file_is_one_error_row_naming_it(tmp_path: Path) -> None:
    files = write_hostile_files(tmp_path / "cases")
    good = tmp_path / "cases" / "good.yaml"
    good.write_text("cases:\n" + GOOD_CASE.format(id="still-runs"), encoding="utf-8")
    code, report = runcases_json(tmp_path / "cases")
    assert code == 1
    by_file = {Path(r["file"]).name: r for r in report["results"]}
    for name, path in files.items():
        row = by_file[path.name]
        assert row["status"] == "error" and path.name in row["message"], (name, row)
    assert by_file["good.yaml"]["status"] == "pass"


def test_alias_bomb_is_refused_for_its_expanded_size(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb(), encoding="utf-8")
    loaded = load_cases([path])
    (error,) = loaded.errors
    assert str(MAX_NODES) in error.message and "别名" in error.message
    assert not loaded.cases


def test_aliases_within_the_limit_still_work(tmp_path: Path) -> None:
    path = tmp_path / "anchors.yaml"
    path.write_text(
        "cases:\n"
        "  - {id: a1, title: t, kind: classify, cards: &pair ♠Q ♠Q, expect: &e {type: pair}}\n"
        "  - {id: a2, title: t, kind: classify, cards: *pair, expect: *e}\n",
        encoding="utf-8",
    )
    assert [r.status for r in run_suite([path]).results] == ["pass", "pass"]


def _compose(text: str) -> yaml.Node:
    loader = SAFE_LOADER(text)
    try:
        node: yaml.Node = loader.get_single_node()
    finally:
        loader.dispose()
    return node


@pytest.mark.parametrize(
    ("text", "fits"),
    [
        ("cases:\n" + GOOD_CASE.format(id="ok"), True),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), True),  # the innermost at MAX_DEPTH
        ("[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2), False),
        ("[" + ", ".join(["1"] * (MAX_NODES - 1)) + "]", True),  # MAX_NODES nodes in all
        ("[" + ", ".join(["1"] * MAX_NODES) + "]", False),
    ],
)
def test_a_document_without_aliases_fits_exactly_when_the_full_check_passes(
    text: str, fits: bool
) -> None:
    node = _compose(text)
    assert fits_as_tree(node) is fits
    if fits:
        check_node_graph(node)
    else:
        with pytest.raises(YamlLimitError):
            check_node_graph(node)
        with pytest.raises(YamlLimitError):
            parse_yaml(text)


def test_fifo_and_device_links_are_not_read(tmp_path: Path) -> None:
    files = write_hostile_files(tmp_path, special=True)
    for name in ("fifo", "link-to-zero", "link-to-fifo"):
        (error,) = load_cases([files[name]]).errors
        assert "不是普通文件" in error.message, name


def test_a_link_to_a_regular_case_file_is_read(tmp_path: Path) -> None:
    real = tmp_path / "real.yml"
    real.write_text("cases:\n" + GOOD_CASE.format(id="linked"), encoding="utf-8")
    (tmp_path / "link.yaml").symlink_to(real)
    assert [r.status for r in run_suite([tmp_path / "link.yaml"]).results] == ["pass"]


def test_too_many_cases_is_a_file_error(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    body = "".join(GOOD_CASE.format(id=f"c-{i}") for i in range(MAX_CASES + 1))
    path.write_text("cases:\n" + body, encoding="utf-8")
    (error,) = load_cases([path]).errors
    assert str(MAX_CASES) in error.message


# The wrong types the issue names, each an error row naming file, id and field.
WRONG_TYPES = {
    "list-in-rulesets": (
        "  - {id: w1, title: t, kind: classify, rulesets: [[classic]], cards: ♠A, expect: {}}\n",
        "w1",
        "rulesets[0]",
    ),
    "seat-null": (
        "  - {id: w2, title: t, kind: declare, level: 2, cards: ♥2, seat: null, expect: {}}\n",
        "w2",
        "seat",
    ),
    "number-for-cards": (
        "  - {id: w3, title: t, kind: follow, lead: ♠A, hand: ♠K, expect: {forced: 5}}\n",
        "w3",
        "expect.forced",
    ),
    "date-in-note": (
        "  - {id: w4, title: t, kind: classify, cards: ♠A, note: 2024-01-01, expect: {}}\n",
        "w4",
        "note",
    ),
    "date-in-expect": (
        "  - {id: w5, title: t, kind: score, points: 40, expect: {result: 2024-01-01}}\n",
        "w5",
        "expect.result",
    ),
}


@pytest.mark.parametrize("name", sorted(WRONG_TYPES))
def test_wrong_types_are_error_rows_even_under_format_json(tmp_path: Path, name: str) -> None:
    text, case_id, field = WRONG_TYPES[name]
    path = tmp_path / f"{name}.yaml"
    path.write_text("cases:\n" + text + GOOD_CASE.format(id="ok"), encoding="utf-8")
    code, report = runcases_json(path)
    assert code == 1
    rows = {r["id"]: r for r in report["results"]}
    bad = rows[case_id]
    assert bad["status"] == "error"
    assert path.name in bad["message"] and case_id in bad["message"] and field in bad["message"]
    assert rows["ok"]["status"] == "pass"


def test_file_level_list_in_rulesets_is_a_file_error(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_text("rulesets: [[classic]]\ncases:\n" + GOOD_CASE.format(id="x"), encoding="utf-8")
    (result,) = run_suite([path]).results
    assert result.status == "error" and "rulesets[0]" in result.message


def test_file_level_keys_of_mixed_types_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "keys.yaml"
    path.write_text("1: a\nzz: b\ncases: []\n", encoding="utf-8")
    (result,) = run_suite([path]).results
    assert result.status == "error" and "zz" in result.message


def test_a_file_past_its_time_budget_reports_its_remaining_cases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "FILE_BUDGET_S", 0.0)
    path = tmp_path / "slow.yaml"
    path.write_text(
        "cases:\n" + "".join(GOOD_CASE.format(id=f"s-{i}") for i in range(3)), encoding="utf-8"
    )
    other = tmp_path / "other.yaml"
    other.write_text("cases:\n" + GOOD_CASE.format(id="o-1"), encoding="utf-8")
    results = {r.id: r for r in run_suite([path, other]).results}
    assert results["s-0"].status == "pass"
    assert results["s-1"].status == "error" and "时间预算" in results["s-1"].message
    assert results["s-2"].status == "error"
    assert results["o-1"].status == "pass"  # the budget is per file


def test_error_rows_with_odd_values_render_as_json(tmp_path: Path) -> None:
    path = tmp_path / "odd.yaml"
    path.write_text(
        "cases:\n  - {id: odd, title: t, kind: nope, expect: {when: 2024-01-01}}\n",
        encoding="utf-8",
    )
    text = runner.to_json(run_suite([path]))
    assert json.loads(text)["results"][0]["status"] == "error"
    assert yaml.safe_load(path.read_text(encoding="utf-8"))  # the file itself is plain YAML
