"""Replay of a simulation log: re-judge every logged action on the current engine (or play the
rounds again from their seeds) and list where the engine now disagrees."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from checker.engine.bidding import judge_auction, settle_chips
from checker.engine.cards import Card, format_cards, parse_cards, parse_rank
from checker.engine.combos import THROW, classify
from checker.engine.declare import flip_trump, judge_declaration
from checker.engine.errors import EngineError
from checker.engine.follow import judge_follow
from checker.engine.order import Context
from checker.engine.roundrules import is_kitty_shown, is_rethrow_banned, must_announce_no_trump
from checker.engine.ruleset import NobodyDeclares, Ruleset, load_ruleset
from checker.engine.scoring import kitty_bonus, score_round
from checker.engine.throws import judge_throw
from checker.engine.trick import resolve_trick

from .bots.registry import make_players
from .match import MatchState, apply_round
from .round import RoundSetup, build_deck, play_round, settlement_bonus
from .simulation import Event, _dump, run_job


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
    # By default every logged action is judged again (deal, declarations, throws, follows,
    # trick winners, kitty bonus, score) while the logged choices are kept, so later tricks
    # stay comparable. With resimulate=True the players play again from each round's seed and
    # the new log lines must equal the old ones.
    head, rounds = read_log(lines)
    report = ReplayReport(head, "resimulate" if resimulate else "judge")
    options = head.get("options") or None
    rs = load_ruleset(str(head["ruleset"])).with_options(options)
    for index in sorted(rounds):
        events = rounds[index]
        report.rounds += 1
        report.events += len(events)
        judge = _Judge(rs, index)
        try:
            if resimulate and "matches" in head:
                judge.diffs += _resimulate_in_match(rs, str(head["players"]), index, events)
            elif resimulate:
                judge.diffs += _resimulate(rs.name, str(head["players"]), index, events, options)
            else:
                judge.run(events)
        except (EngineError, KeyError, ValueError, AssertionError) as exc:
            error = f"{type(exc).__name__}: {exc}"
            judge.diffs.append(Diff(index, "replay", "error", None, error))
        report.diffs += judge.diffs
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


def _cards(text: Any) -> list[Card]:
    return parse_cards(str(text)) if text else []


def _same(a: Sequence[Card], b: Sequence[Card]) -> bool:
    return Counter(a) == Counter(b)


def _rank(text: Any) -> int | None:
    return None if text in (None, "") else parse_rank(str(text))


class _Judge:
    """Walks one logged round and judges every action again with the current engine."""

    def __init__(self, rs: Ruleset, index: int) -> None:
        self.rs = rs
        self.index = index
        self.diffs: list[Diff] = []
        self.level: int | None = None
        self.attacker_level: int | None = None
        self.rng = random.Random()
        self.deck = build_deck(rs)
        self.first = 0
        self.full: list[list[Card]] = []
        self.hands: list[list[Card]] = []
        self.kitty: list[Card] = []
        self.declarations: list[tuple[int, tuple[Card, ...]]] = []
        self.bids: list[int | str] = []
        self.bid: int | None = None
        self.surrendered = False
        self.ctx: Context | None = None
        self.banker = 0
        self.points = 0
        self.kitty_bonus = 0
        self.multiplier = 0
        self.trick: list[tuple[int, list[Card]]] = []
        self.before: list[list[Card]] = []
        self.drifted = False
        self.kept: list[Card] = []
        self.trump: str | None = None
        self.no_rethrow: set[int] = set()
        self.result = ""
        self.rise = 0
        self.x: int | None = None
        self.bonus: list[int] = []

    def check(self, where: str, what: str, logged: Any, now: Any) -> None:
        if logged != now:
            self.diffs.append(Diff(self.index, where, what, logged, now))

    def run(self, events: list[Event]) -> list[Diff]:
        for event in events:
            handler = getattr(self, "on_" + str(event["t"]), None)
            if handler is not None:
                handler(event)
        return self.diffs

    def on_round(self, e: Event) -> None:
        self.rng = random.Random(int(e["seed"]))
        self.level = _rank(e.get("level"))
        self.attacker_level = _rank(e.get("attacker_level"))
        self.banker = e["banker"] if e.get("banker") is not None else 0

    def on_deal(self, e: Event) -> None:
        rs, n = self.rs, self.rs.players
        self.rng.shuffle(self.deck)
        self.first = int(e["first"])
        dealt = len(self.deck) - rs.kitty_size
        full: list[list[Card]] = [[] for _ in range(n)]
        for i in range(dealt):
            full[(self.first + i) % n].append(self.deck[i])
        where = f"deal {e['redeal']}"
        now_hands = [format_cards(h) for h in full]
        for seat, (a, b) in enumerate(zip(e["hands"], now_hands, strict=True)):
            self.check(where, f"hand of seat {seat}", a, b)
        self.check(where, "kitty", e["kitty"], format_cards(self.deck[dealt:]))
        self.full = [_cards(h) for h in e["hands"]]
        self.hands = [list(h) for h in self.full]
        self.kitty = _cards(e["kitty"])
        self.declarations = []

    def on_declare(self, e: Event) -> None:
        n, seat, at = self.rs.players, int(e["seat"]), int(e["at"])
        held = (at - (seat - self.first) % n + n - 1) // n
        hand = self.full[seat][:held]
        cards = _cards(e["cards"])
        verdict = judge_declaration(self.rs, self.level, self.declarations, seat, cards, hand)
        where = f"declaration by seat {seat} at card {at}"
        self.check(where, "accepted", e["accepted"], verdict.accepted)
        self.check(where, "trump", e["trump"], verdict.trump or "none")
        if e["accepted"]:
            self.declarations.append((seat, tuple(cards)))

    def on_flip(self, e: Event) -> None:
        flipped = flip_trump(self.rs, self.level, self.kitty)
        self.check("flip", "card", e["card"], format_cards([flipped.card]))
        self.check("flip", "trump", e["trump"], flipped.trump or "none")

    def on_bid(self, e: Event) -> None:
        entry = e["bid"]
        self.bids.append(entry)
        verdict = judge_auction(self.rs, self.bids, self.first)
        legal = verdict.valid or verdict.reason == "incomplete"
        self.check(f"bid {len(self.bids)}", "legal", True, legal)
        if verdict.valid:
            self.bid = verdict.bid
            self.banker = verdict.banker if verdict.banker is not None else self.banker

    def on_surrender(self, e: Event) -> None:
        self.surrendered = True
        self.check("surrender", "banker", e["seat"], self.banker)

    def on_show_kitty(self, e: Event) -> None:
        self.check("show_kitty", "shown at this bid", True, is_kitty_shown(self.rs, self.bid))
        self.check("show_kitty", "cards", e["cards"], format_cards(self.kitty))

    def on_no_trump(self, e: Event) -> None:
        ctx = self.ctx
        assert ctx is not None
        seat = int(e["seat"])
        where = f"no_trump before trick {e['trick']}"
        self.check(
            where,
            f"seat {seat} holds no trump",
            True,
            must_announce_no_trump(ctx, self.hands[seat]),
        )

    def on_trump(self, e: Event) -> None:
        trump = None if e["trump"] == "none" else str(e["trump"])
        if e["by"] == "declare" and self.declarations:
            last = self.declarations[-1]
            verdict = judge_declaration(self.rs, self.level, self.declarations[:-1], *last)
            self.check("trump", "declared trump", e["trump"], verdict.trump or "none")
        if e["by"] == "bid":
            self.check("trump", "banker", e["banker"], self.banker)
        if e["by"] == "no_trump":
            nobody = self.rs.declare.nobody == NobodyDeclares.NO_TRUMP and not self.declarations
            self.check("trump", "nobody declared, so no-trump", True, nobody)
        self.banker = int(e["banker"])
        self.trump = trump
        self.ctx = Context(self.rs, self.level, trump)

    def on_bury(self, e: Event) -> None:
        cards = _cards(e["cards"])
        hand = self.hands[self.banker] + self.kitty
        left = Counter(hand) - Counter(cards)
        ok = len(cards) == self.rs.kitty_size and sum(left.values()) == len(hand) - len(cards)
        self.check("bury", "legal", e["legal"], ok)
        self.hands[self.banker] = list(left.elements())
        self.kept = list(self.hands[self.banker])
        self.kitty = cards

    def on_play(self, e: Event) -> None:
        ctx = self.ctx
        assert ctx is not None
        seat = int(e["seat"])
        cards = _cards(e["cards"])
        where = f"trick {e['trick']} seat {seat}"
        hand = self.hands[seat]
        if e["role"] == "lead":
            self.trick = []
            self.before = []
            tried = _cards(e.get("tried", e["cards"]))
            if e.get("legal", True):
                combo = classify(ctx, tried)
                self.check(where, "lead can be led", True, combo.is_valid)
                if combo.is_valid and combo.type == THROW:
                    self.check(where, "throw after a failed throw", False, seat in self.no_rethrow)
                    n = self.rs.players
                    others = [self.hands[(seat + k) % n] for k in range(1, n)]
                    verdict = judge_throw(ctx, tried, others, seat, self.banker)
                    self.check(
                        where, "throw", e.get("throw"), "ok" if verdict.allowed else "failed"
                    )
                    if not verdict.allowed and is_rethrow_banned(self.rs):
                        self.no_rethrow.add(seat)
                    if not _same(verdict.forced, cards):
                        self.check(where, "cards played", e["cards"], format_cards(verdict.forced))
                    if verdict.penalty and verdict.penalty_to == "attackers":
                        self.points += verdict.penalty
                else:
                    self.check(where, "throw", e.get("throw"), None)
        else:
            lead = classify(ctx, self.trick[0][1])
            if "tried" in e:
                first = judge_follow(ctx, lead, hand, _cards(e["tried"]))
                self.check(where, "tried follow legal", False, first.legal)
            follow = judge_follow(ctx, lead, hand, cards)
            self.check(where, "follow legal", e["legal"] or "tried" in e, follow.legal)
        self.before.append(list(hand))
        self.trick.append((seat, cards))
        for c in cards:
            if c in hand:
                hand.remove(c)

    def on_trick(self, e: Event) -> None:
        ctx = self.ctx
        assert ctx is not None
        where = f"trick {e['trick']}"
        plays = [cards for _, cards in self.trick]
        outcome = resolve_trick(ctx, plays, self.before)
        winner = self.trick[outcome.winner][0]
        self.check(where, "winner", e["winner"], winner)
        self.check(where, "points", e["points"], outcome.points)
        bare = resolve_trick(ctx, plays)
        self.check(where, "winner resolved without hands", e["winner"], self.trick[bare.winner][0])
        if not self.rs.is_banker_side(winner, self.banker):
            self.points += outcome.points
        if not any(self.hands):
            side = "banker" if self.rs.is_banker_side(winner, self.banker) else "attackers"
            bonus = kitty_bonus(
                ctx, plays[outcome.winner], self.kitty, side=side, trick_points=outcome.points
            )
            self.kitty_bonus, self.multiplier = bonus.bonus, bonus.multiplier
            self.points += bonus.bonus
        if not self.drifted and e["attackers"] != self.points - self.kitty_bonus:
            self.drifted = True
            self.check(
                where, "attackers' points so far", e["attackers"], self.points - self.kitty_bonus
            )

    def on_end(self, e: Event) -> None:
        rs = self.rs
        self.check("end", "kitty bonus", e["kitty_bonus"], self.kitty_bonus)
        self.check("end", "attackers' points", e["attackers_points"], self.points)
        if rs.score_policy == "bid_chips":
            assert self.bid is not None
            chips = settle_chips(rs, self.points, self.bid, self.surrendered)
            result, winner, rise = chips.result, chips.winner, chips.rise
            self.x = chips.chips
            self.check("end", "chips", e.get("chips"), chips.chips)
            if rs.bonus_rules is not None:
                bonus = settlement_bonus(
                    rs,
                    self.level,
                    self.trump,
                    self.banker,
                    self.full,
                    self.kitty,
                    self.kept,
                    self.surrendered,
                )
                self.check("end", "bonus", e.get("bonus"), bonus)
                self.bonus = bonus
        else:
            score = score_round(rs, self.points, self.level, self.attacker_level)
            result, winner, rise = score.result, score.winner, score.rise
            nxt = score.next_level
            label = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(nxt, str(nxt)) if nxt else None
            self.check("end", "next level", e["next_level"], label)
        self.check("end", "result", e["result"], result)
        self.check("end", "winner", e["winner"], winner)
        self.check("end", "rise", e["rise"], rise)
        self.result, self.rise = result, rise

    def on_next(self, e: Event) -> None:
        """Judge a match round's step again: payments, rotation, levels and the match end."""
        rs = self.rs
        before = [int(c) for c in e["chips"]]
        before = [c - d for c, d in zip(before, e["net"], strict=True)]
        state = MatchState(
            int(e["round"]),
            self.banker,
            tuple(int(v) for v in e["levels_before"]) if e.get("levels_before") else None,
            tuple(before),
        )
        new, record, _ = apply_round(
            rs,
            state,
            banker=self.banker,
            result=self.result,
            rise=self.rise,
            x=self.x if rs.teams == "banker_alone" else None,
            bonus=self.bonus,
        )
        now = record.as_event()
        for key in ("result", "rise", "levels", "net", "chips", "rule", "next_banker"):
            self.check(f"match round {e['round']}", key, e.get(key), now.get(key))
