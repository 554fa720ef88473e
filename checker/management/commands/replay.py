"""python manage.py replay FILE: re-run a simulate log on the current engine and diff it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from checker.play.replay import replay


class Command(BaseCommand):
    help = (
        "Re-run a JSON-lines log written by `simulate --log` on the current engine and list "
        "every difference (exit 1 when there is one)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")
        parser.add_argument(
            "--resimulate",
            action="store_true",
            help="let the players play again from each seed and compare the logs line by line "
            "(default: keep the logged choices and judge each of them again)",
        )
        parser.add_argument("--limit", type=int, default=20, help="differences to print")

    def handle(self, *args: Any, **opts: Any) -> None:
        path = Path(opts["file"])
        if not path.is_file():
            raise CommandError(f"no such log file: {path}")
        with path.open(encoding="utf-8") as fh:
            try:
                report = replay(fh, resimulate=opts["resimulate"])
            except ValueError as exc:
                raise CommandError(f"{path}: {exc}") from exc
        head = report.header
        self.stdout.write(
            f"log        {path}  ({head.get('ruleset')}, players {head.get('players')}, "
            f"seed {head.get('seed')}, engine {head.get('engine')})"
        )
        self.stdout.write(f"mode       {report.mode}")
        self.stdout.write(f"rounds     {report.rounds}   events {report.events}")
        self.stdout.write(f"diffs      {len(report.diffs)}")
        rounds = sorted({d.round for d in report.diffs})
        if rounds:
            shown = ", ".join(str(r) for r in rounds[:20])
            self.stdout.write(
                f"rounds that differ: {len(rounds)} ({shown}{' …' if len(rounds) > 20 else ''})"
            )
        for diff in report.diffs[: opts["limit"]]:
            self.stdout.write(f"  {diff}")
        if len(report.diffs) > opts["limit"]:
            self.stdout.write(f"  … {len(report.diffs) - opts['limit']} more")
        if report.diffs:
            sys.exit(1)
