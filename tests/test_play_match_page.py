"""The match page /play/<key>/match: every round of a match so far, reached from the round's end."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from checker.models import PlayGame
from tests.test_play_views import _play_out, position, start

pytestmark = pytest.mark.django_db


def _next(client: Client, game: PlayGame) -> PlayGame:
    r = client.post(f"/play/{game.key}/next")
    assert r.status_code == 303
    return PlayGame.objects.get(key=r["Location"].strip("/").split("/")[-1])


def test_the_match_page_lists_every_round_with_banker_chips_and_replays(client: Client) -> None:
    first = start(client, "/play/?ruleset=erqiwang&seed=4&seat=0&bots=greedy")
    playing = client.get(f"/play/{first.key}/match").content.decode()
    assert 'data-testid="match-playing"' in playing and "第 1 局" in playing
    _play_out(client, first, bid="low")
    end = client.get(f"/play/{first.key}/").content.decode()
    assert f'href="/play/{first.key}/match" data-testid="match-link"' in end
    second = _next(client, first)
    assert second.previous == first.key
    _play_out(client, second, bid="low")
    page = client.get(f"/play/{second.key}/match")
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count('data-testid="match-round"') == 2
    assert "第 1 局" in text and "第 2 局" in text
    # Each round's banker and chips are the ones its game produced.
    done = [position(first), position(second)]
    for pos in done:
        assert pos.result is not None
    chips = re.findall(r'data-testid="match-chips">(.*?)</p>', text, re.S)
    assert len(chips) == 2
    net_first = done[0].result.chips
    assert net_first is not None
    replays = re.findall(r'href="(/play/\w+/replay)" data-testid="match-replay"', text)
    assert replays == [f"/play/{first.key}/replay", f"/play/{second.key}/replay"]
    assert client.get(replays[0]).status_code == 200
    # The first round's page points to the rest of the match.
    earlier = client.get(f"/play/{first.key}/match").content.decode()
    assert f'href="/play/{second.key}/match" data-testid="later-round"' in earlier
    assert earlier.count('data-testid="match-round"') == 1


def test_a_classic_match_page_shows_the_levels_each_round_left(client: Client) -> None:
    first = start(client, "/play/?ruleset=classic&seed=4&seat=0&bots=greedy")
    _play_out(client, first)
    second = _next(client, first)
    page = client.get(f"/play/{second.key}/match").content.decode()
    levels = re.findall(r'data-testid="match-levels">(.*?)</p>', page, re.S)
    assert len(levels) == 1 and "打" in levels[0]
    state = second.match
    shown = [lv for lv in state["levels"]]
    from checker.engine.cards import format_rank

    for lv in shown:
        assert f"打 {format_rank(lv)}" in levels[0]
    banker = re.search(r'data-testid="match-banker">(.*?)</b>', page)
    assert banker is not None and banker.group(1)
    assert 'data-testid="match-playing"' in page  # round 2 is being played
    client.cookies["lang"] = "en"
    english = client.get(f"/play/{second.key}/match").content.decode()
    assert "Match record" in english and "Round 1" in english


def test_a_tampered_history_and_unknown_games_never_500(client: Client) -> None:
    first = start(client, "/play/?ruleset=classic&seed=4&seat=0&bots=greedy")
    _play_out(client, first)
    second = _next(client, first)
    data = dict(second.match)
    data["history"] = [{"round": "x"}, "junk", *data["history"]]
    PlayGame.objects.filter(pk=second.pk).update(match=data)
    page = client.get(f"/play/{second.key}/match")
    assert page.status_code == 200 and page.content.decode().count('data-testid="match-round"') == 1
    assert client.get("/play/nosuchgame/match").status_code == 404
    assert client.get("/play/bad!key/match").status_code == 404
