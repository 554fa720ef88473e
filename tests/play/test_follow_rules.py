"""Follow rules of the bots, each test named after the clause of seed 000 it checks."""

from __future__ import annotations

import random

from checker.engine.follow import judge_follow
from checker.play.bots.v1 import V1Bot
from checker.play.bots.v2 import V2Bot
from checker.play.players import PlayerView

from .util import cards, follow_view

V1 = V1Bot(random.Random(0))
V2 = V2Bot(random.Random(0))


def _play(bot: V1Bot | V2Bot, view: PlayerView) -> list[str]:
    decision = bot.decide(view)
    assert view.ctx is not None and view.lead is not None
    assert judge_follow(view.ctx, view.lead, view.hand, decision.cards).legal
    return sorted(str(c) for c in decision.cards)


def test_middle_seat_blocks_with_smallest_trump_above_trump_king() -> None:
    view = follow_view("♠4 ♠Q ♠A 大王 ♥6 ♥7", [(3, "♦9")], 0, trump="S")
    assert _play(V2, view) == ["♠A"]


def test_middle_seat_without_trump_above_king_makes_a_void() -> None:
    view = follow_view("♠Q ♣3 ♥6 ♥7", [(3, "♦9")], 0, trump="S")
    assert _play(V2, view) == ["♣3"]


def test_v1_ruffs_cheaply_instead_of_blocking() -> None:
    view = follow_view("♠4 ♠Q ♠A ♥6 ♥7 ♣3", [(3, "♦9")], 0, trump="S")
    assert _play(V1, view) == ["♠4"]


def test_void_discard_spends_ten_only_with_over_20_unseen_and_a_trump_kept() -> None:
    history = [[(3, "♦A"), (0, "♦4"), (1, "♦5"), (2, "♦5")]]
    with_trump = follow_view("♠7 ♦K ♥6 ♥8", [(3, "♣8")], 0, trump="S", history=history)
    assert _play(V2, with_trump) == ["♦K"]
    no_trump = follow_view("♦K ♥6 ♥8", [(3, "♣8")], 0, trump="S", history=history)
    assert _play(V2, no_trump) == ["♥6"]


def test_last_seat_keeps_trumps_on_a_pointless_trick() -> None:
    view = follow_view("♦3 ♦4 ♣6 ♣9 ♣J", [(0, "♠7"), (1, "♠8"), (2, "♠9")], 3, trump="D")
    assert _play(V2, view) == ["♣6"]


def test_last_seat_collects_points_with_trump_ten_before_king_and_five() -> None:
    view = follow_view("♦5 ♦K ♦10 ♣6", [(0, "♠7"), (1, "♠8"), (2, "♠9")], 3, trump="D")
    assert _play(V2, view) == ["♦10"]


def test_feeds_partner_only_when_no_later_opponent_can_take_it() -> None:
    # Partner (seat 1) leads ♥K; seat 0 after seat 3 may hold an unseen ♥A: v2 keeps its 10.
    unsafe = follow_view("♥10 ♥4 ♣3", [(1, "♥K")], 3, trump="S")
    assert _play(V2, unsafe) == ["♥4"]
    assert _play(V1, unsafe) == ["♥10"]
    # Last to play after the partner's winning ♥K: nobody can take it, so v2 feeds the 10.
    safe = follow_view("♥10 ♥4 ♣3", [(2, "♥5"), (3, "♥K"), (0, "♥6")], 1, trump="S")
    assert _play(V2, safe) == ["♥10"]


def test_cheapest_pair_that_beats_the_current_winner() -> None:
    view = follow_view("♣4 ♣4 ♣J ♣J ♣A ♣A ♦3", [(3, "♣9 ♣9"), (0, "♣10 ♣10")], 1, trump="S")
    assert _play(V2, view) == ["♣J", "♣J"]


def test_tractor_follow_shows_the_pairs_and_keeps_points() -> None:
    view = follow_view("♠Q ♠Q ♠5 ♠4 ♠3 ♠10 ♦7", [(1, "♠7 ♠7 ♠8 ♠8")], 2, trump="H")
    played = _play(V2, view)
    assert played.count("♠Q") == 2 and "♠5" not in played and "♠10" not in played


def test_short_of_suit_plays_all_of_it_then_discards() -> None:
    view = follow_view("♥3 ♦4 ♦9 ♣6", [(1, "♥8 ♥8")], 2, trump="S")
    assert "♥3" in _play(V2, view)


def test_decision_cards_are_always_a_legal_follow_on_trump_throws() -> None:
    view = follow_view("♣K ♣K ♣7 ♣6 ♣5 ♣4 ♦3", [(1, "♣8 ♣8 ♣9 ♣9 ♣A")], 2, trump="C")
    for bot in (V1, V2):
        assert "♦3" not in _play(bot, view)


def test_hand_cards_unchanged_by_deciding() -> None:
    view = follow_view("♣K ♦4 ♣3", [(1, "♣7")], 2)
    before = view.hand
    V2.decide(view)
    assert view.hand == before == cards("♣K ♦4 ♣3")


def test_discarding_trumps_is_not_called_discarding_point_cards() -> None:
    # Void in clubs with only trumps left while the partner wins: v2 plays its smallest trump
    # and says so (it used to say 只有分牌可垫, only point cards to discard).
    view = follow_view("♠3 ♠4 大王", [(0, "♣A"), (1, "♣3")], 2, trump="S", banker=0)
    decision = V2.decide(view)
    zh, en = decision.explanation_for("zh"), decision.explanation_for("en")
    assert "只有分牌" not in zh and "only point cards" not in en
    if decision.rule.endswith("_smallest_trumps"):
        assert "主" in zh and "trump" in en


def test_discard_names_low_points_only_when_point_cards_go() -> None:
    from checker.play.bots.follow import discard
    from checker.play.bots.memory import read_memory

    view = follow_view("♠3 ♠4 ♦5 大王", [(0, "♣A"), (1, "♣3")], 2, trump="S", banker=0)
    assert view.ctx is not None
    mem = read_memory(view.ctx, 2, view.hand, (), view.trick)
    only_trumps = discard(view.ctx, mem, cards("♠3 ♠4 大王"), 1, V2.style, feed=False)
    assert only_trumps == ([*cards("♠3")], "smallest_trumps")
    both = discard(view.ctx, mem, cards("♠3 ♠4 ♦5"), 2, V2.style, feed=False, spend=False)
    assert sorted(map(str, both[0])) == sorted(map(str, cards("♦5 ♠3")))
    assert both[1] == "low_points_trumps"
