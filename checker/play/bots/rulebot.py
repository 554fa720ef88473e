"""The rule-following bots behind one interface: decide(view) -> Decision (the cards with the
rule and reason) for the card decisions, bid / surrender / pick_trump for bidding rulesets, and
through `CardPlayer` choose(view) -> Move for every decision of the round."""

from __future__ import annotations

import random

from checker.engine.cards import Card

from ..players import BURY, DECLARE, LEAD, CardPlayer, Decision, PlayerView
from .bidding import choose_bid, choose_trump, should_surrender
from .bury import decide_bury, decide_bury_simple
from .declare import decide_declare
from .follow import Style, decide_follow, same_side
from .lead import decide_lead
from .memory import HistoryCache, read_memory


class RuleBot(CardPlayer):
    """A bot that plays by seat 000's bot rules; the class attributes pick the version."""

    name = "rules"
    passes_without_options = True  # decide_declare: "declare.none", nothing drawn or kept
    style = Style("rules", safe_feed=True, block=True, void_discards=True, last_seat=True)
    infer_voids = True
    weak_overrides = False
    plans_bury = True
    refined_leads = True
    partner_void = "first"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.cache = HistoryCache()

    def decide(self, view: PlayerView) -> Decision:
        """Return the decision for the view's phase with the rule that decided it."""
        if view.phase == DECLARE:
            return decide_declare(self.name, view, weak_overrides=self.weak_overrides)
        if view.phase == BURY:
            if self.plans_bury:
                return decide_bury(self.name, view)
            return decide_bury_simple(self.name, view)
        ctx = view.ctx
        assert ctx is not None
        mem = read_memory(
            ctx,
            view.seat,
            view.hand,
            view.history,
            view.trick,
            view.kitty,
            infer_voids=self.infer_voids,
            cache=self.cache,
        )
        if view.phase == LEAD:
            rs, me = view.ruleset, view.seat
            others = [s for s in range(rs.players) if s != me]
            partners = [s for s in others if same_side(view, s, me)]
            opponents = [s for s in others if s not in partners]
            return decide_lead(
                self.name,
                ctx,
                mem,
                view.hand,
                v2=self.refined_leads,
                opponents=opponents,
                partners=partners,
                may_throw=view.may_throw,
                partner_void=self.partner_void,
            )
        return decide_follow(self.style, view, mem)

    def cards(self, view: PlayerView) -> list[Card]:
        """Return the cards of decide(view)."""
        return list(self.decide(view).cards)

    def bid(self, view: PlayerView, low: int, high: int, step: int, must: bool) -> int | None:
        """Return the bid the hand is worth, or None to pass."""
        return choose_bid(view, low, high, step, must)

    def surrender(self, view: PlayerView) -> bool:
        """Give up at the surrender bid when the hand with the kitty stays weak."""
        return should_surrender(view)

    def pick_trump(self, view: PlayerView) -> str:
        """Name the strongest suit as trump."""
        return choose_trump(view)
