"""A ruleset's parameters as readable rules (our own wording), for the rules page."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from checker.engine.cards import BIG, SMALL, Card
from checker.engine.order import TRUMP
from checker.engine.ruleset import Ruleset
from checker.web import present
from checker.web.glossary import GLOSSARY

TIER_NAMES = {
    "level_single": "单张级牌",
    "level_pair": "一对级牌",
    "small_joker_pair": "一对小王",
    "big_joker_pair": "一对大王",
}


def _ranks(ranks: Any) -> str:
    return " ".join(present.rank_label(r) for r in ranks)


def ladder(ctx: Any, group: str = TRUMP) -> list[dict[str, Any]]:
    """The tiers of a group, strongest first, each drawn as chips."""
    tiers = ctx.ladder(group)
    out = []
    for i, tier in enumerate(tiers):
        out.append({"no": len(tiers) - i, "html": present.chips(tier, ctx), "size": len(tier)})
    return out


def score_rows(rs: Ruleset) -> list[dict[str, Any]]:
    """The level table as bands of attacker points, computed by the engine itself."""
    from checker.engine.scoring import RESULT_NAMES, score_round

    step, swap = rs.score_step, rs.score_swap_at
    total = rs.total_points
    bands: list[tuple[int, int]] = [(0, 0)]
    if step > 5:
        bands.append((5, step - 5))
    if swap > step:
        bands.append((step, swap - 5))
    low = swap
    while low <= total:
        bands.append((low, min(low + step - 5, total)))
        low += step
    rows = []
    for lo, hi in bands:
        try:
            res = score_round(rs, lo)
        except Exception:  # the table is illustrative; never break the page
            continue
        side = _("庄家") if res.winner == "banker" else _("闲家")
        name = RESULT_NAMES.get(res.result, res.result)
        if res.winner == "banker":
            effect = _("庄家升 %(n)d 级") % {"n": res.rise}
        elif res.rise == 0:
            effect = _("闲家上台（换庄）")
        else:
            effect = _("闲家上台并升 %(n)d 级") % {"n": res.rise}
        points = str(lo) if lo == hi else f"{lo}–{hi}"
        rows.append(
            {"points": points, "side": side, "result": name, "code": res.result, "effect": effect}
        )
    return rows


def describe(rs: Ruleset, ctx: Any) -> dict[str, Any]:
    """Everything the rules page says about one ruleset."""
    per_deck = len(rs.ranks) * 4 + (2 if rs.jokers else 0)
    fixed = [r for r in rs.trump_ranks if r != "level"]
    side_suit = next(s for s in "SHCD" if s != ctx.trump)
    level_word = present.rank_label(ctx.level) if ctx.level is not None else ""
    doc: dict[str, Any] = {
        "per_deck": per_deck,
        "deck_size": rs.deck_size,
        "ranks": _ranks(sorted(rs.ranks)),
        "fixed_trumps": _ranks(r for r in fixed if isinstance(r, int)),
        "has_fixed": bool(fixed),
        "ladder": ladder(ctx, TRUMP),
        "side_ladder": ladder(ctx, side_suit),
        "side_symbol": present.SUIT_SYMBOLS[side_suit],
        "deal": ctx.describe() if hasattr(ctx, "describe") else "",
        "level_word": level_word,
        "points_total": rs.total_points,
        "score_rows": score_rows(rs) if rs.score_policy == "levels" else [],
        "mandatory": _ranks(rs.mandatory_levels),
        "options": [
            {
                "name": s.name,
                "default": _fmt(s.default),
                "choices": " / ".join(_fmt(c) for c in s.choices),
                "description": s.description,
            }
            for s in rs.option_specs.values()
        ],
        "conflicts": list(rs.conflicts),
        "tiers": _tiers(rs),
        "kitty": _kitty(rs),
        "throw_policy": _throw_policy(rs),
        "joker_chips": present.chips([BIG, SMALL], ctx) if rs.jokers else "",
        "examples": _examples(rs, ctx),
    }
    return doc


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _tiers(rs: Ruleset) -> list[dict[str, Any]]:
    names = list(rs.declare_tiers) or list(rs.declare_tiers_enhanced)
    rows = []
    for key in names:
        rows.append(
            {
                "name": TIER_NAMES.get(key, key),
                "code": key,
                "normal": rs.declare_tiers.get(key, "—"),
                "enhanced": rs.declare_tiers_enhanced.get(key, "—"),
            }
        )
    return rows


def _kitty(rs: Ruleset) -> dict[str, Any]:
    values = dict(rs.kitty_values)
    rows = []
    if rs.kitty_policy == "by_unit":
        for key, label in (("single", _("单张")), ("pair", _("对子")), ("tractor", _("拖拉机"))):
            if key in values:
                rows.append({"unit": label, "multiplier": values[key]})
        text = _("最后一墩由闲家赢下时，底牌里的分数归闲家，并按赢下最后一墩的牌中最大的分量翻倍：")
    elif rs.kitty_policy == "power_of_two":
        text = _("最后一墩由闲家赢下时，底牌分按 2 的 n 次方翻倍，n 由赢牌的结构决定。")
    else:
        text = _("最后一墩由闲家赢下时，底牌分按赢牌中的对子数翻倍。")
    return {
        "rows": rows,
        "text": text,
        "cap": rs.kitty_cap,
        "requires_trump": rs.kitty_requires_trump,
    }


def _throw_policy(rs: Ruleset) -> dict[str, Any]:
    failed = {
        "first_beaten_unit": _(
            "服务器按“单张 → 对子 → 拖拉机”的顺序检查各个分量，找到第一个能被别人压住的分量，"
            "只强制打出这个分量，其余的牌收回手中。"
        ),
        "smallest_of_beaten_kind": _("强制打出被压牌型中最小的一组，其余收回。"),
        "smallest_card": _("只强制打出甩牌中最小的一张，其余收回。"),
    }.get(rs.failed_throw, rs.failed_throw)
    penalty = None
    if rs.throw_penalty:
        single, pair, per_pair = rs.throw_penalty
        penalty = {"single": single, "pair": pair, "per_pair": per_pair}
    return {"failed": failed, "penalty": penalty, "trump_only": rs.throw_suits == "trump_only"}


def _examples(rs: Ruleset, ctx: Any) -> list[dict[str, SafeString | str]]:
    """A few tractors that show how adjacency works in this deal."""
    out: list[dict[str, SafeString | str]] = []
    if ctx.level is None:
        return out
    lv = ctx.level
    plain = [r for r in sorted(rs.ranks) if r != lv]
    side = next(s for s in "SHCD" if s != ctx.trump)
    # A side-suit tractor that skips the level rank, when the level sits inside the suit.
    below = [r for r in plain if r < lv]
    above = [r for r in plain if r > lv]
    if below and above:
        a, b = Card(side, below[-1]), Card(side, above[0])
        out.append(
            {
                "html": present.chips([a, a, b, b], ctx),
                "text": _("是拖拉机：级牌 %(lv)s 从副牌中拿走了，%(a)s 和 %(b)s 在这门花色里相邻。")
                % {
                    "lv": present.rank_label(lv),
                    "a": present.rank_label(below[-1]),
                    "b": present.rank_label(above[0]),
                },
            }
        )
    offs = [s for s in "SHCD" if s != ctx.trump]
    if len(offs) >= 2:
        c1, c2 = Card(offs[0], lv), Card(offs[1], lv)
        out.append(
            {
                "html": present.chips([c1, c1, c2, c2], ctx),
                "text": _("不是拖拉机：不同花色的副级牌一样大，处在同一层，不能首尾相连。"),
            }
        )
    if ctx.trump is not None:
        top_plain = Card(ctx.trump, plain[-1])
        off = Card(offs[0], lv)
        out.append(
            {
                "html": present.chips([top_plain, top_plain, off, off], ctx),
                "text": _("是拖拉机：主花色最大的普通牌与副级牌相邻。"),
            }
        )
        main_lv = Card(ctx.trump, lv)
        out.append(
            {
                "html": present.chips([top_plain, top_plain, main_lv, main_lv], ctx),
                "text": _("不是拖拉机：两者之间隔着副级牌那一层。"),
            }
        )
        if rs.jokers:
            out.append(
                {
                    "html": present.chips([main_lv, main_lv, SMALL, SMALL], ctx),
                    "text": _("是拖拉机：主级牌与小王相邻。"),
                }
            )
    elif rs.jokers:
        off = Card(offs[0], lv)
        out.append(
            {
                "html": present.chips([off, off, SMALL, SMALL], ctx),
                "text": _("无主时是拖拉机：级牌那一层与小王相邻。"),
            }
        )
    return out


def glossary() -> list[dict[str, Any]]:
    return [{"title": str(title), "rows": rows} for title, rows in GLOSSARY]
