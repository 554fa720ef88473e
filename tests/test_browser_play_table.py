"""The table's status bar, rule, one-tap example, judged play button, placeholders and last
trick in chromium at 390 px and 1280 px (issue 26, point 2). Screenshots under screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import BrowserPage
from tests.test_browser_play import settled, start_from_link

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("short_bot_pause"),
]
GAME = "/play/?ruleset=classic&seed=3&seat=1&bots=greedy"


def _in_view(page: Any, testid: str) -> bool:
    box = page.get_by_test_id(testid).bounding_box()
    return (
        box is not None
        and box["y"] >= -1
        and box["y"] + box["height"] <= page.viewport_size["height"] + 1
    )


def press(page: Any, testid: str) -> None:
    """Tap on a touch screen, click on a desk."""
    target = page.get_by_test_id(testid)
    if page.evaluate("navigator.maxTouchPoints > 0"):
        target.tap()
    else:
        target.click()


def play_hinted(page: Any) -> None:
    """Make the person's card move by the hint and 出牌; wait for the table to move on."""
    ply = page.locator("#table").get_attribute("data-ply")
    press(page, "hint")
    page.get_by_test_id("hint-text").wait_for()
    press(page, "play-button")
    page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'")


def _check_table(bp: BrowserPage, name: str) -> None:
    page = bp.page
    start_from_link(bp, GAME)
    assert settled(page) == "follow"
    assert page.get_by_test_id("pending").count() == 3
    assert "跟牌要求" in page.get_by_test_id("rule").inner_text()
    button = page.get_by_test_id("play-button")
    assert button.is_disabled()
    assert button.bounding_box()["height"] >= 40
    assert page.get_by_test_id("example").bounding_box()["height"] >= 40
    # The status bar stays in view with the hand scrolled to.
    page.locator(".hand label.pick").last.scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert _in_view(page, "status") and _in_view(page, "points")
    assert page.get_by_test_id("held").count() == 4
    assert page.get_by_test_id("band-mark").count() >= 4
    # One tap on the example: the picks become a legal play and 出牌 is on.
    press(page, "example")
    page.wait_for_function("!document.querySelector('[data-testid=play-button]').disabled")
    assert page.locator('.hand input[name="c"]:checked').count() == 2
    bp.shot(f"{name}-rule", full_page=False)
    ply = page.locator("#table").get_attribute("data-ply")
    press(page, "play-button")
    page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'")
    for _ in range(3):  # a few more turns: the last trick is one tap away
        settled(page)
        play_hinted(page)
    settled(page)
    last = page.get_by_test_id("last-trick")
    last.locator("summary").click()
    assert last.locator(".play").count() == 4
    assert _in_view(page, "last-trick")
    bp.shot(f"{name}-last-trick", full_page=False)


def test_the_table_at_390px(phone_page: BrowserPage) -> None:
    _check_table(phone_page, "table-390")


def test_the_table_at_1280px(browser_page: BrowserPage) -> None:
    _check_table(browser_page, "table-1280")


def _screen_order(page: Any) -> list[int]:
    """The hand's data-order values in reading order on screen (rows, then left to right)."""
    boxes = page.locator(".hand label.pick").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [Math.round(r.top / 10), r.left, Number(e.dataset.order)]; })"
    )
    return [order for _top, _left, order in sorted(boxes)]


@pytest.mark.parametrize(("width", "fixture"), [(390, "phone_page"), (1280, "browser_page")])
def test_display_settings_sort_the_hand_and_colour_four_suits(
    request: pytest.FixtureRequest, width: int, fixture: str
) -> None:
    bp: BrowserPage = request.getfixturevalue(fixture)
    page = bp.page
    start_from_link(bp, GAME)
    settled(page)
    page.get_by_test_id("display-settings").locator("summary").click()
    press(page, "sort-strength")
    assert page.get_by_test_id("sort-strength").get_attribute("aria-pressed") == "true"
    order = _screen_order(page)
    assert order == sorted(order)
    colour = "el => getComputedStyle(el).color"
    spade = page.locator('.hand .card[title^="♠"]').first
    club = page.locator('.hand .card[title^="♣"]').first
    assert spade.evaluate(colour) == club.evaluate(colour)
    press(page, "colours-4")
    assert spade.evaluate(colour) != club.evaluate(colour)
    assert "♣" in club.inner_text()  # the symbol stays: colour is never the only signal
    for box in page.locator("[data-setting]").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().height)"
    ):
        assert box >= 40
    bp.shot(f"table-{width}-settings", full_page=False)
    page.reload()
    settled(page)
    assert _screen_order(page) == sorted(_screen_order(page))  # kept in this browser
    play_hinted(page)
    settled(page)
    assert _screen_order(page) == sorted(_screen_order(page))  # and after a move
    assert page.locator("html.four-colour").count() == 1


@pytest.mark.parametrize(("width", "fixture"), [(390, "phone_page"), (1280, "browser_page")])
def test_take_back_by_a_tap(request: pytest.FixtureRequest, width: int, fixture: str) -> None:
    bp: BrowserPage = request.getfixturevalue(fixture)
    page = bp.page
    start_from_link(bp, GAME)
    settled(page)
    hand = page.locator(".hand input[name=c]").evaluate_all("els => els.map(e => e.value)")
    play_hinted(page)
    settled(page)
    assert page.locator(".hand input[name=c]").count() == len(hand) - 2
    press(page, "take-back")
    page.get_by_test_id("taken-back").wait_for()
    settled(page)
    assert page.locator(".hand input[name=c]").evaluate_all("els => els.map(e => e.value)") == hand
    assert page.get_by_test_id("pending").count() == 3
    bp.shot(f"table-{width}-taken-back", full_page=False)


def _centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize(
    ("url", "players"),
    [(GAME, 4), ("/play/?ruleset=multideck&seed=2&seat=0&bots=greedy&options=players:6", 6)],
)
def test_the_desk_puts_the_seats_around_the_trick(
    browser_page: BrowserPage, url: str, players: int
) -> None:
    page = browser_page.page
    page.set_viewport_size({"width": 1280, "height": 800})
    start_from_link(browser_page, url)
    settled(page)
    middle = page.locator(".felt .trick, .felt .centre").first.bounding_box()
    tx, ty = _centre(middle)
    seats = page.get_by_test_id("seat")
    assert seats.count() == players
    sides = set()
    for i in range(players):
        x, y = _centre(seats.nth(i).bounding_box())
        mine = "me" in (seats.nth(i).get_attribute("class") or "")
        if mine:
            assert y > ty  # the person at the bottom
        sides.add(
            "left" if x < tx - 100 else "right" if x > tx + 100 else "above" if y < ty else "below"
        )
    assert {"left", "right", "above", "below"} <= sides
    browser_page.shot(f"table-desk-{players}", full_page=False)


def test_the_phone_keeps_one_column(phone_page: BrowserPage) -> None:
    page = phone_page.page
    start_from_link(phone_page, GAME)
    settled(page)
    trick = page.get_by_test_id("trick").bounding_box()
    for box in page.get_by_test_id("seat").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().bottom)"
    ):
        assert box <= trick["y"] + 1  # every seat above the trick, none beside it
