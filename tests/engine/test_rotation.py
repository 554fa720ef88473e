"""Between rounds: rotation rules of each ruleset, levels by the score table, the end of a match."""

from __future__ import annotations

import pytest

from checker.engine.errors import PlayError
from checker.engine.payments import settle_payments
from checker.engine.rotation import first_banker, next_round
from checker.engine.ruleset import load_ruleset


def test_first_round_banker_is_the_declarer_in_classic_and_shuangsheng() -> None:
    assert first_banker(load_ruleset("classic")) is None
    assert first_banker(load_ruleset("shuangsheng")) is None
    assert first_banker(load_ruleset("erqiwang")) == 0


@pytest.mark.parametrize(
    ("name", "banker", "result", "rise", "expected"),
    [
        ("shuangsheng", 0, "hold", None, 2),
        ("shuangsheng", 3, "big_sweep", None, 1),
        ("shuangsheng", 3, "swap", None, 0),
        ("shuangsheng", 1, "promote", 2, 2),
        ("classic", 2, "promote", 1, 3),
        ("erqiwang", 2, "hold", None, 2),
        ("erqiwang", 2, "surrender", None, 0),
    ],
)
def test_rotation_per_ruleset(
    name: str, banker: int, result: str, rise: int | None, expected: int
) -> None:
    rs = load_ruleset(name)
    levels = [5, 5] if rs.teams == "partners" else None
    chips = None if levels else [0, 0, 0]
    nxt = next_round(rs, banker=banker, result=result, rise=rise, levels=levels, chips=chips)
    assert nxt.banker == expected


def test_only_the_winning_side_moves_and_by_its_rise() -> None:
    rs = load_ruleset("shuangsheng")
    nxt = next_round(rs, banker=1, result="promote", rise=2, levels=[3, 8])
    assert nxt.levels == (5, 8)


def test_classic_never_skips_ten_or_jack() -> None:
    rs = load_ruleset("classic")
    assert next_round(rs, banker=0, result="big_sweep", levels=[8, 2]).levels == (10, 2)
    assert next_round(rs, banker=0, result="big_sweep", levels=[10, 2]).levels == (11, 2)
    assert next_round(rs, banker=1, result="promote", rise=3, levels=[10, 2]).levels == (10, 2)


def test_match_end_policies_differ_for_attackers_at_a() -> None:
    classic = load_ruleset("classic")
    double = load_ruleset("shuangsheng")
    assert not next_round(classic, banker=0, result="swap", levels=[9, 14]).match_over
    won = next_round(double, banker=0, result="swap", levels=[9, 14])
    assert won.match_over and won.match_winner == (1, 3)


def test_reach_top_option_ends_at_a() -> None:
    rs = load_ruleset("shuangsheng").with_options({"match_end": "reach_top"})
    nxt = next_round(rs, banker=2, result="hold", levels=[13, 4])
    assert nxt.match_over and nxt.match_winner == (0, 2) and nxt.levels == (14, 4)


def test_fixed_length_match_ends_on_its_last_round() -> None:
    rs = load_ruleset("erqiwang")
    assert not next_round(rs, banker=0, result="hold", chips=[1, 0, -1], round_no=5).match_over
    end = next_round(rs, banker=0, result="hold", chips=[1, 0, -1], round_no=6)
    assert end.match_over and end.match_winner == (0,)
    rs12 = rs.with_options({"match_rounds": 12})
    assert not next_round(rs12, banker=0, result="hold", chips=[1, 0, -1], round_no=6).match_over


def test_bad_level_and_result_are_refused() -> None:
    rs = load_ruleset("classic")
    with pytest.raises(PlayError, match="15"):
        next_round(rs, banker=0, result="hold", levels=[15, 2])
    with pytest.raises(PlayError, match="surrender"):
        next_round(rs, banker=0, result="surrender", levels=[2, 2])


def test_payment_lines_sum_to_zero_and_follow_the_84_example() -> None:
    rs = load_ruleset("erqiwang")
    pay = settle_payments(rs, x=6, bonus=[1, 2, 0], banker=0, banker_won=True)
    assert sum(pay.net) == 0
    bonus_lines = [(ln.payer, ln.payee, ln.chips) for ln in pay.lines if ln.line == "bonus"]
    assert bonus_lines == [(1, 0, 6), (2, 0, 6), (0, 1, 12), (2, 1, 12)]
