"""Sanity checks over the shipped case files in cases/ (read directly, not through the loader)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from checker.engine.cards import Card, format_card, parse_cards
from checker.engine.ruleset import load_ruleset, ruleset_names

CASES = Path(__file__).resolve().parents[2] / "cases"
FILES = sorted(p for p in CASES.rglob("*") if p.suffix in (".yaml", ".yml"))
KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def _load(path: Path) -> dict[str, Any] | str:
    """The parsed file, or why it does not parse (reported by test_every_file_parses)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        return f"YAML error: {exc}"
    return data if isinstance(data, dict) else "not a mapping"


LOADED = {path: _load(path) for path in FILES}
DATA: dict[Path, dict[str, Any]] = {p: d for p, d in LOADED.items() if isinstance(d, dict)}
CASE_ITEMS = [
    (path, case)
    for path, data in DATA.items()
    for case in data.get("cases") or []
    if isinstance(case, dict)
]


def rel(path: Path) -> str:
    return str(path.relative_to(CASES.parent))


def case_rulesets(path: Path, case: dict[str, Any]) -> list[str]:
    names = case.get("rulesets", DATA[path].get("rulesets") or [])
    return [names] if isinstance(names, str) else list(names)


def _cards(value: Any) -> list[Card]:
    if value is None:
        return []
    if isinstance(value, list):
        return parse_cards([str(v) for v in value])
    return parse_cards(str(value))


def physical_pools(case: dict[str, Any]) -> dict[str, list[Card]]:
    """The card lists of one case that come from one deal and so share the decks' copies."""
    kind = case.get("kind")
    if kind == "classify":
        return {"cards": _cards(case.get("cards"))}
    if kind == "follow":
        return {"lead + hand": _cards(case.get("lead")) + _cards(case.get("hand"))}
    if kind == "throw":
        others = [c for h in case.get("others") or [] for c in _cards(h)]
        return {"cards + others": _cards(case.get("cards")) + others}
    if kind == "trick":
        if case.get("hands"):
            return {"hands": [c for h in case["hands"] for c in _cards(h)]}
        return {"plays": [c for p in case.get("plays") or [] for c in _cards(p)]}
    if kind == "kitty":
        return {"play + kitty": _cards(case.get("play")) + _cards(case.get("kitty"))}
    if kind == "declare":
        # A seat shows cards from its own hand: its single and later pair share a card.
        seats: dict[object, Counter[Card]] = {}
        for d in case.get("current") or []:
            seats[d.get("seat")] = seats.get(d.get("seat"), Counter()) | Counter(
                _cards(d.get("cards"))
            )
        mine = _cards(case.get("hand")) if case.get("hand") is not None else _cards(case["cards"])
        seat = case.get("seat")
        seats[seat] = seats.get(seat, Counter()) | Counter(mine)
        return {"hand + current": [c for counts in seats.values() for c in counts.elements()]}
    if kind in ("bonus", "flip"):
        return {"cards": _cards(case.get("hand")) + _cards(case.get("kitty"))}
    return {}


def test_there_are_case_files() -> None:
    assert FILES
    assert CASE_ITEMS


@pytest.mark.parametrize("path", FILES, ids=rel)
def test_every_file_parses(path: Path) -> None:
    assert isinstance(LOADED[path], dict), f"{rel(path)}: {LOADED[path]}"


@pytest.mark.parametrize("path", sorted(DATA), ids=rel)
def test_every_file_has_a_category(path: Path) -> None:
    assert str(DATA[path].get("category") or "").strip(), f"{rel(path)} has no category"


# Chinese characters and full-width punctuation: what an English label must not hold.
HAN = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


@pytest.mark.parametrize("path", sorted(DATA), ids=rel)
def test_every_file_has_an_english_category(path: Path) -> None:
    english = str(DATA[path].get("category_en") or "").strip()
    assert english, f"{rel(path)} has no category_en"
    assert not HAN.search(english), f"{rel(path)}: category_en {english!r} is not English"


@pytest.mark.parametrize("path", sorted(DATA), ids=rel)
def test_every_file_has_a_cases_list(path: Path) -> None:
    assert isinstance(DATA[path].get("cases"), list)


def test_every_case_has_a_title() -> None:
    missing = [
        f"{rel(p)}: {c.get('id')}" for p, c in CASE_ITEMS if not str(c.get("title") or "").strip()
    ]
    assert missing == []


def test_every_case_has_an_english_title() -> None:
    missing = [
        f"{rel(p)}: {c.get('id')}"
        for p, c in CASE_ITEMS
        if not str(c.get("title_en") or "").strip() or HAN.search(str(c.get("title_en")))
    ]
    assert missing == []


def test_every_case_has_a_source() -> None:
    missing = [
        f"{rel(p)}: {c.get('id')}" for p, c in CASE_ITEMS if not str(c.get("source") or "").strip()
    ]
    assert missing == []


def test_every_case_id_is_kebab_case() -> None:
    bad = [
        f"{rel(p)}: {c.get('id')!r}"
        for p, c in CASE_ITEMS
        if not KEBAB.match(str(c.get("id") or ""))
    ]
    assert bad == []


def test_case_ids_are_unique_across_the_suite() -> None:
    counts = Counter(str(c.get("id")) for _, c in CASE_ITEMS)
    assert [i for i, n in counts.items() if n > 1] == []


def test_every_case_has_a_kind_and_an_expectation() -> None:
    bad = [
        f"{rel(p)}: {c.get('id')}"
        for p, c in CASE_ITEMS
        if not c.get("kind") or not (c.get("expect") or c.get("expect_by_ruleset"))
    ]
    assert bad == []


def test_every_named_ruleset_exists() -> None:
    known = set(ruleset_names())
    bad = []
    for path, case in CASE_ITEMS:
        names = case_rulesets(path, case) + list((case.get("expect_by_ruleset") or {}).keys())
        if not names:
            bad.append(f"{rel(path)}: {case.get('id')} names no ruleset")
        bad += [f"{rel(path)}: {case.get('id')} -> {n}" for n in names if n not in known]
    assert bad == []


def test_no_card_appears_more_often_than_the_decks_hold() -> None:
    known = set(ruleset_names())
    bad = []
    for path, case in CASE_ITEMS:
        names = [n for n in case_rulesets(path, case) if n in known]
        if not names:
            continue  # reported by test_every_named_ruleset_exists
        options = case.get("options") or None
        decks = min(load_ruleset(n).with_options(options).decks for n in names)
        for what, cards in physical_pools(case).items():
            over = [f"{format_card(c)}×{n}" for c, n in Counter(cards).items() if n > decks]
            if over:
                bad.append(f"{rel(path)}: {case.get('id')} {what}: {' '.join(over)}")
    assert bad == []


def test_trick_plays_come_from_the_given_hands() -> None:
    bad = []
    for path, case in CASE_ITEMS:
        if case.get("kind") != "trick" or not case.get("hands"):
            continue
        for i, (hand, play) in enumerate(zip(case["hands"], case["plays"], strict=False)):
            if hand is not None and Counter(_cards(play)) - Counter(_cards(hand)):
                bad.append(f"{rel(path)}: {case.get('id')} play {i}")
    assert bad == []
