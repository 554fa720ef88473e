"""Run a long duel deal by deal into a JSON-lines file that a later run resumes (issue 28).

    python -m checker.perf.duelrun OUT.jsonl --ruleset classic --bots v3 v2 \
        --deals 500 --seed 1 --budget 100 [--report]

The deals are exactly those of `manage.py duel` with the same seed (the same seed sequence, one
deal per line as it finishes), so a run stopped halfway goes on where it stopped, and two
processes can share a duel by each taking every other deal (`--part 0/2`, `--part 1/2`, each
into its own file). `--report` adds up one or more files into `duel`'s JSON report.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from checker.engine.ruleset import load_ruleset
from checker.play.bots.search import set_budget
from checker.play.duel import BotRound, DealResult, DuelSummary, play_deal
from checker.play.simulation import round_seeds


def _load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _deal(row: dict[str, Any]) -> DealResult:
    rounds = tuple((BotRound(**a), BotRound(**b)) for a, b in row["rounds"])
    return DealResult(row["deal"], row["seed"], row["illegal"], rounds)


def play(args: argparse.Namespace) -> None:
    """Play the deals of this part not yet in the file, appending one line per deal."""
    if args.budget is not None:
        set_budget(args.budget)
    out = Path(args.files[0])
    done = {row["deal"] for row in _load(out)}
    index, parts = (int(x) for x in args.part.split("/"))
    bot_a, bot_b = args.bots
    with out.open("a") as fh:
        for deal, seed in enumerate(round_seeds(args.seed, args.deals)):
            if deal % parts != index or deal in done:
                continue
            start = time.process_time()
            res = play_deal((args.ruleset, bot_a, bot_b, deal, seed))
            row = asdict(res) | {"cpu_s": round(time.process_time() - start, 3)}
            fh.write(json.dumps(row) + "\n")
            fh.flush()


def report(args: argparse.Namespace) -> dict[str, Any]:
    """Add the files' deals up into duel's report, with the CPU time per deal."""
    rows = [row for name in args.files for row in _load(Path(name))]
    rows.sort(key=lambda row: row["deal"])
    summary = DuelSummary(
        args.ruleset, tuple(args.bots), args.seed, chips=load_ruleset(args.ruleset).settles_by_bid
    )
    for row in rows:
        summary.add(_deal(row))
    cpu = sorted(row["cpu_s"] for row in rows)
    data = summary.as_dict()
    del data["elapsed_s"]
    data["budget_ms"] = args.budget
    data["cpu_s_per_deal"] = {
        "mean": round(sum(cpu) / len(cpu), 2) if cpu else 0.0,
        "max": cpu[-1] if cpu else 0.0,
    }
    return data


def duel_parser(description: str) -> argparse.ArgumentParser:
    """Make a parser of a duel's files and terms (ruleset, bots, deals, seed, budget)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--bots", nargs=2, required=True)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float)
    return parser


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """Read the command line."""
    parser = duel_parser(__doc__.splitlines()[0])
    parser.add_argument("--part", default="0/1")
    parser.add_argument("--report", action="store_true")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Play or report, as asked on the command line."""
    args = parse(argv)
    if args.report:
        json.dump(report(args), sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        play(args)


if __name__ == "__main__":
    main()
