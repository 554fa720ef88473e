"""The resumable duel runner plays exactly `duel`'s deals and adds them up to its report."""

from __future__ import annotations

import argparse
from pathlib import Path

from checker.perf import duelrun
from checker.play.duel import duel


def _args(path: Path, deals: int, part: str = "0/1") -> list[str]:
    return [str(path), "--ruleset", "classic", "--bots", "greedy", "random",
            "--deals", str(deals), "--seed", "5", "--part", part]  # fmt: skip


def test_a_stopped_run_resumes_and_reports_what_duel_reports(tmp_path: Path) -> None:
    out = tmp_path / "duel.jsonl"
    duelrun.main(_args(out, 2))
    duelrun.main(_args(out, 3))  # resumes: only deal 2 is new
    assert [line.count('"deal"') for line in out.read_text().splitlines()] == [1, 1, 1]
    got = duelrun.report(duelrun_args(out, 3))
    want = duel("classic", "greedy", "random", 3, 5).as_dict()
    del want["elapsed_s"]
    assert {k: got[k] for k in want} == want


def test_two_parts_share_a_duel(tmp_path: Path) -> None:
    one, two = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    duelrun.main(_args(one, 3, "0/2"))
    duelrun.main(_args(two, 3, "1/2"))
    assert len(one.read_text().splitlines()) == 2
    assert len(two.read_text().splitlines()) == 1
    args = duelrun_args(one, 3)
    args.files = [str(one), str(two)]
    assert (
        duelrun.report(args)["margin"]
        == duel("classic", "greedy", "random", 3, 5).as_dict()["margin"]
    )


def duelrun_args(path: Path, deals: int) -> argparse.Namespace:
    return duelrun.parse(_args(path, deals) + ["--report"])
