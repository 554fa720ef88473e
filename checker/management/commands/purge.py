"""python manage.py purge: delete old games, simulation runs and saved rulesets (run it daily
from cron).

Unfinished games untouched for PLAY_KEEP_DAYS (default 30), finished ones whose last move is
older than PLAY_KEEP_FINISHED_DAYS (default 180), simulation runs beyond the newest RUNS_KEEP
(default 200), then the workshop's saved rulesets older than RULESETS_KEEP_DAYS (default 180;
they never change once saved) that no game, study or simulation run still left names, nor a
kept saved ruleset derived from them. Idempotent: a second run removes nothing. A crontab line:

    17 4 * * *  cd /srv/tractor && .venv/bin/python manage.py purge
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db.models import QuerySet
from django.utils import timezone

from checker.models import HouseRuleset, PlayGame, SimulationRun
from checker.web import saved

SHOWN = 20  # saved rulesets named in the report
CHUNK = 500  # saved rulesets deleted per query


class Command(BaseCommand):
    help = (
        "Delete games untouched for long, simulation runs beyond the newest few, and saved "
        "rulesets nothing uses any more."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="count what would go, delete nothing"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        now = timezone.now()
        keep, keep_done, runs_keep = (
            settings.PLAY_KEEP_DAYS,
            settings.PLAY_KEEP_FINISHED_DAYS,
            settings.RUNS_KEEP,
        )
        stale = PlayGame.objects.filter(finished=False, updated__lt=now - timedelta(days=keep))
        done = PlayGame.objects.filter(finished=True, updated__lt=now - timedelta(days=keep_done))
        newest = SimulationRun.objects.order_by("-created", "-id").values_list("id", flat=True)
        old_runs = SimulationRun.objects.exclude(id__in=list(newest[:runs_keep]))
        counts = [stale.count(), done.count(), old_runs.count()]
        if not opts["dry_run"]:
            counts = [stale.delete()[0], done.delete()[0], old_runs.delete()[0]]
        verb = "would remove" if opts["dry_run"] else "removed"
        self.stdout.write(
            f"purge {verb}: {counts[0]} unfinished games untouched for {keep}+ days, "
            f"{counts[1]} finished games older than {keep_done} days, "
            f"{counts[2]} simulation runs beyond the newest {runs_keep}"
        )
        games = PlayGame.objects.exclude(pk__in=stale).exclude(pk__in=done)
        runs = SimulationRun.objects.exclude(pk__in=old_runs)
        self._rulesets(now, games, runs, verb, opts["dry_run"])

    def _rulesets(
        self, now: datetime, games: QuerySet[Any], runs: QuerySet[Any], verb: str, dry_run: bool
    ) -> None:
        """Delete (or count) the saved rulesets that none of the games and runs left uses."""
        days = settings.RULESETS_KEEP_DAYS
        names = saved.stale_names(now - timedelta(days=days), games, runs)
        gone = [] if dry_run else names
        for start in range(0, len(gone), CHUNK):  # in chunks: SQLite bounds a query's terms
            HouseRuleset.objects.filter(name__in=gone[start : start + CHUNK]).delete()
        shown = ", ".join(names[:SHOWN]) + (", …" if len(names) > SHOWN else "")
        self.stdout.write(
            f"purge {verb}: {len(names)} saved rulesets older than {days} days that no game, "
            f"study or run uses" + (f" ({shown})" if names else "")
        )
