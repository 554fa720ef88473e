"""The equality check (manage.py enginecheck): a seeded slice is reproducible, covers every
ruleset variant, and a changed verdict or explanation is reported (its line, both sides)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from checker.perf.enginecheck import (
    JUDGEMENTS_PER_RECORD,
    compare_checks,
    generate_records,
    judge_record,
    variants,
)

SLICE = 1_500  # judgements: about a hundred records, every variant at least once


def test_a_seeded_slice_is_the_same_record_for_record_when_judged_again() -> None:
    first = list(generate_records(7, SLICE))
    assert len(first) * JUDGEMENTS_PER_RECORD >= SLICE
    pool = variants()
    assert [judge_record(7, r["i"], pool) for r in reversed(first)] == first[::-1]


def test_the_slice_judges_every_ruleset_and_multideck_at_several_deck_counts() -> None:
    names = {r["ruleset"] for r in generate_records(7, SLICE)}
    assert {"classic", "erqiwang", "multideck", "shuangsheng"} <= names
    assert {n for n in names if n.startswith("multideck decks=")} >= {
        "multideck decks=2",
        "multideck decks=4",
        "multideck decks=8",
    }


def test_every_record_carries_verdicts_with_both_explanations() -> None:
    records = list(generate_records(7, SLICE))
    tricks = [r for r in records if "trick" in r]
    assert tricks and all(r["trick"]["zh"] and r["trick"]["en"] for r in tricks)
    for r in tricks:
        for f in r["follows"]:
            assert f["judged_other"]["zh"] and f["judged_other"]["en"]
    assert any(
        r["lead"]["type"] != "invalid" and r["throw"].get("allowed") is False for r in records
    )


def test_enginecheck_compare_passes_on_the_same_code_and_names_a_changed_line(
    tmp_path: Path,
) -> None:
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    args = ["--judgements", "300", "--no-suite"]
    call_command("enginecheck", "--out", str(before), *args, stdout=StringIO())
    out = StringIO()
    call_command("enginecheck", "--out", str(after), "--compare", str(before), *args, stdout=out)
    assert "identical" in out.getvalue()
    lines = after.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[3])
    record["random"]["lead"]["reason_en"] = "changed"
    lines[3] = json.dumps(record)
    after.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (diff,) = compare_checks(before, after)
    assert diff.line == 4 and "changed" in diff.after and "changed" not in diff.before


def test_enginecheck_exits_1_on_a_difference(tmp_path: Path) -> None:
    before = tmp_path / "before.json"
    call_command(
        "enginecheck", "--out", str(before), "--judgements", "100", "--no-suite", stdout=StringIO()
    )
    with pytest.raises(SystemExit) as stop:
        call_command(
            "enginecheck",
            "--out",
            str(tmp_path / "other.json"),
            "--judgements",
            "100",
            "--seed",
            "2",
            "--no-suite",
            "--compare",
            str(before),
            stdout=StringIO(),
        )
    assert stop.value.code == 1
