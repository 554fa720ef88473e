"""The trump pick's suit symbols are legible: each symbol's colour against its button's face
meets WCAG AA (≥ 4.5:1), computed from the browser's computed styles at 390 px."""

from __future__ import annotations

import re

import pytest

from tests.conftest import BrowserPage
from tests.test_browser_play import settled, start_from_link

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("short_bot_pause"),
]

# The colour an element's text is drawn in, and the first opaque background behind it.
COLOURS = """el => {
  let face = el;
  let bg = getComputedStyle(face).backgroundColor;
  while (face && (bg === 'rgba(0, 0, 0, 0)' || bg === 'transparent')) {
    face = face.parentElement;
    bg = face ? getComputedStyle(face).backgroundColor : 'rgb(255, 255, 255)';
  }
  return [getComputedStyle(el).color, bg];
}"""


def luminance(css: str) -> float:
    """The WCAG relative luminance of an opaque rgb()/rgba() colour."""
    r, g, b = (int(x) / 255 for x in re.findall(r"[\d.]+", css)[:3])
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(fore: str, back: str) -> float:
    """The WCAG contrast ratio of two colours."""
    high, low = sorted((luminance(fore), luminance(back)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_contrast_formula() -> None:
    assert contrast("rgb(0, 0, 0)", "rgb(255, 255, 255)") == pytest.approx(21)
    assert contrast("rgb(200, 16, 46)", "rgb(31, 95, 191)") < 4.5  # the old red on blue


def test_red_and_black_suit_symbols_on_the_trump_buttons_meet_aa(phone_page: BrowserPage) -> None:
    page = phone_page.page
    start_from_link(phone_page, "/play/?ruleset=erqiwang&seed=3&seat=0&bots=greedy")
    assert settled(page) == "bid"
    ply = page.locator("#table").get_attribute("data-ply")
    page.get_by_test_id("bid-5").tap()
    page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'")
    assert settled(page) == "pick_trump"
    ratios = {}
    for suit in "SHCD":
        fore, back = page.get_by_test_id(f"symbol-{suit}").evaluate(COLOURS)
        ratios[suit] = contrast(fore, back)
        label, face = page.get_by_test_id(f"trump-{suit}").evaluate(COLOURS)
        assert contrast(label, face) >= 4.5, (suit, label, face)
    assert all(r >= 4.5 for r in ratios.values()), ratios
    red = page.get_by_test_id("symbol-H").evaluate("el => getComputedStyle(el).color")
    black = page.get_by_test_id("symbol-S").evaluate("el => getComputedStyle(el).color")
    assert red != black  # the red suits stay red
    page.get_by_test_id("trump-D").scroll_into_view_if_needed()
    phone_page.shot("trump-buttons-contrast-390", full_page=False)
