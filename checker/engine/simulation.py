"""Batches of simulated rounds: seeds, parallel runs, the summary figures, the JSON-lines replay
log and its replay against the current engine."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bidding import judge_auction, settle_chips
from .cards import Card, format_cards, parse_cards, parse_rank
from .combos import THROW, classify
from .declare import flip_trump, judge_declaration
from .errors import EngineError
from .follow import judge_follow
from .order import Context
from .players import make_players
from .round import build_deck, on_banker_side, play_round, settlement_bonus
from .ruleset import Ruleset, load_ruleset
from .scoring import kitty_bonus, score_round
from .throws import judge_throw
from .trick import resolve_trick

# The replay log (simulate --log FILE) is JSON lines, one event per line. The first line is
#   {"t":"header","format":1,"ruleset","players","rounds","seed","engine"}
# and every other line carries "r" (the round's index) and "t", in play order:
#   round    seed, level, attacker_level, banker (null: first round, the declarer is banker)
#   deal     redeal (0, 1, … when nobody declared), first (seat dealt first), hands, kitty
#   declare  seat, at (cards dealt so far), cards, accepted, trump, reason
#   flip     card, trump                       (nobody declared, rulesets with a flip)
#   bid      seat, bid (number or "pass"), legal          (rulesets with bidding)
#   surrender seat, bid                        (the banker gave up at the surrender bid)
#   trump    trump, declarer, banker, by (declare / flip / bid)
#   bury     seat, cards, legal
#   play     trick, seat, role (lead / follow), cards (what was played), legal, and when the
#            choice was replaced: tried (what the player chose), reason; a lead that was a
#            throw has throw ("ok" / "failed") and, when failed, tried and penalty
#   trick    trick, leader, winner (seat), points, attackers (attackers' points so far)
#   end      attackers_points, kitty, kitty_points, kitty_bonus, multiplier, result, winner,
#            rise, next_level, chips, bonus, breaks (broken invariants)
# Cards are written as the case files write them (♠A, 大王), so parse_cards reads them back.
LOG_FORMAT = 1
Event = dict[str, Any]
Job = tuple[str, str, int, int]


def round_seeds(seed: int, rounds: int) -> list[int]:
    """Derive the seed of every round of a run from the run's seed."""
    master = random.Random(seed)
    return [master.getrandbits(48) for _ in range(rounds)]


def run_job(job: Job) -> tuple[dict[str, Any], list[str]]:
    """Play one round of a run and return its figures and its log lines (JSON)."""
    name, kind, index, seed = job
    rs = load_ruleset(name)
    res = play_round(rs, seed, make_players(kind, seed, rs.players))
    lines = [_dump({"r": index, **e}) for e in res.events]
    return res.figures(), lines


def _dump(event: Event) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def header(ruleset: str, players: str, rounds: int, seed: int, engine: str) -> str:
    """Write the first line of a replay log: what was run, with which engine."""
    return _dump(
        {
            "t": "header",
            "format": LOG_FORMAT,
            "ruleset": ruleset,
            "players": players,
            "rounds": rounds,
            "seed": seed,
            "engine": engine,
        }
    )


def run_rounds(
    ruleset: str, players: str, rounds: int, seed: int, jobs: int = 1
) -> Iterator[tuple[dict[str, Any], list[str]]]:
    """Play a run's rounds in order (over several processes when jobs > 1) and yield each."""
    load_ruleset(ruleset)
    make_players(players, 0, 1)
    work = [(ruleset, players, i, s) for i, s in enumerate(round_seeds(seed, rounds))]
    if jobs <= 1 or rounds < 2:
        for job in work:
            yield run_job(job)
        return
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs) as pool:
        chunk = max(1, min(20, rounds // (jobs * 8)))
        yield from pool.imap(run_job, work, chunksize=chunk)


@dataclass
class Summary:
    """Figures of a run, added up round by round."""

    ruleset: str
    players: str
    seed: int
    rounds: int = 0
    tricks: int = 0
    illegal_plays: int = 0
    throws_tried: int = 0
    throws_failed: int = 0
    redeals: int = 0
    points: int = 0
    kitty_rounds: int = 0
    invariant_breaks: int = 0
    chips: int = 0
    bonus: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    winners: Counter[str] = field(default_factory=Counter)
    trump_by: Counter[str] = field(default_factory=Counter)
    points_hist: Counter[int] = field(default_factory=Counter)
    break_examples: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    cpu: float = 0.0

    def add(self, index: int, figures: dict[str, Any]) -> None:
        """Add one round's figures."""
        self.rounds += 1
        self.tricks += figures["tricks"]
        self.illegal_plays += figures["illegal"]
        self.throws_tried += figures["throws_tried"]
        self.throws_failed += figures["throws_failed"]
        self.redeals += figures["redeals"]
        self.points += figures["attackers_points"]
        self.kitty_rounds += 1 if figures["kitty_bonus"] else 0
        self.chips += figures.get("chips") or 0
        self.bonus += sum(figures.get("bonus") or [])
        self.outcomes[figures["result"]] += 1
        self.winners[figures["winner"]] += 1
        self.trump_by[figures.get("trump_by", "declare")] += 1
        self.points_hist[min(figures["attackers_points"] // 40, 5) * 40] += 1
        breaks = figures["breaks"]
        self.invariant_breaks += len(breaks)
        for b in breaks:
            if len(self.break_examples) < 10:
                self.break_examples.append(f"round {index} (seed {figures['seed']}): {b}")

    def as_dict(self) -> dict[str, Any]:
        """Return the figures as plain JSON-ready data."""
        rate = self.rounds / self.elapsed if self.elapsed > 0 else 0.0
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "seed": self.seed,
            "rounds": self.rounds,
            "tricks": self.tricks,
            "illegal_plays": self.illegal_plays,
            "throws_tried": self.throws_tried,
            "throws_failed": self.throws_failed,
            "redeals": self.redeals,
            "avg_attacker_points": round(self.points / self.rounds, 2) if self.rounds else 0.0,
            "kitty_bonus_rounds": self.kitty_rounds,
            "outcomes": dict(sorted(self.outcomes.items())),
            "winners": dict(sorted(self.winners.items())),
            "trump_by": dict(sorted(self.trump_by.items())),
            "points_histogram": {str(k): v for k, v in sorted(self.points_hist.items())},
            "chips": self.chips,
            "bonus": self.bonus,
            "invariant_breaks": self.invariant_breaks,
            "break_examples": list(self.break_examples),
            "elapsed_s": round(self.elapsed, 3),
            "rounds_per_s": round(rate, 1),
            "cpu_s": round(self.cpu, 3),
            "rounds_per_cpu_s": round(self.rounds / self.cpu, 1) if self.cpu > 0 else 0.0,
        }


def simulate(
    ruleset: str,
    players: str,
    rounds: int,
    seed: int,
    jobs: int = 1,
    on_round: Callable[[int, list[str]], None] | None = None,
) -> Summary:
    """Run a whole simulation and return its summary; on_round gets each round's log lines."""
    summary = Summary(ruleset, players, seed)
    start = time.perf_counter()
    cpu = _cpu()
    for index, (figures, lines) in enumerate(run_rounds(ruleset, players, rounds, seed, jobs)):
        summary.add(index, figures)
        if on_round is not None:
            on_round(index, lines)
    summary.elapsed = time.perf_counter() - start
    summary.cpu = _cpu() - cpu
    return summary


def _cpu() -> float:
    """CPU seconds used by this process and its finished children (the worker processes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


# ---------------------------------------------------------------------------------------------
# Replay


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
    rs = load_ruleset(str(head["ruleset"]))
    for index in sorted(rounds):
        events = rounds[index]
        report.rounds += 1
        report.events += len(events)
        judge = _Judge(rs, index)
        try:
            if resimulate:
                judge.diffs += _resimulate(rs.name, str(head["players"]), index, events)
            else:
                judge.run(events)
        except (EngineError, KeyError, ValueError, AssertionError) as exc:
            error = f"{type(exc).__name__}: {exc}"
            judge.diffs.append(Diff(index, "replay", "error", None, error))
        report.diffs += judge.diffs
    return report


def _resimulate(name: str, kind: str, index: int, events: list[Event]) -> list[Diff]:
    seed = int(events[0]["seed"])
    _, lines = run_job((name, kind, index, seed))
    old = [_dump(e) for e in events]
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

    def on_trump(self, e: Event) -> None:
        trump = None if e["trump"] == "none" else str(e["trump"])
        if e["by"] == "declare" and self.declarations:
            last = self.declarations[-1]
            verdict = judge_declaration(self.rs, self.level, self.declarations[:-1], *last)
            self.check("trump", "declared trump", e["trump"], verdict.trump or "none")
        if e["by"] == "bid":
            self.check("trump", "banker", e["banker"], self.banker)
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
                    n = self.rs.players
                    others = [self.hands[(seat + k) % n] for k in range(1, n)]
                    verdict = judge_throw(ctx, tried, others, seat, self.banker)
                    self.check(
                        where, "throw", e.get("throw"), "ok" if verdict.allowed else "failed"
                    )
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
        if not on_banker_side(self.rs, winner, self.banker):
            self.points += outcome.points
        if not any(self.hands) and not on_banker_side(self.rs, winner, self.banker):
            bonus = kitty_bonus(ctx, plays[outcome.winner], self.kitty)
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
        else:
            score = score_round(rs, self.points, self.level, self.attacker_level)
            result, winner, rise = score.result, score.winner, score.rise
            nxt = score.next_level
            label = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(nxt, str(nxt)) if nxt else None
            self.check("end", "next level", e["next_level"], label)
        self.check("end", "result", e["result"], result)
        self.check("end", "winner", e["winner"], winner)
        self.check("end", "rise", e["rise"], rise)


__all__ = [
    "Diff",
    "ReplayReport",
    "Summary",
    "header",
    "read_log",
    "replay",
    "round_seeds",
    "run_job",
    "run_rounds",
    "simulate",
]
