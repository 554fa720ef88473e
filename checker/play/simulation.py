"""Batches of simulated rounds: seeds, parallel runs, the summary figures and the JSON-lines
replay log they write (read back by checker.play.replay)."""

from __future__ import annotations

import json
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from checker.engine.cards import format_cards
from checker.engine.ruleset import load_ruleset
from checker.engine.vocab import RANK_LABELS

from .bots.registry import make_players
from .cluster import run_in_order
from .records import Played, Record, TrickWon, write_event
from .round import play_records, play_round

# The replay log (simulate --log FILE) is JSON lines, one event per line. The first line is
#   {"t":"header","format":1,"ruleset","players","rounds","seed","engine"}
# and every other line carries "r" (the round's index) and "t", in play order:
#   round    seed, level, attacker_level, banker (null: first round, the declarer is banker)
#   deal     redeal (0, 1, … when nobody declared), first (seat dealt first), hands, kitty
#   declare  seat, at (cards dealt so far), cards, accepted, trump, reason
#   flip     card, trump                       (nobody declared, rulesets with a flip)
#   bid      seat, bid (number or "pass"), legal          (rulesets with bidding)
#   show_kitty seat, bid, cards                (the 暗牌 shown to all at the show bid, 二七王 §4.3)
#   surrender seat, bid                        (the banker gave up at the surrender bid)
#   trump    trump, declarer, banker, by (declare / flip / bid)
#   bury     seat, cards, legal
#   play     trick, seat, role (lead / follow), cards (what was played), legal, and when the
#            choice was replaced: tried (what the player chose), reason; a lead that was a
#            throw has throw ("ok" / "failed") and, when failed, tried and penalty; a throw refused
#            because the player already failed one this round has reason "rethrow_banned"
#   trick    trick, leader, winner (seat), points, attackers (attackers' points so far)
#   no_trump seat, trick (the next trick's number): the seat has run out of trumps (§5.4.2)
#   end      attackers_points, kitty, kitty_points, kitty_bonus, multiplier, result, winner,
#            rise, next_level, chips, bonus, breaks (broken invariants)
# Cards are written as the case files write them (♠A, 大王), so parse_cards reads them back.
LOG_FORMAT = 1
_RANK_OF = {label: rank for rank, label in RANK_LABELS.items()}
Event = dict[str, Any]
# (ruleset, player kind, round index, round seed[, ruleset options as sorted (name, value) pairs])
Job = tuple[Any, ...]


def round_seeds(seed: int, rounds: int) -> list[int]:
    """Derive the seed of every round of a run from the run's seed."""
    master = random.Random(seed)
    return [master.getrandbits(48) for _ in range(rounds)]


def run_job(job: Job, *, log: bool = True) -> tuple[dict[str, Any], list[str]]:
    """Play one round of a run and return its figures and its log lines (JSON; none without
    `log`: a run that writes no log does not keep one)."""
    name, kind, index, seed = job[:4]
    rs = load_ruleset(name).with_options(dict(job[4]) if len(job) > 4 else None)
    players = make_players(kind, seed, rs.players)
    if not log:
        return play_round(rs, seed, players, record=False).figures(), []
    res, records = play_records(rs, seed, players)
    return res.figures(), write_lines(records, index)


def write_lines(records: Sequence[Record], index: int) -> list[str]:
    """Write a round's records as its log lines, "r" the round's index: a plain play and a
    trick straight to text, the others through their events (the same bytes either way)."""
    out: list[str] = []
    append = out.append
    for r in records:
        if type(r) is Played and r.legal is True and r.reason is None and not r.throw:
            trick, seat, role, cards = r.trick, r.seat, r.role, r.cards
            append(
                f'{{"r":{index},"t":"play","trick":{trick},"seat":{seat},"role":"{role}",'
                f'"cards":{_text(format_cards(cards))},"legal":true}}'
            )
        elif type(r) is TrickWon:
            trick, leader, winner, points, attackers = r
            append(
                f'{{"r":{index},"t":"trick","trick":{trick},"leader":{leader},'
                f'"winner":{winner},"points":{points},"attackers":{attackers}}}'
            )
        else:
            event = write_event(r)
            if event is not None:
                append(_dump({"r": index, **event}))
    return out


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_text: Callable[[str], str] = json.encoder.encode_basestring  # a string as the encoder writes it


def _line_writer() -> Callable[[Event], str]:
    # JSONEncoder.encode builds a new C encoder for every call; a log writes ~120 lines a
    # round, so the C encoder is built once here (same options, same text). Without the C
    # module, or if its signature differs, the plain encoder is used.
    make = getattr(json.encoder, "c_make_encoder", None)
    # markers (None: no circular check), default, string encoder, indent, separators, sort_keys,
    # skipkeys, allow_nan
    args = (None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", False)
    sample = {"t": "é", "n": [1, None, True, 0.5]}
    try:
        fast = make(*args, False, True) if make is not None else None
        if fast is not None and "".join(fast(sample, 0)) == _ENCODER.encode(sample):
            return lambda event: "".join(fast(event, 0))
    except TypeError:
        pass
    return _ENCODER.encode


_dump = _line_writer()


def header(
    ruleset: str,
    players: str,
    rounds: int,
    seed: int,
    engine: str,
    options: Mapping[str, Any] | None = None,
) -> str:
    """Write the first line of a replay log: what was run, with which engine."""
    head: dict[str, Any] = {
        "t": "header",
        "format": LOG_FORMAT,
        "ruleset": ruleset,
        "players": players,
        "rounds": rounds,
        "seed": seed,
        "engine": engine,
    }
    if options:
        head["options"] = dict(options)
    return _dump(head)


def run_rounds(
    ruleset: str,
    players: str,
    rounds: int,
    seed: int,
    jobs: int = 1,
    options: Mapping[str, Any] | None = None,
    *,
    log: bool = True,
) -> Iterator[tuple[dict[str, Any], list[str]]]:
    """Play a run's rounds in order (on a Dask cluster of `jobs` workers when jobs > 1) and
    yield each (without log lines unless `log`)."""
    work = make_jobs(ruleset, players, round_seeds(seed, rounds), options)
    fn = run_job if log else partial(run_job, log=False)
    yield from run_in_order(fn, work, jobs, max(1, min(20, rounds // (jobs * 8))))


def make_jobs(
    ruleset: str, players: str, seeds: Sequence[int], options: Mapping[str, Any] | None
) -> list[Job]:
    """Check a run's ruleset, options and players, and list one job per seed in order."""
    load_ruleset(ruleset).with_options(options)
    make_players(players, 0, 1)
    extra = (tuple(sorted(options.items())),) if options else ()
    return [(ruleset, players, i, s, *extra) for i, s in enumerate(seeds)]


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
    options: Mapping[str, Any] | None = None,
    *,
    log: bool = True,
) -> Summary:
    """Run a whole simulation and return its summary; on_round gets each round's log lines
    (an empty list for every round unless `log`)."""
    summary = Summary(ruleset, players, seed)
    start = time.perf_counter()
    cpu = _cpu()
    runs = run_rounds(ruleset, players, rounds, seed, jobs, options, log=log)
    for index, (figures, lines) in enumerate(runs):
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


# -- whole matches ------------------------------------------------------------------------------
# A match log is a replay log whose header also has "matches": N. Every round of every match is
# written as above with "r" counting rounds across the whole log, "m" the match's index, and a
# closing line per round:
#   next     round (number in the match), banker, result, rise, levels_before, levels (each
#            team's level after the round, team = seat % 2), x, bonus, net, chips (totals),
#            rule (the rotation rule applied), next_banker


def match_seeds(seed: int, matches: int) -> list[int]:
    """Derive the seed of every match of a run from the run's seed."""
    master = random.Random(f"matches:{seed}")
    return [master.getrandbits(48) for _ in range(matches)]


def run_match_job(job: Job) -> tuple[dict[str, Any], list[dict[str, Any]], list[list[Event]]]:
    """Play one match of a run; return its figures, each round's figures and each round's log."""
    from .match import play_match

    name, kind, _, seed = job[:4]
    rs = load_ruleset(name).with_options(dict(job[4]) if len(job) > 4 else None)
    result = play_match(rs, seed, kind)
    return (
        result.figures(),
        [r.figures() for r in result.rounds],
        [list(r.events) for r in result.rounds],
    )


def run_matches(
    ruleset: str,
    players: str,
    matches: int,
    seed: int,
    jobs: int = 1,
    options: Mapping[str, Any] | None = None,
) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]], list[list[Event]]]]:
    """Play a run's matches in order (on a Dask cluster when jobs > 1) and yield each."""
    work = make_jobs(ruleset, players, match_seeds(seed, matches), options)
    yield from run_in_order(run_match_job, work, jobs)


@dataclass
class MatchSummary:
    """Figures of a run of whole matches, added up match by match."""

    ruleset: str
    seats: int
    matches: int = 0
    finished: int = 0
    lengths: list[int] = field(default_factory=list)
    wins: Counter[str] = field(default_factory=Counter)
    rises: Counter[int] = field(default_factory=Counter)
    loser_levels: Counter[str] = field(default_factory=Counter)
    reached: dict[str, list[int]] = field(default_factory=dict)
    chips: list[int] = field(default_factory=list)
    invariant_breaks: int = 0
    break_examples: list[str] = field(default_factory=list)

    def add(self, index: int, figures: dict[str, Any]) -> None:
        """Add one match's figures."""
        self.matches += 1
        self.lengths.append(figures["rounds"])
        if figures["finished"]:
            self.finished += 1
            winner = figures["winner"] or []
            if figures["levels"] is not None:
                self.wins["seats " + "+".join(str(s) for s in winner)] += 1
                team = winner[0] % 2
                self.loser_levels[figures["levels"][1 - team]] += 1
                self._reached(figures["level_path"], team)
            else:
                for s in winner:
                    self.wins[f"seat {s}"] += 1
        path = figures["level_path"]
        before = None
        for levels in path:
            if before is not None:
                self.rises[max(_ladder_steps(before, levels))] += 1
            before = levels
        if not self.chips:
            self.chips = [0] * self.seats
        self.chips = [a + b for a, b in zip(self.chips, figures["chips"], strict=True)]
        breaks = figures["breaks"]
        self.invariant_breaks += len(breaks)
        for b in breaks:
            if len(self.break_examples) < 10:
                self.break_examples.append(f"match {index} (seed {figures['seed']}): {b}")

    def _reached(self, path: list[list[str]], team: int) -> None:
        seen: set[str] = set()
        for number, levels in enumerate(path):
            level = levels[team]
            if level not in seen:
                seen.add(level)
                self.reached.setdefault(level, []).append(number)

    def as_dict(self) -> dict[str, Any]:
        """Return the figures as plain JSON-ready data."""
        lengths = sorted(self.lengths)
        n = len(lengths)
        mean = sum(lengths) / n if n else 0.0
        spread = (sum((x - mean) ** 2 for x in lengths) / (n - 1)) ** 0.5 if n > 1 else 0.0
        order = _RANK_OF
        return {
            "matches": self.matches,
            "finished": self.finished,
            "rounds_per_match": {
                "mean": round(mean, 2),
                "stdev": round(spread, 2),
                "min": lengths[0] if n else 0,
                "median": lengths[n // 2] if n else 0,
                "max": lengths[-1] if n else 0,
            },
            "lengths": list(self.lengths),
            "length_histogram": _histogram(self.lengths),
            "wins": dict(sorted(self.wins.items())),
            "level_rises": {str(k): v for k, v in sorted(self.rises.items())},
            "loser_final_level": {
                k: self.loser_levels[k]
                for k in sorted(self.loser_levels, key=lambda x: order.get(x, 99))
            },
            "winner_reaches_level_at_round": {
                k: round(sum(v) / len(v), 1)
                for k, v in sorted(self.reached.items(), key=lambda kv: order.get(kv[0], 99))
            },
            "chips_per_seat": list(self.chips),
            "chips_per_seat_per_match": [round(c / n, 2) for c in self.chips] if n else [],
            "invariant_breaks": self.invariant_breaks,
            "break_examples": list(self.break_examples),
        }


def _ladder_steps(before: list[str], after: list[str]) -> list[int]:
    return [_RANK_OF[b] - _RANK_OF[a] for a, b in zip(before, after, strict=True)]


def _histogram(lengths: list[int], buckets: int = 10) -> list[dict[str, int]]:
    """Bucket match lengths into at most `buckets` equal ranges: [{low, high, count}]."""
    if not lengths:
        return []
    low, high = min(lengths), max(lengths)
    width = max(1, -(-(high - low + 1) // buckets))
    out = []
    for start in range(low, high + 1, width):
        end = start + width - 1
        out.append(
            {"low": start, "high": end, "count": sum(1 for x in lengths if start <= x <= end)}
        )
    return out


def simulate_matches(
    ruleset: str,
    players: str,
    matches: int,
    seed: int,
    jobs: int = 1,
    on_match: Callable[[int, list[list[Event]]], None] | None = None,
    options: Mapping[str, Any] | None = None,
) -> tuple[Summary, MatchSummary]:
    """Run whole matches; return the summary of all their rounds and of the matches."""
    rs = load_ruleset(ruleset).with_options(options)
    rounds = Summary(ruleset, players, seed)
    summary = MatchSummary(ruleset, rs.players)
    start = time.perf_counter()
    cpu = _cpu()
    index = 0
    for m, (figures, round_figures, logs) in enumerate(
        run_matches(ruleset, players, matches, seed, jobs, options)
    ):
        summary.add(m, figures)
        for f in round_figures:
            rounds.add(index, f)
            index += 1
        if on_match is not None:
            on_match(m, logs)
    rounds.elapsed = time.perf_counter() - start
    rounds.cpu = _cpu() - cpu
    return rounds, summary
