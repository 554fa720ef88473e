"""The bench command's shape: figures as JSON, and --against REV side by side (not its speed)."""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
from contextlib import nullcontext
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError

from checker.management.commands.bench import _table
from checker.perf.bench import FIGURES
from checker.perf.bench_against import AGAINST_FIGURES, COUNTS, ROUND_BATCHES, Comparison
from checker.perf.bench_driver import run_case_files
from checker.perf.compiled import loaded

# cProfile sees a function of the compiled engine (make compiled) as one built-in call.
PURE_ONLY = pytest.mark.skipif(
    any(loaded().values()),
    reason="the compiled engine is loaded: its functions are opaque to cProfile "
    "(profile after make clean-compiled)",
)

REPO = Path(settings.BASE_DIR)
# The commit issue 14 takes as its baseline: its bench has no --format json and no rounds.
BASELINE = "51feed7e0d17890c97bafaaed29ef2e87e78f780"


def _worktrees() -> str:
    # Only the paths: other worktrees' HEADs move whenever someone commits or integrates.
    out = subprocess.run(
        ["git", "-C", str(REPO), "worktree", "list", "--porcelain"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return "\n".join(line for line in out.splitlines() if line.startswith("worktree "))


def _has_commit(rev: str) -> bool:
    done = subprocess.run(
        ["git", "-C", str(REPO), "cat-file", "-e", f"{rev}^{{commit}}"], capture_output=True
    )
    return done.returncode == 0


def test_bench_format_json_gives_every_figure_including_whole_rounds() -> None:
    out = StringIO()
    call_command("bench", "--format", "json", "--seconds", "0.02", stdout=out)
    figures = json.loads(out.getvalue())
    for key, _label, _higher in FIGURES:
        assert isinstance(figures[key], int | float) and figures[key] > 0, key
    assert figures["suite_passed"] == figures["suite_cases"]
    want = figures["suite_seconds"] * 1000 / figures["suite_cases"]
    assert figures["suite_ms_per_case"] == pytest.approx(want)


def test_case_files_are_timed_with_the_trees_own_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))  # the driver puts the tree first
    for name in ("a", "b"):
        (tmp_path / f"{name}.yaml").write_text(
            "cases:\n"
            f"  - {{id: {name}1, title: t, kind: classify, cards: ♠Q ♠Q, expect: {{type: pair}}}}\n"
            f"  - {{id: {name}2, title: t, kind: classify, cards: ♠Q, expect: {{type: pair}}}}\n",
            encoding="utf-8",
        )
    figures = run_case_files(str(REPO), str(tmp_path))
    assert figures["rev_cases_total"] == 4 and figures["rev_cases_passed"] == 2
    assert figures["rev_cases_seconds"] > 0


def test_bench_against_runs_both_sides_interleaved_and_removes_its_worktree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rev = BASELINE if _has_commit(BASELINE) else "HEAD"
    # The run's own temporary folders: other checkouts of the repository may run their own
    # benches meanwhile, and `git worktree list` is shared by every checkout.
    made: list[str] = []
    mkdtemp = tempfile.mkdtemp

    def recording_mkdtemp(*args: Any, **kwargs: Any) -> str:
        path = mkdtemp(*args, **kwargs)
        made.append(path)
        return path

    monkeypatch.setattr(tempfile, "mkdtemp", recording_mkdtemp)
    out, err = StringIO(), StringIO()
    call_command(
        "bench", "--against", rev, "--seconds", "0.02", "--format", "json", stdout=out, stderr=err
    )
    data = json.loads(out.getvalue())
    assert data["repeats"] == 3 and data["clock"] == "cpu"
    for key, _label, higher in FIGURES + AGAINST_FIGURES:
        row = data["figures"][key]
        assert len(row["rev_runs"]) == len(row["current_runs"]) == 3, key
        assert row["rev"] > 0 and row["current"] > 0, key
        if "rev_batches" in row:  # the median of the paired batches' ratios
            pairs = zip(row["rev_batches"], row["current_batches"], strict=True)
            want = statistics.median(new / old if higher else old / new for old, new in pairs)
        else:
            want = row["current"] / row["rev"] if higher else row["rev"] / row["current"]
        assert row["speedup"] == pytest.approx(want)
    # Both sides ran REV's own case files: the same number of cases.
    counts = data["counts"]
    assert counts["rev_cases_total"]["rev"] == counts["rev_cases_total"]["current"] > 0
    assert counts["suite_cases"]["rev"] > 0 and counts["suite_cases"]["current"] > 0
    # The runs alternate: REV first, then the current tree, three times.
    assert [line.split(": ")[1] for line in err.getvalue().splitlines()] == [rev, "current"] * 3 + [
        f"{rev} and current in turn"
    ]
    # Every workload but the suite also ran in small batches, the sides in turn: their
    # medians are the figures.
    batched = [key for key, _, _ in FIGURES if not key.startswith("suite")]
    assert len(batched) == 34  # 8 rate rows, 14 of issue 29, 2 of rounds, 10 worst cases
    for key in batched:
        row = data["figures"][key]
        assert len(row["rev_batches"]) == len(row["current_batches"]) == ROUND_BATCHES, key
        assert row["current"] == pytest.approx(statistics.median(row["current_batches"]))
        assert row["rev"] == pytest.approx(statistics.median(row["rev_batches"]))
    # No worktree of this run is left, in git's list or on disk.
    ours = [path for path in made if "bench-against-" in path]
    assert ours, "the run made no worktree folder"
    listed = _worktrees()
    for path in ours:
        assert path not in listed and not Path(path).exists(), path
    # The text form lays out the same runs: both medians and the speedup on every figure line.
    figures = FIGURES + AGAINST_FIGURES
    runs = {
        side: [
            {
                **{key: data["figures"][key][f"{side}_runs"][i] for key, _, _ in figures},
                **{key: data["counts"][key][side] for key in COUNTS},
            }
            for i in range(3)
        ]
        for side in ("rev", "current")
    }
    text = _table(Comparison(rev, data["commit"], 3, runs))
    assert "speedup" in text and "CPU time" in text
    total = f"{int(counts['rev_cases_total']['rev']):,}"
    assert f"REV's case files: the {total} cases of" in text
    for _key, label, _higher in figures:
        (line,) = [row for row in text.splitlines() if row.startswith(label)]
        assert line.rstrip().endswith("×"), line


def test_bench_against_an_unknown_revision_is_a_clear_error() -> None:
    with pytest.raises(CommandError, match="no-such-rev"):
        call_command("bench", "--against", "no-such-rev", stdout=StringIO(), stderr=StringIO())


def test_bench_against_needs_at_least_three_repeats() -> None:
    with pytest.raises(CommandError, match="at least 3"):
        call_command(
            "bench", "--against", "HEAD", "--repeats", "2", stdout=StringIO(), stderr=StringIO()
        )


@PURE_ONLY
def test_profile_lists_the_workloads_top_entries_by_own_time() -> None:
    out = StringIO()
    call_command("bench", "--profile", "follow", "--top", "4", "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    (side,) = data
    prof = data[side]
    assert side == "current" and prof["workload"] == "follow" and prof["calls"] > 0
    assert len(prof["top"]) == 4
    own = [e["own_s"] for e in prof["top"]]
    assert own == sorted(own, reverse=True)
    assert all(e["cumulative_s"] >= e["own_s"] > 0 and e["calls"] > 0 for e in prof["top"])
    text = StringIO()
    call_command("bench", "--profile", "trick", "--top", "3", stdout=text)
    lines = text.getvalue().splitlines()
    assert lines[0].startswith("profile of trick (10 cold batches") and "current" in lines[0]
    # The trick module's functions lead (resolve_trick or its unit loop, by a small margin).
    assert len(lines) == 2 + 3 and "checker/engine/trick.py:" in text.getvalue()


def test_profile_against_a_revision_profiles_both_sides() -> None:
    rev = BASELINE if _has_commit(BASELINE) else "HEAD"
    out = StringIO()
    call_command(
        "bench",
        "--profile",
        "trick",
        "--top",
        "8",
        "--against",
        rev,
        "--format",
        "json",
        stdout=out,
    )
    data = json.loads(out.getvalue())
    (label, current) = data
    assert label.startswith(f"{rev} (") and current == "current"
    assert all(len(p["top"]) == 8 for p in data.values())
    # Each side's subprocess imports everything before the profile starts: no module is
    # compiled or run within it.
    for side in data.values():
        assert not any("compile" in e["function"] or "exec>" in e["function"] for e in side["top"])
    with pytest.raises(CommandError, match="is not a revision"):
        call_command("bench", "--profile", "trick", "--against", "no-such-rev", stdout=StringIO())


def test_every_figure_label_fits_the_table_column() -> None:
    # The text table pads labels to 33 columns: a longer one runs into the REV figure.
    assert all(len(label) < 33 for _, label, _ in FIGURES + AGAINST_FIGURES)


def test_a_batched_speedup_is_the_median_of_the_paired_batches_ratios() -> None:
    # Paired ratios 3, 2, 3 (median 3), where the medians alone (2 and 4) would say 2.
    batches = {"rev": {"x": [1.0, 2.0, 10.0]}, "current": {"x": [3.0, 4.0, 30.0]}}
    runs: dict[str, list[dict[str, Any]]] = {"rev": [{"y": 4.0}], "current": [{"y": 2.0}]}
    comparison = Comparison("REV", "c0ffee", 3, runs, batches)
    assert comparison.speedup("x", True) == pytest.approx(3.0)
    assert comparison.speedup("x", False) == pytest.approx(1 / 3)
    # A figure without batches compares the medians of its runs (here a time: REV / current).
    assert comparison.speedup("y", False) == pytest.approx(2.0)


def _fake_servers(asked: list[tuple[str, str]]) -> type:
    """A stand-in for the bench servers' Popen: it answers "ready", then 1.0 to every request,
    and notes each request with the tree it went to."""

    class FakeServer:  # answers "ready", then 1.0 to every request
        def __init__(self, args: list[str], **kwargs: Any) -> None:
            self.side = args[3]  # the tree's path
            self.answers = ["ready\n"]
            server = self

            class Stdin:
                def write(self, line: str) -> None:
                    asked.append((server.side, line.strip()))
                    server.answers.append("1.0\n")

                def flush(self) -> None: ...

                def close(self) -> None: ...

            class Stdout:
                def readline(self) -> str:
                    return server.answers.pop(0)

            self.stdin, self.stdout, self.stderr = Stdin(), Stdout(), None

        def wait(self, timeout: float) -> int:
            return 0

    return FakeServer


def test_the_batches_of_one_workload_are_taken_back_to_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from checker.perf import bench_against

    asked: list[tuple[str, str]] = []
    monkeypatch.setattr(bench_against.subprocess, "Popen", _fake_servers(asked))
    out = bench_against.interleave({"rev": Path("A"), "current": Path("B")}, 0.02, 1, batches=2)
    assert all(len(out[side][key]) == 2 for side in out for key in out[side])
    # Each request goes to both sides in a row, REV first in the first batch, then current.
    first, second = asked[: len(asked) // 2], asked[len(asked) // 2 :]
    for batch, sides in ((first, ["A", "B"]), (second, ["B", "A"])):
        for k in range(0, len(batch), 2):
            assert [batch[k][0], batch[k + 1][0]] == sides
            assert batch[k][1] == batch[k + 1][1]


def test_only_times_the_named_figures_and_no_whole_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from checker.perf import bench_against

    asked: list[tuple[str, str]] = []
    monkeypatch.setattr(bench_against.subprocess, "Popen", _fake_servers(asked))
    monkeypatch.setattr(bench_against, "run_side", lambda *a, **k: pytest.fail("a whole run"))
    monkeypatch.setattr(
        bench_against, "checkout", lambda repo, rev: nullcontext((Path("A"), "0" * 40))
    )
    out, err = StringIO(), StringIO()
    call_command(
        "bench", "--against", "HEAD", "--only", "rounds", "--seconds", "0.3", stdout=out, stderr=err
    )
    # Only whole rounds, with and without the log, 12 batches a side: 3 rounds each.
    assert sorted({line for _, line in asked}) == ["log 3", "quiet 3"]
    assert len(asked) == 2 * 2 * ROUND_BATCHES
    rows = out.getvalue().splitlines()
    assert "batches only" in rows[0]
    assert [row.split("  ")[0] for row in rows[2:4]] == [
        "whole random rounds/s",
        "rounds/s, simulate without --log",
    ]
    assert len(rows) == 5  # the two rows and the note on the batches, no case suite
    with pytest.raises(CommandError, match="--against"):
        call_command("bench", "--only", "rounds")


def test_the_throw_and_big_hand_workloads_are_built_as_named() -> None:
    from collections import Counter

    from checker.engine.combos import THROW, classify
    from checker.engine.throws import judge_throw
    from checker.perf.bench_driver import (
        _classic_deck,
        big_hand_follows,
        ordinary_tricks,
        throw_deals,
        throw_follows,
    )

    ctx, deck = _classic_deck()
    for size in (2, 12):
        deals = throw_deals(ctx, 1, size, per_side=4)
        # Standing and failing throws alternate, each of `size` cards against three 25-card hands.
        stands = [judge_throw(ctx, throw, others).allowed for throw, others in deals]
        assert stands == [True, False] * 4
        for throw, others in deals:
            assert classify(ctx, throw).type == THROW and len(throw) == size
            assert [len(h) for h in others] == [25, 25, 25]
            assert not Counter(throw) + sum(map(Counter, others), Counter()) - Counter(deck)
    follows = throw_follows(ctx, 1, 8, count=28)
    held = [sum(ctx.key[c][0] == lead.group for c in hand) for lead, hand, _ in follows[::2]]
    assert held == [8, 9, 10, 11, 12, 13, 14] * 2
    assert all(len(hand) == 25 and len(play) == 8 for _, hand, play in follows)
    rng = random.Random(1)
    big = big_hand_follows(ctx, deck, rng, ordinary_tricks(ctx, rng, 3))
    assert [len(hand) for _, hand, _ in big] == [33] * 6
