"""What the pages keep for the reader, in chromium: the keyboard on the hand after every move,
the picked cards across the language switch (table and checker), the dashboard's failure count
leading to the results, and the replay's index leading to a trick.

Screenshots go to screenshots/ (git-ignored) for a human look.
"""

from __future__ import annotations

from typing import Any

import pytest

from checker.web import selfcheck
from tests.conftest import BrowserPage
from tests.test_browser_checker import build_dispute
from tests.test_browser_csp import LISTEN
from tests.test_browser_play import settled, start_from_link, take_turn

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("short_bot_pause"),
]

FIELDS = ("lead", "h1", "p1")
GAME = "/play/?ruleset=classic&seed=3&seat=1&bots=greedy"  # seat 1 follows a led ♦9♦9 first
ON_HAND = "() => !!document.activeElement.closest('#table .hand, #table .actions')"
FOCUS = """() => { const a = document.activeElement;
  return {tag: a.tagName, name: a.name || '', inHand: !!a.closest('#table .hand, #table .actions')}; }"""
IN_VIEW = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.top < window.innerHeight && r.height > 0; }"""


def hint_and_play(page: Any, *, keys: bool) -> None:
    """Take the hint and play it, from the keyboard (keys) or by clicks; wait for the move."""
    ply = page.locator("#table").get_attribute("data-ply")
    for testid in ("hint", "play-button"):
        if keys:
            page.get_by_test_id(testid).focus()
            page.keyboard.press("Enter")
        else:
            page.get_by_test_id(testid).click()
        if testid == "hint":
            page.get_by_test_id("hint-text").wait_for()
            if keys:  # focus is put back once htmx has settled the new table
                page.wait_for_function(ON_HAND)
    page.wait_for_function(f"document.querySelector('#table').dataset.ply !== '{ply}'")


def test_the_keyboard_stays_on_the_hand_after_every_move(browser_page: BrowserPage) -> None:
    page = browser_page.page
    start_from_link(browser_page, GAME)
    assert settled(page) == "follow"
    # A refused move (two singles to a led pair): the table is redrawn with the reason.
    for card in ("D6", "D3"):
        page.get_by_test_id(f"card-{card}").first.focus()
        page.keyboard.press("Space")
    # 出牌 stays off for them, said before any try; the keyboard stays on the cards.
    page.wait_for_function(  # the answer to the second card, not the first
        "(document.querySelector('[data-testid=play-why]') || {}).innerText"
        "?.includes('有对子必须出对子')"
    )
    assert page.get_by_test_id("play-button").is_disabled()
    assert page.evaluate(FOCUS) == {"tag": "INPUT", "name": "c", "inHand": True}
    # Sent anyway (the button forced on, as a stale page might): the server refuses it.
    page.evaluate("document.querySelector('[data-testid=play-button]').disabled = false")
    page.get_by_test_id("play-button").focus()
    page.keyboard.press("Enter")
    page.get_by_test_id("play-error").wait_for()
    page.wait_for_function(ON_HAND)
    assert page.evaluate(FOCUS) == {"tag": "INPUT", "name": "c", "inHand": True}
    # Accepted moves, made from the keyboard only: focus is on the hand after the bots reply.
    for _turn in range(4):
        hint_and_play(page, keys=True)
        settled(page)
        page.wait_for_function(ON_HAND)
        focus = page.evaluate(FOCUS)
        assert focus == {"tag": "INPUT", "name": "c", "inHand": True}, focus
        page.keyboard.press("Space")  # the focused card is picked without a Tab
        assert page.locator('#table .hand input[name="c"]:checked').count() >= 1
        page.keyboard.press("Space")
    browser_page.shot("keep-focus-on-hand", full_page=False)


def test_picked_cards_survive_the_language_switch_at_the_table(phone_page: BrowserPage) -> None:
    page = phone_page.page
    start_from_link(phone_page, GAME)
    assert settled(page) == "follow"
    for card in ("D6", "D3"):
        page.locator(f'label.pick:has([data-testid="card-{card}"])').first.tap()
    page.get_by_test_id("lang-switch").tap()
    page.wait_for_selector('html[lang="en"]')
    settled(page)
    picked = page.locator('#table .hand input[name="c"]:checked').evaluate_all(
        "els => els.map(e => e.value)"
    )
    assert sorted(picked) == ["D3", "D6"]
    phone_page.shot("keep-picks-table-en", full_page=False)
    # Once played, the picks of that turn are not brought back to a later turn.
    page.get_by_test_id("lang-switch").tap()
    page.wait_for_selector('html[lang="zh-Hans"]')
    settled(page)
    take_turn(page, "follow")
    settled(page)
    page.get_by_test_id("lang-switch").tap()
    page.wait_for_selector('html[lang="en"]')
    assert page.locator('#table .hand input[name="c"]:checked').count() == 0


def test_picked_cards_survive_the_language_switch_in_the_checker(phone_page: BrowserPage) -> None:
    page = phone_page.page
    phone_page.goto("/check/")
    build_dispute(page)
    page.get_by_test_id("lang-switch").tap()  # at once: before the form's own request
    page.wait_for_selector('html[lang="en"]')
    fields = {f: page.locator(f"#f-{f}").input_value().replace("♠", "S") for f in FIELDS}
    assert fields == {"lead": "SA SQ SQ", "h1": "SK SK S4 S3", "p1": "SK SK"}
    phone_page.shot("keep-picks-checker-en", full_page=False)


@pytest.mark.parametrize("fixture", ["phone_page", "browser_page"])
def test_the_failure_count_takes_the_reader_to_the_results(
    request: pytest.FixtureRequest, fixture: str, failing_run: selfcheck.Run
) -> None:
    bp: BrowserPage = request.getfixturevalue(fixture)
    page = bp.page
    bp.goto("/")
    page.get_by_test_id("count-fail").click()
    page.wait_for_url("**/?status=fail#results")
    count = page.get_by_test_id("shown-count")
    assert page.evaluate(IN_VIEW, "#results") and count.is_visible()
    assert f"1 / {failing_run.total}" in count.inner_text()
    assert page.locator('[data-testid="case-row"][data-status="fail"]').count() == 1
    bp.shot(f"keep-failure-filter-{fixture}", full_page=False)
    # The filter form (htmx): the results are redrawn under it, brought into view with the count.
    page.evaluate("window.scrollTo(0, 0)")
    page.select_option("#f-status", "error")
    page.wait_for_function(
        "document.querySelector('[data-testid=shown-count]').innerText.includes('2 /')"
    )
    page.wait_for_function(IN_VIEW, arg="#results")
    assert page.locator('[data-testid="case-row"][data-status="error"]').count() >= 1


@pytest.mark.parametrize("fixture", ["phone_page", "browser_page"])
def test_the_replay_index_jumps_to_a_trick(request: pytest.FixtureRequest, fixture: str) -> None:
    bp: BrowserPage = request.getfixturevalue(fixture)
    page = bp.page
    start_from_link(bp, GAME)
    for _turn in range(4):  # classic seed 3, seat 1: follows and leads only
        settled(page)
        hint_and_play(page, keys=False)
    settled(page)
    page.get_by_test_id("replay-link").click()
    index = page.get_by_test_id("trick-index")
    links = index.locator("a")
    assert links.count() >= 4
    links.nth(3).click()
    page.wait_for_url("**#trick-4")
    heading = page.locator("#trick-4 h2")
    top = heading.evaluate("e => e.getBoundingClientRect().top")
    bottom = index.evaluate("e => e.getBoundingClientRect().bottom")
    assert bottom <= top < page.viewport_size["height"], (bottom, top)  # not under the index
    assert index.is_visible()
    bp.shot(f"keep-replay-index-{fixture}", full_page=False)


def test_the_table_script_runs_under_the_content_security_policy(strict_page: BrowserPage) -> None:
    page = strict_page.page
    page.add_init_script(LISTEN)
    start_from_link(strict_page, GAME)
    assert settled(page) == "follow"
    page.get_by_test_id("hint").click()  # locators only: a string predicate would need eval
    page.get_by_test_id("hint-text").wait_for()
    page.get_by_test_id("play-button").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('#table[data-ply="1"]:not([data-partial])')
    page.locator('#table .hand input[name="c"]:focus').wait_for(state="attached")
    assert page.evaluate("window.__csp") == []
