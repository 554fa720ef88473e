"""Browser: a designer derives a ruleset from classic in the workshop, writes seed 003's level
table, sees the cases whose verdict changes, saves it, runs a study against classic from the
page and reads the banker's hold-rate difference with its interval (issue 27, "Done when"), on
a phone (390 px) and on a desktop (1280 px).

Screenshots go to $WORKSHOP_SHOTS (default: a folder in the system's temp dir), never the tree.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import BrowserPage
from tests.test_browser_fit import MEASURE
from tests.test_workshop import CHANGED_CASE, SEED_003_BANDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("WORKSHOP_SHOTS", Path(tempfile.gettempdir()) / "workshop-shots"))
STUDY_ROUNDS = "200"


def shot(page: Any, name: str, at: str = "h1") -> None:
    """Take the screen's view (a whole page is tens of thousands of pixels) from `at` down."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(at).first.scroll_into_view_if_needed()
    page.evaluate("(sel) => document.querySelector(sel).scrollIntoView()", at)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def write_seed_003(page: Any) -> None:
    """Fill the form as a designer: seed 003's table, no-trump, no mandatory levels, a name."""
    page.fill("#id_title", "终端版升级（我的桌）")
    page.fill("#id_title_en", "Terminal Tractor (my table)")
    for i, (low, winner, rise, result) in enumerate(SEED_003_BANDS):
        page.fill(f"#id_bands-{i}-low", str(low))
        page.select_option(f"#id_bands-{i}-winner", winner)
        page.fill(f"#id_bands-{i}-rise", str(rise))
        page.select_option(f"#id_bands-{i}-result", result)
    page.select_option("#id_declare__nobody", "no_trump")
    for level in ("10", "J"):  # classic's mandatory levels; seed 003 has none
        page.uncheck(f'input[name="score__mandatory_levels"][value="{level}"]')


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_derive_save_and_study_against_classic(size: str, request: pytest.FixtureRequest) -> None:
    bp: BrowserPage = request.getfixturevalue("phone_page" if size == "phone" else "browser_page")
    page = bp.page
    bp.goto("/rulesets/new/?base=classic")
    assert page.locator("h1").inner_text() == "规则工坊"
    write_seed_003(page)
    # The live preview (htmx, on change): the changed cases, the YAML and the diff.
    page.wait_for_selector(f"#ws-preview #m-{CHANGED_CASE}", timeout=60_000)
    heading = page.get_by_test_id("changed-cases").locator("h2").inner_text()
    assert int(re.search(r"(\d+)", heading).group(1)) >= 10  # type: ignore[union-attr]
    # The preview of the last change may still be on its way: wait for the diff to show it.
    expect(page.get_by_test_id("diff")).to_contain_text("+  nobody: no_trump", timeout=30_000)
    shot(page, f"{size}-1-form", "[data-testid=bands]")
    shot(page, f"{size}-1-preview", "#ws-preview")
    assert page.evaluate(MEASURE) == []
    # Save: the saved ruleset's page, its changed cases now link to their pages.
    page.get_by_test_id("save").click()
    page.wait_for_selector('[data-testid="saved"]')
    name = re.search(r"saved=(h-[a-z0-9]{8})", page.url).group(1)  # type: ignore[union-attr]
    assert page.locator(f'a[href="/cases/{name}/{CHANGED_CASE}/"]').count() == 1
    shot(page, f"{size}-2-saved", "[data-testid=saved]")
    # A study against classic, started from the workshop.
    page.get_by_test_id("study-link").click()
    assert page.input_value("#id_arm0") == "classic" and page.input_value("#id_arm1") == name
    page.fill("#id_rounds", STUDY_ROUNDS)
    assert page.evaluate(MEASURE) == []
    shot(page, f"{size}-3-studies")
    page.get_by_test_id("start-study").click()
    page.wait_for_selector('[data-testid="progress"]')
    page.wait_for_selector('[data-testid="report"]', timeout=180_000)
    hold = page.locator('[data-testid="difference"][data-metric="banker_hold_rate"]')
    value = hold.get_by_test_id("diff-value").inner_text()
    interval = hold.get_by_test_id("diff-ci").inner_text()
    assert re.fullmatch(r"[+-]\d+\.\d%", value), value
    assert re.fullmatch(r"\[[+-]\d+\.\d%, [+-]\d+\.\d%\]", interval), interval
    low, high = (float(x) for x in re.findall(r"[+-]\d+\.\d", interval))
    assert low <= float(value[:-1]) <= high
    assert page.get_by_test_id("histogram").count() == 2
    assert page.evaluate(MEASURE) == []
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, f"{size}-4-report", "[data-testid=differences]")
    shot(page, f"{size}-5-charts", ".st-charts")


def test_on_a_phone_drop_a_bases_table_and_meet_the_flip_rule(phone_page: BrowserPage) -> None:
    page = phone_page.page
    phone_page.goto("/rulesets/new/?base=terminal-003")
    page.check("#id_drop_bands")
    page.wait_for_selector("#ws-preview [data-testid=diff]", timeout=60_000)
    page.wait_for_function(
        "document.querySelector('[data-testid=yaml]').textContent.includes('bands: []')"
    )
    assert page.evaluate(MEASURE) == []
    shot(page, "phone-6-drop-table", "[data-testid=bands]")
    phone_page.goto("/rulesets/new/?base=shuangsheng")
    page.select_option("#id_declare__nobody", "no_trump")
    errors = page.wait_for_selector("[data-testid=preview-errors]", timeout=60_000)
    assert "flip: true" in errors.inner_text()
    shot(page, "phone-7-flip-help", '[data-field="declare__nobody"]')
    phone_page.goto("/studies/")
    page.select_option("#id_bots", "greedy")
    page.select_option("#id_bots_odd", "random")
    assert page.evaluate(MEASURE) == []
    shot(page, "phone-8-bots-per-side", '[data-field="bots"]')
