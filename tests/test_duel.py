"""manage.py duel and checker.play.duel: duplicate deals, seat rotation, scoring, the interval."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from checker.engine.ruleset import load_ruleset, ruleset_names
from checker.play.bots.registry import PLAYER_KINDS
from checker.play.duel import (
    A,
    B,
    duel,
    generate_seatings,
    margin_interval,
    score_round_for,
    seat_results,
    t975,
)
from checker.play.round import RoundResult, RoundSetup


def _duel(*args: str) -> str:
    out = StringIO()
    call_command("duel", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def _result(ruleset: str, banker: int, winner: str, **kw: int) -> RoundResult:
    res = RoundResult(ruleset, 1, RoundSetup(None, None, banker), banker=banker, winner=winner)
    for key, value in kw.items():
        setattr(res, key, value)
    return res


def test_partners_take_alternate_seats_then_swap() -> None:
    rs = load_ruleset("classic")
    first, second = generate_seatings(rs, 0)
    assert first == (A, B, A, B) and second == (B, A, B, A)
    assert generate_seatings(rs, 5) == (first, second)


def test_erqiwang_rotates_the_lone_seat_over_all_three_seats() -> None:
    rs = load_ruleset("erqiwang")
    lone = []
    for deal in range(3):
        first, second = generate_seatings(rs, deal)
        assert first.count(A) == 1 and second == tuple(1 - b for b in first)
        lone.append(first.index(A))
    assert sorted(lone) == [0, 1, 2]


@pytest.mark.parametrize("name", ruleset_names())
@pytest.mark.parametrize("winner", ["banker", "attackers"])
def test_seat_results_are_zero_sum_and_name_exactly_one_winner(name: str, winner: str) -> None:
    rs = load_ruleset(name)
    for banker in range(rs.players):
        res = _result(name, banker, winner)
        results = seat_results(rs, res)
        assert sum(results) == 0
        assert (results[banker] > 0) == (winner == "banker")
        for seating in generate_seatings(rs, banker):
            a, b = score_round_for(rs, res, seating)
            assert a.won != b.won


def test_erqiwang_banker_beating_its_own_bots_attacker_seat_counts_for_that_bot() -> None:
    # B sits at seats 1 and 2 and is banker at 1; A attacks from seat 0 with B's seat 2.
    rs = load_ruleset("erqiwang")
    seating = (A, B, B)
    res = _result("erqiwang", 1, "banker", chips=3, attackers_points=40)
    a, b = score_round_for(rs, res, seating)
    assert b.won and not a.won
    # chips: the banker takes 3 from each attacker; B's attacker seat pays 3 of them back
    assert (a.gain, b.gain) == (-3, 3)
    assert a.attacking and b.attacking and a.attack_points == 40
    res = _result("erqiwang", 1, "attackers", chips=2)
    a, b = score_round_for(rs, res, seating)
    assert a.won and not b.won and (a.gain, b.gain) == (2, -2)


def test_levels_gained_go_to_the_winning_side_only() -> None:
    rs = load_ruleset("classic")
    res = _result("classic", 1, "banker", rise=2, attackers_points=30)
    a, b = score_round_for(rs, res, (A, B, A, B))
    assert (a.won, b.won) == (False, True) and (a.gain, b.gain) == (0, 2)
    assert a.attacking and not b.attacking


def test_interval_is_a_paired_t_interval_of_the_total() -> None:
    assert t975(1) == 12.706 and t975(30) == 2.042
    assert 1.96 < t975(1000) < 1.965
    lo, hi = margin_interval([2, 0, 0, 2])
    # total 4, sd of the per-deal margins 1.1547, t(3) 3.182, half-width 3.182·1.1547·2
    assert (lo, hi) == (round(4 - 7.3486, 2), round(4 + 7.3486, 2))
    assert margin_interval([0, 0, 0]) == (0.0, 0.0)
    assert margin_interval([2]) == (-2.0, 2.0)


@pytest.mark.parametrize("name", ruleset_names())
def test_a_bot_against_itself_has_margin_zero_on_duplicate_deals(name: str) -> None:
    # The same policy in every seat plays the same round twice, so each deal is one win each.
    summary = duel(name, "greedy", "greedy", 4, 11).as_dict()
    assert summary["rounds"] == 8 and summary["margin"] == {"rounds_won": 0, "ci95": [0.0, 0.0]}
    assert set(summary["bots"]) == {"greedy (A)", "greedy (B)"}


@pytest.mark.parametrize("name", ruleset_names())
def test_json_report_has_the_contract_shape(name: str) -> None:
    text = _duel(
        "--ruleset", name, "--bots", "greedy", "random", "--deals", "12", "--seed", "5",
        "--format", "json",
    )  # fmt: skip
    report = json.loads(text)
    assert {"deals", "rounds", "illegal_plays", "bots", "margin"} <= set(report)
    assert report["deals"] == 12 and report["rounds"] == 24 and report["illegal_plays"] == 0
    assert set(report["bots"]) == {"greedy", "random"}
    gain = "mean_chips_gained" if name == "erqiwang" else "mean_levels_gained"
    for bot in report["bots"].values():
        assert {"rounds_won", "mean_attack_points", gain} <= set(bot)
    won = [b["rounds_won"] for b in report["bots"].values()]
    assert sum(won) == 24
    margin = report["margin"]
    assert margin["rounds_won"] == won[0] - won[1]
    lo, hi = margin["ci95"]
    assert lo <= margin["rounds_won"] <= hi
    # greedy takes the points random gives away: the interval lies above zero
    assert lo > 0


def test_jobs_do_not_change_the_result() -> None:
    one = duel("classic", "greedy", "random", 6, 3, jobs=1).as_dict()
    two = duel("classic", "greedy", "random", 6, 3, jobs=2).as_dict()
    one.pop("elapsed_s"), two.pop("elapsed_s")
    assert one == two


def test_table_prints_rounds_illegal_plays_bots_and_margin() -> None:
    text = _duel("--bots", "greedy", "random", "--deals", "3", "--seed", "2")
    assert "rounds           6" in text and "illegal plays    0" in text
    assert "greedy" in text and "random" in text and "95% CI [" in text
    assert "margin" in text and "mean levels" in text


def test_unknown_bot_is_a_usage_error_listing_the_names(capsys: pytest.CaptureFixture[str]) -> None:
    err = StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("duel", "--bots", "greedy", "nobody", stdout=StringIO(), stderr=err)
    assert exc.value.code == 2
    message = err.getvalue()
    assert "unknown bot 'nobody'" in message
    assert all(name in message for name in PLAYER_KINDS)


def test_unknown_ruleset_is_a_usage_error() -> None:
    err = StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("duel", "--ruleset", "nope", "--bots", "greedy", "random", stderr=err)
    assert exc.value.code == 2 and "unknown ruleset 'nope'" in err.getvalue()


def test_simulate_accepts_every_registered_bot() -> None:
    for name in PLAYER_KINDS:
        out = StringIO()
        call_command(
            "simulate", "--rounds", "1", "--players", name, "--no-store", "--no-progress",
            "--json", stdout=out, stderr=StringIO(),
        )  # fmt: skip
        assert json.loads(out.getvalue())["players"] == name
