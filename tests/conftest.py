"""Shared fixtures: a Playwright page against pytest-django's live_server.

Browser tests need Debian's chromium (/usr/bin/chromium; .ci/run installs it).
Without it they are skipped on a developer machine and FAIL under CI=true, so a
CI run can never pass by silently skipping them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

# Speed is measured by benchmarks, never by timed tests: no per-example deadline (a loaded
# machine made property tests fail on time alone).
hypothesis_settings.register_profile("project", deadline=None)
hypothesis_settings.load_profile("project")

# Playwright's sync API runs an event loop in this thread; Django would then refuse
# ORM calls from "an async context".  The tests are single-threaded, so allow it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """The chromium binary: $CHROMIUM_PATH, /usr/bin/chromium, or chromium on PATH."""
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("chromium") or shutil.which("chromium-browser")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def _unavailable(reason: str) -> None:
    if in_ci():
        pytest.fail(f"browser tests cannot run under CI: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def _browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        _unavailable("chromium not found (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - dev extras missing
        _unavailable("playwright is not installed (pip install -e .[dev])")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class BrowserPage:
    """A Playwright page plus the live server's address and a screenshot helper."""

    page: Any
    base_url: str

    def url(self, path: str) -> str:
        return self.base_url.rstrip("/") + path

    def goto(self, path: str) -> Any:
        return self.page.goto(self.url(path))

    def shot(self, name: str, full_page: bool = True) -> Path:
        SCREENSHOTS.mkdir(exist_ok=True)
        target = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(target), full_page=full_page)
        return target


def _page_fixture(
    browser: Any,
    live_server: Any,
    width: int,
    height: int,
    *,
    mobile: bool,
    bypass_csp: bool = True,
) -> Iterator[BrowserPage]:
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2 if mobile else 1,
        is_mobile=mobile,
        has_touch=mobile,
        locale="zh-CN",
        # Playwright runs string predicates (wait_for_function) through eval, which the site's
        # Content-Security-Policy forbids; tests/test_browser_csp.py checks the policy itself
        # in a context that does not bypass it (`strict_page`).
        bypass_csp=bypass_csp,
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield BrowserPage(page=page, base_url=live_server.url)
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def browser_page(_browser: Any, live_server: Any) -> Iterator[BrowserPage]:
    """A desktop-sized page (1280×900)."""
    yield from _page_fixture(_browser, live_server, 1280, 900, mobile=False)


@pytest.fixture
def phone_page(_browser: Any, live_server: Any) -> Iterator[BrowserPage]:
    """A phone-sized page (390×844, touch)."""
    yield from _page_fixture(_browser, live_server, 390, 844, mobile=True)


@pytest.fixture
def strict_page(_browser: Any, live_server: Any) -> Iterator[BrowserPage]:
    """A desktop-sized page that enforces the site's Content-Security-Policy."""
    yield from _page_fixture(_browser, live_server, 1280, 900, mobile=False, bypass_csp=False)


@pytest.fixture
def short_bot_pause(settings: Any) -> None:
    """Bots at the /play/ table answer after 20 ms, not the table's human-paced pause."""
    settings.PLAY_BOT_PAUSE_MS = 20


@pytest.fixture
def failing_run(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A self-check run with one pass, one failure, one broken case and one broken file."""
    from checker.suite.runner import CaseResult, SuiteReport
    from checker.web import selfcheck

    common = {"file": "cases/classic/99-demo.yaml", "ruleset": "classic", "category": "演示"}
    results = [
        CaseResult(
            id="demo-pass",
            line=3,
            kind="follow",
            title="跟对子：有对子必须出对子",
            status="pass",
            expected={"legal": True},
            actual={"legal": True, "forced": []},
            message="",
            explanation="合法。",
            order=1,
            input={"level": 2, "trump": "H", "lead": "♣9 ♣9", "hand": "♣Q ♣Q ♣5", "play": "♣Q ♣Q"},
            **common,
        ),
        CaseResult(
            id="demo-fail",
            line=12,
            kind="follow",
            title="跟对子：故意写错的期望",
            status="fail",
            expected={"legal": True, "forced": ["♣Q", "♣Q"]},
            actual={"legal": False, "reason": "must_play_pair", "forced": ["♣Q", "♣Q"]},
            message="legal: 期望 True，实际 False",
            explanation="必须出对子。",
            order=2,
            diff=("legal",),
            input={"level": 2, "trump": "H", "lead": "♣9 ♣9", "hand": "♣Q ♣Q ♣5", "play": "♣Q ♣5"},
            **common,
        ),
        CaseResult(
            id="demo-error",
            line=22,
            kind="follow",
            title="坏牌",
            status="error",
            expected={"legal": True},
            actual={},
            message="cases/classic/99-demo.yaml · demo-error: 无法识别的牌“X9”",
            explanation="",
            order=3,
            input={"level": 2, "trump": "H", "lead": "X9", "hand": "♣Q"},
            **common,
        ),
    ]
    file_error = CaseResult(
        id="98-broken.yaml",
        file="cases/classic/98-broken.yaml",
        line=4,
        ruleset="-",
        kind="-",
        title="cases/classic/98-broken.yaml",
        category="文件错误",
        status="error",
        expected={},
        actual={},
        message="cases/classic/98-broken.yaml: YAML 语法错误（第 4 行）",
        explanation="",
        input={},
    )
    report = SuiteReport(results=[*results, file_error], seconds=0.012)
    run = selfcheck.Run("classic", report, 0.0, results, [file_error])
    monkeypatch.setattr(selfcheck, "get_run", lambda ruleset, force=False: run)
    return run
