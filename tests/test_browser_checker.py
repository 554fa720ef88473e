"""The checker on a phone (issue 8, item 4): taps only, the verdict in view, each follower's
play picked from their own hand, merged typing, the language switch and keyboard-only entry.

Screenshots go to screenshots/ (git-ignored) for a human look.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import BrowserPage

pytestmark = pytest.mark.django_db

CJK = re.compile(r"[\u3400-\u9fff]")


def tap_target(page, field: str) -> None:  # type: ignore[no-untyped-def]
    page.locator(f'#grid-targets input[value="{field}"]').locator("xpath=..").tap()


def tap_cards(page, *cards: str) -> None:  # type: ignore[no-untyped-def]
    for card in cards:
        page.locator(f'#cardgrid button[data-card="{card}"]').tap()


def in_viewport(page, selector: str) -> bool:  # type: ignore[no-untyped-def]
    return bool(
        page.evaluate(
            """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                 return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }""",
            selector,
        )
    )


def build_dispute(page) -> None:  # type: ignore[no-untyped-def]
    """Lead ♠A♠Q♠Q, player 1 holds ♠K♠K♠3♠4 and plays ♠K♠K: taps only."""
    tap_target(page, "f-lead")
    tap_cards(page, "♠A", "♠Q", "♠Q")
    tap_target(page, "f-h1")
    tap_cards(page, "♠K", "♠K", "♠3", "♠4")
    picker = page.get_by_test_id("picker-1")
    picker.locator('button.pick[data-card="♠K"]').first.tap()
    picker.locator('button.pick[data-card="♠K"]').nth(1).tap()


def test_dispute_by_taps_on_a_phone_verdict_in_view(phone_page: BrowserPage) -> None:
    page = phone_page.page
    phone_page.goto("/check/")
    build_dispute(page)
    assert page.locator("#f-lead").input_value() == "♠A ♠Q ♠Q"
    assert page.locator("#f-h1").input_value() == "♠K ♠K ♠4 ♠3"
    assert page.locator("#f-p1").input_value() == "♠K ♠K"
    line = page.get_by_test_id("summary-1")
    line.wait_for()
    page.wait_for_function(  # after the second ♠K: "✓ 合法" (not "✗ 不合法：张数不符")
        "document.querySelector('[data-testid=summary-1]').innerText.includes('✓')"
    )
    # The summary sticks to the top: readable where the last tap happened, without scrolling.
    assert in_viewport(page, '[data-testid="summary-1"]')
    assert "✓" in line.inner_text()
    assert "甩牌失败" in page.get_by_test_id("summary-0").inner_text()
    assert "玩家 1 赢" in page.get_by_test_id("summary-trick").inner_text() or "领先" in (
        page.get_by_test_id("summary-trick").inner_text()
    )
    phone_page.shot("phone-dispute-taps", full_page=False)


def test_failed_throw_scenario_shows_the_kk_follow_legal_and_winning(
    phone_page: BrowserPage,
) -> None:
    page = phone_page.page
    phone_page.goto("/check/?ruleset=classic&level=2&trump=H&lead=SA+SQ+SQ&h1=SK+SK+S3+S4&p1=SK+SK")
    assert "✓" in page.get_by_test_id("legal-1").inner_text()
    assert page.get_by_test_id("wins-1").is_visible()
    led = page.get_by_test_id("verdict-led").inner_text()
    assert "♠Q ♠Q" in led and "其余收回" in led
    assert "须出：一对♠" in page.get_by_test_id("need-1").inner_text()
    assert "玩家 1" in page.get_by_test_id("trick-winner").inner_text()
    page.get_by_test_id("verdict-led").scroll_into_view_if_needed()
    phone_page.shot("phone-failed-throw", full_page=False)
    phone_page.shot("phone-failed-throw-full")


def test_switch_to_english_keeps_the_scenario_built_by_taps(phone_page: BrowserPage) -> None:
    page = phone_page.page
    phone_page.goto("/check/")
    build_dispute(page)
    page.wait_for_function("location.search.includes('p1=SK+SK')")
    with page.expect_navigation(url="**/check/?**"):
        page.get_by_test_id("lang-switch").tap()
    page.wait_for_function("document.documentElement.lang === 'en'")
    # The fields as they stood (glyphs as picked; the language switch reads the form itself).
    assert page.locator("#f-p1").input_value().replace("♠", "S") == "SK SK"
    summary = page.get_by_test_id("summary").inner_text()
    assert "Legal" in summary and not CJK.search(summary.replace("♠", ""))
    phone_page.shot("phone-english", full_page=False)


def test_keyboard_only_entry(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/check/")
    page.locator("#f-lead").focus()
    page.keyboard.type("SA SQ SQ")
    page.keyboard.press("Tab")  # h0
    page.keyboard.press("Tab")  # h1
    page.keyboard.type("SK SK S3 S4")
    # The grid follows the focused field and stays reachable: focus a cell, add with Enter.
    page.locator('#cardgrid button[data-card="♠A"]').focus()
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.card") == "♥A"
    page.keyboard.press("Enter")
    assert (
        page.locator("#f-h1").input_value().endswith("♥A")
        or "♥A" in page.locator("#f-h1").input_value()
    )
    page.keyboard.press("Backspace")
    assert "♥A" not in page.locator("#f-h1").input_value()
    assert page.evaluate("document.activeElement.dataset.card") == "♥A"  # focus kept
    # Player 1's play from the hand buttons, by keyboard.
    page.get_by_test_id("picker-1").locator('button.pick[data-card="♠K"]').first.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.locator("#f-p1").input_value() == "♠K ♠K"
    page.wait_for_function(
        "document.querySelector('[data-testid=legal-1]')"
        " && document.querySelector('[data-testid=legal-1]').innerText.includes('✓')"
    )
    assert page.evaluate("document.activeElement.dataset.card") == "♠K"
    browser_page.shot("checker-keyboard")


def test_grid_tap_merges_with_typed_text_and_marks_the_bad_token(phone_page: BrowserPage) -> None:
    page = phone_page.page
    phone_page.goto("/check/")
    page.locator("#f-h1").fill("SK zz")
    error = page.locator("#err-f-h1")
    assert (
        error.is_visible() and "玩家 1 的手牌" in error.inner_text() and "zz" in error.inner_text()
    )
    tap_target(page, "f-h1")
    tap_cards(page, "♠A")
    value = page.locator("#f-h1").input_value()
    assert "♠A" in value and "♠K" in value and "zz" in value
    phone_page.shot("phone-bad-token", full_page=False)


def test_ruleset_change_keeps_cards_and_says_which_it_dropped(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/check/?ruleset=classic&level=2&trump=H&lead=S3+S3&h1=SK+SK+S4")
    with page.expect_navigation(url="**ruleset=erqiwang**"):
        page.select_option("#f-ruleset", "erqiwang")
    page.get_by_test_id("ruleset-notice").wait_for()
    notice = page.get_by_test_id("ruleset-notice").inner_text()
    assert "♠3" in notice and "♠4" in notice
    assert page.locator("#f-h1").input_value() == "SK SK"
    assert page.evaluate("document.activeElement.id") == "f-ruleset"
    browser_page.shot("checker-ruleset-switch")


@pytest.mark.parametrize("name", ["classic", "erqiwang", "shuangsheng", "terminal-003-200"])
def test_rules_pages_card_rows_wrap_on_a_phone(phone_page: BrowserPage, name: str) -> None:
    page = phone_page.page
    phone_page.goto(f"/rulesets/{name}/")
    wide = page.evaluate(
        "[...document.querySelectorAll('.card')].filter("
        "e => e.getBoundingClientRect().right > window.innerWidth + 1).length"
    )
    assert wide == 0
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.locator(".ladder").first.scroll_into_view_if_needed()
    phone_page.shot(f"phone-rules-{name}", full_page=False)


def test_a_house_rulesets_level_table_and_no_trump_rule_on_a_phone(phone_page: BrowserPage) -> None:
    page = phone_page.page
    phone_page.goto("/rulesets/terminal-003-200/")
    bands = page.locator('[data-testid="score-bands"]')
    bands.scroll_into_view_if_needed()
    table = page.locator("table", has_text="200").last
    assert "120–195" in table.inner_text() and "200" in table.inner_text()
    assert page.locator('[data-testid="no-trump-rule"]').count() == 1
    phone_page.shot("phone-rules-terminal-003-200-bands", full_page=False)
