"""Games against the bots: a round rebuilt from its seed and the human's decisions so far.

A game is its ruleset (and options), seed, the human's seat, the bots and the list of the
human's moves. The position is never stored: `replay_game` plays the round again from the
seed, feeding the human seat from the moves, and stops where the human must decide next.
The web table and the terminal command both build on it.
"""

from __future__ import annotations

import dataclasses
import queue
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from checker.engine.bidding import PASS, judge_auction
from checker.engine.cards import (
    SUITS,
    Card,
    ascii_card,
    format_rank,
    is_subset,
    parse_cards,
    parse_rank,
)
from checker.engine.combos import classify
from checker.engine.declare import judge_declaration
from checker.engine.errors import CardError, EngineError
from checker.engine.follow import generate_example, generate_forced, judge_follow
from checker.engine.rotation import has_levels
from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_names
from checker.engine.texts import Lang, Say, cards_text, pick

from .match import MatchState, RoundRecord, apply_result, round_setup_for
from .players import (
    BID,
    BURY,
    DECLARE,
    FOLLOW,
    LEAD,
    PICK_TRUMP,
    Decision,
    Player,
    PlayerView,
    decide,
    seen_declaration_options,
)
from .round import Event, RoundPaused, RoundResult, RoundSetup, play_round
from .seats import default_bots as default_bots  # re-exported: the table and the terminal use it
from .seats import describe_bots, make_seat_players, parse_bots
from .simulation import _dump, header

SURRENDER = "surrender"
# The move notation of a game link: moves joined by ".", cards of one move by "-" in the
# link-friendly ASCII spelling (SA-SA-H10); actions are lower case: p (pass: no declaration
# now, or no bid), b70 (bid 70), y / n (surrender or not), tS (name ♠ trump).
MOVE_SEP = "."
CARD_SEP = "-"
MAX_MOVES = 400


class MoveError(ValueError):
    """A move the game refuses, with the reason in both languages."""

    def __init__(self, say: Say, *, step: int | None = None) -> None:
        self.say = say
        self.step = step
        super().__init__(say("zh"))

    def message(self, lang: Lang) -> str:
        """Say what was wrong, naming the step of the game link when the link was bad."""
        text = self.say(lang)
        if self.step is None:
            return text
        n = self.step + 1
        return pick(lang, f"棋谱第 {n} 步无效：{text}", f"Move {n} of the game is invalid: {text}")


@dataclass(frozen=True)
class Move:
    """One decision of the human: cards (declare, bury, lead, follow) or an action."""

    kind: str  # "cards", "pass", "bid", "surrender", "trump"
    cards: tuple[Card, ...] = ()
    value: int | str | bool | None = None

    def text(self) -> str:
        """Write the move in the link notation."""
        if self.kind == "cards":
            return CARD_SEP.join(ascii_card(c) for c in self.cards)
        if self.kind == "pass":
            return "p"
        if self.kind == "bid":
            return f"b{self.value}"
        if self.kind == "surrender":
            return "y" if self.value else "n"
        return f"t{self.value}"


def parse_move(text: str) -> Move:
    """Parse one move of the link notation (cards or an action)."""
    token = text.strip()
    if token == "p":
        return Move("pass")
    if token in ("y", "n"):
        return Move("surrender", value=token == "y")
    if token[:1] == "b" and token[1:].isdigit() and len(token) <= 5:
        return Move("bid", value=int(token[1:]))
    if token[:1] == "t" and len(token) == 2 and token[1] in SUITS:
        return Move("trump", value=token[1])
    try:
        cards = parse_cards(token.replace(CARD_SEP, " "))
    except CardError as exc:
        why = str(exc)
        raise MoveError(
            lambda lang: pick(
                lang, f"看不懂“{token[:30]}”：{why}", f"cannot read “{token[:30]}”: {why}"
            )
        ) from None
    if not cards:
        raise MoveError(lambda lang: pick(lang, "空的一步", "an empty move"))
    return Move("cards", tuple(cards))


def parse_moves(text: str) -> list[Move]:
    """Parse a game link's move list ("" is no move yet)."""
    parts = [p for p in text.strip().split(MOVE_SEP)] if text.strip() else []
    if len(parts) > MAX_MOVES:
        raise MoveError(lambda lang: pick(lang, "棋谱太长", "the move list is too long"))
    out: list[Move] = []
    for i, part in enumerate(parts):
        try:
            out.append(parse_move(part))
        except MoveError as exc:
            raise MoveError(exc.say, step=i) from None
    return out


def format_moves(moves: Sequence[Move]) -> str:
    """Write a move list in the link notation."""
    return MOVE_SEP.join(m.text() for m in moves)


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
    if ruleset not in ruleset_names():
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


class _Explaining:
    """A bot seat that keeps each decision (with its reason) of the cards it plays."""

    def __init__(self, player: Player, log: list[tuple[int, Decision]], seat: int) -> None:
        self.player = player
        self.name = player.name
        self.log = log
        self.seat = seat

    def choose(self, view: PlayerView) -> list[Card]:
        decision = decide(self.player, view)
        if decision.cards or view.phase != DECLARE:
            self.log.append((self.seat, decision))
        return list(decision.cards)

    def bid(self, view: PlayerView, low: int, high: int, step: int, must: bool) -> int | None:
        bidder = getattr(self.player, "bid", None)
        if bidder is None:
            return high if must else None
        value: int | None = bidder(view, low, high, step, must)
        return value

    def surrender(self, view: PlayerView) -> bool:
        asker = getattr(self.player, "surrender", None)
        return bool(asker(view)) if asker is not None else False

    def pick_trump(self, view: PlayerView) -> str:
        picker = getattr(self.player, "pick_trump", None)
        return str(picker(view)) if picker is not None else SUITS[0]


def _not_in_hand(cards: Sequence[Card]) -> Say:
    return lambda lang: pick(
        lang,
        f"手里没有 {cards_text(cards, lang)}",
        f"{cards_text(cards, lang)} is not in your hand",
    )


def _wrong_kind(phase: str) -> Say:
    zh = {
        DECLARE: "现在是亮主：选要亮的牌，或者不亮",
        BID: "现在是叫分：叫一个分数或者不叫",
        SURRENDER: "现在要决定投降与否",
        PICK_TRUMP: "现在要定主花色",
        BURY: "现在要扣底牌",
        LEAD: "现在该你首出：选牌",
        FOLLOW: "现在该你跟牌：选牌",
    }[phase]
    en = {
        DECLARE: "this is the declaring: pick the cards to declare, or pass",
        BID: "this is the auction: bid a number or pass",
        SURRENDER: "decide whether to surrender",
        PICK_TRUMP: "name the trump suit",
        BURY: "bury the kitty",
        LEAD: "you lead: pick cards",
        FOLLOW: "you follow: pick cards",
    }[phase]
    return lambda lang: pick(lang, zh, en)


class _Closed(Exception):  # noqa: N818 - the end of a kept round, not an error
    """Ends a live round's thread: the round was dropped while waiting for the human."""


class _Channel:
    """Where a live round waits for the human: asks go out, moves come in."""

    def __init__(self) -> None:
        self.inbox: queue.Queue[Move | None] = queue.Queue()
        self.outbox: queue.Queue[tuple[str, Any]] = queue.Queue()

    def wait(self, ask: Ask, *, again: bool) -> Move:
        """Publish the decision (unless it was just refused) and wait for the human's move."""
        if not again:
            self.outbox.put(("ask", ask))
        move = self.inbox.get()
        if move is None:
            raise _Closed
        return move


Check = Callable[[Ask, Move, "int | None"], Any]


class _Human:
    """The human seat: plays the given moves in order, then pauses the round at its decision.

    Without a channel the round stops (RoundPaused) when the moves run out; with one it waits
    there for the next move, and a refused move is reported and asked again.
    """

    name = "human"

    def __init__(
        self, moves: Sequence[Move], extra: Move | None, channel: _Channel | None = None
    ) -> None:
        self.moves = list(moves)
        self.extra = extra
        self.channel = channel
        self.used = 0
        self.asked: tuple[tuple[Card, ...], ...] | None = None
        self.held = 0
        self.refused = False

    def _next(self, ask: Ask) -> tuple[Move, int | None]:
        """Return the next move for this decision (and its step), or pause the round."""
        if self.used < len(self.moves):
            self.used += 1
            return self.moves[self.used - 1], self.used - 1
        if self.extra is not None:
            move, self.extra = self.extra, None
            self.used += 1
            return move, None
        if self.channel is not None:
            move = self.channel.wait(ask, again=self.refused)
            self.refused = False
            return move, None
        raise RoundPaused(ask.view, ask)

    def _decide(self, ask: Ask, check: Check) -> Any:
        """Take moves until one passes the check (a live round reports each refusal)."""
        while True:
            move, step = self._next(ask)
            try:
                return check(ask, move, step)
            except MoveError as exc:
                if step is not None or self.channel is None:
                    raise
                self.refused = True
                self.channel.outbox.put(("refused", exc))

    def _cards(self, ask: Ask, move: Move, step: int | None) -> list[Card]:
        if move.kind != "cards":
            raise MoveError(_wrong_kind(ask.phase), step=step)
        if not is_subset(move.cards, ask.view.hand):
            raise MoveError(_not_in_hand(move.cards), step=step)
        return list(move.cards)

    def choose(self, view: PlayerView) -> list[Card]:
        if view.phase == DECLARE:
            return self._declare(view)
        cards: list[Card] = self._decide(Ask(view.phase, view), self._check_play)
        return cards

    def _check_play(self, ask: Ask, move: Move, step: int | None) -> list[Card]:
        view = ask.view
        cards = self._cards(ask, move, step)
        if view.phase == BURY:
            size = view.ruleset.kitty_size
            if len(cards) != size:
                n = len(cards)
                raise MoveError(
                    lambda lang: pick(
                        lang, f"要扣 {size} 张，选了 {n} 张", f"bury {size} cards, not {n}"
                    ),
                    step=step,
                )
            return cards
        ctx = view.ctx
        assert ctx is not None
        if view.phase == LEAD:
            combo = classify(ctx, cards)
            if not combo.is_valid:
                raise MoveError(lambda lang: combo.reason_for(ctx, lang), step=step)
            return cards
        assert view.lead is not None
        verdict = judge_follow(ctx, view.lead, view.hand, cards)
        if not verdict.legal:
            raise MoveError(verdict.explanation_for, step=step)
        return cards

    def _declare(self, view: PlayerView) -> list[Card]:
        if len(view.hand) < self.held:  # a redeal: ask again from the start
            self.asked = None
        self.held = len(view.hand)
        options = tuple(tuple(o) for o in seen_declaration_options(view))
        # Asked only when something new can be declared: passing holds until the options change.
        if not options or options == self.asked:
            return []
        self.asked = options
        cards: list[Card] = self._decide(
            Ask(DECLARE, view, declarations=options), self._check_declare
        )
        return cards

    def _check_declare(self, ask: Ask, move: Move, step: int | None) -> list[Card]:
        if move.kind == "pass":
            return []
        view = ask.view
        cards = self._cards(ask, move, step)
        verdict = judge_declaration(
            view.ruleset, view.level, view.declarations, view.seat, cards, view.hand
        )
        if not verdict.accepted:
            raise MoveError(verdict.explanation_for, step=step)
        most = max((k for _, k in view.hidden_declarations), default=0)
        if len(cards) <= most:
            n = len(cards)
            raise MoveError(
                lambda lang: pick(
                    lang,
                    f"桌上有人暗亮了 {most} 张，{n} 张不比它多，不能再亮。",
                    f"someone has shown {most} hidden cards; {n} is not more, so it cannot declare.",
                ),
                step=step,
            )
        return cards

    def bid(self, view: PlayerView, low: int, high: int, step: int, must: bool) -> int | None:
        ask = Ask(BID, view, bid_range=(low, high, step), must_bid=must)
        value: int | None = self._decide(ask, self._check_bid)
        return value

    def _check_bid(self, ask: Ask, move: Move, at: int | None) -> int | None:
        view = ask.view
        if move.kind == "pass":
            if ask.must_bid:
                raise MoveError(
                    lambda lang: pick(
                        lang, "前面都没人叫，你必须叫分", "nobody has bid: you must bid"
                    ),
                    step=at,
                )
            return None
        if move.kind != "bid" or not isinstance(move.value, int):
            raise MoveError(_wrong_kind(BID), step=at)
        entries: list[int | str] = [PASS if b is None else b for _, b in view.bids]
        first = view.bids[0][0] if view.bids else view.seat
        verdict = judge_auction(view.ruleset, [*entries, move.value], first)
        if not (verdict.valid or verdict.reason == "incomplete"):
            raise MoveError(verdict.say, step=at)
        return move.value

    def surrender(self, view: PlayerView) -> bool:
        answer: bool = self._decide(Ask(SURRENDER, view), _check_surrender)
        return answer

    def pick_trump(self, view: PlayerView) -> str:
        suit: str = self._decide(Ask(PICK_TRUMP, view), _check_trump)
        return suit


def _check_surrender(ask: Ask, move: Move, at: int | None) -> bool:
    if move.kind != "surrender":
        raise MoveError(_wrong_kind(SURRENDER), step=at)
    return bool(move.value)


def _check_trump(ask: Ask, move: Move, at: int | None) -> str:
    if move.kind != "trump":
        raise MoveError(_wrong_kind(PICK_TRUMP), step=at)
    return str(move.value)


def replay_game(spec: GameSpec, moves: Sequence[Move], extra: Move | None = None) -> Position:
    """Play the game's round again with the human's moves (then `extra`) up to the next decision.

    A stored move that the rules refuse raises MoveError with its step; a refused `extra`
    raises MoveError without one. Moves left over after the round's end are refused too.
    """
    rs = spec.load()
    bots = make_seat_players(spec.bots, spec.seed, rs.players)
    log: list[tuple[int, Decision]] = []
    seats: list[Player] = [_Explaining(p, log, i) for i, p in enumerate(bots)]
    human: _Human | None = None
    if spec.seat is not None:
        human = _Human(moves, extra)
        seats[spec.seat] = human
    given = list(moves) + ([extra] if extra is not None else [])
    try:
        result = play_round(rs, spec.seed, seats, spec.setup(rs), referee=False)
    except RoundPaused as pause:
        assert isinstance(pause.detail, Ask)
        events = pause.events
        return Position(spec, rs, given, events, pause.detail, None, _reasons(events, log))
    if human is not None and human.used < len(given):
        step = human.used if human.used < len(moves) else None
        raise MoveError(lambda lang: pick(lang, "这一局已经结束", "the round is over"), step=step)
    return Position(spec, rs, given, result.events, None, result, _reasons(result.events, log))


def _reasons(events: list[Event], log: list[tuple[int, Decision]]) -> dict[int, Decision]:
    """Pair each bot decision with its event (declarations, burying and plays, in order)."""
    queues: dict[int, list[Decision]] = {}
    for seat, decision in log:
        queues.setdefault(seat, []).append(decision)
    out: dict[int, Decision] = {}
    for i, e in enumerate(events):
        if e["t"] in ("declare", "bury", "play"):
            queue = queues.get(int(e["seat"]))
            if queue:
                out[i] = queue.pop(0)
    return out


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


class LiveRound:
    """A game's round kept running in its own thread, waiting at the human's decision.

    Each move then costs only the bots' replies instead of a replay of the whole round; the
    positions it gives are the same as `replay_game` gives for the same moves.
    """

    TIMEOUT = 60.0

    def __init__(self, spec: GameSpec, moves: Sequence[Move]) -> None:
        self.spec = spec
        self.ruleset = spec.load()
        self.moves = list(moves)
        self.lock = threading.Lock()
        self.channel = _Channel()
        self.events: list[Event] = []
        self.log: list[tuple[int, Decision]] = []
        thread = threading.Thread(target=self._run, name=f"round-{spec.seed}", daemon=True)
        thread.start()
        self.position = self._receive()

    def _run(self) -> None:
        rs, spec = self.ruleset, self.spec
        seats: list[Player] = [
            _Explaining(p, self.log, i)
            for i, p in enumerate(make_seat_players(spec.bots, spec.seed, rs.players))
        ]
        assert spec.seat is not None
        seats[spec.seat] = _Human(self.moves, None, self.channel)
        try:
            result = play_round(rs, spec.seed, seats, spec.setup(rs), False, self.events)
        except _Closed:
            return
        except Exception as exc:  # noqa: BLE001 - handed to the waiting request
            self.channel.outbox.put(("error", exc))
            return
        self.channel.outbox.put(("done", result))

    def _receive(self) -> Position:
        kind, value = self.channel.outbox.get(timeout=self.TIMEOUT)
        if kind in ("error", "refused"):
            raise value
        events = list(self.events)
        reasons = _reasons(events, list(self.log))
        if kind == "done":
            return Position(self.spec, self.ruleset, list(self.moves), events, None, value, reasons)
        return Position(self.spec, self.ruleset, list(self.moves), events, value, None, reasons)

    def play(self, move: Move) -> Position:
        """Make the human's move and return the next position (MoveError leaves it as it was)."""
        with self.lock:
            if self.position.ask is None:
                raise MoveError(lambda lang: pick(lang, "这一局已经结束", "the round is over"))
            self.channel.inbox.put(move)
            self.moves.append(move)
            try:
                self.position = self._receive()
            except MoveError:
                self.moves.pop()
                raise
            return self.position

    def close(self) -> None:
        """Let the round's thread end (it is waiting for a move that will not come)."""
        if self.position.ask is not None:
            self.channel.inbox.put(None)


class LiveTables:
    """Live rounds by game and moves, so a table's next move needs no replay (oldest dropped)."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._data: OrderedDict[tuple[GameSpec, str], LiveRound] = OrderedDict()
        self._lock = threading.Lock()

    def play(self, spec: GameSpec, moves: str, move: Move) -> Position:
        """Make a move in the game at these moves: MoveError when the rules refuse it."""
        if spec.seat is None:
            return play_move(spec, parse_moves(moves), move)
        with self._lock:
            live = self._data.pop((spec, moves), None)
        if live is None:
            live = LiveRound(spec, parse_moves(moves))
        try:
            position = live.play(move)
        except MoveError:
            self._keep(live)
            raise
        if position.is_over:
            live.close()
        else:
            self._keep(live)
        return position

    def _keep(self, live: LiveRound) -> None:
        dropped: list[LiveRound] = []
        with self._lock:
            self._data[(live.spec, format_moves(live.moves))] = live
            while len(self._data) > self.size:
                dropped.append(self._data.popitem(last=False)[1])
        for old in dropped:
            old.close()

    def clear(self) -> None:
        """Drop every live round."""
        with self._lock:
            dropped = list(self._data.values())
            self._data.clear()
        for old in dropped:
            old.close()


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
