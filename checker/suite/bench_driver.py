"""Run one tree's benchmark in this process and print its figures as JSON (bench --against).

Usage: python bench_driver.py TREE SECONDS SEED

TREE goes first on sys.path, so `checker` is imported from it: the current tree or an older
revision checked out elsewhere. Every figure is taken in CPU time of this process
(`time.perf_counter` is pointed at `time.process_time` before the tree's bench is imported),
so that other work on a shared machine counts less. Revisions whose `run_bench` does not yet
measure whole rounds get them measured here, with the same function the current bench uses.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any


def round_rate(seconds: float, seed: int) -> float:
    """Play whole random classic rounds (checker.play.simulation) for `seconds`; rounds per second."""
    from checker.play.simulation import round_seeds, run_job

    seeds = round_seeds(seed, 10_000)
    done = 0
    start = time.perf_counter()
    while True:
        run_job(("classic", "random", done, seeds[done % len(seeds)]))
        done += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def measure(tree: str, seconds: float, seed: int) -> dict[str, Any]:
    """Import the tree's bench (CPU time) and return its figures, whole rounds included."""
    sys.path[0:1] = [tree]
    time.perf_counter = time.process_time
    from checker.suite.bench import run_bench

    figures: dict[str, Any] = run_bench(seconds, seed)
    if "rounds_per_s" not in figures:
        figures["rounds_per_s"] = round_rate(seconds, seed)
    return figures


if __name__ == "__main__":
    tree, seconds, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    print(json.dumps(measure(tree, seconds, seed)))
