"""What a database error means for the user: locked, not migrated, or unreachable."""

from __future__ import annotations

from django.db import DatabaseError

LOCKED = "locked"
NOT_MIGRATED = "not_migrated"
UNAVAILABLE = "unavailable"


def classify_db_error(exc: DatabaseError) -> str:
    """Tell a locked database, a database without the tables, and one that cannot be reached."""
    text = f"{type(exc).__name__} {exc} {type(exc.__cause__).__name__}".lower()
    if "locked" in text or "lock timeout" in text or "locknotavailable" in text:
        return LOCKED
    if (
        "no such table" in text
        or "undefinedtable" in text
        or ("relation" in text and "does not exist" in text)
    ):
        return NOT_MIGRATED
    return UNAVAILABLE


def explain_db_error(exc: DatabaseError, what: str) -> str:
    """Say in one line why `what` could not be stored and what to do about it."""
    kind = classify_db_error(exc)
    if kind == LOCKED:
        return f"{what} not stored: the database is locked by another process ({exc}); try again, or pass --no-store"
    if kind == NOT_MIGRATED:
        return f"{what} not stored: the database has no tables yet ({exc}); run `python manage.py migrate`, or pass --no-store"
    return f"{what} not stored: the database cannot be reached ({exc}); check DATABASE_URL, or pass --no-store"
