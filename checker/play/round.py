"""Whole rounds: a seeded deal with trump selection, the kitty, tricks until the hands are empty,
kitty bonus and score, every action judged by the same functions the checker uses.

`play_round` drives a `RoundState` with one player per seat: it asks the seat to move for its
decision and applies it, an illegal choice replaced by the rules' fallback and counted.
"""

from __future__ import annotations

from collections.abc import Sequence

from checker.engine.ruleset import Ruleset

from .players import Player
from .records import write_events
from .rounddata import MAX_REDEALS as MAX_REDEALS
from .rounddata import Event as Event
from .rounddata import RoundResult as RoundResult
from .rounddata import RoundSetup as RoundSetup
from .rounddata import build_deck as build_deck
from .rounddata import round_setup, settlement_bonus
from .state import ALWAYS, OPTIONS, RoundState

__all__ = [
    "MAX_REDEALS",
    "Event",
    "RoundResult",
    "RoundSetup",
    "build_deck",
    "round_setup",
    "settlement_bonus",
    "play_round",
    "declare_asks",
    "drive",
]


def declare_asks(players: Sequence[Player]) -> list[str]:
    """Say when each player is asked to declare: only with something to declare, when it
    would pass otherwise (`passes_without_options`), else after every card."""
    return [OPTIONS if getattr(p, "passes_without_options", False) else ALWAYS for p in players]


def play_round(
    rs: Ruleset,
    seed: int,
    players: Sequence[Player],
    setup: RoundSetup | None = None,
    referee: bool = True,
    *,
    record: bool = True,
) -> RoundResult:
    """Play one whole round from a seed with the given players and return its log and figures.

    With `record=False` the round keeps no log at all (its events stay empty): the same play,
    figures and breaks. With referee=True (the default) each trick is resolved a second time
    with every follower's hand (the follows judged again): both winners must agree.
    """
    state = RoundState(
        rs,
        seed,
        setup or round_setup(rs, seed),
        asks=declare_asks(players),
        referee=referee,
        record=record,
    )
    return drive(state, players)


def drive(state: RoundState, players: Sequence[Player]) -> RoundResult:
    """Let the players make every move of the round (illegal choices replaced and counted);
    return its figures and, when the state keeps a log, the log's events."""
    apply, view = state.apply, state.view
    turn = state.turn
    while turn is not None:
        seat = turn[0]
        apply(players[seat].choose(view(seat)), replace_illegal=True)
        turn = state.turn
    res = state.res
    if state.record:
        res.events = write_events(state.log)
    return res
