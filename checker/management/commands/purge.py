"""python manage.py purge: delete old games and simulation runs (run it daily from cron).

Unfinished games untouched for PLAY_KEEP_DAYS (default 30), finished ones whose last move is
older than PLAY_KEEP_FINISHED_DAYS (default 180), and simulation runs beyond the newest
RUNS_KEEP (default 200). Idempotent: a second run removes nothing. A crontab line:

    17 4 * * *  cd /srv/tractor && .venv/bin/python manage.py purge
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from checker.models import PlayGame, SimulationRun


class Command(BaseCommand):
    help = "Delete games untouched for long and simulation runs beyond the newest few."

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
