"""Take-back at a casual table against bots: the person's last move undone by replaying the
round without it, and the take-back written into the log (the person has seen the bots'
replies to the move it took back, so the log says so)."""

from __future__ import annotations

from collections.abc import Sequence

from checker.engine.texts import Lang, pick

from .moves import Move, MoveError
from .round import Event

TAKEN_BACK = "takeback"
NOTE = "the person took this move back after seeing the bots' replies (a casual table)"


def _nothing(lang: Lang) -> str:
    return pick(lang, "没有可以悔的一步", "there is no move to take back")


def effective_moves(moves: Sequence[Move]) -> tuple[list[Move], dict[int, list[Move]]]:
    """Split a move list into the moves that stand and the take-backs, by where they were made.

    A take-back removes the move before it; it is kept at the number of moves left standing,
    together with any made deeper in the round that this one undid in turn (oldest first).
    """
    standing: list[Move] = []
    marks: dict[int, list[Move]] = {}
    for step, move in enumerate(moves):
        if move.kind != TAKEN_BACK:
            standing.append(move)
            continue
        if not standing:
            raise MoveError(_nothing, step=step)
        undone = standing.pop()
        at = len(standing)
        later = [m for k in sorted(marks) if k > at for m in marks.pop(k)]
        marks.setdefault(at, []).extend([*later, undone])
    return standing, marks


def takeback_event(seat: int | None, move: Move) -> Event:
    """The log's record of a take-back: whose, which move, and that it was seen through."""
    return {"t": TAKEN_BACK, "seat": seat, "move": move.text(), "note": NOTE}


def taken_back(events: Sequence[Event]) -> int:
    """Count the take-backs a round's log records."""
    return sum(1 for e in events if e["t"] == TAKEN_BACK)
