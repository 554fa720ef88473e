"""What a database error means for the user: locked, not migrated, cannot save, or unreachable."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DatabaseError, connections

LOCKED = "locked"
NOT_MIGRATED = "not_migrated"
CANNOT_SAVE = "cannot_save"
UNAVAILABLE = "unavailable"

# SQLite's and PostgreSQL's words (and psycopg's class names) for a database that cannot
# take a write: the disk is full, or the file or the server is read-only.
_CANNOT_SAVE = (
    "disk is full",
    "diskfull",
    "no space left",
    "could not extend file",
    "readonly database",
    "read-only",
    "readonlysqltransaction",
    "read only",
)


def classify_db_error(exc: DatabaseError) -> str:
    """Tell a locked database, one without the tables, one that cannot save, one unreachable."""
    text = f"{type(exc).__name__} {exc} {type(exc.__cause__).__name__}".lower()
    if "locked" in text or "lock timeout" in text or "locknotavailable" in text:
        return LOCKED
    if (
        "no such table" in text
        or "undefinedtable" in text
        or ("relation" in text and "does not exist" in text)
    ):
        return NOT_MIGRATED
    if any(words in text for words in _CANNOT_SAVE):
        return CANNOT_SAVE
    return UNAVAILABLE


def explain_db_error(exc: DatabaseError, what: str) -> str:
    """Say in one line why `what` could not be stored and what to do about it."""
    kind = classify_db_error(exc)
    if kind == LOCKED:
        return f"{what} not stored: the database is locked by another process ({exc}); try again, or pass --no-store"
    if kind == NOT_MIGRATED:
        return f"{what} not stored: the database has no tables yet ({exc}); run `python manage.py migrate`, or pass --no-store"
    if kind == CANNOT_SAVE:
        return f"{what} not stored: the database cannot save (disk full or read-only: {exc}); free space or fix its permissions, or pass --no-store"
    return f"{what} not stored: the database cannot be reached ({exc}); check DATABASE_URL, or pass --no-store"


@contextmanager
def without_waiting(using: str = "default") -> Iterator[None]:
    """Let the reads inside fail at once on a locked SQLite database instead of waiting for
    the lock (pages whose database part is optional answer without it)."""
    connection = connections[using]
    if connection.vendor != "sqlite":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        before = int(cursor.fetchone()[0])
        cursor.execute("PRAGMA busy_timeout = 0")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA busy_timeout = {before}")
