"""Careless opponents (issue 28): seen throwing a card away at the last seat, never v2."""

from __future__ import annotations

import random

from checker.engine.ruleset import load_ruleset
from checker.play.bots.opponents import careless_opponents
from checker.play.bots.registry import make_players
from checker.play.bots.search import V3Bot
from checker.play.players import FOLLOW, LEAD
from checker.play.round import play_round, round_setup
from checker.play.state import RoundState

from .util import follow_view

FED = [(0, "♠A"), (1, "♠4"), (2, "♠6"), (3, "♠10")]  # seat 3 gives 10 to seat 0's trick


def test_an_opponent_that_fed_a_ten_and_later_showed_a_three_is_careless() -> None:
    history = [FED, [(0, "♠K"), (1, "♠7"), (2, "♠8"), (3, "♠3")]]
    view = follow_view("♣4 ♣5", [(0, "♣A"), (1, "♣3")], 2, history=history, banker=0)
    assert careless_opponents(view) == {3}


def test_a_high_card_to_a_lost_trick_then_a_lower_one_shown_is_careless() -> None:
    high = [(0, "♠A"), (1, "♠4"), (2, "♠6"), (3, "♠9")]
    later = [(0, "♠K"), (1, "♠7"), (2, "♠8"), (3, "♠3")]
    view = follow_view("♣4 ♣5", [(0, "♣A"), (1, "♣3")], 2, history=[high, later], banker=0)
    assert careless_opponents(view) == {3}
    dearer = [(0, "♠K"), (1, "♠7"), (2, "♠8"), (3, "♠10")]  # the later card is no cheaper
    view = follow_view("♣4 ♣5", [(0, "♣A"), (1, "♣3")], 2, history=[high, dearer], banker=0)
    assert careless_opponents(view) == frozenset()


def test_a_partner_or_a_card_kept_in_a_pair_is_no_evidence() -> None:
    alone = [FED, [(0, "♠K"), (1, "♠7"), (2, "♠8"), (3, "♠3")]]
    partner = follow_view("♣4 ♣5", [(0, "♣A")], 1, history=alone, banker=0)
    assert careless_opponents(partner) == frozenset()
    pair = [FED, [(0, "♠K ♠K"), (1, "♠7 ♠9"), (2, "♠8 ♠J"), (3, "♠3 ♠3")]]
    view = follow_view("♣4 ♣5", [(0, "♣A"), (1, "♣3")], 2, history=pair, banker=0)
    assert careless_opponents(view) == frozenset()


def test_a_ten_given_to_its_own_side_is_no_evidence() -> None:
    fed_partner = [(0, "♠Q"), (1, "♠A"), (2, "♠6"), (3, "♠10")]
    later = [(1, "♠K"), (2, "♠7"), (3, "♠3"), (0, "♠8")]
    view = follow_view("♣4 ♣5", [(1, "♣3")], 2, history=[fed_partner, later], banker=0)
    assert careless_opponents(view) == frozenset()


def test_v2_is_never_seen_careless_but_random_players_are() -> None:
    rs = load_ruleset("classic")
    seen = {"v2": 0, "random": 0}
    for name in seen:
        for seed in range(12):
            others = make_players(name, seed, rs.players)
            players = make_players("v2", seed, rs.players)
            players[1], players[3] = others[1], others[3]
            state = RoundState(rs, seed, round_setup(rs, seed), record=False)
            while state.turn is not None:
                seat, phase = state.turn
                view = state.view(seat)
                if seat == 0 and phase in (LEAD, FOLLOW) and careless_opponents(view):
                    seen[name] += 1
                    break
                state.apply(players[seat].choose(view), replace_illegal=True)
    assert seen["v2"] == 0 and seen["random"] >= 3


def test_v3_plays_legally_against_careless_players() -> None:
    rs = load_ruleset("classic")
    players = make_players("random", 3, rs.players)
    players[0] = V3Bot(random.Random(1), 20.0)
    players[2] = V3Bot(random.Random(2), 20.0)
    res = play_round(rs, 3, players)
    assert res.illegal == 0 and res.breaks == []


def test_v3_says_which_opponent_it_plays_out_as_careless() -> None:
    history = [FED, [(0, "♠K"), (1, "♠7"), (2, "♠8"), (3, "♠3")]]
    view = follow_view("♣4 ♣5 ♥3", [(0, "♣A"), (1, "♣3")], 2, history=history, banker=0)
    decision = V3Bot(random.Random(1), 20.0).decide(view)
    assert decision.rule == "v3.search"
    assert "座位 3 曾白白浪费牌" in decision.explanation_for("zh")
    assert "seat 3 has thrown a card away" in decision.explanation_for("en")
