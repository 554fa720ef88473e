"""Trick resolution (seed: 三、比牌与“杀牌”规则): who wins, when the lead changed hands, points."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from checker.engine.cards import Card
from checker.engine.combos import classify, structure_key
from checker.engine.errors import PlayError
from checker.engine.order import Context
from checker.engine.ruleset import load_ruleset
from checker.engine.trick import TrickResult, _resolve_singles, _resolve_units, resolve_trick

from .util import cs, deal


def trick(ctx: Context, *plays: str, hands: list[str | None] | None = None) -> TrickResult:
    given = None if hands is None else [None if h is None else cs(h) for h in hands]
    return resolve_trick(ctx, [cs(p) for p in plays], given)


# --- normal comparison ------------------------------------------------------------------------


def test_higher_single_of_the_led_suit_wins() -> None:
    result = trick(deal(2, "H"), "♠9", "♠K", "♠3", "♠A")
    assert result.winner == 3
    assert result.beats == (True, True, False, True)


def test_a_trick_result_is_a_fixed_record_of_its_fields() -> None:
    ctx = deal(2, "H")
    result = trick(ctx, "♠9", "♠K", "♠3", "♠A")
    assert result == trick(ctx, "♠9", "♠K", "♠3", "♠A")
    assert result != trick(ctx, "♠9", "♠K", "♠3", "♠2")
    assert hash(result) == hash(trick(ctx, "♠9", "♠K", "♠3", "♠A"))
    with pytest.raises(AttributeError):
        result.winner = 0  # type: ignore[misc]
    assert not hasattr(result, "__dict__")
    assert repr(result).startswith("TrickResult(winner=3, beats=(True, True, False, True), ")
    assert (result.points, result.plays[1], result.ctx) == (10, tuple(cs("♠K")), ctx)


def test_same_suit_pair_compares_by_rank() -> None:
    result = trick(deal(2, "H"), "♠K ♠K", "♠A ♠A")
    assert (result.winner, result.beats) == (1, (True, True))


def test_other_side_suit_cannot_beat_even_when_higher() -> None:
    result = trick(deal(2, "H"), "♠3", "♦A", "♣A")
    assert result.winner == 0
    assert result.beats == (True, False, False)


def test_side_suit_cannot_beat_a_trump_lead() -> None:
    result = trick(deal(2, "H"), "♥3 ♥3", "♠9 ♠9")
    assert (result.winner, result.beats) == (0, (True, False))


def test_pair_lead_is_not_beaten_by_two_higher_singles() -> None:
    assert trick(deal(2, "H"), "♠9 ♠9", "♠A ♠K").winner == 0


def test_tractor_lead_is_not_beaten_by_two_unconnected_higher_pairs() -> None:
    assert trick(deal(2, "H"), "♠5♠5♠6♠6", "♠9♠9 ♠J♠J").winner == 0


def test_higher_tractor_of_the_same_suit_wins() -> None:
    assert trick(deal(2, "H"), "♠5♠5♠6♠6", "♠9♠9♠10♠10").winner == 1


def test_trump_order_decides_trump_lead() -> None:
    # 打2主♥: ♥A < ♠2 (off-suit level) < ♥2 < 小王 < 大王.
    result = trick(deal(2, "H"), "♥A", "♠2", "♥2", "小王")
    assert result.beats == (True, True, True, True)
    assert trick(deal(2, "H"), "大王", "小王", "♥2", "♥A").winner == 0


def test_offsuit_level_cards_are_equal_and_first_played_wins() -> None:
    result = trick(deal(2, "H"), "♣2", "♦2", "♠2")
    assert result.winner == 0
    assert result.beats == (True, False, False)


def test_equal_ruffs_first_played_wins() -> None:
    result = trick(deal(2, "H"), "♠5", "♣2", "♦2")
    assert result.winner == 1
    assert result.beats == (True, True, False)


# --- ruffing -------------------------------------------------------------------------------------


def test_trump_single_ruffs_a_side_single() -> None:
    result = trick(deal(2, "H"), "♠A", "♥3")
    assert (result.winner, result.beats) == (1, (True, True))


def test_trump_pair_ruffs_a_side_pair() -> None:
    assert trick(deal(2, "H"), "♠9 ♠9", "♥3 ♥3").winner == 1


def test_over_ruff_by_a_higher_trump() -> None:
    result = trick(deal(2, "H"), "♠3", "♥4", "♥5", "♥3")
    assert result.winner == 2
    assert result.beats == (True, True, True, False)


def test_over_ruff_of_a_pair_by_a_higher_trump_pair() -> None:
    result = trick(deal(2, "H"), "♠9 ♠9", "♥3 ♥3", "♥4 ♥4", "♥A ♥K")
    assert result.winner == 2
    assert result.beats == (True, True, True, False)


def test_offsuit_level_cards_of_two_suits_cannot_ruff_a_pair() -> None:
    assert trick(deal(2, "H"), "♠9 ♠9", "♣2 ♦2").winner == 0


def test_offsuit_level_pairs_are_equal_and_trump_suit_level_pair_beats_them() -> None:
    assert trick(deal(2, "H"), "♣2 ♣2", "♦2 ♦2").winner == 0
    assert trick(deal(2, "H"), "♣2 ♣2", "♦2 ♦2", "♥2 ♥2").winner == 2


def test_trump_tractor_across_the_level_cards_ruffs_a_side_tractor() -> None:
    # ♥A♥A ♠2♠2 is a tractor when playing 2 with hearts trump.
    assert trick(deal(2, "H"), "♦5♦5♦6♦6", "♥A♥A ♠2♠2").winner == 1


def test_side_suit_card_cannot_beat_after_a_ruff() -> None:
    result = trick(deal(2, "H"), "♠3", "♥4", "♠A")
    assert result.winner == 1
    assert result.beats == (True, True, False)


def test_ruff_must_match_the_structure_of_a_pair() -> None:
    # Two trump singles (♥3 ♥6) cannot kill the pair ♦Q♦Q.
    result = trick(deal(2, "H"), "♦Q ♦Q", "♥3 ♥6")
    assert (result.winner, result.beats) == (0, (True, False))


def test_ruff_must_match_the_structure_of_a_tractor() -> None:
    result = trick(deal(2, "H"), "♦5♦5♦6♦6", "♥9♥9 ♥Q♥Q")
    assert result.winner == 0
    assert trick(deal(2, "H"), "♦5♦5♦6♦6", "♥3♥3♥4♥4").winner == 1


def test_mixed_suit_and_trump_play_cannot_win() -> None:
    result = trick(deal(2, "H"), "♠3 ♠3", "♠4 ♥A")
    assert (result.winner, result.beats) == (0, (True, False))


def test_trump_mixed_with_another_side_suit_cannot_ruff() -> None:
    assert trick(deal(2, "H"), "♠3 ♠3", "♥A ♦4").winner == 0


# --- throws ------------------------------------------------------------------------------------


def test_same_suit_follow_never_beats_a_throw() -> None:
    # ♠A would beat the single ♠K and ♠K♠K the pair ♠5♠5, yet same-suit follows never win.
    result = trick(deal(2, "H"), "♠K ♠Q ♠Q", "♠A ♠J ♠J")
    assert (result.winner, result.beats) == (0, (True, False))
    assert trick(deal(2, "H"), "♠9 ♠5 ♠5", "♠A ♠K ♠K").winner == 0


def test_trump_throw_cannot_be_beaten_by_higher_trumps() -> None:
    assert trick(deal(2, "H"), "♥9 ♥8 ♥8", "大王 小王 小王").winner == 0


def test_any_trumps_of_the_same_count_kill_a_singles_throw() -> None:
    # 领 ♦3 ♦4: ♥3♥6 kills; ♥4♥4 also has the count.
    assert trick(deal(2, "H"), "♦3 ♦4", "♥3 ♥6").winner == 1
    assert trick(deal(2, "H"), "♦3 ♦4", "♥4 ♥4").winner == 1


def test_several_ruffs_of_a_singles_throw_compare_the_largest_single() -> None:
    # A ♥3♥6 then B ♥4♥4: ♥6 > ♥4, A keeps it; the pair ♥4♥4 gains nothing.
    result = trick(deal(2, "H"), "♦3 ♦4", "♥3 ♥6", "♥4 ♥4")
    assert result.winner == 1
    assert result.beats == (True, True, False)
    other_order = trick(deal(2, "H"), "♦3 ♦4", "♥4 ♥4", "♥3 ♥6")
    assert other_order.winner == 2
    assert other_order.beats == (True, True, True)


def test_ruff_of_a_throw_with_a_pair_needs_a_pair() -> None:
    assert trick(deal(2, "H"), "♦Q ♦Q ♦3", "♥3 ♥6 ♥9").winner == 0
    assert trick(deal(2, "H"), "♦Q ♦Q ♦3", "♥3 ♥3 ♥9").winner == 1


def test_tractor_ruff_covers_a_throw_of_two_pairs() -> None:
    assert trick(deal(2, "H"), "♦3♦3 ♦9♦9", "♥5♥5♥6♥6").winner == 1
    assert trick(deal(2, "H"), "♦3♦3 ♦9♦9", "♥5♥5 ♥9♥9").winner == 1


def test_two_pairs_do_not_cover_a_throw_with_a_tractor() -> None:
    result = trick(deal(2, "H"), "♠3♠3♠4♠4 ♠K", "♥5♥5♥6♥6♥J", "♥7♥7 ♥9♥9 ♥A")
    assert result.winner == 1
    assert result.beats == (True, True, False)
    alone = trick(deal(2, "H"), "♠3♠3♠4♠4 ♠K", "♥7♥7 ♥9♥9 ♥A")
    assert alone.winner == 0


def test_more_pairs_cover_fewer_pairs_and_singles() -> None:
    # ♦8♦8♦9♦9♦K (trump ♦) kills ♠4♠4 ♠3 ♠5 ♠7: a pair where the lead has a single is fine.
    assert trick(deal(2, "D"), "♠4♠4 ♠3 ♠5 ♠7", "♦8♦8♦9♦9♦K").winner == 1


def test_ruffers_of_a_throw_compare_tractors_first() -> None:
    ctx = deal(2, "H")
    lead = "♠3♠3♠4♠4 ♠K"
    result = trick(ctx, lead, "♥5♥5♥6♥6 ♥A", "♥7♥7♥8♥8 ♥3")
    assert result.winner == 2


def test_ruffers_of_a_throw_compare_pairs_when_tractors_tie_on_layer() -> None:
    # Lead has no tractor: a ruffer's tractor counts only as pairs by rank.
    # 主♦打2, 领 ♥7♥7♥9♥9♥K: ♦6♦6♦7♦7♦9 (top pair ♦7) beats ♦3♦3♦5♦5♦7 (top pair ♦5).
    ctx = deal(2, "D")
    result = trick(ctx, "♥7♥7♥9♥9♥K", "♦3♦3♦5♦5♦7", "♦6♦6♦7♦7♦9")
    assert result.winner == 2
    # and ♦3♦3♦8♦8♦10 (top pair ♦8) then beats ♦6♦6♦7♦7♦9
    result = trick(ctx, "♥7♥7♥9♥9♥K", "♦6♦6♦7♦7♦9", "♦3♦3♦8♦8♦10")
    assert result.winner == 2


def test_ruffers_with_equal_pairs_compare_singles() -> None:
    # ♣2♣2 and ♠2♠2 are equal off-suit level pairs; the single decides.
    ctx = deal(2, "D")
    result = trick(ctx, "♠9♠9 ♠3", "♣2♣2 ♦4", "♠2♠2 ♦A")
    assert result.winner == 2


def test_identical_ruffs_first_ruffer_wins() -> None:
    ctx = deal(2, "D")
    result = trick(ctx, "♠9♠9 ♠3", "♣2♣2 ♦4", "♠2♠2 ♦4")
    assert result.winner == 1
    assert result.beats == (True, True, False)
    result = trick(ctx, "♠9 ♠3", "♦K ♣2", "♦K ♠2")
    assert result.winner == 1
    assert result.beats == (True, True, False)


# --- ruff_tiebreak option on the seed's example ----------------------------------------------


def test_ruff_tiebreak_top_unit_is_the_default_first_ruffer_wins() -> None:
    # 打4主♥, 领 ♦9♦8; A ♣4+♥3, B ♠4♦4: top singles are equal off-suit 4s.
    ctx = deal(4, "H")
    result = trick(ctx, "♦9 ♦8", "♣4 ♥3", "♠4 ♦4")
    assert result.winner == 1
    assert result.beats == (True, True, False)


def test_ruff_tiebreak_every_unit_compares_the_next_single() -> None:
    # Rule text: “若相同比下一张”: ♦4 (off-suit level) > ♥3, so B wins.
    ctx = deal(4, "H", ruff_tiebreak="every_unit")
    result = trick(ctx, "♦9 ♦8", "♣4 ♥3", "♠4 ♦4")
    assert result.winner == 2
    assert result.beats == (True, True, True)


def test_ruff_tiebreak_every_unit_still_first_wins_when_all_equal() -> None:
    ctx = deal(4, "H", ruff_tiebreak="every_unit")
    assert trick(ctx, "♦9 ♦8", "♣4 ♠4", "♦4 ♣4").winner == 1


# --- points ------------------------------------------------------------------------------------


def test_points_count_fives_tens_and_kings_of_every_play() -> None:
    result = trick(deal(2, "H"), "♠5", "♠10", "♠K", "♥5")
    assert result.points == 30


def test_points_zero_without_point_cards() -> None:
    assert trick(deal(2, "H"), "♠A ♠A", "♠3 ♠4", "♥Q ♥Q", "♦9 ♦8").points == 0


def test_points_of_a_throw_trick() -> None:
    assert trick(deal(2, "H"), "♠K♠K ♠5", "♥10♥10 ♥3", "♠3 ♠4 ♠6").points == 45


# --- with hands given ------------------------------------------------------------------------


def test_with_hands_a_trump_play_while_holding_the_suit_is_illegal_and_cannot_win() -> None:
    result = trick(deal(2, "H"), "♠3", "♥A", hands=["♠3", "♥A ♠4"])
    assert result.winner == 0
    assert result.legal == (True, False)
    assert result.beats == (True, False)


def test_with_hands_a_void_player_may_ruff() -> None:
    result = trick(deal(2, "H"), "♠3", "♥A", hands=["♠3", "♥A ♦4"])
    assert result.winner == 1
    assert result.legal == (True, True)


def test_with_hands_short_suit_plays_it_and_cannot_ruff() -> None:
    # One spade left: must play it with a trump; mixed play does not win.
    result = trick(deal(2, "H"), "♠3 ♠3", "♠4 ♥A", hands=["♠3 ♠3", "♠4 ♥A ♥A"])
    assert result.legal == (True, True)
    assert result.winner == 0


def test_with_hands_illegal_same_suit_follow_cannot_win() -> None:
    # Holding ♠A♠A the follower must play the pair; ♠A ♠4 is illegal though higher.
    result = trick(deal(2, "H"), "♠9 ♠9", "♠A ♠4", hands=["♠9 ♠9", "♠A ♠A ♠4"])
    assert result.legal == (True, False)
    assert result.winner == 0


def test_with_hands_unknown_hand_is_taken_as_legal() -> None:
    result = trick(deal(2, "H"), "♠3", "♥A", "♠A", hands=["♠3", None, "♠A ♦5"])
    assert result.legal == (True, None, True)
    assert result.winner == 1


def test_with_hands_the_count_must_match_the_plays() -> None:
    with pytest.raises(PlayError):
        trick(deal(2, "H"), "♠3", "♠4", hands=["♠3"])


def test_a_lead_that_cannot_be_led_is_an_error() -> None:
    with pytest.raises(PlayError):
        trick(deal(2, "H"), "♠3 ♦4", "♠5 ♠6")


def test_no_plays_is_an_error() -> None:
    with pytest.raises(PlayError):
        resolve_trick(deal(2, "H"), [])


def test_wrong_count_follow_cannot_win() -> None:
    assert trick(deal(2, "H"), "♠3 ♠3", "♥A ♥A ♥K").winner == 0


def test_explanation_names_the_winner() -> None:
    result = trick(deal(2, "H"), "♠3", "♥4")
    assert "第1手" in result.explanation


# --- property: single leads, written directly from the seed -------------------------------------

FACES = sorted(deal(2, "H").deck)


def expected_single_winner(ctx: Context, plays: list[Card]) -> int:
    """Trumps beat the side suit; otherwise only the led suit counts; ties: first played."""
    led = ctx.group(plays[0])

    def strength(card: Card) -> tuple[int, int]:
        if ctx.is_trump(card):
            return (2, ctx.pos(card))
        if ctx.group(card) == led:
            return (1, ctx.pos(card))
        return (0, 0)

    best = 0
    for i, card in enumerate(plays[1:], start=1):
        if strength(card) > strength(plays[best]):
            best = i
    return best


@settings(max_examples=400, deadline=None)
@given(
    plays=st.lists(st.sampled_from(FACES), min_size=2, max_size=4).filter(
        lambda xs: max(Counter(xs).values()) <= 2
    ),
    level=st.sampled_from(["2", "7", "T", "A"]),
    trump=st.sampled_from(["S", "H", None]),
)
def test_single_lead_winner_follows_the_seed_order(
    plays: list[Card], level: str, trump: str | None
) -> None:
    ctx = deal(level, trump)
    result = resolve_trick(ctx, [[x] for x in plays])
    assert result.winner == expected_single_winner(ctx, plays)
    assert result.winner == max(i for i, took in enumerate(result.beats) if took)
    assert result.points == sum(x.points for x in plays)


def expected_pair_winner(ctx: Context, plays: list[list[Card]]) -> int:
    """Only a real pair can win: a trump pair over the side suit, else a higher led-suit pair."""
    led = ctx.group(plays[0][0])

    def strength(play: list[Card]) -> tuple[int, int]:
        a, b = play
        if a != b:
            return (0, 0)
        if ctx.is_trump(a):
            return (2, ctx.pos(a))
        if ctx.group(a) == led:
            return (1, ctx.pos(a))
        return (0, 0)

    best = 0
    for i, play in enumerate(plays[1:], start=1):
        if strength(play) > strength(plays[best]):
            best = i
    return best


PAIR_OR_TWO = st.one_of(
    st.sampled_from(FACES).map(lambda x: [x, x]),
    st.lists(st.sampled_from(FACES), min_size=2, max_size=2),
)


@settings(max_examples=400, deadline=None)
@given(
    lead=st.sampled_from(FACES).map(lambda x: [x, x]),
    follows=st.lists(PAIR_OR_TWO, min_size=1, max_size=3),
    level=st.sampled_from(["2", "7", "A"]),
    trump=st.sampled_from(["S", "D", None]),
)
def test_pair_lead_winner_follows_the_seed_order(
    lead: list[Card], follows: list[list[Card]], level: str, trump: str | None
) -> None:
    plays = [lead, *follows]
    assume(max(Counter(x for p in plays for x in p).values()) <= 2)
    ctx = deal(level, trump)
    result = resolve_trick(ctx, plays)
    assert result.winner == expected_pair_winner(ctx, plays)


# --- several ruffs of a throw with pairs or tractors: layer by layer, unit by unit -------------


def test_ruff_tiebreak_by_throw_compares_the_next_pair_when_the_biggest_pairs_are_equal() -> None:
    # 含对子的甩牌: 最大的对子相同比下一个对子 (the text), before any single.
    ctx = deal(2, "S")
    result = trick(ctx, "♣A♣A ♣Q♣Q ♣5", "♥2♥2 ♠5♠5 ♠A", "♦2♦2 ♠9♠9 ♠3")
    assert result.winner == 2
    assert result.beats == (True, True, True)
    assert "逐个比" in result.explanation_for("zh")


def test_ruff_tiebreak_top_unit_compares_only_the_biggest_pair_then_the_biggest_single() -> None:
    ctx = deal(2, "S", ruff_tiebreak="top_unit")
    result = trick(ctx, "♣A♣A ♣Q♣Q ♣5", "♥2♥2 ♠5♠5 ♠A", "♦2♦2 ♠9♠9 ♠3")
    assert result.winner == 1
    assert "only the biggest unit of each layer" in result.explanation_for("en")


def test_ruff_tiebreak_by_throw_keeps_the_example_for_throws_of_singles() -> None:
    ctx = deal(4, "H", ruff_tiebreak="by_throw")
    assert trick(ctx, "♦9 ♦8", "♣4 ♥3", "♠4 ♦4").winner == 1


def test_ruff_reads_the_play_in_any_arrangement_of_the_lead_tractors() -> None:
    # Lead tractors of 3, 2 and 2 pairs; the ruff's runs are ♠7–♠10 (4) and ♠3–♠5 (3). Only
    # 3 + (2 + 2) fits; cutting the 3 out of the higher run leaves no room for the 2s.
    ctx = deal(2, "S")
    lead = "♣3♣3♣4♣4♣5♣5 ♣7♣7♣8♣8 ♣10♣10♣J♣J"
    result = trick(ctx, lead, "♠7♠7♠8♠8♠9♠9♠10♠10 ♠3♠3♠4♠4♠5♠5")
    assert result.winner == 1


def test_ruff_tractors_are_compared_in_the_lead_order_longest_first() -> None:
    # Lead a 3-pair and a 2-pair tractor. Play A's 3-pair tractor tops at ♠8, play B's at ♠Q:
    # the longest tractors are compared first, whatever the 2-pair tractors are. (A and B
    # cannot meet in one trick; their keys are compared directly.)
    ctx = deal(2, "S")
    lead = classify(ctx, cs("♣3♣3♣4♣4♣5♣5 ♣8♣8♣9♣9"))
    a = structure_key(ctx, lead, cs("♠6♠6♠7♠7♠8♠8 ♠J♠J♠Q♠Q"))
    b = structure_key(ctx, lead, cs("♠10♠10♠J♠J♠Q♠Q ♠3♠3♠4♠4"))
    assert a is not None and b is not None
    assert b.value(True) > a.value(True)
    assert b.value(False) > a.value(False)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(("classic", "erqiwang", "multideck", "shuangsheng")),
    st.integers(0, 10**6),
    st.sampled_from(("S", "H", "C", "D", None)),
    st.booleans(),
)
def test_a_one_card_trick_is_resolved_as_the_general_rule_resolves_it(
    name: str, seed: int, trump: str | None, with_hands: bool
) -> None:
    rs = load_ruleset(name)
    ctx = Context(rs, rs.levels[0] if rs.has_level else None, trump)
    deck = sorted(ctx.deck) * rs.decks
    rng = Random(seed)
    rng.shuffle(deck)
    hands = [deck[i * 12 : i * 12 + 12] for i in range(rs.players)]
    # Any card of each hand (often revoking), now and then two cards (the wrong size).
    plays = [rng.sample(h, 2 if i and rng.random() < 0.1 else 1) for i, h in enumerate(hands)]
    lead = classify(ctx, plays[0])
    given_hands = hands if with_hands else None
    answers = []
    for resolve in (_resolve_singles, _resolve_units):
        beats: list[bool] = [True]
        legal: list[bool | None] = [None]
        notes: list[tuple[str, int, str]] = []
        best = resolve(ctx, lead, plays, given_hands, beats, legal, notes)
        answers.append((best, beats, legal, notes))
    assert answers[0] == answers[1]
