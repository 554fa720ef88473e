"""End-to-end tests in chromium: dashboard, filters, case page, checker, permalink, English.

Each test saves a screenshot under screenshots/ (git-ignored) for a human look.
"""

from __future__ import annotations

import re

import pytest

from checker.web import selfcheck
from tests.conftest import BrowserPage

pytestmark = pytest.mark.browser


def no_horizontal_scroll(page) -> bool:  # type: ignore[no-untyped-def]
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def test_dashboard_counts(browser_page: BrowserPage) -> None:
    run = selfcheck.get_run("classic")
    page = browser_page.page
    browser_page.goto("/")
    headline = page.get_by_test_id("headline").inner_text()
    seed = run.seed
    assert seed is not None
    assert f"种子自检 {seed.passed}/{seed.rows}" in headline
    assert f"补充用例 {seed.extra_passed}/{seed.extra_total}" in headline
    assert page.get_by_test_id("seed-category").count() == 14
    if run.ok and not seed.missing:
        assert "全部通过" in headline
    assert page.get_by_test_id("count-pass").inner_text().endswith(str(run.passed))
    assert page.get_by_test_id("tile").count() == len(run.categories())
    # Failures and errors first; each category's passes load (htmx) when opened.
    assert page.get_by_test_id("case-row").count() == run.failed + run.errors
    category, items = run.categories()[0]
    fold = page.get_by_test_id("fold").first
    with page.expect_response(re.compile(r"part=rows")):
        fold.locator("summary").click()
    fold.get_by_test_id("case-row").first.wait_for()
    assert fold.get_by_test_id("case-row").count() == sum(r.status == "pass" for r in items)
    browser_page.shot("dashboard", full_page=False)


def test_dashboard_search_reacts_to_input_and_keeps_one_history_entry(
    browser_page: BrowserPage,
) -> None:
    run = selfcheck.get_run("classic")
    target = run.results[0]
    page = browser_page.page
    browser_page.goto("/")
    start = page.evaluate("history.length")
    # A paste is one input event: the rows follow without a key press.
    with page.expect_response(re.compile(r"q=")):
        page.locator("#f-q").fill(target.id[:-2])
    page.wait_for_function("location.search.includes('q=')")
    with page.expect_response(re.compile(r"q=")):
        page.locator("#f-q").press_sequentially(target.id[-2:], delay=30)
    page.wait_for_function(f"location.search.includes({target.id!r})")
    page.locator(f"#case-{target.id}").wait_for()
    assert page.evaluate("history.length") == start + 1  # one entry for the whole search
    page.get_by_test_id("clear-filters").click()
    page.wait_for_url("**/rulesets/classic/selfcheck/")


def test_filter_to_failures(browser_page: BrowserPage) -> None:
    run = selfcheck.get_run("classic")
    page = browser_page.page
    browser_page.goto("/")
    with page.expect_response(re.compile(r"status=fail")):
        page.select_option("#f-status", "fail")
    page.wait_for_function("location.search.includes('status=fail')")
    rows = page.get_by_test_id("case-row")
    assert rows.count() == run.failed
    for i in range(rows.count()):
        assert rows.nth(i).get_attribute("data-status") == "fail"
    if run.failed == 0:
        assert page.locator("#results .message.info").is_visible()
    # The filtered view is shareable: reloading the URL gives the same rows.
    page.reload()
    assert page.locator("#f-status").input_value() == "fail"
    assert page.get_by_test_id("case-row").count() == run.failed
    browser_page.shot("dashboard-failures", full_page=False)


def test_text_filter_and_case_page(browser_page: BrowserPage) -> None:
    run = selfcheck.get_run("classic")
    target = next(r for r in run.results if r.kind == "follow")
    page = browser_page.page
    browser_page.goto("/?q=" + target.id)
    row = page.locator(f"#case-{target.id}")
    assert row.is_visible()
    row.locator("td.title a").first.click()
    page.wait_for_url(f"**/cases/classic/{target.id}/")
    assert target.title in page.locator("h1").inner_text()
    assert page.get_by_test_id("case-status").is_visible()
    assert f"id: {target.id}" in page.get_by_test_id("yaml-source").inner_text()
    browser_page.shot("case-page")
    page.get_by_test_id("open-in-checker").click()
    page.wait_for_url("**/check/?**")
    assert page.get_by_test_id("verdict-follow-1").is_visible()
    browser_page.shot("case-open-in-checker", full_page=False)


def _click(page, card: str, times: int = 1) -> None:  # type: ignore[no-untyped-def]
    for _ in range(times):
        page.locator(f'#cardgrid button[data-card="{card}"]').click()


def test_build_by_clicking_and_check(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/check/")
    page.locator('#grid-targets input[value="f-lead"]').locator("xpath=..").click()
    _click(page, "♠K", 2)
    assert page.locator("#f-lead").input_value() == "♠K ♠K"
    assert page.locator('#cardgrid button[data-card="♠K"]').get_attribute("data-count") == "2"
    page.locator('#grid-targets input[value="f-h1"]').locator("xpath=..").click()
    # ♠K is used up by the lead (two decks): its cell is disabled for player 1.
    assert page.locator('#cardgrid button[data-card="♠K"]').is_disabled()
    for card in ("♠Q", "♠Q", "♠10", "♠5"):
        _click(page, card)
    page.locator('#grid-targets input[value="f-p1"]').locator("xpath=..").click()
    _click(page, "♠Q", 2)
    assert page.locator("#f-p1").input_value() == "♠Q ♠Q"
    page.get_by_role("button", name="检查", exact=True).click()
    page.get_by_test_id("legal-1").wait_for()
    assert "合法" in page.get_by_test_id("legal-1").inner_text()
    assert "对子" in page.get_by_test_id("verdict-lead").inner_text()
    trick = page.get_by_test_id("verdict-trick").inner_text()
    assert "目前 玩家 0（领牌） 领先" in trick  # players 2 and 3 have not played: "so far"
    assert "还没有出牌" in trick
    page.wait_for_function("location.search.includes('lead=SK+SK')")
    browser_page.shot("checker-clicked")


def test_build_by_typing_and_keyboard(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/check/")
    page.locator("#f-lead").fill("♠A♠A")
    page.locator("#f-h1").fill("SK S3 D4")
    page.locator("#f-p1").fill("s3, d4")
    # The grid follows the focused field: ♠3 and ♦4 show one copy each for player 1's play.
    assert page.locator('#cardgrid button[data-card="♠3"]').get_attribute("data-count") == "1"
    page.locator("#f-lead").focus()
    assert page.locator('#cardgrid button[data-card="♠A"]').get_attribute("data-count") == "2"
    # Keyboard: the first cell (♠A) is in the tab order; arrows move, Backspace removes one.
    page.locator('#cardgrid button[data-card="♠A"]').focus()
    page.keyboard.press("Backspace")
    assert page.locator("#f-lead").input_value() == "♠A"
    page.keyboard.press("Enter")
    assert page.locator("#f-lead").input_value() == "♠A ♠A"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "♠K"
    page.get_by_role("button", name="检查", exact=True).click()
    legal = page.get_by_test_id("legal-1")
    legal.wait_for()
    assert "不合法" in legal.inner_text()
    follow = page.get_by_test_id("verdict-follow-1").inner_text()
    assert "没有跟花色" in follow and "must_follow_suit" not in follow  # words, never codes
    browser_page.shot("checker-typed")
    # A click on the legal example plays it and re-checks.
    page.get_by_test_id("example-1").click()
    page.wait_for_function(
        "document.querySelector('[data-testid=legal-1]')"
        " && document.querySelector('[data-testid=legal-1]').innerText.includes('✓')"
    )
    assert page.locator("#f-p1").input_value() == "♠K ♠3"


def test_bad_typing_shows_message(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/check/")
    page.locator("#f-lead").fill("SA ZZ")
    assert page.locator("#f-lead").get_attribute("aria-invalid") == "true"
    page.get_by_role("button", name="检查", exact=True).click()
    page.get_by_test_id("verdict-error").wait_for()
    assert "领牌（玩家 0）" in page.get_by_test_id("verdict-error").inner_text()


def test_permalink_reproduces_verdict(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/check/?ruleset=classic&level=2&trump=H&lead=SA+SK+SQ+SQ&h1=SA+S3+D4+D5")
    verdict = page.get_by_test_id("verdict").inner_text()
    assert "甩不出去" in verdict
    link = page.get_by_test_id("permalink").get_attribute("href")
    assert link
    other = page.context.new_page()
    other.goto(link)
    assert other.get_by_test_id("verdict").inner_text() == verdict
    other.close()
    # Without JavaScript the same link renders the same verdict server-side.
    ctx = page.context.browser.new_context(java_script_enabled=False)
    nojs = ctx.new_page()
    nojs.goto(link)
    assert nojs.get_by_test_id("verdict").inner_text() == verdict
    ctx.close()
    browser_page.shot("checker-throw-permalink")


def test_switch_to_english(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/check/?lead=SK+SK&h1=SQ+SQ+S3&p1=SQ+S3&trump=H&level=2")
    page.get_by_test_id("lang-switch").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("h1").inner_text() == "Checker"
    assert "Illegal" in page.get_by_test_id("legal-1").inner_text()
    # The engine's reasons are in English too, with no Chinese left in them.
    reasons = page.locator("#verdict .explain").all_inner_texts()
    assert len(reasons) == 3  # the lead, player 1's follow, the trick
    assert not any(re.search(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]", r) for r in reasons)
    follow = page.get_by_test_id("verdict-follow-1").locator(".explain").inner_text()
    assert follow.startswith("Must play pairs when holding them")
    assert page.get_by_test_id("verdict-trick").locator(".explain").inner_text().startswith("Lead:")
    # A new verdict fetched by htmx is English as well.
    page.locator("#f-p1").fill("SQ SQ")
    page.locator("#f-p1").press("Enter")
    page.wait_for_function(
        "document.querySelector('[data-testid=legal-1]').innerText.includes('Legal')"
    )
    follow = page.get_by_test_id("verdict-follow-1").locator(".explain").inner_text()
    assert follow.startswith("Legal: 2 ♠ spades")
    browser_page.shot("checker-english")
    browser_page.goto("/")
    assert "Seed self-check" in page.get_by_test_id("headline").inner_text()
    browser_page.shot("dashboard-english", full_page=False)


def test_phone_width(phone_page: BrowserPage) -> None:
    page = phone_page.page
    phone_page.goto("/")
    assert no_horizontal_scroll(page)
    phone_page.shot("phone-dashboard", full_page=False)
    phone_page.goto("/check/?ruleset=classic&level=2&trump=H&lead=SK+SK&h1=SQ+SQ+S10+S5&p1=SQ+SQ")
    assert no_horizontal_scroll(page)
    phone_page.shot("phone-checker", full_page=False)
    page.get_by_test_id("verdict").scroll_into_view_if_needed()
    phone_page.shot("phone-checker-verdict", full_page=False)
    phone_page.goto("/rulesets/classic/")
    assert no_horizontal_scroll(page)
    phone_page.shot("phone-rules", full_page=False)


def test_rules_page(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/rulesets/classic/")
    assert page.get_by_test_id("ladder").locator(".card").count() >= 10
    with page.expect_response(re.compile(r"/rulesets/classic/\?")):
        page.select_option("select[name=trump]", "none")
    page.wait_for_function("document.querySelector('#ladder h3').innerText.includes('无主')")
    browser_page.shot("rules")


def test_dashboard_with_failures(browser_page: BrowserPage, failing_run: selfcheck.Run) -> None:
    page = browser_page.page
    browser_page.goto("/")
    assert "1/4" in page.get_by_test_id("headline").inner_text()
    assert page.locator("#case-demo-fail .diff").count() == 2
    browser_page.shot("dashboard-with-failures")
    page.select_option("#f-status", "fail")
    page.wait_for_function("location.search.includes('status=fail')")
    assert page.get_by_test_id("case-row").count() == 1
    page.locator("#case-demo-fail td.title a").first.click()
    page.wait_for_url("**/cases/classic/demo-fail/")
    browser_page.shot("case-page-failure")
