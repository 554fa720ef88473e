"""The table's seat boxes count the cards each seat really holds: the cards dealt so far while
declaring, the kitty with the banker until it is buried, then one card fewer per card played."""

from __future__ import annotations

import pytest

from checker.play.game import Position, make_spec, play_move, replay_game
from checker.play.table import fold_events
from checker.web.tableview import table_context
from tests.test_game import auto_move


def _counts(position: Position) -> list[int]:
    return [s["left"] for s in table_context(position, "zh")["seats"]]


def _positions(ruleset: str, seed: int, seat: int, bid: str = "pass") -> list[Position]:
    spec = make_spec(ruleset, seed, seat, bots="greedy")
    position = replay_game(spec, [])
    seen = [position]
    while not position.is_over:
        position = play_move(spec, position.moves, auto_move(position, bid=bid))
        seen.append(position)
    return seen


def _check(position: Position) -> str:
    """Assert the counts of one position against the deal; return the phase checked."""
    ask, rs = position.ask, position.ruleset
    counts = _counts(position)
    n, size = rs.players, rs.hand_size
    if ask is None:
        return "over"
    human = ask.view.seat
    assert counts[human] == len(ask.view.hand), (ask.phase, counts)
    if ask.phase == "declare":
        held = len(ask.view.hand)
        first = next(e["first"] for e in reversed(position.events) if e["t"] == "deal")
        order = [(first + k) % n for k in range(n)]
        mine = order.index(human)
        if held < size:  # asked as its card arrived: the seats dealt after it have one fewer
            assert counts == [held if order.index(s) <= mine else held - 1 for s in range(n)]
        return "declare"
    if ask.phase in ("surrender", "pick_trump", "bury"):
        assert counts[human] == size + rs.kitty_size
        assert all(counts[s] == size for s in range(n) if s != human)
        return "kitty"
    tricks = fold_events(rs, position.events).tricks
    played = sum(len(p.cards) for t in tricks for p in t.plays)
    assert sum(counts) == n * size - played, (counts, played)
    return "play"


@pytest.mark.parametrize(
    ("ruleset", "seed", "seat", "bid", "phases"),
    [
        ("shuangsheng", 3, 0, "pass", {"declare", "play"}),
        ("multideck", 3, 0, "pass", {"declare", "play"}),
        ("erqiwang", 4, 0, "low", {"kitty", "play"}),
    ],
)
def test_seat_boxes_count_the_cards_each_seat_holds(
    ruleset: str, seed: int, seat: int, bid: str, phases: set[str]
) -> None:
    checked = {_check(p) for p in _positions(ruleset, seed, seat, bid)}
    assert phases <= checked, checked


def test_the_banker_holds_the_kitty_until_burying() -> None:
    for seed in range(40):
        for position in _positions("classic", seed, 0):
            if position.ask is not None and position.ask.phase == "bury":
                counts = _counts(position)
                assert counts[0] == 33 and counts[1:] == [25, 25, 25]
                return
    pytest.fail("no classic seed below 40 makes seat 0 bury")
