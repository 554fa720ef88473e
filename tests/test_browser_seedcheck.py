"""The seed's self-check table on the classic dashboard, in a real browser (phone width too)."""

from __future__ import annotations

import pytest

from tests.conftest import BrowserPage

pytestmark = pytest.mark.browser


def test_seed_table_on_the_dashboard(browser_page: BrowserPage, phone_page: BrowserPage) -> None:
    for bp in (browser_page, phone_page):
        bp.goto("/")
        page = bp.page
        assert "种子自检" in page.get_by_test_id("headline").inner_text()
        table = page.get_by_test_id("seed-table")
        assert page.get_by_test_id("seed-category").count() == 14
        table.scroll_into_view_if_needed()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        bp.shot("seed-table-phone" if bp is phone_page else "seed-table", full_page=False)
