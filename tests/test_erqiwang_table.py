"""二七王 at the /play/ table (seed 001 §4.2, §4.4, §10.1, §11, §12.2): the pair counts on the
trump buttons, the bid hints and the opening bidder's duty, the attackers' signals (state, log,
table, replay), the per-turn countdown, the room-card cost and 解散 settling the match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import Client

from checker.engine.bidding import bid_commitment
from checker.engine.cards import parse_cards
from checker.engine.errors import EngineError, RulesetError
from checker.engine.ruleset import load_ruleset, parse_ruleset
from checker.engine.tablerules import room_card_cost, suit_pairs
from checker.models import PlayGame
from checker.play.game import (
    Move,
    MoveError,
    Position,
    format_moves,
    make_spec,
    parse_move,
    play_move,
    replay_game,
)
from checker.play.match import MatchState
from checker.play.records import Signaled, read_event, write_event
from checker.web import roomview
from tests.test_game import auto_move
from tests.test_play_views import HX, start

ROOT = Path(__file__).resolve().parent.parent
ERQIWANG = load_ruleset("erqiwang")


def _to_attacker_play(seed: int = 3, seat: int = 1) -> Position:
    """A 二七王 game with the human, an attacker, to lead or follow."""
    for s in range(seed, seed + 40):
        spec = make_spec("erqiwang", s, seat, "greedy")
        pos = replay_game(spec, [])
        while not pos.is_over:
            ask = pos.ask
            assert ask is not None
            if ask.phase in ("lead", "follow"):
                if ask.view.banker != seat:
                    return pos
                break
            pos = play_move(spec, pos.moves, auto_move(pos))
    raise AssertionError("no game with the human as an attacker")


def _signal_refusal(pos: Position, move: Move) -> str:
    with pytest.raises(MoveError) as info:
        play_move(pos.spec, pos.moves, move)
    return info.value.message("en")


# -- the engine's data ---------------------------------------------------------------------


def test_the_ruleset_turns_the_room_features_on_and_classic_has_none() -> None:
    table = ERQIWANG.table
    assert table.signals == ("cai", "no_points", "has_points")
    assert table.trump_pairs and table.dissolve
    assert table.countdown["lead"] > 0 and table.countdown["bid"] > 0
    classic = load_ruleset("classic").table
    assert not classic.signals and not classic.dissolve and not classic.countdown


@pytest.mark.parametrize(
    ("table", "field"),
    [({"signals": ["wave"]}, "wave"), ({"colour": 1}, "colour"), ({"countdown": {"lead": 0}}, "")],
)
def test_a_bad_table_section_is_refused_by_name(table: dict[str, object], field: str) -> None:
    data = dict(ERQIWANG.data)
    data["table"] = table
    with pytest.raises(RulesetError) as info:
        parse_ruleset(data, "x.yaml")
    assert "table" in info.value.message_en and field in info.value.message_en


def test_room_cards_follow_seed_10_1() -> None:
    table = ERQIWANG.table
    assert [room_card_cost(table, "aa", n) for n in (6, 12)] == [1, 2]
    assert [room_card_cost(table, "owner", n) for n in (6, 12)] == [2, 4]
    assert room_card_cost(table, "aa", 7) is None


def test_pairs_of_a_suit_count_every_pair_and_name_the_fixed_ones() -> None:
    hand = parse_cards("♠7 ♠7 ♠A ♠A ♠K ♥5 ♥5 ♠2")
    assert suit_pairs(hand, "S", (7, 2)) == (2, 1)
    assert suit_pairs(hand, "H", (7, 2)) == (1, 0)
    assert suit_pairs(hand, "C", (7, 2)) == (0, 0)


def test_a_bid_hint_says_what_the_bid_commits_to_from_the_chip_table() -> None:
    at70 = bid_commitment(ERQIWANG, 70)
    assert "闲家捡到 70 分你就输" in at70("zh") and "基础 2 个子" in at70("zh")
    assert "shown to all" in at70("en") and "surrender (1 chip)" in at70("en")
    at40 = bid_commitment(ERQIWANG, 40)("en")
    assert "base 6 chips" in at40 and "surrender" not in at40 and "shown" not in at40
    climb = ERQIWANG.with_options({"climb": True})
    assert "base 8 chips" in bid_commitment(climb, 40)("en")  # §7.3.1: 40 → 8 when climbing
    assert "level step 20" in bid_commitment(climb, 40)("en")  # §7.3.2: Q is 20 for 35–44
    assert "lowest bid" in bid_commitment(ERQIWANG, 5)("en")
    assert "small sweep under 5" in bid_commitment(ERQIWANG, 5)("en")


# -- signals in the round ------------------------------------------------------------------


def test_a_signal_is_recorded_public_and_leaves_the_turn_where_it_was() -> None:
    pos = _to_attacker_play()
    assert (
        parse_move("~cai") == Move("signal", value="cai")
        and Move("signal", value="cai").text() == "~cai"
    )
    after = play_move(pos.spec, pos.moves, parse_move("~cai"))
    assert after.ask is not None and after.ask.phase == pos.ask.phase  # type: ignore[union-attr]
    assert after.events[:-1] == pos.events
    event = after.events[-1]
    trick = sum(1 for e in pos.events if e["t"] == "trick")
    assert event == {"t": "signal", "trick": trick, "seat": pos.spec.seat, "signal": "cai"}
    assert read_event(event) == Signaled(trick, 1, "cai")
    assert write_event(Signaled(trick, 1, "cai")) == event
    # The round goes on from the same decision: a signal then the play.
    again = replay_game(pos.spec, after.moves)
    assert again.events == after.events
    moved = play_move(pos.spec, after.moves, auto_move(after))
    assert [e for e in moved.events if e["t"] != "signal"] == play_move(
        pos.spec, pos.moves, auto_move(pos)
    ).events


def test_wrong_signals_are_refused_with_the_reason_and_change_nothing() -> None:
    pos = _to_attacker_play()
    assert "no_points" in _signal_refusal(pos, Move("signal", value="wave"))
    signalled = play_move(pos.spec, pos.moves, Move("signal", value="has_points"))
    assert "already signalled" in _signal_refusal(signalled, Move("signal", value="cai"))
    bidding = replay_game(make_spec("erqiwang", 3, 1, "greedy"), [])
    while bidding.ask is not None and bidding.ask.phase != "bid":
        bidding = play_move(bidding.spec, bidding.moves, auto_move(bidding))
    assert "while playing" in _signal_refusal(bidding, Move("signal", value="cai"))
    classic = replay_game(make_spec("classic", 3, 1, "greedy"), [])
    assert "no attackers' signals" in _signal_refusal(classic, Move("signal", value="cai"))


def test_the_banker_may_not_signal() -> None:
    spec = make_spec("erqiwang", 3, 0, "greedy")
    pos = replay_game(spec, [Move("bid", value=5), Move("trump", value="S")])
    pos = play_move(spec, pos.moves, auto_move(pos))  # bury: the banker leads next
    assert pos.ask is not None and pos.ask.phase == "lead" and pos.ask.view.banker == 0
    assert "not the banker" in _signal_refusal(pos, Move("signal", value="cai"))


def test_rounds_without_signals_log_as_before() -> None:
    """The bots never signal: a simulated round's log has no signal line and no new field."""
    pos = _to_attacker_play()
    while not pos.is_over:
        pos = play_move(pos.spec, pos.moves, auto_move(pos))
    assert all(e["t"] != "signal" for e in pos.events)
    assert {e["t"] for e in pos.events} <= {
        "round", "deal", "bid", "show_kitty", "surrender", "trump", "bury", "play", "trick",
        "no_trump", "end",
    }  # fmt: skip


# -- the match: dissolving ---------------------------------------------------------------


def test_dissolving_settles_at_the_totals_and_ends_the_match() -> None:
    state = MatchState(3, 1, None, (4, -6, 2))
    ended, record = state.dissolve(ERQIWANG)
    assert ended.over and ended.dissolved and ended.winner == (0,)
    assert ended.chips == state.chips and ended.as_dict()["dissolved"] is True
    assert record.as_event() == {
        "t": "dissolve", "round": 3, "levels": None, "chips": [4, -6, 2], "winner": [0],
    }  # fmt: skip
    assert MatchState(1, None, None, (0, 0, 0)).dissolve(ERQIWANG)[0].winner == (0, 1, 2)
    with pytest.raises(EngineError):
        ended.dissolve(ERQIWANG)
    assert "dissolved" not in state.as_dict()  # a match that goes on writes what it wrote


def test_dissolving_a_level_match_names_the_side_ahead() -> None:
    classic = load_ruleset("classic")
    ended, _record = MatchState(4, 0, (5, 3), (0, 0, 0, 0)).dissolve(classic)
    assert ended.winner == (0, 2)


# -- the pages ----------------------------------------------------------------------------

pytestmark_db = pytest.mark.django_db


def _game(
    client: Client, seat: int = 1, seed: int = 3, moves: str = "", opts: str = ""
) -> PlayGame:
    url = f"/play/?ruleset=erqiwang&seed={seed}&seat={seat}&bots=greedy"
    if moves:
        url += f"&moves={moves}"
    if opts:
        url += f"&options={opts}"
    return start(client, url)


def _post(client: Client, game: PlayGame, move: str, phase: str) -> object:
    game.refresh_from_db()
    data = {"ply": str(game.ply), "phase": phase, "move": move}
    return client.post(f"/play/{game.key}/move", data, **HX)


@pytest.mark.django_db
def test_the_opening_bidder_sees_why_there_is_no_pass_and_every_bid_explained(
    client: Client,
) -> None:
    game = _game(client, seat=0)
    text = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="pass-disabled"' in text and 'data-testid="pass"' not in text
    assert "暂定庄家必须叫分，不能不叫" in text and 'data-testid="bidding-hint-70"' in text
    assert "闲家捡到 70 分你就输" in text and "叫分就是承诺" in text
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    english = client.get(f"/play/{game.key}/").content.decode()
    assert "must bid" in english and "you lose once the attackers take 70" in english
    assert "A bid is a promise" in english
    refused = _post(client, game, "p", "bid")
    assert refused.status_code == 400 and "you must bid" in refused.content.decode()  # type: ignore[attr-defined]


@pytest.mark.django_db
def test_a_later_bidder_may_pass(client: Client) -> None:
    game = _game(client, seat=1)
    text = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="pass"' in text and 'data-testid="must-bid"' not in text


@pytest.mark.django_db
def test_the_trump_buttons_show_the_bankers_own_pairs(client: Client) -> None:
    game = _game(client, seat=0, moves="b5")
    pos = replay_game(make_spec("erqiwang", 3, 0, "greedy"), [Move("bid", value=5)])
    assert pos.ask is not None and pos.ask.phase == "pick_trump"
    text = client.get(f"/play/{game.key}/").content.decode()
    for suit in "SHCD":
        pairs, fixed = suit_pairs(pos.ask.view.hand, suit, (7, 2))
        assert f'data-testid="pairs-{suit}">{pairs} 对</span>' in text
    # Only the banker's own hand: the counts come from the view of the seat deciding.
    assert [b["pairs"] for b in roomview.trump_buttons(pos)] == [
        suit_pairs(pos.ask.view.hand, s, (7, 2))[0] for s in "SHCD"
    ]


@pytest.mark.django_db
def test_a_signal_is_shown_to_the_table_in_the_log_and_in_the_replay(client: Client) -> None:
    pos = _to_attacker_play()
    game = _game(client, seat=1, seed=pos.spec.seed, moves=format_moves(pos.moves))
    page = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="signal-cai"' in page and 'data-testid="countdown"' in page
    assert 'data-seconds="20"' in page
    r = _post(client, game, "~no_points", pos.ask.phase)  # type: ignore[union-attr]
    text = r.content.decode()  # type: ignore[attr-defined]
    assert r.status_code == 200 and 'data-testid="signals"' in text  # type: ignore[attr-defined]
    assert "没分" in text and 'data-testid="signal-cai"' not in text  # once a trick
    log = client.get(f"/play/{game.key}/log.jsonl").content.decode().splitlines()
    assert any(json.loads(line).get("t") == "signal" for line in log)
    game.refresh_from_db()
    assert game.moves.endswith("~no_points")
    after = play_move(pos.spec, [*pos.moves, parse_move("~no_points")], auto_move(pos))
    assert after.spec.seat == 1
    _post_cards(client, game, auto_move(pos), pos.ask.phase)  # type: ignore[union-attr]
    replay = client.get(f"/play/{game.key}/replay").content.decode()
    assert 'data-testid="replay-signal"' in replay and "没分" in replay


def _post_cards(client: Client, game: PlayGame, move: Move, phase: str) -> None:
    from checker.engine.cards import ascii_card

    game.refresh_from_db()
    data = {"ply": str(game.ply), "phase": phase, "c": [ascii_card(c) for c in move.cards]}
    assert client.post(f"/play/{game.key}/move", data, **HX).status_code == 200


@pytest.mark.django_db
def test_bad_signals_are_a_clear_400_and_change_nothing(client: Client) -> None:
    pos = _to_attacker_play()
    game = _game(client, seat=1, seed=pos.spec.seed, moves=format_moves(pos.moves))
    ply = game.ply
    phase = pos.ask.phase  # type: ignore[union-attr]
    for bad, words in (("~wave", "没有“wave”这种提示"), ("~", "看不懂"), ("~cai~x", "看不懂")):
        r = _post(client, game, bad, phase)
        assert r.status_code == 400 and words in r.content.decode()  # type: ignore[attr-defined]
    game.refresh_from_db()
    assert game.ply == ply


@pytest.mark.django_db
def test_dissolving_needs_the_owner_the_token_and_the_confirmation(client: Client) -> None:
    game = _game(client, seat=1)
    url = f"/play/{game.key}/dissolve"
    stranger = Client()
    assert stranger.post(url, {"ply": game.ply, "confirm": "1"}).status_code == 403
    assert client.post(url, {"ply": game.ply}).status_code == 400  # no confirmation
    assert client.post(url, {"ply": "x", "confirm": "1"}).status_code == 400
    assert client.post(url, {"ply": game.ply + 5, "confirm": "1"}).status_code == 409
    checked = Client(enforce_csrf_checks=True)
    checked.cookies = client.cookies
    assert checked.post(url, {"ply": game.ply, "confirm": "1"}).status_code == 403
    assert client.get(url).status_code == 405
    game.refresh_from_db()
    assert game.match is None
    page = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="dissolve"' in page


@pytest.mark.django_db
def test_dissolving_settles_the_match_and_stops_the_table(client: Client) -> None:
    game = _game(client, seat=1)
    r = client.post(f"/play/{game.key}/dissolve", {"ply": game.ply, "confirm": "1"})
    assert r.status_code == 303 and r["Location"] == f"/play/{game.key}/match"
    game.refresh_from_db()
    assert game.match["dissolved"]["t"] == "dissolve"
    assert game.match["dissolved"]["chips"] == [0, 0, 0]
    page = client.get(f"/play/{game.key}/match").content.decode()
    assert 'data-testid="dissolved"' in page and "这一场已解散" in page
    assert 'data-testid="match-playing"' not in page
    table = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="dissolved"' in table and 'data-testid="actions"' not in table
    moved = _post(client, game, "p", "bid")
    assert moved.status_code == 409  # type: ignore[attr-defined]
    again = client.post(f"/play/{game.key}/dissolve", {"ply": game.ply, "confirm": "1"})
    assert again.status_code == 409
    classic = start(client, "/play/?ruleset=classic&seed=3&seat=1&bots=greedy")
    refused = client.post(f"/play/{classic.key}/dissolve", {"ply": 0, "confirm": "1"})
    assert refused.status_code == 400 and "不能解散" in refused.content.decode()


@pytest.mark.django_db
def test_the_match_page_shows_the_room_card_setting(client: Client) -> None:
    game = _game(client, seat=1)
    page = client.get(f"/play/{game.key}/match").content.decode()
    assert "AA 制：每人扣 1 张房卡（6 局）" in page
    owner = _game(client, seat=1, opts="room_cards:owner,match_rounds:12")
    page = client.get(f"/play/{owner.key}/match").content.decode()
    assert "房主扣卡：房主扣 4 张房卡（12 局）" in page
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    english = client.get(f"/play/{owner.key}/match").content.decode()
    assert "the room&#x27;s owner pays 4 room cards (12 rounds)" in english


def test_the_countdown_script_never_acts_by_itself() -> None:
    script = (ROOT / "static/js/countdown.js").read_text(encoding="utf-8")
    for acting in ("submit", "click(", "requestSubmit", "htmx.ajax", "fetch(", "location"):
        assert acting not in script.replace("never submits", "")


@pytest.mark.django_db
def test_signals_and_dissolving_read_in_english_all_the_way() -> None:
    from tests.test_english_all_the_way import HAN, english_client, han_outside_marks

    client = english_client()
    pos = _to_attacker_play()
    game = _game(client, seat=1, seed=pos.spec.seed, moves=format_moves(pos.moves))
    table = f"/play/{game.key}/"
    found = han_outside_marks(client, table)
    answer = _post(client, game, "~cai", pos.ask.phase)  # type: ignore[union-attr]
    text = answer.content.decode()  # type: ignore[attr-defined]
    assert "Trump it (I can beat the banker)" in text and "s left (a reminder only" in text
    from tests.test_pages_english import chinese_outside_marks

    found += chinese_outside_marks(text, HAN)
    game.refresh_from_db()
    client.post(f"/play/{game.key}/dissolve", {"ply": game.ply, "confirm": "1"})
    for path in (table, f"/play/{game.key}/match", f"/play/{game.key}/replay"):
        found += han_outside_marks(client, path)
    assert "This match was dissolved" in client.get(f"/play/{game.key}/match").content.decode()
    assert found == []


def test_a_round_with_a_signal_is_judged_again_clean_from_its_log() -> None:
    from io import StringIO

    from checker.play.game import game_log
    from checker.play.replay import replay

    pos = _to_attacker_play()
    pos = play_move(pos.spec, pos.moves, Move("signal", value="cai"))
    while not pos.is_over:
        pos = play_move(pos.spec, pos.moves, auto_move(pos))
    lines = game_log(pos)
    assert sum(json.loads(line).get("t") == "signal" for line in lines) == 1
    report = replay(StringIO("\n".join(lines) + "\n"))
    assert report.diffs == []


@pytest.mark.django_db
def test_dissolving_after_a_finished_round_counts_it(client: Client) -> None:
    from checker.play.game import next_round
    from tests.test_game import play_out

    done = play_out(("erqiwang", 3, 1))
    game = _game(client, seat=1, moves=format_moves(done.moves))
    assert 'data-testid="next-round"' in client.get(f"/play/{game.key}/").content.decode()
    r = client.post(f"/play/{game.key}/dissolve", {"ply": game.ply, "confirm": "1"})
    assert r.status_code == 303
    game.refresh_from_db()
    totals = next_round(done)[1].chips
    assert game.match["dissolved"]["chips"] == list(totals) and any(totals)
    assert game.match["dissolved"]["round_counted"] is True
    page = client.get(f"/play/{game.key}/match").content.decode()
    assert "按打完第 1 局时的累计结算" in page and 'data-testid="match-round"' in page
    table = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="next-round"' not in table and 'data-testid="dissolved"' in table
    assert client.post(f"/play/{game.key}/next").status_code == 409


@pytest.mark.django_db
def test_dissolving_a_later_round_keeps_the_rounds_before(client: Client) -> None:
    from checker.play.game import next_round
    from tests.test_game import play_out

    done = play_out(("erqiwang", 3, 1))
    first = _game(client, seat=1, moves=format_moves(done.moves))
    r = client.post(f"/play/{first.key}/next")
    second = PlayGame.objects.get(key=r["Location"].strip("/").split("/")[-1])
    r = client.post(f"/play/{second.key}/dissolve", {"ply": second.ply, "confirm": "1"})
    assert r.status_code == 303
    second.refresh_from_db()
    assert len(second.match["history"]) == 1 and second.match["round"] == 2
    assert second.match["dissolved"]["chips"] == list(next_round(done)[1].chips)
    assert second.match["dissolved"]["round_counted"] is False
    page = client.get(f"/play/{second.key}/match").content.decode()
    assert page.count('data-testid="match-round"') == 1 and "第 2 局开打之前" in page


@pytest.mark.django_db
def test_the_match_page_offers_dissolving_to_its_owner_only(client: Client) -> None:
    game = _game(client, seat=1)
    page = client.get(f"/play/{game.key}/match").content.decode()
    assert f'action="/play/{game.key}/dissolve"' in page and 'name="confirm"' in page
    stranger = Client().get(f"/play/{game.key}/match").content.decode()
    assert 'data-testid="dissolve"' not in stranger
    classic = start(client, "/play/?ruleset=classic&seed=3&seat=1&bots=greedy")
    assert 'data-testid="dissolve"' not in client.get(f"/play/{classic.key}/match").content.decode()
