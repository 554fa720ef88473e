"""The hand's display order has one home (the engine: `Context.sort_cards` through
`Ruleset.hand_suits`): the card-entry pages hand it to check.js as data (`handsort.hand_orders`),
and check.js keeps no order of its own (issue 25.5)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

from checker.engine.cards import format_card, parse_cards
from checker.engine.handsort import deal_key, hand_orders
from checker.engine.order import context_for
from checker.engine.ruleset import load_ruleset
from tests.conftest import BrowserPage

ROOT = Path(__file__).resolve().parent.parent


def served(html: str) -> object:
    """Read the hand-order JSON a page carries."""
    found = re.search(r'<script id="hand-order" type="application/json">(.*?)</script>', html)
    assert found
    return json.loads(found.group(1))


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["classic", "erqiwang", "multideck", "shuangsheng"])
def test_the_checker_carries_its_rulesets_order(name: str) -> None:
    html = Client().get(f"/check/?ruleset={name}").content.decode()
    assert served(html) == hand_orders(load_ruleset(name))


@pytest.mark.django_db
def test_the_matrix_carries_the_order_of_its_card_grid() -> None:
    assert served(Client().get("/matrix/").content.decode()) == hand_orders(load_ruleset("classic"))


def test_each_served_deal_is_the_engines_sorted_deck() -> None:
    rs = load_ruleset("shuangsheng")
    orders = hand_orders(rs)
    ctx = context_for(rs, 7, "S")
    entry = orders[deal_key(7, "S")]
    assert parse_cards(str(entry["cards"])) == ctx.display_deck()
    assert entry["trumps"] == sum(1 for c in ctx.deck if ctx.is_trump(c))


def test_check_js_keeps_no_order_of_its_own() -> None:
    script = (ROOT / "static/js/check.js").read_text(encoding="utf-8")
    code = "\n".join(line for line in script.splitlines() if not line.strip().startswith("//"))
    for fact in ("SUIT_ORDER", "suit_order", "fixedTrumps", "sortKey", "20 - r", '"SHCD"', "♠♥"):
        assert fact not in code, fact
    assert "hand-order" in code


def test_no_second_order_table_in_the_project() -> None:
    """Suit orders are written in the ruleset (`hand_suits`) only: no module keeps its own."""
    for path in (ROOT / "checker").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for fact in ("SUIT_ORDER", "_GROUP_ORDER", "def strength_order", "def sort_hand"):
            assert fact not in text, f"{path}: {fact}"


@pytest.mark.browser
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "level", "trump"),
    [
        ("ruleset=classic&level=2&trump=H", 2, "H"),
        ("ruleset=classic&level=5&trump=none", 5, None),
        ("ruleset=shuangsheng&level=7&trump=S", 7, "S"),
        ("ruleset=erqiwang&trump=D", None, "D"),
        ("ruleset=multideck&level=3&trump=C", 3, "C"),
    ],
)
def test_a_typed_hand_is_sorted_in_the_engines_order(
    phone_page: BrowserPage, query: str, level: int | None, trump: str | None
) -> None:
    page = phone_page.page
    phone_page.goto("/check/?" + query)
    name = re.search(r"ruleset=(\w+)", query)
    assert name
    rs = load_ruleset(name.group(1))
    typed = "♦5 ♣A ♠K 大王 ♥2 ♠2 ♦A ♥A 小王 ♥7 ♣2 ♠7 ♦7 ♣3 ♥5"
    cards = [c for c in parse_cards(typed) if c.rank in rs.ranks or c.suit == ""]
    page.locator("#f-h1").fill(" ".join(format_card(c) for c in cards))
    page.locator("#f-h1").dispatch_event("change")
    page.locator('#cardgrid button[data-card="♠K"]').first.wait_for()
    # A tap on the grid rewrites the field in display order (setField → sortCards).
    page.locator('#grid-targets input[value="f-h1"]').locator("xpath=..").tap()
    page.locator('#cardgrid button[data-card="♠K"]').tap()
    expected = context_for(rs, level, trump).sort_cards([*cards, *parse_cards("♠K")])
    assert page.locator("#f-h1").input_value() == " ".join(format_card(c) for c in expected)
    if name.group(1) == "shuangsheng":
        phone_page.shot("phone-check-hand-order-shuangsheng", full_page=False)
