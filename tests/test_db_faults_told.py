"""Database faults told truthfully and logged (issue 24, point 8): locked is "busy, try again"
with Retry-After, disk full or read-only is "cannot save", each at ERROR with the exception's
class; the dashboard answers without waiting for a lock another process holds."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from django.db import OperationalError
from django.test import Client

from checker.dbstatus import CANNOT_SAVE, classify_db_error, without_waiting
from checker.models import PlayGame
from tests.test_faults import _manage

ROOT = Path(__file__).resolve().parent.parent

FAULTS = [
    ("database is locked", "5", "数据库正忙"),
    ("database or disk is full", "30", "存不进去"),
    ("attempt to write a readonly database", "30", "存不进去"),
    ("could not connect to server: Connection refused", "30", "连不上数据库"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("error", "retry", "words"), FAULTS)
def test_a_fault_is_a_503_that_says_which_and_is_logged(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    error: str,
    retry: str,
    words: str,
) -> None:
    def fail(*args: object, **kwargs: object) -> object:
        raise OperationalError(error)

    monkeypatch.setattr(PlayGame.objects, "create", fail)
    with caplog.at_level(logging.ERROR, logger="checker.db"):
        r = Client().post("/play/", {"ruleset": "classic", "seat": "0"})
    assert r.status_code == 503 and r["Retry-After"] == retry
    assert words in r.content.decode()
    logged = [rec for rec in caplog.records if rec.name == "checker.db"]
    assert logged and logged[0].levelno == logging.ERROR
    assert "OperationalError" in logged[0].getMessage() and "/play/" in logged[0].getMessage()


def test_postgres_words_for_a_full_disk_and_a_read_only_server_are_cannot_save() -> None:
    for text in (
        "could not extend file: No space left on device",
        "cannot execute INSERT in a read-only transaction",
    ):
        assert classify_db_error(OperationalError(text)) == CANNOT_SAVE


@pytest.mark.django_db
def test_reads_without_waiting_turn_the_busy_timeout_off_and_back_on() -> None:
    from django.db import connection

    if connection.vendor != "sqlite":
        # PostgreSQL's reads never wait for a writer's lock (MVCC): nothing to turn off.
        with without_waiting(), connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            assert cursor.fetchone()[0] == 1
        return

    def timeout() -> int:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA busy_timeout")
            return int(cursor.fetchone()[0])

    before = timeout()
    with without_waiting():
        assert timeout() == 0
    assert timeout() == before > 0


def test_the_dashboard_answers_while_another_process_holds_the_lock(tmp_path: Path) -> None:
    # The database waits "forever" for a lock (timeout=100000 s): the dashboard must not.
    db = tmp_path / "locked.sqlite3"
    url = f"sqlite:///{db}?timeout=100000"
    assert _manage("migrate", "--noinput", "-v", "0", database=url).returncode == 0
    holder = sqlite3.connect(db, timeout=0.1)
    holder.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    code = (
        "from django.test import Client; print(Client(HTTP_HOST='127.0.0.1').get('/').status_code)"
    )
    try:
        done = _manage("shell", "-c", code, database=url)
    finally:
        holder.rollback()
        holder.close()
    assert done.stdout.split()[-1:] == ["200"], done.stdout + done.stderr
