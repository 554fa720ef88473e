"""RoundState: a round its caller drives move by move, copies, refusals and the typed records."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.engine.cards import Card
from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_names
from checker.play.bots.registry import make_players
from checker.play.moves import SURRENDER, Move, MoveError
from checker.play.players import (
    BID,
    BURY,
    DECLARE,
    FOLLOW,
    LEAD,
    PICK_TRUMP,
    Player,
    PlayerView,
    RandomPlayer,
)
from checker.play.records import (
    Bid,
    Buried,
    Dealt,
    Declared,
    Flipped,
    Passed,
    Played,
    Scored,
    Started,
    Surrendered,
    TrickWon,
    TrumpFixed,
    read_event,
    write_event,
    write_events,
)
from checker.play.replay import replay
from checker.play.round import declare_asks, play_round, round_setup
from checker.play.simulation import header
from checker.play.state import RoundState
from tests.test_round import Quitter
from tests.test_round import Sloppy as RoundSloppy

# Each ruleset, and multideck with 4 decks: (name, options).
VARIANTS: list[tuple[str, dict[str, int]]] = [(name, {}) for name in ruleset_names()] + [
    ("multideck", {"decks": 4})
]


def _ruleset(variant: tuple[str, dict[str, int]]) -> Ruleset:
    return load_ruleset(variant[0]).with_options(variant[1] or None)


def _state(rs: Ruleset, seed: int, players: Sequence[Player]) -> RoundState:
    return RoundState(rs, seed, round_setup(rs, seed), asks=declare_asks(players), referee=True)


def _drive(state: RoundState, players: Sequence[Player], *, strict: bool, steps: int = -1) -> None:
    """Let the players move (at most `steps` moves; -1: to the end)."""
    while state.turn is not None and steps != 0:
        seat = state.turn.seat
        state.apply(players[seat].choose(state.view(seat)), replace_illegal=not strict)
        steps -= 1


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32),
    cut=st.integers(0, 200),
)
def test_legal_moves_applied_one_by_one_make_play_rounds_log_and_a_copy_goes_on_alike(
    variant: tuple[str, dict[str, int]], seed: int, cut: int
) -> None:
    rs = _ruleset(variant)
    expected = play_round(rs, seed, make_players("random", seed, rs.players))
    players = make_players("random", seed, rs.players)
    state = _state(rs, seed, players)
    # The random bots only make legal moves: applied strictly, none is refused.
    _drive(state, players, strict=True, steps=cut)
    twin, twin_players = state.copy(), copy.deepcopy(players)
    _drive(twin, twin_players, strict=True)  # the copy first: the original must not move
    _drive(state, players, strict=True)
    for done in (state, twin):
        assert done.is_over
        assert write_events(done.log) == expected.events
        assert done.res.figures() == expected.figures()


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_record_reads_back_from_its_log_event(variant: tuple[str, dict[str, int]]) -> None:
    rs = _ruleset(variant)
    seen: set[type] = set()
    for seed in range(6):
        state = _state(rs, seed, make_players("random", seed, rs.players))
        _drive(state, make_players("random", seed, rs.players), strict=False)
        for record in state.log:
            event = write_event(record)
            if isinstance(record, Passed):
                assert event is None
                continue
            assert event is not None and read_event(event) == record
            seen.add(type(record))
    assert {Started, Dealt, TrumpFixed, Buried, Played, TrickWon, Scored} <= seen
    assert (Bid in seen) == (rs.bidding is not None)
    assert (Declared in seen) == (rs.bidding is None)


def test_the_phases_of_every_ruleset_come_up_and_their_listed_moves_are_allowed() -> None:
    phases: dict[str, set[str]] = {}
    for name, options in VARIANTS:
        rs = _ruleset((name, options))
        for seed in range(4):
            players = make_players("random", seed, rs.players)
            state = _state(rs, seed, players)
            while state.turn is not None:
                seat, phase = state.turn
                phases.setdefault(name, set()).add(phase)
                legal = state.legal(seat)
                assert legal and all(state.can(m) for m in legal), (name, seed, phase)
                assert state.legal((seat + 1) % rs.players) == ()
                state.apply(players[seat].choose(state.view(seat)), replace_illegal=True)
    assert phases["classic"] == {DECLARE, BURY, LEAD, FOLLOW}
    assert phases["erqiwang"] >= {BID, PICK_TRUMP, BURY, LEAD, FOLLOW}
    assert phases["multideck"] >= {DECLARE, BURY, LEAD, FOLLOW}


def test_a_refused_move_says_why_in_both_languages_and_changes_nothing() -> None:
    rs = load_ruleset("classic")
    players = make_players("random", 3, rs.players)
    state = _state(rs, 3, players)
    while state.turn is not None and state.turn.phase != FOLLOW:
        _drive(state, players, strict=False, steps=1)
    assert state.turn is not None
    seat = state.turn.seat
    view = state.view(seat)
    hand, size = view.hand, len(view.lead.cards) if view.lead is not None else 1
    before = (state.turn, [list(h) for h in state.hands], len(state.log), state.res.illegal)
    wrong = [
        Move("pass"),
        Move("bid", value=80),
        Move("cards", (Card("S", 3),) * 9),
        *(Move("cards", tuple(hand[i : i + size])) for i in range(4)),
    ]
    refused = 0
    for move in wrong:
        if state.can(move):
            continue
        with pytest.raises(MoveError) as caught:
            state.apply(move)
        zh, en = caught.value.message("zh"), caught.value.message("en")
        assert zh and en and zh != en
        refused += 1
        assert (state.turn, state.hands, len(state.log), state.res.illegal) == before
    assert refused >= 3
    _drive(state, players, strict=False)
    with pytest.raises(MoveError, match="结束"):
        state.apply(Move("pass"))


def test_a_copy_is_independent_of_the_original() -> None:
    rs = load_ruleset("shuangsheng")
    players = make_players("greedy", 9, rs.players)
    state = _state(rs, 9, players)
    _drive(state, players, strict=False, steps=40)
    twin = state.copy()
    assert twin.hands == state.hands and twin.turn == state.turn
    twin.hands[0].clear()
    twin.res.breaks.append("x")
    assert state.hands[0] and "x" not in state.res.breaks
    assert twin.log == state.log and twin.log is not state.log


class Mute(RandomPlayer):
    """Never declares."""

    def cards(self, view: PlayerView) -> list[Card]:
        return [] if view.phase == DECLARE else super().cards(view)


def test_nobody_declaring_flips_the_kitty_and_a_surrender_ends_the_round() -> None:
    rs = load_ruleset("shuangsheng")
    mutes = [Mute(random.Random(i)) for i in range(4)]
    state = _state(rs, 77, mutes)
    _drive(state, mutes, strict=True)
    assert any(isinstance(r, Flipped) for r in state.log) and state.res.trump_by == "flip"
    rs = load_ruleset("erqiwang")
    quitters = [Quitter(random.Random(i)) for i in range(3)]
    state = _state(rs, 3, quitters)
    phases = []
    while state.turn is not None:
        phases.append(state.turn.phase)
        _drive(state, quitters, strict=True, steps=1)
    assert SURRENDER in phases and phases[-1] == SURRENDER
    assert isinstance(state.log[-2], Surrendered) and state.res.result == "surrender"


class Sloppy(RoundSloppy):
    """Makes illegal choices of every kind, bids and the trump included."""

    def bid(self, view: PlayerView, low: int, high: int, step: int, must: bool) -> int | None:
        return high + step

    def pick_trump(self, view: PlayerView) -> str:
        return "X"


@pytest.mark.parametrize("variant", VARIANTS)
def test_replay_applies_a_logs_illegal_moves_again_and_finds_the_same_records(
    variant: tuple[str, dict[str, int]],
) -> None:
    rs = _ruleset(variant)
    lines = [header(rs.name, "sloppy", 3, 0, "test", variant[1])]
    for r, seed in enumerate((1, 2, 3)):
        players = [Sloppy(random.Random(seed)), *make_players("random", seed, rs.players - 1)]
        res = play_round(rs, seed, players)
        assert res.illegal > 0
        lines += [json.dumps({"r": r, **e}, ensure_ascii=False) for e in res.events]
    report = replay(lines)
    assert report.rounds == 3 and report.ok, report.diffs[:3]
    tampered = [line.replace('"legal": false', '"legal": true') for line in lines]
    assert not replay(tampered).ok
