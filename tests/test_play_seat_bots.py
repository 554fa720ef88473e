"""Per-seat bot choice at the /play/ lobby, in game links and in `manage.py play --bots`."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError
from django.test import Client

from checker.models import PlayGame
from checker.play.bots.registry import PLAYER_KINDS
from tests.test_play_command import _play as play_typed
from tests.test_play_views import position, start

pytestmark = pytest.mark.django_db


def test_the_lobby_offers_a_bot_per_seat_defaulting_to_the_strongest(client: Client) -> None:
    text = client.get("/play/").content.decode()
    assert 'data-testid="seat-bots"' in text
    for seat in range(8):
        assert f'name="bot{seat}"' in text
    assert "默认（v2）" in text
    assert "v3（高手）" in text


def test_the_english_lobby_offers_v3_as_the_expert(client: Client) -> None:
    client.cookies["lang"] = "en"
    text = client.get("/play/").content.decode()
    assert "v3 (expert)" in text


def test_the_lobby_selects_start_a_game_with_each_seats_bot(client: Client) -> None:
    game = start(client, "/play/?ruleset=classic&seed=3&seat=0&bot1=random&bot2=greedy&bot3=")
    assert game.bots == "-,random,greedy,v2"
    page = client.get(f"/play/{game.key}/").content.decode()
    assert page.count('data-testid="seat-bot"') == 3
    assert ">random<" in page and ">greedy<" in page and ">v2<" in page
    # The stored game replays with those bots: the random seat's reasons are the random bot's.
    pos = position(game)
    for i, decision in pos.reasons.items():
        seat = int(pos.events[i]["seat"])
        assert decision.rule.split(".")[0] == ["", "random", "greedy", "v2"][seat]
    # Selects for seats the table does not have, or for the human's own seat, are ignored.
    three = start(client, "/play/?ruleset=erqiwang&seed=3&seat=1&bot0=v1&bot1=random&bot5=random")
    assert three.bots == "v1,-,v2"


def test_a_comma_list_in_the_link_picks_the_bots_and_the_links_keep_it(client: Client) -> None:
    game = start(client, "/play/?ruleset=classic&seed=3&seat=2&bots=random,greedy,v1")
    assert game.bots == "random,greedy,-,v1"
    page = client.get(f"/play/{game.key}/").content.decode()
    assert "bots=random%2Cgreedy%2C-%2Cv1" in page  # the position link
    one = start(client, "/play/?ruleset=classic&seed=3&seat=2&bots=v1")
    assert one.bots == "v1"


def test_an_unknown_bot_is_a_400_listing_the_names_and_nothing_is_stored(client: Client) -> None:
    for url in (
        "/play/?ruleset=classic&seed=3&seat=0&bots=nobody",
        "/play/?ruleset=classic&seed=3&seat=0&bots=random,nobody,v1",
        "/play/?ruleset=classic&seed=3&seat=0&bots=random,v1",
        "/play/?ruleset=classic&seed=3&seat=0&bot1=nobody",
    ):
        r = client.get(url)
        assert r.status_code == 400, url
        text = r.content.decode()
        assert 'role="alert"' in text
        if "bot1" in url:
            assert "座1：" in text  # the seat whose select was tampered with
        elif "nobody" in url:
            assert "nobody" in text and all(k in text for k in PLAYER_KINDS)
        else:
            assert "names 2 seats" in text
    assert PlayGame.objects.count() == 0


def test_the_terminal_takes_one_bot_or_one_per_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    base = ("--ruleset", "classic", "--seed", "3", "--no-color")
    mixed = play_typed(monkeypatch, "quit\n", *base, "--autoplay", "--bots", "random,greedy,v1,v2")
    assert "random,greedy,v1,v2" in mixed.splitlines()[0] and "结果" in mixed
    seated = play_typed(
        monkeypatch, "quit\n", *base, "--human-seat", "1", "--bots", "random,greedy,v1"
    )
    assert "random,human,greedy,v1" in seated.splitlines()[0]
    with pytest.raises(CommandError, match="nobody") as err:
        play_typed(monkeypatch, "quit\n", *base, "--bots", "nobody")
    assert all(k in str(err.value) for k in PLAYER_KINDS)
    with pytest.raises(CommandError, match="names 2 seats"):
        play_typed(monkeypatch, "quit\n", *base, "--bots", "random,greedy")
