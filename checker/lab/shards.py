"""A study's work cut into seeded shards, and what one shard adds up.

Shard k of an arm plays rounds (or matches) k·S … k·S+S−1 of the study's seed sequence, the
same deals in every arm; its figures are whole-number sums, so adding shards up in any order,
on any number of workers, gives the same totals.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from checker.engine.house import resolve_ruleset
from checker.play.match import play_match
from checker.play.round import play_round
from checker.play.seats import make_seat_players
from checker.play.simulation import match_seeds, round_seeds

POINTS_BIN = 10  # the width of the attackers' points histogram


@dataclass(frozen=True)
class ShardTask:
    """One shard: which arm, which slice of the seeds, and everything a worker needs to play it."""

    arm: int
    index: int
    ruleset: str | tuple[str, str]
    options: tuple[tuple[str, Any], ...]
    bots: str
    unit: str  # rounds or matches
    seed: int
    start: int
    stop: int


def make_tasks(spec: Any, done: set[tuple[int, int]] = frozenset()) -> list[ShardTask]:  # type: ignore[assignment]
    """List the shards of every arm that are not `done` yet, shard by shard across the arms."""
    tasks = []
    for index in range(spec.shard_count()):
        start = index * spec.shard
        stop = min(spec.size, start + spec.shard)
        for arm, a in enumerate(spec.arms):
            if (arm, index) not in done:
                options = tuple(sorted(a.options.items()))
                tasks.append(
                    ShardTask(
                        arm, index, a.ruleset, options, spec.bots, spec.unit, spec.seed, start, stop
                    )
                )
    return tasks


def empty() -> dict[str, Any]:
    """Return the figures of no rounds at all (the sums a shard's figures add to)."""
    return {
        "rounds": 0,
        "illegal_plays": 0,
        "invariant_breaks": 0,
        "banker_wins": 0,
        "points": 0,
        "points_sq": 0,
        "rise": 0,
        "rise_sq": 0,
        "kitty_bonus": 0,
        "surrender": 0,
        "histogram": {},
        "matches": 0,
        "match_rounds": 0,
        "match_rounds_sq": 0,
    }


def add(total: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """Add one shard's figures to a total (both as `empty` lays them out); return the total."""
    for key, value in part.items():
        if key == "histogram":
            merged = Counter(total["histogram"]) + Counter(value)
            total["histogram"] = {k: merged[k] for k in sorted(merged, key=int)}
        elif isinstance(value, int):
            total[key] = total.get(key, 0) + value
    return total


def _add_round(out: dict[str, Any], figures: dict[str, Any]) -> None:
    points, rise = int(figures["attackers_points"]), int(figures["rise"] or 0)
    out["rounds"] += 1
    out["illegal_plays"] += figures["illegal"]
    out["invariant_breaks"] += len(figures["breaks"])
    out["banker_wins"] += figures["winner"] == "banker"
    out["points"] += points
    out["points_sq"] += points * points
    out["rise"] += rise
    out["rise_sq"] += rise * rise
    out["kitty_bonus"] += bool(figures["kitty_bonus"])
    out["surrender"] += figures["result"] == "surrender"
    key = str(points // POINTS_BIN * POINTS_BIN)
    out["histogram"][key] = out["histogram"].get(key, 0) + 1


def run_shard(task: ShardTask) -> dict[str, Any]:
    """Play one shard and return its figures (whole-number sums, a histogram)."""
    rs = resolve_ruleset(task.ruleset).with_options(dict(task.options) or None)
    out = empty()
    if task.unit == "matches":
        for seed in match_seeds(task.seed, task.stop)[task.start :]:
            result = play_match(rs, seed, task.bots)
            out["matches"] += 1
            out["match_rounds"] += len(result.rounds)
            out["match_rounds_sq"] += len(result.rounds) ** 2
            out["invariant_breaks"] += len(result.breaks)
            for res in result.rounds:
                _add_round(out, res.figures())
    else:
        for seed in round_seeds(task.seed, task.stop)[task.start :]:
            res = play_round(rs, seed, make_seat_players(task.bots, seed, rs.players), record=False)
            _add_round(out, res.figures())
    out["histogram"] = {k: out["histogram"][k] for k in sorted(out["histogram"], key=int)}
    return out
