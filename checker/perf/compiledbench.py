"""Compare the compiled engine with the pure-Python one, row by row, on this machine.

Usage: python -m checker.perf.compiledbench [--seconds S] [--batches N] [--seed S] [--format json]

`bench --against REV` compares two revisions; a compiled build is the same revision, so here the
"pure" side is a copy of this tree without the extension files (in a temporary folder, removed
afterwards) and the "compiled" side is this tree with them (`make compiled` first). Both sides
are `bench_driver.py --serve` processes fed the same small batches in turn, per workload one
of each side back to back (as `bench --against`'s finer pass): every figure in CPU time, the
ratio per row the median of the paired batches' ratios (above 1: the compiled build is faster).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .bench_against import RATES, ROUND_FIGURES, WORST_FIGURES, interleave
from .compiled import ROOT, built_files, stale

# Left out of the pure copy: the build's files, and what the benchmark never reads.
SKIPPED = ("*.so", "build", ".git", ".venv", ".mypy_cache", ".ruff_cache", ".pytest_cache")


@contextmanager
def pure_tree() -> Iterator[Path]:
    """Copy this tree without the compiled build into a temporary folder, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="compiledbench-"))
    try:
        shutil.copytree(ROOT, folder / "tree", ignore=shutil.ignore_patterns(*SKIPPED))
        yield folder / "tree"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def ratios(batches: dict[str, dict[str, list[float]]]) -> dict[str, dict[str, Any]]:
    """Per figure: both sides' medians and the median ratio of paired batches (compiled faster
    above 1: rates compiled / pure, times in ms pure / compiled)."""
    out: dict[str, dict[str, Any]] = {}
    for key, pure in batches["pure"].items():
        compiled = batches["compiled"][key]
        higher = key not in WORST_FIGURES
        pairs = [(p, c) for p, c in zip(pure, compiled, strict=True) if p > 0 and c > 0]
        out[key] = {
            "pure": statistics.median(pure),
            "compiled": statistics.median(compiled),
            "ratio": statistics.median(c / p if higher else p / c for p, c in pairs)
            if pairs
            else None,
            "higher_is_better": higher,
        }
    return out


def measure(seconds: float, seed: int, batches: int) -> dict[str, dict[str, Any]]:
    """Time every `bench --against` workload on both builds in interleaved batches."""
    with pure_tree() as pure:
        timed = interleave({"pure": pure, "compiled": ROOT}, seconds, seed, batches)
    return ratios(timed)


def main(argv: list[str] | None = None) -> int:
    """Measure and print the ratios (a table, or JSON with `--format json`)."""
    parser = argparse.ArgumentParser(prog="python -m checker.perf.compiledbench")
    parser.add_argument("--seconds", type=float, default=1.0, help="scale of each batch")
    parser.add_argument("--batches", type=int, default=12, help="batches per side and workload")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--format", choices=("table", "json"), default="table")
    args = parser.parse_args(argv)
    if not built_files() or stale():
        print("no fresh compiled build: run `make compiled` first", file=sys.stderr)
        return 2
    rows = measure(args.seconds, args.seed, args.batches)
    if args.format == "json":
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'figure':36} {'pure':>12} {'compiled':>12} {'ratio':>7}")
    for key in (*RATES, *ROUND_FIGURES, *WORST_FIGURES):
        row = rows[key]
        ratio = "" if row["ratio"] is None else f"{row['ratio']:.2f}"
        print(f"{key:36} {row['pure']:12.4g} {row['compiled']:12.4g} {ratio:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
