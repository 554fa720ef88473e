"""A whole round at the table in English, in chromium at 390 px by taps and at 1280 px by the
keyboard: seat boxes counting the cards really held, English lines in English ("You win",
no full-width punctuation, the kitty and winning the kitty named apart).

Screenshots go to screenshots/ (git-ignored) for a human look.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import BrowserPage
from tests.test_browser_keep import hint_and_play
from tests.test_browser_play import settled, start_from_link, take_turn

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("short_bot_pause"),
]

FULL_WIDTH = re.compile(r"[：（）]")
SEATS = "els => els.map(e => Number(e.querySelector('.left').innerText.match(/\\d+/)[0]))"


def english(bp: BrowserPage) -> None:
    bp.page.context.add_cookies([{"name": "lang", "value": "en", "url": bp.base_url}])


def check_lines(page: Any) -> str:
    text = str(page.locator("#table").inner_text())
    assert not FULL_WIDTH.findall(text), text[:400]
    assert "You wins" not in text and "You leads" not in text
    return text


def test_an_english_round_by_taps_at_390px(phone_page: BrowserPage) -> None:
    page = phone_page.page
    english(phone_page)
    start_from_link(phone_page, "/play/?ruleset=erqiwang&seed=4&seat=0&bots=greedy")
    seen: set[str] = set()
    for _turn in range(60):
        phase = settled(page)
        if page.get_by_test_id("summary").count():
            break
        seen.add(phase)
        check_lines(page)
        held = page.get_by_test_id("seat").evaluate_all(SEATS)
        mine = page.locator('#table .hand input[name="c"]').count()
        assert held[0] == mine, (phase, held, mine)
        if phase == "bury":
            assert held == [28 + 8, 28, 28]
            phone_page.shot("english-bury-390", full_page=False)
        if phase in ("lead", "follow"):
            assert sum(held) <= 3 * 28
        take_turn(page, phase)
    assert {"bid", "pick_trump", "bury", "lead"} <= seen
    text = check_lines(page)
    assert "Winning the kitty" in text and "Kitty" in text
    assert re.search(r"You win, \d+ points|won by you|\w+ · seat \d wins", text)
    phone_page.shot("english-summary-390", full_page=True)


def test_an_english_round_by_the_keyboard_at_1280px(browser_page: BrowserPage) -> None:
    page = browser_page.page
    english(browser_page)
    start_from_link(browser_page, "/play/?ruleset=shuangsheng&seed=11&seat=1&bots=greedy")
    for turn in range(60):
        phase = settled(page)
        if page.get_by_test_id("summary").count():
            break
        check_lines(page)
        held = page.get_by_test_id("seat").evaluate_all(SEATS)
        if phase == "declare":  # dealt so far: this seat's cards, the others one fewer or as many
            mine = page.locator('#table .hand input[name="c"]').count()
            assert held[1] == mine and all(h in (mine - 1, mine) for h in held), held
        if turn == 3:
            browser_page.shot("english-turn-1280", full_page=False)
        if phase in ("lead", "follow", "bury"):
            hint_and_play(page, keys=True)
            continue
        ply = page.locator("#table").get_attribute("data-ply")
        page.locator('[data-testid="declare"], [data-testid="pass"]').first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'")
    text = check_lines(page)
    assert "Winning the kitty" in text
    browser_page.shot("english-summary-1280", full_page=True)
