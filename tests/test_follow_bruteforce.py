"""Cross-check follow judgements against brute force on small hands.

For hands of at most 12 cards every follow of the lead's size is enumerated (fine for a test
oracle; the engine itself never enumerates). The engine's forced cards must equal the cards
common to every legal follow, its example must be legal, and some legal follow must exist.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from checker.engine.cards import Card
from checker.engine.combos import classify
from checker.engine.follow import generate_example, generate_forced, judge_follow
from checker.engine.order import make_context
from checker.engine.ruleset import load_ruleset


def _scenarios(name: str, count: int, seed: int):  # type: ignore[no-untyped-def]
    rs = load_ruleset(name)
    rng = random.Random(seed)
    made = 0
    while made < count:
        ctx = make_context(rs, 2 if rs.has_level else None, rng.choice(["S", "H", None]))
        deck = sorted(ctx.deck) * rs.decks
        rng.shuffle(deck)
        group = rng.choice(["S", "H", "T"])
        pool = sorted((c for c in deck if ctx.key[c][0] == group), key=lambda c: (ctx.key[c][1], c))
        k = rng.randint(1, 6)
        start = rng.randint(0, max(0, len(pool) - k))
        lead_cards = pool[start : start + k]
        lead = classify(ctx, lead_cards)
        if not lead.is_valid:
            continue
        rest = list((Counter(deck) - Counter(lead_cards)).elements())
        rng.shuffle(rest)
        same = sorted((c for c in rest if ctx.key[c][0] == lead.group), key=lambda c: ctx.key[c][1])
        other = [c for c in rest if ctx.key[c][0] != lead.group]
        s0 = rng.randint(0, max(0, len(same) - 9))
        hand = same[s0 : s0 + rng.randint(0, 10)] + other[: rng.randint(0, 4)]
        if not len(lead_cards) <= len(hand) <= 12:
            continue
        made += 1
        yield ctx, lead, hand


def _legal_follows(ctx, lead, hand: list[Card]) -> list[Counter[Card]]:  # type: ignore[no-untyped-def]
    out = []
    for idx in itertools.combinations(range(len(hand)), len(lead.cards)):
        play = [hand[i] for i in idx]
        if judge_follow(ctx, lead, hand, play).legal:
            out.append(Counter(play))
    return out


@pytest.mark.parametrize("name", ["classic", "erqiwang", "shuangsheng"])
def test_forced_cards_are_exactly_those_in_every_legal_follow(name: str) -> None:
    for ctx, lead, hand in _scenarios(name, 250, seed=11):
        legal = _legal_follows(ctx, lead, hand)
        assert legal, f"no legal follow for {lead.cards} from {hand}"
        common = legal[0]
        for play in legal[1:]:
            common &= play
        assert Counter(generate_forced(ctx, lead, hand)) == common, (lead.cards, hand)
        example = generate_example(ctx, lead, hand)
        assert judge_follow(ctx, lead, hand, example).legal, (lead.cards, hand, example)
