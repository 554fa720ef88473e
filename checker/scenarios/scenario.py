"""Checker scenarios: the contract's query parameters in, every verdict with its reason out."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from checker.engine.cards import Card, ascii_card, format_card, format_rank, is_subset, parse_cards
from checker.engine.combos import THROW, Combo, Unit, classify
from checker.engine.errors import EngineError
from checker.engine.follow import (
    explain_requirement,
    generate_example,
    generate_forced,
    judge_follow,
)
from checker.engine.hints import requirement_words
from checker.engine.order import Context, check_copies, make_context
from checker.engine.readings import Readings, lead_readings
from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_known, ruleset_names
from checker.engine.texts import EN, ZH, Lang, cards_text, count_en, pick
from checker.engine.throws import ThrowVerdict, judge_throw
from checker.engine.trick import resolve_trick
from checker.suite.kinds import card_strings, classify_explanation, classify_fields

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


def _seat_param(params: Mapping[str, str], key: str, players: int) -> int:
    """Read a seat number (0 = the leader), 0 when absent."""
    text = (params.get(key) or "").strip()
    if not text:
        return 0
    if not text.isdigit() or int(text) >= players:
        raise ScenarioError(
            key,
            f"“{text}”不是座位号（应为 0–{players - 1}，0 是领牌者）",
            en=f"“{text}” is not a seat (0–{players - 1}, 0 is the leader)",
        )
    return int(text)


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
        if not ruleset_known(name):
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
        self.banker = _seat_param(params, "banker", rs.players)
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


@dataclass(frozen=True)
class Checked:
    """One scenario judged once: the parsed cards, the engine's verdicts and the JSON answer.

    `led` is what counts as led: the lead itself, or the forced cards of a failed throw
    (the rest go back to the hand); every follow, the trick and its points are judged
    against it.
    """

    scenario: Scenario
    lead: Combo | None
    throw: ThrowVerdict | None
    led: tuple[Card, ...]
    led_combo: Combo | None
    data: dict[str, Any]
    readings: Readings | None = None

    @property
    def throw_failed(self) -> bool:
        return self.throw is not None and not self.throw.allowed

    @property
    def follow_seats(self) -> range:
        return range(1, self.scenario.ruleset.players)


def check_scenario(params: Mapping[str, str]) -> dict[str, Any]:
    """Judge a checker scenario and return the /api/check JSON object."""
    return judge_scenario(Scenario(params)).data


def judge_scenario(sc: Scenario) -> Checked:
    """Judge a parsed scenario once: lead, throw, every follow and the trick."""
    ctx, rs = sc.ctx, sc.ruleset
    out: dict[str, Any] = {
        "ruleset": rs.name,
        "level": sc.level_text,
        "trump": ctx.trump or "none",
        "options": dict(rs.options),
        "banker": sc.banker,
        "setting": ctx.describe(),
        "setting_en": ctx.describe(EN),
    }
    if not sc.lead:
        out["lead"] = None
        return Checked(sc, None, None, (), None, out)
    lead = classify(ctx, sc.lead)
    out["lead"] = {
        "cards": card_strings(sc.lead),
        **classify_fields(ctx, sc.lead),
        "explanation": classify_explanation(ctx, sc.lead),
        "explanation_en": classify_explanation(ctx, sc.lead, EN),
    }
    if not lead.is_valid:
        return Checked(sc, lead, None, (), None, out)
    readings = lead_readings(ctx, sc.lead)
    if readings is not None:
        out["lead"]["readings"] = readings_fields(readings)
    verdict = _judge_throw(sc, lead, out)
    led = tuple(verdict.played) if verdict is not None else lead.cards
    led_combo = classify(ctx, led) if verdict is not None and not verdict.allowed else lead
    out["led"] = _led_fields(sc, lead, verdict, led)
    out["follows"] = _follows(sc, led_combo)
    trick = _trick(sc, led)
    if trick is not None:
        out["trick"] = trick
    return Checked(sc, lead, verdict, led, led_combo, out, readings)


def readings_fields(readings: Readings) -> dict[str, Any]:
    """Write a lead's readings for the JSON answer: each as its unit groups, and why."""

    def groups(units: Sequence[Unit]) -> list[list[str]]:
        return [card_strings(u.cards) for u in units]

    return {
        "chosen": groups(readings.chosen.units),
        "others": [{"units": groups(r.units), "why": r.why} for r in readings.others],
        "explanation": readings.text(ZH),
        "explanation_en": readings.text(EN),
    }


def _judge_throw(sc: Scenario, lead: Combo, out: dict[str, Any]) -> ThrowVerdict | None:
    """Judge a throw against the hands given (none given: not judged) and say which they were."""
    seats = sorted(sc.hands)
    if lead.type != THROW or not seats:
        if lead.type == THROW:
            out["throw"] = {"checked": False, **_said(_throw_unchecked)}
        return None
    ctx, rs = sc.ctx, sc.ruleset
    verdict = judge_throw(ctx, sc.lead, [sc.hands[s] for s in seats], 0, sc.banker)
    beaten_by = None
    if verdict.beater is not None:
        seat = seats[verdict.beater[0]]
        beaten_by = {"player": seat, "cards": card_strings(verdict.beater[1])}
    missing = [s for s in range(1, rs.players) if s not in sc.hands]

    def scope(lang: Lang) -> str:
        return _throw_scope(lang, seats, missing, verdict.allowed)

    out["throw"] = {
        "checked": True,
        "allowed": verdict.allowed,
        "forced": card_strings(ctx.sort_cards(verdict.forced)),
        "penalty": verdict.penalty,
        "penalty_to": verdict.penalty_to,
        "beaten_by": beaten_by,
        "checked_against": seats,
        "not_given": missing,
        "scope": scope(ZH),
        "scope_en": scope(EN),
        "explanation": verdict.explanation,
        "explanation_en": verdict.explanation_en,
    }
    return verdict


def _led_fields(
    sc: Scenario, lead: Combo, verdict: ThrowVerdict | None, led: Sequence[Card]
) -> dict[str, Any]:
    """Say what counts as led: the lead, or a failed throw's forced cards."""
    failed = verdict is not None and not verdict.allowed
    combo = classify(sc.ctx, led) if failed else lead
    shown = card_strings(sc.ctx.sort_cards(led))

    def say(lang: Lang) -> str:
        cards = cards_text(sc.ctx.sort_cards(led), lang)
        if failed:
            tried = cards_text(sc.lead, lang)
            return pick(
                lang,
                f"甩牌失败：{tried} 中只有强制打出的 {cards} 算作领牌，其余收回手中；"
                f"下面的跟牌、输赢和分数都按 {cards} 判断。",
                f"The throw failed: of {tried} only the forced {cards} counts as led, the rest "
                f"go back to the hand; the follows, the winner and the points below are judged "
                f"against {cards}.",
            )
        return pick(lang, f"领牌 {cards}。", f"Led: {cards}.")

    return {
        "cards": shown,
        "type": combo.type,
        "from_failed_throw": failed,
        **_said(say),
    }


def _follows(sc: Scenario, led: Combo) -> list[dict[str, Any] | None]:
    """Judge every follower whose hand or play is given against what counts as led."""
    ctx, n = sc.ctx, len(led.cards)
    follows: list[dict[str, Any] | None] = []
    for seat in range(1, sc.ruleset.players):
        hand, play = sc.hands.get(seat), sc.plays.get(seat)
        if hand is None and play is None:
            follows.append(None)
            continue
        entry: dict[str, Any] = {"player": seat}
        if hand is not None:
            entry["hand"] = card_strings(ctx.sort_cards(hand))
        if play is not None:
            entry["play"] = card_strings(play)
        if hand is not None and len(hand) < n:
            entry["incomplete"] = True
            held = len(hand)

            def short(lang: Lang, held: int = held, seat: int = seat) -> str:
                return _short_hand(lang, held, n, seat)

            entry.update(_said(short))
        elif hand is not None:
            example = generate_example(ctx, led, hand)
            entry["forced"] = card_strings(generate_forced(ctx, led, hand))
            entry["example"] = card_strings(example)
            entry["need"] = requirement_words(ctx, led, hand)
            entry["need_en"] = requirement_words(ctx, led, hand, EN)
            if play is not None:
                verdict = judge_follow(ctx, led, hand, play)
                entry["legal"] = verdict.legal
                entry["reason"] = verdict.reason or None
                entry["explanation"] = verdict.explanation
                entry["explanation_en"] = verdict.explanation_en
            else:
                for lang, key in ((ZH, "explanation"), (EN, "explanation_en")):
                    entry[key] = explain_requirement(ctx, led, hand, example, lang)
        else:
            entry.update(_said(_no_hand))
        follows.append(entry)
    while follows and follows[-1] is None:
        follows.pop()
    return follows


def _trick(sc: Scenario, led: Sequence[Card]) -> dict[str, Any] | None:
    """Resolve the plays given in seat order; with seats still to play, say it is "so far"."""
    rs = sc.ruleset
    plays: list[Sequence[Card]] = [led]
    hands: list[Sequence[Card] | None] = [sc.h0]
    seat = 1
    while seat < rs.players and seat in sc.plays:
        plays.append(sc.plays[seat])
        hand = sc.hands.get(seat)
        hands.append(hand if hand is not None and len(hand) >= len(led) else None)
        seat += 1
    if len(plays) < 2:
        return None
    trick = resolve_trick(sc.ctx, plays, hands)
    waiting = [s for s in range(seat, rs.players) if s not in sc.plays]
    ignored = sorted(s for s in sc.plays if s > seat)
    unjudged = [i for i, v in enumerate(trick.legal) if v is None and i > 0]
    out: dict[str, Any] = {
        "winner": trick.winner,
        "beats": list(trick.beats),
        "points": trick.points,
        "legal": list(trick.legal),
        "complete": len(plays) == rs.players,
        "waiting": waiting + ignored,
        "ignored": ignored,
        "explanation": trick.explanation,
        "explanation_en": trick.explanation_en,
    }
    if not out["complete"] or unjudged:

        def so_far(lang: Lang) -> str:
            return _so_far(lang, trick.winner, len(plays), waiting, ignored, unjudged)

        out["so_far"], out["so_far_en"] = so_far(ZH), so_far(EN)
    return out


def _said(say: Callable[[Lang], str]) -> dict[str, str]:
    return {"explanation": say(ZH), "explanation_en": say(EN)}


def _seats(lang: Lang, seats: Sequence[int]) -> str:
    return pick(lang, "、", ", ").join(str(s) for s in seats)


def _players(lang: Lang, seats: Sequence[int]) -> str:
    """Name seats as players: 玩家 2、3 or player 2 / players 2, 3."""
    many = "players" if len(seats) > 1 else "player"
    return pick(lang, f"玩家 {_seats(lang, seats)}", f"{many} {_seats(lang, seats)}")


def _throw_unchecked(lang: Lang) -> str:
    return pick(
        lang,
        "甩牌是否成立要看其他玩家的手牌：至少填一家的手牌才能判断；"
        "在此之前，跟牌和输赢都按整手甩牌判断。",
        "Whether the throw stands depends on the other players' hands: enter at least one "
        "hand to judge it; until then the follows and the winner are judged against the "
        "whole throw.",
    )


def _throw_scope(lang: Lang, seats: Sequence[int], missing: Sequence[int], allowed: bool) -> str:
    """Say against which hands a throw was checked."""
    who = _players(lang, seats)
    if not missing:
        return pick(
            lang,
            f"已对照其他所有玩家（{who}）的手牌。",
            f"Checked against every other player's hand ({who}).",
        )
    gone = _players(lang, missing)
    if allowed:
        return pick(
            lang,
            f"只对照了{who}的手牌；{gone}的手牌没有给出，"
            "所以只能说这几家压不过，不能确定甩牌一定成立。",
            f"Checked only against the hand of {who}; {gone} not given, "
            "so the throw stands against these hands only.",
        )
    return pick(
        lang,
        f"对照了{who}的手牌（{gone}的手牌没有给出，但已有人压得过，甩牌必败）。",
        f"Checked against the hand of {who} ({gone} not given, but one "
        "hand already beats it, so the throw fails).",
    )


def _so_far(
    lang: Lang,
    winner: int,
    played: int,
    waiting: Sequence[int],
    ignored: Sequence[int],
    unjudged: Sequence[int],
) -> str:
    """Say that a trick is only partly known: who leads among the plays given, and what is missing."""
    who = (
        pick(lang, "玩家 0（领牌）", "player 0 (the lead)")
        if winner == 0
        else pick(lang, f"玩家 {winner}", f"player {winner}")
    )
    parts = [
        pick(
            lang,
            f"目前为止（已出 {played} 家）{who} 领先。",
            f"So far ({played} plays given) {who} is winning.",
        )
    ]
    if waiting:
        parts.append(
            pick(
                lang,
                f"{_players(lang, waiting)} 还没有出牌，结果可能改变。",
                f"{_players(lang, waiting).capitalize()} still to play: the result may change.",
            )
        )
    if ignored:
        parts.append(
            pick(
                lang,
                f"{_players(lang, ignored)} 的出牌排在没出牌的玩家之后，暂不计入。",
                f"The play of {_players(lang, ignored)} comes after a player who has "
                "not played, so it is not counted yet.",
            )
        )
    if unjudged:
        parts.append(
            pick(
                lang,
                f"第 {_seats(lang, unjudged)} 手没有给出整手牌，按合法处理。",
                f"Plays {_seats(lang, unjudged)} come without a whole hand and are taken as legal.",
            )
        )
    return "".join(parts) if lang == ZH else " ".join(parts)


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


def scenario_to_case_yaml(params: Mapping[str, str]) -> str:
    """Write the scenario as contract YAML cases, with the engine's current answers as expected."""
    return case_yaml(judge_scenario(Scenario(params)))


def case_yaml(checked: Checked, lang: Lang = ZH) -> str:
    """Write a judged scenario as contract YAML cases (classify, throw, follows, trick), with
    titles and comments in zh-Hans or English."""
    sc, result = checked.scenario, checked.data
    base: dict[str, Any] = {}
    if sc.level_text is not None:
        base["level"] = sc.level_text
    base["trump"] = result["trump"]
    if sc.options:
        base["options"] = sc.options
    slug = "checker-" + "-".join(card_ascii_slug(c) for c in sc.lead[:6]).lower()
    cases: list[dict[str, Any]] = [
        *_classify_case(checked, base, slug, lang),
        *_throw_case(checked, base, slug, lang),
        *_follow_cases(checked, base, slug, lang),
        *_trick_case(checked, base, slug, lang),
    ]
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml when available
    return _yaml_note(checked, lang) + yaml.dump(
        {"rulesets": [sc.ruleset.name], "cases": cases},
        Dumper=dumper,
        allow_unicode=True,
        sort_keys=False,
    )


def _lead_text(checked: Checked) -> str:
    return " ".join(card_strings(checked.scenario.lead))


def _led_text(checked: Checked) -> str:
    """The lead the follows and the trick answer: the forced cards after a failed throw."""
    return " ".join(card_strings(checked.led)) or _lead_text(checked)


def _classify_case(
    checked: Checked, base: Mapping[str, Any], slug: str, lang: Lang
) -> list[dict[str, Any]]:
    lead = checked.data.get("lead")
    if not lead:
        return []
    lead_text = _lead_text(checked)
    expect = {k: lead[k] for k in ("type", "tractors", "pairs", "singles") if k in lead}
    return [
        {
            "id": f"{slug}-classify",
            **_titles(f"牌型：{lead_text}", f"Classify: {lead_text}"),
            "kind": "classify",
            **base,
            "cards": lead_text,
            "expect": expect,
        }
    ]


def _throw_case(
    checked: Checked, base: Mapping[str, Any], slug: str, lang: Lang
) -> list[dict[str, Any]]:
    sc, throw = checked.scenario, checked.data.get("throw")
    if not (throw and throw.get("checked")):
        return []
    lead_text = _lead_text(checked)
    others = [" ".join(card_strings(sc.hands[s])) for s in throw["checked_against"]]
    expect: dict[str, Any] = {"allowed": throw["allowed"]}
    if not throw["allowed"]:
        expect["forced"] = throw["forced"]
        expect["penalty"] = throw["penalty"]
    return [
        {
            "id": f"{slug}-throw",
            **_titles(f"甩牌：{lead_text}", f"Throw: {lead_text}"),
            "kind": "throw",
            **base,
            "cards": lead_text,
            "others": others,
            "seat": 0,
            "banker": sc.banker,
            "expect": expect,
        }
    ]


def _follow_cases(
    checked: Checked, base: Mapping[str, Any], slug: str, lang: Lang
) -> list[dict[str, Any]]:
    cases = []
    for entry in checked.data.get("follows") or []:
        if not entry or "forced" not in entry:
            continue
        player = entry["player"]
        case = {
            "id": f"{slug}-follow-{player}",
            **_titles(f"跟牌：玩家{player}", f"Follow: player {player}"),
            "kind": "follow",
            **base,
            "lead": _led_text(checked),
            "hand": " ".join(entry["hand"]),
        }
        expect: dict[str, Any] = {"forced": entry["forced"]}
        if "play" in entry:
            case["play"] = " ".join(entry["play"])
            expect["legal"] = entry["legal"]
            if entry.get("reason"):
                expect["reason"] = entry["reason"]
        case["expect"] = expect
        cases.append(case)
    return cases


def _trick_case(
    checked: Checked, base: Mapping[str, Any], slug: str, lang: Lang
) -> list[dict[str, Any]]:
    trick = checked.data.get("trick")
    if not trick:
        return []
    led_text = _led_text(checked)
    plays = [led_text] + [
        " ".join(card_strings(checked.scenario.plays[s])) for s in range(1, len(trick["beats"]))
    ]
    expect = {"winner": trick["winner"], "beats": trick["beats"], "points": trick["points"]}
    return [
        {
            "id": f"{slug}-trick",
            **_titles(f"比牌：{led_text}", f"Trick: {led_text}"),
            "kind": "trick",
            **base,
            "plays": plays,
            "expect": expect,
        }
    ]


def _yaml_note(checked: Checked, lang: Lang) -> str:
    note = pick(
        lang,
        "# 由检查器生成：期望值是引擎当前的判定，粘贴进 cases/ 前请逐条核对。\n",
        "# Made by the checker: the expectations are the engine's current verdicts; check each"
        " one before pasting into cases/.\n",
    )
    if checked.throw_failed:
        led_text = _led_text(checked)
        note += pick(
            lang,
            f"# 甩牌失败：跟牌与比牌按强制打出的 {led_text} 判断。\n",
            f"# Failed throw: follows and the trick are judged against the forced {led_text}.\n",
        )
    return note


def _titles(zh: str, en: str) -> dict[str, str]:
    """A case's row labels: title in zh-Hans and title_en beside it (third edition)."""
    return {"title": zh, "title_en": en}


def card_ascii_slug(card: Card) -> str:
    """Write a card in ASCII for ids."""
    return ascii_card(card)


__all__ = [
    "Checked",
    "ScenarioError",
    "case_yaml",
    "check_scenario",
    "format_card",
    "judge_scenario",
    "scenario_to_case_yaml",
]
