"""Site middleware: language by cookie, 503 when the database is down, bodiless HEAD.

Django's LocaleMiddleware would follow the browser's Accept-Language header; this
site is Chinese first, so only the language cookie set by /i18n/setlang/ counts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

LOG = logging.getLogger("checker.db")


class CookieLocaleMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.supported = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        language = chosen if chosen in self.supported else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language  # type: ignore[attr-defined]
        response = self.get_response(request)
        patch_vary_headers(response, ("Cookie",))
        response.headers.setdefault("Content-Language", language)
        translation.deactivate()
        return response


class DatabaseDownMiddleware:
    """Answer 503 with an honest message when the database fails mid-request, and log it.

    Locked: busy, try again soon (Retry-After); disk full or read-only: cannot save; not
    migrated; unreachable. Each is logged at ERROR with the exception's class.
    """

    RETRY_AFTER = {"locked": "5"}

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        from django.db import DatabaseError
        from django.shortcuts import render

        from checker.dbstatus import UNAVAILABLE, classify_db_error

        if not isinstance(exc, DatabaseError):
            return None
        kind = classify_db_error(exc)
        cause = f" (from {type(exc.__cause__).__name__})" if exc.__cause__ is not None else ""
        LOG.error(
            "database %s: %s%s on %s %s: %s",
            kind,
            type(exc).__name__,
            cause,
            request.method,
            request.path[:200],
            str(exc)[:300],
        )
        response = render(
            request,
            "web/db_down.html",
            {"kind": kind, "unavailable": kind == UNAVAILABLE},
            status=503,
        )
        response["Retry-After"] = self.RETRY_AFTER.get(kind, "30")
        return response


class HeadWithoutBodyMiddleware:
    """Answer HEAD with the GET's headers and no body (RFC 9110 §9.3.2).

    Views answer HEAD as GET (`require_safe`); without this the body would still be
    sent to the WSGI server, which drops it and logs a warning for every such request.
    Outermost in MIDDLEWARE, so Content-Length and Content-Encoding are the GET's.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method == "HEAD":
            if response.streaming:
                response.streaming_content = []
            else:
                length = len(response.content)
                response.content = b""
                response["Content-Length"] = str(length)
        return response
