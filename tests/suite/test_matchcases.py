"""next_round and payments cases: bad input names the case and the value."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.suite.runner import run_suite

BAD = {
    "level-off-ladder": (
        "classic",
        "{id: bad-level, title: t, kind: next_round, banker: 0, levels: [1, 5], result: hold, expect: {banker: 2}}",
        ["bad-level", "“1”"],
    ),
    "level-name": (
        "shuangsheng",
        "{id: bad-level-name, title: t, kind: next_round, banker: 0, levels: [5, Z], result: hold, expect: {banker: 2}}",
        ["bad-level-name", "“Z”"],
    ),
    "seat-missing": (
        "erqiwang",
        "{id: bad-seat, title: t, kind: next_round, banker: 3, result: hold, expect: {banker: 3}}",
        ["bad-seat", "“3”"],
    ),
    "seat-negative": (
        "classic",
        "{id: bad-seat-neg, title: t, kind: next_round, banker: -1, levels: [2, 2], result: hold, expect: {banker: 1}}",
        ["bad-seat-neg", "-1"],
    ),
    "result-swap-in-erqiwang": (
        "erqiwang",
        "{id: bad-result, title: t, kind: next_round, banker: 0, result: swap, expect: {banker: 1}}",
        ["bad-result", "“swap”"],
    ),
    "result-surrender-in-classic": (
        "classic",
        "{id: bad-surrender, title: t, kind: next_round, banker: 0, levels: [2, 2], result: surrender, expect: {banker: 1}}",
        ["bad-surrender", "“surrender”"],
    ),
    "rise-against-result": (
        "classic",
        "{id: bad-rise, title: t, kind: next_round, banker: 0, levels: [2, 2], result: hold, rise: 3, expect: {banker: 2}}",
        ["bad-rise", "3"],
    ),
    "payments-bonus-length": (
        "erqiwang",
        "{id: bad-bonus, title: t, kind: payments, x: 6, bonus: [1, 0], banker: 0, result: hold, expect: {net: [0, 0, 0]}}",
        ["bad-bonus", "bonus"],
    ),
    "payments-in-classic": (
        "classic",
        "{id: bad-pay-rs, title: t, kind: payments, x: 6, bonus: [0, 0, 0, 0], banker: 0, result: hold, expect: {net: [0, 0, 0, 0]}}",
        ["bad-pay-rs"],
    ),
    "payments-seat": (
        "erqiwang",
        "{id: bad-pay-seat, title: t, kind: payments, x: 6, bonus: [0, 0, 0], banker: 7, result: hold, expect: {net: [0, 0, 0]}}",
        ["bad-pay-seat", "“7”"],
    ),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_next_round_input_names_case_and_value(tmp_path: Path, name: str) -> None:
    ruleset, case, words = BAD[name]
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"rulesets: [{ruleset}]\ncases:\n  - {case}\n", encoding="utf-8")
    (result,) = run_suite([path]).results
    assert result.status == "error", result.message
    for word in words:
        assert word in result.message, result.message
    assert "Error:" not in result.message  # a clear message, not an exception's repr
