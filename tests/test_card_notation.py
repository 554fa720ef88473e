"""The card notation has one home (checker.engine.vocab): the engine's parser is built from it and
the checker page hands it to check.js, which keeps no spelling table of its own (issue 25.5)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

from checker.engine.cards import Card, parse_cards
from checker.engine.vocab import (
    BIG_JOKER,
    RANK_ALIASES,
    SMALL_JOKER,
    SUIT_ALIASES,
    card_notation,
)
from tests.conftest import BrowserPage
from tests.test_browser_checker import tap_cards, tap_target

ROOT = Path(__file__).resolve().parent.parent


def test_every_spelling_of_the_notation_parses_in_either_case() -> None:
    data = card_notation()
    for suit, letter in SUIT_ALIASES.items():
        for rank, number in RANK_ALIASES.items():
            for text in (suit + rank, (suit + rank).lower()):
                assert parse_cards(text) == [Card(letter, number)], text
    for spelling in data["big"]:
        assert parse_cards(str(spelling).lower()) == [Card("", BIG_JOKER)]
    for spelling in data["small"]:
        assert parse_cards(str(spelling)) == [Card("", SMALL_JOKER)]
    separators = str(data["separators"])
    assert parse_cards(separators.join(["SA", "H10", "大王"])) == parse_cards("SA H10 BJ")


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/check/", "/matrix/"])
def test_the_card_entry_pages_carry_the_engines_notation(url: str) -> None:
    html = Client().get(url).content.decode()
    found = re.search(r'<script id="card-notation" type="application/json">(.*?)</script>', html)
    assert found, url
    assert json.loads(found.group(1)) == json.loads(json.dumps(card_notation()))


def test_check_js_keeps_no_spelling_table_of_its_own() -> None:
    script = (ROOT / "static/js/check.js").read_text(encoding="utf-8")
    code = "\n".join(line for line in script.splitlines() if not line.strip().startswith("//"))
    for spelling in ("♤", "♡", "♧", "♢", "大王", "小王", '"BJ"', '"LJ"', '"T": 10', "，、"):
        assert spelling not in code, spelling


@pytest.mark.browser
@pytest.mark.django_db
def test_typed_spellings_are_read_from_the_served_notation(phone_page: BrowserPage) -> None:
    page = phone_page.page
    phone_page.goto("/check/")
    page.locator("#f-h1").fill("sa，h10、bj ♡t ♣zz")
    error = page.locator("#err-f-h1")
    assert error.is_visible() and "♣zz" in error.inner_text()
    assert "sa" not in error.inner_text() and "bj" not in error.inner_text()
    tap_target(page, "f-h1")
    tap_cards(page, "♠K")
    value = page.locator("#f-h1").input_value()
    for card in ("♠A", "♥10", "大王", "♠K"):
        assert card in value, value
