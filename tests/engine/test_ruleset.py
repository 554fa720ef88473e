"""Rulesets: classic loads as frozen data, options are validated, bad ruleset files are refused."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

import pytest
import yaml

from checker.engine.errors import RulesetError
from checker.engine.ruleset import RULESET_DIR, load_ruleset, parse_ruleset, ruleset_names


def classic_data() -> dict[str, Any]:
    with (RULESET_DIR / "classic.yaml").open(encoding="utf-8") as fh:
        return copy.deepcopy(yaml.safe_load(fh))


def test_classic_is_shipped_and_loads() -> None:
    assert "classic" in ruleset_names()
    rs = load_ruleset("classic")
    assert rs.name == "classic"


def test_classic_is_four_players_two_decks_with_jokers() -> None:
    rs = load_ruleset("classic")
    assert (rs.players, rs.decks, rs.jokers, rs.has_level) == (4, 2, True, True)
    assert rs.ranks == tuple(range(2, 15))
    assert rs.deck_size == 108
    assert rs.hand_size * rs.players + rs.kitty_size == rs.deck_size


def test_classic_deck_holds_200_points() -> None:
    # 5, 10 and K: 25 points per suit, four suits, two decks.
    assert load_ruleset("classic").total_points == 200


def test_classic_levels_10_and_j_are_mandatory() -> None:
    assert load_ruleset("classic").mandatory_levels == (10, 11)


def test_classic_kitty_multipliers_are_2_4_8() -> None:
    values = load_ruleset("classic").kitty_values
    assert dict(values) == {"single": 2, "pair": 4, "tractor": 8}


def test_classic_options_default_off() -> None:
    rs = load_ruleset("classic")
    assert rs.option("enhanced_joker_override") is False
    assert rs.option("ruff_tiebreak") == "by_throw"


def test_loading_twice_gives_the_same_object() -> None:
    assert load_ruleset("classic") is load_ruleset("classic")


def test_ruleset_is_frozen() -> None:
    rs = load_ruleset("classic")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rs.players = 6  # type: ignore[misc]


@pytest.mark.parametrize("attr", ["options", "kitty_values", "declare_tiers", "option_specs"])
def test_ruleset_mappings_are_read_only(attr: str) -> None:
    mapping = getattr(load_ruleset("classic"), attr)
    with pytest.raises(TypeError):
        mapping["x"] = 1


@pytest.mark.parametrize("name", ["nope", "Classic2", "erqiwang-typo"])
def test_unknown_ruleset_is_an_error_naming_it(name: str) -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset(name)
    assert name in str(info.value)
    assert info.value.field == "ruleset"
    assert info.value.value == name


@pytest.mark.parametrize("name", ["../classic", "rulesets/classic", "classic.yaml", ""])
def test_ruleset_name_cannot_be_a_path(name: str) -> None:
    with pytest.raises(RulesetError):
        load_ruleset(name)


def test_with_options_switches_only_a_copy() -> None:
    rs = load_ruleset("classic")
    enhanced = rs.with_options({"enhanced_joker_override": True})
    assert enhanced.option("enhanced_joker_override") is True
    assert rs.option("enhanced_joker_override") is False
    assert enhanced.players == rs.players


def test_with_no_options_is_the_same_ruleset() -> None:
    rs = load_ruleset("classic")
    assert rs.with_options({}) is rs
    assert rs.with_options(None) is rs


@pytest.mark.parametrize(("text", "value"), [("true", True), ("on", True), ("false", False)])
def test_boolean_option_accepts_written_booleans(text: str, value: bool) -> None:
    rs = load_ruleset("classic").with_options({"enhanced_joker_override": text})
    assert rs.option("enhanced_joker_override") is value


def test_choice_option_accepts_each_listed_value() -> None:
    rs = load_ruleset("classic")
    assert rs.with_options({"ruff_tiebreak": "every_unit"}).option("ruff_tiebreak") == "every_unit"
    assert rs.with_options({"ruff_tiebreak": "top_unit"}).option("ruff_tiebreak") == "top_unit"


def test_unknown_option_name_is_an_error_naming_it() -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset("classic").with_options({"climb": True})
    assert "climb" in str(info.value)
    assert info.value.field == "options"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("enhanced_joker_override", "maybe"),
        ("enhanced_joker_override", 1),
        ("enhanced_joker_override", None),
        ("ruff_tiebreak", "bottom_unit"),
        ("ruff_tiebreak", True),
    ],
)
def test_bad_option_value_is_an_error_naming_the_value(name: str, value: object) -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset("classic").with_options({name: value})
    assert str(value) in str(info.value)
    assert info.value.field == "options"


def test_parse_ruleset_accepts_the_classic_file() -> None:
    assert parse_ruleset(classic_data()) == load_ruleset("classic")


def test_parse_ruleset_rejects_unknown_top_level_key() -> None:
    data = classic_data()
    data["trumps_everywhere"] = True
    with pytest.raises(RulesetError) as info:
        parse_ruleset(data, "x.yaml")
    assert "trumps_everywhere" in str(info.value)
    assert "x.yaml" in str(info.value)


@pytest.mark.parametrize(
    ("section", "key"),
    [("throw", "failed"), ("kitty", "policy"), ("score", "policy")],
)
def test_parse_ruleset_rejects_bad_policy_value(section: str, key: str) -> None:
    data = classic_data()
    data[section][key] = "whatever_policy"
    with pytest.raises(RulesetError) as info:
        parse_ruleset(data)
    assert "whatever_policy" in str(info.value)


@pytest.mark.parametrize(
    ("path", "value"),
    [(("teams",), "everyone"), (("throw", "suits"), "hearts"), (("declare", "self_override"), "x")],
)
def test_parse_ruleset_rejects_bad_choice_values(path: tuple[str, ...], value: str) -> None:
    data = classic_data()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(RulesetError):
        parse_ruleset(data)


@pytest.mark.parametrize("key", ["name", "players", "decks", "ranks", "throw", "kitty", "score"])
def test_parse_ruleset_requires_core_fields(key: str) -> None:
    data = classic_data()
    del data[key]
    with pytest.raises(RulesetError) as info:
        parse_ruleset(data)
    assert key in str(info.value)


@pytest.mark.parametrize(("key", "value"), [("players", "four"), ("decks", True), ("ranks", "2-A")])
def test_parse_ruleset_rejects_wrong_types(key: str, value: object) -> None:
    data = classic_data()
    data[key] = value
    with pytest.raises(RulesetError):
        parse_ruleset(data)


def test_parse_ruleset_rejects_bad_rank() -> None:
    data = classic_data()
    data["ranks"] = [2, 3, "Z"]
    with pytest.raises(RulesetError) as info:
        parse_ruleset(data)
    assert "Z" in str(info.value)


def test_parse_ruleset_rejects_option_without_default() -> None:
    data = classic_data()
    data["options"]["climb"] = {"description": "no default"}
    with pytest.raises(RulesetError) as info:
        parse_ruleset(data)
    assert "climb" in str(info.value)


@pytest.mark.parametrize("data", [None, [], "classic"])
def test_parse_ruleset_rejects_non_mapping(data: object) -> None:
    with pytest.raises(RulesetError):
        parse_ruleset(data)


@pytest.mark.parametrize(
    ("section", "key"),
    [("throw", "penatly"), ("kitty", "valeus"), ("score", "mandatory_level"), ("declare", "tier")],
)
def test_parse_ruleset_rejects_unknown_key_inside_a_section(section: str, key: str) -> None:
    data = classic_data()
    data[section][key] = 1
    with pytest.raises(RulesetError) as info:
        parse_ruleset(data)
    assert key in str(info.value)


def _broken(change: str) -> Any:
    """Return the classic file with one thing broken, as a ruleset author might."""
    data = classic_data()
    if change == "not a mapping":
        return ["classic"]
    breaks: dict[str, Any] = {
        "unknown top key": lambda d: d.update(trumps_everywhere=True),
        "missing field": lambda d: d.pop("players"),
        "wrong type": lambda d: d.update(decks="two"),
        "section not a mapping": lambda d: d.update(throw=["any"]),
        "unknown section key": lambda d: d["kitty"].update(valeus=1),
        "bad choice": lambda d: d.update(teams="everyone"),
        "bad enum": lambda d: d["declare"].update(policy="loudest"),
        "bad rank": lambda d: d.update(ranks=[2, 3, "Z"]),
        "levels outside ranks": lambda d: d.update(ranks=[2, 3, 4], levels=[5]),
        "penalty keys": lambda d: d["throw"].update(penalty={"single": 10}),
        "option without default": lambda d: d["options"].update(climb={}),
        "option sets": lambda d: d["options"].update(x={"default": 1, "sets": "level"}),
        "no players": lambda d: d.update(players=1),
        "cannot deal": lambda d: d.update(hand_size="auto", kitty_size=7),
        "bid_chips without sections": lambda d: d["score"].update(policy="bid_chips"),
    }
    breaks[change](data)
    return data


@pytest.mark.parametrize(
    "change",
    [
        "not a mapping",
        "unknown top key",
        "missing field",
        "wrong type",
        "section not a mapping",
        "unknown section key",
        "bad choice",
        "bad enum",
        "bad rank",
        "levels outside ranks",
        "penalty keys",
        "option without default",
        "option sets",
        "no players",
        "cannot deal",
        "bid_chips without sections",
    ],
)
def test_ruleset_file_errors_name_the_file_in_both_languages(change: str) -> None:
    with pytest.raises(RulesetError) as info:
        parse_ruleset(_broken(change), "broken.yaml")
    error = info.value
    assert error.message.startswith("broken.yaml: ")
    assert error.message_en.startswith("broken.yaml: ")
    assert error.message_en != error.message
    english = error.message_en.split("“")[0]  # what is quoted from the file may be anything
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in english), error.message_en


def test_ruleset_names_follow_the_folder_when_a_file_is_added(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from checker.engine import ruleset as ruleset_module

    (tmp_path / "one.yaml").write_text("name: one\n", encoding="utf-8")
    monkeypatch.setattr(ruleset_module, "RULESET_DIR", tmp_path)
    monkeypatch.setattr(ruleset_module, "HOUSE_DIR", tmp_path / "house")
    assert ruleset_names() == ["one"]
    assert ruleset_names() == ["one"]  # the listing is kept between calls
    (tmp_path / "two.yaml").write_text("name: two\n", encoding="utf-8")
    assert ruleset_names() == ["one", "two"]


@pytest.mark.parametrize(
    ("name", "level"),
    [("classic", 2), ("shuangsheng", 2), ("multideck", 3), ("erqiwang", None)],
)
def test_default_level_is_the_first_level_of_the_ladder(name: str, level: int | None) -> None:
    rs = load_ruleset(name)
    assert rs.default_level == level
    if level is not None:
        assert rs.default_level == rs.levels[0]
        assert rs.default_level in rs.levels  # a level the ruleset can be played at


def test_default_trump_is_a_suit() -> None:
    assert {load_ruleset(n).default_trump for n in ruleset_names()} <= {"S", "H", "C", "D"}
