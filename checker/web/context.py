"""Template context shared by every page."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest

DEFAULT_RULESET = "classic"


@functools.cache
def engine_version() -> str:
    """The git commit of the checkout (short hash, '+' when dirty), or 'unknown'."""
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
    return {
        "site_title": settings.SITE_TITLE,
        "engine_version": engine_version(),
        "default_ruleset": DEFAULT_RULESET,
    }
