"""Declare and override gates (反主门槛) for v1 and v2 in other suits than the seed's rows."""

from __future__ import annotations

import random

from checker.engine.ruleset import load_ruleset
from checker.play.bots.v1 import V1Bot
from checker.play.bots.v2 import V2Bot
from checker.play.players import DECLARE, PlayerView

from .util import cards


def _declare(
    bot: V1Bot | V2Bot,
    hand: str,
    current: list[tuple[int, str]],
    *,
    first: bool = False,
    level: int = 7,
) -> list[str]:
    view = PlayerView(
        DECLARE,
        1,
        load_ruleset("classic"),
        level,
        cards(hand),
        declarations=tuple((s, cards(c)) for s, c in current),
        first_round=first,
    )
    return [str(c) for c in bot.decide(view).cards]


V1, V2 = V1Bot(random.Random(0)), V2Bot(random.Random(0))
WEAK = "♦7 ♦7 ♦5 ♥3 ♠4 ♠6 ♠8 ♠J ♠Q ♣3 ♣6 ♣9 ♣J ♣K"
GAP4 = "♦7 ♦7 ♦3 ♦4 ♦6 ♦8 ♦9 ♦J ♥5 ♥9 ♠4 ♠8 ♠J ♣6 ♣9 ♣Q"


def test_v1_keeps_weak_overrides_v2_refuses_them() -> None:
    assert _declare(V1, WEAK, [(0, "♥7")]) == ["♦7", "♦7"]
    assert _declare(V2, WEAK, [(0, "♥7")]) == []


def test_opponent_overridden_at_gap_four_partner_yields() -> None:
    assert _declare(V2, GAP4, [(2, "♥7")]) == ["♦7", "♦7"]
    assert _declare(V2, GAP4, [(3, "♥7")]) == []


def test_first_round_overrides_opponent_without_a_gap() -> None:
    assert _declare(V2, WEAK, [(0, "♥7")], first=True) == ["♦7", "♦7"]


def test_no_trump_over_opponent_needs_weak_standing_suit_or_strength_over_five() -> None:
    strong_nt = "小王 小王 ♠7 ♥7 ♣7 ♣7 ♦7 ♦7 ♥3 ♥5 ♥9 ♣4"
    assert _declare(V2, strong_nt, [(0, "♥7")]) == ["小王", "小王"]
    weak_nt = "小王 小王 ♠7 ♥A ♥A ♥K ♥K ♥Q ♥Q ♥J ♥J ♥10 ♥10"
    assert _declare(V2, weak_nt, [(0, "♥7")]) == []


def test_nothing_on_the_table_a_single_waits_for_a_long_enough_suit() -> None:
    assert _declare(V2, "♣7 ♦3 ♥4 ♠5 ♠9 ♥J", []) == []
    assert _declare(V2, "♣7 ♣3 ♣4 ♣5 ♣9 ♥J", []) == ["♣7"]
