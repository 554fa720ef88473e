"""One adapter per trick-level case kind (classify, follow, trick, compare, throw, kitty, score,
declare, bid, bonus, reveal, flip): read a case's inputs, ask the engine, return actual values and
the engine's explanation (a message to render in zh or en). `registry.KINDS` lists every kind."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from checker.engine.bidding import judge_auction, settle_chips
from checker.engine.bonus import count_bonus, reveal_duty
from checker.engine.cards import Card, format_card, parse_cards
from checker.engine.combos import THROW, classify, type_name
from checker.engine.compare import ruff_key
from checker.engine.declare import flip_trump, judge_declaration
from checker.engine.errors import CardError, PlayError
from checker.engine.follow import (
    explain_requirement,
    generate_example,
    generate_forced,
    judge_follow,
)
from checker.engine.order import TRUMP, Context, check_copies, parse_level
from checker.engine.ruleset import Ruleset
from checker.engine.scoring import kitty_bonus, score_round
from checker.engine.texts import EN, ZH, Lang, cards_text, pick
from checker.engine.throws import judge_throw
from checker.engine.trick import compares_every_unit, resolve_trick
from checker.engine.units import tuple_name

from . import fields as F
from .fields import Outcome, case_kind


def card_strings(cards: Sequence[Card]) -> list[str]:
    """Write cards as symbol strings for output."""
    return [format_card(c) for c in cards]


def parse_field(ctx: Context, value: Any, field: str) -> list[Card]:
    """Parse one card-list field of a case, naming the field on error."""
    if value is None:
        return []
    if not isinstance(value, (str, list)):
        raise CardError(
            f"{field} 必须是牌的列表或字符串，而不是“{value}”",
            en=f"{field} must be a card list or a string, not “{value}”",
            field=field,
        )
    try:
        cards = parse_cards(value if isinstance(value, str) else [str(v) for v in value])
    except CardError as exc:
        raise CardError(
            f"{field}: {exc.message}", en=f"{field}: {exc.message_en}", field=field, value=exc.value
        ) from exc
    ctx.check_cards(cards, field)
    return cards


def parse_all(ctx: Context, data: Mapping[str, Any], field: str) -> list[Card]:
    """Parse the one card field that holds every card of a case, checking the copies."""
    cards = parse_field(ctx, data[field], field)
    check_copies(ctx, {field: cards})
    return cards


def parse_hands(ctx: Context, value: Any, field: str) -> list[list[Card]]:
    """Parse a list of card lists (others, plays, hands)."""
    if not isinstance(value, list):
        raise CardError(
            f"{field} 必须是牌列表的列表", en=f"{field} must be a list of card lists", field=field
        )
    return [parse_field(ctx, v, f"{field}[{i}]") for i, v in enumerate(value)]


def _int(data: Mapping[str, Any], key: str, default: int | None = None) -> int | None:
    value = data.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise PlayError(
            f"{key} 必须是整数，而不是“{value}”",
            en=f"{key} must be an integer, not “{value}”",
            field=key,
        )
    return value


def classify_fields(ctx: Context, cards: Sequence[Card]) -> dict[str, Any]:
    combo = classify(ctx, cards)
    out: dict[str, Any] = {"type": combo.type}
    if combo.is_valid:
        top = combo.units[0]
        out["width"] = top.width
        out["length"] = top.span
        out["units"] = [{"width": u.width, "length": u.span} for u in combo.units]
        out["name"] = type_name(THROW) if combo.type == THROW else top.name(ctx)
        out["suit"] = "trump" if combo.group == TRUMP else combo.group
        out["tractors"] = sorted((u.length for u in combo.tractors), reverse=True)
        out["pairs"] = len(combo.pairs)
        out["singles"] = len(combo.singles)
        out["pair_cards"] = card_strings([c for u in combo.pairs for c in u.cards])
        out["single_cards"] = card_strings([c for u in combo.singles for c in u.cards])
        out["unit_words"] = [u.describe() for u in combo.units]
    return out


def classify_explanation(ctx: Context, cards: Sequence[Card], lang: Lang = ZH) -> str:
    """Explain a classification in words (zh-Hans by default, or English)."""
    combo = classify(ctx, cards)
    shown, setting = cards_text(cards, lang), ctx.describe(lang)
    if not combo.is_valid:
        reason = combo.reason_for(ctx, lang)
        return pick(
            lang,
            f"{shown}（{setting}）不能一起领出：{reason}。",
            f"{shown} ({setting}) cannot be led together: {reason}.",
        )
    group = ctx.group_name(combo.group or "", lang)
    if combo.type == "throw":
        units = pick(lang, "；", "; ").join(u.describe(lang) for u in combo.units)
        return pick(
            lang,
            f"{shown}（{setting}）都是{group}，不止一个牌型，是甩牌：{units}。",
            f"{shown} ({setting}) are all {group} and make more than one unit, "
            f"so they are a throw: {units}.",
        )
    unit = combo.units[0]
    if combo.type == "tractor":
        if unit.width == 2:
            return pick(
                lang,
                f"{shown}（{setting}）是{group}中位置相邻的 {unit.length} 个对子，构成拖拉机。",
                f"{shown} ({setting}) are {unit.length} adjacent pairs in {group}, "
                "so they form a tractor.",
            )
        each = tuple_name(unit.width)
        return pick(
            lang,
            f"{shown}（{setting}）是{group}中位置相邻的 {unit.length} 个{each}，"
            f"构成{unit.name(ctx)}（宽 {unit.width}、长 {unit.length}）。",
            f"{shown} ({setting}) are {unit.length} adjacent sets of {unit.width} identical "
            f"{group}, so they form a {unit.name(ctx, lang)} (width {unit.width}, "
            f"length {unit.length}).",
        )
    if combo.type == "pair":
        return pick(
            lang,
            f"{shown} 是两张完全相同的{group}，构成对子。",
            f"{shown} are two identical {group}, so they form a pair.",
        )
    if combo.type == "tuple":
        return pick(
            lang,
            f"{shown} 是 {unit.width} 张完全相同的{group}，构成{tuple_name(unit.width)}。",
            f"{shown} are {unit.width} identical {group}, so they form a "
            f"{tuple_name(unit.width, lang)}.",
        )
    return pick(lang, f"{shown} 是{group}单张。", f"{shown} is a single in {group}.")


@case_kind(
    "classify",
    "牌型识别",
    "Classify",
    inputs={"cards": F.CARDS},
    required=("cards",),
    outputs={
        "type": F.STRING,
        "suit": F.STRING,
        "tractors": F.INT_LIST,
        "pairs": F.COUNT_OR_CARDS,
        "singles": F.COUNT_OR_CARDS,
        "pair_cards": F.CARDS,
        "single_cards": F.CARDS,
        "units": F.UNITS,
        "width": F.INT,
        "length": F.INT,
        "name": F.STRING,
    },
)
def run_classify(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    cards = parse_all(ctx, data, "cards")
    return classify_fields(ctx, cards), lambda lang: classify_explanation(ctx, cards, lang)


@case_kind(
    "follow",
    "跟牌",
    "Follow",
    inputs={"lead": F.CARDS, "hand": F.CARDS, "play": F.CARDS},
    required=("lead", "hand"),
    outputs={"legal": F.BOOL, "reason": F.STRING, "forced": F.CARDS, "example": F.CARDS},
)
def run_follow(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    lead_cards = parse_field(ctx, data["lead"], "lead")
    hand = parse_field(ctx, data["hand"], "hand")
    check_copies(ctx, {"lead 与 hand": lead_cards + hand})
    if len(hand) < len(lead_cards):
        raise PlayError(
            f"hand 只有 {len(hand)} 张，少于领牌的 {len(lead_cards)} 张：跟牌者的整手牌不会比领牌少",
            en=f"hand holds {len(hand)} cards, fewer than the {len(lead_cards)} led:"
            " a follower's whole hand is never shorter than the lead",
            field="hand",
        )
    lead = classify(ctx, lead_cards)
    if not lead.is_valid:
        raise PlayError(
            f"lead: {' '.join(card_strings(lead_cards))} 不能领出：{lead.reason}",
            en=f"lead: {' '.join(card_strings(lead_cards))} cannot be led: "
            f"{lead.reason_for(ctx, EN)}",
            field="lead",
        )
    forced = generate_forced(ctx, lead, hand)
    example = generate_example(ctx, lead, hand)
    out: dict[str, Any] = {"forced": card_strings(forced), "example": card_strings(example)}
    verdict = None
    if "play" in data and data["play"] is not None:
        play = parse_field(ctx, data["play"], "play")
        verdict = judge_follow(ctx, lead, hand, play)
        out["legal"] = verdict.legal
        if not verdict.legal:
            out["reason"] = verdict.reason

    def explain(lang: Lang) -> str:
        if verdict is not None:
            text = verdict.explanation_for(lang)
        else:
            text = explain_requirement(ctx, lead, hand, example, lang)
        must = cards_text(forced, lang) or pick(lang, "无（可自由选择）", "none (free choice)")
        shown = cards_text(example, lang)
        return text + pick(
            lang,
            f" 必出的牌：{must}；合法示例：{shown}。",
            f" Cards that must be played: {must}; a legal example: {shown}.",
        )

    return out, explain


@case_kind(
    "trick",
    "比牌",
    "Trick",
    inputs={"plays": F.CARD_LISTS, "hands": F.CARD_LISTS},
    required=("plays",),
    outputs={"winner": F.INT, "beats": F.BOOL_LIST, "points": F.POINTS, "legal": F.BOOL_LIST},
)
def run_trick(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    plays = parse_hands(ctx, data["plays"], "plays")
    hands = parse_hands(ctx, data["hands"], "hands") if data.get("hands") is not None else None
    if hands is not None:
        check_copies(ctx, {"hands": [c for h in hands for c in h]})
    else:
        check_copies(ctx, {"plays": [c for p in plays for c in p]})
    result = resolve_trick(ctx, plays, hands)
    out: dict[str, Any] = {
        "winner": result.winner,
        "beats": list(result.beats),
        "points": result.points,
    }
    if hands is not None:
        out["legal"] = list(result.legal)
    return out, result.explanation_for


@case_kind(
    "compare",
    "比大小",
    "Compare",
    inputs={"lead": F.CARDS, "plays": F.CARD_LISTS},
    required=("plays",),
    outputs={"winner": F.INT},
)
def run_compare(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    plays = parse_hands(ctx, data["plays"], "plays")
    if len(plays) != 2:
        raise PlayError(
            "compare 需要恰好两手牌（plays）", en="compare needs exactly two plays", field="plays"
        )
    for i, p in enumerate(plays):
        check_copies(ctx, {f"plays[{i}]": p})
    lead_cards = parse_field(ctx, data.get("lead") or data["plays"][0], "lead")
    lead = classify(ctx, lead_cards)
    if not lead.is_valid:
        raise PlayError(
            f"lead 不能领出：{lead.reason}",
            en=f"lead cannot be led: {lead.reason_for(ctx, EN)}",
            field="lead",
        )
    every = compares_every_unit(ctx, lead)
    keys = []
    for i, p in enumerate(plays):
        groups = {ctx.key[c][0] for c in p}
        key = ruff_key(ctx, lead, p) if len(groups) == 1 and len(p) == len(lead_cards) else None
        if key is None:
            raise PlayError(
                f"plays[{i}] 与领牌结构（{lead.shape()}）不符，无法比较",
                en=f"plays[{i}] does not match the lead's structure ({lead.shape(EN)})",
                field="plays",
            )
        keys.append((1 if groups == {TRUMP} and lead.group != TRUMP else 0, key.value(every)))
    winner = 1 if keys[1] > keys[0] else 0

    def explain(lang: Lang) -> str:
        if lang == EN:
            shape = lead.shape(lang) or type_name(lead.type, lang)
            each = "every unit of each layer" if every else "only the highest unit of each layer"
            result = (
                "the later play is higher"
                if winner
                else "the later play is not higher, so the earlier play wins"
            )
            return (
                f"Both plays are compared by the lead's structure ({shape}), layer by layer: "
                f"tractors first, then pairs, then singles ({each}); {result}."
            )
        return (
            f"两手都按领牌结构（{lead.shape() or lead.type}）逐层比较：先比拖拉机，再比对子，最后比单张"
            f"{'（每层逐个比）' if every else '（每层只比最大的一个）'}；"
            f"{'后出者更大' if winner else '后出者不比先出者大，先出者胜'}。"
        )

    return {"winner": winner}, explain


@case_kind(
    "throw",
    "甩牌",
    "Throw",
    inputs={"cards": F.CARDS, "others": F.CARD_LISTS, "seat": F.SEAT, "banker": F.SEAT},
    required=("cards", "others"),
    outputs={
        "type": F.STRING,
        "allowed": F.BOOL,
        "forced": F.CARDS,
        "penalty": F.POINTS,
        "penalty_to": F.STRING,
    },
)
def run_throw(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    cards = parse_field(ctx, data["cards"], "cards")
    others = parse_hands(ctx, data["others"], "others")
    if not 1 <= len(others) <= rs.players - 1:
        raise PlayError(
            f"others 应有 1 到 {rs.players - 1} 手牌，实际 {len(others)} 手",
            en=f"others needs 1 to {rs.players - 1} hands, got {len(others)}",
            field="others",
        )
    check_copies(ctx, {"cards 与 others": cards + [c for h in others for c in h]})
    verdict = judge_throw(ctx, cards, others, _int(data, "seat"), _int(data, "banker"))
    out = {
        "type": verdict.combo.type,
        "allowed": verdict.allowed,
        "forced": card_strings(ctx.sort_cards(verdict.forced)),
        "penalty": verdict.penalty,
        "penalty_to": verdict.penalty_to,
    }
    return out, verdict.explanation_for


@case_kind(
    "kitty",
    "抠底",
    "Kitty",
    inputs={"play": F.CARDS, "kitty": F.CARDS, "side": F.STRING, "trick": F.CARD_LISTS},
    required=("play", "kitty"),
    outputs={"multiplier": F.INT, "kitty_points": F.POINTS, "bonus": F.POINTS},
)
def run_kitty(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    play = parse_field(ctx, data["play"], "play")
    kitty = parse_field(ctx, data["kitty"], "kitty")
    trick = parse_hands(ctx, data["trick"], "trick") if data.get("trick") is not None else None
    table = [c for p in trick for c in p] if trick is not None else play
    check_copies(ctx, {"play 与 kitty": table + kitty})
    side = str(data.get("side") or "attackers").strip()
    side = ROLE_ALIASES.get(side.lower(), side)
    side = "attackers" if side == "defender" else side
    points = sum(c.points for p in trick for c in p) if trick is not None else None
    result = kitty_bonus(ctx, play, kitty, side=side, trick_points=points)
    out = {
        "multiplier": result.multiplier,
        "kitty_points": result.kitty_points,
        "bonus": result.bonus,
    }
    return out, result.explanation_for


@case_kind(
    "score",
    "结算",
    "Score",
    inputs={
        "points": F.POINTS,
        "banker_level": F.RANK,
        "attacker_level": F.RANK,
        "bid": F.INT,
        "surrender": F.BOOL,
    },
    required=("points",),
    outputs={
        "winner": F.STRING,
        "rise": F.INT,
        "result": F.STRING,
        "next_level": F.RANK,
        "multiplier": F.INT,
        "base_chips": F.INT,
        "chips": F.INT,
    },
)
def run_score(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    points = _int(data, "points")
    assert points is not None
    banker = parse_level(rs, data["banker_level"]) if data.get("banker_level") is not None else None
    attackers = (
        parse_level(rs, data["attacker_level"]) if data.get("attacker_level") is not None else None
    )
    if rs.settles_by_bid:
        bid = _int(data, "bid")
        if bid is None:
            raise PlayError(
                f"{rs.title}按叫分结算，score 用例需要 bid",
                en=f"{rs.name} settles by the bid: a score case needs bid",
                field="bid",
            )
        surrender = data.get("surrender", False)
        if not isinstance(surrender, bool):
            raise PlayError(
                "surrender 必须是 true 或 false",
                en="surrender must be true or false",
                field="surrender",
            )
        chips = settle_chips(rs, points, bid, surrender)
        out_c: dict[str, Any] = {
            "winner": chips.winner,
            "rise": chips.rise,
            "result": chips.result,
            "multiplier": chips.multiplier,
            "base_chips": chips.base_chips,
            "chips": chips.chips,
        }
        return out_c, chips.explanation_for
    result = score_round(rs, points, banker, attackers)
    out: dict[str, Any] = {"winner": result.winner, "rise": result.rise, "result": result.result}
    if result.next_level is not None:
        out["next_level"] = result.next_level
    return out, result.explanation_for


def _seat_cards(ctx: Context, value: Any) -> list[tuple[int, list[Card]]]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise PlayError(
            "current 必须是 {seat, cards} 的列表",
            en="current must be a list of {seat, cards}",
            field="current",
        )
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, dict) or "cards" not in item or "seat" not in item:
            raise PlayError(
                f"current[{i}] 必须含 seat 和 cards",
                en=f"current[{i}] needs seat and cards",
                field="current",
            )
        seat = item["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise PlayError(
                f"current[{i}].seat 必须是整数",
                en=f"current[{i}].seat must be an integer",
                field="current",
            )
        out.append((seat, parse_field(ctx, item["cards"], f"current[{i}].cards")))
    return out


@case_kind(
    "declare",
    "亮主",
    "Declare",
    inputs={"hand": F.CARDS, "current": F.SEAT_CARDS, "seat": F.SEAT, "cards": F.CARDS},
    required=("cards", "seat"),
    outputs={"accepted": F.BOOL, "trump": F.SUIT, "declarer": F.SEAT, "reason": F.STRING},
)
def run_declare(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    cards = parse_field(ctx, data["cards"], "cards")
    hand = parse_field(ctx, data["hand"], "hand") if data.get("hand") is not None else None
    current = _seat_cards(ctx, data.get("current"))
    seat = _int(data, "seat")
    assert seat is not None
    # A seat's declarations stay its own cards: the same ♥2 shown alone and then as a pair
    # is one physical card, so each seat counts the union of what it showed (and held).
    shown: dict[int, Counter[Card]] = {}
    for s, cs in current:
        shown[s] = shown.get(s, Counter()) | Counter(cs)
    shown[seat] = shown.get(seat, Counter()) | Counter(hand if hand is not None else cards)
    pool = [c for counts in shown.values() for c in counts.elements()]
    check_copies(ctx, {"hand 与 current": pool})
    verdict = judge_declaration(rs, ctx.level, current, seat, cards, hand)
    out: dict[str, Any] = {
        "accepted": verdict.accepted,
        "trump": verdict.trump if verdict.trump is not None else "none",
        "declarer": verdict.declarer,
    }
    if not verdict.accepted:
        out["reason"] = verdict.reason
        if verdict.declarer is None:
            out["trump"] = None
    return out, verdict.explanation_for


@case_kind(
    "bid",
    "叫分",
    "Bid",
    inputs={"bids": F.BIDS, "first": F.SEAT},
    required=("bids",),
    outputs={
        "banker": F.SEAT,
        "bid": F.INT,
        "valid": F.BOOL,
        "reason": F.STRING,
        "error_at": F.INT,
    },
)
def run_bid(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    bids = data["bids"]
    if not isinstance(bids, list):
        raise PlayError(
            "bids 必须是列表（分数或 pass）",
            en="bids must be a list (numbers or pass)",
            field="bids",
        )
    first = _int(data, "first", 0) or 0
    result = judge_auction(rs, bids, first)
    out: dict[str, Any] = {"valid": result.valid, "banker": result.banker, "bid": result.bid}
    if not result.valid:
        out["reason"] = result.reason
        out["error_at"] = result.error_at
    return out, result.explanation_for


ROLE_ALIASES = {
    "attacker": "defender",
    "attackers": "defender",
    "闲家": "defender",
    "庄家": "banker",
}


@case_kind(
    "bonus",
    "算奖",
    "Bonus",
    inputs={"hand": F.CARDS, "role": F.STRING},
    required=("hand", "role"),
    outputs={"bonus": F.INT, "items": F.TEXT_LIST},
)
def run_bonus(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    hand = parse_all(ctx, data, "hand")
    role = str(data["role"]).strip()
    result = count_bonus(ctx, hand, ROLE_ALIASES.get(role.lower(), role))
    return {"bonus": result.bonus, "items": list(result.items)}, result.explanation_for


@case_kind(
    "reveal",
    "亮牌",
    "Reveal",
    inputs={"hand": F.CARDS},
    required=("hand",),
    outputs={"required": F.BOOL, "items": F.TEXT_LIST},
)
def run_reveal(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    hand = parse_all(ctx, data, "hand")
    result = reveal_duty(ctx, hand)
    return {"required": result.required, "items": list(result.items)}, result.explanation_for


@case_kind(
    "flip",
    "翻底定主",
    "Trump from the kitty",
    inputs={"kitty": F.CARDS},
    required=("kitty",),
    outputs={"trump": F.SUIT, "card": F.CARDS},
)
def run_flip(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    kitty = parse_all(ctx, data, "kitty")
    result = flip_trump(rs, ctx.level, kitty)
    trump = result.trump if result.trump is not None else "none"
    return {"trump": trump, "card": card_strings([result.card])}, result.explanation_for
