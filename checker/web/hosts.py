"""The origin written into permalinks and QR codes: never taken from an unchecked Host header."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def trusted_host(request: HttpRequest) -> str | None:
    """Return the request's host when ALLOWED_HOSTS names it exactly (no wildcard), else None."""
    host = request.get_host()  # already checked against ALLOWED_HOSTS by Django
    name = host.rsplit(":", 1)[0].lower() if not host.endswith("]") else host.lower()
    exact = {h.lower() for h in settings.ALLOWED_HOSTS if h != "*" and not h.startswith(".")}
    return host if name in exact else None


def absolute_url(request: HttpRequest, path: str) -> str | None:
    """Write a link to path on this site for sharing: from DJANGO_PUBLIC_URL when it is set,
    else from a trusted Host header; None when neither is known (the page shows the path)."""
    base = getattr(settings, "PUBLIC_URL", "")
    if base:
        return base.rstrip("/") + path
    host = trusted_host(request)
    if host is None:
        return None
    return f"{request.scheme}://{host}{path}"
