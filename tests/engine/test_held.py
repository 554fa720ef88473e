"""A hand seen once per deal (`held`): its group views and copies, and the follow answers that
`judge_follow` and `generate_example` keep there."""

from __future__ import annotations

from checker.engine.combos import classify, match_structure
from checker.engine.follow import generate_example, generate_forced, judge_follow
from checker.engine.order import Context

from .util import cs, deal


def _fresh() -> Context:
    ctx = deal(2, "H")
    ctx.hands.clear()
    return ctx


def test_a_groups_copies_are_counted_in_hand_order_in_the_pair_view() -> None:
    ctx = _fresh()
    held = ctx.held(tuple(cs("♠4 ♥3 ♠A ♠4 ♣9 ♠A ♠4")))
    assert held.copies("S", ctx.ruleset) == {cs("♠4")[0]: 3, cs("♠A")[0]: 2}
    assert list(held.copies("S", ctx.ruleset)) == cs("♠4 ♠A")
    assert held.view("S", ctx.ruleset) == (tuple(cs("♠4 ♠A ♠4 ♠A ♠4")), 3)
    assert held.copies("D", ctx.ruleset) == {}


def test_the_same_hand_asked_again_gets_the_same_example_and_forced_cards() -> None:
    ctx = _fresh()
    hand = cs("♠3 ♠3 ♠4 ♠4 ♠5 ♠5 ♠9 ♠9 ♠J ♠K ♣2 ♦6")
    tractor, pairs = classify(ctx, cs("♠7 ♠7 ♠8 ♠8")), classify(ctx, cs("♠Q ♠Q ♠A"))
    first = [generate_example(ctx, lead, hand) for lead in (tractor, pairs)]
    held = ctx.held(hand)  # the same hand object: the same view
    assert held.matches is not None
    assert set(held.matches) == {("S", (2,), 0), ("S", (), 1)}
    assert held.matches[("S", (2,), 0)] == match_structure(ctx, tractor, hand).cards
    again = [generate_example(ctx, lead, hand) for lead in (tractor, pairs)]
    assert again == first
    assert first[0] == cs("♠5 ♠5 ♠4 ♠4")  # the highest 2-pair tractor
    assert first[1] == cs("♠9 ♠9 ♠3")  # the highest pair, then the cheapest card
    ctx.hands.clear()  # seen afresh: the same answers
    assert [generate_example(ctx, lead, hand) for lead in (tractor, pairs)] == first
    for lead, example in zip((tractor, pairs), first, strict=True):
        assert judge_follow(ctx, lead, hand, example).legal
        assert generate_forced(ctx, lead, hand) == generate_forced(_fresh(), lead, hand)
    # The copies the old view shared were only read.
    spades = [c for c in hand if c.suit == "S"]
    assert held.copies("S", ctx.ruleset) == {c: spades.count(c) for c in spades}
