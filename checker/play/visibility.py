"""What one seat may see of a round: its log rewritten as that seat could have written it.

The one place that decides what a game's pages, partials, hints, log download, replay and
match page may show while a round is being played. At a real table a seat sees its own
cards (mid-deal only those dealt so far), every card played (a failed throw's tried cards
and the cards that beat it), declarations as the declaring rules show them, the kitty only
when it is shown or the seat is the banker who picked it up, and under 二七王's 可查牌 the
other seats' trumps once 无主 is announced. Under 不查牌 (`review: closed`) earlier tricks
are not looked back on. Once the round is over the whole log is open.

Imports the engine only; a round's log is a list of plain dicts (`checker.play.round`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from checker.engine.cards import Card, format_cards, parse_cards, parse_rank, remove_cards
from checker.engine.declare import shown_declaration
from checker.engine.errors import CardError
from checker.engine.order import Context
from checker.engine.ruleset import Ruleset
from checker.engine.throws import judge_throw

LogEvent = dict[str, Any]
HIDDEN = ""  # what stands for cards the seat cannot see
CARD_FIELDS = ("hands", "kitty", "cards", "tried", "shown", "open", "card")


@dataclass(frozen=True)
class Viewer:
    """Who looks at a round and when: the seat (None: a table of bots only), whether the
    round is over, whether its seed was drawn in secret, and the cards the seat holds at the
    decision it is asked (its hand so far mid-deal; with the kitty when it picked it up)."""

    seat: int | None
    over: bool
    secret_seed: bool = False
    holding: tuple[Card, ...] | None = None

    @property
    def sees_all(self) -> bool:
        """Tell whether nothing is hidden: the round is over, or no seat is a person's."""
        return self.over or self.seat is None


def shows_seed(viewer: Viewer) -> bool:
    """Tell whether the game's seed (and any link carrying it) may be shown now."""
    return viewer.over or not viewer.secret_seed


def shows_history(rs: Ruleset, viewer: Viewer) -> bool:
    """Tell whether the tricks before the current one may be looked back on (不查牌 hides them)."""
    return viewer.over or rs.review_is_open


def _recent_tricks(events: Sequence[LogEvent], seat: int | None) -> set[int]:
    """The tricks still on the table for a seat: the last one, and the one it last played in
    (the bots' replies to its play are shown after it)."""
    plays = [e for e in events if e["t"] == "play"]
    recent = {int(plays[-1]["trick"])} if plays else set()
    mine = [e for e in plays if e["seat"] == seat]
    if mine:
        recent.add(int(mine[-1]["trick"]))
    return recent


def buried_kitty(rs: Ruleset, events: Sequence[LogEvent], viewer: Viewer) -> list[Card] | None:
    """The cards the viewer's seat buried, while it may look at them again (None: it may not).

    Only the seat that buried them (the banker) sees them, after burying, while the round is
    played; under 不查牌 (`review: closed`) they stay face down like the earlier tricks.
    """
    seat = viewer.seat
    if seat is None or viewer.over or not rs.review_is_open:
        return None
    buried = [e for e in events if e["t"] == "bury" and e["seat"] == seat]
    return _cards(buried[-1]["cards"]) if buried else None


def allows_take_back(rs: Ruleset, viewer: Viewer) -> bool:
    """Tell whether the person may take its last move back against the bots: not once the
    round is over, and not under 不查牌 (`review: closed`), where the bots' replies it saw
    and took back are cards the rules would not let it look at again."""
    return viewer.seat is not None and not viewer.over and rs.review_is_open


def earliest_reveal(rs: Ruleset, events: Sequence[LogEvent], viewer: Viewer) -> int:
    """The first event a partial table (the bots' replies, step by step) may stop after:
    none while the deal is still going on (the log holds the whole deal, the seat only the
    cards dealt so far), and under 不查牌 nothing before the tricks still on the table."""
    if viewer.sees_all:
        return 0
    if not any(e["t"] in ("trump", "surrender") for e in events):
        return len(events)
    if shows_history(rs, viewer):
        return 0
    recent = _recent_tricks(events, viewer.seat)
    starts = [i for i, e in enumerate(events) if e["t"] == "play" and int(e["trick"]) in recent]
    return min(starts, default=0)


def shows_open_hands(viewer: Viewer) -> bool:
    """Tell whether every hand may be shown (replay verdicts judged against the hands held)."""
    return viewer.sees_all


def _cards(value: Any) -> list[Card]:
    return parse_cards(str(value)) if value else []


class _Tracker:
    """The hands as the log goes: what a failed throw and 可查牌 reveal is read from them."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.hands: list[list[Card]] = []
        self.kitty: list[Card] = []
        self.level: Any = None
        self.banker: int | None = None
        self.ctx: Context | None = None

    def see(self, e: LogEvent) -> None:
        kind = e["t"]
        if kind == "round":
            self.level = e.get("level")
        elif kind == "deal":
            self.hands = [_cards(h) for h in e["hands"]]
            self.kitty = _cards(e["kitty"])
        elif kind == "trump":
            level = parse_rank(str(self.level)) if self.level else None
            trump = None if e["trump"] == "none" else str(e["trump"])
            self.ctx = Context(self.rs, level, trump)
            self.banker = int(e["banker"])
        elif kind == "bury":
            seat = int(e["seat"])
            buried = _cards(e["cards"])
            self.hands[seat] = remove_cards(self.hands[seat] + self.kitty, buried)
            self.kitty = buried
        elif kind == "play":
            seat = int(e["seat"])
            self.hands[seat] = remove_cards(self.hands[seat], _cards(e["cards"]))

    def beater(self, e: LogEvent) -> list[Card]:
        """The cards that broke a failed throw (shown at the table to prove it)."""
        if self.ctx is None or not e.get("tried"):
            return []
        seat, n = int(e["seat"]), self.rs.players
        others = [self.hands[(seat + k) % n] for k in range(1, n)]
        verdict = judge_throw(self.ctx, _cards(e["tried"]), others, seat, self.banker)
        return list(verdict.beater[1]) if verdict.beater else []

    def trumps(self, seat: int) -> list[Card]:
        """A seat's trumps now (what 可查牌 shows after 报无主)."""
        ctx = self.ctx
        return [] if ctx is None else [c for c in self.hands[seat] if ctx.is_trump(c)]


def seat_log(rs: Ruleset, events: Sequence[LogEvent], viewer: Viewer) -> list[LogEvent]:
    """Rewrite a round's log as the viewer's seat could have written it at a real table.

    Hidden cards become "" (hidden declarations keep their count); nothing is added that
    the table did not show. A finished round, or a table of bots only, comes back whole.
    """
    if viewer.sees_all:
        return [dict(e) for e in events]
    seat = viewer.seat
    review = rs.review_is_open
    deal_over = any(e["t"] in ("trump", "surrender") for e in events)
    recent = _recent_tricks(events, seat)
    tracker = _Tracker(rs)
    out: list[LogEvent] = []
    for e in events:
        kind = e["t"]
        copy = dict(e)
        if kind == "round" and not shows_seed(viewer):
            copy.pop("seed", None)
        elif kind == "deal":
            copy.update(_deal(e, seat, viewer.holding, deal_over))
            if _has_kitty(events, viewer, e):
                copy["kitty"] = e["kitty"]
        elif kind == "declare" and e["seat"] != seat:
            shown = shown_declaration(rs, _cards(e["cards"]), own=False, deal_over=deal_over)
            if isinstance(shown, int):
                copy.update(cards=HIDDEN, count=shown)
        elif kind == "bury" and e["seat"] != seat:
            copy["cards"] = HIDDEN
        elif kind == "play":
            copy.update(_play(e, tracker, review or int(e["trick"]) in recent))
        elif kind == "no_trump" and review:
            copy["open"] = [
                HIDDEN if s == seat else format_cards(tracker.trumps(s)) for s in range(rs.players)
            ]
        tracker.see(e)
        out.append(copy)
    return out


def _deal(
    e: LogEvent, seat: int | None, holding: tuple[Card, ...] | None, deal_over: bool
) -> LogEvent:
    """A deal as one seat saw it: its own hand (so far, mid-deal), nobody else's, no kitty."""
    hands = [HIDDEN] * len(e["hands"])
    if seat is not None:
        own = _cards(e["hands"][seat])
        if not deal_over and holding is not None and len(holding) < len(own):
            own = own[: len(holding)]
        hands[seat] = format_cards(own)
    return {"hands": hands, "kitty": HIDDEN}


def _play(e: LogEvent, tracker: _Tracker, seen: bool) -> LogEvent:
    """A play as the table saw it: the cards (and a failed throw's try and what beat it)."""
    failed = e.get("role") == "lead" and e.get("throw") == "failed"
    if not seen:
        return {"cards": HIDDEN, "tried": HIDDEN} if "tried" in e else {"cards": HIDDEN}
    if failed:
        return {"shown": format_cards(tracker.beater(e))}
    return {"tried": HIDDEN} if "tried" in e else {}  # a bot's refused follow stays private


def _has_kitty(events: Sequence[LogEvent], viewer: Viewer, deal: LogEvent) -> bool:
    """Tell whether the seat has taken this deal's kitty into its hand (the banker) by now."""
    seat = viewer.seat
    if seat is None or deal is not next(e for e in reversed(events) if e["t"] == "deal"):
        return False
    if any(e["t"] == "bury" and e["seat"] == seat for e in events):
        return True
    held = viewer.holding
    return held is not None and len(held) > len(_cards(deal["hands"][seat]))


def known_cards(events: Iterable[LogEvent]) -> Counter[Card]:
    """Count every card a (rewritten) log names: what its seat may know, each card once at most
    as often as any one field names it."""
    seen: Counter[Card] = Counter()
    for e in events:
        for name in CARD_FIELDS:
            value = e.get(name)
            values = value if isinstance(value, list) else [value]
            for text in values:
                if isinstance(text, str) and text:
                    try:
                        seen |= Counter(parse_cards(text))
                    except CardError:
                        continue
    return seen
