"""Games under non-default ruleset options: the log header carries them, and replay, the
table, the checker links and the terminal play under them (issue 13)."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management.base import CommandError
from django.test import Client

from checker.engine.cards import parse_cards
from checker.play.game import format_moves, game_log, make_spec, play_move, replay_game
from checker.play.replay import replay
from tests.test_game import auto_move
from tests.test_play_command import _play as play_typed
from tests.test_play_views import _play_out, start

TWO_DECKS = {"decks": 2}


def test_the_log_header_carries_the_options_and_replay_judges_under_them() -> None:
    spec = make_spec("multideck", 5, None, "greedy", options=TWO_DECKS)
    done = replay_game(spec, [])
    assert done.is_over
    lines = game_log(done, "test")
    head = json.loads(lines[0])
    assert head["options"] == TWO_DECKS
    hands = done.events[1]["hands"]
    assert len(parse_cards(hands[0])) == 27  # 2 decks: 108 cards, 27 each, no kitty
    report = replay(lines)
    assert report.ok, report.diffs[:3]


def test_a_log_without_its_options_no_longer_replays_clean() -> None:
    # The oracle for the test above: the same round judged under the defaults (3 decks) is
    # not the round that was played.
    spec = make_spec("multideck", 5, None, "greedy", options=TWO_DECKS)
    lines = game_log(replay_game(spec, []), "test")
    head = json.loads(lines[0])
    del head["options"]
    report = replay([json.dumps(head), *lines[1:]])
    assert not report.ok


def test_default_options_write_no_options_field() -> None:
    lines = game_log(replay_game(make_spec("classic", 5, None, "greedy"), []), "test")
    assert "options" not in json.loads(lines[0])


@pytest.mark.django_db
def test_the_table_log_replay_and_checker_links_keep_the_options(client: Client) -> None:
    game = start(
        client, "/play/?ruleset=erqiwang&seed=4&seat=0&bots=greedy&options=rethrow:allowed"
    )
    assert game.options == {"rethrow": "allowed"}
    log = client.get(f"/play/{game.key}/log.jsonl").content.decode()
    assert json.loads(log.splitlines()[0])["options"] == {"rethrow": "allowed"}
    _play_out(client, game)  # the whole log (every hand) is served once the round is over
    log = client.get(f"/play/{game.key}/log.jsonl").content.decode()
    assert replay(StringIO(log)).ok
    # A multideck game a few tricks in (started from its position link): every finished
    # trick links to the checker with the options.
    spec = make_spec("multideck", 5, 0, "greedy", options=TWO_DECKS)
    position = replay_game(spec, [])
    while len(position.moves) < 6 and not position.is_over:
        position = play_move(spec, position.moves, auto_move(position))
    moves = format_moves(position.moves)
    url = f"/play/?ruleset=multideck&seed=5&seat=0&bots=greedy&options=decks:2&moves={moves}"
    game = start(client, url)
    assert game.options == TWO_DECKS and game.moves == moves
    page = client.get(f"/play/{game.key}/replay").content.decode()
    links = re.findall(r'href="(/check/\?[^"]+)" data-testid="open-in-checker"', page)
    assert links and all("options=decks%3A2" in link for link in links)
    checker = client.get(links[0].replace("&amp;", "&"))
    assert checker.status_code == 200
    log = client.get(f"/play/{game.key}/log.jsonl").content.decode()
    assert json.loads(log.splitlines()[0])["options"] == TWO_DECKS
    table = client.get(f"/play/{game.key}/").content.decode()
    assert "options=decks%3A2" in table  # the position link keeps them
    assert len(parse_cards(position.events[1]["hands"][0])) == 27


def test_the_terminal_plays_under_the_options(monkeypatch: pytest.MonkeyPatch) -> None:
    base = ("--ruleset", "multideck", "--seed", "5", "--autoplay", "--bots", "greedy")
    two = play_typed(monkeypatch, "", *base, "--no-color", "--options", "decks:2")
    three = play_typed(monkeypatch, "", *base, "--no-color")
    assert "decks:2" in two.splitlines()[0] and "decks" not in three.splitlines()[0]
    assert two != three
    # The terminal's game is the table's game: same spec, same log.
    spec = make_spec("multideck", 5, None, "greedy", options=TWO_DECKS)
    done = replay_game(spec, [])
    assert f"{done.result.attackers_points}" in two.split("闲家得分：")[-1]
    with pytest.raises(CommandError, match="decks"):
        play_typed(monkeypatch, "", *base, "--options", "decks:99")
    with pytest.raises(CommandError, match="options"):
        play_typed(monkeypatch, "", *base, "--options", "decks")
