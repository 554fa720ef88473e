"""The bot registry: names, the default bot, unknown names, and explanations for every bot."""

from __future__ import annotations

import random

import pytest

from checker.engine.cards import parse_cards
from checker.engine.ruleset import load_ruleset
from checker.play.bots.registry import (
    DEFAULT_BOT,
    PLAYER_KINDS,
    UnknownBotError,
    bot_names,
    make_bot,
    make_players,
)
from checker.play.moves import BID, PICK_TRUMP, SURRENDER, Move
from checker.play.players import PlayerView, decide
from checker.play.round import play_round

from .util import follow_view


def test_every_bot_is_registered_by_name() -> None:
    assert bot_names() == ("random", "greedy", "v1", "v2", "v3")
    assert bot_names() == PLAYER_KINDS


def test_default_bot_is_the_strongest_registered_one() -> None:
    assert DEFAULT_BOT == "v2" and DEFAULT_BOT in bot_names()


def test_unknown_bot_is_a_value_error_listing_the_names() -> None:
    with pytest.raises(UnknownBotError) as err:
        make_players("v9", 1, 4)
    assert isinstance(err.value, ValueError)
    text = str(err.value)
    assert "v9" in text and all(name in text for name in bot_names())


@pytest.mark.parametrize("name", bot_names())
def test_every_bot_explains_its_choice_in_zh_and_en(name: str) -> None:
    view = follow_view("♣K ♦4 ♣3", [(1, "♣7")], 2)
    bot = make_bot(name, random.Random(3))
    decision = decide(bot, view)
    assert decision.cards == bot.choose(view).cards
    assert decision.rule.startswith(name + ".")
    zh, en = decision.explanation_for("zh"), decision.explanation_for("en")
    assert name in zh and name in en and zh != en
    assert any(str(c) in zh for c in decision.cards)


@pytest.mark.parametrize("ruleset", ["classic", "erqiwang", "shuangsheng"])
@pytest.mark.parametrize("name", ["v1", "v2"])
def test_rule_bots_make_no_illegal_play_in_whole_rounds(ruleset: str, name: str) -> None:
    rs = load_ruleset(ruleset)
    for seed in range(3):
        res = play_round(rs, seed, make_players(name, seed, rs.players))
        assert res.illegal == 0, [e for e in res.events if e.get("legal") is False]
        assert res.breaks == []


@pytest.mark.parametrize("name", bot_names())
def test_every_bot_answers_every_decision_with_a_move(name: str) -> None:
    """choose(view) -> Move for the auction too: a bid within the range, a surrender, a suit."""
    rs = load_ruleset("erqiwang")
    hand = tuple(parse_cards("BJ SJ S7 S7 H2 H2 C7 D2 SA SK HA HK CQ DJ"))
    bot = make_bot(name, random.Random(5))
    bid = bot.choose(PlayerView(BID, 0, rs, None, hand, bid_range=(5, 70, 5), must_bid=True))
    assert isinstance(bid, Move) and bid.kind == "bid" and 5 <= int(bid.value or 0) <= 70
    give_up = bot.choose(PlayerView(SURRENDER, 0, rs, None, hand, banker=0))
    assert give_up.kind == "surrender" and isinstance(give_up.value, bool)
    suit = bot.choose(PlayerView(PICK_TRUMP, 0, rs, None, hand, banker=0))
    assert suit.kind == "trump" and suit.value in tuple("SHCD")
