"""The random players' building blocks built directly (speed work, issue 14) give what the plain
constructions they replaced gave, draw for draw: seeded rounds and their logs depend on it."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from checker.engine.cards import SUITS, Card, copies, format_cards
from checker.engine.combos import PairStock, classify, match_copies, required_answer
from checker.engine.declare import declaring_ranks, judge_declaration
from checker.engine.follow import judge_follow
from checker.engine.order import TRUMP, Context
from checker.engine.ruleset import DeclarePolicy, Ruleset, load_ruleset
from checker.play.players import (
    DECLARE,
    FOLLOW,
    LEAD,
    PlayerView,
    declaration_options,
    declare_view,
    follow_view,
    groups_of,
    lead_units,
    lead_view,
    random_follow,
    random_lead,
    random_unit,
    sample_multiset,
)
from checker.play.round import build_deck
from checker.play.simulation import _dump

RULESETS = ("classic", "erqiwang", "multideck", "shuangsheng")


def reference_sample(rng: random.Random, cards: Sequence[Card], k: int) -> list[Card]:
    """The draw as first written: a table of counts item by item, then one pick per item."""
    if k <= 0:
        return []
    if k >= len(cards):
        return list(cards)
    if k == 1:
        return [rng.choice(sorted(set(cards)))]
    counts = sorted(Counter(cards).items())
    m = len(counts)
    ways = [[0] * (k + 1) for _ in range(m + 1)]
    ways[m][0] = 1
    for i in range(m - 1, -1, -1):
        cap = counts[i][1]
        for j in range(k + 1):
            ways[i][j] = sum(ways[i + 1][j - t] for t in range(min(cap, j) + 1))
    out: list[Card] = []
    need = k
    for i, (card, cap) in enumerate(counts):
        if need == 0:
            break
        pick = rng.randrange(ways[i][need])
        for t in range(min(cap, need) + 1):
            w = ways[i + 1][need - t]
            if pick < w:
                out.extend([card] * t)
                need -= t
                break
            pick -= w
    return out


def reference_lead_units(ctx: Context, cards: Sequence[Card]) -> list[list[Card]]:
    """Every single-unit lead, each tractor taken from a fresh stock of pairs."""
    counts = Counter(cards)
    key = ctx.key
    out: list[list[Card]] = [[c] for c in sorted(counts, key=lambda c: (key[c][1], c))]
    stock = PairStock(ctx, counts)
    for p in sorted(stock.at):
        for card in stock.at[p]:
            out.append([card, card])
    for low, high in stock.runs():
        for size in range(2, high - low + 2):
            for start in range(low, high - size + 2):
                out.append(PairStock(ctx, counts).take(start, start + size - 1))
    return out


def reference_options(
    rs: Ruleset,
    level: int | None,
    current: Sequence[tuple[int, Sequence[Card]]],
    seat: int,
    hand: Sequence[Card],
) -> list[list[Card]]:
    """Every declaration judge_declaration accepts from this hand, tried one by one."""
    ranks = declaring_ranks(rs, level)
    counts = Counter(c for c in hand if c.rank in ranks or c.is_joker)
    most = rs.decks if rs.declare.policy == DeclarePolicy.COPIES else 2
    tries: list[list[Card]] = []
    for c in sorted(counts):
        if c.is_joker:
            if counts[c] >= 2:
                tries.append([c, c])
        elif c.rank in ranks:
            tries.extend([c] * k for k in range(1, min(counts[c], most) + 1))
    return [t for t in tries if judge_declaration(rs, level, current, seat, t, hand).accepted]


def _deal(name: str, seed: int) -> tuple[Ruleset, list[Card]]:
    rs = load_ruleset(name)
    deck = build_deck(rs)
    random.Random(seed).shuffle(deck)
    return rs, deck


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 10**6), st.integers(1, 40), st.integers(0, 12))
def test_a_multiset_draw_matches_the_plain_table_draw_for_draw(
    name: str, seed: int, size: int, k: int
) -> None:
    _, deck = _deal(name, seed)
    cards = deck[:size]
    fast, plain = random.Random(seed), random.Random(seed)
    for _ in range(3):
        assert sample_multiset(fast, cards, k) == reference_sample(plain, cards, k)
    assert fast.random() == plain.random()  # the same number of draws was used


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 10**6), st.sampled_from((*SUITS, None)))
def test_every_lead_unit_is_listed_in_the_plain_order(
    name: str, seed: int, trump: str | None
) -> None:
    rs, deck = _deal(name, seed)
    ctx = Context(rs, rs.levels[0] if rs.has_level else None, trump)
    hand = deck[: rs.hand_size]
    for group, cards in groups_of(ctx, hand).items():
        assert all(ctx.key[c][0] == group for c in cards)
        assert lead_units(ctx, cards) == reference_lead_units(ctx, cards)
    order = [ctx.key[c][0] for c in hand]
    assert list(groups_of(ctx, hand)) == [g for g in (TRUMP, *"SHCD") if g in order]
    assert sorted(c for cs in groups_of(ctx, hand).values() for c in cs) == sorted(hand)


def reference_random_lead(
    rng: random.Random, ctx: Context, hand: Sequence[Card], throw_rate: float
) -> list[Card]:
    """The random lead as first written: every group listed, every unit of the chosen one."""
    groups = groups_of(ctx, hand)
    cards = groups[rng.choice(sorted(groups))]
    if len(cards) >= 2 and rng.random() < throw_rate:
        attempt = sample_multiset(rng, cards, rng.randint(2, min(len(cards), 8)))
        if classify(ctx, attempt).is_valid:
            return attempt
    return rng.choice(lead_units(ctx, cards))


def reference_single_follow(
    rng: random.Random, ctx: Context, lead: Card, hand: Sequence[Card]
) -> list[Card]:
    """A follow to a one-card lead as the general draw makes it (`sample_multiset`)."""
    group = ctx.key[lead][0]
    suit = [c for c in hand if ctx.key[c][0] == group]
    if len(suit) <= 1:
        rest = [c for c in hand if ctx.key[c][0] != group] if suit else list(hand)
        return suit + sample_multiset(rng, rest, 1 - len(suit))
    return sample_multiset(rng, suit, 1)


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(RULESETS),
    st.integers(0, 10**6),
    st.sampled_from((*SUITS, None)),
    st.integers(1, 33),
)
def test_random_leads_and_single_follows_draw_as_the_plain_constructions(
    name: str, seed: int, trump: str | None, size: int
) -> None:
    rs, deck = _deal(name, seed)
    ctx = Context(rs, rs.levels[0] if rs.has_level else None, trump)
    hand = deck[:size]
    fast, plain = random.Random(seed), random.Random(seed)
    for cards in groups_of(ctx, hand).values():
        assert random_unit(fast, ctx, cards) == plain.choice(lead_units(ctx, cards))
    for rate in (0.0, 0.5, 1.0):
        assert random_lead(fast, ctx, hand, rate) == reference_random_lead(plain, ctx, hand, rate)
    lead = deck[size]
    for cut in (size, 1, 2):
        follow = random_follow(fast, ctx, classify(ctx, [lead]), hand[:cut])
        assert follow == reference_single_follow(plain, ctx, lead, hand[:cut])
    assert fast.random() == plain.random()  # the same number of draws was used


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 10**6), st.sampled_from((*SUITS, None)))
def test_the_structure_a_follow_must_hold_is_the_searchs_answer(
    name: str, seed: int, trump: str | None
) -> None:
    rs, deck = _deal(name, seed)
    ctx = Context(rs, rs.levels[0] if rs.has_level else None, trump)
    rng = random.Random(seed)
    leader, hand = deck[: rs.hand_size], deck[rs.hand_size : 2 * rs.hand_size + 8]
    for group, cards in groups_of(ctx, leader).items():
        units = [u for u in lead_units(ctx, cards) if len(u) >= 2]
        # Pair and tractor leads, and throws of several of them (valid or not).
        leads = units + [
            [c for u in rng.sample(units, k) for c in u] for k in (2, 3) if len(units) >= k
        ]
        suit = [c for c in hand if ctx.key[c][0] == group]
        for cards_led in leads:
            lead = classify(ctx, cards_led)
            if not lead.is_valid or not lead.has_pairs:
                continue
            held = copies(suit)
            assert required_answer(ctx, lead, held) == match_copies(ctx, lead, held).answer


def _deal_and_compare(name: str, seed: int, seat: int, *, by_card: bool) -> None:
    """Deal in slices (or one card at a time), compare every seat's options with the referee's
    answers, and let `seat` declare as it goes, so the table keeps changing."""
    rs, deck = _deal(name, seed)
    level = rs.levels[0] if rs.has_level else None
    hands = [deck[i :: rs.players][: rs.hand_size] for i in range(rs.players)]
    seat %= rs.players
    current: list[tuple[int, tuple[Card, ...]]] = []
    steps = range(1, rs.hand_size + 1) if by_card else (3, 8, 14, rs.hand_size)
    for dealt in steps:
        for who in range(rs.players):
            hand = tuple(hands[who][:dealt])
            options = declaration_options(rs, level, tuple(current), who, hand)
            assert options == reference_options(rs, level, current, who, hand)
            if options and who == seat and (not by_card or dealt % 5 == 0):
                current.append((who, tuple(options[-1])))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 10**6), st.integers(0, 3))
def test_declaration_options_are_the_declarations_the_referee_accepts(
    name: str, seed: int, seat: int
) -> None:
    _deal_and_compare(name, seed, seat, by_card=False)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 10**6), st.integers(0, 3))
def test_declaration_options_card_by_card_are_the_declarations_the_referee_accepts(
    name: str, seed: int, seat: int
) -> None:
    # As a deal asks: one more card at a time (one new try at most while the table stands).
    _deal_and_compare(name, seed, seat, by_card=True)


def test_declaration_options_of_two_rulesets_are_kept_apart() -> None:
    classic, multideck = load_ruleset("classic"), load_ruleset("multideck")
    level = 2
    hand = [Card("S", 2)] * 3 + [Card("H", 5)]
    a = declaration_options(classic, level, (), 0, hand)
    b = declaration_options(multideck, level, (), 0, hand)
    assert a == reference_options(classic, level, (), 0, hand)
    assert b == reference_options(multideck, level, (), 0, hand)
    assert [Card("S", 2)] * 3 in b and [Card("S", 2)] * 3 not in a
    a[0].append(Card("H", 5))  # the caller's list is its own: the memo is not touched
    assert declaration_options(classic, level, (), 0, hand) == reference_options(
        classic, level, (), 0, hand
    )


def test_a_follow_judged_again_is_judged_against_its_own_lead() -> None:
    rs = load_ruleset("classic")
    ctx = Context(rs, 2, "H")
    hand = [Card("S", 14), Card("S", 14), Card("S", 9), Card("D", 3)]
    pair = classify(ctx, [Card("S", 13), Card("S", 13)])
    single = classify(ctx, [Card("S", 13), Card("S", 12)])
    play = [Card("S", 14), Card("S", 9)]
    assert judge_follow(ctx, pair, hand, play).legal is False  # the pair ♠AA must answer
    again = judge_follow(ctx, pair, hand, play)
    assert again.lead is pair and again.legal is False
    other = judge_follow(ctx, single, hand, play)
    assert other.lead is single and other.legal is True


@given(
    st.dictionaries(
        st.sampled_from(["t", "seat", "cards", "legal", "tried", "penalty", "breaks", "x"]),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-(10**6), 10**6),
            st.floats(allow_nan=False, allow_infinity=False),
            st.text(max_size=12),
            st.lists(st.text(max_size=4), max_size=3),
        ),
    )
)
def test_a_log_line_is_the_json_the_standard_writer_gives(event: dict[str, object]) -> None:
    assert _dump(event) == json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def test_card_texts_are_written_with_suit_symbols() -> None:
    cards = [Card("S", 10), Card("H", 14), Card("", 16), Card("", 15), Card("D", 2)]
    assert format_cards(cards) == "♠10 ♥A 大王 小王 ♦2"
    assert format_cards(cards) == format_cards(iter(cards))
    assert format_cards([]) == ""


def test_the_rounds_views_are_the_keyword_views() -> None:
    rs = load_ruleset("classic")
    ctx = Context(rs, 2, "H")
    hand = (Card("S", 2), Card("H", 9))
    decl = ((1, (Card("H", 2),)),)
    lead = classify(ctx, [Card("S", 5)])
    trick = ((0, (Card("S", 5),)),)
    history = (((3, (Card("C", 4),)), (0, (Card("C", 9),))),)
    assert declare_view(2, rs, 2, hand, decl, True, ((0, 1),)) == PlayerView(
        DECLARE, 2, rs, 2, hand, declarations=decl, first_round=True, hidden_declarations=((0, 1),)
    )
    assert lead_view(
        2, rs, 2, hand, ctx, 1, decl, history, 30, (), (Card("D", 3),), (3,), False
    ) == (
        PlayerView(
            LEAD,
            2,
            rs,
            2,
            hand,
            ctx=ctx,
            banker=1,
            declarations=decl,
            history=history,
            attackers_points=30,
            shown_kitty=(Card("D", 3),),
            no_trump=(3,),
            may_throw=False,
        )
    )
    view = follow_view(2, rs, 2, hand, ctx, 1, decl, lead, trick, history, 30, (), (3,))
    assert view == PlayerView(
        FOLLOW,
        2,
        rs,
        2,
        hand,
        ctx=ctx,
        banker=1,
        declarations=decl,
        lead=lead,
        trick=trick,
        history=history,
        attackers_points=30,
        no_trump=(3,),
    )
    assert type(view) is PlayerView and view.options is PlayerView._field_defaults["options"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 10**6))
def test_declaration_options_follow_a_deal_card_by_card(name: str, seed: int) -> None:
    rs, deck = _deal(name, seed)
    level = rs.levels[0] if rs.has_level else None
    hands: list[list[Card]] = [[] for _ in range(rs.players)]
    current: list[tuple[int, tuple[Card, ...]]] = []
    rng = random.Random(seed)
    for i, card in enumerate(deck[: rs.players * rs.hand_size]):
        seat = i % rs.players
        hands[seat].append(card)
        table = tuple(current)
        options = declaration_options(rs, level, table, seat, tuple(hands[seat]))
        assert options == reference_options(rs, level, current, seat, hands[seat])
        if options and rng.random() < 0.3:
            current.append((seat, tuple(rng.choice(options))))
    # A hand that is not the last one grown (a new deal for the same seat) is read afresh.
    assert declaration_options(rs, level, (), 0, deck[-5:]) == reference_options(
        rs, level, [], 0, deck[-5:]
    )
