"""Where a round starts and what it produced: its setup (levels and banker), the deck, the
figures and log of a played round, and the 算奖 counted at settlement."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from checker.engine.bonus import count_bonus
from checker.engine.cards import BIG, SMALL, SUITS, Card
from checker.engine.order import context_for
from checker.engine.ruleset import Ruleset

from .records import rank_text

Event = dict[str, Any]
MAX_REDEALS = 50


@dataclass(frozen=True)
class RoundSetup:
    """Where a round starts: the level ranks of both sides and the banker (None: first round,
    the first declarer becomes banker)."""

    level: int | None
    attacker_level: int | None
    banker: int | None

    def as_event(self) -> Event:
        """Write the setup as log fields."""
        return {
            "level": rank_text(self.level),
            "attacker_level": rank_text(self.attacker_level),
            "banker": self.banker,
        }


@dataclass
class RoundResult:
    """Everything a round produced: the log, the figures and any broken invariant."""

    ruleset: str
    seed: int
    setup: RoundSetup
    trump: str | None = None
    banker: int = 0
    declarer: int | None = None
    trump_by: str = "declare"
    redeals: int = 0
    tricks: int = 0
    illegal: int = 0
    throws_tried: int = 0
    throws_failed: int = 0
    penalty: int = 0
    attackers_points: int = 0
    trick_points: int = 0
    kitty_points: int = 0
    kitty_bonus: int = 0
    multiplier: int = 0
    result: str = ""
    winner: str = ""
    rise: int = 0
    next_level: int | None = None
    bid: int | None = None
    surrendered: bool = False
    chips: int | None = None
    bonus: list[int] = field(default_factory=list)
    breaks: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        """Return the round's figures (no log) as plain data."""
        return {
            "seed": self.seed,
            "trump": self.trump or "none",
            "trump_by": self.trump_by,
            "banker": self.banker,
            "redeals": self.redeals,
            "tricks": self.tricks,
            "illegal": self.illegal,
            "throws_tried": self.throws_tried,
            "throws_failed": self.throws_failed,
            "attackers_points": self.attackers_points,
            "kitty_bonus": self.kitty_bonus,
            "result": self.result,
            "winner": self.winner,
            "rise": self.rise,
            "bid": self.bid,
            "chips": self.chips,
            "bonus": list(self.bonus),
            "breaks": list(self.breaks),
        }


_DECKS: dict[int, tuple[Ruleset, tuple[Card, ...]]] = {}


def build_deck(rs: Ruleset) -> list[Card]:
    """List the ruleset's whole deck: its ranks in four suits, jokers, times the decks."""
    known = _DECKS.get(id(rs))
    if known is None or known[0] is not rs:
        one = [Card(s, r) for s in SUITS for r in rs.ranks]
        if rs.jokers:
            one += [SMALL, BIG]
        if len(_DECKS) >= 64:
            _DECKS.clear()
        known = _DECKS[id(rs)] = (rs, tuple(one * rs.decks))
    return list(known[1])


def round_setup(rs: Ruleset, seed: int) -> RoundSetup:
    """Draw a round's starting point from its seed (levels and banker, or a first round)."""
    # A quarter are first rounds at the lowest rank (the first declarer becomes banker); the
    # rest start mid-match with random levels and a random banker.
    rng = random.Random(f"setup:{seed}")
    first = rng.random() < 0.25
    low = rs.levels[0] if rs.has_level else None
    if first:
        return RoundSetup(low, low, None)
    level = rng.choice(rs.levels) if rs.has_level else None
    attacker = rng.choice(rs.levels) if rs.has_level else None
    return RoundSetup(level, attacker, rng.randrange(rs.players))


def settlement_bonus(
    rs: Ruleset,
    level: int | None,
    trump: str | None,
    banker: int,
    dealt: Sequence[Sequence[Card]],
    kitty: Sequence[Card],
    kept: Sequence[Card],
    surrendered: bool,
) -> list[int]:
    """Count every seat's 算奖 at settlement (rulesets with bonus rules)."""
    ctx = context_for(rs, level, None if surrendered else trump)
    out: list[int] = []
    for seat, hand in enumerate(dealt):
        if seat == banker:
            mine = [*hand, *kitty] if surrendered else list(kept)
            out.append(count_bonus(ctx, mine, "banker").bonus)
        else:
            out.append(count_bonus(ctx, list(hand), "defender").bonus)
    return out
