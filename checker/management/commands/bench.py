"""python manage.py bench: print the engine's speed figures (a benchmark, not a test)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from checker.suite.bench import run_bench


class Command(BaseCommand):
    help = "Measure trick, follow and classification throughput and worst-case judgements."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seconds", type=float, default=1.0, help="time per throughput figure")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **opts: Any) -> None:
        f = run_bench(opts["seconds"], opts["seed"])
        lines = [
            f"trick resolutions/s      {f['trick_resolutions_per_s']:>12,.0f}   (target ≥ 30,000)",
            f"follow judgements/s      {f['follow_judgements_per_s']:>12,.0f}   (target ≥ 90,000)",
            f"classifications/s        {f['classifications_per_s']:>12,.0f}",
            f"worst follow judge       {f['worst_follow_judge_ms']:>12.3f} ms (33-card hand, 10-card throw)",
            f"worst follow forced      {f['worst_follow_forced_ms']:>12.3f} ms",
            f"worst follow example     {f['worst_follow_example_ms']:>12.3f} ms",
            f"worst throw check        {f['worst_throw_check_ms']:>12.3f} ms (three 25-card hands)",
            f"v2 bot decision         {f['v2_decision_ms']:>12.3f} ms median (25-card hand; target < 2 ms)",
            f"case suite wall time     {f['suite_seconds']:>12.3f} s  "
            f"({f['suite_passed']}/{f['suite_cases']} passed; target < 2 s)",
        ]
        self.stdout.write("\n".join(lines))
