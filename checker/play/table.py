"""The table as a player sees it: a round's log folded into hands, tricks, trump and points."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from checker.engine.bonus import RevealResult, reveal_duty
from checker.engine.cards import Card, parse_cards, parse_rank, remove_cards
from checker.engine.combos import classify
from checker.engine.follow import judge_follow
from checker.engine.order import Context
from checker.engine.roundrules import trump_count
from checker.engine.ruleset import Ruleset
from checker.engine.texts import Explained
from checker.engine.throws import judge_throw
from checker.engine.trick import resolve_trick

from .players import Decision
from .round import Event


@dataclass
class Play:
    """One play of a trick: who, what, and what the referee said about it."""

    seat: int
    cards: tuple[Card, ...]
    role: str  # lead / follow
    index: int  # the event's place in the log
    tried: tuple[Card, ...] = ()  # a failed throw: what was tried before the forced cards
    throw: str | None = None  # "ok" / "failed" for throws
    penalty: int = 0
    reason: Decision | None = None
    before: tuple[Card, ...] = ()  # the seat's hand before this play
    verdict: Explained | None = None  # a failed throw: why it failed and what was forced


@dataclass
class Trick:
    """A trick on the table: its plays in order, and once complete its winner and points."""

    number: int
    leader: int
    plays: list[Play] = field(default_factory=list)
    winner: int | None = None
    points: int = 0


@dataclass
class Table:
    """What the log says so far: deal, declarations or bids, trump, banker, tricks, the end."""

    ruleset: Ruleset
    seed: int = 0
    level: int | None = None
    trump: str | None = None
    banker: int | None = None
    declarer: int | None = None
    first: int = 0
    dealt: list[list[Card]] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)
    kitty: list[Card] = field(default_factory=list)
    buried: bool = False
    surrendered: bool = False
    declarations: list[tuple[int, tuple[Card, ...], Event]] = field(default_factory=list)
    bids: list[tuple[int, int | None]] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    attackers_points: int = 0
    end: Event | None = None
    redeals: int = 0
    flip: Event | None = None
    ctx: Context | None = None  # the card order, once trump is known
    no_trump: list[int] = field(default_factory=list)  # seats that announced 无主, in order
    kept: list[Card] = field(default_factory=list)  # the banker's hand right after burying
    signals: list[tuple[int, int, str]] = field(default_factory=list)  # (trick, seat, signal)

    @property
    def trump_known(self) -> bool:
        """Tell whether the deal is over and trump fixed (hidden declarations are open then)."""
        return self.ctx is not None or self.surrendered

    @property
    def current(self) -> Trick | None:
        """The trick being played (or the last one, once complete)."""
        return self.tricks[-1] if self.tricks else None

    @property
    def finished(self) -> list[Trick]:
        """The complete tricks."""
        return [t for t in self.tricks if t.winner is not None]

    def to_move(self) -> int | None:
        """Name the seat whose play is next in the current trick (None between phases)."""
        trick = self.current
        n = self.ruleset.players
        if trick is None or trick.winner is not None:
            if trick is not None and trick.winner is not None and self.end is None:
                return trick.winner
            return self.banker if self.buried and self.end is None else None
        return (trick.leader + len(trick.plays)) % n

    def is_attacker(self, seat: int) -> bool:
        """Tell whether a seat is on the attacking side (against the banker)."""
        return self.banker is not None and not self.ruleset.is_banker_side(seat, self.banker)


@dataclass(frozen=True)
class SeatReview:
    """What 可查牌 shows of one other seat after 报无主: its trump and pair counts, its trumps."""

    seat: int
    trumps: int
    pairs: int
    cards: tuple[Card, ...]


def review_seats(table: Table, human: int | None) -> list[SeatReview] | None:
    """List the other seats' trumps in 可查牌 mode after someone announced 无主 (seed 001 §9,
    §5.4.2); None while there is nothing to show (no announcement, 不查牌, or the round over)."""
    ctx = table.ctx
    if not table.no_trump or ctx is None or table.end is not None:
        return None
    if not table.ruleset.review_is_open:
        return None
    out = []
    for seat in range(table.ruleset.players):
        if seat != human:
            hand = table.hands[seat]
            trumps, pairs = trump_count(ctx, hand)
            cards = tuple(c for c in ctx.sort_cards(hand) if ctx.is_trump(c))
            out.append(SeatReview(seat, trumps, pairs, cards))
    return out


def banker_reveal(table: Table, human: int | None) -> RevealResult | None:
    """Return the banker's 亮牌 (§8.2) once buried, when it is due and this seat may see it:
    the banker always, the others only in 可查牌 mode."""
    rs = table.ruleset
    if rs.reveal_rules is None or table.ctx is None or not table.buried or table.end is not None:
        return None
    duty = reveal_duty(table.ctx, table.kept)
    if not duty.required:
        return None
    own = human is not None and human == table.banker
    return duty if own or rs.review_is_open else None


@lru_cache(maxsize=4096)
def _parse(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def _cards(text: object) -> tuple[Card, ...]:
    return _parse(str(text)) if text else ()


def fold_events(
    rs: Ruleset, events: Sequence[Event], reasons: dict[int, Decision] | None = None
) -> Table:
    """Fold a round's log (or its beginning) into the table it describes."""
    table = Table(rs)
    reasons = reasons or {}
    for i, e in enumerate(events):
        kind = e["t"]
        if kind == "round":
            table.seed = int(e["seed"])
            table.level = parse_rank(str(e["level"])) if e.get("level") else None
            table.banker = e.get("banker")
        elif kind == "deal":
            table.redeals = int(e["redeal"])
            table.first = int(e["first"])
            table.dealt = [list(_cards(h)) for h in e["hands"]]
            table.hands = [list(h) for h in table.dealt]
            table.kitty = list(_cards(e["kitty"]))
            table.declarations = []
            table.bids = []
        elif kind == "declare":
            if e["accepted"]:
                table.declarations.append((int(e["seat"]), _cards(e["cards"]), e))
        elif kind == "flip":
            table.flip = e
        elif kind == "bid":
            bid = e["bid"]
            table.bids.append((int(e["seat"]), None if bid == "pass" else int(bid)))
        elif kind == "surrender":
            table.surrendered = True
            table.banker = int(e["seat"])
        elif kind == "trump":
            table.trump = None if e["trump"] == "none" else str(e["trump"])
            table.banker = int(e["banker"])
            table.declarer = e.get("declarer")
            table.ctx = Context(rs, table.level, table.trump)
        elif kind == "bury":
            seat = int(e["seat"])
            buried = list(_cards(e["cards"]))
            table.hands[seat] = remove_cards(table.hands[seat] + table.kitty, buried)
            table.kitty = buried
            table.buried = True
            table.kept = list(table.hands[seat])
        elif kind == "play":
            _on_play(table, i, e, reasons.get(i))
        elif kind == "trick":
            trick = table.tricks[-1]
            trick.winner = int(e["winner"])
            trick.points = int(e["points"])
            table.attackers_points = int(e["attackers"])
        elif kind == "no_trump":
            table.no_trump.append(int(e["seat"]))
        elif kind == "signal":
            table.signals.append((int(e["trick"]), int(e["seat"]), str(e["signal"])))
        elif kind == "end":
            table.end = e
            table.attackers_points = int(e["attackers_points"])
    return table


def _on_play(table: Table, i: int, e: Event, reason: Decision | None) -> None:
    seat = int(e["seat"])
    cards = _cards(e["cards"])
    if e["role"] == "lead":
        table.tricks.append(Trick(int(e["trick"]), seat))
    play = Play(seat, cards, str(e["role"]), i, reason=reason, before=tuple(table.hands[seat]))
    if e.get("throw"):
        play.throw = str(e["throw"])
        play.tried = _cards(e.get("tried"))
        play.penalty = int(e.get("penalty") or 0)
        table.attackers_points += play.penalty
        if play.throw == "failed" and table.ctx is not None:
            n = table.ruleset.players
            others = [table.hands[(seat + k) % n] for k in range(1, n)]
            play.verdict = judge_throw(table.ctx, list(play.tried), others, seat, table.banker)
    table.tricks[-1].plays.append(play)
    table.hands[seat] = remove_cards(table.hands[seat], cards)


def hand_at(table: Table, seat: int, at: int) -> list[Card]:
    """The cards a seat held after the first `at` cards of the deal (declaring rulesets)."""
    n = table.ruleset.players
    held = (at - (seat - table.first) % n + n - 1) // n
    return table.dealt[seat][: max(0, held)]


@dataclass(frozen=True)
class JudgedPlay:
    """One play of a replayed trick with the referee's verdict on it (None: not shown)."""

    play: Play
    verdict: Explained | None


@dataclass(frozen=True)
class JudgedTrick:
    """A replayed trick: its plays with verdicts and why its winner won."""

    trick: Trick
    plays: tuple[JudgedPlay, ...]
    outcome: Explained | None
    hands: tuple[tuple[Card, ...], ...]  # each player's hand before the trick, in play order


def judge_tricks(table: Table, *, open_hands: bool, seat: int | None = None) -> list[JudgedTrick]:
    """Judge every trick of a table again: each follow, each throw and the winner, with why.

    With open_hands the follows and throws of every seat are judged against the hands held;
    otherwise (a round still being played) only `seat`'s own follows are, and the winner is
    found from the plays alone.
    """
    ctx = table.ctx
    if ctx is None:
        return []
    out: list[JudgedTrick] = []
    for trick in table.tricks:
        plays = [list(p.cards) for p in trick.plays]
        hands = [p.before for p in trick.plays]
        judged: list[JudgedPlay] = []
        lead = classify(ctx, plays[0]) if plays else None
        for k, p in enumerate(trick.plays):
            verdict: Explained | None = None
            seen = open_hands or p.seat == seat
            if k == 0 and p.throw is not None:
                tried = list(p.tried or p.cards)
                others = list(hands[1:]) if open_hands else []
                if len(others) == len(trick.plays) - 1 and others:
                    verdict = judge_throw(ctx, tried, others, p.seat, table.banker)
            elif k > 0 and lead is not None and seen:
                verdict = judge_follow(ctx, lead, p.before, list(p.cards))
            judged.append(JudgedPlay(p, verdict))
        outcome: Explained | None = None
        if plays and trick.winner is not None:
            with_hands: list[Sequence[Card] | None] | None = (
                [list(h) for h in hands] if open_hands else None
            )
            outcome = resolve_trick(ctx, plays, with_hands)
        out.append(JudgedTrick(trick, tuple(judged), outcome, tuple(hands)))
    return out
