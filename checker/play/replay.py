"""Replay of a simulation log: apply each round's logged moves to a fresh round state on the
current engine (or play the rounds again from their seeds) and list where it now disagrees."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from checker.engine.bidding import PASS
from checker.engine.cards import Card, parse_cards, parse_rank
from checker.engine.combos import THROW, classify
from checker.engine.errors import EngineError
from checker.engine.order import Context
from checker.engine.ruleset import Ruleset, load_ruleset

from .bots.registry import make_players
from .match import MatchState, apply_result
from .moves import SURRENDER, Move
from .players import BID, BURY, DECLARE, PICK_TRUMP, groups_of
from .records import write_events
from .round import RoundResult, RoundSetup, play_round
from .simulation import Event, _dump, run_job
from .state import ALWAYS, RoundState
from .takeback import TAKEN_BACK


@dataclass(frozen=True)
class Diff:
    """One place where the current engine disagrees with a logged round."""

    round: int
    where: str
    what: str
    logged: Any
    now: Any

    def __str__(self) -> str:
        return f"round {self.round}, {self.where}: {self.what} logged {self.logged!r}, now {self.now!r}"


@dataclass
class ReplayReport:
    """The result of replaying a log: what was compared and every difference found."""

    header: Event
    mode: str
    rounds: int = 0
    events: int = 0
    diffs: list[Diff] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Tell whether the replay found no difference."""
        return not self.diffs


def read_log(lines: Iterable[str]) -> tuple[Event, dict[int, list[Event]]]:
    """Parse a replay log into its header and the events of each round."""
    head: Event | None = None
    rounds: dict[int, list[Event]] = {}
    for number, line in enumerate(lines, start=1):
        line = line.strip()
        if not line:
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"line {number}: not JSON ({exc.msg})") from exc
        if not isinstance(event, dict) or "t" not in event:
            raise ValueError(f"line {number}: not a log event")
        if event["t"] == "header":
            head = event
            continue
        rounds.setdefault(int(event["r"]), []).append(event)
    if head is None:
        raise ValueError("the log has no header line")
    return head, rounds


def replay(lines: Iterable[str], resimulate: bool = False) -> ReplayReport:
    """Re-run a logged simulation on the current engine and list where it now disagrees."""
    # By default each round's logged moves are applied to a fresh round state from its seed
    # and the records it makes (deal, declarations, throws, follows, trick winners, kitty
    # bonus, score) must equal the logged ones; a round is compared up to its first
    # difference. With resimulate=True the players play again from each round's seed and the
    # new log lines must equal the old ones.
    head, rounds = read_log(lines)
    report = ReplayReport(head, "resimulate" if resimulate else "judge")
    options = head.get("options") or None
    rs = load_ruleset(str(head["ruleset"])).with_options(options)
    for index in sorted(rounds):
        events = rounds[index]
        report.rounds += 1
        report.events += len(events)
        try:
            if resimulate and "matches" in head:
                diffs = _resimulate_in_match(rs, str(head["players"]), index, events)
            elif resimulate:
                diffs = _resimulate(rs.name, str(head["players"]), index, events, options)
            else:
                diffs = _rejudge(rs, index, events)
        except (EngineError, KeyError, ValueError, TypeError, IndexError, AssertionError) as exc:
            diffs = [Diff(index, "replay", "error", None, f"{type(exc).__name__}: {exc}")]
        report.diffs += diffs
    return report


def _resimulate(
    name: str, kind: str, index: int, events: list[Event], options: Any = None
) -> list[Diff]:
    seed = int(events[0]["seed"])
    extra = (tuple(sorted(dict(options).items())),) if options else ()
    _, lines = run_job((name, kind, index, seed, *extra))
    return _compare_lines(index, [_dump(e) for e in events], lines)


def _resimulate_in_match(rs: Ruleset, kind: str, index: int, events: list[Event]) -> list[Diff]:
    """Play a match's round again from its seed and its logged start (levels, banker)."""
    start = events[0]
    seed = int(start["seed"])
    setup = RoundSetup(
        _rank(start.get("level")), _rank(start.get("attacker_level")), start["banker"]
    )
    res = play_round(rs, seed, make_players(kind, seed, rs.players), setup)
    old = [e for e in events if e["t"] != "next"]
    extra: dict[str, Any] = {k: old[0][k] for k in ("r", "m") if k in old[0]}
    lines = [_dump({**extra, **e}) for e in res.events]
    return _compare_lines(index, [_dump(e) for e in old], lines)


def _compare_lines(index: int, old: list[str], lines: list[str]) -> list[Diff]:
    for i, (a, b) in enumerate(zip(old, lines, strict=False)):
        if a != b:
            return [Diff(index, f"line {i + 1} of the round", "event", a, b)]
    if len(old) != len(lines):
        return [Diff(index, "end of the round", "number of events", len(old), len(lines))]
    return []


def _cards(text: Any) -> tuple[Card, ...]:
    return tuple(parse_cards(str(text))) if text else ()


def _rank(text: Any) -> int | None:
    return None if text in (None, "") else parse_rank(str(text))


def _where(e: Event) -> str:
    """Name a logged event's place in its round."""
    t = e.get("t")
    if t == "deal":
        return f"deal {e.get('redeal')}"
    if t == "declare":
        return f"declaration by seat {e.get('seat')} at card {e.get('at')}"
    if t == "play":
        return f"trick {e.get('trick')} seat {e.get('seat')}"
    if t in ("trick", "no_trump"):
        return (
            f"{t} {e.get('trick')}" if t == "trick" else f"no_trump before trick {e.get('trick')}"
        )
    return str(t)


class _LoggedMoves:
    """The moves a logged round made, handed to a fresh round state in order.

    A move the log marks illegal is replaced by one the rules refuse, so the state records the
    same fallback the round did (the log keeps the refused choice only for follows and failed
    throws)."""

    def __init__(self, events: list[Event]) -> None:
        # In log order: a seat asked at the deal's last card is asked again (at the same card)
        # once the deal is over, so a declaration is made at the first ask where it is next.
        self.declared = [
            ((redeal, int(e["seat"]), int(e["at"])), _cards(e["cards"]))
            for redeal, e in _with_redeal(events)
            if e["t"] == "declare"
        ]
        self.bids = [e for e in events if e["t"] == "bid"]
        self.plays = [e for e in events if e["t"] == "play"]
        self.signals = [e for e in events if e["t"] == "signal"]
        self.surrendered = any(e["t"] == "surrender" for e in events)
        self.trump = next((e["trump"] for e in events if e["t"] == "trump"), None)
        self.buried = next((e for e in events if e["t"] == "bury"), None)

    def next_move(self, state: RoundState) -> Move:
        """Return the logged move for the state's decision (ValueError: the log has none)."""
        assert state.turn is not None
        seat, phase = state.turn
        if phase == DECLARE:
            declared = self.declared
            if declared and declared[0][0] == (state.res.redeals, seat, state.declaring_at):
                return Move("cards", declared.pop(0)[1])
            return Move("pass")
        if phase == BID:
            e = self._take(self.bids, "bid")
            if not e["legal"]:
                return Move("bid", value="illegal")
            return Move("pass") if e["bid"] == PASS else Move("bid", value=int(e["bid"]))
        if phase == SURRENDER:
            return Move("surrender", value=self.surrendered)
        if phase == PICK_TRUMP:
            return Move("trump", value=self.trump)
        if phase == BURY:
            if self.buried is None:
                raise ValueError("the log has no burial")
            e = self.buried
            return Move("cards", _cards(e["cards"]) if e["legal"] else ())
        signal = self._signal_before_play(seat)
        if signal is not None:
            return signal
        e = self._take(self.plays, "play")
        if e["role"] == "lead" and e.get("throw") == "failed":
            return Move("cards", _cards(e["tried"]))
        if e["legal"]:
            return Move("cards", _cards(e["cards"]))
        if e["role"] == "follow":
            return Move("cards", _cards(e["tried"]))
        if e.get("reason") == "rethrow_banned":
            assert state.ctx is not None
            return Move("cards", _a_throw(state.ctx, state.hands[seat]))
        return Move("cards", ())

    def _signal_before_play(self, seat: int) -> Move | None:
        """The signal the seat sent in this trick before its play (二七王 §11), if logged."""
        signals, plays = self.signals, self.plays
        if not signals or not plays:
            return None
        first, play = signals[0], plays[0]
        if (int(first["trick"]), int(first["seat"])) != (int(play["trick"]), seat):
            return None
        signals.pop(0)
        return Move("signal", value=str(first["signal"]))

    @staticmethod
    def _take(queue: list[Event], what: str) -> Event:
        if not queue:
            raise ValueError(f"the log has no more {what} events")
        return queue.pop(0)


def _a_throw(ctx: Context, hand: Sequence[Card]) -> tuple[Card, ...]:
    """Return a throw in the hand (two singles of one group), or nothing when there is none."""
    for cards in groups_of(ctx, hand).values():
        distinct = sorted(set(cards))
        for other in distinct[1:]:
            combo = classify(ctx, [distinct[0], other])
            if combo.is_valid and combo.type == THROW:
                return (distinct[0], other)
    return ()


def _with_redeal(events: list[Event]) -> list[tuple[int, Event]]:
    """Pair each event with the number of the deal it belongs to."""
    out: list[tuple[int, Event]] = []
    redeal = 0
    for e in events:
        if e["t"] == "deal":
            redeal = int(e["redeal"])
        out.append((redeal, e))
    return out


def _event_diffs(index: int, old: Event, new: Event) -> list[Diff]:
    """List the fields in which a replayed event differs from the logged one."""
    where = _where(old)
    if old.get("t") != new.get("t"):
        return [Diff(index, where, "event", old.get("t"), new.get("t"))]
    keys = [*old, *(k for k in new if k not in old)]
    return [Diff(index, where, k, old.get(k), new.get(k)) for k in keys if old.get(k) != new.get(k)]


def _rejudge(rs: Ruleset, index: int, events: list[Event]) -> list[Diff]:
    """Apply a logged round's moves to a fresh round state and compare its records with the
    log's, up to the first difference (what follows depends on it). A log that stops before
    the round's end (a game waiting for a move) is compared as far as it goes."""
    logged = [
        {k: v for k, v in e.items() if k not in ("r", "m")}
        for e in events
        if e["t"] not in ("next", TAKEN_BACK)
    ]
    start = logged[0]
    if start["t"] != "round":
        raise ValueError("the round does not start with its round event")
    setup = RoundSetup(
        _rank(start.get("level")), _rank(start.get("attacker_level")), start.get("banker")
    )
    state = RoundState(rs, int(start["seed"]), setup, asks=(ALWAYS,) * rs.players, referee=True)
    moves = _LoggedMoves(logged)
    finished = logged[-1]["t"] == "end"
    now = write_events(list(state.opening))
    checked = 0
    while True:
        for i in range(checked, len(now)):
            if i >= len(logged):
                return [Diff(index, "end of the log", "event", None, now[i].get("t"))]
            if now[i] != logged[i]:
                return _event_diffs(index, logged[i], now[i])
        checked = len(now)
        if state.turn is None or (not finished and len(now) >= len(logged)):
            break
        now += write_events(list(state.apply(moves.next_move(state), replace_illegal=True)))
    if len(now) != len(logged):
        return [Diff(index, "end of the round", "number of events", len(logged), len(now))]
    return [d for e in events if e["t"] == "next" for d in _judge_next(rs, index, e, state.res)]


def _judge_next(rs: Ruleset, index: int, e: Event, res: RoundResult) -> list[Diff]:
    """Judge a match round's step again: payments, rotation, levels and the match end."""
    before = [int(c) - int(d) for c, d in zip(e["chips"], e["net"], strict=True)]
    levels = tuple(int(v) for v in e["levels_before"]) if e.get("levels_before") else None
    state = MatchState(int(e["round"]), res.banker, levels, tuple(before))
    now = apply_result(rs, state, res)[1].as_event()
    keys = ("result", "rise", "levels", "net", "chips", "rule", "next_banker")
    where = f"match round {e['round']}"
    return [Diff(index, where, k, e.get(k), now.get(k)) for k in keys if e.get(k) != now.get(k)]
