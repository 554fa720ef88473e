"""A follow judged on the hand's card codes (speed work, issue 14) gets the verdict the plain
judgement gives, field for field and word for word: the plain one is written out here as the
oracle, on lists of cards, the way `judge_follow` read them before the codes."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.engine.cards import BIG, SMALL, SUITS, Card, copies, is_subset
from checker.engine.combos import Combo, answer_structure, classify, pair_counts
from checker.engine.follow import (
    MUST_FOLLOW_SUIT,
    MUST_PLAY_PAIR,
    MUST_PLAY_TRACTOR,
    MUST_PLAY_TUPLE,
    NOT_IN_HAND,
    WRONG_COUNT,
    FollowVerdict,
    follow_reason,
    generate_example,
    judge_follow,
)
from checker.engine.held import holds
from checker.engine.jokers import pair_view
from checker.engine.ladder import Ladder, columns, first_gap, lead_bins
from checker.engine.order import Context
from checker.engine.ruleset import Ruleset, load_ruleset
from checker.engine.trick import resolve_trick
from checker.play.round import build_deck

from .util import cs

# Every ruleset, and the options that change what a follow owes: the mixed joker pair, trump
# tractors in natural order, three and four decks.
RULESETS: list[Ruleset] = [
    load_ruleset("classic"),
    load_ruleset("erqiwang"),
    load_ruleset("multideck"),
    load_ruleset("multideck").with_options({"decks": 4}),
    load_ruleset("shuangsheng"),
    load_ruleset("shuangsheng").with_options({"joker_pair": "mixed"}),
    load_ruleset("shuangsheng").with_options({"tractor_order": "natural"}),
]


def plain_follow(
    ctx: Context, lead: Combo, hand: Sequence[Card], play: Sequence[Card]
) -> FollowVerdict:
    """Judge a follow the plain way: the hand check on the cards, then the led group's cards
    in the pair view, then the structure search or the width ladder."""
    hand_t, play_t = tuple(hand), tuple(play)
    n = len(lead.cards)
    if len(play_t) != n:
        return FollowVerdict(False, WRONG_COUNT, ctx, lead, hand_t, play_t)
    if not is_subset(play_t, hand_t):
        return FollowVerdict(False, NOT_IN_HAND, ctx, lead, hand_t, play_t)
    key, rs = ctx.key, ctx.ruleset
    suit = pair_view(rs, [c for c in hand_t if key[c][0] == lead.group])
    played = pair_view(rs, [c for c in play_t if key[c][0] == lead.group])
    if len(suit) <= n:
        ok = len(played) == len(suit)
        return FollowVerdict(ok, "" if ok else MUST_FOLLOW_SUIT, ctx, lead, hand_t, play_t)
    if len(played) != n:
        return FollowVerdict(False, MUST_FOLLOW_SUIT, ctx, lead, hand_t, play_t)
    if not lead.has_pairs:
        return FollowVerdict(True, "", ctx, lead, hand_t, play_t)
    if lead.width >= 3 or max(copies(suit).values()) >= 3:
        ladder = Ladder(lead_bins((u.width, u.size) for u in lead.units))
        best, shows = ladder.best(columns(ctx, suit)), ladder.best(columns(ctx, played))
        gap = first_gap(best, shows)
        if gap is None:
            return FollowVerdict(True, "", ctx, lead, hand_t, play_t, need=best, got=shows)
        reason = (
            MUST_PLAY_TRACTOR if gap[1] >= 2 else MUST_PLAY_TUPLE if gap[0] >= 3 else MUST_PLAY_PAIR
        )
        return FollowVerdict(False, reason, ctx, lead, hand_t, play_t, need=best, got=shows)
    required = answer_structure(ctx, lead, suit)
    shown = answer_structure(ctx, lead, played)
    if shown.rank == required.rank:
        return FollowVerdict(True, "", ctx, lead, hand_t, play_t, required, shown)
    reason = MUST_PLAY_TRACTOR if shown.tractors != required.tractors else MUST_PLAY_PAIR
    return FollowVerdict(False, reason, ctx, lead, hand_t, play_t, required, shown)


def _same(fast: FollowVerdict, plain: FollowVerdict) -> None:
    assert tuple(fast) == tuple(plain)
    assert type(fast.required) is type(plain.required)
    for lang in ("zh", "en"):
        assert fast.explanation_for(lang) == plain.explanation_for(lang)


@pytest.mark.parametrize(
    ("lead", "hand", "play"),
    [
        ("♠9 ♠9", "♠5 ♠5 ♠5 ♠7 ♠8 ♦3", "♠5 ♠5"),  # three copies: more than two decks hold
        ("♠9 ♠9", "♠5 ♠5 ♠5 ♠7 ♠8 ♦3", "♠7 ♠8"),
        ("♠9 ♠9", "♠5 ♠5 ♠7 ♠7 ♠8 ♦3", "♠7 ♠8"),  # two pairs, no card three times
        ("♠9 ♠9 ♠J ♠J", "♠5 ♠5 ♠5 ♠7 ♠7 ♠8", "♠5 ♠5 ♠7 ♠8"),
        ("♠9 ♠9 ♠J ♠J", "♠5 ♠5 ♠7 ♠7 ♠8 ♠K", "♠5 ♠5 ♠8 ♠K"),
    ],
)
def test_pairs_are_counted_as_the_plain_judgement_counts_them_even_in_an_impossible_hand(
    lead: str, hand: str, play: str
) -> None:
    ctx = Context(load_ruleset("classic"), 2, "H")
    combo = classify(ctx, cs(lead))
    _same(
        judge_follow(ctx, combo, cs(hand), cs(play)), plain_follow(ctx, combo, cs(hand), cs(play))
    )


def _lead(rng: random.Random, ctx: Context, hand: list[Card]) -> list[Card]:
    """Draw a lead from a hand: a single, copies of one card, some of its pairs, tractors and
    wider units, a stretch of one group, or any cards."""
    group = ctx.key[rng.choice(hand)][0]
    mine = sorted((c for c in hand if ctx.key[c][0] == group), key=lambda c: ctx.key[c][1])
    shape = rng.random()
    if shape < 0.2 or len(mine) < 2:
        return [rng.choice(mine)]
    if shape < 0.35:
        card = rng.choice(mine)
        return [card] * rng.randint(1, mine.count(card))
    if shape < 0.75:
        units = classify(ctx, mine).units
        wide = [u for u in units if u.size > 1] or list(units)
        return [c for u in rng.sample(wide, rng.randint(1, min(3, len(wide)))) for c in u.cards]
    if shape < 0.9:
        start = rng.randrange(len(mine))
        return mine[start : start + rng.randint(2, 8)]
    return rng.sample(hand, rng.randint(2, min(len(hand), 5)))


def _plays(rng: random.Random, ctx: Context, lead: Combo, hand: list[Card]) -> list[list[Card]]:
    """Draw follows to try: a legal example, the led group's cards first (strongest first,
    shuffled, or one copy of each card first, which breaks pairs), any cards, a play with a
    card the hand lacks, and one of the wrong size."""
    n = len(lead.cards)
    suit = sorted((c for c in hand if ctx.key[c][0] == lead.group), key=lambda c: -ctx.key[c][1])
    rest = [c for c in hand if ctx.key[c][0] != lead.group]
    first: list[Card] = []
    later: list[Card] = []
    for c in suit:
        (later if c in first else first).append(c)
    shuffled = rng.sample(suit, len(suit))
    plays = [generate_example(ctx, lead, hand)]
    for cards in (suit, shuffled, first + later):
        plays += [(cards + rest)[:n], (cards[: n - 1] + rest)[:n]]
    if len(hand) >= n:
        plays.append(rng.sample(hand, n))
    missing = [c for c in sorted(ctx.deck) if hand.count(c) < ctx.ruleset.decks]
    if missing and n:
        plays.append([*hand[: n - 1], rng.choice(missing)])
    plays.append(hand[: n + 1])
    return plays


def _tractor(rng: random.Random, ctx: Context, group: str | None, hand: list[Card]) -> list[Card]:
    """Draw cards that give the hand a tractor of the group, as far as the decks allow."""
    tiers = ctx.tiers.get(group or "", [])
    if len(tiers) < 2:
        return []
    start = rng.randrange(len(tiers) - 1)
    width = rng.choice((2, 2, ctx.ruleset.decks))
    out = []
    for tier in tiers[start : start + rng.randint(2, 3)]:
        card = rng.choice(tier)
        out += [card] * max(0, min(width, ctx.ruleset.decks) - hand.count(card))
    return out


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, len(RULESETS) - 1),
    st.integers(0, 10**9),
    st.sampled_from((*SUITS, None)),
    st.integers(0, 52),
)
def test_a_follow_judged_on_codes_matches_the_plain_judgement(
    which: int, seed: int, trump: str | None, size: int
) -> None:
    rs = RULESETS[which]
    rng = random.Random(seed)
    ctx = Context(rs, rng.choice(rs.levels) if rs.has_level else None, trump)
    deck = build_deck(rs)
    rng.shuffle(deck)
    leader, hand = deck[:30], deck[30 : 30 + size]
    lead = classify(ctx, _lead(rng, ctx, leader))
    while not lead.is_valid:  # a follow answers a lead that can be led
        lead = classify(ctx, _lead(rng, ctx, leader))
    if lead.has_pairs and rng.random() < 0.5:
        hand += _tractor(rng, ctx, lead.group, hand)
    for play in _plays(rng, ctx, lead, hand):
        plain = plain_follow(ctx, lead, hand, play)
        ctx.hands.clear()  # the trick's own judgement of a hand met afresh keeps nothing
        assert follow_reason(ctx, lead, hand, play) == plain.reason and not ctx.hands
        _same(judge_follow(ctx, lead, hand, play), plain)
        assert follow_reason(ctx, lead, hand, play) == plain.reason  # read from the memo
        # Asked again (the memo), with a copy of the hand, and as a tuple: the same verdict.
        _same(judge_follow(ctx, lead, list(hand), play), plain_follow(ctx, lead, hand, play))
        _same(
            judge_follow(ctx, lead, tuple(hand), tuple(play)), plain_follow(ctx, lead, hand, play)
        )


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(RULESETS) - 1), st.integers(0, 10**9), st.integers(0, 30))
def test_the_codes_count_as_the_cards_do(which: int, seed: int, size: int) -> None:
    rs = RULESETS[which]
    rng = random.Random(seed)
    ctx = Context(rs, rs.levels[0] if rs.has_level else None, rng.choice([*SUITS, None]))
    table = ctx.card_codes()
    deck = build_deck(rs)
    rng.shuffle(deck)
    hand, part = tuple(deck[:size]), tuple(rng.sample(deck, rng.randint(0, 6)))
    (codes, _), (wanted, _) = table.encode(hand), table.encode(part)
    assert codes == bytes(hand)  # a card's code is the card itself
    assert holds(codes, wanted) == is_subset(part, hand)
    cards = sorted(ctx.deck)
    for group in {ctx.key[c][0] for c in cards}:
        mine = [c for c in hand if ctx.key[c][0] == group]
        cut = table.group_cards(codes, table.group[group])
        assert cut == table.encode(tuple(mine))[0]
        groups = table.encode(hand)[1]
        assert groups.count(table.group[group]) == len(mine)
        view = pair_view(rs, mine)
        assert table.copies(cut) == {int(c): k for c, k in copies(view).items()}
        assert table.pair_counts(table.copies(cut)) == pair_counts(ctx, view)


def test_the_mixed_joker_pair_is_counted_in_the_codes_as_in_the_pair_view() -> None:
    rs = load_ruleset("shuangsheng").with_options({"joker_pair": "mixed"})
    ctx = Context(rs, 2, "S")
    table = ctx.card_codes()
    for jokers in ([BIG, SMALL], [BIG, BIG, BIG, SMALL], [BIG, SMALL, SMALL, SMALL], [BIG, BIG]):
        view = pair_view(rs, jokers)
        counted = table.copies(table.encode(tuple(jokers))[0])
        assert counted == {int(c): k for c, k in copies(view).items()}


def test_the_tricks_own_judgement_of_a_follow_keeps_nothing_new_but_reads_what_was_kept() -> None:
    ctx = Context(load_ruleset("classic"), 2, "H")
    hands = [cs("♠5 ♠5 ♦3"), cs("♠A ♠A ♠K ♦4"), cs("♠Q ♠J ♣9 ♣8"), cs("♣2 ♣3 ♦6 ♦7")]
    plays = [cs("♠5 ♠5"), cs("♠A ♠K"), cs("♠Q ♠J"), cs("♣2 ♣3")]
    result = resolve_trick(ctx, plays, hands)
    assert result.legal == (True, False, True, True)  # ♠A ♠A owed as a pair
    assert ctx.hands == {}  # the last judgement of these follows: nothing kept for later
    lead = classify(ctx, plays[0])
    kept = judge_follow(ctx, lead, hands[1], plays[1], keep=True)
    assert judge_follow(ctx, lead, hands[1], plays[1]) is kept
    assert resolve_trick(ctx, plays, hands) == result
    fresh = judge_follow(ctx, lead, hands[2], plays[2])  # a one-off check keeps nothing
    assert fresh.legal and bytes(hands[2]) not in ctx.hands and id(hands[2]) not in ctx.hands
    # The same verdict, now kept: the view asked for serves the next judgements.
    assert fresh == judge_follow(ctx, lead, hands[2], plays[2], keep=True)
    assert judge_follow(ctx, lead, hands[2], plays[2]) is judge_follow(
        ctx, lead, hands[2], plays[2]
    )


def test_the_verdicts_on_one_kept_hand_share_its_cards_whatever_object_brings_them() -> None:
    ctx = Context(load_ruleset("classic"), 2, "H")
    hand = cs("♠A ♠A ♠K ♦3")
    lead = classify(ctx, cs("♠5 ♠5"))
    first = judge_follow(ctx, lead, hand, cs("♠A ♠K"), keep=True)
    again = judge_follow(ctx, lead, hand, cs("♠A ♠A"))  # the same list
    other = judge_follow(ctx, lead, list(hand), cs("♠K ♦3"))  # another list, the same cards
    assert again.hand is first.hand and other.hand is first.hand
    assert first.hand == tuple(hand) and (first.legal, again.legal, other.legal) == (
        False,
        True,
        False,
    )


def test_a_hand_asked_for_by_the_same_object_is_seen_afresh_once_it_changes() -> None:
    ctx = Context(load_ruleset("classic"), 2, "H")
    hand = cs("♠A ♠A ♠K ♦3")
    lead = classify(ctx, cs("♠5 ♠5"))
    play = cs("♠A ♠K")
    assert judge_follow(ctx, lead, hand, play, keep=True).reason == MUST_PLAY_PAIR
    held = ctx.held(hand)
    assert held.codes is not None  # judged: its codes are known
    hand[1] = cs("♠Q")[0]  # the same list, other cards
    assert ctx.held(hand) is not held and ctx.held(hand).cards == tuple(hand)
    assert ctx.held(hand).codes is None  # seen afresh, not judged yet
    assert judge_follow(ctx, lead, hand, play).legal  # no pair is owed any longer
    again = cs("♠A ♠Q ♠K ♦3")  # another list with those cards: the view a judgement keeps
    verdict = judge_follow(ctx, lead, again, play)
    assert ctx.held(again) is ctx.held(hand)  # found by its card codes
    assert verdict is judge_follow(ctx, lead, hand, play)


def test_a_card_outside_the_deck_is_not_in_hand_or_raises_as_it_always_did() -> None:
    ctx = Context(load_ruleset("erqiwang"), 7, "S")
    outside = Card("S", 2) if Card("S", 2) not in ctx.key else Card("", 99)
    assert outside not in ctx.key
    lead = classify(ctx, cs("♥5"))
    hand = [*cs("♥3 ♣4"), outside]
    assert judge_follow(ctx, lead, hand, cs("♥9")).reason == NOT_IN_HAND
    assert judge_follow(ctx, lead, cs("♥3 ♣4"), [outside]).reason == NOT_IN_HAND
    with pytest.raises(KeyError):
        judge_follow(ctx, lead, hand, cs("♥3"))
    pair = classify(ctx, cs("♥5 ♥5"))
    assert judge_follow(ctx, pair, hand, cs("♥3 ♥3")).reason == NOT_IN_HAND
    with pytest.raises(KeyError):
        judge_follow(ctx, pair, hand, cs("♥3 ♣4"))
    ctx.hands.clear()  # the trick's own judgement, afresh: the same answers
    assert follow_reason(ctx, lead, hand, cs("♥9")) == NOT_IN_HAND
    assert follow_reason(ctx, pair, hand, cs("♥3 ♥3")) == NOT_IN_HAND
    with pytest.raises(KeyError):
        follow_reason(ctx, pair, hand, cs("♥3 ♣4"))


def test_a_one_off_follow_check_keeps_nothing_and_a_hand_read_again_is_not_encoded_again() -> None:
    ctx = Context(load_ruleset("classic"), 2, "H")
    hand = cs("♠A ♠A ♠K ♦3")
    lead = classify(ctx, cs("♠5 ♠5"))
    first = judge_follow(ctx, lead, hand, cs("♠A ♠K"))
    assert first.reason == MUST_PLAY_PAIR and ctx.hands == {}
    table = ctx.card_codes()
    kept = table.last
    assert kept == (tuple(hand), bytes(hand), table.encode(hand)[1])
    # The same cards read again in a row, in another object: the tuple read last serves.
    again = judge_follow(ctx, lead, list(hand), cs("♠A ♠A"))
    assert again.legal and again.hand is first.hand
    # The same three objects (a compiled build hands out a new tuple around them each time).
    assert all(now is before for now, before in zip(table.last, kept, strict=True))
    other = tuple(cs("♠A ♦3"))
    assert table.read(other) == (other, *table.encode(other)) and table.last[0] is other


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(RULESETS) - 1), st.integers(0, 10**9))
def test_one_off_checks_from_two_hands_in_turn_match_the_plain_judgement(
    which: int, seed: int
) -> None:
    # One-off checks keep what they work out from the hand read last (`Codes.seen`: its group
    # copies, its best answer per lead shape): several leads in a row from one hand, then the
    # other hand, then the first again, each follow checked twice, get the plain verdicts.
    rs = RULESETS[which]
    rng = random.Random(seed)
    ctx = Context(rs, rng.choice(rs.levels) if rs.has_level else None, rng.choice([*SUITS, None]))
    deck = build_deck(rs)
    rng.shuffle(deck)
    leader, hands = deck[:30], [deck[30:55], deck[55:88]]
    leads = []
    while len(leads) < 4:
        lead = classify(ctx, _lead(rng, ctx, leader))
        if lead.is_valid:
            leads.append(lead)
    for lead in leads:
        if lead.has_pairs:
            hands[0] += _tractor(rng, ctx, lead.group, hands[0])
    for hand in (hands[0], hands[1], hands[0]):
        for lead in leads:
            plays = _plays(rng, ctx, lead, hand)
            plain = [plain_follow(ctx, lead, hand, play) for play in plays]
            ctx.hands.clear()  # met afresh: a one-off check
            for _ in range(2):
                for play, verdict in zip(plays, plain, strict=True):
                    _same(judge_follow(ctx, lead, hand, play), verdict)
            assert not ctx.hands
