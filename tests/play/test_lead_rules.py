"""Lead rules: unbeatable pairs, safe throws, controlled short suits thrown out whole."""

from __future__ import annotations

import random

from checker.engine.combos import classify
from checker.engine.order import make_context
from checker.engine.ruleset import load_ruleset
from checker.play.bots.lead import is_controlled_suit, is_unbeatable_pair, safe_part
from checker.play.bots.memory import read_memory
from checker.play.bots.v2 import V2Bot

from .util import cards, lead_view

CTX = make_context(load_ruleset("classic"), 2, "H")


def _mem(hand: str, history: list[list[tuple[int, str]]] | None = None):  # type: ignore[no-untyped-def]
    past = [tuple((s, cards(c)) for s, c in t) for t in history or []]
    return read_memory(CTX, 0, cards(hand), past)


def test_pair_is_unbeatable_when_every_higher_card_has_a_copy_accounted() -> None:
    assert is_unbeatable_pair(CTX, _mem("♦Q ♦Q ♦K ♦A"), cards("♦Q ♦Q"))
    assert not is_unbeatable_pair(CTX, _mem("♦Q ♦Q ♦A"), cards("♦Q ♦Q"))


def test_lone_single_needs_every_higher_copy_accounted() -> None:
    part = safe_part(CTX, _mem("♦A ♦K ♦K ♦Q ♦J ♦J"), cards("♦A ♦K ♦K ♦Q ♦J ♦J"))
    assert sorted(map(str, part)) == sorted(["♦A", "♦K", "♦K", "♦J", "♦J"])


def test_controlled_short_suits_are_recognised_at_other_levels() -> None:
    ctx = make_context(load_ruleset("classic"), "A", "S")  # level A: K is the top of a side suit
    mem = read_memory(ctx, 0, cards("♦K ♦Q ♦Q"), [])
    assert is_controlled_suit(ctx, mem, cards("♦K ♦Q ♦Q"))
    mem2 = read_memory(ctx, 0, cards("♦K ♦J ♦J"), [])
    assert not is_controlled_suit(ctx, mem2, cards("♦K ♦J ♦J"))


def test_lead_throws_a_controlled_short_suit_whole() -> None:
    view = lead_view("♦A ♦K ♦K ♣5 ♣9 ♣J ♥4 ♥6", trump="H")
    decision = V2Bot(random.Random(0)).decide(view)
    assert sorted(map(str, decision.cards)) == ["♦A", "♦K", "♦K"]
    assert decision.rule == "v2.lead.whole_suit_throw"


def test_trump_only_rulesets_never_throw_a_side_suit() -> None:
    view = lead_view("♦A ♦K ♦K ♣5 ♣9 ♣J", trump="H", ruleset="erqiwang", level=2)
    decision = V2Bot(random.Random(0)).decide(view)
    assert view.ctx is not None
    assert classify(view.ctx, decision.cards).type != "throw"


def test_v2_leads_low_into_the_partners_void_and_not_into_an_opponents() -> None:
    # Seat 2 (partner) discarded on a club lead; seat 1 (opponent) on a diamond lead.
    history = [
        [(0, "♣A"), (1, "♣4"), (2, "♥4"), (3, "♣6")],
        [(0, "♦A"), (1, "♠3"), (2, "♦4"), (3, "♦6")],
    ]
    view = lead_view("♣9 ♣J ♦K ♦Q ♠5 ♠9 ♠Q", trump="H", history=history)
    decision = V2Bot(random.Random(0)).decide(view)
    assert [str(c) for c in decision.cards] == ["♣9"]
    assert decision.rule == "v2.lead.to_partner_void"
