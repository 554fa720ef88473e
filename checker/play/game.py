"""Games against the bots: a round rebuilt from its seed and the human's decisions so far.

A game is its ruleset (and options), seed, the human's seat, the bots and the list of the
human's moves. The position is never stored: `replay_game` applies the moves to a fresh
`RoundState` from the seed, the bots replying in between, and stops where the human must
decide next. `LiveTables` keeps games at the human's decision, so a table's next move needs
no replay. The web table and the terminal command both build on it.
"""

from __future__ import annotations

import dataclasses
import random
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from checker.engine.cards import Card, format_rank, parse_rank
from checker.engine.errors import CardError, EngineError
from checker.engine.follow import generate_example, generate_forced, judge_follow
from checker.engine.rotation import has_levels
from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_known, ruleset_names
from checker.engine.texts import pick

from .bots.bury import decide_bury
from .bots.registry import DEFAULT_BOT
from .match import MatchState, RoundRecord, apply_result, round_setup_for
from .moves import SURRENDER as SURRENDER  # re-exported: the table and the terminal use them
from .moves import Move as Move
from .moves import MoveError as MoveError
from .moves import format_moves as format_moves
from .moves import parse_move as parse_move
from .moves import parse_moves as parse_moves
from .players import BID, BURY, DECLARE, FOLLOW, LEAD, Decision, PlayerView, decide
from .records import Record, write_event
from .round import Event, RoundResult, RoundSetup, declare_asks
from .seats import default_bots as default_bots  # re-exported: the table and the terminal use it
from .seats import describe_bots, make_seat_players, parse_bots
from .simulation import _dump, header
from .state import NEW, RoundState
from .takeback import effective_moves, takeback_event


@dataclass(frozen=True)
class GameSpec:
    """What fixes a game besides the moves: ruleset and options, seed, seats, bots, level."""

    ruleset: str
    seed: int
    seat: int | None  # None: every seat is a bot (autoplay)
    bots: str  # one bot name for every bot seat, or one per seat (checker.play.seats)
    level: int | None = None
    options: tuple[tuple[str, bool | str | int], ...] = ()
    match: MatchState | None = None  # a later round of a match: the state it starts from

    def load(self) -> Ruleset:
        """Load the ruleset with the game's options."""
        return load_ruleset(self.ruleset).with_options(dict(self.options))

    def setup(self, rs: Ruleset) -> RoundSetup:
        """Start the round: a match's next round, or a first round at the level."""
        if self.match is not None:
            return round_setup_for(rs, self.match)
        level = (self.level or rs.levels[0]) if rs.has_level else None
        return RoundSetup(level, level, None)

    def match_state(self, rs: Ruleset) -> MatchState:
        """The match state this round starts from (a first round: both sides at the level)."""
        if self.match is not None:
            return self.match
        level = (self.level or rs.levels[0]) if has_levels(rs) else None
        return MatchState(1, None, None if level is None else (level, level), (0,) * rs.players)


def make_spec(
    ruleset: str,
    seed: int | str,
    seat: int | str | None,
    bots: str | None = None,
    level: int | str | None = None,
    options: dict[str, Any] | None = None,
) -> GameSpec:
    """Check a game's parameters and return its spec; ValueError names the bad one."""
    if not ruleset_known(ruleset):
        known = ", ".join(ruleset_names())
        raise ValueError(f"unknown ruleset {ruleset!r} (known: {known})")
    try:
        rs = load_ruleset(ruleset).with_options(options or {})
    except EngineError as exc:
        raise ValueError(str(exc)) from None
    try:
        seed_n = int(seed)
    except (TypeError, ValueError):
        raise ValueError(f"seed must be a whole number, got {str(seed)[:30]!r}") from None
    if not 0 <= seed_n < 2**48:
        raise ValueError(f"seed must be between 0 and 2^48, got {seed_n}")
    seat_n: int | None = None
    if seat is not None and seat != "":
        try:
            seat_n = int(seat)
        except (TypeError, ValueError):
            raise ValueError(f"seat must be a number, got {str(seat)[:30]!r}") from None
        if not 0 <= seat_n < rs.players:
            raise ValueError(f"seat must be 0–{rs.players - 1} in {ruleset}, got {seat_n}")
    kind = parse_bots(bots, rs.players, seat_n)
    level_n: int | None = None
    if level not in (None, "") and rs.has_level:
        try:
            level_n = parse_rank(str(level))
        except CardError:
            raise ValueError(
                f"level must be a rank (2–10, J, Q, K, A), got {str(level)[:10]!r}"
            ) from None
        if level_n not in rs.levels:
            raise ValueError(f"level {format_rank(level_n)} is not a rank of {ruleset}")
    opts = tuple(
        sorted((k, v) for k, v in rs.options.items() if (options or {}).get(k) is not None)
    )
    return GameSpec(ruleset, seed_n, seat_n, kind, level_n, opts)


@dataclass(frozen=True)
class Ask:
    """The human's decision the round is waiting for, with what the rules allow there."""

    phase: str  # declare, bid, surrender, pick_trump, bury, lead, follow
    view: PlayerView
    declarations: tuple[tuple[Card, ...], ...] = ()
    bid_range: tuple[int, int, int] = (0, 0, 0)
    must_bid: bool = False


@dataclass
class Position:
    """A game rebuilt up to the human's next decision (or to the round's end)."""

    spec: GameSpec
    ruleset: Ruleset
    moves: list[Move]
    events: list[Event]
    ask: Ask | None
    result: RoundResult | None
    reasons: dict[int, Decision] = field(default_factory=dict)

    @property
    def is_over(self) -> bool:
        """Tell whether the round has ended."""
        return self.result is not None


class _Game:
    """A game's round being played: the state, the bots, the log and the bots' reasons."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.ruleset = rs = spec.load()
        self.bots = make_seat_players(spec.bots, spec.seed, rs.players)
        asks = [
            NEW if seat == spec.seat else mode for seat, mode in enumerate(declare_asks(self.bots))
        ]
        self.state = RoundState(rs, spec.seed, spec.setup(rs), asks=asks)
        self.moves: list[Move] = []
        self.events: list[Event] = []
        self.reasons: dict[int, Decision] = {}
        self._add(self.state.opening, None)
        self._advance()

    def _add(self, records: Sequence[Record], decision: Decision | None) -> None:
        """Log the records of a move (the bot's reason beside the move's own event)."""
        for record in records:
            event = write_event(record)
            if event is None:
                continue
            if decision is not None and event["t"] in ("declare", "bury", "play"):
                self.reasons[len(self.events)] = decision
                decision = None
            self.events.append(event)

    def _advance(self) -> None:
        """Let the bots move until the human must decide or the round ends."""
        state, bots, human = self.state, self.bots, self.spec.seat
        turn = state.turn
        while turn is not None and turn.seat != human:
            seat, phase = turn
            view = state.view(seat)
            decision: Decision | None = None
            if phase in (DECLARE, BURY, LEAD, FOLLOW):
                decision = decide(bots[seat], view)
                move = Move("cards", decision.cards) if decision.cards else Move("pass")
                if not decision.cards and phase == DECLARE:
                    decision = None
            else:
                move = bots[seat].choose(view)
            self._add(state.apply(move, replace_illegal=True), decision)
            turn = state.turn

    def play(self, move: Move, step: int | None = None) -> None:
        """Make the human's move and the bots' replies (MoveError: the round as it was)."""
        if self.spec.seat is None:
            return  # every seat is a bot: there is no human move to make
        try:
            records = self.state.apply(move)
        except MoveError as exc:
            raise MoveError(exc.say, step=step) from None
        self.moves.append(move)
        self._add(records, None)
        self._advance()

    def position(self) -> Position:
        """Return the position now: the human's decision, or the round's result."""
        state = self.state
        events = list(self.events)
        turn = state.turn
        if turn is None:
            result = state.res
            result.events = events
            return Position(
                self.spec, self.ruleset, list(self.moves), events, None, result, dict(self.reasons)
            )
        view = state.view(turn.seat)
        if turn.phase == DECLARE:
            ask = Ask(DECLARE, view, declarations=state.legal_declarations())
        elif turn.phase == BID:
            ask = Ask(BID, view, bid_range=state.bid_range, must_bid=state.must_bid)
        else:
            ask = Ask(turn.phase, view)
        return Position(
            self.spec, self.ruleset, list(self.moves), events, ask, None, dict(self.reasons)
        )


def _replayed(spec: GameSpec, moves: Sequence[Move]) -> _Game:
    game = _Game(spec)
    standing, marks = effective_moves(moves)
    for step, move in enumerate(standing):
        game.events += [takeback_event(spec.seat, m) for m in marks.get(step, ())]
        if game.state.is_over and spec.seat is not None:
            raise MoveError(
                lambda lang: pick(lang, "这一局已经结束", "the round is over"), step=step
            )
        game.play(move, step)
    game.events += [takeback_event(spec.seat, m) for m in marks.get(len(standing), ())]
    game.moves = list(moves)
    return game


def replay_game(spec: GameSpec, moves: Sequence[Move], extra: Move | None = None) -> Position:
    """Play the game's round again with the human's moves (then `extra`) up to the next decision.

    A stored move that the rules refuse raises MoveError with its step; a refused `extra`
    raises MoveError without one. Moves left over after the round's end are refused too.
    """
    game = _replayed(spec, moves)
    if extra is not None:
        if game.state.is_over and spec.seat is not None:
            raise MoveError(lambda lang: pick(lang, "这一局已经结束", "the round is over"))
        game.play(extra)
        game.moves = [*moves, extra]
    else:
        game.moves = list(moves)
    return game.position()


def play_move(spec: GameSpec, moves: Sequence[Move], move: Move) -> Position:
    """Make the human's next move: the new position, or MoveError with the rules' reason."""
    return replay_game(spec, moves, move)


def hint(position: Position) -> tuple[list[Card], Decision | None]:
    """Suggest the human's decision: the forced cards (follows) and one legal choice with why."""
    ask = position.ask
    if ask is None:
        return [], None
    view = ask.view
    forced: list[Card] = []
    if ask.phase == FOLLOW and view.ctx is not None and view.lead is not None:
        forced = generate_forced(view.ctx, view.lead, view.hand)
    if ask.phase not in (DECLARE, BURY, LEAD, FOLLOW):
        return forced, None
    spec = position.spec
    players = position.ruleset.players
    adviser = make_seat_players(spec.bots, spec.seed + len(position.moves), players)[view.seat]
    if ask.phase == BURY:  # the hint's kitty weighs the points it would put at risk
        decision = decide_bury(DEFAULT_BOT, view, weigh_risk=True)
    else:
        decision = decide(adviser, view)
    ctx, lead = view.ctx, view.lead
    legal = ctx is None or lead is None or judge_follow(ctx, lead, view.hand, decision.cards).legal
    if not legal and ctx is not None and lead is not None:
        cards = tuple(generate_example(ctx, lead, view.hand))
        decision = Decision(
            cards, "example", lambda lang: pick(lang, "一种合法跟法", "one legal follow")
        )
    if ask.phase == DECLARE and decision.cards not in ask.declarations:
        decision = Decision(
            ask.declarations[0],
            "declare",
            lambda lang: pick(lang, "可以亮的牌", "a declaration you can make"),
        )
    return forced, decision


def random_seed() -> int:
    """Draw a fresh game seed (small enough to type)."""
    return random.SystemRandom().randrange(1, 1_000_000)


def next_round(position: Position) -> tuple[GameSpec | None, MatchState, RoundRecord]:
    """Apply the finished round to the match: the next round's spec (None: match over)."""
    assert position.result is not None
    rs, spec = position.ruleset, position.spec
    state, record = apply_result(rs, spec.match_state(rs), position.result)
    if state.over:
        return None, state, record
    return dataclasses.replace(spec, seed=spec.seed + 1, level=None, match=state), state, record


def game_log(position: Position, engine: str = "") -> list[str]:
    """Write the game's round as a replay log (the `replay` command's format), one line each."""
    spec = position.spec
    players = describe_bots(spec.bots, spec.seat, position.ruleset.players)
    lines = [header(spec.ruleset, players, 1, spec.seed, engine, dict(spec.options))]
    lines += [_dump({"r": 0, **e}) for e in position.events]
    return lines


class LiveTables:
    """Games kept at the human's decision by game and moves, so a table's next move costs only
    the bots' replies instead of a replay of the round (the oldest dropped)."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._data: OrderedDict[tuple[GameSpec, str], _Game] = OrderedDict()
        self._lock = threading.Lock()

    def play(self, spec: GameSpec, moves: str, move: Move) -> Position:
        """Make a move in the game at these moves: MoveError when the rules refuse it."""
        if spec.seat is None:
            return play_move(spec, parse_moves(moves), move)
        with self._lock:  # a game is taken out while it is played: one request at a time
            game = self._data.pop((spec, moves), None)
        if game is None:
            game = _replayed(spec, parse_moves(moves))
        if game.state.is_over:
            raise MoveError(lambda lang: pick(lang, "这一局已经结束", "the round is over"))
        try:
            game.play(move)
        except MoveError:
            self._keep(game)
            raise
        if not game.state.is_over:
            self._keep(game)
        return game.position()

    def _keep(self, game: _Game) -> None:
        with self._lock:
            self._data[(game.spec, format_moves(game.moves))] = game
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        """Drop every kept game."""
        with self._lock:
            self._data.clear()


class PositionCache:
    """Keep the last positions replayed, so the table's follow-up requests need no replay."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._data: OrderedDict[tuple[GameSpec, str], Position] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, spec: GameSpec, moves: str) -> Position:
        """Return the position after the moves (link notation), replaying it when not kept."""
        key = (spec, moves)
        with self._lock:
            hit = self._data.get(key)
            if hit is not None:
                self._data.move_to_end(key)
                return hit
        position = replay_game(spec, parse_moves(moves))
        self.put(position)
        return position

    def put(self, position: Position) -> None:
        """Keep a position (the newest; the oldest beyond the size is dropped)."""
        key = (position.spec, format_moves(position.moves))
        with self._lock:
            self._data[key] = position
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        """Forget every kept position."""
        with self._lock:
            self._data.clear()
