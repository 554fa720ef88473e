"""Whole matches: rounds with the state carried between them (each side's level, the banker,
chips per player, the round number) until the ruleset's end, every step judged by the engine.

The small API for a table that plays one round at a time:
    state = start_match(rs)                  # the state before the first round
    setup = round_setup_for(rs, state)       # where the next round starts (levels, banker)
    round_state = state.start_round(rs, seed, players)  # that round, to drive move by move
    state, record = state.finish_round(rs, result)   # a finished RoundResult → next state
`state.over` and `state.winner` tell when the match has ended and who won it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from checker.engine.cards import format_rank
from checker.engine.errors import EngineError
from checker.engine.payments import settle_payments
from checker.engine.rotation import (
    BANKER_RESULTS,
    NextRound,
    first_banker,
    has_levels,
    next_round,
    team_of,
    team_seats,
    top_level,
)
from checker.engine.ruleset import Ruleset

from .bots.registry import make_players
from .players import Player
from .round import Event, RoundResult, RoundSetup, declare_asks, drive
from .state import RoundState

# A match that has not ended after this many rounds is stopped and counted as unfinished.
MAX_ROUNDS = 400


@dataclass(frozen=True)
class MatchState:
    """The state between two rounds of a match."""

    round_no: int
    banker: int | None
    levels: tuple[int, ...] | None
    chips: tuple[int, ...]
    over: bool = False
    winner: tuple[int, ...] | None = None
    dissolved: bool = False  # ended early by 解散 (seed 001 §12.2), settled at its totals

    def dissolve(self, rs: Ruleset) -> tuple[MatchState, DissolveRecord]:
        """End the match now (解散), settled at its current totals: the state and the record."""
        if self.over:
            raise EngineError("这一场已经结束", en="the match is already over")
        winner = leaders(rs, self)
        record = DissolveRecord(self.round_no, self.levels, self.chips, winner)
        return dataclasses.replace(self, over=True, winner=winner, dissolved=True), record

    def start_round(
        self, rs: Ruleset, seed: int, players: Sequence[Player], *, record: bool = True
    ) -> RoundState:
        """Start the match's next round from this state, for these players to drive."""
        setup = round_setup_for(rs, self)
        return RoundState(rs, seed, setup, asks=declare_asks(players), referee=True, record=record)

    def finish_round(self, rs: Ruleset, res: RoundResult) -> tuple[MatchState, RoundRecord]:
        """Apply a finished round to the match: the state after it and its record."""
        return apply_result(rs, self, res)

    def as_dict(self) -> dict[str, Any]:
        """Return the state as plain data (levels written as ranks)."""
        return {
            "round": self.round_no,
            "banker": self.banker,
            "levels": [format_rank(v) for v in self.levels] if self.levels else None,
            "chips": list(self.chips),
            "over": self.over,
            "winner": list(self.winner) if self.winner is not None else None,
            **({"dissolved": True} if self.dissolved else {}),
        }


@dataclass(frozen=True)
class DissolveRecord:
    """A match dissolved before its end: the round it stopped in, the totals it settled at."""

    round_no: int
    levels: tuple[int, ...] | None
    chips: tuple[int, ...]
    winner: tuple[int, ...]

    def as_event(self) -> Event:
        """Write the record as a log event (the `dissolve` line ending the match)."""
        return {
            "t": "dissolve",
            "round": self.round_no,
            "levels": list(self.levels) if self.levels else None,
            "chips": list(self.chips),
            "winner": list(self.winner),
        }


def leaders(rs: Ruleset, state: MatchState) -> tuple[int, ...]:
    """Name the seats ahead at the current totals: most chips, else the side with the higher
    level (every seat when they are level)."""
    if rs.banker_plays_alone or state.levels is None:
        top = max(state.chips, default=0)
        return tuple(s for s, c in enumerate(state.chips) if c == top)
    ladder = list(rs.ranks)
    steps = [ladder.index(v) if v in ladder else -1 for v in state.levels]
    if len(set(steps)) == 1:
        return tuple(range(rs.players))
    return team_seats(rs, steps.index(max(steps)))


@dataclass(frozen=True)
class RoundRecord:
    """One played round of a match: its result and the state it left."""

    round_no: int
    seed: int
    banker: int
    result: str
    rise: int
    levels_before: tuple[int, ...] | None
    levels_after: tuple[int, ...] | None
    net: tuple[int, ...]
    chips_after: tuple[int, ...]
    x: int | None
    bonus: tuple[int, ...]
    rule: str
    next_banker: int

    def as_event(self) -> Event:
        """Write the record as a log event (the `next` line after each round)."""
        return {
            "t": "next",
            "round": self.round_no,
            "banker": self.banker,
            "result": self.result,
            "rise": self.rise,
            "levels_before": list(self.levels_before) if self.levels_before else None,
            "levels": list(self.levels_after) if self.levels_after else None,
            "x": self.x,
            "bonus": list(self.bonus),
            "net": list(self.net),
            "chips": list(self.chips_after),
            "rule": self.rule,
            "next_banker": self.next_banker,
        }


def start_match(rs: Ruleset) -> MatchState:
    """Return the state before a match's first round: lowest levels, no chips, first banker."""
    levels = (rs.levels[0], rs.levels[0]) if has_levels(rs) else None
    return MatchState(1, first_banker(rs), levels, (0,) * rs.players)


def round_setup_for(rs: Ruleset, state: MatchState) -> RoundSetup:
    """Return where the next round starts: the banker side's level, the attackers', the banker."""
    if state.over:
        raise EngineError("这一场已经结束", en="the match is already over")
    if state.levels is None:
        return RoundSetup(None, None, state.banker)
    if state.banker is None:  # first round: both sides at the same level, banker not known yet
        return RoundSetup(state.levels[0], state.levels[0], None)
    mine = team_of(rs, state.banker)
    return RoundSetup(state.levels[mine], state.levels[1 - mine], state.banker)


def apply_round(
    rs: Ruleset,
    state: MatchState,
    *,
    banker: int,
    result: str,
    rise: int,
    x: int | None = None,
    bonus: Sequence[int] = (),
    seed: int = 0,
) -> tuple[MatchState, RoundRecord, NextRound]:
    """Apply one round's result to the match state and return the next state and the record."""
    if state.over:
        raise EngineError("这一场已经结束", en="the match is already over")
    net: tuple[int, ...] = (0,) * rs.players
    if x is not None:
        counts = list(bonus) or [0] * rs.players
        pay = settle_payments(
            rs, x=x, bonus=counts, banker=banker, banker_won=result in BANKER_RESULTS
        )
        net = pay.net
    chips = tuple(c + d for c, d in zip(state.chips, net, strict=True))
    levels = state.levels
    if levels is not None and state.banker is None:
        levels = (levels[0], levels[0])
    nxt = next_round(
        rs,
        banker=banker,
        result=result,
        rise=rise,
        levels=levels,
        chips=chips if rs.banker_plays_alone else None,
        round_no=state.round_no,
    )
    record = RoundRecord(
        state.round_no,
        seed,
        banker,
        result,
        rise,
        levels,
        nxt.levels,
        net,
        chips,
        x,
        tuple(bonus),
        nxt.rule,
        nxt.banker,
    )
    new = MatchState(nxt.round_no, nxt.banker, nxt.levels, chips, nxt.match_over, nxt.match_winner)
    return new, record, nxt


def apply_result(
    rs: Ruleset, state: MatchState, res: RoundResult
) -> tuple[MatchState, RoundRecord]:
    """Apply a finished round (as play_round returns it) to the match state."""
    new, record, _ = apply_round(
        rs,
        state,
        banker=res.banker,
        result=res.result,
        rise=res.rise,
        x=res.chips if rs.banker_plays_alone else None,
        bonus=res.bonus,
        seed=res.seed,
    )
    return new, record


@dataclass
class MatchResult:
    """A played match: every round's record and log, the end state and broken invariants."""

    ruleset: str
    seed: int
    state: MatchState
    records: list[RoundRecord] = field(default_factory=list)
    rounds: list[RoundResult] = field(default_factory=list)
    breaks: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """Tell whether the match reached its end (rather than the round cap)."""
        return self.state.over

    def figures(self) -> dict[str, Any]:
        """Return the match's figures (no log) as plain data."""
        return {
            "seed": self.seed,
            "rounds": len(self.records),
            "finished": self.finished,
            "winner": list(self.state.winner) if self.state.winner is not None else None,
            "levels": [format_rank(v) for v in self.state.levels] if self.state.levels else None,
            # each team's levels at the start, then after every round
            "level_path": [
                [format_rank(v) for v in levels]
                for levels in [self.records[0].levels_before if self.records else None]
                + [r.levels_after for r in self.records]
                if levels
            ],
            "chips": list(self.state.chips),
            "illegal": sum(r.illegal for r in self.rounds),
            "round_breaks": sum(len(r.breaks) for r in self.rounds),
            "breaks": list(self.breaks),
        }


def match_round_seeds(seed: int) -> random.Random:
    """Return the generator of a match's round seeds."""
    return random.Random(f"match:{seed}")


def check_step(rs: Ruleset, record: RoundRecord) -> list[str]:
    """List broken level invariants of one round: only the winner moves, by the rules' steps."""
    before, after = record.levels_before, record.levels_after
    if before is None or after is None:
        return []
    out: list[str] = []
    ladder = list(rs.ranks)
    won = record.result in BANKER_RESULTS
    win_team = team_of(rs, record.banker) if won else 1 - team_of(rs, record.banker)
    lose = 1 - win_team
    where = f"round {record.round_no}"
    if after[lose] != before[lose]:
        out.append(f"{where}: the losing side's level moved {before[lose]} → {after[lose]}")
    old, new = ladder.index(before[win_team]), ladder.index(after[win_team])
    if not 0 <= new - old <= record.rise:
        out.append(
            f"{where}: level {before[win_team]} → {after[win_team]} with a rise of {record.rise}"
        )
    must = set(rs.mandatory_levels)
    skipped = [r for r in ladder[old + 1 : new] if r in must]
    if skipped:
        out.append(f"{where}: skipped level(s) {skipped} that must be played")
    if not won and before[win_team] in must and new != old:
        out.append(f"{where}: attackers left {before[win_team]} without playing it")
    # A rise may stop short only at a level that must be played, at A, or when the attackers
    # must first play the mandatory level they stand on.
    short = new - old < record.rise
    excused = after[win_team] in must or after[win_team] == top_level(rs)
    if short and not excused and not (not won and before[win_team] in must):
        out.append(f"{where}: the rise stopped short at {after[win_team]}")
    return out


def check_end(rs: Ruleset, state: MatchState) -> list[str]:
    """List broken invariants of a finished match: exactly one side (or top seats) wins."""
    if not state.over:
        return []
    if not state.winner:
        return ["the finished match has no winner"]
    if has_levels(rs):
        teams = {team_of(rs, s) for s in state.winner}
        if len(teams) != 1 or tuple(state.winner) != team_seats(rs, teams.pop()):
            return [f"the match winner {list(state.winner)} is not exactly one side"]
    return []


def play_match(
    rs: Ruleset,
    seed: int,
    kind: str,
    *,
    max_rounds: int = MAX_ROUNDS,
    players: Sequence[Player] | None = None,
) -> MatchResult:
    """Play a whole seeded match with players of one kind (new players each round)."""
    seeds = match_round_seeds(seed)
    state = start_match(rs)
    out = MatchResult(rs.name, seed, state)
    while not state.over and len(out.records) < max_rounds:
        round_seed = seeds.getrandbits(48)
        seats = players if players is not None else make_players(kind, round_seed, rs.players)
        res = drive(state.start_round(rs, round_seed, seats), seats)
        try:
            state, record = state.finish_round(rs, res)
        except EngineError as exc:  # the round produced something the match rules refuse
            out.breaks.append(f"round {state.round_no}: {exc.message_en}")
            out.rounds.append(res)
            break
        res.events.append(record.as_event())
        out.rounds.append(res)
        out.records.append(record)
        out.breaks += check_step(rs, record)
        if sum(state.chips) != 0:
            out.breaks.append(f"round {record.round_no}: chips sum to {sum(state.chips)}")
    out.state = state
    out.breaks += check_end(rs, state)
    return out
