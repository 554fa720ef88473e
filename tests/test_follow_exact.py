"""The follow rule for structure-rich leads (issue 9.1, issue 8.2), checked against brute force.

Leads here are throws with two tractors, or a tractor with pairs; hands hold up to 16 cards of
the led group. The oracle enumerates every follow (a test may; the engine never does) and
values each one by trying every way to place its tractors into the lead's tractors. The rule:
the obligation is the best structure some legal set of n cards of the led group shows; a play
is legal iff it shows that much. Best = tractors first, longest first (lexicographic), then as
many pairs in all as the lead holds.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.engine.cards import Card, parse_cards
from checker.engine.combos import Combo, classify
from checker.engine.follow import (
    MUST_PLAY_TRACTOR,
    generate_example,
    generate_forced,
    judge_follow,
)
from checker.engine.order import Context, make_context
from checker.engine.ruleset import load_ruleset

Value = tuple[tuple[int, ...], int]


def _pair_counts(ctx: Context, cards: list[Card]) -> tuple[int, ...]:
    """Pairs per ladder position (index = position), the oracle's own reading of the cards."""
    top = max(pos for _, pos in ctx.key.values()) + 1
    out = [0] * top
    for card, k in Counter(cards).items():
        out[ctx.key[card][1]] += k // 2
    return tuple(out)


@cache
def _value(counts: tuple[int, ...], bins: tuple[int, ...], lone: int) -> Value:
    """Brute force: every set of pieces (runs of pairs) put into the lead's tractors in any way."""
    capacity = sum(bins) + lone
    units = min(sum(counts), capacity)

    @cache
    def best(counts: tuple[int, ...], bins: tuple[int, ...]) -> tuple[int, ...]:
        found: tuple[int, ...] = ()
        for low in range(len(counts)):
            for high in range(low + 1, len(counts)):
                if not counts[high] or any(not counts[p] for p in range(low, high)):
                    if not counts[high]:
                        break
                    continue
                length = high - low + 1
                left = tuple(k - (low <= p <= high) for p, k in enumerate(counts))
                for j, b in enumerate(bins):
                    if b >= length:
                        rest = bins[:j] + (b - length,) + bins[j + 1 :]
                        got = tuple(sorted((length, *best(left, rest)), reverse=True))
                        found = max(found, got)
        return found

    return best(counts, bins), units


def _bins(lead: Combo) -> tuple[tuple[int, ...], int]:
    return tuple(u.length for u in lead.tractors), len(lead.pairs)


def oracle_legal(ctx: Context, lead: Combo, hand: list[Card]) -> set[tuple[Card, ...]]:
    """Every legal follow (as sorted tuples), by enumerating all n-card plays of the hand."""
    n = len(lead.cards)
    suit = sorted(c for c in hand if ctx.key[c][0] == lead.group)
    rest = sorted(c for c in hand if ctx.key[c][0] != lead.group)
    if len(suit) <= n:
        return {tuple(sorted(suit + list(r))) for r in itertools.combinations(rest, n - len(suit))}
    bins, lone = _bins(lead)
    plays = {tuple(p) for p in itertools.combinations(suit, n)}
    values = {p: _value(_pair_counts(ctx, list(p)), bins, lone) for p in plays}
    best = max(values.values(), key=lambda v: (v[0], v[1]))
    return {p for p, v in values.items() if v == best}


def _check(ctx: Context, lead: Combo, hand: list[Card], rng: random.Random) -> None:
    n = len(lead.cards)
    legal = oracle_legal(ctx, lead, hand)
    assert legal, "the oracle always finds a legal follow"
    example = generate_example(ctx, lead, hand)
    assert judge_follow(ctx, lead, hand, example).legal, (lead.cards, hand, example)
    assert tuple(sorted(example)) in legal
    forced = Counter(generate_forced(ctx, lead, hand))
    common = Counter(next(iter(legal)))
    for p in legal:
        common &= Counter(p)
    assert forced == common, (lead.cards, hand)
    assert sum(forced.values()) <= n
    plays = {tuple(sorted(p)) for p in itertools.combinations(sorted(hand), n)}
    if len(plays) > 3000:
        plays = set(rng.sample(sorted(plays), 3000)) | legal
    for p in plays:
        verdict = judge_follow(ctx, lead, hand, p)
        assert verdict.legal == (p in legal), (lead.cards, hand, p, verdict.reason)
        assert verdict.explanation_for("zh") and verdict.explanation_for("en")


def _structured_lead(ctx: Context, group: str, rng: random.Random) -> list[Card] | None:
    """Two tractors, or a tractor with pairs (and maybe a single), in one group."""
    ladder = ctx.ladder(group)[::-1]  # weakest first
    if len(ladder) < 6:
        return None
    lengths = [rng.choice([2, 2, 3]), rng.choice([2, 2, 3])] if rng.random() < 0.7 else [2]
    cards: list[Card] = []
    used: set[int] = set()
    for length in lengths:
        low = rng.randrange(0, len(ladder) - length + 1)
        span = range(low, low + length)
        if used & set(range(low - 1, low + length + 1)):
            return None
        used |= set(span)
        cards += [c for p in span for c in [rng.choice(ladder[p])] * 2]
    for _ in range(rng.choice([0, 1, 1, 2]) if len(lengths) == 2 else rng.choice([1, 2])):
        free = [p for p in range(len(ladder)) if not used & {p - 1, p, p + 1}]
        if not free:
            return None
        p = rng.choice(free)
        used.add(p)
        cards += [rng.choice(ladder[p])] * 2
    if rng.random() < 0.3:
        free = [p for p in range(len(ladder)) if p not in used]
        cards.append(rng.choice(ladder[rng.choice(free)]))
    return cards


def _scenarios(
    name: str, count: int, seed: int, most: int
) -> Iterator[tuple[Context, Combo, list[Card]]]:
    rs = load_ruleset(name)
    rng = random.Random(seed)
    made = 0
    while made < count:
        level = rng.choice([2, 5, 10, "K"]) if rs.has_level else None
        ctx = make_context(rs, level, rng.choice(["S", "H", "C", None]))
        group = rng.choice(["S", "H", "T"])
        lead_cards = _structured_lead(ctx, group, rng)
        if lead_cards is None:
            continue
        lead = classify(ctx, lead_cards)
        if lead.type != "throw" or not lead.tractors or len(lead_cards) > most:
            continue
        left = Counter({c: rs.decks for c in ctx.deck}) - Counter(lead_cards)
        same = [c for c in left if ctx.key[c][0] == lead.group]
        other = [c for c in left if ctx.key[c][0] != lead.group]
        hand: list[Card] = []
        size = rng.randint(len(lead_cards) - 2, most)
        for card in rng.sample(same, len(same)):
            if len(hand) >= size:
                break
            hand += [card] * min(left[card], 2 if rng.random() < 0.6 else 1)
        hand = hand[:most] + rng.sample(other, rng.randint(0, 3))
        if len(hand) < len(lead_cards):
            continue
        made += 1
        yield ctx, lead, hand


@pytest.mark.parametrize(
    ("name", "count", "most"),
    [("classic", 120, 14), ("erqiwang", 60, 12), ("shuangsheng", 60, 12), ("classic", 20, 16)],
)
def test_structured_follows_agree_with_exhaustive_search(name: str, count: int, most: int) -> None:
    rng = random.Random(7)
    for ctx, lead, hand in _scenarios(name, count, seed=count + most, most=most):
        _check(ctx, lead, hand, rng)


def test_engine_answer_equals_brute_force_value_of_whole_hand() -> None:
    from checker.engine.combos import answer_structure

    for ctx, lead, hand in _scenarios("classic", 200, seed=5, most=16):
        suit = [c for c in hand if ctx.key[c][0] == lead.group]
        bins, lone = _bins(lead)
        got = answer_structure(ctx, lead, suit)
        assert (got.tractors, sum(got.tractors) + got.pairs) == _value(
            _pair_counts(ctx, suit), bins, lone
        )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_a_legal_follow_always_exists_and_example_and_forced_keep_their_promise(seed: int) -> None:
    name = ["classic", "erqiwang", "shuangsheng"][seed % 3]
    ctx, lead, hand = next(_scenarios(name, 1, seed=seed, most=12))
    _check(ctx, lead, hand, random.Random(seed))


# --- the two regressions, named after the rule ---------------------------------------------------

CLASSIC = load_ruleset("classic")


def test_three_separate_two_pair_runs_can_follow_a_three_and_a_two_pair_tractor() -> None:
    # Issue 9: classic, level 2, ♣ trump; the old greedy search judged every play illegal.
    ctx = make_context(CLASSIC, 2, "C")
    lead = classify(ctx, parse_cards("♥9♥9♥10♥10♥J♥J♥5♥5♥6♥6"))
    hand = parse_cards("♥3♥3♥4♥4♥7♥7♥8♥8♥Q♥Q♥K♥K")
    example = generate_example(ctx, lead, hand)
    assert judge_follow(ctx, lead, hand, example).legal
    assert len(generate_forced(ctx, lead, hand)) <= len(lead.cards)
    # Two whole runs and one pair of the third: legal whichever run is split.
    assert judge_follow(ctx, lead, hand, parse_cards("♥3♥3♥4♥4♥7♥7♥8♥8♥Q♥Q")).legal
    assert judge_follow(ctx, lead, hand, parse_cards("♥3♥3♥7♥7♥8♥8♥Q♥Q♥K♥K")).legal
    # Splitting two runs keeps back a tractor that could have been played.
    verdict = judge_follow(ctx, lead, hand, parse_cards("♥3♥3♥4♥4♥8♥8♥Q♥Q♥K♥7"))
    assert not verdict.legal


def test_a_follower_may_not_keep_back_a_tractor_it_could_have_played() -> None:
    # Issue 8.2: lead a 3-pair and a 2-pair tractor and ♠K. The hand holds two 2-pair runs
    # (♠3♠4, ♠J♠Q) and the pairs ♠8, ♠A. The old greedy search gave the 3-pair tractor ♠J♠Q
    # plus ♠4♠4, the 2-pair tractor two lone pairs, and so accepted a follow that keeps back
    # the ♠3♠3♠4♠4 tractor. Both tractors must be played.
    ctx = make_context(CLASSIC, 2, "H")
    lead = classify(ctx, parse_cards("♠5♠5♠6♠6♠7♠7♠9♠9♠10♠10♠K"))
    hand = parse_cards("♠J♠J♠8♠8♠3♠3♠Q♠Q♠K♠A♠A♠4♠4♦7♦J")
    verdict = judge_follow(ctx, lead, hand, parse_cards("♠4♠4♠8♠8♠J♠J♠Q♠Q♠K♠A♠A"))
    assert not verdict.legal and verdict.reason == MUST_PLAY_TRACTOR
    assert judge_follow(ctx, lead, hand, parse_cards("♠3♠3♠4♠4♠J♠J♠Q♠Q♠A♠A♠K")).legal
    assert judge_follow(ctx, lead, hand, parse_cards("♠3♠3♠4♠4♠J♠J♠Q♠Q♠8♠8♠K")).legal
    assert Counter(generate_forced(ctx, lead, hand)) >= Counter(parse_cards("♠3♠3♠4♠4♠J♠J♠Q♠Q"))
