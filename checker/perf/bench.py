"""Engine benchmarks: throughput of tricks, follows and classifications, and worst cases."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from checker.engine.cards import Card
from checker.engine.order import Context
from checker.engine.ruleset import load_ruleset
from checker.engine.structure import forget_answers
from checker.play.bots.v2 import V2Bot
from checker.play.players import FOLLOW, LEAD, PlayerView
from checker.play.round import play_round
from checker.suite.runner import run_suite

from .bench_driver import (
    THROW_FOLLOW_SIZES,
    THROW_SIZES,
    median_ms,
    per_case_ms,
    rate,
    round_rate,
    throw_stands_ms,
    workloads,
)

# Every figure: key, label as printed, and whether a higher value is better.
FIGURES: list[tuple[str, str, bool]] = [
    ("trick_resolutions_per_s", "trick resolutions/s", True),
    ("trick_resolutions_cold_per_s", "cold trick resolutions/s", True),
    ("hand_trick_resolutions_per_s", "tricks with hands/s", True),
    ("hand_trick_resolutions_cold_per_s", "cold tricks with hands/s", True),
    ("single_trick_resolutions_per_s", "single-card tricks/s", True),
    ("follow_judgements_per_s", "follow judgements/s", True),
    ("follow_judgements_cold_per_s", "cold follow judgements/s", True),
    ("big_hand_follows_per_s", "follows, 33-card hand/s", True),
    ("big_hand_follows_cold_per_s", "cold follows, 33-card hand/s", True),
    *(
        (f"throw{n}_checks{cold}_per_s", f"{word}throw checks, {n} cards/s", True)
        for n in THROW_SIZES
        for cold, word in (("", ""), ("_cold", "cold "))
    ),
    *(
        (f"throw{n}_follows{cold}_per_s", f"{word}follows, {n}-card throw/s", True)
        for n in THROW_FOLLOW_SIZES
        for cold, word in (("", ""), ("_cold", "cold "))
    ),
    ("classifications_per_s", "classifications/s", True),
    ("rounds_per_s", "whole random rounds/s", True),
    ("rounds_quiet_per_s", "rounds/s, simulate without --log", True),
    ("worst_follow_judge_ms", "worst follow judge (ms)", False),
    ("worst_follow_judge_cold_ms", "worst follow judge, cold (ms)", False),
    ("worst_follow_forced_ms", "worst follow forced (ms)", False),
    ("worst_follow_forced_cold_ms", "worst follow forced, cold (ms)", False),
    ("worst_follow_example_ms", "worst follow example (ms)", False),
    ("worst_follow_example_cold_ms", "worst follow example, cold (ms)", False),
    ("worst_throw_check_ms", "worst throw check (ms)", False),
    ("worst_throw_check_cold_ms", "worst throw check, cold (ms)", False),
    ("throw_stands_ms", "throw that stands (ms)", False),
    ("throw_stands_cold_ms", "throw that stands, cold (ms)", False),
    ("suite_seconds", "case suite (s)", False),
    ("suite_ms_per_case", "case suite (ms/case)", False),
]


def forget(ctx: Context) -> None:
    """Clear a context's memos (classified plays, hands seen), so that a batch starts cold."""
    for memo in ("classified", "hands"):
        getattr(ctx, memo, {}).clear()


def forget_all(ctx: Context) -> None:
    """Clear a context's memos and the engine's memoised structure answers (a first search)."""
    forget(ctx)
    forget_answers()


class _Recorder(V2Bot):
    """A v2 bot that keeps the lead and follow views it decides on with a full hand."""

    def __init__(self, rng: random.Random, views: list[PlayerView]) -> None:
        super().__init__(rng)
        self.views = views

    def cards(self, view: PlayerView) -> list[Card]:
        if view.phase in (LEAD, FOLLOW) and len(view.hand) >= 24:
            self.views.append(view)
        return super().cards(view)


def _v2_decision_ms(seed: int, rounds: int = 20) -> float:
    """Median time of one v2 lead or follow decision on a 24-25-card hand (first tricks)."""
    rs = load_ruleset("classic")
    views: list[PlayerView] = []
    for i in range(rounds):
        bots = [_Recorder(random.Random(seed + i * 4 + s), views) for s in range(rs.players)]
        play_round(rs, seed + i, bots, referee=False)
    times = []
    for view in views:
        bot = V2Bot(random.Random(0))
        t = time.perf_counter()
        bot.decide(view)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def run_bench(seconds: float = 1.0, seed: int = 1) -> dict[str, Any]:
    """Measure the engine and return the figures (rates per second, medians in ms)."""
    ctx, rates, worst_cases = workloads(seed)
    figures = {key: rate(batch, seconds) for key, batch in rates.items()}
    # Worst cases: a 33-card hand following a 10-card throw; a throw against three 25-card hands.
    worst: dict[str, float] = {}
    for name, judge in worst_cases.items():
        worst[f"{name}_ms"] = median_ms(judge)
        worst[f"{name}_cold_ms"] = median_ms(judge, before=lambda: forget_all(ctx))
    worst["throw_stands_ms"] = throw_stands_ms(seed)
    worst["throw_stands_cold_ms"] = throw_stands_ms(seed, cold=True)
    start = time.perf_counter()
    report = run_suite()
    suite_seconds = time.perf_counter() - start
    return {
        **figures,
        "rounds_per_s": round_rate(seconds, seed),
        "rounds_quiet_per_s": round_rate(seconds, seed, log=False),
        **worst,
        "v2_decision_ms": _v2_decision_ms(seed),
        "suite_seconds": suite_seconds,
        "suite_ms_per_case": per_case_ms(suite_seconds, report.total),
        "suite_cases": report.total,
        "suite_passed": report.passed,
    }
