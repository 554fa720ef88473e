"""The exact structure search (`structure`): ranks, plans and how much a hand can spare."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from checker.engine.structure import (
    _INF,
    _best,
    _plan_one_tractor,
    _plan_searched,
    _runs,
    _shape,
    forget_answers,
    plan_answer,
    rank_answer,
    rank_single,
    slack,
)

# Units by ladder position (a position holds 1-3 units), a lead's tractors (2-4 units long)
# and its lone pairs.
PROFILES = st.dictionaries(st.integers(0, 12), st.integers(1, 3), max_size=9)
TRACTORS = st.lists(st.integers(2, 4), max_size=3)
LONE = st.integers(0, 3)


def test_a_run_of_four_answers_a_two_pair_tractor_and_a_pair_from_the_top() -> None:
    counts = {0: 1, 1: 1, 2: 1, 3: 1, 7: 1}
    plan = plan_answer(counts, [2], 1)
    assert plan.pieces == ((2, 3),)
    assert plan.lone == (7,)
    assert rank_answer(counts, [2], 1) == ((2,), 3)


def test_slack_is_what_a_position_can_lose_before_the_best_answer_drops() -> None:
    # ♠33 ♠44 make the only tractor: neither pair can go; the lone ♠99 can.
    assert slack({3: 1, 4: 1, 9: 1}, [2], 0) == {3: 0, 4: 0, 9: 1}
    # A run of four answers a 2-pair tractor and a pair with any one pair missing.
    assert slack({0: 1, 1: 1, 2: 1, 3: 1}, [2], 1) == {0: 1, 1: 1, 2: 1, 3: 1}
    # Three pairs at one position, one pair asked for: two of them can go.
    assert slack({5: 3}, [], 1) == {5: 2}


@settings(max_examples=300, deadline=None)
@given(PROFILES, TRACTORS, LONE)
def test_slack_agrees_with_removing_units_one_by_one(
    counts: dict[int, int], bins: list[int], lone: int
) -> None:
    best = rank_answer(counts, bins, lone)
    free = slack(counts, bins, lone)
    assert set(free) == set(counts)
    for p, k in counts.items():
        assert 0 <= free[p] <= k
        for gone in range(1, k + 1):
            same = rank_answer({**counts, p: k - gone}, bins, lone) == best
            assert same == (gone <= free[p]), (counts, bins, lone, p, gone)


@settings(max_examples=200, deadline=None)
@given(PROFILES, TRACTORS, LONE, st.randoms(use_true_random=False))
def test_answers_do_not_depend_on_the_order_or_empty_positions(
    counts: dict[int, int], bins: list[int], lone: int, rng: object
) -> None:
    items = list(counts.items())
    rng.shuffle(items)  # type: ignore[attr-defined]
    shuffled = {**dict(items), 40: 0}
    assert plan_answer(shuffled, bins[::-1], lone) == plan_answer(counts, bins, lone)
    assert rank_answer(dict(items), bins[::-1], lone) == rank_answer(counts, bins, lone)
    plan = plan_answer(counts, bins, lone)
    assert plan.units == rank_answer(counts, bins, lone)[1]
    assert plan.lengths == rank_answer(counts, bins, lone)[0]


@settings(max_examples=300, deadline=None)
@given(PROFILES, TRACTORS, LONE)
def test_a_plan_uses_units_held_and_fits_the_leads_tractors(
    counts: dict[int, int], bins: list[int], lone: int
) -> None:
    plan = plan_answer(counts, bins, lone)
    left = dict(counts)
    for p in [p for low, high in plan.pieces for p in range(low, high + 1)] + list(plan.lone):
        assert left.get(p, 0) > 0, (counts, plan)
        left[p] -= 1
    assert all(high > low for low, high in plan.pieces)
    # Some assignment of the pieces to the lead's tractors keeps each within its length.
    assert any(
        all(
            sum(n for n, b in zip(plan.lengths, to, strict=True) if b == i) <= cap
            for i, cap in enumerate(bins)
        )
        for to in itertools.product(range(len(bins)), repeat=len(plan.pieces))
    ), (counts, bins, plan)
    assert (plan.lengths, plan.units) == rank_answer(counts, bins, lone)


@settings(max_examples=400, deadline=None)
@given(PROFILES, st.integers(2, 6), LONE)
def test_one_tractor_is_planned_directly_as_the_search_plans_it(
    counts: dict[int, int], tractor: int, lone: int
) -> None:
    direct = _plan_one_tractor(dict(counts), tractor, lone)
    assert direct == _plan_searched(dict(counts), (tractor,), lone), (counts, tractor, lone)


@settings(max_examples=400, deadline=None)
@given(PROFILES, st.integers(2, 6), LONE)
def test_one_tractor_is_ranked_directly_as_the_search_ranks_it(
    counts: dict[int, int], tractor: int, lone: int
) -> None:
    forget_answers()  # ranked afresh, not read back from an earlier example
    searched = _best(_shape(_runs(counts)), (tractor,), _INF) if len(counts) >= 2 else ()
    assert rank_answer(counts, [tractor], lone)[0] == searched, (counts, tractor)


def _tractor_sets(pairs: int, widest: int) -> list[tuple[int, ...]]:
    """List the leads' tractor lengths (longest first) holding at most `pairs` pairs."""
    found: list[tuple[int, ...]] = [()]
    for length in range(min(pairs, widest), 1, -1):
        for rest in _tractor_sets(pairs - length, length):
            found.append((length, *rest))
    return found


def test_one_pair_a_position_is_ranked_on_run_lengths_as_the_search_ranks_it() -> None:
    # Every set of up to 11 positions with a pair each, against every lead of up to 7 pairs
    # in tractors: the search on run lengths finds what the search on runs finds.
    forget_answers()
    leads = [bins for bins in _tractor_sets(7, 7) if bins]
    for mask in range(1 << 11):
        shape = _shape(_runs({p: 1 for p in range(11) if mask >> p & 1}))
        for bins in leads:
            assert rank_single(mask, bins) == _best(shape, bins, _INF), (bin(mask), bins)
