"""Kitty bonus and round scoring: multipliers, bands, level rises and the next level."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, count_points, format_cards, format_rank
from .combos import PAIR, SINGLE, TRACTOR, _units_from
from .errors import PlayError
from .order import TRUMP, Context
from .ruleset import Ruleset

UNIT_NAMES = {SINGLE: "单张", PAIR: "对子", TRACTOR: "拖拉机"}


@dataclass(frozen=True)
class KittyResult:
    """The kitty bonus the attackers add when they win the last trick."""

    multiplier: int
    kitty_points: int
    bonus: int
    explanation: str


def kitty_bonus(ctx: Context, play: Sequence[Card], kitty: Sequence[Card]) -> KittyResult:
    """Compute the kitty multiplier from the winning play's largest unit, and the bonus."""
    if not play:
        raise PlayError("缺少赢得最后一墩的牌（play）", field="play")
    groups = {ctx.key[c][0] for c in play}
    points = count_points(kitty)
    rs = ctx.ruleset
    if len(groups) > 1:
        raise PlayError(f"{format_cards(play)} 混有不同花色，不能赢得一墩", field="play")
    if rs.kitty_requires_trump and groups != {TRUMP}:
        return KittyResult(
            0,
            points,
            0,
            f"最后一墩用的不是主牌（{format_cards(play)}），不算扣底，底牌 {points} 分不计入闲家。",
        )
    units = _units_from(ctx, play)
    unit = max(units, key=lambda u: (len(u.cards), u.top))
    values = rs.kitty_values
    if rs.kitty_policy == "by_unit":
        mult = values[unit.kind]
        rule = f"{UNIT_NAMES[unit.kind]}抠底 ×{mult}"
    elif rs.kitty_policy == "power_of_two":
        mult = 2 ** len(unit.cards)
        if rs.kitty_cap is not None:
            mult = min(mult, int(rs.kitty_cap))
        rule = (
            f"最大牌型 {len(unit.cards)} 张，2^{len(unit.cards)}"
            + (f"，封顶 {rs.kitty_cap}" if rs.kitty_cap else "")
            + f" → ×{mult}"
        )
    else:
        mult = values["single"] if unit.kind == SINGLE else values["per_pair"] * max(unit.length, 1)
        rule = f"{UNIT_NAMES[unit.kind]}扣底 ×{mult}"
    bonus = points * mult
    text = (
        f"最后一墩 {format_cards(play)} 的最大牌型是{UNIT_NAMES[unit.kind]} {format_cards(unit.cards)}："
        f"{rule}。底牌 {format_cards(kitty) or '（空）'} 共 {points} 分，{points} × {mult} = {bonus} 分计入闲家。"
    )
    return KittyResult(mult, points, bonus, text)


@dataclass(frozen=True)
class ScoreResult:
    """The result of a round from the attackers' points."""

    winner: str
    rise: int
    result: str
    next_level: int | None
    explanation: str
    multiplier: int | None = None
    base_chips: int | None = None
    chips: int | None = None


RESULT_NAMES = {
    "big_sweep": "大光",
    "small_sweep": "小光",
    "hold": "过庄",
    "swap": "上台",
    "promote": "升级",
}


def _advance(rs: Ruleset, level: int, rise: int, was_banker: bool) -> tuple[int, str]:
    """Move a side's level up by rise, stopping at levels that must be played."""
    must = rs.mandatory_levels
    if not was_banker and level in must:
        return level, f"{format_rank(level)} 不可跳过：闲家上台后先打 {format_rank(level)}"
    higher = [r for r in rs.ranks if r > level][:rise]
    for steps, r in enumerate(higher, start=1):
        if r in must and steps < rise:
            return r, f"{format_rank(r)} 不可跳过，停在 {format_rank(r)}"
    if len(higher) < rise:
        return (higher[-1] if higher else level), "已打到 A"
    return (higher[-1] if higher else level), ""


def score_round(
    rs: Ruleset,
    points: int,
    banker_level: int | None = None,
    attacker_level: int | None = None,
) -> ScoreResult:
    """Score a round on the level table: the band, who rises, by how much, and the next level."""
    step, swap_at = rs.score_step, rs.score_swap_at
    if points <= 0:
        winner, rise, result = "banker", rs.score_zero_rise, "big_sweep"
        band = "闲家 0 分"
    elif points < step:
        winner, rise, result = "banker", 2, "small_sweep"
        band = f"闲家不满 {step} 分"
    elif points < swap_at:
        winner, rise, result = "banker", 1, "hold"
        band = f"闲家 {step}–{swap_at - 5} 分"
    else:
        winner = "attackers"
        rise = (points - swap_at) // step
        result = "swap" if rise == 0 else "promote"
        low = swap_at + rise * step
        band = f"闲家 {low}–{low + step - 5} 分"
    if winner == "banker":
        text = f"{band}（{points} 分）：庄家{RESULT_NAMES[result]}，庄家升 {rise} 级。"
    elif rise == 0:
        text = f"{band}（{points} 分）：闲家上台（换庄），不升级。"
    else:
        text = f"{band}（{points} 分）：闲家上台并升 {rise} 级（每多 {step} 分多升 1 级）。"
    next_level = None
    level = banker_level if winner == "banker" else attacker_level
    if level is not None:
        next_level, why = _advance(rs, level, rise, winner == "banker")
        text += f"下局{'庄家' if winner == 'banker' else '闲家'}打 {format_rank(next_level)}"
        text += f"（{why}）。" if why else "。"
    return ScoreResult(winner, rise, result, next_level, text)
