"""Whole rounds: a seeded deal with trump selection, the kitty, tricks until the hands are empty,
kitty bonus and score, every action judged by the same functions the checker uses.

`play_round` drives a `RoundState` with one player per seat: it asks the seat to move for its
decision and applies it, an illegal choice replaced by the rules' fallback and counted.
"""

from __future__ import annotations

from collections.abc import Sequence

from checker.engine.ruleset import Ruleset

from .players import Player
from .records import Record, write_events
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
    "play_records",
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
    return drive(_start(rs, seed, players, setup, referee, record), players)


def play_records(
    rs: Ruleset, seed: int, players: Sequence[Player]
) -> tuple[RoundResult, list[Record]]:
    """Play one whole round as `play_round` does and return its figures with its records (its
    events left unwritten: for a caller that writes the log's lines from the records)."""
    state = _start(rs, seed, players, None, True, True)
    state.play_out(players)
    return state.res, state.log


def _start(
    rs: Ruleset,
    seed: int,
    players: Sequence[Player],
    setup: RoundSetup | None,
    referee: bool,
    record: bool,
) -> RoundState:
    return RoundState(
        rs,
        seed,
        setup or round_setup(rs, seed),
        asks=declare_asks(players),
        referee=referee,
        record=record,
    )


def drive(state: RoundState, players: Sequence[Player]) -> RoundResult:
    """Let the players make every move of the round (illegal choices replaced and counted);
    return its figures and, when the state keeps a log, the log's events."""
    state.play_out(players)
    res = state.res
    if state.record:
        res.events = write_events(state.log)
    return res
