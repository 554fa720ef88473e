"""Configuration from the environment and the production check."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # Independent of the caller's environment: no DJANGO_*, DATABASE_URL or GUNICORN_* leaks in.
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "GUNICORN_")) and k != "DATABASE_URL"
    }
    base.pop("PYTEST_VERSION", None)
    base.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_clean_with_production_env() -> None:
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(60),
        DJANGO_ALLOWED_HOSTS="tractor.example.org",
        DATABASE_URL="postgres://user:pw@db.example.org:5432/tractor",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_refuses_the_dev_key() -> None:
    result = _manage("check", "--deploy")
    assert result.returncode != 0
    assert "checker.E001" in result.stdout + result.stderr


def test_debug_is_off_by_default() -> None:
    result = _manage("shell", "-c", "from django.conf import settings; print(settings.DEBUG)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "False"


def test_database_url_selects_postgres() -> None:
    result = _manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])",
        DATABASE_URL="postgres://u:p@localhost:5432/x",
    )
    assert result.returncode == 0, result.stderr
    assert "postgresql" in result.stdout


def test_sqlite_is_the_default_database() -> None:
    result = _manage(
        "shell",
        "-c",
        "from django.conf import settings; d = settings.DATABASES['default'];"
        " print(d['ENGINE'], d['NAME'])",
    )
    assert result.returncode == 0, result.stderr
    engine, name = result.stdout.strip().splitlines()[-1].split()
    assert engine == "django.db.backends.sqlite3"
    assert name.endswith("db.sqlite3")
