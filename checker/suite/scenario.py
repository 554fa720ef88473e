"""Checker scenarios: the contract's query parameters in, every verdict with its reason out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from checker.engine.cards import Card, format_card, format_rank, is_subset, parse_cards
from checker.engine.combos import THROW, classify
from checker.engine.errors import EngineError
from checker.engine.follow import (
    explain_requirement,
    generate_example,
    generate_forced,
    judge_follow,
)
from checker.engine.order import Context, check_copies, make_context
from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_names
from checker.engine.texts import EN, ZH, Lang, count_en, pick
from checker.engine.throws import judge_throw
from checker.engine.trick import resolve_trick

from .kinds import _classify_fields, card_strings, classify_explanation

MAX_FIELD = 400


class ScenarioError(ValueError):
    """Bad checker input: names the parameter and what was wrong with it."""

    def __init__(self, field: str, message: str, *, en: str | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.message_en = en or message

    @classmethod
    def of(cls, field: str, exc: EngineError) -> ScenarioError:
        """Carry an engine error, in both its languages, over to a checker parameter."""
        return cls(field, exc.message, en=exc.message_en)


def parse_options(text: str) -> dict[str, Any]:
    """Parse options written as name:value,name:value."""
    out: dict[str, Any] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition(":")
        if not sep or not name.strip():
            raise ScenarioError(
                "options", f"“{part}”应写作 名称:值", en=f"“{part}” should be written name:value"
            )
        raw = value.strip()
        parsed: Any = raw
        if raw.lower() in ("true", "false"):
            parsed = raw.lower() == "true"
        elif raw.lstrip("-").isdigit():
            parsed = int(raw)
        out[name.strip()] = parsed
    return out


class Scenario:
    """A parsed checker scenario: ruleset, deal order, the lead and the other players."""

    def __init__(self, params: Mapping[str, str]) -> None:
        for key, value in params.items():
            if len(str(value)) > MAX_FIELD:
                raise ScenarioError(
                    key,
                    f"内容过长（超过 {MAX_FIELD} 个字符）",
                    en=f"too long (more than {MAX_FIELD} characters)",
                )
        name = (params.get("ruleset") or "classic").strip()
        if name not in ruleset_names():
            raise ScenarioError(
                "ruleset",
                f"未知规则集“{name}”（可用：{', '.join(ruleset_names())}）",
                en=f"unknown ruleset “{name}” (known: {', '.join(ruleset_names())})",
            )
        try:
            self.options = parse_options(params.get("options") or "")
            self.ruleset: Ruleset = load_ruleset(name).with_options(self.options)
        except EngineError as exc:
            raise ScenarioError.of("options", exc) from exc
        rs = self.ruleset
        level = (params.get("level") or "").strip() or ("2" if rs.has_level else None)
        trump = (params.get("trump") or "").strip() or "none"
        try:
            self.ctx: Context = make_context(rs, level, trump)
        except EngineError as exc:
            raise ScenarioError.of(exc.field or "level", exc) from exc
        self.lead = self._cards(params, "lead")
        self.h0 = self._cards(params, "h0") if params.get("h0") else None
        self.hands: dict[int, list[Card]] = {}
        self.plays: dict[int, list[Card]] = {}
        for key in params:
            if key[:1] in ("h", "p") and key[1:].isdigit() and key != "h0":
                seat = int(key[1:])
                if not 1 <= seat < rs.players:
                    raise ScenarioError(
                        key,
                        f"{rs.title}只有 {rs.players} 位玩家（h1–h{rs.players - 1}）",
                        en=f"{rs.name} has only {rs.players} players (h1–h{rs.players - 1})",
                    )
                if params.get(key):
                    target = self.hands if key[0] == "h" else self.plays
                    target[seat] = self._cards(params, key)
        pool = list(self.h0 if self.h0 is not None else self.lead)
        for seat in range(1, rs.players):
            pool += self.hands.get(seat) or self.plays.get(seat) or []
        try:
            check_copies(self.ctx, {"牌面": pool})
        except EngineError as exc:
            raise ScenarioError.of("cards", exc) from exc
        if self.h0 is not None and not is_subset(self.lead, self.h0):
            raise ScenarioError(
                "h0",
                "领牌不全在领牌者的手牌 h0 中",
                en="the lead is not all in the leader's hand h0",
            )

    def _cards(self, params: Mapping[str, str], key: str) -> list[Card]:
        try:
            cards = parse_cards(params.get(key) or "")
            self.ctx.check_cards(cards, key)
        except EngineError as exc:
            raise ScenarioError.of(key, exc) from exc
        return cards

    @property
    def level_text(self) -> str | None:
        return format_rank(self.ctx.level) if self.ctx.level is not None else None


def check_scenario(params: Mapping[str, str]) -> dict[str, Any]:
    """Judge a checker scenario and return the /api/check JSON object."""
    sc = Scenario(params)
    ctx, rs = sc.ctx, sc.ruleset
    out: dict[str, Any] = {
        "ruleset": rs.name,
        "level": sc.level_text,
        "trump": ctx.trump or "none",
        "options": dict(rs.options),
        "setting": ctx.describe(),
        "setting_en": ctx.describe(EN),
    }
    if not sc.lead:
        out["lead"] = None
        return out
    lead = classify(ctx, sc.lead)
    out["lead"] = {
        "cards": card_strings(sc.lead),
        **_classify_fields(ctx, sc.lead),
        "explanation": classify_explanation(ctx, sc.lead),
        "explanation_en": classify_explanation(ctx, sc.lead, EN),
    }
    if not lead.is_valid:
        return out
    others = [sc.hands[s] for s in sorted(sc.hands)]
    if lead.type == THROW and others:
        verdict = judge_throw(ctx, sc.lead, others)
        beaten_by = None
        if verdict.beater is not None:
            seat = sorted(sc.hands)[verdict.beater[0]]
            beaten_by = {"player": seat, "cards": card_strings(verdict.beater[1])}
        out["throw"] = {
            "allowed": verdict.allowed,
            "forced": card_strings(ctx.sort_cards(verdict.forced)),
            "penalty": verdict.penalty,
            "beaten_by": beaten_by,
            "explanation": verdict.explanation,
            "explanation_en": verdict.explanation_en,
        }
    follows = []
    for seat in range(1, rs.players):
        hand, play = sc.hands.get(seat), sc.plays.get(seat)
        if hand is None and play is None:
            follows.append(None)
            continue
        entry: dict[str, Any] = {"player": seat}
        if hand is not None and len(hand) < len(sc.lead):
            entry["hand"] = card_strings(ctx.sort_cards(hand))
            if play is not None:
                entry["play"] = card_strings(play)
            entry["incomplete"] = True
            for lang, key in ((ZH, "explanation"), (EN, "explanation_en")):
                entry[key] = _short_hand(lang, len(hand), len(sc.lead), seat)
            follows.append(entry)
            continue
        if hand is not None:
            entry["hand"] = card_strings(ctx.sort_cards(hand))
            entry["forced"] = card_strings(generate_forced(ctx, lead, hand))
            entry["example"] = card_strings(generate_example(ctx, lead, hand))
        if play is not None:
            entry["play"] = card_strings(play)
        if hand is not None and play is not None:
            verdict_f = judge_follow(ctx, lead, hand, play)
            entry["legal"] = verdict_f.legal
            entry["reason"] = verdict_f.reason or None
            entry["explanation"] = verdict_f.explanation
            entry["explanation_en"] = verdict_f.explanation_en
        elif hand is not None:
            example = [_parse(c) for c in entry["example"]]
            for lang, key in ((ZH, "explanation"), (EN, "explanation_en")):
                entry[key] = explain_requirement(ctx, lead, hand, example, lang)
        else:
            for lang, key in ((ZH, "explanation"), (EN, "explanation_en")):
                entry[key] = _no_hand(lang)
        follows.append(entry)
    while follows and follows[-1] is None:
        follows.pop()
    out["follows"] = follows
    plays = [sc.lead]
    hands: list[list[Card] | None] = [sc.h0]
    for seat in range(1, rs.players):
        if seat not in sc.plays:
            break
        plays.append(sc.plays[seat])
        hand = sc.hands.get(seat)
        hands.append(hand if hand is not None and len(hand) >= len(sc.lead) else None)
    if len(plays) > 1:
        trick = resolve_trick(ctx, plays, hands)
        out["trick"] = {
            "winner": trick.winner,
            "beats": list(trick.beats),
            "points": trick.points,
            "legal": list(trick.legal),
            "explanation": trick.explanation,
            "explanation_en": trick.explanation_en,
        }
    return out


def _short_hand(lang: Lang, held: int, led: int, seat: int) -> str:
    """Explain why a follow cannot be judged: the hand given is smaller than the lead."""
    return pick(
        lang,
        f"手牌只有 {held} 张，少于领牌的 {led} 张：请输入玩家{seat}的整手牌再判断。",
        f"The hand has only {count_en(held, 'card')}, fewer than the {led} led: "
        f"enter player {seat}'s "
        "whole hand to judge this follow.",
    )


def _no_hand(lang: Lang) -> str:
    """Explain a play judged without its hand."""
    return pick(
        lang,
        "没有给出手牌，无法判断这手跟牌是否合法（按合法处理）。",
        "No hand was given, so this follow cannot be checked (it is treated as legal).",
    )


def _parse(text: str) -> Card:
    return parse_cards(text)[0]


def scenario_to_case_yaml(params: Mapping[str, str]) -> str:
    """Write the scenario as contract YAML cases, with the engine's current answers as expected."""
    sc = Scenario(params)
    result = check_scenario(params)
    base: dict[str, Any] = {}
    if sc.level_text is not None:
        base["level"] = sc.level_text
    base["trump"] = result["trump"]
    if sc.options:
        base["options"] = sc.options
    lead_text = " ".join(card_strings(sc.lead))
    slug = "checker-" + "-".join(card_ascii_slug(c) for c in sc.lead[:6]).lower()
    cases: list[dict[str, Any]] = []
    if result.get("lead"):
        lead = result["lead"]
        expect = {k: lead[k] for k in ("type", "tractors", "pairs", "singles") if k in lead}
        cases.append(
            {
                "id": f"{slug}-classify",
                "title": f"牌型：{lead_text}",
                "kind": "classify",
                **base,
                "cards": lead_text,
                "expect": expect,
            }
        )
    for entry in result.get("follows") or []:
        if not entry or "hand" not in entry:
            continue
        case = {
            "id": f"{slug}-follow-{entry['player']}",
            "title": f"跟牌：玩家{entry['player']}",
            "kind": "follow",
            **base,
            "lead": lead_text,
            "hand": " ".join(entry["hand"]),
        }
        expect_f: dict[str, Any] = {"forced": entry["forced"]}
        if "play" in entry:
            case["play"] = " ".join(entry["play"])
            expect_f["legal"] = entry["legal"]
            if entry.get("reason"):
                expect_f["reason"] = entry["reason"]
        case["expect"] = expect_f
        cases.append(case)
    if result.get("trick"):
        plays = [lead_text] + [
            " ".join(card_strings(sc.plays[s])) for s in range(1, len(result["trick"]["beats"]))
        ]
        trick = result["trick"]
        cases.append(
            {
                "id": f"{slug}-trick",
                "title": f"比牌：{lead_text}",
                "kind": "trick",
                **base,
                "plays": plays,
                "expect": {
                    "winner": trick["winner"],
                    "beats": trick["beats"],
                    "points": trick["points"],
                },
            }
        )
    note = "# 由检查器生成：期望值是引擎当前的判定，粘贴进 cases/ 前请逐条核对。\n"
    return note + yaml.safe_dump(
        {"rulesets": [sc.ruleset.name], "cases": cases}, allow_unicode=True, sort_keys=False
    )


def card_ascii_slug(card: Card) -> str:
    """Write a card in ASCII for ids."""
    from checker.engine.cards import ascii_card

    return ascii_card(card)


__all__ = ["ScenarioError", "check_scenario", "format_card", "scenario_to_case_yaml"]
