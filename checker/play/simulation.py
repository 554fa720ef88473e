"""Batches of simulated rounds: seeds, parallel runs, the summary figures and the JSON-lines
replay log they write (read back by checker.play.replay)."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from checker.engine.ruleset import load_ruleset

from .players import make_players
from .round import play_round

# The replay log (simulate --log FILE) is JSON lines, one event per line. The first line is
#   {"t":"header","format":1,"ruleset","players","rounds","seed","engine"}
# and every other line carries "r" (the round's index) and "t", in play order:
#   round    seed, level, attacker_level, banker (null: first round, the declarer is banker)
#   deal     redeal (0, 1, … when nobody declared), first (seat dealt first), hands, kitty
#   declare  seat, at (cards dealt so far), cards, accepted, trump, reason
#   flip     card, trump                       (nobody declared, rulesets with a flip)
#   bid      seat, bid (number or "pass"), legal          (rulesets with bidding)
#   surrender seat, bid                        (the banker gave up at the surrender bid)
#   trump    trump, declarer, banker, by (declare / flip / bid)
#   bury     seat, cards, legal
#   play     trick, seat, role (lead / follow), cards (what was played), legal, and when the
#            choice was replaced: tried (what the player chose), reason; a lead that was a
#            throw has throw ("ok" / "failed") and, when failed, tried and penalty
#   trick    trick, leader, winner (seat), points, attackers (attackers' points so far)
#   end      attackers_points, kitty, kitty_points, kitty_bonus, multiplier, result, winner,
#            rise, next_level, chips, bonus, breaks (broken invariants)
# Cards are written as the case files write them (♠A, 大王), so parse_cards reads them back.
LOG_FORMAT = 1
Event = dict[str, Any]
# (ruleset, player kind, round index, round seed[, ruleset options as sorted (name, value) pairs])
Job = tuple[Any, ...]


def round_seeds(seed: int, rounds: int) -> list[int]:
    """Derive the seed of every round of a run from the run's seed."""
    master = random.Random(seed)
    return [master.getrandbits(48) for _ in range(rounds)]


def run_job(job: Job) -> tuple[dict[str, Any], list[str]]:
    """Play one round of a run and return its figures and its log lines (JSON)."""
    name, kind, index, seed = job[:4]
    rs = load_ruleset(name).with_options(dict(job[4]) if len(job) > 4 else None)
    res = play_round(rs, seed, make_players(kind, seed, rs.players))
    lines = [_dump({"r": index, **e}) for e in res.events]
    return res.figures(), lines


def _dump(event: Event) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def header(
    ruleset: str,
    players: str,
    rounds: int,
    seed: int,
    engine: str,
    options: Mapping[str, Any] | None = None,
) -> str:
    """Write the first line of a replay log: what was run, with which engine."""
    head: dict[str, Any] = {
        "t": "header",
        "format": LOG_FORMAT,
        "ruleset": ruleset,
        "players": players,
        "rounds": rounds,
        "seed": seed,
        "engine": engine,
    }
    if options:
        head["options"] = dict(options)
    return _dump(head)


def run_rounds(
    ruleset: str,
    players: str,
    rounds: int,
    seed: int,
    jobs: int = 1,
    options: Mapping[str, Any] | None = None,
) -> Iterator[tuple[dict[str, Any], list[str]]]:
    """Play a run's rounds in order (over several processes when jobs > 1) and yield each."""
    load_ruleset(ruleset).with_options(options)
    make_players(players, 0, 1)
    extra = (tuple(sorted(options.items())),) if options else ()
    work = [(ruleset, players, i, s, *extra) for i, s in enumerate(round_seeds(seed, rounds))]
    if jobs <= 1 or rounds < 2:
        for job in work:
            yield run_job(job)
        return
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs) as pool:
        chunk = max(1, min(20, rounds // (jobs * 8)))
        yield from pool.imap(run_job, work, chunksize=chunk)


@dataclass
class Summary:
    """Figures of a run, added up round by round."""

    ruleset: str
    players: str
    seed: int
    rounds: int = 0
    tricks: int = 0
    illegal_plays: int = 0
    throws_tried: int = 0
    throws_failed: int = 0
    redeals: int = 0
    points: int = 0
    kitty_rounds: int = 0
    invariant_breaks: int = 0
    chips: int = 0
    bonus: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    winners: Counter[str] = field(default_factory=Counter)
    trump_by: Counter[str] = field(default_factory=Counter)
    points_hist: Counter[int] = field(default_factory=Counter)
    break_examples: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    cpu: float = 0.0

    def add(self, index: int, figures: dict[str, Any]) -> None:
        """Add one round's figures."""
        self.rounds += 1
        self.tricks += figures["tricks"]
        self.illegal_plays += figures["illegal"]
        self.throws_tried += figures["throws_tried"]
        self.throws_failed += figures["throws_failed"]
        self.redeals += figures["redeals"]
        self.points += figures["attackers_points"]
        self.kitty_rounds += 1 if figures["kitty_bonus"] else 0
        self.chips += figures.get("chips") or 0
        self.bonus += sum(figures.get("bonus") or [])
        self.outcomes[figures["result"]] += 1
        self.winners[figures["winner"]] += 1
        self.trump_by[figures.get("trump_by", "declare")] += 1
        self.points_hist[min(figures["attackers_points"] // 40, 5) * 40] += 1
        breaks = figures["breaks"]
        self.invariant_breaks += len(breaks)
        for b in breaks:
            if len(self.break_examples) < 10:
                self.break_examples.append(f"round {index} (seed {figures['seed']}): {b}")

    def as_dict(self) -> dict[str, Any]:
        """Return the figures as plain JSON-ready data."""
        rate = self.rounds / self.elapsed if self.elapsed > 0 else 0.0
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "seed": self.seed,
            "rounds": self.rounds,
            "tricks": self.tricks,
            "illegal_plays": self.illegal_plays,
            "throws_tried": self.throws_tried,
            "throws_failed": self.throws_failed,
            "redeals": self.redeals,
            "avg_attacker_points": round(self.points / self.rounds, 2) if self.rounds else 0.0,
            "kitty_bonus_rounds": self.kitty_rounds,
            "outcomes": dict(sorted(self.outcomes.items())),
            "winners": dict(sorted(self.winners.items())),
            "trump_by": dict(sorted(self.trump_by.items())),
            "points_histogram": {str(k): v for k, v in sorted(self.points_hist.items())},
            "chips": self.chips,
            "bonus": self.bonus,
            "invariant_breaks": self.invariant_breaks,
            "break_examples": list(self.break_examples),
            "elapsed_s": round(self.elapsed, 3),
            "rounds_per_s": round(rate, 1),
            "cpu_s": round(self.cpu, 3),
            "rounds_per_cpu_s": round(self.rounds / self.cpu, 1) if self.cpu > 0 else 0.0,
        }


def simulate(
    ruleset: str,
    players: str,
    rounds: int,
    seed: int,
    jobs: int = 1,
    on_round: Callable[[int, list[str]], None] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Summary:
    """Run a whole simulation and return its summary; on_round gets each round's log lines."""
    summary = Summary(ruleset, players, seed)
    start = time.perf_counter()
    cpu = _cpu()
    runs = run_rounds(ruleset, players, rounds, seed, jobs, options)
    for index, (figures, lines) in enumerate(runs):
        summary.add(index, figures)
        if on_round is not None:
            on_round(index, lines)
    summary.elapsed = time.perf_counter() - start
    summary.cpu = _cpu() - cpu
    return summary


def _cpu() -> float:
    """CPU seconds used by this process and its finished children (the worker processes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
