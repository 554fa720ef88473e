"""Sizes measured in chromium: every tap target at least 40 px and every input at least 16 px on
every page at 390 px, and the checker's card grid inside its column at 1280 and 1024 px.

Screenshots go to screenshots/ (git-ignored) for a human look.
"""

from __future__ import annotations

import pytest

from checker.web import selfcheck
from tests.conftest import BrowserPage
from tests.test_browser_play import settled, start_from_link, take_turn

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("short_bot_pause"),
]

DISPUTE = "/check/?ruleset=classic&level=2&trump=H&lead=SA+SQ+SQ&h1=SK+SK+S3+S4&p1=SK+SK"

# What a finger can tap: links, buttons, selects, summaries, inputs (a box or radio hidden in
# its label counts as the label), and the table's card labels. An element hidden, closed in a
# <details> or scrolled off to the left (the skip link until focused) is not measured.
MEASURE = """() => {
  const tappable = 'a[href], button, select, summary, textarea, input:not([type="hidden"]), label.pick';
  const out = [];
  for (let el of document.querySelectorAll(tappable)) {
    if (el.matches('input[type="checkbox"], input[type="radio"]') && el.closest('label')) {
      el = el.closest('label');
    }
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || box.right <= 0 || style.visibility === 'hidden') continue;
    const closed = el.closest('details:not([open])');
    if (closed && !(el.tagName === 'SUMMARY' && el.parentElement === closed)) continue;
    const name = el.tagName.toLowerCase() + ' "' + (el.textContent || el.value || '').trim().slice(0, 24) + '"';
    if (box.width < 40 || box.height < 40) {
      out.push(`${name}: ${Math.round(box.width)}×${Math.round(box.height)} px`);
    }
    if (el.matches('input:not([type="checkbox"]):not([type="radio"]), select, textarea')
        && parseFloat(style.fontSize) < 16) {
      out.push(`${name}: font ${style.fontSize}`);
    }
  }
  return [...new Set(out)];
}"""


def too_small(bp: BrowserPage, name: str) -> list[str]:
    bp.shot(f"fit-{name}", full_page=True)
    return list(bp.page.evaluate(MEASURE))


def test_every_tap_target_and_input_is_big_enough_on_every_page_at_390px(
    phone_page: BrowserPage, failing_run: selfcheck.Run
) -> None:
    page = phone_page.page
    found: dict[str, list[str]] = {}
    pages = {
        "dashboard": "/?status=fail",
        "rules": "/rulesets/classic/",
        "rules-erqiwang": "/rulesets/erqiwang/",
        "checker": DISPUTE,
        "matrix": "/matrix/",
        "matrix-scenario": "/matrix/?lead=SA+SA&h1=SK+SK+S3&p1=SK+SK",
        "simulation": "/simulation/",
        "lobby": "/play/",
    }
    for name, path in pages.items():
        phone_page.goto(path)
        found[name] = too_small(phone_page, name)
    for name, path in (("checker-open", DISPUTE), ("matrix-open", pages["matrix-scenario"])):
        phone_page.goto(path)
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        found[name] = too_small(phone_page, name)
    # A table at each turn of a round played by taps, then its replay and its match page.
    start_from_link(phone_page, "/play/?ruleset=erqiwang&seed=4&seat=0&bots=greedy")
    for turn in range(60):
        phase = settled(page)
        if page.get_by_test_id("summary").count():
            break
        found[f"table-{turn}-{phase}"] = too_small(phone_page, "table-turn")
        take_turn(page, phase)
    found["table-end"] = too_small(phone_page, "table-end")
    key = page.url.rstrip("/").split("/")[-1]
    for name, path in (("replay", f"/play/{key}/replay"), ("match", f"/play/{key}/match")):
        phone_page.goto(path)
        found[name] = too_small(phone_page, name)
    assert {k: v for k, v in found.items() if v} == {}


def test_the_card_grid_stays_inside_its_column(browser_page: BrowserPage) -> None:
    page = browser_page.page
    for width in (1280, 1024):
        page.set_viewport_size({"width": width, "height": 900})
        browser_page.goto(DISPUTE)
        page.wait_for_selector('[data-testid="verdict-trick"]')
        boxes = page.evaluate(
            """() => {
              const right = (sel) => Math.max(...[...document.querySelectorAll(sel)]
                  .map((e) => e.getBoundingClientRect().right));
              return {cells: right('#cardgrid button.cell'),
                      form: document.querySelector('#check-form').getBoundingClientRect().right,
                      verdict: document.querySelector('#verdict').getBoundingClientRect().left};
            }"""
        )
        browser_page.shot(f"fit-checker-{width}", full_page=False)
        assert boxes["cells"] <= boxes["form"] + 0.5, (width, boxes)
        assert boxes["cells"] <= boxes["verdict"], (width, boxes)
