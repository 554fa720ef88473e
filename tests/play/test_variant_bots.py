"""Bots under 二七王 and 双升: bids by permanent trumps, surrender, trump choice, declaring."""

from __future__ import annotations

import random

from checker.engine.ruleset import load_ruleset
from checker.play.bots.bidding import bid_target, choose_bid, choose_trump, should_surrender
from checker.play.bots.v2 import V2Bot
from checker.play.players import BID, DECLARE, PICK_TRUMP, PlayerView

from .util import cards

EQW = load_ruleset("erqiwang")


def _view(phase: str, hand: str, bids: tuple[tuple[int, int | None], ...] = ()) -> PlayerView:
    return PlayerView(phase, 0, EQW, None, cards(hand), bids=bids)


STRONG = (
    "大王 大王 小王 ♠2 ♥2 ♣2 ♦2 ♠7 ♥7 ♣7 ♦7 ♠7 ♠A ♠A ♠K ♠Q ♠J ♠10 ♥5 ♥6 ♣8 ♣9 ♦5 ♦6 ♦8 ♦9 ♥8 ♥9"
)
WEAK = "♠5 ♠6 ♠8 ♥5 ♥6 ♥8 ♥9 ♣5 ♣6 ♣8 ♣9 ♣10 ♦5 ♦6 ♦8 ♦9 ♦J ♦Q ♠9 ♥10 ♥J ♣J ♣Q ♦10 ♠2 ♥7 ♠J ♥Q"


def test_bid_falls_one_step_per_permanent_trump_over_eight() -> None:
    assert bid_target(_view(BID, STRONG), 5, 70, 5) == 70 - 5 * (12 - 8)
    assert bid_target(_view(BID, WEAK), 5, 70, 5) == 70


def test_weak_hand_passes_over_a_standing_bid_strong_hand_underbids() -> None:
    assert choose_bid(_view(BID, WEAK, ((2, 70),)), 5, 70, 5, False) is None
    assert choose_bid(_view(BID, STRONG, ((2, 70),)), 5, 70, 5, False) == 65


def test_surrender_only_a_weak_hand() -> None:
    assert should_surrender(_view(PICK_TRUMP, WEAK))
    assert not should_surrender(_view(PICK_TRUMP, STRONG))


def test_trump_is_the_longest_suit() -> None:
    assert choose_trump(_view(PICK_TRUMP, STRONG)) == "S"


def test_shuangsheng_declares_a_level_pair_during_the_deal() -> None:
    rs = load_ruleset("shuangsheng")
    view = PlayerView(DECLARE, 1, rs, 5, cards("♥5 ♥5 ♥3 ♠9"))
    decision = V2Bot(random.Random(0)).decide(view)
    assert [str(c) for c in decision.cards] == ["♥5", "♥5"]
