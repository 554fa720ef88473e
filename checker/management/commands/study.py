"""python manage.py study SPEC.yaml: a balance study of rule variants on Dask (issue 27)."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError, transaction
from django.utils import timezone

from checker.dbstatus import explain_db_error
from checker.lab.report import render_table
from checker.lab.run import report, run_study
from checker.lab.shards import ShardTask
from checker.lab.spec import SpecError, StudySpec, from_dict, read_spec
from checker.play.cluster import SchedulerError, open_client

from .simulate import add_budget, engine_version, use_budget

MAX_WORKERS = 256


def _workers(text: str) -> int:
    value = int(text)
    if not 1 <= value <= MAX_WORKERS:
        raise ValueError(f"must be from 1 to {MAX_WORKERS}")
    return value


class Command(BaseCommand):
    help = "Run a balance study (arms of rulesets and options, bots, rounds) on Dask."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("spec", nargs="?", metavar="SPEC.yaml")
        where = parser.add_mutually_exclusive_group()
        where.add_argument("--workers", type=_workers, metavar="N", help="embedded cluster size")
        where.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="a running scheduler")
        parser.add_argument("--resume", type=int, metavar="ID", help="finish a stopped study")
        parser.add_argument("--format", choices=("table", "json"), default="table")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        add_budget(parser)

    def _usage_error(self, message: str) -> None:
        self.stderr.write(f"study: error: {message}")
        sys.exit(2)

    def handle(self, *args: Any, **opts: Any) -> None:
        from checker.models import Study

        use_budget(opts)
        study, done = None, {}
        if opts["resume"] is not None:
            study = Study.objects.filter(pk=opts["resume"]).first()
            if study is None:
                self._usage_error(f"--resume: no study #{opts['resume']}")
            spec = from_dict(study.spec)
            done = {(s.arm, s.index): s.figures for s in study.shards.all()}
            if study.engine_version != engine_version()[:40]:
                self.stderr.write(
                    f"note: study #{study.pk} began on engine {study.engine_version}; "
                    f"its remaining shards play on {engine_version()}"
                )
        if opts["spec"]:
            try:
                given = read_spec(opts["spec"])
            except SpecError as exc:
                self._usage_error(str(exc))
            if study is not None and given.as_dict() != study.spec:
                self._usage_error(f"{opts['spec']} is not the spec of study #{study.pk}")
            spec = given
        elif study is None:
            self._usage_error("give a SPEC.yaml, or --resume ID")
        stream = None if opts["no_progress"] else (opts.get("stderr") or sys.stderr)
        try:
            with open_client(opts["workers"], opts["scheduler"]) as client:
                study = study or self._create(spec)
                self.stderr.write(
                    f"study #{study.pk}: {len(done)} of {study.shards_total} shards done"
                )
                shards = run_study(spec, client, self._store(study), done, stream)
        except SchedulerError as exc:
            self._usage_error(f"--scheduler: {exc}")
        except KeyboardInterrupt:
            if study is None:
                raise
            kept = study.shards.count()
            self.stderr.write(
                f"study #{study.pk} stopped: {kept} of {study.shards_total} shards stored; "
                f"go on with --resume {study.pk}"
            )
            sys.exit(130)
        except DatabaseError as exc:
            self.stderr.write("study: " + explain_db_error(exc, "study"))
            sys.exit(3)
        assert study is not None
        result = report(spec, shards)
        Study.objects.filter(pk=study.pk).update(finished=timezone.now(), report=result)
        if opts["format"] == "json":
            self.stdout.write(json.dumps({**result, "id": study.pk}, ensure_ascii=False))
        else:
            self.stdout.write(f"study #{study.pk}\n" + render_table(result))
        if any(a["illegal_plays"] or a["invariant_breaks"] for a in result["arms"]):
            sys.exit(1)

    def _create(self, spec: StudySpec) -> Any:
        from checker.models import Study

        return Study.objects.create(
            name=spec.name,
            spec=spec.as_dict(),
            engine_version=engine_version()[:40],
            shards_total=spec.shard_count() * len(spec.arms),
        )

    def _store(self, study: Any) -> Any:
        from checker.models import StudyShard

        def store(task: ShardTask, figures: dict[str, Any], seconds: float) -> None:
            with transaction.atomic():
                StudyShard.objects.create(
                    study=study, arm=task.arm, index=task.index, figures=figures, seconds=seconds
                )

        return store
