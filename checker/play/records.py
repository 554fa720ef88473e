"""What happened in a round, as typed records, and the replay log's format: each record written
as one log event and read back from it (the log's lines are these events as JSON).

A record is immutable (a NamedTuple: a round makes a few hundred of them). The events keep the
log's field order and spelling exactly (`trump: "none"`, ranks as "J", cards as ♠A), so a log
written from records is byte for byte the log of earlier versions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from checker.engine.cards import Card, format_card, format_cards, parse_cards, parse_rank

Event = dict[str, Any]
Cards = tuple[Card, ...]


def rank_text(rank: int | None) -> str | None:
    """Write a level rank as the log does (2–10, J, Q, K, A; None stays None)."""
    if rank is None:
        return None
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank))


def _rank(text: Any) -> int | None:
    return None if text is None else parse_rank(str(text))


def _cards(text: Any) -> Cards:
    return tuple(parse_cards(str(text))) if text else ()


def _trump(text: Any) -> str | None:
    return None if text in (None, "none") else str(text)


class Started(NamedTuple):
    """The round began: its ruleset, seed and starting point (banker None: a first round)."""

    ruleset: str
    seed: int
    level: int | None
    attacker_level: int | None
    banker: int | None


class Dealt(NamedTuple):
    """The cards were dealt (again after `redeal` deals nobody declared in)."""

    redeal: int
    first: int
    hands: tuple[Cards, ...]
    kitty: Cards


class Declared(NamedTuple):
    """A seat declared during the deal; the referee accepted it or not."""

    seat: int
    at: int
    cards: Cards
    accepted: bool
    trump: str | None
    reason: str


class Flipped(NamedTuple):
    """Nobody declared: a kitty card was turned to fix the trump."""

    card: Card
    trump: str | None


class Bid(NamedTuple):
    """A seat bid (a number, or "pass"); an illegal bid was replaced."""

    seat: int
    bid: int | str
    legal: bool


class KittyShown(NamedTuple):
    """The kitty was shown to everyone at the show bid (二七王 §4.3)."""

    seat: int
    bid: int
    cards: Cards


class Surrendered(NamedTuple):
    """The banker gave the round up at the surrender bid."""

    seat: int
    bid: int


class TrumpFixed(NamedTuple):
    """The trump and the banker were fixed (by a declaration, a flip or the auction)."""

    trump: str | None
    declarer: int | None
    banker: int
    by: str


class Buried(NamedTuple):
    """The banker buried the kitty (an illegal choice was replaced by the kitty as dealt)."""

    seat: int
    cards: Cards
    legal: bool


class Played(NamedTuple):
    """A seat led or followed. `tried` is what it chose when that was replaced (`reason`) or
    when its throw failed; `throw` is "ok" or "failed" for a throw."""

    trick: int
    seat: int
    role: str
    cards: Cards
    legal: bool
    reason: str | None = None
    tried: Cards | None = None
    throw: str = ""
    penalty: int = 0


class TrickWon(NamedTuple):
    """A trick ended: its winner, its points, the attackers' points so far."""

    trick: int
    leader: int
    winner: int
    points: int
    attackers: int


class NoTrump(NamedTuple):
    """A seat ran out of trumps before the trick numbered `trick` (报无主, §5.4.2)."""

    seat: int
    trick: int


class Signaled(NamedTuple):
    """An attacker signalled its partner during trick `trick` (踩 / 没分 / 有分, 二七王 §11)."""

    trick: int
    seat: int
    signal: str


class Scored(NamedTuple):
    """The round ended: the kitty, the points and the result."""

    attackers_points: int
    kitty: Cards
    kitty_points: int
    kitty_bonus: int
    multiplier: int
    result: str
    winner: str
    rise: int
    next_level: int | None
    chips: int | None
    bonus: tuple[int, ...]
    breaks: tuple[str, ...]


class Passed(NamedTuple):
    """A seat declared nothing when asked (not written to the log)."""

    seat: int


Record = (
    Started
    | Dealt
    | Declared
    | Flipped
    | Bid
    | KittyShown
    | Surrendered
    | TrumpFixed
    | Buried
    | Played
    | TrickWon
    | NoTrump
    | Signaled
    | Scored
    | Passed
)


def _played_event(r: Played) -> Event:
    trick, seat, role, cards, legal, reason, tried, throw, penalty = r
    if role == "lead":
        event: Event = {"t": "play", "trick": trick, "seat": seat, "role": role}
        event["cards"] = format_cards(cards)
        if reason is not None:
            event["reason"] = reason
        event["legal"] = legal
        if throw:
            event["throw"] = throw
            if throw == "failed":
                event["tried"] = format_cards(tried or ())
                if penalty:
                    event["penalty"] = penalty
        return event
    event = {  # most records of a round: one dict literal
        "t": "play",
        "trick": trick,
        "seat": seat,
        "role": role,
        "cards": format_cards(cards),
        "legal": legal,
    }
    if not legal:
        event["reason"] = reason
        event["tried"] = format_cards(tried or ())
    return event


def _trick_event(r: TrickWon) -> Event:
    trick, leader, winner, points, attackers = r
    return {
        "t": "trick",
        "trick": trick,
        "leader": leader,
        "winner": winner,
        "points": points,
        "attackers": attackers,
    }


def _declared_event(r: Declared) -> Event:
    return {
        "t": "declare",
        "seat": r.seat,
        "at": r.at,
        "cards": format_cards(r.cards),
        "accepted": r.accepted,
        "trump": r.trump or "none",
        "reason": r.reason,
    }


def write_event(r: Record) -> Event | None:
    """Write a record as its log event (None: a record the log leaves out)."""
    write = _WRITERS.get(type(r))
    return write(r) if write is not None else _rare_event(r)


def _rare_event(r: Record) -> Event | None:
    if isinstance(r, Started):
        return {
            "t": "round",
            "ruleset": r.ruleset,
            "seed": r.seed,
            "level": rank_text(r.level),
            "attacker_level": rank_text(r.attacker_level),
            "banker": r.banker,
        }
    if isinstance(r, Dealt):
        return {
            "t": "deal",
            "redeal": r.redeal,
            "first": r.first,
            "hands": [format_cards(h) for h in r.hands],
            "kitty": format_cards(r.kitty),
        }
    if isinstance(r, Flipped):
        return {"t": "flip", "card": format_card(r.card), "trump": r.trump or "none"}
    if isinstance(r, Bid):
        return {"t": "bid", "seat": r.seat, "bid": r.bid, "legal": r.legal}
    if isinstance(r, KittyShown):
        return {"t": "show_kitty", "seat": r.seat, "bid": r.bid, "cards": format_cards(r.cards)}
    if isinstance(r, Surrendered):
        return {"t": "surrender", "seat": r.seat, "bid": r.bid}
    if isinstance(r, TrumpFixed):
        return {
            "t": "trump",
            "trump": r.trump or "none",
            "declarer": r.declarer,
            "banker": r.banker,
            "by": r.by,
        }
    if isinstance(r, Buried):
        return {"t": "bury", "seat": r.seat, "cards": format_cards(r.cards), "legal": r.legal}
    if isinstance(r, NoTrump):
        return {"t": "no_trump", "seat": r.seat, "trick": r.trick}
    if isinstance(r, Signaled):
        return {"t": "signal", "trick": r.trick, "seat": r.seat, "signal": r.signal}
    if isinstance(r, Scored):
        return {
            "t": "end",
            "attackers_points": r.attackers_points,
            "kitty": format_cards(r.kitty),
            "kitty_points": r.kitty_points,
            "kitty_bonus": r.kitty_bonus,
            "multiplier": r.multiplier,
            "result": r.result,
            "winner": r.winner,
            "rise": r.rise,
            "next_level": rank_text(r.next_level),
            "chips": r.chips,
            "bonus": list(r.bonus),
            "breaks": list(r.breaks),
        }
    return None


# The writers of a round's frequent records, by type (the others: `_rare_event`).
_WRITERS: dict[type, Callable[[Any], Event]] = {
    Played: _played_event,
    TrickWon: _trick_event,
    Declared: _declared_event,
}


def write_events(records: list[Record]) -> list[Event]:
    """Write records as the log's events, in order (records the log leaves out skipped)."""
    out: list[Event] = []
    append, writers = out.append, _WRITERS
    for r in records:
        write = writers.get(type(r))
        event = write(r) if write is not None else _rare_event(r)
        if event is not None:
            append(event)
    return out


def read_event(e: Event) -> Record | None:
    """Read one log event back as its record (None: an event that is not a round's record,
    such as a match's `next`). KeyError or ValueError when a field is missing or unreadable."""
    t = e["t"]
    if t == "play":
        tried = e.get("tried")
        return Played(
            int(e["trick"]),
            int(e["seat"]),
            str(e["role"]),
            _cards(e["cards"]),
            bool(e["legal"]),
            e.get("reason"),
            None if tried is None else _cards(tried),
            str(e.get("throw", "")),
            int(e.get("penalty", 0)),
        )
    if t == "declare":
        return Declared(
            int(e["seat"]),
            int(e["at"]),
            _cards(e["cards"]),
            bool(e["accepted"]),
            _trump(e["trump"]),
            str(e["reason"]),
        )
    if t == "trick":
        return TrickWon(*(int(e[k]) for k in TrickWon._fields))
    return _read_rare(e, str(t))


def _read_rare(e: Event, t: str) -> Record | None:
    if t == "round":
        level, attacker = _rank(e["level"]), _rank(e["attacker_level"])
        return Started(str(e["ruleset"]), int(e["seed"]), level, attacker, e["banker"])
    if t == "deal":
        hands = tuple(_cards(h) for h in e["hands"])
        return Dealt(int(e["redeal"]), int(e["first"]), hands, _cards(e["kitty"]))
    if t == "flip":
        return Flipped(_cards(e["card"])[0], _trump(e["trump"]))
    if t == "bid":
        return Bid(int(e["seat"]), e["bid"], bool(e["legal"]))
    if t == "show_kitty":
        return KittyShown(int(e["seat"]), int(e["bid"]), _cards(e["cards"]))
    if t == "surrender":
        return Surrendered(int(e["seat"]), int(e["bid"]))
    if t == "trump":
        return TrumpFixed(_trump(e["trump"]), e["declarer"], int(e["banker"]), str(e["by"]))
    if t == "bury":
        return Buried(int(e["seat"]), _cards(e["cards"]), bool(e["legal"]))
    if t == "no_trump":
        return NoTrump(int(e["seat"]), int(e["trick"]))
    if t == "signal":
        return Signaled(int(e["trick"]), int(e["seat"]), str(e["signal"]))
    if t == "end":
        return Scored(
            int(e["attackers_points"]),
            _cards(e["kitty"]),
            int(e["kitty_points"]),
            int(e["kitty_bonus"]),
            int(e["multiplier"]),
            str(e["result"]),
            str(e["winner"]),
            int(e["rise"]),
            _rank(e["next_level"]),
            e["chips"],
            tuple(e["bonus"]),
            tuple(e["breaks"]),
        )
    return None
