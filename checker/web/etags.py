"""ETags of the self-check pages, computed before rendering so a repeat visit costs nothing."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest
from django.utils.translation import get_language

from checker.web import selfcheck
from checker.web.context import DEFAULT_RULESET, engine_version


def _latest_run_id(name: str) -> str:
    from checker.dbstatus import without_waiting
    from checker.models import SimulationRun

    try:
        with without_waiting():
            run = SimulationRun.objects.filter(ruleset=name).values_list("id", flat=True).first()
    except DatabaseError:
        return "no-db"
    return str(run or "")


def selfcheck_etag(request: HttpRequest, name: str = DEFAULT_RULESET) -> str:
    """Tag everything a self-check page shows: the case, ruleset and engine files, the engine
    version, the language, the query, htmx or not, the newest simulation run, the CSRF cookie."""
    parts = [
        repr(selfcheck.fingerprint()),
        engine_version(),
        get_language() or "",
        request.get_full_path(),
        request.headers.get("HX-Request", ""),
        _latest_run_id(name),
        request.COOKIES.get(settings.CSRF_COOKIE_NAME, ""),
    ]
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "replace")).hexdigest()[:32]
