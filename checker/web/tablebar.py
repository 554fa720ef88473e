"""The /play/ table's status bar: trump and level, banker, the attackers' points against the
ruleset's score bands, whose turn it is and the cards each seat holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from checker.engine.ruleset import Ruleset
from checker.engine.scoring import score_round
from checker.engine.texts import Lang
from checker.engine.vocab import term
from checker.play.table import Table

POINT_UNIT = 5  # points come in fives: the bands change only there
DECK_POINTS = 100  # the points in one deck (5s, 10s and Ks)


_KEPT: dict[int, tuple[Ruleset, tuple[tuple[int, str, int], ...]]] = {}


def _marks(rs: Ruleset) -> tuple[tuple[int, str, int], ...]:
    """The thresholds of a ruleset, worked out once per ruleset object (see `_scan`)."""
    kept = _KEPT.get(id(rs))
    if kept is None or kept[0] is not rs:
        if len(_KEPT) > 64:
            _KEPT.clear()
        kept = _KEPT[id(rs)] = (rs, _scan(rs))
    return kept[1]


def _scan(rs: Ruleset) -> tuple[tuple[int, str, int], ...]:
    """Find where the round's result changes as the attackers' points rise: (points, result, rise).

    Read from the ruleset's own scoring (score.bands, or its step and swap line), never a
    number written here; the scan goes past every deck point and one step more (a kitty bonus).
    """
    top = DECK_POINTS * rs.decks + max(rs.score_step, POINT_UNIT)
    out: list[tuple[int, str, int]] = []
    last: tuple[str, str, int] | None = None
    for points in range(0, top + 1, POINT_UNIT):
        scored = score_round(rs, points)
        now = (scored.winner, scored.result, scored.rise)
        if now != last:
            out.append((points, scored.result, scored.rise))
            last = now
    return tuple(out)


def score_marks(rs: Ruleset, lang: Lang) -> list[dict[str, Any]]:
    """List the score thresholds above zero: points, the result's name and the rise there."""
    return [
        {"points": p, "label": term(result, lang), "rise": rise, "result": result}
        for p, result, rise in _marks(rs)
        if p > 0
    ]


def points_bar(rs: Ruleset, points: int, lang: Lang) -> dict[str, Any]:
    """Place the attackers' points on a bar with the thresholds, and name the next one."""
    marks = score_marks(rs, lang)
    top = max(DECK_POINTS * rs.decks, points)
    marks = [m for m in marks if m["points"] <= top]
    for m in marks:
        m["passed"] = points >= m["points"]
    ahead = [m for m in marks if m["points"] > points]
    return {
        "points": points,
        "top": top,
        "shown": max(0, min(points, top)),
        "tick": max(1, top // 200),
        "marks": marks,
        "next": ahead[0] if ahead else None,
        "to_next": ahead[0]["points"] - points if ahead else 0,
    }


def short_name(seat: int, human: int | None, players: int) -> str:
    """Name a seat in one word for the bar: 你, 下家, 对家, 上家, else 座n."""
    if human is not None and seat == human:
        return _("你")
    if human is not None and players == 4:
        return [_("下家"), _("对家"), _("上家")][(seat - human) % players - 1]
    return _("座%(n)d") % {"n": seat}


def status_bar(
    table: Table, human: int | None, left: Sequence[int], lang: Lang, *, to_move: int | None
) -> dict[str, Any]:
    """Build the status bar: points against the bands, whose turn, cards held per seat."""
    rs = table.ruleset
    n = rs.players
    seats = [
        {
            "name": short_name(s, human, n),
            "left": left[s],
            "banker": s == table.banker,
            "turn": s == to_move,
            "me": s == human,
        }
        for s in range(n)
    ]
    return {
        "bar": points_bar(rs, table.attackers_points, lang) if table.banker is not None else None,
        "seats": seats,
        "turn": short_name(to_move, human, n) if to_move is not None else "",
        "my_turn": to_move is not None and to_move == human,
    }
