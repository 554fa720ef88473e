"""The matrix's scenario form has the checker's card grid and per-seat pickers (issue 8.8):
on a 390 px phone a scenario is built by taps only and compared under every ruleset.

Screenshots go to screenshots/ (git-ignored) for a human look.
"""

from __future__ import annotations

import pytest

from tests.conftest import BrowserPage

pytestmark = pytest.mark.django_db


def test_matrix_scenario_built_by_taps_on_a_phone(phone_page: BrowserPage) -> None:
    page = phone_page.page
    phone_page.goto("/matrix/")
    page.locator("#cardgrid").scroll_into_view_if_needed()
    phone_page.shot("matrix-grid-phone-grid", full_page=False)
    page.locator('#grid-targets input[value="m-lead"]').locator("xpath=..").tap()
    for card in ("♠A", "♠A"):
        page.locator(f'#cardgrid button[data-card="{card}"]').tap()
    page.locator('#grid-targets input[value="m-h1"]').locator("xpath=..").tap()
    for card in ("♠K", "♠K", "♠5"):
        page.locator(f'#cardgrid button[data-card="{card}"]').tap()
    picker = page.get_by_test_id("picker-1")
    picker.locator('button.pick[data-card="♠K"]').first.tap()
    picker.locator('button.pick[data-card="♠K"]').nth(1).tap()
    assert page.locator("#m-lead").input_value() == "♠A ♠A"
    assert page.locator("#m-h1").input_value() == "♠K ♠K ♠5"
    assert page.locator("#m-p1").input_value() == "♠K ♠K"
    phone_page.shot("matrix-grid-phone-taps", full_page=False)
    page.locator("#scenario-button").tap()
    page.get_by_test_id("scenario-cell").first.wait_for()
    assert "lead=%E2%99%A0A" in page.url or "lead=" in page.url
    table = page.locator("#scenario-result").inner_text()
    assert "对子" in table
    page.locator("#scenario-result").scroll_into_view_if_needed()
    phone_page.shot("matrix-grid-phone-result", full_page=False)
    # Phone sizes: every grid cell and target chip is a 40 px tap target, inputs 16 px.
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('#cardgrid button.cell, #grid-targets .target,'
               + ' #scenario-form .picker button.pick')]
               .map(b => { const r = b.getBoundingClientRect(); return [r.width, r.height]; })"""
    )
    assert sizes and min(min(w, h) for w, h in sizes) >= 40, min(sizes)
    fonts = page.evaluate(
        """() => [...document.querySelectorAll('#scenario-form input[type=text],'
               + ' #scenario-form select')].map(e => parseFloat(getComputedStyle(e).fontSize))"""
    )
    assert fonts and min(fonts) >= 16, fonts
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width


def test_matrix_grid_is_keyboard_operable(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/matrix/")
    page.locator("#m-lead").focus()
    first = page.locator('#cardgrid button[data-card="♠A"]')
    first.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    assert page.locator("#m-lead").input_value() == "♠A ♠A"
    page.keyboard.press("ArrowRight")  # to ♠K, and focus stays in the grid
    assert page.evaluate("document.activeElement.dataset.card") == "♠K"
    page.keyboard.press("Enter")
    page.keyboard.press("Backspace")
    assert page.locator("#m-lead").input_value() == "♠A ♠A"
    page.locator("#scenario-button").focus()
    page.keyboard.press("Enter")
    page.get_by_test_id("scenario-cell").first.wait_for()
