"""Fast paths of issue 29 against the slow ones, on every ruleset and option that changes what
beats a unit or how pairs connect: the throw check's yes/no question (`throws._can_beat`)
answers as the beater search does (a unit is beaten by a hand exactly when `find_beater` finds
a beater there), and pairs that cannot connect split as the pair stock splits them."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from checker.engine.cards import Card, copies
from checker.engine.combos import (
    TRACTOR,
    PairStock,
    Unit,
    _pair_units,
    classify,
    unit_table,
)
from checker.engine.order import Context
from checker.engine.ruleset import Ruleset, load_ruleset
from checker.engine.throws import _can_beat, beats_wider_in_throw, find_beater
from checker.play.round import build_deck

RULESETS: list[Ruleset] = [
    load_ruleset("classic"),
    load_ruleset("erqiwang"),
    load_ruleset("multideck"),
    load_ruleset("multideck").with_options({"decks": 4}),
    load_ruleset("multideck").with_options({"decks": 4, "throw_beaten_by": "same_shape"}),
    load_ruleset("shuangsheng").with_options({"joker_pair": "mixed"}),
    load_ruleset("shuangsheng").with_options({"tractor_order": "natural"}),
]


# A shuffled deal on one ruleset and trump: the ruleset's index, the trump, the shuffle.
DEALS = (
    st.sampled_from(range(len(RULESETS))),
    st.sampled_from(["S", "H", None]),
    st.randoms(use_true_random=False),
)


def _deal(which: int, trump: str | None, rng: Random) -> tuple[Context, list[Card], str]:
    """Shuffle a deck of the ruleset; its context, the deck, the group of its first card."""
    rs = RULESETS[which]
    ctx = Context(rs, rs.ranks[0] if rs.has_level else None, trump)
    deck = build_deck(rs)
    rng.shuffle(deck)
    return ctx, deck, ctx.key[deck[0]][0]


@settings(max_examples=150, deadline=None)
@given(*DEALS, st.integers(min_value=4, max_value=16))
def test_a_unit_is_beaten_exactly_where_the_beater_search_finds_a_beater(
    which: int, trump: str | None, rng: Random, size: int
) -> None:
    ctx, deck, group = _deal(which, trump, rng)
    mine = [c for c in deck if ctx.key[c][0] == group][:size]
    combo = classify(ctx, mine)
    table = ctx.card_codes()
    wider = beats_wider_in_throw(ctx.ruleset)
    hands = [deck[i : i + 25] for i in range(len(mine), len(deck) - 25, 25)][:3]
    for hand in hands:
        suit = table.group_cards(table.encode(hand)[0], table.group[group])
        counts = table.copies(suit)
        held = [c for c in hand if ctx.key[c][0] == group]
        for unit in combo.units:
            found = find_beater(ctx, unit, group, held, wider=wider)
            assert _can_beat(ctx, unit, group, suit, counts, wider) == (found is not None)


def _plain_pair_units(ctx: Context, counts: dict[Card, int]) -> tuple[Unit, ...]:
    """Split cards of at most two copies the plain way: the pair stock's longest runs as
    tractors, then its pairs by strength, then singles (as `combos._pair_units` did before
    its path for pairs that cannot connect)."""
    table = unit_table(ctx)
    units: list[Unit] = []
    paired = [c for c, n in counts.items() if n == 2]
    if paired:
        stock = PairStock(ctx, {c: 2 for c in paired})
        while (run := stock.longest_run()) is not None and run[1] > run[0]:
            taken = stock.take(*run)
            units.append(Unit(TRACTOR, tuple(taken), run[1], run[1] - run[0] + 1))
        pairs = [card for p in sorted(stock.at, reverse=True) for card in stock.at[p]]
        pairs.sort(key=table.strength.__getitem__, reverse=True)
        units += map(table.pair.__getitem__, pairs)
    singles = sorted(
        (c for c, n in counts.items() if n == 1), key=table.strength.__getitem__, reverse=True
    )
    return (*units, *map(table.single.__getitem__, singles))


@settings(max_examples=200, deadline=None)
@given(*DEALS, st.integers(min_value=2, max_value=14))
def test_pairs_that_cannot_connect_split_as_the_pair_stock_splits_them(
    which: int, trump: str | None, rng: Random, size: int
) -> None:
    ctx, deck, group = _deal(which, trump, rng)
    counts = copies([c for c in deck if ctx.key[c][0] == group][:size])
    counts = {c: min(n, 2) for c, n in counts.items()}
    assert _pair_units(ctx, counts) == _plain_pair_units(ctx, counts)
