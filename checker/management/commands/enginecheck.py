"""python manage.py enginecheck: write (or compare) the engine's equality-check JSON.

`--out FILE` writes every case-suite result and a seeded set of random judgements (verdicts
and explanations, zh and en), one canonical JSON record a line; `--compare BEFORE` then checks
the new file against an earlier one, line for line, and fails on the first differences.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from checker.perf.enginecheck import DEFAULT_JUDGEMENTS, compare_checks, write_check


class Command(BaseCommand):
    help = "Write the engine's verdicts and explanations as canonical JSON; compare two such files."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", required=True, metavar="FILE", help="the file to write")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--judgements",
            type=int,
            default=DEFAULT_JUDGEMENTS,
            metavar="N",
            help=f"random judgements at least (default {DEFAULT_JUDGEMENTS:,})",
        )
        parser.add_argument("--no-suite", action="store_true", help="leave the case suite out")
        parser.add_argument(
            "--compare", metavar="BEFORE", help="an earlier file: exit 1 unless both are identical"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["judgements"] < 0:
            raise CommandError(f"--judgements must be 0 or more, not {opts['judgements']}")
        before = Path(opts["compare"]) if opts["compare"] else None
        if before is not None and not before.is_file():
            raise CommandError(f"--compare: no such file: {before}")
        out = Path(opts["out"])
        start = time.process_time()
        records = write_check(
            out, seed=opts["seed"], judgements=opts["judgements"], suite=not opts["no_suite"]
        )
        spent = time.process_time() - start
        self.stdout.write(f"{records:,} records written to {out} ({spent:.1f} s CPU)")
        if before is None:
            return
        differences = compare_checks(before, out)
        if not differences:
            self.stdout.write(f"identical to {before}")
            return
        for d in differences:
            self.stdout.write(f"line {d.line} differs:\n- {d.before[:2000]}\n+ {d.after[:2000]}")
        self.stdout.write(f"{out} differs from {before}")
        sys.exit(1)
