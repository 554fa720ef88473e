"""Duels between two bots on duplicate deals: every deal is played twice with the seats
swapped, so the luck of the cards cancels, and the margin in rounds won gets a 95% interval.

Seating. Under partnerships (four or more players, partners every other seat) bot A takes
the even seats and B the odd ones, then the other way round. Where the banker plays alone
(二七王, three players) deal d puts A alone at seat d mod 3 and B on the other two, then B
alone there and A on the other two, so over the deals each bot holds every seat in both roles.

Who won a round. Every seat scores +1 per opponent when its side wins and −1 per opponent
when it loses (the banker alone settles with each attacker, as chips are paid); the round
counts for the bot whose seats come out ahead. Under partnerships that is simply the bot of
the winning side; in 二七王 it is well defined even when one bot sits on both sides.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from checker.engine.ruleset import Ruleset, load_ruleset

from .bots import registry
from .bots.registry import UnknownBotError, make_players
from .cluster import run_in_order
from .players import Player
from .round import RoundResult, play_round
from .simulation import Job, round_seeds

A, B = 0, 1
DuelJob = tuple[str, str, str, int, int]

# Student's t at 97.5 % for 1–30 degrees of freedom; above that z + (z³ + z) / 4df.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def check_bot(name: str) -> str:
    """Return the name when it is a registered bot, or raise UnknownBotError."""
    if name not in registry.PLAYER_KINDS:
        raise UnknownBotError(name)
    return name


def generate_seatings(rs: Ruleset, deal: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Give the two seatings of one deal: for each seat, A (0) or B (1), then swapped."""
    n = rs.players
    if rs.banker_plays_alone:
        lone = deal % n
        first = tuple(A if seat == lone else B for seat in range(n))
    else:
        first = tuple(A if seat % 2 == 0 else B for seat in range(n))
    return first, tuple(1 - b for b in first)


def seat_results(rs: Ruleset, res: RoundResult) -> list[int]:
    """Score every seat of a finished round: ±1 per opponent as its side won or lost."""
    n = rs.players
    banker_won = res.winner == "banker"
    out = []
    for seat in range(n):
        on_banker = rs.is_banker_side(seat, res.banker)
        opponents = sum(rs.is_banker_side(o, res.banker) != on_banker for o in range(n))
        out.append(opponents if on_banker == banker_won else -opponents)
    return out


def seat_chips(rs: Ruleset, res: RoundResult) -> list[int]:
    """Give every seat's net chips of a round settled in chips (chips are paid per opponent)."""
    chips = res.chips or 0
    return [chips * r for r in seat_results(rs, res)]


@dataclass(frozen=True)
class BotRound:
    """One bot's part of one round."""

    won: bool
    attacking: bool
    attack_points: int
    gain: int  # levels gained, or net chips where the ruleset settles in chips


def score_round_for(rs: Ruleset, res: RoundResult, seating: Sequence[int]) -> list[BotRound]:
    """Split a finished round between bot A and bot B, seated as given."""
    results = seat_results(rs, res)
    chips = seat_chips(rs, res) if rs.settles_by_bid else None
    net = [sum(r for r, b in zip(results, seating, strict=True) if b == bot) for bot in (A, B)]
    out = []
    for bot in (A, B):
        seats = [s for s, b in enumerate(seating) if b == bot]
        won = net[bot] > 0
        attacking = any(not rs.is_banker_side(s, res.banker) for s in seats)
        level_gain = res.rise if won else 0
        gain = sum(chips[s] for s in seats) if chips is not None else level_gain
        out.append(BotRound(won, attacking, res.attackers_points, gain))
    return out


@dataclass(frozen=True)
class DealResult:
    """Both plays of one deal: rounds, illegal plays and each bot's part of both rounds."""

    deal: int
    seed: int
    illegal: int
    rounds: tuple[tuple[BotRound, BotRound], ...]

    @property
    def margin(self) -> int:
        """Rounds won by A minus rounds won by B over this deal's plays."""
        return sum(int(a.won) - int(b.won) for a, b in self.rounds)


def play_deal(job: DuelJob) -> DealResult:
    """Play one deal twice, the seats swapped, and score both rounds for the two bots."""
    ruleset, bot_a, bot_b, deal, seed = job
    rs = load_ruleset(ruleset)
    illegal = 0
    rounds = []
    for seating in generate_seatings(rs, deal):
        pools = (make_players(bot_a, seed, rs.players), make_players(bot_b, seed, rs.players))
        players: list[Player] = [pools[b][seat] for seat, b in enumerate(seating)]
        res = play_round(rs, seed, players)
        illegal += res.illegal
        a, b = score_round_for(rs, res, seating)
        rounds.append((a, b))
    return DealResult(deal, seed, illegal, tuple(rounds))


def run_deals(
    ruleset: str, bot_a: str, bot_b: str, deals: int, seed: int, jobs: int = 1
) -> Iterator[DealResult]:
    """Play a duel's deals in order (on a Dask cluster when jobs > 1) and yield each."""
    work: list[Job] = [
        (ruleset, bot_a, bot_b, i, s) for i, s in enumerate(round_seeds(seed, deals))
    ]
    yield from run_in_order(play_deal, work, jobs, max(1, min(10, deals // (jobs * 8))))


def t975(df: int) -> float:
    """Return Student's t quantile at 97.5 % for df degrees of freedom (df ≥ 1)."""
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * df)


def margin_interval(margins: Sequence[int]) -> tuple[float, float]:
    """Give the 95 % interval of the total margin from the per-deal margins (paired t)."""
    n = len(margins)
    total = sum(margins)
    if n < 2:
        # One deal says nothing about spread: the interval is every margin it could have had.
        return (-2.0 * n, 2.0 * n)
    mean = total / n
    var = sum((m - mean) ** 2 for m in margins) / (n - 1)
    half = t975(n - 1) * math.sqrt(var) * math.sqrt(n)
    return (round(total - half, 2), round(total + half, 2))


@dataclass
class DuelSummary:
    """A duel's figures, added up deal by deal."""

    ruleset: str
    bots: tuple[str, str]
    seed: int
    chips: bool
    deals: int = 0
    rounds: int = 0
    illegal_plays: int = 0
    won: list[int] = field(default_factory=lambda: [0, 0])
    attack_rounds: list[int] = field(default_factory=lambda: [0, 0])
    attack_points: list[int] = field(default_factory=lambda: [0, 0])
    gain: list[int] = field(default_factory=lambda: [0, 0])
    margins: list[int] = field(default_factory=list)
    elapsed: float = 0.0

    def add(self, deal: DealResult) -> None:
        """Add one deal's two rounds."""
        self.deals += 1
        self.illegal_plays += deal.illegal
        self.margins.append(deal.margin)
        for pair in deal.rounds:
            self.rounds += 1
            for bot, part in enumerate(pair):
                self.won[bot] += int(part.won)
                self.gain[bot] += part.gain
                if part.attacking:
                    self.attack_rounds[bot] += 1
                    self.attack_points[bot] += part.attack_points

    def names(self) -> tuple[str, str]:
        """Name the two bots as the report keys them (told apart when both are the same)."""
        a, b = self.bots
        return (f"{a} (A)", f"{b} (B)") if a == b else (a, b)

    def as_dict(self) -> dict[str, Any]:
        """Return the figures as the JSON report: deals, rounds, illegal plays, bots, margin."""
        gain_key = "mean_chips_gained" if self.chips else "mean_levels_gained"
        bots: dict[str, Any] = {}
        for bot, name in enumerate(self.names()):
            attacked = self.attack_rounds[bot]
            bots[name] = {
                "rounds_won": self.won[bot],
                "mean_attack_points": round(self.attack_points[bot] / attacked, 2)
                if attacked
                else 0.0,
                gain_key: round(self.gain[bot] / self.rounds, 3) if self.rounds else 0.0,
                "attack_rounds": attacked,
            }
        lo, hi = margin_interval(self.margins)
        return {
            "ruleset": self.ruleset,
            "seed": self.seed,
            "deals": self.deals,
            "rounds": self.rounds,
            "illegal_plays": self.illegal_plays,
            "bots": bots,
            "margin": {"rounds_won": self.won[A] - self.won[B], "ci95": [lo, hi]},
            "elapsed_s": round(self.elapsed, 3),
        }


def duel(ruleset: str, bot_a: str, bot_b: str, deals: int, seed: int, jobs: int = 1) -> DuelSummary:
    """Play a whole duel of bot A against bot B and return its summary."""
    rs = load_ruleset(ruleset)
    check_bot(bot_a)
    check_bot(bot_b)
    summary = DuelSummary(ruleset, (bot_a, bot_b), seed, chips=rs.settles_by_bid)
    start = time.perf_counter()
    for deal in run_deals(ruleset, bot_a, bot_b, deals, seed, jobs):
        summary.add(deal)
    summary.elapsed = time.perf_counter() - start
    return summary
