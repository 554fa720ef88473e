"""Measure bot v3's decision time (issue 28): the first lead of classic rounds, a 25-card hand,
at a given search budget, with the median and the 95th percentile over the positions.

    python -m checker.perf.searchbench [--positions 20] [--budget 500] [--seed 1] [--format json]

Each position is a round dealt and played by v2 up to the banker's first lead; v3 then decides
that lead once, timed. It measures and prints; it judges nothing. Wall time (`median_ms`, `p95_ms`) is what a player
waits on an idle machine; on a shared, busy one read the CPU time (`cpu_median_ms`, `cpu_p95_ms`).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from checker.engine.ruleset import load_ruleset
from checker.play.bots.registry import make_players
from checker.play.bots.search import V3Bot, current_budget, read_budget
from checker.play.players import LEAD, PlayerView
from checker.play.round import round_setup
from checker.play.state import RoundState


def first_lead(ruleset: str, seed: int) -> PlayerView:
    """Deal a round and let v2 play it up to the first lead; return the leader's view."""
    rs = load_ruleset(ruleset)
    players = make_players("v2", seed, rs.players)
    state = RoundState(rs, seed, round_setup(rs, seed), record=False)
    while state.turn is not None and state.turn.phase != LEAD:
        seat, phase = state.turn
        view = state.view(seat)
        state.apply(players[seat].choose(view), replace_illegal=True)
    assert state.turn is not None
    return state.view(state.turn.seat)


def measure(ruleset: str, positions: int, budget: float, seed: int) -> dict[str, Any]:
    """Time v3's decision at the first lead of `positions` rounds; return the figures."""
    times: list[float] = []
    cpu: list[float] = []
    cards: list[int] = []
    for k in range(positions):
        view = first_lead(ruleset, seed + k)
        bot = V3Bot(random.Random(seed + k), budget)
        start, start_cpu = time.perf_counter(), time.process_time()
        bot.decide(view)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        cards.append(len(view.hand))
    return {
        "ruleset": ruleset,
        "budget_ms": budget,
        "positions": positions,
        "hand_cards": sorted(set(cards)),
        "median_ms": round(statistics.median(times), 1),
        "p95_ms": _p95(times),
        "max_ms": round(max(times), 1),
        "cpu_median_ms": round(statistics.median(cpu), 1),
        "cpu_p95_ms": _p95(cpu),
    }


def _p95(values: list[float]) -> float:
    """Return the 95th percentile (nearest rank) of the values, rounded to 0.1."""
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))], 1)


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--budget", type=read_budget, default=None, metavar="MS")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--format", choices=["table", "json"], default="table")
    args = parser.parse_args(argv)
    budget = args.budget if args.budget is not None else current_budget()
    figures = measure(args.ruleset, max(1, args.positions), budget, args.seed)
    if args.format == "json":
        print(json.dumps(figures))
        return
    for name, value in figures.items():
        print(f"{name:<12} {value}")


if __name__ == "__main__":
    main()
