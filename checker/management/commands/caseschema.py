"""python manage.py caseschema: regenerate cases/case.schema.json from the case-kind records."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from checker.suite.schema import SCHEMA_PATH, schema_text, write_schema


class Command(BaseCommand):
    help = "Write cases/case.schema.json from the case-kind records (--check: only compare)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["check"]:
            current = SCHEMA_PATH.read_text(encoding="utf-8") if SCHEMA_PATH.exists() else ""
            if current != schema_text():
                self.stderr.write(f"{SCHEMA_PATH.name} is stale: run `make schema`")
                sys.exit(1)
            self.stdout.write(f"{SCHEMA_PATH.name} is up to date")
            return
        changed = write_schema()
        self.stdout.write(f"{'wrote' if changed else 'unchanged'} {SCHEMA_PATH}")
