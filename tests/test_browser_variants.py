"""Browser tests of the variant matrix and of the checker under 二七王 and 双升.

Screenshots land in screenshots/ (git-ignored) for a human look.
"""

from __future__ import annotations

import re

import pytest

from checker.engine.ruleset import load_ruleset
from checker.scenarios.matrix import case_matrix
from checker.web.matrixpage import matrix_report
from tests.conftest import BrowserPage

pytestmark = pytest.mark.browser

SCENARIO = "level=9&trump=S&lead=H8+H8+H6+H6&h1=H5+H5+HA+HQ&p1=H5+H5+HA+HQ"


def no_horizontal_scroll(page) -> bool:  # type: ignore[no-untyped-def]
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def test_matrix_marks_differing_cells(browser_page: BrowserPage) -> None:
    rows = case_matrix(matrix_report())
    page = browser_page.page
    browser_page.goto("/matrix/")
    assert page.get_by_test_id("matrix-row").count() == len(rows)
    odd = page.locator('[data-testid="matrix-cell"][data-odd="1"]')
    if not any(r.differs for r in rows):
        pytest.skip("no cross-ruleset case differs")
    assert odd.count() > 0
    first = odd.first
    first.scroll_into_view_if_needed()
    # Marked by a text badge and a ≠ on the value, not by colour alone.
    assert "≠ 与其他规则不同" in first.inner_text()
    assert first.locator(".diff").count() > 0
    # The explanation is one click away.
    details = first.get_by_test_id("matrix-explain")
    assert not details.locator(".explain, a").first.is_visible()
    details.locator("summary").click()
    assert details.locator("a", has_text="用例页").is_visible()
    browser_page.shot("matrix-cases", full_page=False)
    # Only the rows that differ, through htmx; the URL carries the filter.
    with page.expect_response(re.compile(r"only=diff")):
        page.locator("#m-only").check()
    page.wait_for_function("location.search.includes('only=diff')")
    assert page.get_by_test_id("matrix-row").count() == sum(r.differs for r in rows)
    assert page.locator('[data-testid="matrix-row"][data-differs="0"]').count() == 0
    page.reload()
    assert page.locator("#m-only").is_checked()
    assert page.get_by_test_id("matrix-row").count() == sum(r.differs for r in rows)


def test_matrix_scenario_from_the_checker(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/check/?ruleset=classic&" + SCENARIO)
    page.get_by_test_id("matrix-link").click()
    page.wait_for_url("**/matrix/?**")
    result = page.get_by_test_id("scenario-result")
    header = result.locator('th[data-ruleset="erqiwang"]')
    assert "≠ 与其他规则不同" in header.inner_text()
    assert "与其他规则不同" not in result.locator('th[data-ruleset="classic"]').inner_text()
    lead_row = result.locator('tr[data-key="lead.type"]')
    assert "≠" in lead_row.locator("th").inner_text()
    assert lead_row.locator('[data-odd="1"] .diff').count() == 1
    result.get_by_test_id("scenario-explain").first.locator("summary").click()
    assert result.locator(".explain").first.is_visible()
    result.scroll_into_view_if_needed()
    browser_page.shot("matrix-scenario", full_page=False)
    # A new scenario through htmx: the result and the URL change, the filter form keeps it.
    page.locator("#m-only").check()
    page.wait_for_function("location.search.includes('only=diff')")
    # The form is folded away while a scenario is shown; one click opens it.
    assert not page.locator("#m-lead").is_visible()
    page.get_by_test_id("scenario-edit").locator("summary").click()
    page.locator("#m-lead").fill("SA SA")
    page.locator("#m-h1").fill("SK SK S5")
    page.locator("#m-p1").fill("SK SK")
    with page.expect_response(re.compile(r"lead=SA")):
        page.locator("#scenario-button").click()
    page.wait_for_function("new URLSearchParams(location.search).get('lead') === 'SA SA'")
    assert "only=diff" in page.evaluate("location.search")
    assert page.locator('#keep-scenario input[name="lead"]').get_attribute("value") == "SA SA"
    assert page.locator('#keep-filters input[name="only"]').get_attribute("value") == "diff"
    assert "各规则的结果相同" in page.get_by_test_id("scenario-differing").inner_text()
    # Bad input: the message is swapped in (400 partial), nothing else breaks.
    page.locator("#m-lead").fill("ZZ")
    with page.expect_response(re.compile(r"lead=ZZ")):
        page.locator("#scenario-button").click()
    page.get_by_test_id("scenario-error").wait_for()
    assert "ZZ" in page.get_by_test_id("scenario-error").inner_text()


def test_erqiwang_checker_build_lead_by_clicking(browser_page: BrowserPage) -> None:
    rs = load_ruleset("erqiwang")
    page = browser_page.page
    browser_page.goto("/check/?ruleset=erqiwang")
    assert page.locator("#f-level").count() == 0
    assert page.locator("#f-h2").is_visible() and page.locator("#f-h3").count() == 0
    cells = page.locator("#cardgrid button.cell")
    assert cells.count() == 4 * len(rs.ranks) + (2 if rs.jokers else 0)
    assert page.locator('#cardgrid button[data-card="♠3"]').count() == 0
    assert page.locator('#cardgrid button[data-card="♦4"]').count() == 0
    # The grid keeps its rows: ♠A and ♥A start their rows in the same column.
    spade = page.locator('#cardgrid button[data-card="♠A"]').bounding_box()
    heart = page.locator('#cardgrid button[data-card="♥A"]').bounding_box()
    assert spade and heart and abs(spade["x"] - heart["x"]) < 1
    page.select_option("#f-trump", "H")
    page.locator('#grid-targets input[value="f-lead"]').locator("xpath=..").click()
    for card in ("♠7", "♠7", "♥7", "♥7"):
        page.locator(f'#cardgrid button[data-card="{card}"]').click()
    # Trumps first, in trump order: the trump suit's 7s lead the others.
    assert page.locator("#f-lead").input_value() == "♥7 ♥7 ♠7 ♠7"
    # Two decks: a third click on a full cell clears it again.
    page.locator('#cardgrid button[data-card="♠7"]').click()
    assert page.locator("#f-lead").input_value() == "♥7 ♥7"
    for _ in range(2):
        page.locator('#cardgrid button[data-card="♠7"]').click()
    assert page.locator("#f-lead").input_value() == "♥7 ♥7 ♠7 ♠7"
    page.locator('#grid-targets input[value="f-h1"]').locator("xpath=..").click()
    # Both ♥7s are in the lead: player 1 cannot take a third.
    assert page.locator('#cardgrid button[data-card="♥7"]').is_disabled()
    for card in ("♣7", "♣7", "♠A", "♦5"):
        page.locator(f'#cardgrid button[data-card="{card}"]').click()
    page.locator('#grid-targets input[value="f-p1"]').locator("xpath=..").click()
    for card in ("♣7", "♣7", "♠A", "♦5"):
        page.locator(f'#cardgrid button[data-card="{card}"]').click()
    page.get_by_role("button", name="检查", exact=True).click()
    page.get_by_test_id("legal-1").wait_for()
    assert "拖拉机" in page.get_by_test_id("verdict-lead").inner_text()
    assert "合法" in page.get_by_test_id("legal-1").inner_text()
    page.wait_for_function("location.search.includes('ruleset=erqiwang')")
    assert "level=" not in page.evaluate("location.search")
    browser_page.shot("checker-erqiwang")


def test_ruleset_switch_in_the_checker(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/check/")
    assert page.locator("#f-level").is_visible()
    page.select_option("#f-ruleset", "erqiwang")
    page.wait_for_url("**ruleset=erqiwang**")
    assert page.locator("#f-level").count() == 0
    page.select_option("#f-ruleset", "shuangsheng")
    page.wait_for_url("**ruleset=shuangsheng**")
    assert page.locator("#f-level").is_visible() and page.locator("#f-h3").is_visible()
    page.locator("details", has_text="规则选项").locator("summary").click()
    assert "flip_card" in page.locator("details", has_text="规则选项").inner_text()


def test_rules_pages_of_the_variants(browser_page: BrowserPage) -> None:
    page = browser_page.page
    browser_page.goto("/rulesets/erqiwang/")
    assert page.locator("select[name=level]").count() == 0
    assert page.get_by_test_id("chips-table").is_visible()
    with page.expect_response(re.compile(r"/rulesets/erqiwang/\?")):
        page.select_option("select[name=trump]", "S")
    page.wait_for_function("document.querySelector('#ladder h3').innerText.includes('主♠')")
    browser_page.shot("rules-erqiwang")
    browser_page.goto("/rulesets/shuangsheng/?level=9&trump=H")
    assert page.get_by_test_id("flip-rule").is_visible()
    browser_page.shot("rules-shuangsheng")


def test_phone_width_variants(phone_page: BrowserPage) -> None:
    page = phone_page.page
    phone_page.goto("/matrix/?" + SCENARIO)
    assert no_horizontal_scroll(page)
    phone_page.shot("phone-matrix", full_page=False)
    page.get_by_test_id("scenario-result").scroll_into_view_if_needed()
    phone_page.shot("phone-matrix-scenario", full_page=False)
    page.locator("#cases").scroll_into_view_if_needed()
    phone_page.shot("phone-matrix-cases", full_page=False)
    phone_page.goto(
        "/check/?ruleset=erqiwang&trump=H&lead=S7+S7+H7+H7&h1=C7+C7+SA+D5&p1=C7+C7+SA+D5"
    )
    assert no_horizontal_scroll(page)
    phone_page.shot("phone-checker-erqiwang", full_page=False)
    phone_page.goto("/rulesets/erqiwang/")
    assert no_horizontal_scroll(page)
    phone_page.shot("phone-rules-erqiwang", full_page=False)
    phone_page.goto("/rulesets/erqiwang/selfcheck/?q=bid")
    assert no_horizontal_scroll(page)
    phone_page.shot("phone-dashboard-erqiwang", full_page=False)
