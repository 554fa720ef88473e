"""The throw check's yes/no question (`throws._can_beat`, speed work of issue 29) answers as the
beater search does: a unit is beaten by a hand exactly when `find_beater` finds a beater there,
on every ruleset and option that changes what beats a unit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from checker.engine.combos import THROW, classify
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


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(range(len(RULESETS))),
    st.sampled_from(["S", "H", None]),
    st.randoms(use_true_random=False),
    st.integers(min_value=4, max_value=16),
)
def test_a_unit_is_beaten_exactly_where_the_beater_search_finds_a_beater(
    which: int, trump: str | None, rng: object, size: int
) -> None:
    rs = RULESETS[which]
    ctx = Context(rs, rs.ranks[0] if rs.has_level else None, trump)
    deck = build_deck(rs)
    rng.shuffle(deck)  # type: ignore[attr-defined]
    group = ctx.key[deck[0]][0]
    mine = [c for c in deck if ctx.key[c][0] == group][:size]
    combo = classify(ctx, mine)
    table = ctx.card_codes()
    wider = beats_wider_in_throw(rs)
    hands = [deck[i : i + 25] for i in range(len(mine), len(deck) - 25, 25)][:3]
    for hand in hands:
        counts = table.copies(table.group_cards(table.encode(hand)[0], table.group[group]))
        held = [c for c in hand if ctx.key[c][0] == group]
        for unit in combo.units:
            found = find_beater(ctx, unit, group, held, wider=wider)
            assert _can_beat(ctx, unit, group, counts, wider) == (found is not None)
    assert combo.type == THROW or len(combo.units) == 1 or not combo.is_valid
