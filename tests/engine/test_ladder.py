"""The follow ladder for units of any width, checked against brute force on small hands.

Brute force (every n-card play of a small suit) is the oracle here only; the engine never
enumerates subsets.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from checker.engine.cards import Card
from checker.engine.combos import classify
from checker.engine.follow import generate_example, generate_forced, judge_follow
from checker.engine.ladder import Ladder, columns, lead_bins
from checker.engine.order import Context, make_context
from checker.engine.ruleset import load_ruleset


def _ladder(lead_units: list[tuple[int, int]]) -> Ladder:
    return Ladder(lead_bins(lead_units))


def test_ladder_order_is_the_seeds_for_an_eight_card_lead() -> None:
    # 8 → 7+1 → 6+2 → 5+3 → 4的拖拉机 → 4+4 → 3的拖拉机 → 3+3 → 2的拖拉机 → 2+2 → 1
    ladder = [
        ((8, 1),),
        ((7, 1),),
        ((6, 1), (2, 1)),
        ((5, 1), (3, 1)),
        ((4, 2),),
        ((4, 1), (4, 1)),
        ((3, 2), (2, 1)),
        ((3, 1), (3, 1), (2, 1)),
        ((2, 4),),
        ((2, 1), (2, 1), (2, 1), (2, 1)),
        (),
    ]
    assert ladder == sorted(ladder, reverse=True)


def _scenarios(decks: int, count: int, seed: int):  # type: ignore[no-untyped-def]
    rs = load_ruleset("multideck").with_options({"decks": decks})
    rng = random.Random(seed)
    made = 0
    while made < count:
        ctx = make_context(rs, rng.choice([3, 7]), rng.choice(["H", None]))
        ranks = rng.sample([4, 5, 6, 8, 9, 10, 11], rng.randint(1, 4))
        lead_cards: list[Card] = []
        for r in sorted(ranks)[: rng.randint(1, len(ranks))]:
            lead_cards += [Card("S", r)] * rng.randint(1, decks)
        if len(lead_cards) > 7:
            continue
        lead = classify(ctx, lead_cards)
        if not lead.is_valid:
            continue
        left = Counter({Card("S", r): decks for r in range(4, 15) if r != ctx.level})
        left -= Counter(lead_cards)
        pool = sorted(left.elements())
        rng.shuffle(pool)
        hand = pool[: rng.randint(len(lead_cards), min(len(pool), 11))]
        if len(hand) < len(lead_cards):
            continue
        made += 1
        yield ctx, lead, hand + [Card("C", 9)]


def _plays(ctx: Context, lead, hand: list[Card]):  # type: ignore[no-untyped-def]
    seen = set()
    for idx in itertools.combinations(range(len(hand)), len(lead.cards)):
        play = tuple(sorted(hand[i] for i in idx))
        if play not in seen:
            seen.add(play)
            yield list(play)


@pytest.mark.parametrize("decks", [3, 4])
def test_required_answer_is_the_best_any_play_of_the_suit_shows(decks: int) -> None:
    for ctx, lead, hand in _scenarios(decks, 60, seed=decks):
        ladder = _ladder([(u.width, u.size) for u in lead.units])
        suit = [c for c in hand if ctx.key[c][0] == lead.group]
        if len(suit) <= len(lead.cards):
            continue
        best = ladder.best(columns(ctx, suit))
        shown = [ladder.best(columns(ctx, p)) for p in _plays(ctx, lead, suit)]
        assert max(shown) == best, (lead.cards, suit)


@pytest.mark.parametrize("decks", [3, 4])
def test_forced_cards_are_those_in_every_legal_follow_at_any_width(decks: int) -> None:
    for ctx, lead, hand in _scenarios(decks, 60, seed=10 + decks):
        legal = [
            Counter(p) for p in _plays(ctx, lead, hand) if judge_follow(ctx, lead, hand, p).legal
        ]
        assert legal, (lead.cards, hand)
        common = legal[0]
        for play in legal[1:]:
            common &= play
        assert Counter(generate_forced(ctx, lead, hand)) == common, (lead.cards, hand)
        example = generate_example(ctx, lead, hand)
        assert judge_follow(ctx, lead, hand, example).legal, (lead.cards, hand, example)


def test_two_decks_are_the_pair_case_of_the_ladder() -> None:
    """Under two decks the ladder judges every follow as the pair search does."""
    rs = load_ruleset("classic")
    rng = random.Random(5)
    checked = 0
    while checked < 80:
        ctx = make_context(rs, 2, "H")
        deck = sorted(ctx.deck) * 2
        rng.shuffle(deck)
        spades = sorted(c for c in deck if c.suit == "S" and c.rank != 2)
        start = rng.randint(0, len(spades) - 6)
        lead_cards = spades[start : start + rng.randint(2, 6)]
        lead = classify(ctx, lead_cards)
        if not lead.is_valid or not lead.has_pairs:
            continue
        rest = list((Counter(spades) - Counter(lead_cards)).elements())
        rng.shuffle(rest)
        hand = rest[: rng.randint(len(lead_cards) + 1, 10)]
        ladder = _ladder([(u.width, u.size) for u in lead.units])
        need = ladder.best(columns(ctx, hand))
        for play in _plays(ctx, lead, hand):
            by_ladder = ladder.best(columns(ctx, play)) == need
            assert by_ladder == judge_follow(ctx, lead, hand, play).legal, (lead.cards, hand, play)
        checked += 1
