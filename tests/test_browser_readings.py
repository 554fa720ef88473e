"""Which did you mean? A picked lead that could be read several ways says, before 出牌, how the
rules read it and why: at the table (390 px, tapped) and on the checker page. Screenshots under
screenshots/."""

from __future__ import annotations

from collections import Counter

import pytest

from checker.engine.cards import ascii_card
from checker.models import PlayGame
from tests.conftest import BrowserPage
from tests.test_browser_play import settled, start_from_link, take_turn
from tests.test_play_views import position
from tests.test_readings_pages import THROW, readable_lead

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("short_bot_pause"),
]


def test_the_table_says_how_a_tapped_throw_is_read_at_390px(phone_page: BrowserPage) -> None:
    page = phone_page.page
    start_from_link(phone_page, "/play/?ruleset=multideck&seed=2&seat=0&bots=greedy")
    while (phase := settled(page)) != "lead":
        take_turn(page, phase)
    key = page.url.rstrip("/").split("/")[-1]
    cards = readable_lead(position(PlayGame.objects.get(key=key)).ask.view)
    for card, n in Counter(ascii_card(c) for c in cards).items():
        labels = page.locator(f'label.pick:has([data-testid="card-{card}"])')
        for i in range(n):
            labels.nth(i).tap()
    reading = page.get_by_test_id("reading")
    reading.wait_for()
    assert not page.get_by_test_id("play-button").is_disabled()
    text = reading.inner_text()
    assert "这手牌读作" in text and "也可看作" in text and "按规则读作前者，因为" in text
    reading.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    phone_page.shot("readings-table-390", full_page=False)
    ply = page.locator("#table").get_attribute("data-ply")
    page.get_by_test_id("play-button").tap()
    page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'")
    assert page.get_by_test_id("play-error").count() == 0


def test_the_checker_shows_the_readings_in_english_at_390px(phone_page: BrowserPage) -> None:
    page = phone_page.page
    page.context.add_cookies([{"name": "lang", "value": "en", "url": phone_page.base_url}])
    phone_page.goto(THROW)
    reading = page.get_by_test_id("reading")
    assert "Read as" in reading.inner_text() and "It could also be seen as" in reading.inner_text()
    assert page.get_by_test_id("reading-other").count() == 1
    reading.scroll_into_view_if_needed()
    phone_page.shot("readings-check-390-en", full_page=False)
