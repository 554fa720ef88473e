"""Browser tests of the multideck ruleset: the rules page's follow ladder and examples, and the
checker grid with four decks and six players. Screenshots land in screenshots/."""

from __future__ import annotations

import pytest

from tests.conftest import BrowserPage

pytestmark = pytest.mark.browser


def test_multideck_rules_page_draws_the_follow_ladder(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/rulesets/multideck/")
    section = page.get_by_test_id("follow-ladder")
    assert "8 → 7+1 → 6+2" in section.inner_text()
    rows = page.get_by_test_id("follow-examples").locator("tbody tr")
    assert rows.count() >= 20  # the ten 举例说明, each with an allowed and a refused play
    assert "✗" in rows.nth(1).inner_text() and "✓" in rows.nth(0).inner_text()
    section.scroll_into_view_if_needed()
    browser_page.shot("multideck-rules-ladder", full_page=False)


def test_checker_grid_counts_four_copies_and_shows_five_followers(
    browser_page: BrowserPage,
) -> None:
    page = browser_page.page
    browser_page.goto("/check/?ruleset=multideck&options=decks:4,players:6&level=3&trump=H")
    assert page.locator("#f-h5").count() == 1 and page.locator("#f-h6").count() == 0
    page.locator('#grid-targets input[value="f-lead"]').locator("xpath=..").click()
    cell = page.locator('#cardgrid button[data-card="♠9"]')
    for _ in range(4):
        cell.click()
    assert cell.get_attribute("data-count") == "4"
    assert page.locator("#f-lead").input_value().count("♠9") == 4
    browser_page.shot("multideck-checker-grid", full_page=False)
