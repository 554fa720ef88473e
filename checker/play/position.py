"""A round placed mid-play from explicit hands: what a searching bot builds for each deal it
imagines (the table its view shows, the hidden hands and kitty drawn by its sampler).

The round starts at the view's decision (its lead or follow): the finished tricks and the trick
so far are the view's, the hands and kitty are the given ones. It keeps no log and has no
referee, so playing it out is fast; its result is scored by the same rules as a dealt round.
Unknown to a view, and so approximated: the attackers' level (taken as the banker's) and, in
rulesets with bidding, the winning bid (taken as the auction's highest, the hardest contract).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from checker.engine.cards import Card
from checker.engine.trick import resolve_trick

from .players import FOLLOW, LEAD, PlayerView
from .rounddata import RoundResult, RoundSetup
from .state import _ORDERS, _TURNS, OPTIONS, RoundState


def round_at(
    view: PlayerView,
    hands: Sequence[Sequence[Card]],
    kitty: Sequence[Card],
    points: int | None = None,
) -> RoundState:
    """Build the round a lead or follow view shows, with these hands (by seat) and kitty, the
    attackers having `points` so far (default: the view's total, or what its tricks show)."""
    rs, ctx, banker = view.ruleset, view.ctx, view.banker
    if view.phase not in (LEAD, FOLLOW) or ctx is None or banker is None:
        raise ValueError("round_at needs a lead or follow view with a trump and a banker")
    n = rs.players
    if len(hands) != n:
        raise ValueError(f"round_at needs {n} hands, got {len(hands)}")
    setup = RoundSetup(view.level, view.level, banker)
    held = [list(h) for h in hands]
    state = _blank_state(view, setup, held, kitty)
    state._start_progress()
    res = state.res = RoundResult(rs.name, 0, setup)
    res.trump, res.banker, res.trump_by = ctx.trump, banker, "declare"
    res.attackers_points = points if points is not None else attackers_points(view)
    if rs.bidding is not None:
        res.bid = int(rs.bidding["max"])
    state._final = view.declarations
    state._history = view.history
    state._trick_no = len(view.history)
    state._begin_play()
    if view.phase == LEAD:
        state._leader = view.seat
        state._start_trick()
        return state
    _place_trick(state, view, held)
    return state


def _blank_state(
    view: PlayerView, setup: RoundSetup, held: list[list[Card]], kitty: Sequence[Card]
) -> RoundState:
    """Make a RoundState whose fields hold these hands and kitty and the cards the view saw
    played, with no log, no referee and no deal left to shuffle (the progress comes after)."""
    rs, n, banker, ctx = view.ruleset, view.ruleset.players, setup.banker, view.ctx
    assert banker is not None and ctx is not None
    state: RoundState = object.__new__(RoundState)
    put = object.__setattr__
    seen = [c for t in view.history for _, cs in t for c in cs]
    seen += [c for _, cs in view.trick for c in cs]
    for name, value in (
        ("rs", rs),
        ("seed", 0),
        ("n", n),
        ("setup", setup),
        ("level", view.level),
        ("asks", (OPTIONS,) * n),
        ("referee", False),
        ("record", False),
        ("rng", random.Random(0)),
        ("log", []),
        ("ctx", ctx),
        ("hands", held),
        ("kitty", list(kitty)),
        ("deck", seen + [c for h in held for c in h] + list(kitty)),
        ("dealt", [list(h) for h in held]),
        ("kept", list(held[banker])),
        ("played", seen),
        ("trick_points", []),
        ("declarations", list(view.declarations)),
        ("shown_kitty", view.shown_kitty),
        ("no_trump", list(view.no_trump)),
        ("no_rethrow", set() if view.may_throw else {view.seat}),
        ("_signals", set()),
        ("declaring", frozenset()),
        ("_out", []),
        ("_keep", True),
        ("_shuffled", []),
        ("opening", ()),
    ):
        put(state, name, value)
    return state


def attackers_points(view: PlayerView) -> int:
    """Return the attackers' points so far: the view's total, or, when larger, what its finished
    tricks show (a view built from a bot case carries no running total)."""
    ctx, banker = view.ctx, view.banker
    assert ctx is not None and banker is not None
    total = 0
    for trick in view.history:
        plays = [list(cards) for _, cards in trick]
        winner = trick[resolve_trick(ctx, plays).winner][0]
        if not view.ruleset.is_banker_side(winner, banker):
            total += sum(c.points for cards in plays for c in cards)
    return max(view.attackers_points, total)


def _place_trick(state: RoundState, view: PlayerView, held: list[list[Card]]) -> None:
    """Put the trick so far on the table and wait for the view's seat to follow."""
    assert view.lead is not None
    leader = view.trick[0][0]
    order, turns = _ORDERS[leader, state.n]
    played = dict(view.trick)
    state._leader = leader
    state._order, state._follow_turns = order, turns
    state._before = [tuple(held[s]) + played.get(s, ()) for s in order]
    state._no_trump_now = view.no_trump
    state._lead = view.lead
    state._plays = [cards for _, cards in view.trick]
    state._trick = list(view.trick)
    state._follower = len(view.trick)
    state.turn = _TURNS[view.seat, FOLLOW]
