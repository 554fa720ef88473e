"""Replay rounds of a finished duel with today's tree, to estimate a change's effect (issue 28).

    python -m checker.perf.duelreplay FILE.jsonl [FILE ...] --ruleset classic --bots v3 random \
        --deals 1000 --seed 1 --budget 400 [--every 10] [--sure 2]

A change to the searching bot (another budget, another model of the opponents) is judged by
its win rate over a thousand deals, which costs hours. Replaying only the rounds bot A lost
says little on its own: any change reshuffles the other players' draws, and rounds picked for
bad luck mostly come out won (regression to the mean). So the rounds are taken in two strata:
every round A lost, and the rounds A won on every `--every`-th deal; the lost rounds the
duel would now have are estimated as those still lost plus the won stratum's share of new
losses, with a 95% interval (Wilson) on that share.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checker.engine.ruleset import load_ruleset
from checker.play.bots import search
from checker.play.bots.registry import make_players
from checker.play.bots.search import set_budget
from checker.play.duel import A, generate_seatings, score_round_for
from checker.play.players import Player
from checker.play.round import play_round
from checker.play.simulation import round_seeds

from .duelrun import duel_parser

Z95 = 1.96


@dataclass(frozen=True)
class Estimate:
    """Lost rounds of a duel replayed in two strata, and the estimate drawn from them."""

    rounds: int  # rounds in the duel
    lost: int  # rounds A lost in the duel
    still_lost: int  # of those, lost again
    sampled: int  # won rounds replayed
    newly_lost: int  # of those, now lost

    def share(self) -> tuple[float, float, float]:
        """Return the won rounds' share now lost, with its 95% interval (Wilson)."""
        n, k = self.sampled, self.newly_lost
        if n == 0:
            return 0.0, 0.0, 1.0
        p = k / n
        centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
        return p, max(0.0, centre - half), min(1.0, centre + half)

    def as_dict(self) -> dict[str, Any]:
        """Give the strata and the estimated win rate (with its interval) as plain data."""
        won = self.rounds - self.lost
        p, low, high = self.share()
        losses = [self.still_lost + won * x for x in (p, low, high)]
        return {
            "rounds": self.rounds,
            "lost_before": self.lost,
            "lost_replayed_still_lost": self.still_lost,
            "won_replayed": self.sampled,
            "won_replayed_now_lost": self.newly_lost,
            "estimated_losses": round(losses[0], 1),
            "estimated_win_rate": round(1 - losses[0] / self.rounds, 4),
            "win_rate_95": [
                round(1 - losses[2] / self.rounds, 4),
                round(1 - losses[1] / self.rounds, 4),
            ],
        }


def strata(rows: list[dict[str, Any]], every: int) -> Iterator[tuple[int, int, bool]]:
    """Yield (deal, seating, lost before) for every lost round of A and the won rounds of
    every `every`-th deal."""
    for row in sorted(rows, key=lambda r: r["deal"]):
        for i, (a, _b) in enumerate(row["rounds"]):
            if not a["won"] or row["deal"] % every == 0:
                yield row["deal"], i, not a["won"]


def replay(args: argparse.Namespace) -> Estimate:
    """Replay the two strata of the files' rounds and count the rounds A loses now (v3 held to
    another bar for leaving v2's play while it runs, when `--sure` asks for one)."""
    kept = search.SURE
    if args.sure is not None:
        search.SURE = args.sure
    try:
        return _replay(args)
    finally:
        search.SURE = kept


def _replay(args: argparse.Namespace) -> Estimate:
    if args.budget is not None:
        set_budget(args.budget)
    rows = [
        json.loads(line)
        for name in args.files
        for line in Path(name).read_text().split("\n")
        if line.strip()
    ]
    rs = load_ruleset(args.ruleset)
    seeds = list(round_seeds(args.seed, args.deals))
    counts = {True: [0, 0], False: [0, 0]}  # lost before -> [replayed, lost now]
    for deal, i, lost in strata(rows, args.every):
        seating = generate_seatings(rs, deal)[i]
        pools = [make_players(bot, seeds[deal], rs.players) for bot in args.bots]
        players: list[Player] = [pools[b][seat] for seat, b in enumerate(seating)]
        mine = score_round_for(rs, play_round(rs, seeds[deal], players), seating)[A]
        counts[lost][0] += 1
        counts[lost][1] += not mine.won
    rounds = sum(len(row["rounds"]) for row in rows)
    return Estimate(rounds, counts[True][0], counts[True][1], counts[False][0], counts[False][1])


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """Read the command line."""
    parser = duel_parser(__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument(
        "--sure",
        type=float,
        help="standard errors by which v3 must beat v2's play to leave it (search.SURE)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Replay and print the estimate as JSON."""
    json.dump(replay(parse(argv)).as_dict(), sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
