"""Ruffs of a throw read exactly at every width, checked against brute force on small positions.

Brute force (every way to cut the ruff's cards into the throw's units) is the oracle here only;
the engine sets the key entry by entry and never enumerates readings or subsets.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from checker.engine.cards import Card, parse_cards
from checker.engine.combos import SINGLE, THROW, Combo, classify
from checker.engine.compare import ruff_key
from checker.engine.order import Context, make_context
from checker.engine.ruffs import key_order, layer_of
from checker.engine.ruleset import load_ruleset

Flat = tuple[tuple[int, ...], ...]


def _readings(
    ctx: Context, shapes: tuple[tuple[int, int], ...], left: Counter[Card]
) -> Iterator[tuple[list[tuple[tuple[int, int], int]], Counter[Card]]]:
    """Yield every way to cut the shapes (in order) out of the cards: (shape, top) and the rest."""
    if not shapes:
        yield [], left
        return
    (width, span), rest = shapes[0], shapes[1:]
    by_pos: dict[int, list[Card]] = {}
    for card, n in left.items():
        if n >= width:
            by_pos.setdefault(ctx.link[card], []).append(card)
    for top in by_pos:
        choices: list[list[Card]] = [[]]
        for p in range(top, top - span, -1):
            choices = [pick + [c] for pick in choices for c in by_pos.get(p, [])]
        for pick in choices:
            after = left.copy()
            for card in pick:
                after[card] -= width
            # A tractor ranks by its tractor position, an n-of-a-kind by its card's strength.
            value = top if span >= 2 else ctx.key[pick[0]][1]
            for placed, remaining in _readings(ctx, rest, +after):
                yield [((width, span), value), *placed], remaining


def _brute(ctx: Context, lead: Combo, cards: list[Card]) -> tuple[Flat, Flat] | None:
    """Return the best key of every reading, compared unit by unit and by each layer's first."""
    shapes = key_order([(u.width, u.span) for u in lead.units if u.kind != SINGLE])
    best_all: Flat | None = None
    best_top: Flat | None = None
    for placed, rest in _readings(ctx, shapes, Counter(cards)):
        layers: dict[tuple[int, bool], list[tuple[int, int]]] = {}
        for shape, top in placed:
            layers.setdefault(layer_of(shape), []).append((shape[1], top))
        order = sorted(layers, reverse=True)
        tops = [tuple(t for _, t in sorted(layers[k], reverse=True)) for k in order]
        singles = tuple(sorted((ctx.key[c][1] for c in rest.elements()), reverse=True))
        every: Flat = (*tops, singles)
        first: Flat = (*(t[:1] for t in tops), singles[:1])
        best_all = every if best_all is None or every > best_all else best_all
        best_top = first if best_top is None or first > best_top else best_top
    if best_all is None or best_top is None:
        return None
    return best_all, best_top


# The ruffer's pool: trumps at level 5 with ♥ trump, where the off-suit 2s and the off-suit
# level cards share a position each (several cards at one position, as in a real trump suit).
_POOL = parse_cards("♥J ♥Q ♥K ♥A ♠2 ♣2 ♥2 ♠5 ♦5 ♥5")
_LEAD_RANKS = [3, 4, 6, 7, 8, 9, 10]


def _ruffer(rng: random.Random, pool: list[Card], decks: int, n: int) -> list[Card]:
    """Draw n cards from a few cards of the pool (so that units are common), ≤ decks copies."""
    few = rng.sample(pool, rng.randint(2, 5))
    stock = [c for c in few for _ in range(decks)]
    while len(stock) < n:
        stock += [c for c in pool if c not in few]
    rng.shuffle(stock)
    return stock[:n]


def _positions(decks: int, count: int, seed: int) -> Iterator[tuple[Context, Combo, list[Card]]]:
    rs = load_ruleset("multideck").with_options({"decks": decks})
    ctx = make_context(rs, 5, "H")
    rng = random.Random(seed)
    made = 0
    while made < count:
        lead_cards: list[Card] = []
        for r in rng.sample(_LEAD_RANKS, rng.randint(2, 4)):
            lead_cards += [Card("S", r)] * rng.randint(1, decks)
        lead = classify(ctx, lead_cards)
        if lead.type != THROW or len(lead_cards) > 12:
            continue
        made += 1
        yield ctx, lead, _ruffer(rng, _POOL, decks, len(lead_cards))


@pytest.mark.parametrize(("decks", "seed"), [(3, 11), (4, 12)])
def test_ruff_of_a_throw_is_read_at_its_strongest_at_every_width(decks: int, seed: int) -> None:
    seen_wide = 0
    for ctx, lead, play in _positions(decks, 400, seed):
        expected = _brute(ctx, lead, play)
        key = ruff_key(ctx, lead, play)
        if expected is None:
            assert key is None, (lead.cards, play)
            continue
        assert key is not None, (lead.cards, play)
        assert (key.value(True), key.value(False)) == expected, (lead.cards, play)
        seen_wide += lead.width >= 3
    assert seen_wide >= 40  # ruffs holding throws with units of width 3 and more are common


def _two_deck_checks(
    ctx: Context, pool: list[Card], ranks: list[int], seed: int, count: int
) -> Iterator[tuple[Combo, Flat | None]]:
    """Check ruffs of random two-deck throws in ♠ against brute force; yield each lead and
    the brute-force answer."""
    rng = random.Random(seed)
    checked = 0
    while checked < count:
        lead_cards: list[Card] = []
        for r in rng.sample(ranks, rng.randint(2, 4)):
            lead_cards += [Card("S", r)] * rng.choice([1, 2, 2])
        lead = classify(ctx, lead_cards)
        if lead.type != THROW:
            continue
        play = _ruffer(rng, pool, 2, len(lead_cards))
        expected = _brute(ctx, lead, play)
        key = ruff_key(ctx, lead, play)
        assert (None if key is None else (key.value(True), key.value(False))) == expected
        checked += 1
        yield lead, None if expected is None else expected[0]


def test_two_decks_are_the_pair_case_of_the_same_reading() -> None:
    ctx = make_context(load_ruleset("classic"), 5, "H")
    pool = parse_cards("♥9 ♥10 ♥J ♥Q ♥K ♥A ♠5 ♦5 ♥5")
    held = sum(key is not None for _, key in _two_deck_checks(ctx, pool, _LEAD_RANKS, 5, 200))
    assert held >= 20


def test_natural_tractor_order_reads_ruffs_by_the_same_search() -> None:
    # 双升 tractor_order: natural: trump tractors connect by the trump suit's own ranks, so
    # adjacency and strength differ (♥7 is the level card, ♠7 ♦7 off-suit level cards).
    rs = load_ruleset("shuangsheng").with_options({"tractor_order": "natural"})
    ctx = make_context(rs, 7, "H")
    pool = parse_cards("♥6 ♥7 ♥8 ♠7 ♦7 ♥2 ♥3 ♠2 ♥A 小王")
    checks = _two_deck_checks(ctx, pool, [3, 4, 5, 6, 9, 10], 9, 600)
    tractors = sum(key is not None and bool(lead.tractors) for lead, key in checks)
    assert tractors >= 10
