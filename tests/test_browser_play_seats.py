"""The /play/ lobby's per-seat bots, a multideck round and a match's history in chromium at
390 px. Screenshots go under screenshots/ (git-ignored) for a human look."""

from __future__ import annotations

import pytest

from checker.models import PlayGame
from tests.conftest import BrowserPage
from tests.test_browser_play import no_horizontal_scroll, settled, start_from_link

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("short_bot_pause"),
]


def test_the_lobby_picks_a_bot_for_each_seat_at_390px(phone_page: BrowserPage) -> None:
    page = phone_page.page
    phone_page.goto("/play/")
    assert no_horizontal_scroll(page)
    for seat in range(4):
        box = page.locator(f'select[name="bot{seat}"]').bounding_box()
        assert box is not None and box["height"] >= 40
    for label in page.locator(".seat-button span").all():  # seat buttons, not a number box
        box = label.bounding_box()
        assert box is not None and box["height"] >= 40
    page.locator(".seat-button span", has_text="座2").tap()
    assert page.locator('input[name="seat"][value="2"]').is_checked()
    page.locator(".seat-button span", has_text="座0").tap()
    page.locator("details.options summary").tap()
    page.locator('input[name="seed"]').fill("3")
    page.locator('select[name="bot1"]').select_option("random")
    page.locator('select[name="bot3"]').select_option("greedy")
    phone_page.shot("play-lobby-seats", full_page=True)
    page.get_by_test_id("start").tap()
    assert settled(page) == "follow" or settled(page)
    shown = page.get_by_test_id("seat-bot").all_inner_texts()
    assert shown == ["random", "v2", "greedy"]
    assert PlayGame.objects.get().bots == "-,random,v2,greedy"
    phone_page.shot("play-seat-bots", full_page=False)


def test_a_multideck_round_by_tapping_at_390px_then_the_match_page(
    phone_page: BrowserPage,
) -> None:
    from tests.test_browser_play import play_to_the_end

    page = phone_page.page
    start_from_link(phone_page, "/play/?ruleset=multideck&seed=2&seat=0&bots=greedy")
    assert settled(page) == "declare"
    phases = play_to_the_end(phone_page, "play-multideck")
    assert {"declare", "bury", "lead", "follow"} <= set(phases)
    assert no_horizontal_scroll(page)
    assert page.get_by_test_id("summary").is_visible()
    phone_page.shot("play-multideck-summary", full_page=True)
    page.get_by_test_id("match-link").tap()
    page.wait_for_selector('[data-testid="match-round"]')
    assert page.get_by_test_id("match-round").count() == 1
    assert page.get_by_test_id("match-levels").inner_text()
    assert no_horizontal_scroll(page)
    phone_page.shot("play-match", full_page=True)


def test_no_trump_counts_and_the_mingpai_toggle_at_390px(phone_page: BrowserPage) -> None:
    from checker.play.game import format_moves
    from tests.test_play_review_mode import _after_no_trump

    pos = _after_no_trump()
    moves = format_moves(pos.moves)
    page = phone_page.page
    start_from_link(
        phone_page, f"/play/?ruleset=erqiwang&seed={pos.spec.seed}&seat=0&bots=greedy&moves={moves}"
    )
    settled(page)
    assert page.get_by_test_id("trump-count").count() == 2
    toggle = page.get_by_test_id("mingpai")
    assert toggle.bounding_box()["height"] >= 40
    toggle.tap()
    page.wait_for_selector('[data-testid="mingpai"][aria-pressed="true"]')
    assert no_horizontal_scroll(page)
    phone_page.shot("play-mingpai", full_page=True)
    page.reload()  # the toggle is in the address: a reload keeps 明牌 on
    settled(page)
    page.wait_for_selector('[data-testid="mingpai"][aria-pressed="true"]')
    assert page.get_by_test_id("mingpai-cards").count() > 0
    page.get_by_test_id("mingpai").tap()
    page.wait_for_selector('[data-testid="mingpai"][aria-pressed="false"]')
    assert page.get_by_test_id("mingpai-cards").count() == 0
    page.reload()
    settled(page)
    page.wait_for_selector('[data-testid="mingpai"][aria-pressed="false"]')


def test_hidden_declarations_show_as_a_count_at_390px(phone_page: BrowserPage) -> None:
    from tests.test_play_multideck import _hidden_game_with_a_bot_declaration

    pos, seed = _hidden_game_with_a_bot_declaration()
    page = phone_page.page
    start_from_link(
        phone_page,
        f"/play/?ruleset=multideck&seed={seed}&seat=0&bots=greedy&options=declare_view:hidden",
    )
    assert settled(page) == "declare"
    calls = page.get_by_test_id("declarations").inner_text()
    assert "暗亮" in calls
    assert no_horizontal_scroll(page)
    phone_page.shot("play-hidden-declare", full_page=False)
