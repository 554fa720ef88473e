"""Bots and the rethrow ban (§5.4.5 option `rethrow: banned_for_round`): after a failed throw a
seat's view says `may_throw=False`, and no bot leads a throw for the rest of the round."""

from __future__ import annotations

import random

import pytest

from checker.engine.combos import THROW, classify
from checker.engine.order import make_context
from checker.engine.ruleset import load_ruleset
from checker.play.bots.registry import bot_names, make_bot
from checker.play.players import LEAD, PlayerView
from checker.play.round import build_deck

from .util import lead_view


def _banned(view: PlayerView) -> PlayerView:
    return view._replace(may_throw=False)


@pytest.mark.parametrize("bot", ["v1", "v2"])
def test_controlled_short_suit_is_not_thrown_whole_after_a_failed_throw(bot: str) -> None:
    view = lead_view("♦A ♦K ♦K ♣5 ♣9 ♣J ♥4 ♥6", trump="H")
    free = make_bot(bot, random.Random(0)).decide(view)
    banned = make_bot(bot, random.Random(0)).decide(_banned(view))
    assert view.ctx is not None
    if bot == "v2":
        assert classify(view.ctx, free.cards).type == THROW  # the ban is what changes the lead
    assert classify(view.ctx, banned.cards).type != THROW
    assert sorted(map(str, banned.cards)) == ["♦K", "♦K"]  # the widest unit of the suit


def test_safe_trump_throw_becomes_its_widest_unit_after_a_failed_throw() -> None:
    view = lead_view("大王 大王 小王 ♣5", trump="H", ruleset="erqiwang", level=2)
    free = make_bot("v2", random.Random(0)).decide(view)
    banned = make_bot("v2", random.Random(0)).decide(_banned(view))
    assert view.ctx is not None
    assert classify(view.ctx, free.cards).type == THROW
    assert list(map(str, banned.cards)) == ["大王", "大王"]
    assert banned.rule == "v2.lead.unbeatable_trumps"


@pytest.mark.parametrize("ruleset", ["classic", "erqiwang", "shuangsheng", "multideck"])
@pytest.mark.parametrize("bot", bot_names())
def test_no_bot_leads_a_throw_when_the_view_bans_it(ruleset: str, bot: str) -> None:
    rs = load_ruleset(ruleset)
    rng = random.Random(f"{ruleset}:{bot}")
    deck = build_deck(rs)
    level = rs.levels[0] if rs.has_level else None
    for _ in range(40):
        rng.shuffle(deck)
        ctx = make_context(rs, level, rng.choice("SHCD"))
        hand = tuple(ctx.sort_cards(deck[: rs.hand_size]))
        view = PlayerView(LEAD, 0, rs, ctx.level, hand, ctx=ctx, banker=0, may_throw=False)
        cards = make_bot(bot, random.Random(1)).choose(view).cards
        assert classify(ctx, cards).type != THROW, (hand, cards)
