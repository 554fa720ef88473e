"""Games against the bots (checker.play.game): replay from seed and moves, refusals, hints."""

from __future__ import annotations

import pytest

from checker.engine.cards import parse_cards
from checker.play.game import (
    LiveTables,
    Move,
    MoveError,
    Position,
    format_moves,
    game_log,
    hint,
    make_spec,
    parse_moves,
    play_move,
    replay_game,
)
from checker.play.replay import replay
from checker.play.table import fold_events


def auto_move(position: Position, *, bid: str = "pass") -> Move:
    """A legal move for the human's decision: the hint's cards, a bid, no surrender, ♠ trump."""
    ask = position.ask
    assert ask is not None
    if ask.phase == "bid":
        low, high, _step = ask.bid_range
        if bid == "low":
            return Move("bid", value=low)
        return Move("bid", value=high) if ask.must_bid else Move("pass")
    if ask.phase == "surrender":
        return Move("surrender", value=False)
    if ask.phase == "pick_trump":
        return Move("trump", value="S")
    _forced, decision = hint(position)
    assert decision is not None
    return Move("cards", tuple(decision.cards))


def play_out(spec_args: tuple[str, int, int], **kw: str) -> Position:
    spec = make_spec(*spec_args, bots="greedy")
    position = replay_game(spec, [])
    while not position.is_over:
        position = play_move(spec, position.moves, auto_move(position, **kw))
    return position


@pytest.mark.parametrize("ruleset", ["classic", "erqiwang", "shuangsheng"])
def test_a_whole_round_reproduces_from_its_link_and_replays_clean(ruleset: str) -> None:
    done = play_out((ruleset, 11, 1))
    assert done.result is not None and done.result.result
    assert not done.result.breaks and done.result.illegal == 0
    link = format_moves(done.moves)
    again = replay_game(done.spec, parse_moves(link))
    assert again.is_over and again.events == done.events
    report = replay(game_log(done, "test"))
    assert report.ok, report.diffs[:3]
    table = fold_events(done.ruleset, done.events)
    assert table.end is not None and all(not h for h in table.hands)


def test_same_seed_same_game_and_bots_explain_their_plays() -> None:
    spec = make_spec("classic", 5, None, "greedy")
    a, b = replay_game(spec, []), replay_game(spec, [])
    assert a.is_over and a.events == b.events
    plays = [i for i, e in enumerate(a.events) if e["t"] == "play"]
    assert plays and all(i in a.reasons for i in plays)
    assert a.reasons[plays[0]].explanation_for("en")


def _first_follow(ruleset: str = "classic", seed: int = 3, seat: int = 1) -> Position:
    spec = make_spec(ruleset, seed, seat, "greedy")
    position = replay_game(spec, [])
    while position.ask is not None and position.ask.phase != "follow":
        position = play_move(spec, position.moves, auto_move(position))
    return position


def test_an_illegal_follow_is_refused_with_the_engines_reason() -> None:
    position = _first_follow()
    ask = position.ask
    assert ask is not None and ask.view.lead is not None
    lead = ask.view.lead
    # Classic seed 3, seat 1: ♦9 ♦9 led, the hand holds ♦A ♦A and ♦6 ♦6: two singles are illegal.
    assert lead.cards == tuple(parse_cards("♦9 ♦9"))
    with pytest.raises(MoveError) as refused:
        play_move(position.spec, position.moves, Move("cards", tuple(parse_cards("♦6 ♦3"))))
    assert "对子" in refused.value.message("zh")
    assert "pair" in refused.value.message("en")
    assert refused.value.step is None
    again = replay_game(position.spec, position.moves)
    assert again.events == position.events


def test_cards_not_in_hand_and_wrong_kinds_are_refused() -> None:
    position = _first_follow()
    with pytest.raises(MoveError, match="手里没有"):
        play_move(position.spec, position.moves, Move("cards", tuple(parse_cards("♣K ♣K"))))
    with pytest.raises(MoveError):
        play_move(position.spec, position.moves, Move("bid", value=50))


def test_a_tampered_link_names_the_bad_step() -> None:
    position = _first_follow()
    text = format_moves(position.moves) + ".D6-D3"
    with pytest.raises(MoveError) as bad:
        replay_game(position.spec, parse_moves(text))
    assert bad.value.step == len(position.moves)
    assert f"第 {len(position.moves) + 1} 步" in bad.value.message("zh")
    with pytest.raises(MoveError) as unreadable:
        parse_moves("p.XX9")
    assert unreadable.value.step == 1


def test_moves_after_the_end_are_refused() -> None:
    done = play_out(("classic", 2, 0))
    with pytest.raises(MoveError, match="结束"):
        replay_game(done.spec, [*done.moves, Move("pass")])


def test_erqiwang_human_wins_the_auction_names_trump_and_buries() -> None:
    done = play_out(("erqiwang", 4, 0), bid="low")
    kinds = [e["t"] for e in done.events]
    assert "bid" in kinds
    trump = next(e for e in done.events if e["t"] == "trump")
    assert trump["banker"] == 0 and trump["trump"] == "S" and trump["by"] == "bid"
    bury = next(e for e in done.events if e["t"] == "bury")
    assert bury["seat"] == 0 and bury["legal"]
    assert done.moves[0].kind == "bid"


def test_a_bad_game_spec_names_the_parameter() -> None:
    with pytest.raises(ValueError, match="ruleset"):
        make_spec("nope", 1, 0)
    with pytest.raises(ValueError, match="seat"):
        make_spec("erqiwang", 1, 3)
    with pytest.raises(ValueError, match="seed"):
        make_spec("classic", "x", 0)
    with pytest.raises(ValueError, match="bots"):
        make_spec("classic", 1, 0, "nobody")


def test_shuangsheng_human_is_asked_to_declare_during_the_deal() -> None:
    spec = make_spec("shuangsheng", 11, 1, "greedy")
    position = replay_game(spec, [])
    assert position.ask is not None and position.ask.phase == "declare"
    assert position.ask.declarations
    held = len(position.ask.view.hand)
    assert 0 < held < 25  # asked in the middle of the deal, card by card
    nxt = play_move(spec, position.moves, Move("cards", position.ask.declarations[0]))
    declared = [e for e in nxt.events if e["t"] == "declare" and e["seat"] == 1]
    assert declared and declared[0]["accepted"]


@pytest.mark.parametrize("ruleset", ["classic", "erqiwang", "shuangsheng"])
def test_a_live_round_gives_the_positions_a_replay_gives(ruleset: str) -> None:
    spec = make_spec(ruleset, 7, 2 if ruleset != "erqiwang" else 1, "greedy")
    tables = LiveTables()
    position = replay_game(spec, [])
    refused = False
    while not position.is_over:
        ask = position.ask
        assert ask is not None
        if ask.phase == "follow" and not refused:
            refused = True
            with pytest.raises(MoveError):  # a refusal leaves the live round where it was
                tables.play(spec, format_moves(position.moves), Move("cards", ()))
        move = auto_move(position, bid="low")
        live = tables.play(spec, format_moves(position.moves), move)
        again = replay_game(spec, live.moves)
        assert live.events == again.events
        if live.ask is not None and again.ask is not None:
            assert (live.ask.phase, live.ask.view.hand, live.ask.view.trick) == (
                again.ask.phase,
                again.ask.view.hand,
                again.ask.view.trick,
            )
        else:
            assert live.ask is again.ask is None
        assert sorted(live.reasons) == sorted(again.reasons)
        position = live
    assert refused
    tables.clear()


def test_a_kept_table_plays_on_without_a_thread_per_game() -> None:
    import threading

    tables = LiveTables(size=4)
    threads = threading.active_count()
    for seed in (1, 2, 3):
        spec = make_spec("classic", seed, 0, "random")
        position = replay_game(spec, [])
        for _ in range(6):
            if position.is_over:
                break
            position = tables.play(spec, format_moves(position.moves), auto_move(position))
            assert threading.active_count() == threads
    assert len(tables._data) == 3  # each game kept at its human's next decision
