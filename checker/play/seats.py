"""Which bot plays which seat of a game: one name for every seat, or a comma list per seat.

A game's bots are written as one bot name (every bot seat plays it) or as a comma list with
one entry per seat in seat order, `-` at the human's seat (`-,v2,greedy,v2`). The list read
from a link or the command line may also leave out the human's seat (the other seats in seat
order) and may leave an entry empty (that seat plays the strongest bot).
"""

from __future__ import annotations

from collections.abc import Sequence

from checker.engine.errors import EngineError

from .bots.registry import DEFAULT_BOT, PLAYER_KINDS, make_players
from .players import Player

BOT_SEP = ","
HUMAN = "-"


class BotChoiceError(EngineError):
    """A bot list that names an unknown bot or has the wrong number of seats; says which."""


def default_bots() -> str:
    """Name the strongest registered bot (the registry's default), what unnamed seats play."""
    return DEFAULT_BOT if DEFAULT_BOT in PLAYER_KINDS else PLAYER_KINDS[-1]


def _known(name: str, where: str) -> str:
    if name not in PLAYER_KINDS:
        raise BotChoiceError(
            f"bots: unknown bot {name[:20]!r}{where} (known: {', '.join(PLAYER_KINDS)})"
        )
    return name


def parse_bots(text: str | None, players: int, human: int | None) -> str:
    """Read a game's bots (one name, or a comma list per seat) and write them canonically.

    The canonical form is one name when every bot seat plays the same bot, else the full list
    with `-` at the human's seat. BotChoiceError names an unknown bot or a wrong count.
    """
    text = (text or "").strip()
    if BOT_SEP not in text:
        return _known(text or default_bots(), "")
    given = [part.strip() for part in text.split(BOT_SEP)]
    bot_seats = [s for s in range(players) if s != human]
    if len(given) == players:
        pairs = list(zip(range(players), given, strict=True))
    elif human is not None and len(given) == players - 1:
        pairs = list(zip(bot_seats, given, strict=True))
    else:
        others = f" or {players - 1} (the other seats)" if human is not None else ""
        raise BotChoiceError(
            f"bots: {text[:60]!r} names {len(given)} seats; give one name, "
            f"or one per seat: {players}{others}"
        )
    chosen = dict.fromkeys(bot_seats, default_bots())
    for seat, name in pairs:
        if seat == human:
            if name not in ("", HUMAN, "human"):
                _known(name, f" at seat {seat}")
            continue
        if name not in ("", HUMAN):
            chosen[seat] = _known(name, f" at seat {seat}")
    names = set(chosen.values())
    if len(names) == 1:
        return names.pop()
    return BOT_SEP.join(chosen.get(s, HUMAN) for s in range(players))


def seat_bots(bots: str, players: int) -> list[str]:
    """List the bot of every seat (the strongest bot at the human's seat, as its adviser)."""
    if BOT_SEP not in bots:
        return [bots] * players
    names = bots.split(BOT_SEP)
    return [default_bots() if name == HUMAN else name for name in names[:players]]


def is_uniform(bots: str) -> bool:
    """Tell whether every bot seat plays the same bot."""
    return BOT_SEP not in bots


def make_seat_players(bots: str, seed: int, players: int) -> list[Player]:
    """Make the players of every seat: each seat's bot with that seat's own generator.

    A seat plays exactly what it would play if every seat played its bot, so one name for all
    and the same name in every entry of a list give the same game.
    """
    names = seat_bots(bots, players)
    made = {name: make_players(name, seed, players) for name in dict.fromkeys(names)}
    return [made[name][seat] for seat, name in enumerate(names)]


def describe_bots(bots: str, human: int | None, players: int) -> str:
    """Write who plays each seat for a log header: `human1+v2`, or `v2,human,greedy,v2`."""
    if is_uniform(bots):
        return bots if human is None else f"human{human}+{bots}"
    names: Sequence[str] = seat_bots(bots, players)
    return BOT_SEP.join("human" if s == human else n for s, n in enumerate(names))
