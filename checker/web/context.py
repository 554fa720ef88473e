"""Template context shared by every page."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest
from django.utils.safestring import mark_safe

from checker.engine.ruleset import load_ruleset
from checker.web.present import default_level

DEFAULT_RULESET = "classic"


_VERSION: tuple[float, str] = (0.0, "")
VERSION_TTL = 30.0


def engine_version() -> str:
    """The git commit of the checkout, re-read at most every 30 seconds."""
    global _VERSION
    now = time.monotonic()
    if not _VERSION[1] or now - _VERSION[0] > VERSION_TTL:
        _VERSION = (now, _git_version())
    return _VERSION[1]


def _git_version() -> str:
    """The git commit of the checkout (short hash, '+' when engine files are dirty)."""
    base = Path(settings.BASE_DIR)
    try:
        head = subprocess.run(
            ["git", "-C", str(base), "rev-parse", "--short=10", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    try:
        dirty = subprocess.run(
            [
                "git",
                "-C",
                str(base),
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                "checker/engine",
                "checker/suite",
                "rulesets",
            ],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        dirty = ""
    return head + ("+" if dirty else "") if head else "unknown"


def site(request: HttpRequest) -> dict[str, Any]:
    # What the files hold (case titles, categories, sources, YAML) is written in Chinese; on an
    # English page it is marked so (`<span{{ zh_data }}>`), for readers and screen readers.
    english = (getattr(request, "LANGUAGE_CODE", "") or "").startswith("en")
    return {
        "zh_data": mark_safe(' lang="zh-Hans"') if english else "",
        "site_title": settings.SITE_TITLE,
        "engine_version": engine_version(),
        "default_ruleset": DEFAULT_RULESET,
        "default_deal": default_deal(),
    }


def default_deal() -> str:
    """Write the default ruleset's default level and trump as link parameters."""
    rs = load_ruleset(DEFAULT_RULESET)
    return urlencode({"level": default_level(rs), "trump": rs.default_trump})
