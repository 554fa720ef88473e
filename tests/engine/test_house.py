"""House rulesets (contract, third edition): `extends`, merging, key paths in errors, the level
table as data (score.bands), nobody declaring → no-trump, and the presets in rulesets/house/."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from checker.engine import ruleset as ruleset_module
from checker.engine.cards import Card
from checker.engine.errors import EngineError, RulesetError
from checker.engine.house import (
    LOADED,
    load_ruleset_file,
    merge_data,
    resolve_ruleset,
    ruleset_ref,
)
from checker.engine.rotation import check_result
from checker.engine.ruleset import (
    NobodyDeclares,
    house_ruleset_names,
    load_ruleset,
    ruleset_names,
)
from checker.engine.scoring import score_round
from checker.play.players import DECLARE, PlayerView, RandomPlayer
from checker.play.replay import _rejudge
from checker.play.round import play_round


@pytest.fixture(autouse=True)
def _forget_loaded_files() -> object:
    """Rulesets loaded from files stay for the process: each test starts without its own."""
    before = dict(LOADED)
    yield
    LOADED.clear()
    LOADED.update(before)
    for name in list(ruleset_module._SOURCES):
        if name not in before:
            del ruleset_module._SOURCES[name]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_merge_mappings_key_by_key_and_replace_lists() -> None:
    parent = {"score": {"step": 40, "mandatory_levels": [10, "J"]}, "title": "a"}
    child = {"score": {"mandatory_levels": []}, "title": "b"}
    assert merge_data(parent, child) == {
        "score": {"step": 40, "mandatory_levels": []},
        "title": "b",
    }


def test_a_file_extending_classic_overrides_only_what_it_names(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "mine",
        "extends: classic\nname: my-table\ntitle: 我家\nscore:\n  mandatory_levels: [A]\n",
    )
    rs = load_ruleset_file(path)
    classic = load_ruleset("classic")
    assert rs.extends == "classic" and rs.title == "我家"
    assert rs.mandatory_levels == (14,) and classic.mandatory_levels == (10, 11)
    assert rs.score.step == classic.score.step and rs.kitty == classic.kitty
    assert load_ruleset("my-table") is rs and "my-table" in ruleset_names()


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("score:\n  mandatory_levels: [10, Z]\n", "score.mandatory_levels[1]"),
        ("kitty:\n  values: {single: two}\n", "kitty.values.single"),
        (
            "score:\n  bands: [{from: 5, winner: banker, rise: 1, result: hold}]\n",
            "score.bands[0].from",
        ),
        (
            "score:\n  bands: [{from: 0, winner: banker, rise: 1, result: swap}]\n",
            "score.bands[0].result",
        ),
        (
            "score:\n  bands: [{from: 0, winner: nobody, rise: 1, result: hold}]\n",
            "score.bands[0].winner",
        ),
        (
            "score:\n  bands: [{from: 0, winner: banker, rise: -1, result: hold}]\n",
            "score.bands[0].rise",
        ),
        ("declare:\n  nobody: shrug\n", "declare.nobody"),
        ("score:\n  bands: {from: 0}\n", "score.bands"),
    ],
)
def test_errors_name_the_file_and_the_key_path(tmp_path: Path, text: str, path: str) -> None:
    file = _write(tmp_path, "bad", "extends: classic\nname: bad-one\ntitle: x\n" + text)
    with pytest.raises(RulesetError) as caught:
        load_ruleset_file(file)
    assert str(file) in caught.value.message_en and path in caught.value.message_en
    assert "bad-one" not in ruleset_names()


def test_an_empty_level_table_drops_the_parents_for_the_step_rules(tmp_path: Path) -> None:
    text = "extends: terminal-003\nname: no-table\ntitle: x\nscore:\n  bands: []\n"
    rs = load_ruleset_file(_write(tmp_path, "nt", text))
    parent, classic = load_ruleset("terminal-003"), load_ruleset("classic")
    assert parent.score.bands and rs.score.bands == ()
    # Without the table the step rules in the merged data settle the levels: classic's here.
    assert (rs.score.step, rs.score.swap_at, rs.score.zero_rise) == (40, 80, 3)
    assert score_round(rs, 5).rise == score_round(classic, 5).rise == 2  # a small sweep
    assert score_round(parent, 5).rise == 3  # the parent's table: 0–39 rises 3


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("extends: me\nname: me\ntitle: x\n", "cannot extend itself"),
        ("extends: nowhere\nname: lost\ntitle: x\n", "“nowhere” that does not exist"),
        ("extends: classic\nname: terminal-003\ntitle: x\n", "clashes"),
        ("extends: classic\ntitle: x\n", "name must be"),
        ("extends: [classic]\nname: y\ntitle: x\n", "extends"),
        ("extends: classic\nname: y\ntitle: x\nscore: [1\n", "YAML"),
    ],
)
def test_bad_extends_and_names_are_clear_errors(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(RulesetError) as caught:
        load_ruleset_file(_write(tmp_path, "f", text))
    assert words in caught.value.message_en


def test_without_a_title_a_house_ruleset_is_called_by_its_name(tmp_path: Path) -> None:
    rs = load_ruleset_file(_write(tmp_path, "n", "extends: classic\nname: plain-table\n"))
    assert (rs.title, rs.title_en) == ("plain-table", "plain-table")


def test_a_loop_of_house_rulesets_is_an_error_not_a_recursion(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ruleset_module, "HOUSE_DIR", tmp_path)
    _write(tmp_path, "loop-a", "extends: loop-b\nname: loop-a\ntitle: a\n")
    _write(tmp_path, "loop-b", "extends: loop-a\nname: loop-b\ntitle: b\n")
    assert house_ruleset_names() == ["loop-a", "loop-b"]
    with pytest.raises(RulesetError) as caught:
        load_ruleset("loop-a")
    assert "loop-a → loop-b → loop-a" in caught.value.message_en


def test_a_house_file_must_be_named_for_its_ruleset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ruleset_module, "HOUSE_DIR", tmp_path)
    _write(tmp_path, "one", "extends: classic\nname: two\ntitle: a\n")
    with pytest.raises(RulesetError) as caught:
        load_ruleset("one")
    assert "must be its file name one" in caught.value.message_en


def test_the_presets_load_like_built_in_rulesets() -> None:
    names = house_ruleset_names()
    assert {"terminal-003", "terminal-003-200", "no-mandatory-levels", "lianzhuang"} <= set(names)
    for name in names:
        rs = load_ruleset(name)
        assert rs.name == name and rs.extends and rs.title_en
    assert load_ruleset("terminal-003-200").extends == "terminal-003"
    assert load_ruleset("lianzhuang").option("hold_banker") == "same"


@pytest.mark.parametrize(
    ("points", "winner", "rise", "result"),
    [
        (0, "banker", 3, "big_sweep"),
        (39, "banker", 3, "big_sweep"),
        (40, "banker", 2, "small_sweep"),
        (80, "banker", 1, "hold"),
        (119, "banker", 1, "hold"),
        (120, "attackers", 0, "swap"),
        (200, "attackers", 0, "swap"),
        (-20, "banker", 3, "big_sweep"),
    ],
)
def test_seed_003_level_table(points: int, winner: str, rise: int, result: str) -> None:
    score = score_round(load_ruleset("terminal-003"), points)
    assert (score.winner, score.rise, score.result) == (winner, rise, result)


def test_the_200_row_and_its_words() -> None:
    rs = load_ruleset("terminal-003-200")
    score = score_round(rs, 200, 2, 6)
    assert (score.winner, score.rise, score.result, score.next_level) == (
        "attackers",
        3,
        "promote",
        9,
    )
    assert "200 or more" in score.explanation_en and "200 分及以上" in score.explanation
    assert check_result(rs, "promote") == ("promote", 3)
    with pytest.raises(EngineError) as caught:
        check_result(rs, "promote", 1)
    assert "rises 3, not 1" in caught.value.message_en


class _Silent(RandomPlayer):
    """A random player that never declares."""

    def cards(self, view: PlayerView) -> list[Card]:
        if view.phase == DECLARE:
            return []
        return super().cards(view)


def test_nobody_declares_gives_no_trump_without_a_redeal() -> None:
    rs = load_ruleset("terminal-003")
    assert rs.declare.nobody == NobodyDeclares.NO_TRUMP
    players = [_Silent(random.Random(seat)) for seat in range(4)]
    res = play_round(rs, 7, players)
    assert res.trump is None and res.trump_by == "no_trump" and res.redeals == 0
    assert res.illegal == 0
    # the replay applies the logged moves to a fresh round again: nothing differs
    assert not _rejudge(rs, 0, [dict(e) for e in res.events])


def test_a_job_carries_a_file_ruleset_as_text(tmp_path: Path) -> None:
    path = _write(tmp_path, "j", "extends: terminal-003\nname: by-text\ntitle: t\n")
    rs = load_ruleset_file(path)
    ref = ruleset_ref(rs)
    assert isinstance(ref, tuple) and "extends" not in ref[1]
    LOADED.pop("by-text")  # as in a worker process that never read the file
    again = resolve_ruleset(ref)
    assert again.score == rs.score and again.declare == rs.declare
    assert ruleset_ref(load_ruleset("terminal-003")) == "terminal-003"
