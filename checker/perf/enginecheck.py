"""The engine's equality check: every verdict and explanation of the case suite and of a seeded
set of random judgements, as canonical JSON, so that two builds or two commits can be compared.

Each random record is drawn from its own seeded generator (seed and index), so a difference in
one record never shifts the inputs of the next. A record judges one deal on one ruleset
variant (every ruleset, each option choice taken one at a time, multideck at every deck count):
the lead's classification, for three followers the forced cards, an example and two follows
judged, the trick resolved (with or without the hands) and the lead judged as a throw, each
with its Chinese and English explanation.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checker.engine.cards import SUITS, Card, ascii_card, format_rank
from checker.engine.combos import Answer, Combo, Unit, classify
from checker.engine.errors import EngineError
from checker.engine.follow import FollowVerdict, generate_example, generate_forced, judge_follow
from checker.engine.order import TRUMP, Context, make_context
from checker.engine.ruleset import Ruleset, builtin_ruleset_names, load_ruleset
from checker.engine.throws import ThrowVerdict, judge_throw
from checker.engine.trick import resolve_trick
from checker.suite.runner import run_suite

# Judgements per random record: classify 1, per follower (3) forced, example and two judged
# follows, the trick, the throw.
JUDGEMENTS_PER_RECORD = 1 + 3 * 4 + 1 + 1
DEFAULT_JUDGEMENTS = 100_000


def variants() -> list[tuple[str, Ruleset]]:
    """List the ruleset variants judged: each ruleset as it is, and each option choice alone."""
    out: list[tuple[str, Ruleset]] = []
    for name in builtin_ruleset_names():  # house rulesets only re-read these sections
        rs = load_ruleset(name)
        out.append((name, rs))
        for key, spec in sorted(rs.option_specs.items()):
            for value in spec.choices:
                if value == rs.options.get(key):
                    continue
                variant = rs.with_options({key: value})
                if variant.deck_size >= 8:
                    out.append((f"{name} {key}={value}", variant))
    return out


def _cards(cards: Iterable[Card]) -> list[str]:
    return [ascii_card(c) for c in cards]


def _unit(unit: Unit | None) -> list[Any] | None:
    if unit is None:
        return None
    return [unit.kind, _cards(unit.cards), unit.top, unit.length]


def _answer(answer: Answer | None) -> list[Any] | None:
    return None if answer is None else [list(answer.tractors), answer.pairs]


def combo_data(ctx: Context, combo: Combo) -> dict[str, Any]:
    """Write a classification as plain data, its reasons in both languages."""
    return {
        "type": combo.type,
        "group": combo.group,
        "cards": _cards(combo.cards),
        "units": [_unit(u) for u in combo.units],
        "reason": combo.reason,
        "reason_en": combo.reason_for(ctx, "en"),
    }


def follow_data(verdict: FollowVerdict) -> dict[str, Any]:
    """Write a follow verdict as plain data with both explanations."""
    return {
        "legal": verdict.legal,
        "reason": verdict.reason,
        "required": _answer(verdict.required),
        "shown": _answer(verdict.shown),
        "need": [list(s) for s in verdict.need],
        "got": [list(s) for s in verdict.got],
        "zh": verdict.explanation,
        "en": verdict.explanation_en,
    }


def throw_data(verdict: ThrowVerdict) -> dict[str, Any]:
    """Write a throw verdict as plain data with both explanations."""
    beater = verdict.beater
    return {
        "allowed": verdict.allowed,
        "forced": _cards(verdict.forced),
        "played": _cards(verdict.played),
        "beaten": _unit(verdict.beaten),
        "beater": None if beater is None else [beater[0], _cards(beater[1])],
        "penalty": verdict.penalty,
        "penalty_to": verdict.penalty_to,
        "policy": verdict.policy,
        "zh": verdict.explanation,
        "en": verdict.explanation_en,
    }


def _error(exc: EngineError) -> dict[str, Any]:
    return {"error": exc.message, "error_en": exc.message_for("en")}


def _pick_lead(ctx: Context, rng: random.Random, hand: list[Card]) -> list[Card]:
    """Draw a lead from a hand: a single, n of a kind, a run, a subset of one group, or a mix."""
    group = ctx.key[rng.choice(hand)][0]
    mine = sorted((c for c in hand if ctx.key[c][0] == group), key=lambda c: ctx.key[c][1])
    shape = rng.random()
    if shape < 0.2 or len(mine) < 2:
        return [rng.choice(mine)]
    copies = {c: mine.count(c) for c in mine}
    if shape < 0.4:
        card = rng.choice(mine)
        return [card] * rng.randint(1, copies[card])
    if shape < 0.65:
        width = rng.randint(2, max(2, max(copies.values())))
        by_pos: dict[int, Card] = {}
        for c, n in copies.items():
            if n >= width:
                by_pos[ctx.key[c][1]] = c
        if by_pos:
            start = rng.choice(sorted(by_pos))
            run = [by_pos[start]]
            while start + len(run) in by_pos and rng.random() < 0.7:
                run.append(by_pos[start + len(run)])
            return [c for c in run for _ in range(width)]
        return [rng.choice(mine)]
    if shape < 0.8:
        units = list(classify(ctx, mine).units)
        wide = [u for u in units if u.length or u.size > 1] or units
        picked = rng.sample(wide, rng.randint(1, min(3, len(wide))))
        tractors = [u for u in units if u.length >= 2 and u not in picked]
        if tractors and rng.random() < 0.6:
            picked.append(rng.choice(tractors))
        if rng.random() < 0.5:
            picked += rng.sample(units, rng.randint(0, min(2, len(units))))
        cards = [c for u in picked for c in u.cards]
        return cards if cards else [rng.choice(mine)]
    if shape < 0.92:
        return rng.sample(mine, rng.randint(2, min(len(mine), 12)))
    return rng.sample(hand, rng.randint(2, min(len(hand), 6)))


def _some_follow(rng: random.Random, ctx: Context, lead: Combo, hand: list[Card]) -> list[Card]:
    """Draw a follow of the lead's size: any cards, or led-group cards first."""
    n = len(lead.cards)
    if rng.random() < 0.4:
        return rng.sample(hand, n)
    trumps = sorted((c for c in hand if ctx.key[c][0] == TRUMP), key=lambda c: -ctx.key[c][1])
    if lead.group != TRUMP and len(trumps) >= n and rng.random() < 0.3:
        return trumps[:n]  # a ruff, void or not
    suit = [c for c in hand if ctx.key[c][0] == lead.group]
    rest = [c for c in hand if ctx.key[c][0] != lead.group]
    rng.shuffle(suit)
    rng.shuffle(rest)
    if rng.random() < 0.4:  # one copy of each card first: breaks pairs and tractors
        first: list[Card] = []
        later: list[Card] = []
        for c in suit:
            (later if c in first else first).append(c)
        suit = first + later
    return (suit + rest)[:n] if rng.random() < 0.8 else (suit[: n - 1] + rest)[:n]


def judge_record(seed: int, index: int, pool: Sequence[tuple[str, Ruleset]]) -> dict[str, Any]:
    """Judge one seeded random deal and return every result as plain data."""
    rng = random.Random(f"{seed}:{index}")
    name, rs = pool[index % len(pool)]
    level = rng.choice(rs.levels) if rs.has_level else None
    trump = rng.choice([*SUITS, None])
    ctx = make_context(rs, None if level is None else format_rank(level), trump or "none")
    deck = sorted(ctx.deck) * rs.decks
    rng.shuffle(deck)
    top = min(40, len(deck) // 4)
    size = rng.randint(1, top) if rng.random() < 0.25 else rng.randint(min(12, top), top)
    hands = [deck[i * size : (i + 1) * size] for i in range(4)]
    lead_cards = _pick_lead(ctx, rng, hands[0])
    lead = classify(ctx, lead_cards)
    out: dict[str, Any] = {
        "i": index,
        "ruleset": name,
        "level": level,
        "trump": trump,
        "hands": [_cards(h) for h in hands],
        "lead": combo_data(ctx, lead),
    }
    if lead.is_valid:
        follows, plays = [], [lead_cards]
        for hand in hands[1:]:
            example = generate_example(ctx, lead, hand)
            other = _some_follow(rng, ctx, lead, hand) if len(hand) >= len(lead_cards) else example
            follows.append(
                {
                    "forced": _cards(generate_forced(ctx, lead, hand)),
                    "example": _cards(example),
                    "judged_example": follow_data(judge_follow(ctx, lead, hand, example)),
                    "other": _cards(other),
                    "judged_other": follow_data(judge_follow(ctx, lead, hand, other)),
                }
            )
            plays.append(example if rng.random() < 0.5 else other)
        out["follows"] = follows
        with_hands = rng.random() < 0.5
        trick = resolve_trick(ctx, plays, list(hands) if with_hands else None)
        out["trick"] = {
            "plays": [_cards(p) for p in plays],
            "with_hands": with_hands,
            "winner": trick.winner,
            "beats": list(trick.beats),
            "points": trick.points,
            "legal": list(trick.legal),
            "notes": [list(n) for n in trick.notes],
            "zh": trick.explanation,
            "en": trick.explanation_en,
        }
    seat, banker = rng.randrange(4), rng.randrange(4)
    try:
        out["throw"] = throw_data(judge_throw(ctx, lead_cards, hands[1:], seat, banker))
    except EngineError as exc:
        out["throw"] = _error(exc)
    return out


def generate_records(seed: int, judgements: int) -> Iterator[dict[str, Any]]:
    """Yield the random records that hold at least `judgements` judgements."""
    pool = variants()
    count = -(-judgements // JUDGEMENTS_PER_RECORD)
    for index in range(count):
        yield judge_record(seed, index, pool)


def suite_records() -> list[dict[str, Any]]:
    """Run the whole case suite and return each result's verdict and explanations."""
    return [r.as_json() for r in run_suite().results]


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def write_check(
    path: Path, *, seed: int = 1, judgements: int = DEFAULT_JUDGEMENTS, suite: bool = True
) -> int:
    """Write the check file (a header line, then one record a line); return the records written."""
    written = 0
    with path.open("w", encoding="utf-8") as out:
        out.write(_line({"seed": seed, "judgements": judgements, "suite": suite}) + "\n")
        if suite:
            for record in suite_records():
                out.write(_line({"suite": record}) + "\n")
                written += 1
        for record in generate_records(seed, judgements):
            out.write(_line({"random": record}) + "\n")
            written += 1
    return written


@dataclass(frozen=True)
class Difference:
    """One line where two check files differ: its number, and both lines."""

    line: int
    before: str
    after: str


def compare_checks(before: Path, after: Path, limit: int = 5) -> list[Difference]:
    """Compare two check files line by line; return the first differences (none: identical)."""
    out: list[Difference] = []
    with before.open(encoding="utf-8") as a, after.open(encoding="utf-8") as b:
        number = 0
        while len(out) < limit:
            number += 1
            left, right = a.readline(), b.readline()
            if not left and not right:
                break
            if left != right:
                out.append(Difference(number, left.rstrip("\n"), right.rstrip("\n")))
    return out


__all__ = [
    "DEFAULT_JUDGEMENTS",
    "TRUMP",
    "Difference",
    "compare_checks",
    "generate_records",
    "judge_record",
    "suite_records",
    "variants",
    "write_check",
]
