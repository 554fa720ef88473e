"""二七王 at the table in chromium, at 390 px (touch) and 1280 px: the opening bid with its
hints, the trump pick with the banker's pair counts, an attacker's signal shown to the table,
the countdown, and 解散 settling the match. Screenshots land in screenshots/ (git-ignored)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import BrowserPage
from tests.test_browser_play import no_horizontal_scroll, settled, start_from_link

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("short_bot_pause"),
]


@pytest.fixture(params=["phone", "desk"])
def bp(request: pytest.FixtureRequest) -> BrowserPage:
    page: BrowserPage = request.getfixturevalue(
        "phone_page" if request.param == "phone" else "browser_page"
    )
    return page


def tap(bp: BrowserPage, target: Any) -> None:
    """Tap on a touch screen, click on a desk."""
    if bp.page.evaluate("navigator.maxTouchPoints > 0"):
        target.tap()
    else:
        target.click()


def moved(bp: BrowserPage, target: Any) -> None:
    """Press a move button and wait for the table to be drawn at the next ply."""
    ply = bp.page.locator("#table").get_attribute("data-ply")
    tap(bp, target)
    bp.page.wait_for_function(
        f"document.querySelector('#table').dataset.ply !== '{ply}'"
        " || document.querySelector('[data-testid=play-error]')"
    )
    assert bp.page.get_by_test_id("play-error").count() == 0


def tall_enough(target: Any) -> None:
    for height in target.evaluate_all("els => els.map(e => e.getBoundingClientRect().height)"):
        assert height >= 40


def test_bid_and_trump_pick_with_pair_counts(bp: BrowserPage) -> None:
    page, width = bp.page, bp.page.viewport_size["width"]
    start_from_link(bp, "/play/?ruleset=erqiwang&seed=3&seat=0&bots=greedy")
    assert settled(page) == "bid"
    assert page.get_by_test_id("must-bid").is_visible()
    assert page.get_by_test_id("pass-disabled").is_disabled()
    assert page.get_by_test_id("countdown").is_visible()
    assert "叫分就是承诺" in page.get_by_test_id("bidding-terms").inner_text()
    tap(bp, page.get_by_test_id("bidding-hints").locator("summary"))
    assert "闲家捡到 70 分你就输" in page.get_by_test_id("bidding-hint-70").inner_text()
    tall_enough(page.locator('[data-testid^="bid-"].btn, [data-testid="bidding-hints"] summary'))
    assert no_horizontal_scroll(page)
    bp.shot(f"erqiwang-bid-{width}", full_page=True)
    moved(bp, page.get_by_test_id("bid-5"))
    assert settled(page) == "pick_trump"
    for suit in "SHCD":
        assert page.get_by_test_id(f"pairs-{suit}").inner_text().endswith("对")
    tall_enough(page.locator('[data-testid^="trump-"]'))
    assert no_horizontal_scroll(page)
    bp.shot(f"erqiwang-trump-{width}", full_page=True)
    moved(bp, page.get_by_test_id("trump-S"))
    assert settled(page) == "bury"


def test_a_signal_and_dissolving(bp: BrowserPage) -> None:
    page, width = bp.page, bp.page.viewport_size["width"]
    start_from_link(bp, "/play/?ruleset=erqiwang&seed=3&seat=1&bots=greedy")
    for _ in range(6):
        phase = settled(page)
        if phase != "bid":
            break
        moved(bp, page.get_by_test_id("pass"))
    assert phase in ("lead", "follow"), phase
    buttons = page.get_by_test_id("signal-buttons")
    assert buttons.is_visible()
    tall_enough(buttons.locator("button"))
    countdown = page.get_by_test_id("countdown")
    assert countdown.get_attribute("role") == "timer" and "秒" in countdown.inner_text()
    moved(bp, page.get_by_test_id("signal-has_points"))
    settled(page)
    assert "有分" in page.get_by_test_id("signals").inner_text()
    assert page.get_by_test_id("signal-buttons").count() == 0  # once a trick
    assert no_horizontal_scroll(page)
    bp.shot(f"erqiwang-signal-{width}", full_page=True)
    dissolve = page.get_by_test_id("dissolve")
    tap(bp, dissolve.locator("summary"))
    tall_enough(dissolve.locator("summary, label.confirm, button"))
    tap(bp, page.get_by_test_id("dissolve-confirm"))
    bp.shot(f"erqiwang-dissolve-{width}", full_page=True)
    tap(bp, page.get_by_test_id("dissolve-button"))
    page.wait_for_selector('[data-testid="dissolved"]')
    assert "这一场已解散" in page.get_by_test_id("dissolved").inner_text()
    assert "AA 制" in page.get_by_test_id("room-cards").inner_text()
    assert no_horizontal_scroll(page)
    bp.shot(f"erqiwang-dissolved-{width}", full_page=True)


def test_the_room_features_in_english(bp: BrowserPage) -> None:
    page, width = bp.page, bp.page.viewport_size["width"]
    page.context.add_cookies([{"name": "lang", "value": "en", "url": bp.base_url}])
    start_from_link(bp, "/play/?ruleset=erqiwang&seed=3&seat=0&bots=greedy")
    assert settled(page) == "bid"
    assert "must bid" in page.get_by_test_id("must-bid").inner_text()
    assert "A bid is a promise" in page.get_by_test_id("bidding-terms").inner_text()
    assert "s left" in page.get_by_test_id("countdown").inner_text()
    assert no_horizontal_scroll(page)
    bp.shot(f"erqiwang-bid-en-{width}", full_page=True)
    moved(bp, page.get_by_test_id("bid-5"))
    settled(page)
    assert "pair" in page.get_by_test_id("pairs-S").inner_text()
    assert no_horizontal_scroll(page)
    bp.shot(f"erqiwang-trump-en-{width}", full_page=True)
