"""A lead that could be read several ways says how the rules read it and why ("which did you
mean?"), on the checker page, in /api/check and at the table's judged play button."""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import combinations

import pytest
from django.test import Client

from checker.engine.cards import Card, ascii_card, copies
from checker.engine.readings import lead_readings
from checker.play.players import PlayerView
from tests.test_play_views import HX, move_fields, position, post_move, start

pytestmark = pytest.mark.django_db
THROW = "/check/?ruleset=multideck&level=3&trump=H&lead=S5+S5+S5+S6+S6"


def english() -> Client:
    client = Client()
    client.cookies["lang"] = "en"
    return client


def test_the_checker_page_shows_the_rules_reading_and_the_other_one() -> None:
    page = Client().get(THROW).content.decode()
    reading = page[page.index('data-testid="reading"') :].split("</div>")[0]
    assert "这手牌读作" in reading and "三条" in reading and "对子" in reading
    other = reading[reading.index('data-testid="reading-other"') :]
    assert "也可看作" in other and "拖拉机" in other and "单张" in other
    assert "按规则读作前者，因为先读最宽的分量" in reading
    en = english().get(THROW).content.decode()
    reading_en = en[en.index('data-testid="reading"') :].split("</div>")[0]
    assert (
        "Read as" in reading_en
        and "triple" in reading_en
        and "It could also be seen as" in reading_en
    )
    assert "The rules read it the first way because the widest units are read first" in reading_en
    assert "读" not in reading_en


def test_the_api_gives_the_readings_as_unit_groups_in_both_languages() -> None:
    data = json.loads(Client().get(THROW.replace("/check/", "/api/check")).content)
    readings = data["lead"]["readings"]
    assert readings["chosen"] == [["♠5", "♠5", "♠5"], ["♠6", "♠6"]]
    assert readings["others"] == [{"units": [["♠6", "♠6", "♠5", "♠5"], ["♠5"]], "why": "wider"}]
    assert readings["explanation"].startswith("这手牌读作：三条")
    assert readings["explanation_en"].startswith("Read as: triple")


def test_a_lead_with_one_reading_shows_none() -> None:
    page = Client().get(THROW.replace("S5+S5+S5+S6+S6", "S5+S5+S9")).content.decode()
    assert 'data-testid="verdict-lead"' in page and 'data-testid="reading"' not in page


def readable_lead(view: PlayerView) -> list[Card]:
    """Two pairs or a triple from the hand that the rules could read several ways."""
    assert view.ctx is not None
    held = copies(view.hand)
    for card, n in held.items():
        if n >= 3:
            return [card] * 3
    doubles = [c for c, n in held.items() if n >= 2]
    for a, b in combinations(doubles, 2):
        if lead_readings(view.ctx, [a, a, b, b]) is not None:
            return [a, a, b, b]
    raise AssertionError("no readable lead in this hand")


def lead_game(client: Client) -> tuple[object, Sequence[Card]]:
    """A multideck game (3 decks) played up to the person's first lead."""
    game = start(client, "/play/?ruleset=multideck&seed=2&seat=0&bots=greedy")
    pos = position(game)
    while pos.ask.phase != "lead":
        assert post_move(client, game, **move_fields(pos, "pass")).status_code == 200
        pos = position(game)
    return game, readable_lead(pos.ask.view)


def test_the_play_button_says_how_the_picked_lead_is_read(client: Client) -> None:
    game, cards = lead_game(client)
    query = "&".join(f"c={ascii_card(c)}" for c in cards)
    url = f"/play/{game.key}/check?ply={game.ply}&{query}"
    shown = client.get(url, **HX).content.decode()
    assert 'data-testid="play-button">' in shown and 'data-testid="reading"' in shown
    assert "这手牌读作" in shown and "按规则读作前者" in shown
    client.cookies["lang"] = "en"
    assert "Read as" in client.get(url, **HX).content.decode()
    single = client.get(f"/play/{game.key}/check?ply={game.ply}&c={ascii_card(cards[0])}", **HX)
    assert 'data-testid="reading"' not in single.content.decode()
