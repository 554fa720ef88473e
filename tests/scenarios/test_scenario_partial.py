"""Checker scenarios after a failed throw and with partial information (issue 8, items 1 and 3):
what counts as led, which hands a throw was checked against, and tricks "so far"."""

from __future__ import annotations

import yaml

from checker.scenarios.scenario import ScenarioError, check_scenario, scenario_to_case_yaml

DISPUTE = {
    "ruleset": "classic",
    "level": "2",
    "trump": "H",
    "lead": "SA SQ SQ",
    "h1": "SK SK S3 S4",
    "p1": "SK SK",
}


def test_failed_throw_forced_cards_are_what_counts_as_led() -> None:
    out = check_scenario(DISPUTE)
    assert out["throw"]["allowed"] is False
    assert out["throw"]["forced"] == ["♠Q", "♠Q"]
    assert out["led"]["cards"] == ["♠Q", "♠Q"]
    assert out["led"]["type"] == "pair"
    assert out["led"]["from_failed_throw"] is True
    assert "其余收回" in out["led"]["explanation"]


def test_failed_throw_follow_is_judged_against_the_forced_pair() -> None:
    follow = check_scenario(DISPUTE)["follows"][0]
    assert follow["legal"] is True
    assert follow["reason"] is None
    assert follow["forced"] == ["♠K", "♠K"]
    assert follow["need"] == "须出：一对♠"


def test_failed_throw_trick_goes_to_the_higher_pair_with_its_points() -> None:
    trick = check_scenario(DISPUTE)["trick"]
    assert trick["winner"] == 1
    assert trick["beats"] == [True, True]
    assert trick["points"] == 20  # ♠K ♠K; the ♠A went back to the hand


def test_failed_throw_case_yaml_follows_and_trick_use_the_forced_cards() -> None:
    data = yaml.safe_load(scenario_to_case_yaml(DISPUTE))
    by_kind = {c["kind"]: c for c in data["cases"]}
    assert by_kind["throw"]["expect"]["allowed"] is False
    assert by_kind["follow"]["lead"] == "♠Q ♠Q"
    assert by_kind["trick"]["plays"][0] == "♠Q ♠Q"
    assert by_kind["trick"]["expect"]["winner"] == 1


def test_banker_names_the_penalty_side() -> None:
    query = {
        "ruleset": "shuangsheng",
        "level": "2",
        "trump": "H",
        "lead": "SA SQ SQ",
        "h1": "SK SK S3 S4",
    }
    banker_leads = check_scenario({**query, "banker": "0"})["throw"]
    attacker_leads = check_scenario({**query, "banker": "1"})["throw"]
    assert banker_leads["penalty"] > 0 and "加给闲家" in banker_leads["explanation"]
    assert attacker_leads["penalty"] == -banker_leads["penalty"]
    assert "从闲家得分中扣除" in attacker_leads["explanation"]
    assert check_scenario(query)["banker"] == 0


def test_bad_banker_seat_names_the_parameter() -> None:
    try:
        check_scenario({**DISPUTE, "banker": "7"})
    except ScenarioError as exc:
        assert exc.field == "banker"
        assert "seat" in exc.message_en
    else:
        raise AssertionError("banker=7 was accepted")


def test_throw_says_which_hands_it_was_checked_against() -> None:
    out = check_scenario({**DISPUTE, "h1": "S3 S4 D5", "p1": "S3 S4 D5", "h3": "C3 C4 C5"})
    throw = out["throw"]
    assert throw["allowed"] is True
    assert throw["checked_against"] == [1, 3]
    assert throw["not_given"] == [2]
    assert "玩家 2" in throw["scope"] and "不能确定" in throw["scope"]
    assert "player 2" in throw["scope_en"]


def test_throw_without_other_hands_is_not_judged_and_says_so() -> None:
    out = check_scenario({"level": "2", "trump": "H", "lead": "SA SQ SQ", "p1": "S3 S4 S5"})
    assert out["throw"]["checked"] is False
    assert "手牌" in out["throw"]["explanation"]
    assert out["led"]["cards"] == ["♠A", "♠Q", "♠Q"]


def test_trick_with_seats_still_to_play_is_so_far() -> None:
    trick = check_scenario(DISPUTE)["trick"]
    assert trick["complete"] is False
    assert trick["waiting"] == [2, 3]
    assert "目前为止" in trick["so_far"] and "玩家 2、3" in trick["so_far"]
    assert trick["so_far_en"].startswith("So far")


def test_a_play_after_a_gap_is_named_not_silently_dropped() -> None:
    query = {"level": "2", "trump": "H", "lead": "SK SK", "p1": "SQ SQ", "p3": "SA SA"}
    trick = check_scenario(query)["trick"]
    assert len(trick["beats"]) == 2
    assert trick["ignored"] == [3]
    assert "玩家 3" in trick["so_far"]


def test_complete_trick_with_every_hand_is_not_so_far() -> None:
    query = {
        "level": "2",
        "trump": "H",
        "lead": "SK SK",
        **{f"h{i}": f"S{r} S{r} D{r}" for i, r in ((1, "3"), (2, "4"), (3, "5"))},
        **{f"p{i}": f"S{r} S{r}" for i, r in ((1, "3"), (2, "4"), (3, "5"))},
    }
    trick = check_scenario(query)["trick"]
    assert trick["complete"] is True and "so_far" not in trick
