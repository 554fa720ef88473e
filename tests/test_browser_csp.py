"""The pages satisfy their Content-Security-Policy in a real browser: no violation is reported
while loading them and using htmx (filters, the checker, the matrix)."""

from __future__ import annotations

import pytest

from tests.conftest import BrowserPage

pytestmark = pytest.mark.browser

PAGES = [
    "/",
    "/rulesets/erqiwang/selfcheck/",
    "/rulesets/classic/",
    "/cases/classic/classic-classify-pair-same-suit/",
    "/check/?ruleset=classic&level=2&trump=H&lead=SK+SK&h1=SQ+SQ+S10+S5&p1=SQ+SQ",
    "/check/?ruleset=erqiwang&trump=S&lead=SA",
    "/matrix/?lead=SA+SA&h1=SK+SK+S3&p1=SK+SK",
    "/simulation/",
    "/rulesets/new/?base=classic",
    "/studies/",
]
# Registered before any page script: every violation event is kept on the window.
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + e.sourceFile);
});
"""


def test_no_csp_violation_on_any_page(strict_page: BrowserPage) -> None:
    browser_page = strict_page
    page = browser_page.page
    console: list[str] = []
    page.on(
        "console",
        lambda m: console.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.add_init_script(LISTEN)
    for path in PAGES:
        response = browser_page.goto(path)
        assert response is not None and "script-src 'self'" in response.headers.get(
            "content-security-policy", ""
        ), path
        page.wait_for_load_state("networkidle")
        assert page.evaluate("typeof window.htmx") == "object", path
        assert page.evaluate("window.__csp") == [], (path, page.evaluate("window.__csp"))
    # htmx swaps under the policy: a filter on the dashboard and a checker edit.
    browser_page.goto("/")
    page.select_option("#f-status", "pass")
    page.wait_for_url("**/?status=pass**")
    browser_page.goto("/check/?ruleset=classic&level=2&trump=H&lead=SK+SK")
    page.fill("#f-h1", "SQ SQ S10 S5")
    page.fill("#f-p1", "SQ SQ")
    page.locator("#f-p1").press("Enter")
    page.get_by_test_id("legal-1").wait_for()
    assert page.evaluate("window.__csp") == []
    assert console == [], console
