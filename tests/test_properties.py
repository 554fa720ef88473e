"""Hypothesis properties over random hands: classification, forced cards, examples, winners."""

from __future__ import annotations

import os
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.engine.cards import SUITS, Card
from checker.engine.combos import classify
from checker.engine.follow import generate_example, generate_forced, judge_follow
from checker.engine.order import Context
from checker.engine.ruleset import load_ruleset, ruleset_names
from checker.engine.trick import resolve_trick
from checker.play.players import lead_units, random_follow, random_lead, sample_multiset
from checker.play.round import build_deck

# PROPERTY_EXAMPLES=5000 for a long hunt; the default keeps `make test` quick.
SETTINGS = settings(
    max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _ctx(rng: random.Random, name: str) -> Context:
    rs = load_ruleset(name)
    level = rng.choice(rs.ranks) if rs.has_level else None
    trump = rng.choice([*SUITS, None])
    return Context(rs, level, trump)


def _deal(rng: random.Random, ctx: Context, sizes: list[int]) -> list[list[Card]]:
    deck = build_deck(ctx.ruleset)
    rng.shuffle(deck)
    hands, at = [], 0
    for n in sizes:
        hands.append(deck[at : at + n])
        at += n
    return hands


def _one_group(rng: random.Random, ctx: Context, hand: list[Card]) -> list[Card]:
    groups = sorted({ctx.key[c][0] for c in hand})
    group = rng.choice(groups)
    return [c for c in hand if ctx.key[c][0] == group]


def _shape(combo: object) -> tuple[object, ...]:
    units = sorted((u.kind, u.length, u.top, tuple(sorted(u.cards))) for u in combo.units)  # type: ignore[attr-defined]
    return (combo.type, combo.group, tuple(units))  # type: ignore[attr-defined]


names = st.sampled_from(ruleset_names())


@SETTINGS
@given(names, st.randoms(use_true_random=False), st.integers(1, 12))
def test_classification_does_not_depend_on_card_order(
    name: str, rng: random.Random, size: int
) -> None:
    ctx = _ctx(rng, name)
    (hand,) = _deal(rng, ctx, [30])
    cards = sample_multiset(rng, _one_group(rng, ctx, hand), size)
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert _shape(classify(ctx, cards)) == _shape(classify(ctx, shuffled))
    mixed = sample_multiset(rng, hand, size)
    assert _shape(classify(ctx, mixed)) == _shape(classify(ctx, list(reversed(mixed))))


def _lead_and_hand(rng: random.Random, name: str) -> tuple[Context, list[Card], list[Card]]:
    ctx = _ctx(rng, name)
    size = rng.randint(4, ctx.ruleset.hand_size)
    leader, hand = _deal(rng, ctx, [size, size])
    lead = random_lead(rng, ctx, leader, throw_rate=0.3)
    return ctx, lead, hand


@SETTINGS
@given(names, st.randoms(use_true_random=False))
def test_forced_cards_are_in_every_legal_follow(name: str, rng: random.Random) -> None:
    ctx, lead_cards, hand = _lead_and_hand(rng, name)
    lead = classify(ctx, lead_cards)
    forced = Counter(generate_forced(ctx, lead, hand))
    example = generate_example(ctx, lead, hand)
    assert not forced - Counter(example)
    for _ in range(5):
        play = random_follow(rng, ctx, lead, hand)
        assert judge_follow(ctx, lead, hand, play).legal
        assert not forced - Counter(play), (lead_cards, hand, play, forced)


@SETTINGS
@given(names, st.randoms(use_true_random=False))
def test_the_example_follow_is_always_legal(name: str, rng: random.Random) -> None:
    ctx, lead_cards, hand = _lead_and_hand(rng, name)
    lead = classify(ctx, lead_cards)
    example = generate_example(ctx, lead, hand)
    verdict = judge_follow(ctx, lead, hand, example)
    assert verdict.legal, (lead_cards, hand, example, verdict.reason)


@SETTINGS
@given(names, st.randoms(use_true_random=False))
def test_every_lead_unit_is_a_single_unit(name: str, rng: random.Random) -> None:
    ctx = _ctx(rng, name)
    (hand,) = _deal(rng, ctx, [ctx.ruleset.hand_size])
    for unit in lead_units(ctx, _one_group(rng, ctx, hand)):
        assert classify(ctx, unit).type in ("single", "pair", "tractor")


@SETTINGS
@given(names, st.randoms(use_true_random=False))
def test_a_non_beating_follow_replaced_by_another_never_changes_the_winner(
    name: str, rng: random.Random
) -> None:
    ctx = _ctx(rng, name)
    players = ctx.ruleset.players
    size = rng.randint(3, ctx.ruleset.hand_size)
    hands = _deal(rng, ctx, [size] * players)
    lead_cards = random_lead(rng, ctx, hands[0], throw_rate=0.3)
    lead = classify(ctx, lead_cards)
    plays = [lead_cards] + [random_follow(rng, ctx, lead, h) for h in hands[1:]]
    before = resolve_trick(ctx, plays, hands)
    losers = [i for i in range(1, players) if i != before.winner]
    for i in losers:
        for _ in range(4):
            other = random_follow(rng, ctx, lead, hands[i])
            trial = [*plays[:i], other, *plays[i + 1 :]]
            after = resolve_trick(ctx, trial, hands)
            if after.beats[i]:
                continue
            assert after.winner == before.winner, (lead_cards, plays, other)
