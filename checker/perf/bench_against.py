"""Benchmark the current tree against an older revision, side by side (bench --against REV).

REV is checked out into a temporary git worktree outside the repository (removed afterwards).
Each side runs in its own subprocess (`bench_driver.py`, CPU time), interleaved A B A B for
the given number of repeats; each figure is the median of its side's runs, and the speedup is
how many times better the current tree does (rates: current / REV; times: REV / current).

Each run also times REV's own case files (its `cases/` folder) with that side's runner, the
fastest of a few subprocesses of their own (`bench_driver.py --cases`): unlike the suite of
each tree, which grows, the same cases on both sides show whether running cases got slower.

Every workload but the case suite is then timed once more, finely interleaved: one long-lived
subprocess per side (`bench_driver.py --serve`) takes small batches in turn, per workload a
REV batch and a current one back to back (REV first, then current first, ...): 0.05 s of each
rate workload, a few rounds with and without the log, a few dozen calls of each worst case with
and without its memos. Both sides build these workloads with the same code
(`bench_driver.workloads`) on their own engine. A whole run of one side takes a minute or more,
long enough for a shared machine to change speed between the sides; a pair of batches taken
one after the other sees the same machine. Those figures are the medians of these batches, and
their speedup is the median of the paired batches' ratios.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bench_driver import RATES, WORST_CASES

DRIVER = Path(__file__).with_name("bench_driver.py")
MIN_REPEATS = 3
# Sizes printed beside the figures: each tree's own suite, and REV's case files on both sides.
COUNTS = ("suite_cases", "rev_cases_total", "rev_cases_passed")
CASE_RUNS = 3  # subprocesses timing REV's case files per side and run
ROUND_BATCHES = 12  # batches per side and figure, finely interleaved
# Figures taken from the finely interleaved batches: key and the request that times a batch.
ROUND_FIGURES = {"rounds_per_s": "log", "rounds_quiet_per_s": "quiet"}
WORST_CALLS = 40  # calls of a worst case per batch; the batch's figure is their median
RATE_SECONDS = 0.05  # CPU seconds of a rate workload per batch (at --seconds 1)
WORST_FIGURES = {
    f"{name}{'_cold' if cold else ''}_ms": f"{'cold' if cold else 'warm'} {name}"
    for name in WORST_CASES
    for cold in (False, True)
}
# Every figure taken in batches (`interleave`), and names for groups of them (bench --only).
BATCHED = (*RATES, *ROUND_FIGURES, *WORST_FIGURES)
GROUPS = {"rounds": tuple(ROUND_FIGURES)}
# Figures measured only side by side: REV's case files, run by both sides.
AGAINST_FIGURES: list[tuple[str, str, bool]] = [
    ("rev_cases_seconds", "REV's case files (s)", False),
]


class BenchError(ValueError):
    """A benchmark comparison that cannot run: an unknown revision, a side that failed."""


@dataclass(frozen=True)
class Comparison:
    """The figures of both sides, run by run, in the order they ran."""

    rev: str
    commit: str
    repeats: int
    runs: dict[str, list[dict[str, Any]]]
    # Per side, the finely interleaved batches of some figures (`interleave_rounds`).
    batches: dict[str, dict[str, list[float]]] = field(default_factory=dict)

    def median(self, side: str, key: str) -> float | None:
        """Return the median of one figure over one side's batches when it has them, else over
        its runs (None if that side lacks it)."""
        values = self.batches.get(side, {}).get(key) or [
            r[key] for r in self.runs[side] if isinstance(r.get(key), int | float)
        ]
        return statistics.median(values) if values else None

    def speedup(self, key: str, higher_is_better: bool) -> float | None:
        """Return how many times better the current tree does on one figure: the median of
        the ratios of paired batches (each current batch against the REV batch taken next to
        it) when the figure has batches, else the ratio of the two medians."""
        old_batches = self.batches.get("rev", {}).get(key) or []
        new_batches = self.batches.get("current", {}).get(key) or []
        if old_batches and len(old_batches) == len(new_batches) and all(old_batches + new_batches):
            pairs = list(zip(old_batches, new_batches, strict=True))
        else:
            old, new = self.median("rev", key), self.median("current", key)
            if not old or not new:
                return None
            pairs = [(old, new)]
        return statistics.median(new / old if higher_is_better else old / new for old, new in pairs)

    def as_json(self, figures: list[tuple[str, str, bool]]) -> dict[str, Any]:
        """Return the comparison as plain data: per figure both medians, the speedup, every run."""
        out: dict[str, Any] = {}
        for key, _label, higher in figures:
            out[key] = {
                "rev": self.median("rev", key),
                "current": self.median("current", key),
                "speedup": self.speedup(key, higher),
                "higher_is_better": higher,
                "rev_runs": [r.get(key) for r in self.runs["rev"]],
                "current_runs": [r.get(key) for r in self.runs["current"]],
            }
            for side in ("rev", "current"):
                if key in self.batches.get(side, {}):
                    out[key][f"{side}_batches"] = self.batches[side][key]
        return {
            "against": self.rev,
            "commit": self.commit,
            "repeats": self.repeats,
            "order": "interleaved rev, current",
            "clock": "cpu",
            "figures": out,
            "counts": {
                key: {side: self.median(side, key) for side in ("rev", "current")} for key in COUNTS
            },
        }


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise BenchError(f"git {' '.join(args)}: {done.stderr.strip() or 'failed'}")
    return done.stdout.strip()


@contextmanager
def checkout(repo: Path, rev: str) -> Iterator[tuple[Path, str]]:
    """Check REV out into a temporary worktree outside the repository; remove it afterwards."""
    try:
        commit = _git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except BenchError:
        raise BenchError(f"“{rev}” is not a revision of {repo}") from None
    parent = Path(tempfile.mkdtemp(prefix="bench-against-"))
    tree = parent / "tree"
    _git(repo, "worktree", "add", "--detach", str(tree), commit)
    try:
        yield tree, commit
    finally:
        subprocess.run(
            ["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(parent, ignore_errors=True)
        subprocess.run(["git", "-C", str(repo), "worktree", "prune"], capture_output=True)


def _drive(tree: Path, *args: str) -> dict[str, Any]:
    """Run the driver in a fresh subprocess in `tree` and return the JSON it prints."""
    done = subprocess.run(
        [sys.executable, str(DRIVER), *args],
        capture_output=True,
        text=True,
        cwd=tree,
        check=False,
    )
    if done.returncode:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchError(f"the benchmark of {tree} failed: {tail}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def profile_side(tree: Path, workload: str, top: int) -> dict[str, Any]:
    """Profile one workload of a tree in a fresh subprocess (cold, cProfile); its top entries."""
    return _drive(tree, "--profile", str(tree), workload, str(top))


def run_side(tree: Path, seconds: float, seed: int, *, cases: Path | None = None) -> dict[str, Any]:
    """Run one tree's benchmark in a fresh subprocess and return its figures; with `cases`,
    also time that folder of case files with the tree's runner (the fastest of
    `CASE_RUNS` subprocesses of their own: one cold run each, steadier than one alone)."""
    figures = _drive(tree, str(tree), str(seconds), str(seed))
    if cases is not None:
        runs = [_drive(tree, "--cases", str(tree), str(cases)) for _ in range(CASE_RUNS)]
        figures.update(min(runs, key=lambda run: float(run["rev_cases_seconds"])))
    return figures


def interleave(
    trees: dict[str, Path],
    seconds: float,
    seed: int,
    batches: int = ROUND_BATCHES,
    only: Sequence[str] = (),
) -> dict[str, dict[str, list[float]]]:
    """Time every workload (or the figures named in `only`) on each side in small batches, per
    workload both sides back to back (ABBA): the rate workloads, whole rounds (with and without
    the log) and the worst cases (warm and cold); per side and figure, every batch's figure:
    items or rounds per CPU second, or the median CPU ms of the batch's calls."""
    size = max(1, round(seconds * 10))  # about 0.05 s of rounds per batch at seconds=1
    span = RATE_SECONDS * seconds
    procs = {
        side: subprocess.Popen(
            [sys.executable, str(DRIVER), "--serve", str(tree), str(seed)],
            cwd=tree,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for side, tree in trees.items()
    }
    requests = [
        (key, request)
        for key, request in (
            [(key, f"rate {key} {span}") for key in RATES]
            + [(key, f"{kind} {size}") for key, kind in ROUND_FIGURES.items()]
            + [(key, f"{request} {WORST_CALLS}") for key, request in WORST_FIGURES.items()]
        )
        if not only or key in only
    ]
    out: dict[str, dict[str, list[float]]] = {
        side: {key: [] for key, _ in requests} for side in trees
    }
    try:
        for side, proc in procs.items():
            _ask(side, proc, None)
        sides = list(trees)
        # Per workload both sides' batches back to back, so that a pair sees the same machine.
        for i in range(batches):
            for key, request in requests:
                for side in sides if i % 2 == 0 else sides[::-1]:
                    value = _ask(side, procs[side], request)
                    if key in ROUND_FIGURES:  # the CPU seconds of `size` rounds
                        value = size / value if value > 0 else 0.0
                    out[side][key].append(value)
    finally:
        for proc in procs.values():
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=60)
    return out


def _ask(side: str, proc: subprocess.Popen[str], line: str | None) -> float:
    """Send one request to a side's server (None: wait until it is ready) and read its answer."""
    assert proc.stdin is not None and proc.stdout is not None
    if line is not None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
    answer = proc.stdout.readline().strip()
    if not answer:
        tail = (proc.stderr.read().strip().splitlines() if proc.stderr else []) or ["no output"]
        raise BenchError(f"the batches of {side} failed: {tail[-1]}")
    return 0.0 if answer == "ready" else float(answer)


def compare(
    repo: Path,
    current: Path,
    rev: str,
    *,
    repeats: int = MIN_REPEATS,
    seconds: float = 1.0,
    seed: int = 1,
    progress: Callable[[str], None] | None = None,
    only: Sequence[str] = (),
) -> Comparison:
    """Run REV's and the current tree's benchmarks interleaved and collect every run; with
    `only` (figure keys of the batches), no whole runs: those figures' batches alone."""
    if repeats < MIN_REPEATS:
        raise BenchError(f"--repeats must be at least {MIN_REPEATS}, not {repeats}")
    runs: dict[str, list[dict[str, Any]]] = {"rev": [], "current": []}
    with checkout(repo, rev) as (tree, commit):
        cases = tree / "cases" if (tree / "cases").is_dir() else None
        for i in range(0 if only else repeats):
            for side, path in (("rev", tree), ("current", current)):
                if progress:
                    progress(f"run {i + 1}/{repeats}: {rev if side == 'rev' else 'current'}")
                runs[side].append(run_side(path, seconds, seed, cases=cases))
        if progress:
            progress(f"batches: {rev} and current in turn")
        batches = interleave({"rev": tree, "current": current}, seconds, seed, only=only)
    return Comparison(rev, commit, repeats, runs, batches)
