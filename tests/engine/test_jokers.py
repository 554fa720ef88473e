"""大王 + 小王 as a pair (seed 004 §6 王的特殊, 双升 option joker_pair: mixed)."""

from __future__ import annotations

from checker.engine.cards import BIG, SMALL, parse_cards
from checker.engine.combos import classify
from checker.engine.follow import generate_forced, judge_follow
from checker.engine.jokers import pair_view, restore
from checker.engine.order import make_context
from checker.engine.ruleset import load_ruleset

SHUANGSHENG = load_ruleset("shuangsheng")
MIXED = SHUANGSHENG.with_options({"joker_pair": "mixed"})


def test_pair_view_reads_one_big_joker_as_small_only_when_both_are_odd() -> None:
    assert pair_view(MIXED, [BIG, SMALL]) == [SMALL, SMALL]
    assert pair_view(MIXED, [BIG, BIG, SMALL]) == [BIG, BIG, SMALL]
    assert pair_view(MIXED, [SMALL, SMALL, BIG]) == [SMALL, SMALL, BIG]
    assert pair_view(SHUANGSHENG, [BIG, SMALL]) == [BIG, SMALL]


def test_restore_gives_back_the_big_joker_read_as_small() -> None:
    assert restore([BIG, SMALL], [SMALL, SMALL]) == [SMALL, BIG]
    assert restore([SMALL, SMALL], [SMALL, SMALL]) == [SMALL, SMALL]


def test_mixed_joker_pair_ranks_as_a_small_joker_pair_with_its_real_cards() -> None:
    ctx = make_context(MIXED, 5, "H")
    combo = classify(ctx, [BIG, SMALL])
    assert combo.type == "pair"
    assert sorted(combo.units[0].cards) == sorted([BIG, SMALL])
    assert combo.units[0].top == ctx.key[SMALL][1]


def test_a_hand_with_both_jokers_owes_them_as_a_pair() -> None:
    ctx = make_context(MIXED, 5, "H")
    lead = classify(ctx, parse_cards("♥3 ♥3"))
    hand = parse_cards("大王 小王 ♥4 ♥6")
    assert not judge_follow(ctx, lead, hand, parse_cards("♥4 ♥6")).legal
    assert judge_follow(ctx, lead, hand, parse_cards("小王 大王")).legal
    assert sorted(generate_forced(ctx, lead, hand)) == sorted([BIG, SMALL])
