"""Every ruleset file says in English what it says in Chinese (issue 8.6): the title, the
summary, every option's description and every seed-conflict note have their English beside
them, and no English note is left over from a Chinese one that is gone."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from checker.engine.ruleset import load_ruleset, ruleset_file, ruleset_names

CJK = re.compile(r"[\u3400-\u9fff]")


def _file(name: str) -> dict[str, Any]:
    path = ruleset_file(name)
    assert path is not None, name
    with path.open(encoding="utf-8") as fh:
        data: dict[str, Any] = yaml.safe_load(fh)
    return data


@pytest.mark.parametrize("name", ruleset_names())
def test_title_summary_and_options_have_english(name: str) -> None:
    data = _file(name)
    assert data.get("title_en") and not CJK.search(data["title_en"]), name
    if data.get("description"):
        assert data.get("description_en"), f"{name}: description_en"
        assert not CJK.search(data["description_en"]), f"{name}: description_en"
    for option, spec in (data.get("options") or {}).items():
        if spec.get("description"):
            english = spec.get("description_en") or ""
            assert english, f"{name}: option {option} has no description_en"
            assert not CJK.search(english), f"{name}: option {option}: {english}"


@pytest.mark.parametrize("name", ruleset_names())
def test_every_conflict_note_has_its_english_and_none_is_left_over(name: str) -> None:
    rs = load_ruleset(name)
    for note in rs.conflicts:
        english = rs.conflict_in(note, "en")
        assert english != note, f"{name}: no English for conflict “{note[:40]}…”"
        assert not CJK.search(english), f"{name}: {english[:80]}"
    flat = [" ".join(note.split()) for note in rs.conflicts]
    for start, _english in rs.conflicts_en:
        matches = [note for note in flat if note.startswith(start)]
        assert len(matches) == 1, f"{name}: conflicts_en “{start}” matches {len(matches)} notes"
