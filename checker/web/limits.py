"""How many things one client may create a minute (games, saved rulesets, studies): who the
client is, whether it reached its allowance, and the 429 answer beyond it."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.conf import settings
from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

WINDOW = timedelta(minutes=1)
RETRY_AFTER = str(int(WINDOW.total_seconds()))


def client_of(request: HttpRequest) -> str:
    """Name the client for the creation limit: a keyed hash of its address (never stored raw)."""
    header = settings.PLAY_CLIENT_IP_HEADER
    address = request.META.get(header, "") if header else ""
    address = address.split(",")[-1].strip() or request.META.get("REMOTE_ADDR", "")
    key = f"{settings.SECRET_KEY}:{address}".encode()
    return hashlib.sha256(key).hexdigest()[:16]


def over_limit(model: type[Model], client: str, limit: int) -> bool:
    """Tell whether this client created `limit` or more rows of `model` in the last minute."""
    since = timezone.now() - WINDOW
    return model._default_manager.filter(client=client, created__gte=since).count() >= limit


def refused(response: HttpResponse) -> HttpResponse:
    """Make a page that says what was refused the 429 answer, with when to try again."""
    response.status_code = 429
    response["Retry-After"] = RETRY_AFTER
    return response
