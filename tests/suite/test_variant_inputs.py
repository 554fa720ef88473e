"""Bad input that only a variant can produce: cards outside 二七王's 92-card deck, its options."""

from __future__ import annotations

from pathlib import Path

from checker.suite.runner import run_suite

CASES = """
rulesets: [erqiwang]
cases:
  - id: v-three-in-erqiwang
    title: 二七王没有 3
    kind: classify
    trump: H
    cards: ♠3 ♠3
    expect: {type: pair}
  - id: v-four-in-hand
    title: 二七王没有 4
    kind: follow
    trump: H
    lead: ♠A
    hand: ♥4 ♠5
    expect: {forced: [♠5]}
  - id: v-unknown-option
    title: 二七王没有增强对王反主
    kind: classify
    trump: H
    options: {enhanced_joker_override: true}
    cards: ♠A
    expect: {type: single}
  - id: v-bid-out-of-range
    title: 叫分超出范围
    kind: score
    bid: 75
    points: 40
    expect: {winner: banker}
  - id: v-still-runs
    title: 其余用例照常
    kind: classify
    trump: H
    cards: ♠6 ♠6 ♠8 ♠8
    expect: {type: tractor}
"""


def test_cards_and_options_a_variant_lacks_are_errors_naming_case_and_value(tmp_path: Path) -> None:
    path = tmp_path / "erqiwang-bad.yaml"
    path.write_text(CASES, encoding="utf-8")
    results = {r.id: r for r in run_suite([path]).results}
    for case_id, value in [
        ("v-three-in-erqiwang", "♠3"),
        ("v-four-in-hand", "♥4"),
        ("v-unknown-option", "enhanced_joker_override"),
        ("v-bid-out-of-range", "75"),
    ]:
        result = results[case_id]
        assert result.status == "error", case_id
        assert case_id in result.message and value in result.message, result.message
        assert path.name in result.message
    assert results["v-still-runs"].status == "pass"
