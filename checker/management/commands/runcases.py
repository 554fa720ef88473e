"""python manage.py runcases: run YAML cases against the engine (contract: case-format.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from checker.engine.errors import RulesetError
from checker.engine.house import load_ruleset_file
from checker.engine.ruleset import ruleset_names
from checker.suite.registry import KINDS
from checker.suite.runner import run_suite, to_json, to_junit, to_table


class Command(BaseCommand):
    help = "Run the YAML rule cases against the engine and report pass/fail."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", action="extend", nargs="+", default=[], metavar="NAME")
        parser.add_argument("--cases", action="extend", nargs="+", default=[], metavar="PATH")
        parser.add_argument("--kind", action="extend", nargs="+", default=[], metavar="K")
        parser.add_argument("--format", choices=["table", "json", "junit"], default="table")
        parser.add_argument("--output", metavar="FILE")
        parser.add_argument(
            "--ruleset-file",
            action="append",
            default=[],
            metavar="FILE",
            help="load a ruleset file (e.g. a house ruleset that extends classic) for this run",
        )

    def _usage_error(self, message: str) -> None:
        self.stderr.write(f"runcases: error: {message}")
        sys.exit(2)

    def handle(self, *args: Any, **opts: Any) -> None:
        for path in opts["ruleset_file"]:
            try:
                load_ruleset_file(path)
            except RulesetError as exc:
                self._usage_error(f"--ruleset-file: {exc.message_en}")
        known = ruleset_names()
        for name in opts["ruleset"]:
            if name not in known:
                self._usage_error(f"unknown ruleset '{name}' (known: {', '.join(known)})")
        for kind in opts["kind"]:
            if kind not in KINDS:
                self._usage_error(f"unknown kind '{kind}' (known: {', '.join(KINDS)})")
        for path in opts["cases"]:
            if not Path(path).exists():
                self._usage_error(f"--cases path does not exist: {path}")
        report = run_suite(opts["cases"] or None, opts["ruleset"] or None, opts["kind"] or None)
        render = {"table": to_table, "json": to_json, "junit": to_junit}[opts["format"]]
        text = render(report)
        if opts["output"]:
            Path(opts["output"]).write_text(text + "\n", encoding="utf-8")
            self.stdout.write(f"引擎自检 {report.passed}/{report.total}，写入 {opts['output']}")
        else:
            self.stdout.write(text)
        sys.exit(0 if report.ok else 1)
