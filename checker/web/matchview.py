"""A match at the /play/ table: the rounds played so far, their bankers and results, and the
levels or chips each left, as the match page and the round's end draw them.

A later round's game stores the rounds before it (`PlayGame.match["history"]`, written by
"next round"); the round of the game itself comes from its position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from checker.engine.cards import format_rank
from checker.engine.ruleset import Ruleset
from checker.engine.texts import Lang
from checker.models import OUTCOME_LABELS
from checker.play.game import Position, next_round
from checker.web import present, roomview
from checker.web.tableview import review_open, seat_name


def round_entry(key: str, position: Position) -> dict[str, Any]:
    """Write a finished round of a match as plain data: who banked, the result, what it left."""
    assert position.result is not None
    _spec, state, record = next_round(position)
    result = position.result
    return {
        "key": key,
        "round": record.round_no,
        "seed": record.seed,
        "banker": record.banker,
        "result": record.result,
        "winner": result.winner,
        "rise": record.rise,
        "points": result.attackers_points,
        "bid": result.bid,
        "levels": list(record.levels_after) if record.levels_after else None,
        "chips": list(record.chips_after),
        "net": list(record.net),
        "next_banker": record.next_banker,
        "over": state.over,
        "winners": list(state.winner or ()),
    }


def stored_history(match: Any) -> list[dict[str, Any]]:
    """Read the rounds before a game from its stored match data (bad entries are dropped)."""
    if not isinstance(match, dict) or not isinstance(match.get("history"), list):
        return []
    return [e for e in match["history"] if isinstance(e, dict) and _is_entry(e)]


def _is_entry(entry: dict[str, Any]) -> bool:
    ints = ("round", "seed", "banker", "rise", "points")
    if not all(isinstance(entry.get(k), int) for k in ints) or not isinstance(
        entry.get("key"), str
    ):
        return False
    lists = [entry.get("chips"), entry.get("net"), entry.get("levels") or []]
    return all(isinstance(v, list) and all(isinstance(x, int) for x in v) for v in lists)


def team_levels(rs: Ruleset, levels: Sequence[int], human: int | None) -> list[dict[str, str]]:
    """Name each side by its seats and say the level it plays next."""
    out = []
    for team, level in enumerate(levels):
        seats = [s for s in range(rs.players) if s % len(levels) == team]
        names = " / ".join(seat_name(s, human, rs.players) for s in seats)
        out.append({"team": names, "level": format_rank(level)})
    return out


def seat_chips(
    rs: Ruleset, chips: Sequence[int], human: int | None, net: Sequence[int] = ()
) -> list[dict[str, Any]]:
    """Each seat's chips (and this round's change when given)."""
    return [
        {
            "name": seat_name(s, human, rs.players),
            "chips": c,
            "net": net[s] if s < len(net) else None,
        }
        for s, c in enumerate(chips)
    ]


def _seat(rs: Ruleset, seat: Any, human: int | None) -> str:
    if isinstance(seat, int) and 0 <= seat < rs.players:
        return seat_name(seat, human, rs.players)
    return ""


def _row(rs: Ruleset, entry: dict[str, Any], human: int | None, *, current: bool) -> dict[str, Any]:
    result = str(entry.get("result") or "")
    winner = str(entry.get("winner") or "")
    banker = int(entry["banker"])
    levels = entry.get("levels")
    chips = entry.get("chips") or []
    key = str(entry["key"])
    return {
        "round": entry["round"],
        "seed": entry["seed"],
        "banker": _seat(rs, banker, human) or "?",
        "result": _(OUTCOME_LABELS.get(result, result)) if result else "",
        "winner": present.term_label(winner) if winner else "",
        "rise": entry.get("rise") or 0,
        "points": entry.get("points"),
        "bid": entry.get("bid"),
        "levels": team_levels(rs, levels, human) if levels else None,
        "chips": seat_chips(rs, chips, human, entry.get("net") or ())
        if rs.banker_plays_alone
        else None,
        "next_banker": _seat(rs, entry.get("next_banker"), human),
        "replay_url": reverse("play_replay", args=[key]),
        "table_url": reverse("play_table", args=[key]),
        "current": current,
    }


def match_context(key: str, match: Any, position: Position, lang: Lang) -> dict[str, Any]:
    """Build the match page: every round so far (this one last), the standing, the end."""
    rs = position.ruleset
    human = position.spec.seat
    rows = [_row(rs, e, human, current=False) for e in stored_history(match)]
    over = False
    winners: list[str] = []
    playing = None
    if position.is_over:
        entry = round_entry(key, position)
        rows.append(_row(rs, entry, human, current=True))
        over = bool(entry["over"])
        winners = [seat_name(s, human, rs.players) for s in entry["winners"]]
    elif roomview.dissolved_event(match) is None:
        state = position.spec.match_state(rs)
        playing = {
            "round": state.round_no,
            "table_url": reverse("play_table", args=[key]),
            "replay_url": reverse("play_replay", args=[key]) if review_open(position) else "",
        }
    return {
        "title": rs.title_en if lang == "en" else rs.title,
        "ruleset": rs,
        "rows": rows,
        "playing": playing,
        "over": over,
        "winners": winners,
        "has_levels": bool(rows and rows[0]["levels"]) or rs.has_level,
        "has_chips": rs.banker_plays_alone,
        "room_cards": roomview.room_cards(rs, lang),
        "match_rounds": rs.option("match_rounds") if rs.has_option("match_rounds") else None,
        "dissolved": roomview.dissolve_words(position, match),
        "may_dissolve": rs.table.dissolve and roomview.dissolved_event(match) is None,
    }
