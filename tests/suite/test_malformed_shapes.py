"""Case files of unexpected shapes give error results, never an exception."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.suite.runner import run_suite

SHAPES = {
    "file-rulesets-number": "rulesets: 5\ncases:\n  - {id: a, title: t, kind: classify, cards: ♠A, expect: {type: single}}\n",
    "file-is-list": "- just a list\n",
    "cases-is-string": "cases: nope\n",
    "id-is-list": "cases:\n  - {id: [1], title: t, kind: classify, cards: ♠A, expect: {type: single}}\n",
    "kind-is-list": "cases:\n  - {id: b, title: t, kind: [classify], cards: ♠A, expect: {type: single}}\n",
    "expect-is-list": "cases:\n  - {id: c, title: t, kind: classify, cards: ♠A, expect: [1]}\n",
    "by-ruleset-is-list": "cases:\n  - {id: d, title: t, kind: classify, cards: ♠A, expect: {type: single}, expect_by_ruleset: [1]}\n",
    "options-is-list": "cases:\n  - {id: e, title: t, kind: classify, cards: ♠A, expect: {type: single}, options: [1]}\n",
    "play-is-number": "cases:\n  - {id: f, title: t, kind: trick, plays: [[♠A], 5], expect: {winner: 0}}\n",
    "points-is-text": "cases:\n  - {id: g, title: t, kind: score, points: abc, expect: {winner: banker}}\n",
    "case-is-number": "cases:\n  - 5\n",
    "python-tag": "cases:\n  - {id: h, title: t, kind: classify, cards: !!python/object:os.system ls, expect: {}}\n",
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_unexpected_shape_is_an_error_result(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_text(SHAPES[name], encoding="utf-8")
    report = run_suite([path])
    assert report.results, name
    assert all(r.status == "error" for r in report.results), [r.message for r in report.results]
    assert all(path.name in r.message for r in report.results)


def test_undecodable_file_is_an_error_result(tmp_path: Path) -> None:
    path = tmp_path / "bytes.yaml"
    path.write_bytes(b"cases:\n  - id: x\n    cards: \xff\xfe\n")
    (result,) = run_suite([path]).results
    assert result.status == "error" and "bytes.yaml" in result.message
