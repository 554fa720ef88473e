"""Round scoring and the kitty bonus (seed: 四、跑分与抠底结算及升级规则)."""

from __future__ import annotations

import pytest

from checker.engine.cards import parse_rank
from checker.engine.errors import PlayError
from checker.engine.scoring import kitty_bonus, score_round

from .util import CLASSIC, cs, deal

# --- score bands ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "winner", "rise", "result"),
    [
        (0, "banker", 3, "big_sweep"),  # 抓 0 分：庄家升 3 级
        (5, "banker", 2, "small_sweep"),  # 40 分以下：升 2 级
        (35, "banker", 2, "small_sweep"),
        (40, "banker", 1, "hold"),  # 40–75：升 1 级
        (75, "banker", 1, "hold"),
        (80, "attackers", 0, "swap"),  # 80–115：闲家上台
        (115, "attackers", 0, "swap"),
        (120, "attackers", 1, "promote"),  # 120–155：上台且升 1 级
        (155, "attackers", 1, "promote"),
        (160, "attackers", 2, "promote"),  # 160–195：上台且升 2 级
        (195, "attackers", 2, "promote"),
        (200, "attackers", 3, "promote"),  # 之后每多 40 分多升 1 级
        (235, "attackers", 3, "promote"),
        (240, "attackers", 4, "promote"),
    ],
)
def test_score_band_edges(points: int, winner: str, rise: int, result: str) -> None:
    got = score_round(CLASSIC, points)
    assert (got.winner, got.rise, got.result) == (winner, rise, result)
    assert got.next_level is None


def test_every_multiple_of_five_falls_in_exactly_one_band() -> None:
    previous_rise = 3
    for points in range(0, 81, 5):
        got = score_round(CLASSIC, points)
        if got.winner == "banker":
            assert got.rise <= previous_rise
            previous_rise = got.rise
    assert score_round(CLASSIC, 80).winner == "attackers"


# --- level progression: 10 and J cannot be skipped --------------------------------------------


def next_level(points: int, banker: str | None = None, attackers: str | None = None) -> str:
    got = score_round(
        CLASSIC,
        points,
        parse_rank(banker) if banker else None,
        parse_rank(attackers) if attackers else None,
    )
    assert got.next_level is not None
    return "23456789TJQKA"[got.next_level - 2]


@pytest.mark.parametrize(
    ("banker", "points", "expected"),
    [
        ("9", 10, "T"),  # +2 from 9 stops at 10
        ("9", 0, "T"),  # +3 from 9 stops at 10
        ("8", 0, "T"),  # +3 from 8: 9, 10 — stops at 10
        ("9", 40, "T"),  # +1 reaches 10 exactly
        ("T", 0, "J"),  # +3 from 10 stops at J
        ("T", 10, "J"),
        ("T", 40, "J"),
        ("J", 0, "A"),  # past J nothing is mandatory: Q, K, A
        ("J", 10, "K"),
        ("5", 0, "8"),
        ("6", 10, "8"),
        ("2", 40, "3"),
    ],
)
def test_banker_level_rise_stops_at_10_and_j(banker: str, points: int, expected: str) -> None:
    assert next_level(points, banker=banker) == expected


@pytest.mark.parametrize(
    ("attackers", "points", "expected"),
    [
        ("9", 200, "T"),  # +3 from 9 stops at 10
        ("8", 160, "T"),  # +2 from 8: 9, 10
        ("7", 200, "T"),  # +3 from 7: 8, 9, 10
        ("T", 200, "T"),  # at 10: the new bankers play 10 first
        ("T", 120, "T"),
        ("J", 160, "J"),  # at J: the new bankers play J first
        ("8", 80, "8"),  # 上台 without a rise keeps the level
        ("6", 120, "7"),
        ("Q", 200, "A"),  # cannot go beyond A
    ],
)
def test_attackers_level_rise_stops_at_10_and_j(attackers: str, points: int, expected: str) -> None:
    assert next_level(points, attackers=attackers) == expected


def test_next_level_uses_the_winning_side() -> None:
    assert next_level(0, banker="4", attackers="9") == "7"
    assert next_level(120, banker="4", attackers="9") == "T"


# --- kitty ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("play", "multiplier"),
    [
        ("♠A", 2),  # 单张抠底 ×2
        ("♠K♠K", 4),  # 对子抠底 ×4
        ("♠Q♠Q♠K♠K", 8),  # 拖拉机抠底 ×8
        ("♠3♠3♠4♠4♠5♠5", 8),  # a longer tractor is still ×8
        ("♠A ♠Q", 2),  # throw of singles
        ("♠J♠J ♠A", 4),  # throw pair + single
        ("♠3♠3 ♠9♠9 ♠A", 4),  # two separate pairs: no tractor
        ("♠Q♠Q♠K♠K ♠A", 8),  # tractor + single
        ("♠8♠8♠9♠9 ♠J♠J ♠A", 8),
    ],
)
def test_kitty_multiplier_by_the_largest_unit(play: str, multiplier: int) -> None:
    result = kitty_bonus(deal(2, "H"), cs(play), cs("♦5 ♦10 ♦K"))
    assert result.multiplier == multiplier
    assert result.kitty_points == 25
    assert result.bonus == 25 * multiplier


def test_kitty_trump_tractor_across_level_cards_is_x8() -> None:
    # 打♠2: ♦2♦2 ♠2♠2 is a tractor.
    assert kitty_bonus(deal(2, "S"), cs("♦2♦2 ♠2♠2"), cs("♥K")).multiplier == 8


def test_kitty_offsuit_level_cards_of_two_suits_are_singles() -> None:
    assert kitty_bonus(deal(2, "S"), cs("♥2 ♣2"), cs("♥K")).multiplier == 2


def test_kitty_equal_level_pairs_are_two_pairs_not_a_tractor() -> None:
    assert kitty_bonus(deal(2, None), cs("♠2♠2 ♥2♥2"), cs("♥K")).multiplier == 4


def test_kitty_joker_tractor_in_no_trump() -> None:
    assert kitty_bonus(deal(2, None), cs("小王小王 大王大王"), cs("♥K")).multiplier == 8


def test_kitty_points_count_only_point_cards() -> None:
    result = kitty_bonus(deal(2, "H"), cs("♠A"), cs("♠5 ♠10 ♠K ♣A ♣Q 大王 ♦3 ♦4"))
    assert (result.kitty_points, result.bonus) == (25, 50)


def test_kitty_without_points_gives_no_bonus() -> None:
    result = kitty_bonus(deal(2, "H"), cs("♠K♠K"), cs("♣A ♣Q ♦3 ♦4"))
    assert (result.multiplier, result.kitty_points, result.bonus) == (4, 0, 0)


def test_kitty_bonus_needs_the_winning_play() -> None:
    with pytest.raises(PlayError):
        kitty_bonus(deal(2, "H"), [], cs("♠5"))


def test_kitty_winning_play_cannot_mix_suits() -> None:
    with pytest.raises(PlayError):
        kitty_bonus(deal(2, "H"), cs("♠A ♦A"), cs("♠5"))
