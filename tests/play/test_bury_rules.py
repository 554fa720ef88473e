"""Bury rules: deterministic, legal, weak hands keep points, strong hands empty short suits."""

from __future__ import annotations

import random
from collections import Counter

from checker.engine.cards import Card
from checker.engine.order import make_context
from checker.engine.ruleset import load_ruleset
from checker.play.bots.v2 import V2Bot
from checker.play.players import BURY, PlayerView
from checker.play.round import build_deck

from .util import cards


def _bury_view(hand: tuple[Card, ...], trump: str | None = "S", level: int = 3) -> PlayerView:
    rs = load_ruleset("classic")
    ctx = make_context(rs, level, trump)
    return PlayerView(BURY, 1, rs, level, hand, ctx=ctx, banker=1)


def test_bury_is_deterministic_and_legal_on_random_hands() -> None:
    deck = build_deck(load_ruleset("classic"))
    for seed in range(20):
        rng = random.Random(seed)
        hand = tuple(rng.sample(deck, 33))
        view = _bury_view(hand)
        first = V2Bot(random.Random(1)).decide(view).cards
        again = V2Bot(random.Random(2)).decide(view).cards
        assert Counter(first) == Counter(again)
        assert len(first) == 8 and not Counter(first) - Counter(hand)


def test_strong_hand_empties_a_short_suit_under_another_trump() -> None:
    hand = cards(
        "♠A ♠A ♠K ♠K ♠Q ♠J ♠10 ♠9 ♠8 ♠7 ♥3 ♣3 小王 ♦4 ♦6 "
        "♥A ♥Q ♥J ♥9 ♥8 ♥7 ♥6 ♥5 ♥4 ♣K ♣Q ♣J ♣10 ♣9 ♣8 ♣7 ♣6"
    )
    buried = V2Bot(random.Random(0)).decide(_bury_view(hand)).cards
    assert {"♦4", "♦6"} <= {str(c) for c in buried}
    assert "♥A" not in {str(c) for c in buried}


def test_weak_hand_buries_no_points() -> None:
    hand = cards(
        "小王 ♠3 ♣3 ♠A ♠K ♠Q ♠J ♠10 ♠9 ♠8 ♠7 ♥A ♥K ♥Q ♥J ♥10 ♥9 ♥8 ♥6 "
        "♣A ♣K ♣Q ♣J ♣10 ♣9 ♣8 ♦A ♦K ♦Q ♦J ♦10 ♦9 ♦8"
    )
    buried = V2Bot(random.Random(0)).decide(_bury_view(hand, trump=None)).cards
    assert sum(c.points for c in buried) == 0


STRONG_WITH_A_TEN = (
    "♠A ♠A ♠K ♠K ♠Q ♠J ♠10 ♠9 ♠8 ♠7 ♥3 ♣3 小王 ♦10 ♦6 "
    "♥A ♥Q ♥J ♥9 ♥8 ♥7 ♥6 ♥5 ♥4 ♣K ♣Q ♣J ♣10 ♣9 ♣8 ♣7 ♣6"
)


def test_the_hint_makes_no_void_that_would_put_a_ten_at_risk() -> None:
    import re

    from checker.play.bots.bury import RISK_LIMIT, decide_bury, points_at_risk

    hand = cards(STRONG_WITH_A_TEN)
    view = _bury_view(hand)
    assert points_at_risk(view.ctx, hand, cards("♦10 ♦6")) == 20 > RISK_LIMIT  # ×2, a single
    decision = decide_bury("v2", view, weigh_risk=True)
    assert "♦10" not in {str(c) for c in decision.cards}
    zh, en = decision.explanation_for("zh"), decision.explanation_for("en")
    assert "不扣光♦" in zh and "20" in zh and "keeps ♦" in en
    for text in (zh, en):
        assert re.search(r"\b[SHCD]\b", text) is None, text  # suits by symbol, never a letter
    assert "闲家抠底至少算" in zh or "没有分" in zh


def test_the_bot_empties_the_short_suit_as_seed_000_says_and_counts_the_risk() -> None:
    # Seed 000 (机器人v2埋牌 #3): a strong hand may put a point pair under the kitty to void a
    # suit; the bot does, and its words say what the kitty then risks.
    decision = V2Bot(random.Random(0)).decide(_bury_view(cards(STRONG_WITH_A_TEN)))
    assert {"♦10", "♦6"} <= {str(c) for c in decision.cards}
    zh = decision.explanation_for("zh")
    assert "把♦扣光" in zh and "闲家抠底至少算" in zh


def test_a_void_with_no_points_is_still_made_and_said_plainly() -> None:
    hand = cards(STRONG_WITH_A_TEN.replace("♦10", "♦4"))
    decision = V2Bot(random.Random(0)).decide(_bury_view(hand))
    assert {"♦4", "♦6"} <= {str(c) for c in decision.cards}
    assert "把♦扣光" in decision.explanation_for("zh")
    assert "empties ♦" in decision.explanation_for("en")
