"""Multi-deck benchmarks: follow judgement with triples and wider units (4 and 8 decks)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from checker.engine.cards import Card, parse_cards
from checker.engine.combos import classify
from checker.engine.follow import generate_example, generate_forced, judge_follow
from checker.engine.order import Context, make_context
from checker.engine.ruleset import load_ruleset

from .bench_driver import median_ms

# 4 decks: a 12-card lead of four non-adjacent triples; 8 decks: a 12-card throw of a 5-, a 4-
# and a 3-of-a-kind against a 54-card hand holding 3 to 5 copies of every spade.
LEAD_4 = "♠A♠A♠A ♠Q♠Q♠Q ♠10♠10♠10 ♠8♠8♠8"
LEAD_8 = "♠A♠A♠A♠A♠A ♠Q♠Q♠Q♠Q ♠9♠9♠9"


def _hand(ctx: Context, lead: list[Card], size: int, spade_copies: dict[int, int]) -> list[Card]:
    """Build a hand: the given copies of each spade rank, then other cards up to `size`."""
    deck = Counter({c: ctx.ruleset.decks for c in ctx.deck}) - Counter(lead)
    hand: list[Card] = []
    for rank, n in spade_copies.items():
        card = Card("S", rank)
        take = min(n, deck[card])
        hand += [card] * take
        deck[card] -= take
    rng = random.Random(7)
    rest = [c for c in sorted(deck.elements()) if c.suit != "S"]
    rng.shuffle(rest)
    return hand + rest[: size - len(hand)]


def _case(
    name: str, decks: int, lead_text: str, size: int, copies: dict[int, int]
) -> dict[str, Any]:
    rs = load_ruleset("multideck").with_options({"decks": decks})
    ctx = make_context(rs, 3, "H")
    lead_cards = parse_cards(lead_text)
    lead = classify(ctx, lead_cards)
    hand = _hand(ctx, lead_cards, size, copies)
    example = generate_example(ctx, lead, hand)
    wrong = [c for c in hand if c.suit == "S"][: len(lead_cards)]
    return {
        "name": name,
        "hand": len(hand),
        "lead": len(lead_cards),
        "judge_ms": max(
            median_ms(lambda: judge_follow(ctx, lead, hand, example), 100),
            median_ms(lambda: judge_follow(ctx, lead, hand, wrong), 100),
        ),
        "forced_ms": median_ms(lambda: generate_forced(ctx, lead, hand), 20),
        "example_ms": median_ms(lambda: generate_example(ctx, lead, hand), 20),
    }


def run_multideck_bench() -> list[dict[str, Any]]:
    """Measure follow judgement on the multi-deck worst cases (medians in ms)."""
    four = {r: n for r, n in zip(range(4, 15), (3, 4, 2, 3, 4, 3, 4, 2, 3, 4, 2), strict=True)}
    eight = {r: n for r, n in zip(range(4, 15), (5, 4, 3, 5, 4, 5, 3, 4, 5, 3, 4), strict=True)}
    return [
        _case("4 副：40 张手牌 vs 12 张三条甩牌", 4, LEAD_4, 40, four),
        _case("8 副：54 张手牌 vs 12 张宽甩牌", 8, LEAD_8, 54, eight),
    ]
