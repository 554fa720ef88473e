"""Between rounds: who is banker next, each side's level, and whether the match is over."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from .cards import format_rank, parse_rank
from .errors import CardError, PlayError
from .ruleset import FirstBanker, HoldBanker, MatchEnd, Ruleset, ScorePolicy, TakeoverBanker
from .scoring import BANKER_RISES, _advance, _advance_text
from .texts import Lang, Say, Spoken, count_en, pick
from .vocab import term

# Results a ruleset can produce, by score policy; the banker's side wins the first three.
BANKER_RESULTS = ("big_sweep", "small_sweep", "hold")
RESULTS = {
    ScorePolicy.LEVELS: (*BANKER_RESULTS, "swap", "promote"),
    ScorePolicy.BID_CHIPS: (*BANKER_RESULTS, "promote", "surrender"),
}


def top_level(rs: Ruleset) -> int:
    """Return the highest level of the ladder (A)."""
    return rs.ranks[-1]


def team_of(rs: Ruleset, seat: int) -> int:
    """Return a seat's fixed team (partner rulesets: seats 0 and 2 are team 0, 1 and 3 team 1)."""
    return seat % 2


def team_seats(rs: Ruleset, team: int) -> tuple[int, ...]:
    """List the seats of a team."""
    return tuple(s for s in range(rs.players) if team_of(rs, s) == team)


def has_levels(rs: Ruleset) -> bool:
    """Tell whether the sides of this ruleset carry levels between rounds."""
    return rs.has_level and rs.has_fixed_teams


def first_banker(rs: Ruleset) -> int | None:
    """Return the first round's banker seat, or None when whoever fixes trump becomes banker."""
    return None if rs.first_banker == FirstBanker.DECLARER else 0


def check_seat(rs: Ruleset, seat: Any, what: str = "banker") -> int:
    """Return a seat number after checking that the ruleset has that seat."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rs.players:
        raise PlayError(
            f"{what}: 座位“{seat}”不存在（{rs.title}只有座位 0–{rs.players - 1}）",
            en=f"{what}: there is no seat “{seat}” ({rs.title_en} has seats 0–{rs.players - 1})",
            field=what,
            value=str(seat),
        )
    return seat


def check_result(rs: Ruleset, result: Any, rise: Any = None) -> tuple[str, int]:
    """Return (result, rise) after checking the ruleset can produce that result with that rise."""
    known = RESULTS[rs.score_policy]
    if result not in known:
        raise PlayError(
            f"result: {rs.title}不会出现结果“{result}”（可能的结果：{', '.join(known)}）",
            en=f"result: {rs.title_en} cannot produce the result “{result}” "
            f"(possible: {', '.join(known)})",
            field="result",
            value=str(result),
        )
    if rise is not None and (isinstance(rise, bool) or not isinstance(rise, int)):
        raise PlayError(
            f"rise 必须是整数，而不是“{rise}”",
            en=f"rise must be an integer, not “{rise}”",
            field="rise",
            value=str(rise),
        )
    if rs.score.bands:
        return _band_result(rs, str(result), rise)
    fixed = BANKER_RISES.get(result, rs.score_zero_rise if result == "big_sweep" else None)
    if rs.settles_by_bid and result != "promote":
        fixed = 0
    if fixed is not None:
        if rise is not None and rise != fixed:
            raise PlayError(
                f"rise: 结果 {result} 的升级数只能是 {fixed}，而不是 {rise}",
                en=f"rise: the result {result} always rises {fixed}, not {rise}",
                field="rise",
                value=str(rise),
            )
        return str(result), fixed
    if rise is None or rise < 1:
        raise PlayError(
            f"rise: 结果 {result} 需要至少升 1 级（给的是 {rise}）",
            en=f"rise: the result {result} needs a rise of at least 1 (given: {rise})",
            field="rise",
            value=str(rise),
        )
    return str(result), rise


def _band_result(rs: Ruleset, result: str, rise: int | None) -> tuple[str, int]:
    """Check a result and rise against a level table written as data (score.bands)."""
    rises = sorted({b.rise for b in rs.score.bands if b.result == result})
    shown = " / ".join(str(r) for r in rises)
    if not rises or (rise is None and len(rises) > 1) or (rise is not None and rise not in rises):
        given = "" if rise is None else f"，而不是 {rise}"
        given_en = "" if rise is None else f", not {rise}"
        raise PlayError(
            f"rise: 按 {rs.title} 的级别表，结果 {result} 的升级数是 {shown or '—'}{given}",
            en=f"rise: by the level table of {rs.title_en}, the result {result} rises "
            f"{shown or '—'}{given_en}",
            field="rise",
            value=str(rise),
        )
    return result, rises[0] if rise is None else rise


def check_level(rs: Ruleset, level: Any, what: str = "levels") -> int:
    """Return a level rank after checking it is on the ruleset's ladder."""
    if isinstance(level, int) and not isinstance(level, bool):
        rank = level
    else:
        try:
            rank = parse_rank(str(level))
        except CardError:
            rank = -1
    if isinstance(level, bool) or rank not in rs.levels:
        ladder = " ".join(format_rank(r) for r in rs.levels)
        raise PlayError(
            f"{what}: 级别“{level}”不在{rs.title}的级别序列里（{ladder}）",
            en=f"{what}: the level “{level}” is not on the ladder of {rs.title_en} ({ladder})",
            field=what,
            value=str(level),
        )
    return rank


@dataclass(frozen=True)
class NextRound(Spoken):
    """What a finished round leaves for the next one, and whether the match ended with it."""

    banker: int
    levels: tuple[int, ...] | None
    chips: tuple[int, ...] | None
    round_no: int
    match_over: bool
    match_winner: tuple[int, ...] | None
    rule: str
    say: Say = field(repr=False, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """Return the fields as plain data (levels as ranks, the winner as a list of seats)."""
        return {
            "banker": self.banker,
            "levels": list(self.levels) if self.levels is not None else None,
            "chips": list(self.chips) if self.chips is not None else None,
            "round": self.round_no,
            "match_over": self.match_over,
            "match_winner": list(self.match_winner) if self.match_winner is not None else None,
        }


def _seats_text(seats: Sequence[int], lang: Lang) -> str:
    return pick(lang, "、", ", ").join(str(s) for s in seats)


@dataclass(frozen=True)
class _Step:
    """The facts one round's result settles, as its explanation reads them."""

    banker: int
    result: str
    rise: int
    won: bool
    nxt: int
    hold: HoldBanker
    takeover: TakeoverBanker
    start: tuple[int, ...] = ()
    new_levels: tuple[int, ...] | None = None
    moved: int = 0
    why: str = ""
    over: bool = False
    winner: tuple[int, ...] | None = None
    end: MatchEnd = MatchEnd.ROUNDS
    rounds: int | None = None
    round_no: int = 1


def next_round(
    rs: Ruleset,
    *,
    banker: int,
    result: str,
    rise: int | None = None,
    levels: Sequence[int] | None = None,
    chips: Sequence[int] | None = None,
    round_no: int = 1,
) -> NextRound:
    """Apply one round's result: the next banker, the sides' levels and the end of the match.

    `levels` holds each team's level (partner rulesets, team = seat % 2) at the round's
    start; `chips` each player's total after the round (fixed-length matches); `round_no` is
    the number of the round just played, counted from 1.
    """
    banker = check_seat(rs, banker)
    result, rise = check_result(rs, result, rise)
    if isinstance(round_no, bool) or not isinstance(round_no, int) or round_no < 1:
        raise PlayError(
            f"round 必须是正整数，而不是“{round_no}”",
            en=f"round must be a positive integer, not “{round_no}”",
            field="round",
        )
    won = result in BANKER_RESULTS
    nxt, rule = _next_banker(rs, banker, won)
    step = _Step(banker, result, rise, won, nxt, rs.hold_banker, rs.takeover_banker)
    step = _levels_step(rs, step, levels)
    new_chips = _checked_chips(rs, chips)
    if rs.match_end == MatchEnd.ROUNDS:
        step = _rounds_step(rs, step, round_no, new_chips)
    over, winner = step.over, step.winner
    return NextRound(
        nxt, step.new_levels, new_chips, round_no + 1, over, winner, rule, partial(_explain, step)
    )


def _next_banker(rs: Ruleset, banker: int, won: bool) -> tuple[int, str]:
    """Return the next round's banker and the rotation rule that names it."""
    n = rs.players
    if won:
        hold = rs.hold_banker
        return ((banker + 2) % n if hold == HoldBanker.PARTNER else banker), f"hold_{hold}"
    takeover = rs.takeover_banker
    nxt = (banker + 1) % n if takeover == TakeoverBanker.NEXT_SEAT else (banker - 1) % n
    return nxt, f"takeover_{takeover}"


def _levels_step(rs: Ruleset, step: _Step, levels: Sequence[int] | None) -> _Step:
    """Move the winning team's level and tell whether that ends the match (level rulesets)."""
    if not has_levels(rs):
        if levels is not None:
            raise PlayError(
                f"levels: {rs.title}没有级别，不能给 levels",
                en=f"levels: {rs.name} has no levels, so levels cannot be given",
                field="levels",
            )
        return step
    if levels is None or len(levels) != 2:
        raise PlayError(
            f"levels: {rs.title}需要两队的级别 [0、2 号座位一队, 1、3 号座位一队]",
            en=f"levels: {rs.name} needs the level of both teams [seats 0 and 2, seats 1 and 3]",
            field="levels",
            value=str(levels),
        )
    won = step.won
    win_team = team_of(rs, step.banker) if won else 1 - team_of(rs, step.banker)
    start = tuple(check_level(rs, v) for v in levels)
    moved, why = _advance(rs, start[win_team], step.rise, won)
    new_levels = tuple(moved if t == win_team else start[t] for t in range(2))
    top = top_level(rs)
    end = rs.match_end
    over = False
    if end == MatchEnd.BANKER_WINS_AT_TOP:
        over = won and start[win_team] == top
    elif end == MatchEnd.SIDE_WINS_AT_TOP:
        over = start[win_team] == top
    elif end == MatchEnd.REACH_TOP:
        over = moved == top
    winner = team_seats(rs, win_team) if over else None
    return replace(
        step,
        start=start,
        new_levels=new_levels,
        moved=moved,
        why=why,
        over=over,
        winner=winner,
        end=end,
    )


def _checked_chips(rs: Ruleset, chips: Sequence[int] | None) -> tuple[int, ...] | None:
    """Return each player's chips after the round, checked (None when not given)."""
    if chips is None:
        return None
    n = rs.players
    if len(chips) != n or any(isinstance(c, bool) or not isinstance(c, int) for c in chips):
        raise PlayError(
            f"chips: 需要 {n} 位玩家各自的子数（整数），给的是“{chips}”",
            en=f"chips: needs the chips of each of the {n} players (integers), not “{chips}”",
            field="chips",
            value=str(chips),
        )
    return tuple(chips)


def _rounds_step(rs: Ruleset, step: _Step, round_no: int, chips: tuple[int, ...] | None) -> _Step:
    """Tell whether a match of a fixed number of rounds is over, and who has the most chips."""
    rounds = int(rs.match_rule("match_rounds"))
    over = round_no >= rounds
    winner = None
    if over:
        if chips is None:
            raise PlayError(
                "chips: 一场打满局数时需要各家的累计子数",
                en="chips: a match played to its number of rounds needs every player's chips",
                field="chips",
            )
        best = max(chips)
        winner = tuple(s for s in range(rs.players) if chips[s] == best)
    return replace(step, over=over, winner=winner, rounds=rounds, round_no=round_no)


def _explain(step: _Step, lang: Lang) -> str:
    """Say what the round's result does: the next banker, the levels, the match's end."""
    parts = list(_banker_words(step, lang))
    if step.new_levels is not None:
        parts.append(_levels_words(step, lang))
    if step.over and step.winner is not None:
        parts.append(_end_words(step, lang))
    elif step.rounds is not None:
        parts.append(
            pick(
                lang,
                f"已打 {step.round_no}/{step.rounds} 局",
                f"{step.round_no} of {step.rounds} rounds played",
            )
        )
    return pick(lang, "；", "; ").join(parts) + pick(lang, "。", ".")


def _banker_words(step: _Step, lang: Lang) -> tuple[str, str]:
    """Say who won the round and who is banker next."""
    res, banker, nxt = term(step.result, lang), step.banker, step.nxt
    if step.won:
        head = pick(lang, f"庄家（座位 {banker}）{res}", f"The banker (seat {banker}): {res}")
        if step.hold == HoldBanker.PARTNER:
            seat = pick(
                lang,
                f"庄家的对家（座位 {nxt}）下局坐庄",
                f"the banker's partner (seat {nxt}) is banker next",
            )
        else:
            seat = pick(
                lang,
                f"连庄：座位 {nxt} 下局仍坐庄",
                f"the banker stays: seat {nxt} is banker again",
            )
        return head, seat
    head = pick(lang, f"庄家（座位 {banker}）输：{res}", f"The banker (seat {banker}) loses: {res}")
    side = (
        pick(lang, "下家", "next seat")
        if step.takeover == TakeoverBanker.NEXT_SEAT
        else pick(lang, "上家", "previous seat")
    )
    seat = pick(
        lang,
        f"庄家的{side}（座位 {nxt}）下局坐庄",
        f"the banker's {side} (seat {nxt}) is banker next",
    )
    return head, seat


def _levels_words(step: _Step, lang: Lang) -> str:
    """Say how the winning side's level moved."""
    assert step.new_levels is not None
    a, b = (format_rank(v) for v in step.start)
    c, d = (format_rank(v) for v in step.new_levels)
    rise = step.rise
    climb = pick(lang, f"升 {rise} 级", f"rise {count_en(rise, 'level')}")
    side = (
        pick(lang, "庄家一方", "the banker's side")
        if step.won
        else pick(lang, "闲家一方", "the attackers")
    )
    text = pick(
        lang,
        f"{side}{climb}：级别（0、2 号座位 / 1、3 号座位）{a}/{b} → {c}/{d}",
        f"{side} {climb}: levels (seats 0, 2 / seats 1, 3) {a}/{b} → {c}/{d}",
    )
    if step.why:
        why = _advance_text(step.why, step.moved, lang)
        text += pick(lang, f"（{why}）", f" ({why})")
    return text


def _end_words(step: _Step, lang: Lang) -> str:
    """Say that the match is over and who won it."""
    assert step.winner is not None
    seats = _seats_text(step.winner, lang)
    if step.rounds is not None:
        return pick(
            lang,
            f"第 {step.round_no} 局打满 {step.rounds} 局，整场结束，累计子数最多的座位 {seats} 获胜",
            f"round {step.round_no} completes the {step.rounds}-round match; seat(s) "
            f"{seats} with the most chips win",
        )
    how = {
        MatchEnd.BANKER_WINS_AT_TOP: pick(
            lang, "庄家一方打 A 赢下本局", "the banker's side won a round while playing A"
        ),
        MatchEnd.SIDE_WINS_AT_TOP: pick(
            lang, "已到 A 的一方赢下本局", "a side already at A won the round"
        ),
        MatchEnd.REACH_TOP: pick(lang, "一方打到 A", "a side reached A"),
    }[step.end]
    return pick(
        lang,
        f"{how}，整场结束，座位 {seats} 一方获胜",
        f"{how}: the match is over, won by seats {seats}",
    )
