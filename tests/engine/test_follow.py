"""Follow obligations (seed: 二、跟牌规则), reason codes, the forced cards and an example follow."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from checker.engine.cards import Card
from checker.engine.combos import classify
from checker.engine.follow import (
    MUST_FOLLOW_SUIT,
    MUST_PLAY_PAIR,
    MUST_PLAY_TRACTOR,
    NOT_IN_HAND,
    WRONG_COUNT,
    generate_example,
    generate_forced,
    judge_follow,
)
from checker.engine.order import TRUMP, Context

from .util import cs, deal, ms


def judge(ctx: Context, lead: str, hand: str, play: str) -> tuple[bool, str]:
    verdict = judge_follow(ctx, classify(ctx, cs(lead)), cs(hand), cs(play))
    return verdict.legal, verdict.reason


def forced(ctx: Context, lead: str, hand: str) -> Counter[Card]:
    return Counter(generate_forced(ctx, classify(ctx, cs(lead)), cs(hand)))


# --- count and possession ---------------------------------------------------------------------


def test_follow_must_have_as_many_cards_as_the_lead() -> None:
    ctx = deal(2, "H")
    assert judge(ctx, "♣8♣8♣9♣9", "♣K ♣K ♣5 ♣3 ♦4", "♣K ♣K") == (False, WRONG_COUNT)
    assert judge(ctx, "♣7", "♣K ♣3", "♣K ♣3") == (False, WRONG_COUNT)


def test_follow_must_come_from_the_hand() -> None:
    ctx = deal(2, "H")
    assert judge(ctx, "♣7", "♣K ♣3", "♣A") == (False, NOT_IN_HAND)
    assert judge(ctx, "♣7♣7", "♣K ♣3", "♣K ♣K") == (False, NOT_IN_HAND)


# --- single ------------------------------------------------------------------------------------


def test_single_must_follow_suit_when_holding_it() -> None:
    ctx = deal(2, "H")
    assert judge(ctx, "♣7", "♣K ♦4 ♣3", "♣K") == (True, "")
    assert judge(ctx, "♣7", "♣K ♦4 ♣3", "♣3") == (True, "")
    assert judge(ctx, "♣7", "♣K ♦4 ♣3", "♦4") == (False, MUST_FOLLOW_SUIT)


def test_single_void_may_play_anything() -> None:
    ctx = deal(2, "H")
    for play in ("♦4", "♥3", "大王"):
        assert judge(ctx, "♣7", "♦4 ♥3 大王", play) == (True, "")


def test_trump_lead_must_be_followed_with_any_trump() -> None:
    # All trumps count as one suit: ♠2 and 小王 follow a ♥ trump lead.
    ctx = deal(2, "H")
    assert judge(ctx, "♥5", "♠2 ♣9", "♠2") == (True, "")
    assert judge(ctx, "♥5", "小王 ♣9", "♣9") == (False, MUST_FOLLOW_SUIT)


def test_level_card_does_not_follow_its_printed_suit() -> None:
    # ♣2 is a trump when playing 2: holding it is being void in clubs.
    ctx = deal(2, "H")
    assert judge(ctx, "♣7", "♣2 ♦4", "♦4") == (True, "")


# --- pair --------------------------------------------------------------------------------------


def test_pair_lead_must_be_answered_with_a_pair() -> None:
    ctx = deal(2, "H")
    assert judge(ctx, "♣9♣9", "♣Q ♣Q ♣10 ♣5", "♣Q ♣Q") == (True, "")
    assert judge(ctx, "♣9♣9", "♣Q ♣Q ♣10 ♣5", "♣Q ♣10") == (False, MUST_PLAY_PAIR)
    assert judge(ctx, "♣9♣9", "♣Q ♣Q ♣10 ♣5", "♣10 ♣5") == (False, MUST_PLAY_PAIR)


def test_pair_lead_with_two_suit_cards_but_no_pair_plays_both() -> None:
    ctx = deal(2, "H")
    assert judge(ctx, "♣9♣9", "♣5 ♣6 ♦3", "♣5 ♣6") == (True, "")
    assert judge(ctx, "♣9♣9", "♣5 ♣6 ♦3", "♣5 ♦3") == (False, MUST_FOLLOW_SUIT)


def test_pair_lead_with_more_suit_cards_but_no_pair_plays_any_two_of_them() -> None:
    ctx = deal(2, "H")
    assert judge(ctx, "♣9♣9", "♣5 ♣6 ♣K ♦3", "♣5 ♣K") == (True, "")
    assert judge(ctx, "♣9♣9", "♣5 ♣6 ♣K ♦3", "♣5 ♦3") == (False, MUST_FOLLOW_SUIT)


def test_pair_lead_with_one_suit_card_plays_it_and_anything() -> None:
    ctx = deal(2, "H")
    assert judge(ctx, "♣9♣9", "♣5 ♦3 ♦4", "♣5 ♦3") == (True, "")
    assert judge(ctx, "♣9♣9", "♣5 ♦3 ♦4", "♦4 ♣5") == (True, "")
    assert judge(ctx, "♣9♣9", "♣5 ♦3 ♦4", "♦3 ♦4") == (False, MUST_FOLLOW_SUIT)


def test_pair_lead_void_plays_any_two() -> None:
    ctx = deal(2, "H")
    assert judge(ctx, "♣9♣9", "♦3 ♥4 ♠5", "♦3 ♠5") == (True, "")
    assert judge(ctx, "♣9♣9", "♦3 ♥4 ♠5", "♥4 ♠5") == (True, "")


def test_offsuit_level_cards_are_not_a_pair_for_following() -> None:
    # 打♥J: ♣J♦J is no pair; holding ♥A♥A the follower must play it.
    ctx = deal("J", "H")
    hand = "♣J ♦J ♥A ♥A ♠3"
    assert judge(ctx, "♥K♥K", hand, "♣J ♦J") == (False, MUST_PLAY_PAIR)
    assert judge(ctx, "♥K♥K", hand, "♥A ♥A") == (True, "")


def test_jokers_of_both_kinds_are_not_a_pair_for_following() -> None:
    ctx = deal(2, "H")
    hand = "小王 大王 ♥6 ♥6"
    assert judge(ctx, "♥K♥K", hand, "小王 大王") == (False, MUST_PLAY_PAIR)


# --- tractor -----------------------------------------------------------------------------------


def test_tractor_lead_must_be_answered_with_a_tractor_when_held() -> None:
    ctx = deal(2, "H")
    hand = "♣J♣J ♣Q♣Q ♣5♣5 ♣3"
    assert judge(ctx, "♣8♣8♣9♣9", hand, "♣J ♣J ♣Q ♣Q") == (True, "")
    assert judge(ctx, "♣8♣8♣9♣9", hand, "♣Q ♣Q ♣5 ♣5") == (False, MUST_PLAY_TRACTOR)


def test_tractor_lead_without_tractor_must_play_pairs() -> None:
    ctx = deal(2, "H")
    hand = "♣K ♣K ♦7 ♣6 ♣5 ♣4 ♣3"
    assert judge(ctx, "♣8♣8♣9♣9", hand, "♣K ♣K ♣3 ♣4") == (True, "")
    assert judge(ctx, "♣8♣8♣9♣9", hand, "♣6 ♣5 ♣4 ♣3") == (False, MUST_PLAY_PAIR)
    assert judge(ctx, "♣8♣8♣9♣9", hand, "♣K ♣K ♣3 ♦7") == (False, MUST_FOLLOW_SUIT)


def test_tractor_lead_must_play_as_many_pairs_as_possible() -> None:
    ctx = deal(2, "H")
    hand = "♣K ♣K ♣5 ♣5 ♣3 ♦4"
    assert judge(ctx, "♣8♣8♣9♣9", hand, "♣K ♣K ♣5 ♣5") == (True, "")
    assert judge(ctx, "♣8♣8♣9♣9", hand, "♣K ♣K ♣5 ♣3") == (False, MUST_PLAY_PAIR)


def test_tractor_lead_without_pairs_plays_all_suit_singles_then_anything() -> None:
    ctx = deal(2, "H")
    hand = "♣K ♣5 ♦3 ♦4 ♥6"
    assert judge(ctx, "♣8♣8♣9♣9", hand, "♣K ♣5 ♦3 ♥6") == (True, "")
    assert judge(ctx, "♣8♣8♣9♣9", hand, "♣K ♦3 ♦4 ♥6") == (False, MUST_FOLLOW_SUIT)


def test_trump_tractor_lead_offsuit_level_cards_do_not_make_pairs() -> None:
    # 打8主♥: ♦8♠8 is no pair; the only pair is ♥10♥10.
    ctx = deal(8, "H")
    hand = "♥Q ♥10 ♥10 ♥9 ♥5 ♦8 ♠8 ♣3"
    lead = "♥A♥A♥K♥K"
    assert judge(ctx, lead, hand, "♥Q ♥10 ♥10 ♥9") == (True, "")
    assert judge(ctx, lead, hand, "♥10 ♥10 ♥9 ♥5") == (True, "")
    assert judge(ctx, lead, hand, "♦8 ♠8 ♥10 ♥10") == (True, "")
    assert judge(ctx, lead, hand, "♥Q ♥9 ♥5 ♦8") == (False, MUST_PLAY_PAIR)


def test_longer_run_in_hand_any_two_adjacent_pairs_answer() -> None:
    ctx = deal(2, "H")
    hand = "♣3♣3 ♣4♣4 ♣5♣5"
    assert judge(ctx, "♣8♣8♣9♣9", hand, "♣3♣3♣4♣4") == (True, "")
    assert judge(ctx, "♣8♣8♣9♣9", hand, "♣4♣4♣5♣5") == (True, "")
    assert judge(ctx, "♣8♣8♣9♣9", hand, "♣3♣3♣5♣5") == (False, MUST_PLAY_TRACTOR)


# --- throw -------------------------------------------------------------------------------------


def test_throw_follow_uses_all_suit_cards_and_its_pair() -> None:
    # 主♣: lead ♣8♣8♣9♣9♣A, hand ♣K♣K♣7♣6♣5♣4♦3 -> 5 trumps including ♣K♣K.
    ctx = deal(2, "C")
    lead, hand = "♣8♣8♣9♣9♣A", "♣K ♣K ♣7 ♣6 ♣5 ♣4 ♦3"
    assert judge(ctx, lead, hand, "♣K ♣K ♣4 ♣5 ♣6") == (True, "")
    assert judge(ctx, lead, hand, "♣K ♣K ♣4 ♣5 ♦3")[1] == MUST_FOLLOW_SUIT
    assert judge(ctx, lead, hand, "♣K ♣7 ♣6 ♣5 ♣4")[1] == MUST_PLAY_PAIR
    assert forced(ctx, lead, hand) == ms("♣K ♣K")


def test_throw_follow_pairs_inside_a_tractor_count_as_pairs() -> None:
    # lead ♠A♠A ♠10♠10 ♠K (2 pairs + 1 single); ♠4♠4♠5♠5 answers the two pairs.
    ctx = deal(2, "H")
    lead, hand = "♠A ♠K ♠10 ♠A ♠10", "♠4 ♠4 ♠5 ♠5 ♠8 ♠8 ♠9 ♠3"
    assert judge(ctx, lead, hand, "♠4 ♠4 ♠5 ♠5 ♠3") == (True, "")
    assert judge(ctx, lead, hand, "♠8 ♠8 ♠4 ♠4 ♠9") == (True, "")
    assert judge(ctx, lead, hand, "♠8 ♠8 ♠4 ♠9 ♠3") == (False, MUST_PLAY_PAIR)


def test_throw_follow_tractor_before_pairs() -> None:
    ctx = deal(2, "H")
    lead = "♠Q♠Q♠K♠K ♠A"
    hand = "♠5♠5♠6♠6 ♠9♠9 ♠3 ♦4"
    assert judge(ctx, lead, hand, "♠5♠5♠6♠6♠3") == (True, "")
    assert judge(ctx, lead, hand, "♠5♠5♠9♠9♠3") == (False, MUST_PLAY_TRACTOR)


def test_throw_of_singles_only_needs_suit_cards() -> None:
    ctx = deal(2, "H")
    assert judge(ctx, "♠A ♠K", "♠3 ♠3 ♠4 ♦5", "♠3 ♠4") == (True, "")
    assert judge(ctx, "♠A ♠K", "♠3 ♠3 ♠4 ♦5", "♠3 ♦5") == (False, MUST_FOLLOW_SUIT)


# --- forced cards (the auto-hint) ----------------------------------------------------------------


def test_forced_single_with_choice_is_empty() -> None:
    assert forced(deal(2, "H"), "♣7", "♣K ♦4 ♣3") == Counter()


def test_forced_single_with_one_suit_card_is_that_card() -> None:
    assert forced(deal(2, "H"), "♣7", "♣K ♦4 ♥3") == ms("♣K")


def test_forced_unique_pair() -> None:
    assert forced(deal(2, "H"), "♣K♣K", "♣10 ♣10 ♣5 ♣7") == ms("♣10 ♣10")


def test_forced_short_suit_is_every_suit_card() -> None:
    assert forced(deal(2, "H"), "♣8♣8♣9♣9", "♣5 ♣10 ♦3 ♦4 ♥7") == ms("♣5 ♣10")


def test_forced_short_suit_with_exactly_enough_other_cards_is_the_whole_hand() -> None:
    assert forced(deal(2, "H"), "♣8♣8♣9♣9", "♣5 ♣10 ♦3 ♦4") == ms("♣5 ♣10 ♦3 ♦4")


def test_forced_void_is_empty() -> None:
    assert forced(deal(2, "H"), "♣K♣K", "♦3 ♦4 ♥5 ♠6") == Counter()


def test_forced_is_empty_with_a_choice_of_pairs() -> None:
    assert forced(deal(2, "H"), "♣K♣K", "♣10 ♣10 ♣7 ♣7 ♣5") == Counter()


def test_forced_middle_of_a_three_pair_run() -> None:
    # Any 2-pair tractor out of ♣3-♣4-♣5 contains ♣4♣4.
    assert forced(deal(2, "H"), "♣8♣8♣9♣9", "♣3♣3 ♣4♣4 ♣5♣5 ♣K") == ms("♣4 ♣4")


def test_forced_tractor_lead_pair_and_suit_cards() -> None:
    assert forced(deal(2, "H"), "♣8♣8♣9♣9", "♣K ♣K ♦7 ♣6 ♣5 ♣4 ♣3") == ms("♣K ♣K")


def test_forced_keeps_duplicates_as_a_multiset() -> None:
    # ♥10♥10 is the only trump pair: both copies are forced.
    got = forced(deal(8, "H"), "♥A♥A♥K♥K", "♥Q ♥10 ♥10 ♥9 ♥5 ♦8 ♠8")
    assert got == ms("♥10 ♥10")


def test_example_is_legal_for_seed_cases() -> None:
    ctx = deal(2, "H")
    for lead, hand in [
        ("♣7", "♣K ♦4 ♣3"),
        ("♣9♣9", "♣Q ♣Q ♣10 ♣5"),
        ("♣8♣8♣9♣9", "♣K ♣K ♦7 ♣6 ♣5 ♣4 ♣3"),
        ("♣8♣8♣9♣9", "♣5 ♣10 ♦3 ♦4"),
        ("♣K♣K", "♦3 ♥4 ♠5"),
    ]:
        combo = classify(ctx, cs(lead))
        example = generate_example(ctx, combo, cs(hand))
        assert judge_follow(ctx, combo, cs(hand), example).legal, (lead, hand, example)


def test_36_card_hand_is_judged() -> None:
    # A long hand (e.g. the leader's 25 + kitty, or bigger variants): everything still works.
    ctx = deal(2, "H")
    hand = cs(
        "♣3♣3♣4♣4♣5♣5♣6♣6♣7♣7♣8♣8 ♣9 ♣10 ♣J ♣Q ♣K ♣A "
        "♠3♠3♠4♠4 ♠5 ♠6 ♠7 ♠8 ♦3 ♦4 ♦5 ♦6 ♦7 ♦8 ♦9 ♦10 ♦J ♦Q"
    )
    assert len(hand) == 36
    lead = classify(ctx, cs("♣9♣9♣10♣10"))
    got = Counter(generate_forced(ctx, lead, hand))
    assert got == Counter()  # many tractors to choose from
    example = generate_example(ctx, lead, hand)
    assert judge_follow(ctx, lead, hand, example).legal
    assert judge_follow(ctx, lead, hand, cs("♣3♣3♣5♣5")).reason == MUST_PLAY_TRACTOR
    assert judge_follow(ctx, lead, hand, cs("♣7♣7♣8♣8")).legal


# --- properties over random hands and leads ------------------------------------------------------

CTX = deal(2, "H")
SPADES = [Card("S", r) for r in range(3, 15)]  # playing 2, hearts trump: the spade side suit
TRUMPS = [Card("H", r) for r in (3, 9, 10, 11, 12, 13, 14)] + cs("♠2 ♣2 ♦2 ♥2 小王 大王")
OTHERS = [Card(s, r) for s in "CD" for r in (3, 7, 11, 13)] + [Card("H", 5), Card("S", 2)]
TRUMP_OTHERS = [Card(s, r) for s in "SC" for r in (3, 7, 11, 13)] + [Card("D", 5)]


def _lead_strategy(pool: list[Card]) -> st.SearchStrategy[list[Card]]:
    ladder = [tier for tier in CTX.ladder(CTX.group(pool[0])) if set(tier) & set(pool)]
    singles = st.sampled_from(pool).map(lambda x: [x])
    pairs = st.sampled_from(pool).map(lambda x: [x, x])
    tractors = (
        st.integers(0, len(ladder) - 2)
        .flatmap(lambda i: st.tuples(st.sampled_from(ladder[i]), st.sampled_from(ladder[i + 1])))
        .map(lambda ab: [ab[0], ab[0], ab[1], ab[1]])
    )
    throws = st.lists(st.sampled_from(pool), min_size=2, max_size=8).filter(
        lambda xs: max(Counter(xs).values()) <= 2
    )
    return st.one_of(singles, pairs, tractors, throws)


@st.composite
def deal_and_hand(draw: st.DrawFn) -> tuple[list[Card], list[Card]]:
    suit, others = draw(st.sampled_from([(SPADES, OTHERS), (TRUMPS, TRUMP_OTHERS)]))
    lead = draw(_lead_strategy(suit))
    left = Counter({x: 2 for x in suit + others}) - Counter(lead)
    raw = draw(st.lists(st.sampled_from(sorted(left)), min_size=len(lead), max_size=12))
    hand = list((Counter(raw) & left).elements())
    assume(len(hand) >= len(lead))
    return lead, draw(st.permutations(hand))


def all_follows(hand: list[Card], n: int) -> set[tuple[Card, ...]]:
    return {tuple(sorted(p)) for p in itertools.combinations(sorted(hand), n)}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(deal_and_hand())
def test_example_is_always_legal_and_contains_the_forced_cards(
    drawn: tuple[list[Card], list[Card]],
) -> None:
    lead_cards, hand = drawn
    ctx = CTX
    lead = classify(ctx, lead_cards)
    example = generate_example(ctx, lead, hand)
    verdict = judge_follow(ctx, lead, hand, example)
    assert verdict.legal, (lead_cards, hand, example, verdict.reason)
    assert not Counter(generate_forced(ctx, lead, hand)) - Counter(example)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(deal_and_hand())
def test_forced_is_exactly_the_cards_in_every_legal_follow(
    drawn: tuple[list[Card], list[Card]],
) -> None:
    lead_cards, hand = drawn
    ctx = CTX
    lead = classify(ctx, lead_cards)
    legal = [
        Counter(p)
        for p in all_follows(hand, len(lead_cards))
        if judge_follow(ctx, lead, hand, p).legal
    ]
    assert legal, "some follow is always legal"
    common = legal[0]
    for p in legal[1:]:
        common &= p
    assert Counter(generate_forced(ctx, lead, hand)) == common


def oracle(ctx: Context, lead_cards: list[Card], hand: list[Card], play: list[Card]) -> bool:
    """The seed's follow rules for a single, a pair and a 2-pair tractor, written directly."""
    n = len(lead_cards)
    group = ctx.group(lead_cards[0])
    suit = [x for x in hand if ctx.group(x) == group]
    shown = [x for x in play if ctx.group(x) == group]
    if len(suit) <= n:
        return Counter(shown) == Counter(suit)  # all suit cards, the rest anything
    if len(shown) != n:
        return False
    pair_pos = lambda xs: sorted(ctx.pos(x) for x, k in Counter(xs).items() if k >= 2)  # noqa: E731
    has_tractor = lambda ps: any(b == a + 1 for a, b in itertools.pairwise(sorted(set(ps))))  # noqa: E731
    if n == 1:
        return True
    if n == 2:
        return bool(pair_pos(shown)) or not pair_pos(suit)
    # 2-pair tractor
    if has_tractor(pair_pos(suit)):
        return has_tractor(pair_pos(shown))
    return len(pair_pos(shown)) >= min(2, len(pair_pos(suit)))


FULL_TRUMPS = [x for tier in CTX.ladder(TRUMP) for x in tier]


@settings(max_examples=500, deadline=None)
@given(
    lead_kind=st.sampled_from(["single", "pair", "tractor"]),
    pools=st.sampled_from([(SPADES, OTHERS), (FULL_TRUMPS, TRUMP_OTHERS)]),
    data=st.data(),
)
def test_follow_judgement_agrees_with_the_seed_rules(
    lead_kind: str, pools: tuple[list[Card], list[Card]], data: st.DataObject
) -> None:
    suit, others = pools
    ctx = CTX
    ladder = ctx.ladder(ctx.group(suit[0]))
    i = data.draw(st.integers(0, len(ladder) - 2))
    low, high = data.draw(st.sampled_from(ladder[i + 1])), data.draw(st.sampled_from(ladder[i]))
    lead_cards = {
        "single": [high],
        "pair": [high, high],
        "tractor": [low, low, high, high],
    }[lead_kind]
    left = Counter({x: 2 for x in suit + others}) - Counter(lead_cards)
    raw = data.draw(st.lists(st.sampled_from(sorted(left)), min_size=4, max_size=10))
    hand = list((Counter(raw) & left).elements())
    n = len(lead_cards)
    assume(len(hand) >= n)
    play = data.draw(st.permutations(hand))[:n]
    want = oracle(ctx, lead_cards, hand, play)
    got = judge_follow(ctx, classify(ctx, lead_cards), hand, play)
    assert got.legal == want, (lead_cards, hand, play, got.reason)
