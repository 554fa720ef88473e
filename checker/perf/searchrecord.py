"""Record bot v3's choices to JSON, so two trees can be compared decision by decision (issue 28:
making v3 faster must change no choice and no word).

    python -m checker.perf.searchrecord OUT.json [--rulesets classic shuangsheng erqiwang multideck]
        [--rounds 1] [--budget 50] [--leads 10] [--lead-budget 400] [--seed 1]

Two kinds of positions: whole rounds with v3 at every seat (every lead, follow and burial it
decides, its kitty memory included), and the first lead of `--leads` classic rounds at the
table's budget (`searchbench`'s positions). Each decision is stored with its cards, rule, both
explanations and the mean value of every play it tried (read by wrapping `search._searched`),
so the same file from two trees means the same playouts. It measures and records; it judges
nothing: compare two files with `cmp` or `diff`.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from typing import Any

from checker.engine.cards import Card
from checker.engine.ruleset import load_ruleset
from checker.engine.texts import cards_text
from checker.play.bots import search
from checker.play.bots.search import V3Bot
from checker.play.moves import Move
from checker.play.players import BURY, FOLLOW, LEAD, Decision, PlayerView
from checker.play.round import declare_asks, round_setup
from checker.play.state import RoundState

from .searchbench import first_lead


def _entry(where: dict[str, Any], view: PlayerView, decision: Decision) -> dict[str, Any]:
    """Turn one decision into a JSON record naming where it was made."""
    return {
        **where,
        "seat": view.seat,
        "phase": view.phase,
        "cards": cards_text(decision.cards, "en"),
        "rule": decision.rule,
        "zh": decision.explanation_for("zh"),
        "en": decision.explanation_for("en"),
    }


def record_round(ruleset: str, seed: int, budget: float, out: list[dict[str, Any]]) -> None:
    """Play one round with v3 at every seat, appending each card decision it makes to `out`."""
    rs = load_ruleset(ruleset)
    bots = [V3Bot(random.Random(seed * 16 + s + 1), budget) for s in range(rs.players)]
    state = RoundState(rs, seed, round_setup(rs, seed), asks=declare_asks(bots), record=False)
    ply = 0
    while state.turn is not None:
        seat, phase = state.turn
        view = state.view(seat)
        if phase in (LEAD, FOLLOW, BURY):
            decision = bots[seat].decide(view)
            out.append(_entry({"ruleset": ruleset, "seed": seed, "ply": ply}, view, decision))
            state.apply(Move("cards", decision.cards), replace_illegal=True)
        else:
            state.apply(bots[seat].choose(view), replace_illegal=True)
        ply += 1


def record(
    rulesets: Sequence[str], rounds: int, budget: float, leads: int, lead_budget: float, seed: int
) -> list[dict[str, Any]]:
    """Record v3's decisions on the positions the arguments name, with every play's mean value."""
    out: list[dict[str, Any]] = []
    means: list[list[float]] = []
    searched = search._searched

    def keep(
        plays: Sequence[Sequence[Card]],
        values: Sequence[Sequence[float]],
        careless: frozenset[int] = frozenset(),
    ) -> Decision:
        means.append([sum(v) / len(v) for v in values])
        return searched(plays, values, careless)

    search._searched = keep
    try:
        for name in rulesets:
            for k in range(rounds):
                record_round(name, seed + k, budget, out)
        for k in range(leads):
            view = first_lead("classic", seed + k)
            decision = V3Bot(random.Random(seed + k), lead_budget).decide(view)
            out.append(_entry({"first_lead": seed + k}, view, decision))
    finally:
        search._searched = searched
    return [*out, {"means": means}]


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, record the decisions and write them to the file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out")
    parser.add_argument(
        "--rulesets", nargs="+", default=["classic", "shuangsheng", "erqiwang", "multideck"]
    )
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--budget", type=float, default=50.0)
    parser.add_argument("--leads", type=int, default=10)
    parser.add_argument("--lead-budget", type=float, default=400.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    records = record(
        args.rulesets, args.rounds, args.budget, args.leads, args.lead_budget, args.seed
    )
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(records, f, ensure_ascii=False, indent=1)
    print(f"{len(records) - 1} decisions written to {args.out}")


if __name__ == "__main__":
    main()
