"""Take-back of the person's last move against bots (issue 26, point 2): the round replayed
without it, the take-back written into the log, refused where it would show what the rules hide."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.test import Client

from checker.play.game import (
    Move,
    MoveError,
    format_moves,
    game_log,
    make_spec,
    play_move,
    replay_game,
)
from checker.play.replay import replay
from checker.play.takeback import TAKEN_BACK, effective_moves
from tests.test_game import auto_move
from tests.test_play_views import move_fields, position, post_move, start

A, B, C = Move("pass"), Move("bid", value=70), Move("trump", value="S")
U = Move("takeback")


def test_a_take_back_removes_the_move_before_it_and_is_kept_where_it_was_made() -> None:
    assert effective_moves([A, B, U]) == ([A], {1: [B]})
    assert effective_moves([A, B, U, U]) == ([], {0: [B, A]})
    assert effective_moves([A, B, U, C]) == ([A, C], {1: [B]})
    with pytest.raises(MoveError):
        effective_moves([U])


def _two_moves():  # type: ignore[no-untyped-def]
    spec = make_spec("classic", 3, 1, "greedy")
    one = play_move(spec, [], auto_move(replay_game(spec, [])))
    two = play_move(spec, one.moves, auto_move(one))
    return spec, one, two


def test_the_round_after_a_take_back_is_the_round_before_the_move_plus_the_record() -> None:
    spec, one, two = _two_moves()
    back = replay_game(spec, [*two.moves, U])
    assert back.ask is not None and one.ask is not None
    assert back.ask.view.hand == one.ask.view.hand and back.ask.phase == one.ask.phase
    assert back.events[:-1] == one.events
    record = back.events[-1]
    assert record["t"] == TAKEN_BACK and record["seat"] == 1
    assert record["move"] == two.moves[-1].text() and "seeing the bots' replies" in record["note"]
    assert format_moves(back.moves).endswith(".u")
    again = play_move(spec, back.moves, auto_move(back))
    assert [e["t"] for e in again.events].count(TAKEN_BACK) == 1  # kept through later moves


def test_a_game_without_take_back_logs_exactly_as_before() -> None:
    _spec, _one, two = _two_moves()
    assert all(e["t"] != TAKEN_BACK for e in two.events)


pytestmark = pytest.mark.django_db


def _played_twice(client: Client, url: str = "/play/?ruleset=classic&seed=3&seat=1&bots=greedy"):  # type: ignore[no-untyped-def]
    game = start(client, url)
    for _ in range(2):
        assert post_move(client, game, **move_fields(position(game), bid="low")).status_code == 200
        game.refresh_from_db()
    return game


def test_take_back_at_the_table_rewinds_logs_and_says_so(client: Client) -> None:
    game = _played_twice(client)
    page = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="take-back"' in page and "taken-back" not in page
    before = game.moves
    r = client.post(f"/play/{game.key}/takeback", {"ply": str(game.ply)})
    assert r.status_code == 303
    game.refresh_from_db()
    assert game.moves == before + ".u" and game.ply == 3
    page = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="taken-back"' in page and "悔过 1 步" in page
    log = client.get(f"/play/{game.key}/log.jsonl").content.decode()
    events = [json.loads(line) for line in log.splitlines()]
    assert [e["t"] for e in events].count(TAKEN_BACK) == 1
    whole = "".join(line + "\n" for line in game_log(position(game)))
    assert replay(StringIO(whole)).ok  # the referee's re-judgement passes over the record
    stale = client.post(f"/play/{game.key}/takeback", {"ply": "2"})
    assert stale.status_code == 409
    client.cookies["lang"] = "en"
    english = client.get(f"/play/{game.key}/").content.decode()
    assert "1 move taken back this round" in english


def test_take_back_is_refused_where_it_would_leak_or_nothing_stands(client: Client) -> None:
    fresh = start(client)
    r = client.post(f"/play/{fresh.key}/takeback", {"ply": "0"})
    assert r.status_code == 409 and "不能悔棋" in r.content.decode()
    closed = _played_twice(
        client, "/play/?ruleset=erqiwang&seed=4&seat=0&bots=greedy&options=review:closed"
    )
    page = client.get(f"/play/{closed.key}/").content.decode()
    assert 'data-testid="take-back"' not in page
    assert client.post(f"/play/{closed.key}/takeback", {"ply": str(closed.ply)}).status_code == 409
    other = Client()
    game = _played_twice(client)
    assert other.post(f"/play/{game.key}/takeback", {"ply": str(game.ply)}).status_code == 403
