"""python manage.py hostilecases: time how fast each hostile case file becomes an error row."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

from checker.perf.hostile import write_hostile_files
from checker.suite.runner import run_suite


class Command(BaseCommand):
    help = "Write hostile case files (alias bomb, FIFO, /dev/zero link, …) and time each one."

    def handle(self, *args: Any, **opts: Any) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            for name, path in write_hostile_files(Path(tmp)).items():
                start = time.perf_counter()
                report = run_suite([path])
                seconds = time.perf_counter() - start
                statuses = ",".join(sorted({r.status for r in report.results})) or "-"
                message = report.results[0].message if report.results else ""
                self.stdout.write(
                    f"{name:<20} {seconds * 1000:8.1f} ms  {statuses:<6} {message[:90]}"
                )
