"""English pages in a real browser at 390 and 1280 px: the dashboard's English category names fit
their tiles, the simulation chart's outcome names sit above their bars, case titles in English."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from tests.conftest import BrowserPage

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _english(page: BrowserPage) -> None:
    page.page.context.add_cookies([{"name": "lang", "value": "en", "url": page.base_url}])


def _tiles_fit(page: Any) -> list[str]:
    """The tiles whose name is wider than the tile (cut off or spilling over)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=tile]')]
            .filter(t => t.scrollWidth > t.clientWidth + 1
                      || t.querySelector('.name').getBoundingClientRect().right
                         > t.getBoundingClientRect().right + 1)
            .map(t => t.querySelector('.name').textContent)"""
    )


@pytest.mark.parametrize("fixture", ["phone_page", "browser_page"])
def test_dashboard_in_english(fixture: str, request: pytest.FixtureRequest) -> None:
    page: BrowserPage = request.getfixturevalue(fixture)
    _english(page)
    page.goto("/")
    names = page.page.locator("[data-testid=tile] .name").all_inner_texts()
    assert "Classifying plays" in names and "Bot v2 override threshold (more)" in names
    assert _tiles_fit(page.page) == []
    page.page.locator("[data-testid=tile]").first.scroll_into_view_if_needed()
    page.shot(f"english-tiles-{fixture}", full_page=False)
    page.page.locator("[data-testid=tile]", has_text="Kitty multiplier (more)").click()
    page.page.wait_for_load_state()
    row = page.page.locator("[data-testid=case-row]").first
    assert (
        row.locator(".title a").first.inner_text() == "Kitty won by a throw (tractor + pair) → ×8"
    )
    page.shot(f"english-dashboard-{fixture}", full_page=False)


@pytest.mark.parametrize("fixture", ["phone_page", "browser_page"])
def test_simulation_chart_in_english(fixture: str, request: pytest.FixtureRequest) -> None:
    out = io.StringIO()
    call_command("simulate", "--rounds", "40", "--seed", "1", "--no-progress", stdout=out)
    page: BrowserPage = request.getfixturevalue(fixture)
    _english(page)
    page.goto("/simulation/")
    bars = page.page.locator("[data-testid=sim-chart] [data-testid=sim-bar]")
    assert bars.count() >= 3
    labels = bars.locator("text").all_text_contents()
    assert "level up" in labels or "banker holds" in labels
    overlaps = page.page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=sim-bar]')].filter(g => {
              const [name] = g.querySelectorAll('text');
              const bar = g.querySelector('rect');
              return name.getBoundingClientRect().bottom > bar.getBoundingClientRect().top + 0.5;
           }).map(g => g.querySelector('text').textContent)"""
    )
    assert overlaps == []
    page.page.locator("[data-testid=sim-chart]").first.scroll_into_view_if_needed()
    page.shot(f"english-simulation-{fixture}", full_page=False)
