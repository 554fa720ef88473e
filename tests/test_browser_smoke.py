"""The site frame in a real browser: loads, shows Chinese, switches to English."""

from __future__ import annotations

import pytest

from tests.conftest import BrowserPage

pytestmark = pytest.mark.browser


def test_home_loads_and_switches_language(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/")
    assert page.locator("html").get_attribute("lang") == "zh-Hans"
    assert page.locator("header nav").inner_text().split() == [
        "自检",
        "规则",
        "检查器",
        "对照",
        "对战",
        "研究",
    ]
    assert page.evaluate("typeof window.htmx") == "object"
    page.get_by_test_id("lang-switch").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    assert "Self-check" in page.locator("header nav").inner_text()
    browser_page.shot("smoke-home-en", full_page=False)  # the frame; the page is 40,000 px tall
