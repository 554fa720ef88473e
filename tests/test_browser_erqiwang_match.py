"""A whole 二七王 match (6 rounds, the shortest the room allows, §10.1) played by taps on a
390 px phone: bids, trump picks, burials, plays (and a surrender where the bid allows one), 下一局
after each round, ending in the match summary. Screenshots under screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import BrowserPage
from tests.test_browser_play import no_horizontal_scroll, settled, start_from_link, take_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ROUNDS = 6


@pytest.fixture(autouse=True)
def _short_bot_pause(settings: Any) -> None:
    settings.PLAY_BOT_PAUSE_MS = 5


def play_round(page: Any) -> list[str]:
    """Tap through one round to its summary; return the phases the person was asked."""
    phases: list[str] = []
    for _ in range(120):
        phase = settled(page)
        if page.get_by_test_id("summary").count():
            return phases
        phases.append(phase)
        if phase == "surrender":  # the quick way a 70 bid allows: give the round up
            ply = page.locator("#table").get_attribute("data-ply")
            page.get_by_test_id("surrender").tap()
            page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'")
        else:
            take_turn(page, phase)
    raise AssertionError("the round did not end")


def test_a_whole_erqiwang_match_by_taps_at_390px(phone_page: BrowserPage) -> None:
    page = phone_page.page
    start_from_link(phone_page, "/play/?ruleset=erqiwang&seed=4&seat=0&bots=greedy")
    asked: list[str] = []
    for n in range(1, ROUNDS + 1):
        asked += play_round(page)
        match = page.get_by_test_id("match")
        assert f"第 {n} 局" in match.inner_text()
        if n < ROUNDS:
            assert page.get_by_test_id("match-over").count() == 0
            before = page.url
            page.get_by_test_id("next-round").tap()
            page.wait_for_url(lambda url, was=before: url != was)  # the next round: a new game
            page.wait_for_selector('[data-testid="table"]')
    assert {"bid", "lead", "follow"} <= set(asked)
    over = page.get_by_test_id("match-over")
    assert "整场结束" in over.inner_text()
    assert page.get_by_test_id("room-cards").is_visible()
    assert no_horizontal_scroll(page)
    over.scroll_into_view_if_needed()
    phone_page.shot("erqiwang-match-over-390", full_page=False)
    page.get_by_test_id("match-link").tap()
    page.wait_for_selector('[data-testid="match-rounds"]')
    assert page.get_by_test_id("match-round").count() == ROUNDS
    assert "整场结束" in page.get_by_test_id("match-over").inner_text()
    assert page.get_by_test_id("match-chips").count() == ROUNDS
    assert no_horizontal_scroll(page)
    phone_page.shot("erqiwang-match-summary-390", full_page=True)
