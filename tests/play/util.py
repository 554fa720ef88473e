"""Views for bot tests written the way case files write cards."""

from __future__ import annotations

from checker.engine.cards import Card, parse_cards
from checker.engine.combos import classify
from checker.engine.order import make_context
from checker.engine.ruleset import load_ruleset
from checker.play.players import FOLLOW, LEAD, PlayerView

Plays = list[tuple[int, str]]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def follow_view(
    hand: str,
    trick: Plays,
    seat: int,
    *,
    level: int = 2,
    trump: str | None = "H",
    history: list[Plays] | None = None,
    ruleset: str = "classic",
    banker: int | None = None,
) -> PlayerView:
    rs = load_ruleset(ruleset)
    ctx = make_context(rs, level, trump)
    played = tuple((s, cards(c)) for s, c in trick)
    past = tuple(tuple((s, cards(c)) for s, c in t) for t in history or [])
    return PlayerView(
        FOLLOW,
        seat,
        rs,
        ctx.level,
        cards(hand),
        ctx=ctx,
        banker=banker,
        lead=classify(ctx, played[0][1]),
        trick=played,
        history=past,
    )


def lead_view(
    hand: str,
    seat: int = 0,
    *,
    level: int = 2,
    trump: str | None = "H",
    history: list[Plays] | None = None,
    ruleset: str = "classic",
) -> PlayerView:
    rs = load_ruleset(ruleset)
    ctx = make_context(rs, level, trump)
    past = tuple(tuple((s, cards(c)) for s, c in t) for t in history or [])
    return PlayerView(LEAD, seat, rs, ctx.level, cards(hand), ctx=ctx, banker=seat, history=past)
