"""Checker scenarios (case-format.md, "Checker links and the JSON API"): query parameters in,
verdicts out, and ScenarioError naming the offending parameter."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
import yaml

from checker.scenarios.scenario import ScenarioError, check_scenario, scenario_to_case_yaml

CONTRACT_URL = (
    "/check/?ruleset=classic&level=2&trump=H&lead=SK+SK&h1=SQ+SQ+S10+S5&p1=SQ+SQ"
    "&h2=H3+H3+D4&p2=H3+H3&h3=SA+SA+C5&p3=SA+SA"
)


def params(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


def error_field(**query: str) -> str:
    with pytest.raises(ScenarioError) as info:
        check_scenario(query)
    assert info.value.message
    return info.value.field


# --- the contract's example link -------------------------------------------------------------


def test_contract_link_lead_is_classified() -> None:
    out = check_scenario(params(CONTRACT_URL))
    assert out["ruleset"] == "classic"
    assert out["level"] == "2"
    assert out["trump"] == "H"
    lead = out["lead"]
    assert lead["type"] == "pair"
    assert lead["suit"] == "S"
    assert lead["cards"] == ["♠K", "♠K"]
    assert lead["explanation"]


def test_contract_link_follow_with_a_pair_is_legal_and_forced() -> None:
    follows = check_scenario(params(CONTRACT_URL))["follows"]
    first = follows[0]
    assert first["player"] == 1
    assert first["legal"] is True
    assert first["reason"] is None
    assert sorted(first["forced"]) == ["♠Q", "♠Q"]
    assert sorted(first["example"]) == ["♠Q", "♠Q"]
    assert first["explanation"]


def test_contract_link_void_player_ruffs_and_wins() -> None:
    out = check_scenario(params(CONTRACT_URL))
    assert out["follows"][1]["legal"] is True
    # void in spades: any two of ♥3 ♥3 ♦4, so one ♥3 is in every choice
    assert out["follows"][1]["forced"] == ["♥3"]
    trick = out["trick"]
    assert trick["winner"] == 2
    assert trick["beats"] == [True, False, True, False]
    assert trick["points"] == 20
    assert trick["explanation"]


def test_spaces_may_be_written_as_plus_or_percent_20() -> None:
    plus = check_scenario(params("/check/?level=2&trump=H&lead=SK+SK&h1=SQ+SQ+S5&p1=SQ+SQ"))
    pct = check_scenario(params("/check/?level=2&trump=H&lead=SK%20SK&h1=SQ%20SQ%20S5&p1=SQ%20SQ"))
    assert plus["follows"] == pct["follows"]
    assert plus["trick"] == pct["trick"]


def test_symbol_spellings_in_links_work_too() -> None:
    out = check_scenario({"level": "2", "trump": "♥", "lead": "♠K♠K", "h1": "♠Q♠Q♠5"})
    assert out["lead"]["type"] == "pair"
    assert sorted(out["follows"][0]["forced"]) == ["♠Q", "♠Q"]


def test_illegal_follow_is_reported_with_its_reason() -> None:
    out = check_scenario(
        {"level": "2", "trump": "H", "lead": "SK SK", "h1": "SQ SQ S5", "p1": "SQ S5"}
    )
    assert out["follows"][0]["legal"] is False
    assert out["follows"][0]["reason"] == "must_play_pair"
    assert out["trick"]["winner"] == 0


def test_failed_throw_is_judged_against_the_other_hands() -> None:
    out = check_scenario({"level": "2", "trump": "H", "lead": "SK SQ SQ", "h1": "SA D3 D4"})
    assert out["lead"]["type"] == "throw"
    assert out["throw"]["allowed"] is False
    assert out["throw"]["forced"] == ["♠K"]


def test_standing_throw() -> None:
    out = check_scenario({"level": "2", "trump": "H", "lead": "SA SQ SQ", "h1": "SK D3 D4"})
    assert out["throw"]["allowed"] is True


def test_options_parameter_switches_a_rule() -> None:
    query = {"level": "4", "trump": "H", "lead": "D9 D8", "p1": "C4 H3", "p2": "S4 D4"}
    assert check_scenario(query)["trick"]["winner"] == 1
    every = check_scenario({**query, "options": "ruff_tiebreak:every_unit"})
    assert every["trick"]["winner"] == 2
    assert every["options"]["ruff_tiebreak"] == "every_unit"


def test_no_trump_is_written_none() -> None:
    out = check_scenario({"level": "2", "trump": "none", "lead": "S2 S2 LJ LJ"})
    assert out["trump"] == "none"
    assert out["lead"]["type"] == "tractor"


def test_no_lead_gives_only_the_setting() -> None:
    out = check_scenario({"ruleset": "classic", "level": "5", "trump": "S"})
    assert out["lead"] is None
    assert out["level"] == "5"


def test_cards_come_back_with_suit_symbols_and_chinese_jokers() -> None:
    out = check_scenario({"level": "2", "trump": "H", "lead": "BJ", "h1": "LJ H5"})
    assert out["lead"]["cards"] == ["大王"]
    assert out["follows"][0]["forced"] == []
    assert set(out["follows"][0]["hand"]) == {"小王", "♥5"}


def test_case_yaml_export_is_valid_contract_yaml() -> None:
    text = scenario_to_case_yaml(params(CONTRACT_URL))
    data = yaml.safe_load(text)
    assert data["rulesets"] == ["classic"]
    kinds = [c["kind"] for c in data["cases"]]
    assert kinds[0] == "classify" and "trick" in kinds
    ids = [c["id"] for c in data["cases"]]
    assert len(ids) == len(set(ids))


# --- bad input names the parameter ------------------------------------------------------------


@pytest.mark.parametrize("key", ["lead", "h1", "p2", "h0"])
def test_bad_card_token_names_its_parameter(key: str) -> None:
    query = {"level": "2", "trump": "H", "lead": "SK", key: "SK SX"}
    with pytest.raises(ScenarioError) as info:
        check_scenario(query)
    assert info.value.field == key
    assert "SX" in info.value.message


def test_unknown_ruleset_names_the_ruleset_parameter() -> None:
    with pytest.raises(ScenarioError) as info:
        check_scenario({"ruleset": "nosuchrules", "lead": "SK"})
    assert info.value.field == "ruleset"
    assert "nosuchrules" in info.value.message


def test_impossible_hands_three_copies_of_a_card() -> None:
    assert error_field(level="2", trump="H", lead="SA", h1="SA SA D3") == "cards"


def test_lead_not_in_the_leaders_hand() -> None:
    assert error_field(level="2", trump="H", lead="SA", h0="SK D3") == "h0"


def test_unknown_option_names_the_options_parameter() -> None:
    assert error_field(level="2", trump="H", lead="SA", options="climb:true") == "options"


def test_bad_option_value_names_the_options_parameter() -> None:
    field = error_field(level="2", trump="H", lead="SA", options="ruff_tiebreak:sideways")
    assert field == "options"


def test_malformed_options_names_the_options_parameter() -> None:
    assert (
        error_field(level="2", trump="H", lead="SA", options="enhanced_joker_override") == "options"
    )


@pytest.mark.parametrize("key", ["h4", "p4", "h9"])
def test_seat_beyond_the_players(key: str) -> None:
    # classic has 4 players: the others are h1..h3 / p1..p3.
    assert error_field(level="2", trump="H", lead="SA", **{key: "D3"}) == key


@pytest.mark.parametrize("key", ["lead", "h1", "options"])
def test_over_long_field(key: str) -> None:
    assert error_field(level="2", trump="H", **{"lead": "SA", key: "SA " * 200}) == key


def test_bad_level_names_the_level_parameter() -> None:
    assert error_field(level="1", trump="H", lead="SA") == "level"


def test_bad_trump_names_the_trump_parameter() -> None:
    assert error_field(level="2", trump="X", lead="SA") == "trump"


# --- English explanations beside the Chinese ones --------------------------------------------

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def explained(node: Any) -> list[dict[str, Any]]:
    """Every object of the JSON that carries an explanation."""
    if isinstance(node, dict):
        found = [node] if "explanation" in node else []
        return found + [d for v in node.values() for d in explained(v)]
    if isinstance(node, list):
        return [d for v in node for d in explained(v)]
    return []


@pytest.mark.parametrize(
    "query",
    [
        params(CONTRACT_URL),
        {
            "ruleset": "classic",
            "level": "2",
            "trump": "H",
            "lead": "SA SA SK SK S3",
            "h1": "S4 S4 S5 S6 S7 H3",
            "p1": "S4 S4 S5 S6 H3",
            "h2": "S3",
            "p3": "H5 H5 H6 H6 H9",
        },
        {"ruleset": "erqiwang", "trump": "S", "lead": "HA HK"},
        {
            "ruleset": "shuangsheng",
            "level": "5",
            "lead": "BJ BJ LJ LJ",
            "h1": "S2 S2 H5 H5 C3",
            "p1": "S2 S2 H5 H5",
        },
    ],
)
def test_every_explanation_has_an_english_twin(query: dict[str, str]) -> None:
    out = check_scenario(query)
    nodes = explained(out)
    assert nodes
    for node in nodes:
        assert CJK.search(node["explanation"]), node["explanation"]
        english = node["explanation_en"]
        assert english.strip() and not CJK.search(english), english
    assert not CJK.search(out["setting_en"])


def test_english_hint_and_jokers() -> None:
    out = check_scenario(
        {"ruleset": "classic", "level": "2", "trump": "none", "lead": "BJ BJ", "h1": "LJ LJ S3"}
    )
    assert out["lead"]["explanation_en"].startswith("Big Joker Big Joker")
    assert out["follows"][0]["explanation_en"].startswith("Follow: ")


def test_case_yaml_export_carries_title_en_beside_the_chinese_title() -> None:
    from checker.scenarios.scenario import Scenario, case_yaml, judge_scenario

    checked = judge_scenario(Scenario(params(CONTRACT_URL)))
    for lang in ("zh", "en"):
        data = yaml.safe_load(case_yaml(checked, lang))
        for case in data["cases"]:
            assert case["title"].split("：")[0] in ("牌型", "甩牌", "跟牌", "比牌")
            assert case["title_en"].split(":")[0] in ("Classify", "Throw", "Follow", "Trick")
