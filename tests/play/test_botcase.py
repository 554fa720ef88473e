"""The bot case kind's bad input: contradictory histories, unknown bots, unknown asks."""

from __future__ import annotations

from typing import Any

from checker.suite.cases import Case
from checker.suite.runner import run_case


def _case(**data: Any) -> Case:
    base: dict[str, Any] = {
        "id": "t",
        "title": "t",
        "kind": "bot",
        "bot": "v2",
        "level": 2,
        "trump": "H",
    }
    base.update(data)
    return Case("t", "bot", "t", "x.yaml", 1, "c", ("classic",), base)


def test_history_with_more_copies_than_the_decks_is_an_error_naming_the_card() -> None:
    res = run_case(
        _case(
            action="follow",
            seat=2,
            hand="♣A ♣3",
            history=[
                [
                    {"seat": 1, "cards": "♣A"},
                    {"seat": 2, "cards": "♣A"},
                    {"seat": 3, "cards": "♣4"},
                    {"seat": 0, "cards": "♣5"},
                ]
            ],
            trick=[{"seat": 1, "cards": "♣7"}],
            expect={"legal": True},
        ),
        "classic",
    )
    assert res.status == "error" and "♣A" in res.message and "t" in res.message


def test_seat_playing_a_suit_it_showed_void_in_is_an_error() -> None:
    res = run_case(
        _case(
            action="follow",
            seat=2,
            hand="♣K ♣3",
            history=[
                [
                    {"seat": 1, "cards": "♦7"},
                    {"seat": 2, "cards": "♦8"},
                    {"seat": 3, "cards": "♣4"},
                    {"seat": 0, "cards": "♦9"},
                ],
                [
                    {"seat": 0, "cards": "♦J"},
                    {"seat": 1, "cards": "♦2"},
                    {"seat": 2, "cards": "♦Q"},
                    {"seat": 3, "cards": "♦K"},
                ],
            ],
            trick=[{"seat": 1, "cards": "♣7"}],
            expect={"legal": True},
        ),
        "classic",
    )
    assert res.status == "error" and "♦K" in res.message and "座位 3" in res.message


def test_unknown_bot_is_an_error_listing_the_bots() -> None:
    res = run_case(
        _case(bot="v7", action="lead", seat=0, hand="♣A", expect={"legal": True}), "classic"
    )
    assert res.status == "error" and "v7" in res.message and "v2" in res.message


def test_unknown_ask_is_an_error_listing_the_asks() -> None:
    res = run_case(
        _case(action="ask", ask="lucky", seat=0, cards="♣A", expect={"answer": True}), "classic"
    )
    assert res.status == "error" and "unbeatable_pair" in res.message


def test_follow_out_of_turn_is_an_error() -> None:
    res = run_case(
        _case(
            action="follow",
            seat=3,
            hand="♣K",
            trick=[{"seat": 1, "cards": "♣7"}],
            expect={"legal": True},
        ),
        "classic",
    )
    assert res.status == "error" and "座位 2" in res.message


def test_a_v3_case_may_pin_the_budget_and_a_bad_one_is_named() -> None:
    trick = [{"seat": 1, "cards": "♣7"}]
    good = run_case(
        _case(
            bot="v3",
            action="follow",
            seat=2,
            banker=0,
            hand="♣K ♣3 ♦4",
            trick=trick,
            budget=30,
            expect={"legal": True},
        ),
        "classic",
    )
    assert good.status == "pass", good.message
    bad = run_case(
        _case(
            bot="v3",
            action="follow",
            seat=2,
            banker=0,
            hand="♣K ♣3 ♦4",
            trick=trick,
            budget=-2,
            expect={"legal": True},
        ),
        "classic",
    )
    assert bad.status == "error" and "“-2”" in bad.message and "'-2'" in bad.message_en
