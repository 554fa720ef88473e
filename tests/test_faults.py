"""Faults (issue 9.5): a run that cannot be stored fails loudly and says why; a database that
is down is a 503 with an honest message; persistent connections are health-checked."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import OperationalError
from django.test import Client

from checker.dbstatus import LOCKED, NOT_MIGRATED, UNAVAILABLE, classify_db_error

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args: str, database: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env["DATABASE_URL"] = database
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


SIMULATE = ("simulate", "--rounds", "2", "--seed", "3", "--no-progress")


def test_simulate_exits_non_zero_when_the_database_is_not_migrated(tmp_path: Path) -> None:
    done = _manage(*SIMULATE, database=f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    assert done.returncode == 3, done.stderr
    assert "no tables" in done.stderr and "migrate" in done.stderr
    assert "rounds             2" in done.stdout  # the figures are still printed


def test_simulate_exits_non_zero_when_the_database_is_locked(tmp_path: Path) -> None:
    db = tmp_path / "locked.sqlite3"
    url = f"sqlite:///{db}"
    assert _manage("migrate", "--noinput", "-v", "0", database=url).returncode == 0
    holder = sqlite3.connect(db, timeout=0.1)
    holder.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    try:
        done = _manage(*SIMULATE, database=url)
    finally:
        holder.rollback()
        holder.close()
    assert done.returncode == 3, done.stderr
    assert "locked" in done.stderr


def test_simulate_still_stores_and_exits_0_when_it_can(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ok.sqlite3'}"
    assert _manage("migrate", "--noinput", "-v", "0", database=url).returncode == 0
    done = _manage(*SIMULATE, database=url)
    assert done.returncode == 0 and "stored as simulation run #1" in done.stderr


def test_database_errors_are_told_apart() -> None:
    assert classify_db_error(OperationalError("database is locked")) == LOCKED
    assert (
        classify_db_error(OperationalError("no such table: checker_simulationrun")) == NOT_MIGRATED
    )
    assert (
        classify_db_error(OperationalError('relation "checker_simulationrun" does not exist'))
        == NOT_MIGRATED
    )
    assert classify_db_error(OperationalError("connection refused")) == UNAVAILABLE


def test_a_database_that_is_down_is_a_503_with_an_honest_message() -> None:
    # A PostgreSQL URL on a loopback port where nothing listens.
    code = (
        "from django.test import Client;"
        "r = Client(HTTP_HOST='127.0.0.1').get('/simulation/');"
        "print(r.status_code, r.get('Retry-After'), 'db-down' in r.content.decode())"
    )
    done = _manage("shell", "-c", code, database="postgres://u:p@127.0.0.1:9/tractor")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-3:] == ["503", "30", "True"], done.stdout
    # The pages that need no database still answer.
    code = "from django.test import Client; print(Client(HTTP_HOST='127.0.0.1').get('/check/').status_code)"
    done = _manage("shell", "-c", code, database="postgres://u:p@127.0.0.1:9/tractor")
    assert done.stdout.split()[-1] == "200", done.stderr


@pytest.mark.django_db
def test_not_migrated_simulation_page_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from checker.models import SimulationRun

    def missing(*args: object, **kwargs: object) -> object:
        raise OperationalError("no such table: checker_simulationrun")

    monkeypatch.setattr(SimulationRun.objects, "all", missing)
    response = Client().get("/simulation/")
    assert response.status_code == 200 and "migrate" in response.content.decode()


def test_persistent_connections_are_health_checked() -> None:
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
