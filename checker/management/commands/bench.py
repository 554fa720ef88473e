"""python manage.py bench: print the engine's speed figures (a benchmark, not a test).

`--format json` prints the figures as JSON; `--against REV` runs REV's benchmark and the
current tree's side by side (interleaved, CPU time) and prints both with the speedup.
`--profile WORKLOAD` profiles one workload (cold) instead, with `--against REV` REV's too.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from checker.management.stopping import stoppable
from checker.perf.bench import FIGURES, run_bench
from checker.perf.bench_against import (
    AGAINST_FIGURES,
    BATCHED,
    GROUPS,
    MIN_REPEATS,
    BenchError,
    Comparison,
    checkout,
    compare,
    profile_side,
)
from checker.perf.bench_driver import PROFILES, THROW_FOLLOW_SIZES, THROW_SIZES
from checker.perf.bench_multideck import run_multideck_bench


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 < value <= 60:
        raise ValueError(text)
    return value


class Command(BaseCommand):
    help = "Measure trick, follow, classification and round throughput and worst-case judgements."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--seconds", type=_seconds, default=1.0, help="time per throughput figure"
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--format", choices=["text", "json"], default="text")
        parser.add_argument(
            "--against",
            metavar="REV",
            help="also run REV's benchmark (a temporary git worktree) and compare",
        )
        parser.add_argument(
            "--repeats",
            type=int,
            default=MIN_REPEATS,
            metavar="N",
            help=f"runs per side with --against (at least {MIN_REPEATS})",
        )
        parser.add_argument(
            "--profile",
            choices=sorted(PROFILES),
            help="profile one workload, memos cleared (cProfile; with --against, REV's too)",
        )
        parser.add_argument(
            "--only",
            action="append",
            choices=[*GROUPS, *BATCHED],
            metavar="FIGURE",
            help="with --against: time only this figure's batches, no whole runs (repeatable; "
            f"a figure key of --format json, or {', '.join(GROUPS)})",
        )
        parser.add_argument(
            "--top", type=int, default=12, metavar="N", help="entries per profile (--profile)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        with stoppable(
            "bench",
            sys.stderr,
            lambda: "nothing kept (a benchmark prints its figures once every workload is measured)",
        ):
            self._handle(*args, **opts)

    def _handle(self, *args: Any, **opts: Any) -> None:
        if opts["profile"]:
            self._profile(opts)
            return
        if opts["against"]:
            self._against(opts)
            return
        if opts["only"]:
            raise CommandError("--only times batches side by side: give --against REV too")
        f = run_bench(opts["seconds"], opts["seed"])
        if opts["format"] == "json":
            self.stdout.write(json.dumps(f, indent=2))
            return
        lines = [
            f"trick resolutions/s      {f['trick_resolutions_per_s']:>12,.0f}   (target ≥ 30,000)",
            f"  same, memos cleared    {f['trick_resolutions_cold_per_s']:>12,.0f}   (every play classified afresh)",
            f"follow judgements/s      {f['follow_judgements_per_s']:>12,.0f}   (target ≥ 90,000)",
            f"  same, memos cleared    {f['follow_judgements_cold_per_s']:>12,.0f}",
            f"single-card tricks/s     {f['single_trick_resolutions_per_s']:>12,.0f}   (4 plays, one card each)",
            f"follows, 33-card hand/s  {f['big_hand_follows_per_s']:>12,.0f}"
            f"; cold {f['big_hand_follows_cold_per_s']:,.0f}",
            *(
                f"throw checks, {n:>2} cards/s {f[f'throw{n}_checks_per_s']:>11,.0f}"
                f"; cold {f[f'throw{n}_checks_cold_per_s']:,.0f}"
                f"{' (three 25-card hands, half stand)' if n == THROW_SIZES[0] else ''}"
                for n in THROW_SIZES
            ),
            *(
                f"follows, {n:>2}-card throw/s {f[f'throw{n}_follows_per_s']:>10,.0f}"
                f"; cold {f[f'throw{n}_follows_cold_per_s']:,.0f}"
                f"{f' (25-card hands, {n}-{n + 6} of the suit)' if n == THROW_FOLLOW_SIZES[0] else ''}"
                for n in THROW_FOLLOW_SIZES
            ),
            f"classifications/s        {f['classifications_per_s']:>12,.0f}",
            f"whole random rounds/s    {f['rounds_per_s']:>12,.1f}   (classic, random players)",
            f"  same, without the log  {f['rounds_quiet_per_s']:>12,.1f}   (simulate without --log)",
            f"worst follow judge       {f['worst_follow_judge_ms']:>12.3f} ms (33-card hand, 10-card throw)"
            f"; cold {f['worst_follow_judge_cold_ms']:.3f} ms",
            f"worst follow forced      {f['worst_follow_forced_ms']:>12.3f} ms"
            f"; cold {f['worst_follow_forced_cold_ms']:.3f} ms",
            f"worst follow example     {f['worst_follow_example_ms']:>12.3f} ms"
            f"; cold {f['worst_follow_example_cold_ms']:.3f} ms",
            f"worst throw check        {f['worst_throw_check_ms']:>12.3f} ms (three 25-card hands)"
            f"; cold {f['worst_throw_check_cold_ms']:.3f} ms",
            f"throw that stands        {f['throw_stands_ms']:>12.3f} ms (9 cards, three 25-card hands)"
            f"; cold {f['throw_stands_cold_ms']:.3f} ms",
            f"v2 bot decision         {f['v2_decision_ms']:>12.3f} ms median (25-card hand; target < 2 ms)",
            f"case suite wall time     {f['suite_seconds']:>12.3f} s  "
            f"({f['suite_passed']}/{f['suite_cases']} passed; target < 2 s)",
            f"  per case               {f['suite_ms_per_case']:>12.3f} ms",
        ]
        for m in run_multideck_bench():
            lines.append(
                f"multideck follow judge   {m['judge_ms']:>12.3f} ms ({m['name']}; target < 2 ms)"
            )
            lines.append(
                f"  forced {m['forced_ms']:.3f} ms, example {m['example_ms']:.3f} ms"
                f"  ({m['hand']}-card hand, {m['lead']}-card lead)"
            )
        self.stdout.write("\n".join(lines))

    def _profile(self, opts: dict[str, Any]) -> None:
        base = Path(settings.BASE_DIR)
        workload, top = opts["profile"], max(1, min(opts["top"], 200))
        try:
            sides = []
            if opts["against"]:
                with checkout(base, opts["against"]) as (tree, commit):
                    sides.append(
                        (f"{opts['against']} ({commit[:12]})", profile_side(tree, workload, top))
                    )
            sides.append(("current", profile_side(base, workload, top)))
        except BenchError as exc:
            raise CommandError(str(exc)) from exc
        if opts["format"] == "json":
            self.stdout.write(json.dumps({side: p for side, p in sides}, indent=2))
            return
        lines = []
        for side, p in sides:
            lines.append(
                f"profile of {workload} ({p['what']}), {side}: "
                f"{p['total_s']:.3f} s under cProfile, {p['calls']:,} calls; by own time"
            )
            lines.append(f"{'calls':>10} {'own s':>8} {'cum s':>8}  function")
            for e in p["top"]:
                lines.append(
                    f"{e['calls']:>10,} {e['own_s']:>8.3f} {e['cumulative_s']:>8.3f}  {e['function']}"
                )
            lines.append("")
        self.stdout.write("\n".join(lines).rstrip())

    def _against(self, opts: dict[str, Any]) -> None:
        base = Path(settings.BASE_DIR)
        only = [key for name in opts["only"] or () for key in GROUPS.get(name, (name,))]
        try:
            result = compare(
                base,
                base,
                opts["against"],
                repeats=opts["repeats"],
                seconds=opts["seconds"],
                seed=opts["seed"],
                progress=lambda text: self.stderr.write(text),
                only=only,
            )
        except BenchError as exc:
            raise CommandError(str(exc)) from exc
        if opts["format"] == "json":
            self.stdout.write(json.dumps(result.as_json(FIGURES + AGAINST_FIGURES), indent=2))
            return
        self.stdout.write(_table(result))


def _table(result: Comparison) -> str:
    """Lay out both sides' medians and the speedup, one figure a line."""
    rev = result.rev if len(result.rev) <= 12 else result.commit[:12]
    runs = f"{result.repeats} runs per side" if result.runs["current"] else "batches only"
    lines = [
        f"bench --against {result.rev} ({result.commit[:12]}): {runs}, "
        "interleaved, CPU time; medians; speedup > 1 means the current tree is faster",
        f"{'figure':<33}{rev:>14}{'current':>14}{'speedup':>10}",
    ]
    for key, label, higher in FIGURES + AGAINST_FIGURES:
        old, new = result.median("rev", key), result.median("current", key)
        if old is None and new is None:
            continue  # not measured (--only)
        ratio = result.speedup(key, higher)
        lines.append(
            f"{label:<33}{_num(old):>14}{_num(new):>14}"
            f"{(f'{ratio:.2f}×' if ratio is not None else '—'):>10}"
        )
    cases = [result.median(side, "suite_cases") for side in ("rev", "current")]
    if cases != [None, None]:
        lines.append(f"{'case suite size':<33}{_num(cases[0]):>14}{_num(cases[1]):>14}")
    total, passed = (
        [result.median(side, key) for side in ("rev", "current")]
        for key in ("rev_cases_total", "rev_cases_passed")
    )
    if total[0] is not None:
        lines.append(
            f"REV's case files: the {_count(total[0])} cases of {rev}'s cases/ run by each side "
            f"(passed: {rev} {_count(passed[0])}, current {_count(passed[1])})"
        )
    shown = [label for key, label, _ in FIGURES if key in result.batches.get("current", {})]
    if shown:
        count = len(result.batches["current"][next(iter(result.batches["current"]))])
        lines.append(
            f"{len(shown)} figures (all but the case suite's): medians of {count} batches a "
            f"side, each batch beside the other side's"
            f"{f' (not of the {result.repeats} runs)' if result.runs['current'] else ''}; "
            "speedup: the median of the paired batches' ratios"
        )
    return "\n".join(lines)


def _count(value: float | None) -> str:
    return "—" if value is None else f"{int(value):,}"


def _num(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:,.0f}" if value >= 100 else f"{value:.3f}"
