"""The `bot` case kind: what a computer player chooses at one decision (declare, bury, lead,
follow) or what it judges (`action: ask`), checked against the history it is given."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from checker.engine.cards import Card, format_card, is_subset
from checker.engine.combos import THROW, Combo, classify
from checker.engine.declare import judge_declaration
from checker.engine.errors import HandError, PlayError
from checker.engine.follow import judge_follow
from checker.engine.order import TRUMP, Context, check_copies
from checker.engine.rotation import check_seat
from checker.engine.ruleset import Ruleset
from checker.engine.texts import Lang, cards_text, pick
from checker.play.bots.lead import (
    beater_of,
    is_controlled_suit,
    is_safe_throw,
    is_unbeatable_pair,
)
from checker.play.bots.memory import Memory, read_memory
from checker.play.bots.registry import make_bot
from checker.play.bots.search import BudgetError, read_budget
from checker.play.players import BURY, DECLARE, FOLLOW, LEAD, Decision, PlayerView

from . import fields as F
from .fields import Outcome, case_kind
from .kinds import card_strings, classify_explanation, parse_field

ACTIONS = ("declare", "bury", "lead", "follow", "ask")
Play = tuple[int, tuple[Card, ...]]

# ask: NAME -> (judgement, zh words, en words) on the asked cards
ASKS: dict[str, tuple[Callable[[Context, Memory, Sequence[Card]], bool], str, str]] = {
    "unbeatable_pair": (is_unbeatable_pair, "无敌对子", "an unbeatable pair"),
    "controlled_short_suit": (
        is_controlled_suit,
        "可控短门（可一把甩完）",
        "a controlled short suit (safe to throw out whole)",
    ),
    "safe_throw": (
        is_safe_throw,
        "安全甩牌（每个分量都无人能压）",
        "a safe throw (no unit can be beaten)",
    ),
    "tractor": (
        lambda ctx, mem, cards: classify(ctx, cards).type == "tractor",
        "拖拉机",
        "a tractor",
    ),
}


def _first_beaten(
    ctx: Context, mem: Memory, cards: Sequence[Card]
) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """Find the first unit of a lead that the unseen cards can beat, with a beater, by the
    referee's rule (a lone unit also by a wider one; a throw's unit as its ruleset says)."""
    combo = classify(ctx, cards)
    if combo.group is None:
        return None
    for unit in combo.units:
        beater = beater_of(mem, unit, combo.group, in_throw=combo.type == THROW)
        if beater is not None:
            return unit.cards, beater
    return None


def _plays(ctx: Context, value: Any, field: str) -> list[Play]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise PlayError(
            f"{field} 必须是 {{seat, cards}} 的列表",
            en=f"{field} must be a list of {{seat, cards}}",
            field=field,
        )
    out: list[Play] = []
    for i, item in enumerate(value):
        where = f"{field}[{i}]"
        if not isinstance(item, dict) or "seat" not in item or "cards" not in item:
            raise PlayError(
                f"{where} 必须含 seat 和 cards", en=f"{where} must have seat and cards", field=field
            )
        seat = check_seat(ctx.ruleset, item["seat"], f"{where}.seat")
        cards = parse_field(ctx, item["cards"], f"{where}.cards")
        if not cards:
            raise PlayError(
                f"{where}.cards 不能为空", en=f"{where}.cards must not be empty", field=field
            )
        out.append((seat, tuple(cards)))
    return out


def _check_trick(ctx: Context, trick: Sequence[Play], field: str, players: int) -> None:
    """Reject a trick whose plays are out of turn, of the wrong size, or a lead that cannot stand."""
    if not trick:
        raise PlayError(f"{field} 不能为空", en=f"{field} must not be empty", field=field)
    lead = classify(ctx, trick[0][1])
    if not lead.is_valid:
        raise PlayError(
            f"{field}: 领牌 {cards_text(trick[0][1], 'zh')} 不能领出：{lead.reason}",
            en=f"{field}: the lead {cards_text(trick[0][1], 'en')} cannot be led: "
            f"{lead.reason_for(ctx, 'en')}",
            field=field,
        )
    first = trick[0][0]
    for k, (seat, cards) in enumerate(trick):
        if seat != (first + k) % players:
            raise PlayError(
                f"{field}[{k}]: 座位 {seat} 不按出牌顺序（应为 {(first + k) % players}）",
                en=f"{field}[{k}]: seat {seat} plays out of turn "
                f"(seat {(first + k) % players} is next)",
                field=field,
            )
        if len(cards) != len(trick[0][1]):
            raise PlayError(
                f"{field}[{k}]: 出了 {len(cards)} 张，领牌是 {len(trick[0][1])} 张",
                en=f"{field}[{k}]: {len(cards)} cards played, the lead has {len(trick[0][1])}",
                field=field,
            )
    if len(trick) > players:
        raise PlayError(
            f"{field} 有 {len(trick)} 手，多于 {players} 位玩家",
            en=f"{field} has {len(trick)} plays, more than the {players} players",
            field=field,
        )


def _check_voids(
    ctx: Context, tricks: Sequence[Sequence[Play]], seat: int, hand: Sequence[Card]
) -> None:
    """Reject a history in which a seat plays a group it has shown it lacks (or the bot lacks)."""
    key = ctx.key
    voids: dict[int, set[str]] = {}
    for t, trick in enumerate(tricks):
        group = key[trick[0][1][0]][0]
        for who, cards in trick:
            for c in cards:
                g = key[c][0]
                if g in voids.get(who, set()):
                    raise HandError(
                        f"第 {t + 1} 墩：座位 {who} 出了 {format_card(c)}，但它此前已示缺"
                        f"{ctx.group_name(g)}，不可能还有这张牌",
                        en=f"trick {t + 1}: seat {who} played {format_card(c)}, but it had "
                        f"already shown a void in {ctx.group_name(g, 'en')}: it cannot hold "
                        "this card",
                        value=format_card(c),
                    )
            if who != trick[0][0] and any(key[c][0] != group for c in cards):
                voids.setdefault(who, set()).add(group)
    for g in voids.get(seat, set()):
        for c in hand:
            if key[c][0] == g:
                raise HandError(
                    f"手牌中有 {format_card(c)}，但座位 {seat} 在历史中已示缺{ctx.group_name(g)}",
                    en=f"the hand holds {format_card(c)}, but seat {seat} showed a void in "
                    f"{ctx.group_name(g, 'en')} in the history",
                    value=format_card(c),
                )


def _expected(data: Mapping[str, Any], rs: Ruleset) -> dict[str, Any]:
    out = dict(data.get("expect") or {})
    out.update((data.get("expect_by_ruleset") or {}).get(rs.name) or {})
    return out


def _card_list(ctx: Context, value: Any, field: str) -> list[Card]:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null", "")):
        return []
    return parse_field(ctx, value, field)


TRICK = F.SEAT_CARDS


@case_kind(
    "bot",
    "机器人",
    "Bot",
    inputs={
        "bot": F.STRING,
        "action": F.STRING,
        "seat": F.SEAT,
        "banker": F.SEAT,
        "hand": F.CARDS,
        "trick": TRICK,
        "history": F.ArrayOf(
            TRICK,
            "已完成的墩的列表（每墩为 {seat, cards} 的列表）",
            en="a list of finished tricks (each a list of {seat, cards})",
        ),
        "current": F.SEAT_CARDS,
        "first_round": F.BOOL,
        "kitty": F.CARDS,
        "ask": F.STRING,
        "cards": F.CARDS,
        "budget": F.INT,
    },
    required=("bot", "action", "seat"),
    outputs={
        "play": F.CARDS,
        "includes": F.CARDS,
        "excludes": F.CARDS,
        "legal": F.BOOL,
        "trump": F.SUIT,
        "buried_points": F.POINTS,
        "explanation": F.TEXT,
        "answer": F.BOOL,
        "rule": F.STRING,
    },
)
def run_bot(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    """Run one bot case: build the bot's view, ask it, report its choice and its reason."""
    name = str(data["bot"])
    action = str(data["action"])
    if action not in ACTIONS:
        raise PlayError(
            f"action“{action}”未知（可用：{', '.join(ACTIONS)}）",
            en=f"unknown action {action!r} (known: {', '.join(ACTIONS)})",
            field="action",
        )
    table = _read_table(rs, ctx, data)
    expected = _expected(data, rs)
    if action == "ask":
        return _run_ask(ctx, data, table.seat, table.hand, table.history, table.kitty, expected)
    if not table.hand:
        raise PlayError("hand 不能为空", en="hand must not be empty", field="hand")
    budget = _budget(data)
    bot = make_bot(name, random.Random(0), budget)  # an unknown name: UnknownBotError
    again = make_bot(name, random.Random(0), budget)
    view = _view(rs, ctx, action, table)
    decision = _decide(bot, view)
    if tuple(sorted(_decide(again, view).cards)) != tuple(sorted(decision.cards)):
        raise PlayError(
            f"机器人 {name} 对同一局面两次给出不同的选择",
            en=f"bot {name} chose differently twice in the same position",
            field="bot",
        )
    out = _outcome(rs, ctx, action, view, decision, expected)
    return out, decision.explanation_for


def _budget(data: Mapping[str, Any]) -> float | None:
    """Read a case's search budget in ms (v3; none: the bot's default), a positive number."""
    value = data.get("budget")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BudgetError(value)
    return read_budget(value)


class _Table(NamedTuple):
    """What a bot case says of the table: the bot's seat and hand, and what it has seen."""

    seat: int
    banker: int | None
    hand: list[Card]
    history: list[list[Play]]
    trick: list[Play]
    current: list[Play]
    kitty: list[Card]
    first_round: bool


def _read_table(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> _Table:
    """Read the case's table, checking that its cards and voids could exist together."""
    seat = check_seat(rs, data["seat"], "seat")
    banker = check_seat(rs, data["banker"], "banker") if data.get("banker") is not None else None
    hand = parse_field(ctx, data.get("hand"), "hand")
    history = [_plays(ctx, t, f"history[{i}]") for i, t in enumerate(data.get("history") or [])]
    trick = _plays(ctx, data.get("trick"), "trick")
    current = _plays(ctx, data.get("current"), "current")
    kitty = parse_field(ctx, data.get("kitty"), "kitty")
    for i, t in enumerate(history):
        _check_trick(ctx, t, f"history[{i}]", rs.players)
    if trick:
        _check_trick(ctx, trick, "trick", rs.players)
    played = [c for t in [*history, trick] for _, cs in t for c in cs]
    check_copies(ctx, {"hand、history、trick 与 kitty": [*hand, *played, *kitty]})
    _check_voids(ctx, [*history, *([trick] if trick else [])], seat, hand)
    first_round = data.get("first_round", False)
    if not isinstance(first_round, bool):
        raise PlayError(
            "first_round 必须是 true 或 false",
            en="first_round must be true or false",
            field="first_round",
        )
    return _Table(seat, banker, hand, history, trick, current, kitty, first_round)


def _view(rs: Ruleset, ctx: Context, action: str, table: _Table) -> PlayerView:
    """Build the view the bot decides from, after checking the table fits the action."""
    seat, banker, hand = table.seat, table.banker, table.hand
    if action == DECLARE:
        return PlayerView(
            DECLARE,
            seat,
            rs,
            ctx.level,
            tuple(hand),
            banker=banker,
            declarations=tuple(table.current),
            first_round=table.first_round,
        )
    if action == BURY:
        if len(hand) <= rs.kitty_size:
            raise PlayError(
                f"bury 的 hand 只有 {len(hand)} 张，不多于底牌 {rs.kitty_size} 张",
                en=f"the bury hand has only {len(hand)} cards, no more than the kitty's "
                f"{rs.kitty_size}",
                field="hand",
            )
        return PlayerView(
            BURY,
            seat,
            rs,
            ctx.level,
            tuple(ctx.sort_cards(hand)),
            ctx=ctx,
            banker=seat if banker is None else banker,
            declarations=tuple(table.current),
        )
    if action == LEAD and table.trick:
        raise PlayError(
            "lead 不应给出 trick（本墩由机器人领出）",
            en="lead takes no trick (the bot leads this trick)",
            field="trick",
        )
    lead = _follow_lead(rs, ctx, table) if action == FOLLOW else None
    return PlayerView(
        action,
        seat,
        rs,
        ctx.level,
        tuple(hand),
        ctx=ctx,
        banker=banker,
        declarations=tuple(table.current),
        lead=lead,
        trick=tuple(table.trick),
        history=tuple(tuple(t) for t in table.history),
        kitty=tuple(table.kitty),
    )


def _follow_lead(rs: Ruleset, ctx: Context, table: _Table) -> Combo:
    """Return the lead the bot follows, after checking it is the bot's turn with enough cards."""
    trick, seat, hand = table.trick, table.seat, table.hand
    if not trick:
        raise PlayError(
            "follow 需要 trick（本墩已出的牌，领牌在前）",
            en="follow needs trick (the plays so far, the lead first)",
            field="trick",
        )
    nxt = (trick[-1][0] + 1) % rs.players
    if nxt != seat:
        raise PlayError(
            f"trick 之后应由座位 {nxt} 出牌，而机器人坐在 {seat}",
            en=f"after trick seat {nxt} plays next, but the bot sits at {seat}",
            field="seat",
        )
    lead = classify(ctx, trick[0][1])
    if len(hand) < len(lead.cards):
        raise PlayError(
            f"hand 只有 {len(hand)} 张，少于领牌的 {len(lead.cards)} 张",
            en=f"hand has only {len(hand)} cards, fewer than the lead's {len(lead.cards)}",
            field="hand",
        )
    return lead


def _decide(bot: Any, view: PlayerView) -> Decision:
    decision: Decision = bot.decide(view)
    return decision


def _outcome(
    rs: Ruleset,
    ctx: Context,
    action: str,
    view: PlayerView,
    decision: Decision,
    expected: Mapping[str, Any],
) -> dict[str, Any]:
    cards = list(decision.cards)
    out: dict[str, Any] = {
        "play": card_strings(ctx.sort_cards(cards)) if cards else "none",
        "rule": decision.rule,
    }
    hand = list(view.hand)
    if action == DECLARE:
        if cards:
            verdict = judge_declaration(rs, ctx.level, view.declarations, view.seat, cards, hand)
            out["legal"] = verdict.accepted
            out["trump"] = verdict.trump if verdict.trump is not None else "none"
        else:
            out["legal"] = True
            standing = view.declarations[-1][1] if view.declarations else None
            if standing is not None:
                out["trump"] = "none" if standing[0].is_joker else standing[0].suit
    elif action == BURY:
        out["legal"] = len(cards) == rs.kitty_size and is_subset(cards, hand)
        out["buried_points"] = sum(c.points for c in cards)
    elif action == LEAD:
        out["legal"] = bool(cards) and is_subset(cards, hand) and classify(ctx, cards).is_valid
    else:
        assert view.lead is not None
        out["legal"] = judge_follow(ctx, view.lead, hand, cards).legal
    got = Counter(cards)
    # includes / excludes hold when the choice contains (avoids) those cards: then the
    # expected value is echoed; otherwise the offending cards are reported.
    if "includes" in expected:
        need = Counter(_card_list(ctx, expected["includes"], "expect.includes"))
        missing = need - got
        out["includes"] = (
            expected["includes"]
            if not missing
            else {"missing": card_strings(list(missing.elements()))}
        )
    if "excludes" in expected:
        avoid = set(_card_list(ctx, expected["excludes"], "expect.excludes"))
        present = [c for c in cards if c in avoid]
        out["excludes"] = (
            expected["excludes"] if not present else {"present": card_strings(present)}
        )
    if "explanation" in expected:
        text = str(expected["explanation"])
        zh, en = decision.explanation_for("zh"), decision.explanation_for("en")
        out["explanation"] = text if text in zh or text in en else zh
    if "play" in expected:
        want_play = _card_list(ctx, expected["play"], "expect.play")
        if Counter(want_play) == got:
            out["play"] = expected["play"]
    return out


def _read_ask(
    ctx: Context,
    data: Mapping[str, Any],
    hand: list[Card],
    history: list[list[Play]],
    kitty: list[Card],
) -> tuple[str, list[Card], list[Card]]:
    """Read an ask case's question and cards; return them with the hand they are judged in."""
    ask = str(data.get("ask", ""))
    if ask not in ASKS:
        raise PlayError(
            f"ask“{ask}”未知（可用：{', '.join(ASKS)}）",
            en=f"unknown ask {ask!r} (known: {', '.join(ASKS)})",
            field="ask",
        )
    cards = parse_field(ctx, data.get("cards"), "cards")
    if not cards:
        raise PlayError("ask 需要 cards", en="ask needs cards", field="cards")
    held = hand or cards
    if not is_subset(cards, held):
        raise PlayError(
            f"cards 不在 hand 中：{cards_text(cards, 'zh')}",
            en=f"cards not in hand: {cards_text(cards, 'en')}",
            field="cards",
        )
    check_copies(
        ctx,
        {
            "hand、history 与 kitty": [
                *held,
                *[c for t in history for _, cs in t for c in cs],
                *kitty,
            ]
        },
    )
    return ask, cards, held


def _higher_unseen(ctx: Context, mem: Memory, cards: Sequence[Card]) -> list[Card]:
    """Return the unseen cards of the cards' group above the highest of them, lowest first."""
    key = ctx.key
    top = max(key[x][1] for x in cards)
    group = key[cards[0]][0]
    return sorted(
        {c for c in mem.unseen if key[c][0] == group and key[c][1] > top}, key=lambda c: key[c][1]
    )


def _run_ask(
    ctx: Context,
    data: Mapping[str, Any],
    seat: int,
    hand: list[Card],
    history: list[list[Play]],
    kitty: list[Card],
    expected: Mapping[str, Any],
) -> Outcome:
    ask, cards, held = _read_ask(ctx, data, hand, history, kitty)
    mem = read_memory(ctx, seat, held, history, (), kitty)
    judge, zh, en = ASKS[ask]
    answer = judge(ctx, mem, cards)
    higher = _higher_unseen(ctx, mem, cards)
    group = ctx.key[cards[0]][0]
    beaten = None if answer else _first_beaten(ctx, mem, cards)

    def say(lang: Lang) -> str:
        shown = cards_text(cards, lang)
        if ask == "tractor":
            return classify_explanation(ctx, cards, lang)
        unseen = cards_text(higher, lang) or pick(lang, "无", "none")
        gname = ctx.group_name(group if group != TRUMP else TRUMP, lang)
        if ask == "unbeatable_pair" and not answer and classify(ctx, cards).type != "pair":
            return pick(lang, f"{shown} 不是对子。", f"{shown} is not a pair.")
        if beaten is not None:
            beater = cards_text(beaten[1], lang)
            whole = len(beaten[0]) == len(cards)
            unit = cards_text(beaten[0], lang)
            return pick(
                lang,
                f"{shown} 不是{zh}：未见的牌能凑出 {beater}，"
                + ("压过它。" if whole else f"压过其中的 {unit}。"),
                f"{shown} is not {en}: the unseen cards can make {beater}, which beats "
                + ("it." if whole else f"its {unit}."),
            )
        if answer:
            return pick(
                lang,
                f"{shown} 是{zh}：{gname}中更大的牌都已确认，没人能凑出更大的同型牌。",
                f"{shown} is {en}: the higher {gname} are accounted for, nobody can make a bigger one.",
            )
        return pick(
            lang,
            f"{shown} 不是{zh}：还有未见的更大牌（{unseen}）可能压过它。",
            f"{shown} is not {en}: higher unseen cards ({unseen}) may beat it.",
        )

    out: dict[str, Any] = {"answer": answer}
    if "explanation" in expected:
        text = str(expected["explanation"])
        out["explanation"] = text if text in say("zh") or text in say("en") else say("zh")
    return out, say
