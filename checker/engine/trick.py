"""Trick resolution: which play takes the trick, who took the lead when, and the points."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, count_points, format_cards
from .combos import THROW, TRACTOR, Combo, classify, structure_key
from .errors import PlayError
from .follow import REASON_TEXT, judge_follow
from .order import TRUMP, Context


@dataclass(frozen=True)
class TrickResult:
    """The outcome of a trick: winner index, who beat at the time, points, and why."""

    winner: int
    beats: tuple[bool, ...]
    points: int
    legal: tuple[bool | None, ...]
    notes: tuple[str, ...]
    lead: Combo

    @property
    def explanation(self) -> str:
        """Explain, play by play, why the winner holds the trick."""
        lines = [f"第{i}手：{note}" if i else f"领牌：{note}" for i, note in enumerate(self.notes)]
        lines.append(
            f"本墩由第{self.winner}手（{'领牌' if self.winner == 0 else '跟牌'}）赢得，分数 {self.points} 分。"
        )
        return "\n".join(lines)


def _play_name(i: int) -> str:
    return "领牌" if i == 0 else f"第{i}手"


def resolve_trick(
    ctx: Context,
    plays: Sequence[Sequence[Card]],
    hands: Sequence[Sequence[Card] | None] | None = None,
) -> TrickResult:
    """Resolve a trick from its plays in order (index 0 is the lead).

    When hands are given (None for a player whose hand is unknown), each follow is judged
    first; an illegal follow cannot win.
    """
    if not plays:
        raise PlayError("一墩牌至少要有领牌", field="plays")
    lead = classify(ctx, plays[0])
    if not lead.is_valid:
        raise PlayError(f"领牌 {format_cards(plays[0])} 不能领出：{lead.reason}", field="plays")
    if hands is not None and len(hands) != len(plays):
        raise PlayError(
            f"hands 有 {len(hands)} 手，plays 有 {len(plays)} 手，必须一一对应", field="hands"
        )
    every = (
        ctx.ruleset.option("ruff_tiebreak") == "every_unit"
        if ctx.ruleset.has_option("ruff_tiebreak")
        else False
    )
    group = lead.group
    n = len(lead.cards)
    side_lead = group != TRUMP
    single_unit = lead.type != THROW
    lead_unit = lead.units[0]
    best = 0
    best_top = lead_unit.top if single_unit else -1
    best_key = None  # set once a ruff holds the trick
    beats = [True]
    legal: list[bool | None] = [None]
    notes = [
        f"{lead.shape() if lead.type == THROW else ''}{_type_label(lead)} {format_cards(lead.cards)}"
    ]
    if hands is not None:
        legal[0] = None
    for i, play in enumerate(plays[1:], start=1):
        hand = hands[i] if hands is not None else None
        verdict = judge_follow(ctx, lead, hand, play) if hand is not None else None
        legal.append(verdict.legal if verdict is not None else None)
        took = False
        if verdict is not None and not verdict.legal:
            note = f"{format_cards(play)} 不合法（{REASON_TEXT[verdict.reason]}），不能赢。"
        elif len(play) != n:
            note = f"{format_cards(play)} 张数与领牌不同，不能赢。"
        else:
            groups = {ctx.key[c][0] for c in play}
            if groups == {group}:
                note, took, best_top = _same_suit(ctx, lead, play, best_key is not None, best_top)
            elif side_lead and groups == {TRUMP}:
                key = structure_key(ctx, lead, play)
                if key is None:
                    note = f"主牌 {format_cards(play)} 与领牌结构（{lead.shape() or _type_label(lead)}）不符，不能杀。"
                elif best_key is None:
                    took, best_key = True, key
                    note = f"缺门用主牌 {format_cards(play)} 杀牌，结构与领牌相同，主牌大于副牌。"
                elif key.value(every) > best_key.value(every):
                    took, best_key = True, key
                    note = f"主牌 {format_cards(play)} 盖杀：{_compare_words(lead)}比{_play_name(best)}大。"
                else:
                    note = f"主牌 {format_cards(play)} 也能杀，但{_compare_words(lead)}不比{_play_name(best)}大（相同时先出者胜）。"
            elif len(groups) > 1 and group in groups:
                note = f"{format_cards(play)} 混出{ctx.group_name(group)}与其他牌，视为垫牌，不争本墩。"
            else:
                note = f"{format_cards(play)} 是垫牌，不能赢。"
        if took:
            best = i
        beats.append(took)
        notes.append(note)
    points = sum(count_points(p) for p in plays)
    return TrickResult(best, tuple(beats), points, tuple(legal), tuple(notes), lead)


def _type_label(combo: Combo) -> str:
    return {"single": "单张", "pair": "对子", "tractor": "拖拉机", "throw": "甩牌"}.get(
        combo.type, ""
    )


def _compare_words(lead: Combo) -> str:
    if lead.tractors:
        return "逐层比较（先拖拉机、再对子、后单张）"
    if lead.pairs:
        return "逐层比较（先对子、后单张）"
    return "最大的单张"


def _same_suit(
    ctx: Context, lead: Combo, play: Sequence[Card], ruffed: bool, best_top: int
) -> tuple[str, bool, int]:
    gname = ctx.group_name(lead.group or "")
    if lead.type == THROW:
        return f"同花色跟 {format_cards(play)}：同花色跟牌压不过甩牌。", False, best_top
    if ruffed:
        return f"跟{gname} {format_cards(play)}：本墩已被主牌杀，副牌压不过。", False, best_top
    combo = classify(ctx, play)
    unit = lead.units[0]
    if combo.type != lead.type or (lead.type == TRACTOR and combo.units[0].length != unit.length):
        return (
            f"跟{gname} {format_cards(play)}：牌型与领牌（{_type_label(lead)}）不同，不能压。",
            False,
            best_top,
        )
    top = combo.units[0].top
    if top > best_top:
        return f"跟{gname} {format_cards(play)}：同牌型点数更大，压过。", True, top
    if top == best_top:
        return f"跟{gname} {format_cards(play)}：与当前最大牌一样大，先出者胜。", False, best_top
    return f"跟{gname} {format_cards(play)}：点数较小，压不过。", False, best_top
