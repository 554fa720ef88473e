"""Bot v3 (issue 28): deals sampled from the seat's view only, rounds placed mid-play, the
budget, determinism, legality and explanations."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.core.management import CommandError, call_command

from checker.engine.cards import Card
from checker.engine.order import make_context
from checker.engine.ruleset import load_ruleset
from checker.play.bots.registry import make_bot, make_players
from checker.play.bots.sampling import draw_deals, read_knowledge
from checker.play.bots.search import (
    LEVEL_WORTH,
    MIN_DEALS,
    ROUND_WORTH,
    BudgetError,
    V3Bot,
    better_than_first,
    plan,
    read_budget,
    side_value,
)
from checker.play.bots.v2 import V2Bot
from checker.play.moves import Move
from checker.play.players import FOLLOW, LEAD, PlayerView
from checker.play.position import round_at
from checker.play.round import RoundResult, play_round, round_setup
from checker.play.state import RoundState

from .test_bury_rules import STRONG_WITH_A_TEN
from .util import cards as parse
from .util import follow_view

FAST = 20.0  # ms: a few deals a decision, enough to test the machinery


def _midround(seed: int, tricks: int) -> RoundState:
    """Deal a classic round and let v2 play it for some tricks; return the state."""
    rs = load_ruleset("classic")
    players = make_players("v2", seed, rs.players)
    state = RoundState(rs, seed, round_setup(rs, seed), record=False)
    while state.turn is not None:
        seat, phase = state.turn
        view = state.view(seat)
        if phase == FOLLOW and len(view.history) >= tricks and view.trick:
            break
        state.apply(players[seat].choose(view), replace_illegal=True)
    return state


def _view(state: RoundState) -> PlayerView:
    assert state.turn is not None
    return state.view(state.turn.seat)


def test_sampled_deals_hold_only_unseen_cards_in_the_right_counts_and_voids() -> None:
    state = _midround(5, 8)
    view = _view(state)
    know = read_knowledge(view)
    seen = Counter(view.hand) + Counter(c for t in view.history for _, cs in t for c in cs)
    seen += Counter(c for _, cs in view.trick for c in cs) + Counter(view.kitty)
    deck = Counter({c: 2 for c in view.ctx.deck}) if view.ctx else Counter()
    for deal in draw_deals(view, 10, random.Random(1)):
        assert deal.hands[view.seat] == view.hand
        held = Counter(c for s, h in enumerate(deal.hands) if s != view.seat for c in h)
        held += Counter(deal.kitty) if view.seat != view.banker else Counter()
        assert held + seen == deck
        for s, size in know.sizes.items():
            assert len(deal.hands[s]) == size == len(state.hands[s])
            key = view.ctx.key if view.ctx else {}
            assert not any(key[c][0] in know.voids.get(s, ()) for c in deal.hands[s])


def test_a_declarer_keeps_the_declaring_cards_it_has_not_played() -> None:
    state = _midround(2, 1)
    view = _view(state)
    know = read_knowledge(view)
    for deal in draw_deals(view, 5, random.Random(2)):
        for s, cards in know.held.items():
            assert not Counter(cards) - Counter(deal.hands[s])


def test_round_at_rebuilds_the_view_it_was_given() -> None:
    state = _midround(7, 5)
    view = _view(state)
    deal = draw_deals(view, 1, random.Random(3))[0]
    placed = round_at(view, deal.hands, deal.kitty)
    again = placed.view(view.seat)
    for field in ("phase", "seat", "hand", "trick", "history", "banker", "attackers_points"):
        assert getattr(again, field) == getattr(view, field), field
    assert again.lead == view.lead
    # Every field a RoundState keeps is set (a field added to the state must be placed too).
    missing = [name for name in RoundState.__slots__ if not hasattr(placed, name)]
    assert not missing, missing


def test_the_choice_depends_only_on_the_view_not_on_the_hidden_hands() -> None:
    state = _midround(11, 6)
    view = _view(state)
    deals = draw_deals(view, 2, random.Random(9))
    # Two rounds showing the seat the same table but dealing the others differently.
    a = round_at(view, deals[0].hands, deals[0].kitty)
    b = round_at(view, deals[1].hands, deals[1].kitty)
    assert a.hands != b.hands
    seat = view.seat
    first = V3Bot(random.Random(4), FAST).decide(a.view(seat))
    second = V3Bot(random.Random(4), FAST).decide(b.view(seat))
    assert first.cards == second.cards
    assert first.explanation_for("zh") == second.explanation_for("zh")
    assert first.explanation_for("en") == second.explanation_for("en")


def test_the_same_view_gets_the_same_answer_whatever_the_bot_decided_before() -> None:
    view = _view(_midround(3, 4))
    fresh = V3Bot(random.Random(8), FAST)
    used = V3Bot(random.Random(8), FAST)
    used.decide(_view(_midround(4, 2)))
    assert fresh.decide(view).cards == used.decide(view).cards


def test_v3_explains_its_search_in_both_languages() -> None:
    view = _view(_midround(5, 3))
    decision = V3Bot(random.Random(1), FAST).decide(view)
    zh, en = decision.explanation_for("zh"), decision.explanation_for("en")
    assert decision.rule.startswith("v3.")
    if decision.rule == "v3.search":
        assert "种可能的牌局" in zh and "平均为本方多得" in zh
        assert "possible deals" in en and "points on average" in en


def test_v3_plays_whole_rounds_without_an_illegal_play() -> None:
    rs = load_ruleset("classic")
    players = make_players("v2", 1, rs.players)
    players[0] = V3Bot(random.Random(1), FAST)
    players[2] = V3Bot(random.Random(2), FAST)
    res = play_round(rs, 1, players)
    assert res.illegal == 0 and res.breaks == []


def test_v3_leads_sensibly_with_one_card_kinds() -> None:
    # One card left: nothing to search, v2's play with v3's words.
    view = follow_view("♣K", [(1, "♣7")], 2, banker=0)
    decision = make_bot("v3", random.Random(0)).decide(view)
    assert decision.cards == view.hand and decision.rule == "v3.single"
    assert "v3" in decision.explanation_for("en")


@pytest.mark.parametrize("text", ["abc", "0", "-5", "nan", "inf", ""])
def test_a_budget_that_is_not_a_positive_number_is_refused_naming_it(text: str) -> None:
    with pytest.raises(BudgetError) as err:
        read_budget(text)
    assert f"'{text}'" in err.value.message_en


def test_the_budget_buys_fewer_candidates_before_fewer_deals() -> None:
    tried, deals = plan(400, 8, 25, 4)
    assert deals >= MIN_DEALS and 2 <= tried < 8
    tried, deals = plan(400, 8, 3, 4)
    assert tried == 8 and deals > MIN_DEALS
    assert read_budget("250") == 250.0


@pytest.mark.parametrize("command", ["duel", "simulate"])
def test_commands_refuse_a_bad_budget_with_its_value(command: str) -> None:
    args = ["--bots", "v3", "v2"] if command == "duel" else ["--players", "v3"]
    with pytest.raises(CommandError) as err:
        call_command(command, *args, "--budget", "-3")
    assert "'-3'" in str(err.value) and "positive" in str(err.value)


def test_lead_views_are_searched_too() -> None:
    state = _midround(6, 2)
    while state.turn is not None and state.turn.phase != LEAD:
        seat = state.turn.seat
        view = state.view(seat)
        state.apply(make_bot("v2", random.Random(0)).choose(view))
    view = _view(state)
    decision = V3Bot(random.Random(1), FAST).decide(view)
    assert decision.rule in ("v3.search", "v3.single")
    assert all(isinstance(c, Card) for c in decision.cards)


def test_the_order_of_the_hand_does_not_change_the_answer() -> None:
    view = _view(_midround(9, 5))
    mixed = view._replace(hand=tuple(reversed(view.hand)))
    first = V3Bot(random.Random(2), FAST).decide(view)
    second = V3Bot(random.Random(2), FAST).decide(mixed)
    assert sorted(first.cards) == sorted(second.cards)
    assert first.explanation_for("en") == second.explanation_for("en")


def test_v3_plays_a_bidding_round_of_erqiwang_legally() -> None:
    # Under bidding the bid is not in a seat's view: v3 values points only there.
    rs = load_ruleset("erqiwang")
    players = make_players("v2", 2, rs.players)
    players[0] = V3Bot(random.Random(1), 5)
    res = play_round(rs, 2, players)
    assert res.illegal == 0 and res.breaks == []


def test_searchbench_times_a_25_card_first_lead() -> None:
    from checker.perf.searchbench import measure

    figures = measure("classic", 1, 5.0, 1)
    assert figures["hand_cards"] == [25] and figures["cpu_median_ms"] > 0


def test_the_banker_following_knows_the_kitty_it_buried_and_nothing_else() -> None:
    rs = load_ruleset("classic")
    players = make_players("v2", 4, rs.players)
    state = RoundState(rs, 4, round_setup(rs, 4), record=False)
    bot = V3Bot(random.Random(1), FAST)
    buried: tuple[Card, ...] = ()
    while state.turn is not None:
        seat, phase = state.turn
        view = state.view(seat)
        if phase == "bury":
            buried = bot.decide(view).cards
            state.apply(Move("cards", buried))
            continue
        if phase == FOLLOW and seat == view.banker and buried:
            break
        state.apply(players[seat].choose(view), replace_illegal=True)
    view = _view(state)
    assert view.kitty == () and Counter(state.kitty) == Counter(buried)
    known = bot._remembered(view)
    assert Counter(known.kitty) == Counter(buried)
    for deal in draw_deals(known, 3, random.Random(5)):
        assert Counter(deal.kitty) == Counter(buried)
    # Another seat's view is never given the kitty.
    other = view._replace(seat=(view.seat + 1) % 4)
    assert bot._remembered(other).kitty == ()


def test_v3_buries_no_void_that_puts_a_ten_at_risk_where_v2_would() -> None:
    rs = load_ruleset("classic")
    view = PlayerView("bury", 1, rs, 3, parse(STRONG_WITH_A_TEN), ctx=make_context(rs, 3, "S"))
    view = view._replace(banker=1)
    v2 = V2Bot(random.Random(0)).decide(view)
    bot = V3Bot(random.Random(0), FAST)
    v3 = bot.decide(view)
    assert "♦10" in {str(c) for c in v2.cards} and "♦10" not in {str(c) for c in v3.cards}
    assert bot.buried == v3.cards and v3.rule == "v3.bury"
    zh, en = v3.explanation_for("zh"), v3.explanation_for("en")
    assert "丢底的险" in zh and "不扣光♦" in zh
    assert "risk of losing the kitty" in en and "keeps ♦" in en


def test_losing_the_round_costs_the_side_more_than_the_points_across_the_line() -> None:
    def result(points: int, winner: str, rise: int) -> RoundResult:
        res = RoundResult("classic", 0, round_setup(load_ruleset("classic"), 0))
        res.attackers_points, res.winner, res.rise = points, winner, rise
        return res

    held, lost = result(75, "banker", 1), result(80, "attackers", 0)
    assert side_value(False, True, held) == -75 + ROUND_WORTH + LEVEL_WORTH
    assert side_value(False, True, lost) == -80 - ROUND_WORTH
    assert side_value(False, False, lost) == 80 + ROUND_WORTH
    assert side_value(True, True, lost) == -80  # settled by a bid the view does not show


@pytest.mark.parametrize(("deals", "gain"), [(3, 35.0), (7, 15.0), (11, 80.0), (6, 35.0)])
def test_a_play_better_on_one_deal_alone_is_one_standard_error_up_whatever_the_rounding(
    deals: int, gain: float
) -> None:
    first = [0.0] * deals
    assert better_than_first([*first[1:], gain], first)
    assert not better_than_first([*first[1:], -gain], first)
