"""The /play/ table in chromium at 390 px: whole rounds played by tapping, with hints.

Each test saves screenshots under screenshots/ (git-ignored) for a human look.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import BrowserPage

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("short_bot_pause"),
]


def settled(page: Any) -> str:
    """Wait until the bots have finished their replies; return the phase ("" at the end)."""
    page.wait_for_selector("#table:not([data-partial])")
    return str(page.locator("#table").get_attribute("data-phase") or "")


def no_horizontal_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def take_turn(page: Any, phase: str) -> None:
    """Make the human's move by tapping: hint then play for cards, the first offer otherwise."""
    ply = page.locator("#table").get_attribute("data-ply")
    if phase in ("lead", "follow", "bury"):
        page.get_by_test_id("hint").tap()
        page.wait_for_selector('[data-testid="hint-text"]')
        page.get_by_test_id("play-button").tap()
    elif phase == "declare":
        page.get_by_test_id("declare").first.tap()
    elif phase == "bid":
        page.locator('[data-testid^="bid-"]').last.tap()
    elif phase == "surrender":
        page.get_by_test_id("no-surrender").tap()
    elif phase == "pick_trump":
        page.get_by_test_id("trump-S").tap()
    page.wait_for_function(
        f"document.querySelector('#table').dataset.ply !== '{ply}'"
        " || document.querySelector('[data-testid=play-error]')"
    )
    assert page.get_by_test_id("play-error").count() == 0, page.get_by_test_id(
        "play-error"
    ).inner_text()


def play_to_the_end(bp: BrowserPage, name: str, *, reload_after: int | None = None) -> list[str]:
    page = bp.page
    phases: list[str] = []
    for turn in range(120):
        phase = settled(page)
        if page.get_by_test_id("summary").count():
            return phases
        phases.append(phase)
        if turn == 2:
            bp.shot(f"{name}-turn", full_page=True)
        if reload_after is not None and turn == reload_after:
            page.reload()
            phase = settled(page)
            assert page.get_by_test_id("hand").is_visible()
        take_turn(page, phase)
    raise AssertionError("the round did not end")


def start_from_link(bp: BrowserPage, url: str) -> None:
    """Open a game link (the lobby, filled in) and press 开始 (a tap on a touch screen): a
    link alone stores nothing."""
    bp.goto(url)
    bp.page.get_by_test_id("prefilled").wait_for()
    start = bp.page.get_by_test_id("start")
    if bp.page.evaluate("navigator.maxTouchPoints > 0"):
        start.tap()
    else:
        start.click()
    bp.page.wait_for_selector('[data-testid="table"]')


def test_classic_round_by_tapping_at_390px(phone_page: BrowserPage) -> None:
    page = phone_page.page
    start_from_link(phone_page, "/play/?ruleset=classic&seed=3&seat=1&bots=greedy")
    assert settled(page) == "follow"
    assert no_horizontal_scroll(page)
    # Tap targets: every card and button at least 40 px high.
    for box in page.locator("label.pick").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().height)"
    ):
        assert box >= 40
    assert page.get_by_test_id("play-button").bounding_box()["height"] >= 40
    # An illegal follow (two singles to a led pair while holding pairs) is refused with why.
    page.locator('label.pick:has([data-testid="card-D6"])').first.tap()
    page.locator('label.pick:has([data-testid="card-D3"])').first.tap()
    page.locator('label.pick:has([data-testid="card-D3"])').first.tap()  # tap again: unselect
    assert page.locator('[data-testid="card-D3"]:checked').count() == 0
    page.locator('label.pick:has([data-testid="card-D3"])').first.tap()
    # Each tap asks the server again; wait for the answer to the last one, not an earlier one.
    page.wait_for_function(
        "(document.querySelector('[data-testid=play-why]') || {}).innerText"
        "?.includes('有对子必须出对子')"
    )  # said before any try; 出牌 stays off
    assert page.get_by_test_id("play-button").is_disabled()
    assert page.locator("#table").get_attribute("data-ply") == "0"
    phone_page.shot("play-refused", full_page=True)
    phases = play_to_the_end(phone_page, "play-classic", reload_after=6)
    assert "follow" in phases and "lead" in phases
    summary = page.get_by_test_id("summary")
    assert page.get_by_test_id("result").inner_text()
    assert page.get_by_test_id("kitty").inner_text()
    assert int(page.get_by_test_id("final-points").inner_text()) >= 0
    phone_page.shot("play-summary", full_page=True)
    assert summary.is_visible() and no_horizontal_scroll(page)
    page.get_by_test_id("replay-link").tap()
    page.wait_for_selector('[data-testid="replay-trick"]')
    assert page.get_by_test_id("trick-why").count() >= 10
    phone_page.shot("play-replay", full_page=False)


@pytest.mark.parametrize(
    ("ruleset", "seed", "seat", "phases"),
    [
        ("erqiwang", 4, 0, ("bid", "pick_trump", "bury")),  # bid, name trump, bury
        ("shuangsheng", 11, 1, ("declare",)),  # declare during the deal
    ],
)
def test_a_round_with_the_rulesets_own_phases(
    phone_page: BrowserPage, ruleset: str, seed: int, seat: int, phases: tuple[str, ...]
) -> None:
    page = phone_page.page
    start_from_link(phone_page, f"/play/?ruleset={ruleset}&seed={seed}&seat={seat}&bots=greedy")
    assert settled(page) == phases[0]
    phone_page.shot(f"play-{ruleset}-{phases[0]}", full_page=True)
    seen = play_to_the_end(phone_page, f"play-{ruleset}")
    assert seen[0] == phases[0] and set(phases) <= set(seen)
    assert page.get_by_test_id("summary").is_visible()
    phone_page.shot(f"play-{ruleset}-summary", full_page=True)
