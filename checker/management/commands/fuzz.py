"""python manage.py fuzz: random engine calls on random deals; counts undocumented exceptions.

Each call draws a ruleset, a level and trump, hands from a real deck (structure-rich: few
suits, many pairs) or text for the parser, and asks the engine: classify, judge_follow,
generate_forced, generate_example, resolve_trick, judge_throw, judge_declaration, parse_cards.
Documented errors are the engine's EngineError family; anything else is counted and the first
examples are printed with the inputs that reproduce them.
"""

from __future__ import annotations

import random
import sys
import time
import traceback
from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from checker.engine.cards import Card, parse_cards
from checker.engine.combos import classify
from checker.engine.declare import judge_declaration
from checker.engine.errors import EngineError
from checker.engine.follow import generate_example, generate_forced, judge_follow
from checker.engine.order import make_context
from checker.engine.ruleset import load_ruleset, ruleset_names
from checker.engine.throws import judge_throw
from checker.engine.trick import resolve_trick
from checker.management.stopping import stoppable
from checker.play.round import build_deck

ALPHABET = "♠♥♣♦SHCDshcd2345678910TJQKAtjqka大小王BJLJ ,;+\u212a\u017f\u0131\ufe0f\x00"


def _hand(rng: random.Random, deck: list[Card], size: int) -> list[Card]:
    # Structure-rich: cards from one or two suits and jokers, pairs likely.
    suits = rng.sample("SHCD", rng.randint(1, 2))
    pool = [c for c in deck if c.suit in suits or not c.suit]
    return rng.sample(pool, min(size, len(pool)))


def _lead(rng: random.Random, deck: list[Card]) -> list[Card]:
    # Mostly one-suit leads of singles and pairs on neighbouring ranks: units, tractors, throws.
    suit = rng.choice("SHCD")
    ranks = sorted({c.rank for c in deck if c.suit == suit})
    start = rng.randrange(len(ranks))
    chosen = ranks[start : start + rng.randint(1, 4)]
    out: list[Card] = []
    for rank in chosen:
        copies = [c for c in deck if c.suit == suit and c.rank == rank]
        out += copies[: rng.choice((1, 2, 2, 2))]
    return out


def _call(rng: random.Random, names: list[str]) -> str:
    """Make one random engine call; return its name."""
    name = rng.choice(names)
    rs = load_ruleset(name)
    level = rng.choice(rs.ranks) if rs.has_level else None
    trump = rng.choice(["S", "H", "C", "D", "none"])
    ctx = make_context(rs, level, trump)
    deck = build_deck(rs)
    rng.shuffle(deck)
    what = rng.choice(
        ("parse", "classify", "follow", "forced", "example", "trick", "throw", "declare")
    )
    if what == "parse":
        parse_cards("".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 12))))
        return what
    lead = _lead(rng, deck)
    rest = list(deck)
    for c in lead:
        rest.remove(c)
    combo = classify(ctx, lead)
    if what == "classify" or not combo.is_valid:
        return "classify"
    hand = _hand(rng, rest, rng.randint(len(lead), len(lead) + 12))
    if len(hand) < len(lead):
        return "classify"
    if what == "follow":
        play = rng.sample(hand, len(lead))
        judge_follow(ctx, combo, hand, play)
    elif what == "forced":
        generate_forced(ctx, combo, hand)
    elif what == "example":
        generate_example(ctx, combo, hand)
    elif what == "trick":
        plays = [lead] + [generate_example(ctx, combo, hand)]
        resolve_trick(ctx, plays, None)
    elif what == "throw":
        others = [_hand(rng, rest, rng.randint(0, 10)) for _ in range(rs.players - 1)]
        judge_throw(ctx, lead, others, rng.randrange(rs.players), rng.randrange(rs.players))
    else:
        seat = rng.randrange(rs.players)
        judge_declaration(rs, level, [], seat, lead[: rng.randint(1, 3)], hand + lead)
    return what


class Command(BaseCommand):
    help = "Fuzz the engine with random calls; count exceptions outside EngineError."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--calls", type=int, default=10_000)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **opts: Any) -> None:
        rng = random.Random(opts["seed"])
        names = list(ruleset_names())
        calls, documented, undocumented = 0, 0, 0
        kinds: Counter[str] = Counter()
        examples: list[str] = []
        start = time.perf_counter()

        def kept() -> str:
            return f"{calls} of {opts['calls']} calls made, {undocumented} undocumented errors"

        with stoppable("fuzz", sys.stderr, kept):
            for i in range(opts["calls"]):
                state = rng.getstate()
                try:
                    kinds[_call(rng, names)] += 1
                except EngineError:
                    documented += 1
                except Exception as exc:  # the point: anything else is a finding
                    undocumented += 1
                    if len(examples) < 5:
                        examples.append(f"call {i}: {exc!r}\n{traceback.format_exc(limit=3)}")
                    rng.setstate(state)
                    rng.random()
                calls += 1
                if calls % 100_000 == 0:
                    self.stdout.write(f"{calls} calls, {undocumented} undocumented", ending="\n")
                    self.stdout.flush()
        seconds = time.perf_counter() - start
        self.stdout.write(f"calls              {calls}")
        self.stdout.write(
            "by kind            " + "  ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
        )
        self.stdout.write(f"documented errors  {documented}")
        self.stdout.write(f"undocumented       {undocumented}")
        self.stdout.write(f"time               {seconds:.1f} s")
        for e in examples:
            self.stdout.write(e)
