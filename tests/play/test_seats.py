"""Which bot plays which seat (checker.play.seats): one name, or a comma list per seat."""

from __future__ import annotations

import pytest

from checker.play.bots.registry import PLAYER_KINDS
from checker.play.game import make_spec, replay_game
from checker.play.seats import (
    BotChoiceError,
    default_bots,
    describe_bots,
    parse_bots,
    seat_bots,
)


def test_no_name_is_the_strongest_bot_and_one_name_is_every_seat() -> None:
    assert parse_bots(None, 4, 0) == parse_bots("", 4, 0) == default_bots() == "v2"
    assert parse_bots("greedy", 4, 0) == "greedy"
    assert seat_bots("greedy", 3) == ["greedy"] * 3


def test_a_list_per_seat_marks_the_human_seat_and_unnamed_seats_get_the_strongest() -> None:
    assert parse_bots("-,random,greedy,v1", 4, 0) == "-,random,greedy,v1"
    assert parse_bots("human,random,,v1", 4, 0) == "-,random,v2,v1"
    # Only the other seats, in seat order.
    assert parse_bots("random,greedy,v1", 4, 2) == "random,greedy,-,v1"
    # The same bot everywhere is written as one name.
    assert parse_bots("greedy,greedy,greedy", 4, 1) == "greedy"
    assert parse_bots("v1,v1,v1", 3, None) == "v1"
    assert seat_bots("-,random,greedy,v1", 4) == ["v2", "random", "greedy", "v1"]


def test_an_unknown_bot_or_a_wrong_count_is_named_with_the_known_names() -> None:
    with pytest.raises(BotChoiceError) as err:
        parse_bots("nobody", 4, 0)
    assert "nobody" in str(err.value) and all(k in str(err.value) for k in PLAYER_KINDS)
    with pytest.raises(BotChoiceError, match="seat 2") as err:
        parse_bots("-,greedy,nobody,v1", 4, 0)
    with pytest.raises(BotChoiceError, match="names 2 seats"):
        parse_bots("greedy,v1", 4, 0)
    with pytest.raises(BotChoiceError, match="names 3 seats"):
        parse_bots("greedy,v1,v2", 4, None)  # autoplay: every seat needs a name
    with pytest.raises(ValueError, match="bots"):
        make_spec("classic", 1, 0, "greedy,nobody,v1")


def test_each_seat_plays_its_own_bot_and_the_game_reproduces() -> None:
    mixed = make_spec("classic", 8, None, "random,greedy,v1,v2")
    assert mixed.bots == "random,greedy,v1,v2"
    done = replay_game(mixed, [])
    again = replay_game(mixed, [])
    assert done.is_over and done.events == again.events
    # Every bot decision carries the rule of the bot of its seat.
    for i, decision in done.reasons.items():
        seat = int(done.events[i]["seat"])
        assert decision.rule.split(".")[0] == ["random", "greedy", "v1", "v2"][seat]
    same = replay_game(make_spec("classic", 8, None, "greedy,greedy,greedy,greedy"), [])
    assert same.events == replay_game(make_spec("classic", 8, None, "greedy"), []).events


def test_the_log_header_names_every_seat() -> None:
    assert describe_bots("v2", 1, 4) == "human1+v2"
    assert describe_bots("v2", None, 4) == "v2"
    assert describe_bots("-,random,greedy,v1", 0, 4) == "human,random,greedy,v1"
