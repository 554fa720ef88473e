"""The /play/ table's views: start, every kind of move, the bots' reveal, replay, log, bad requests."""

from __future__ import annotations

import re
from io import StringIO
from urllib.parse import urlsplit

import pytest
from django.http import QueryDict
from django.test import Client

from checker.models import PlayGame
from checker.play.game import MoveError, make_spec, parse_moves, replay_game
from checker.play.replay import replay
from tests.test_game import auto_move

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
START = "/play/?ruleset=classic&seed=3&seat=1&bots=greedy"
SHORT = "/play/?ruleset=classic&seed=3&seat=1"


def start(client: Client, url: str = START) -> PlayGame:
    """Open a game link (the lobby filled in, nothing stored), then press 开始 (a POST)."""
    before = PlayGame.objects.count()
    shown = client.get(url)
    assert shown.status_code == 200 and PlayGame.objects.count() == before, shown.content[:300]
    query = QueryDict(urlsplit(url).query)
    r = client.post("/play/", {k: query.getlist(k) for k in query})
    assert r.status_code == 303, r.content[:300]
    return PlayGame.objects.get(key=r["Location"].strip("/").split("/")[-1])


def position(game: PlayGame):  # type: ignore[no-untyped-def]
    from checker.web.play import game_spec

    game.refresh_from_db()
    return replay_game(game_spec(game), parse_moves(game.moves))


def post_move(client: Client, game: PlayGame, **fields: object) -> object:
    pos = position(game)
    data = {"ply": str(game.ply), "phase": pos.ask.phase if pos.ask else "", **fields}
    return client.post(f"/play/{game.key}/move", data, **HX)


def cards_of(move) -> list[str]:  # type: ignore[no-untyped-def]
    from checker.engine.cards import ascii_card

    return [ascii_card(c) for c in move.cards]


def test_lobby_offers_rulesets_bots_and_seats(client: Client) -> None:
    r = client.get("/play/")
    assert r.status_code == 200
    text = r.content.decode()
    for name in ("classic", "erqiwang", "shuangsheng", "greedy"):
        assert f'value="{name}"' in text


def test_a_query_starts_the_game_and_the_table_shows_hand_trick_and_turn(client: Client) -> None:
    game = start(client)
    assert game.ruleset == "classic" and game.seed == 3 and game.seat == 1 and game.ply == 0
    r = client.get(f"/play/{game.key}/")
    text = r.content.decode()
    assert r.status_code == 200 and len(r.content) < 50_000
    assert 'data-phase="follow"' in text and 'data-testid="hand"' in text
    assert "目前最大" in text and "首出" in text
    assert 'name="csrfmiddlewaretoken"' in text
    # Trumps first, marked by a group of their own and the 主 badge, not by colour alone.
    hand = text[text.index('data-testid="hand"') :]
    assert (
        hand.index('data-group="T"') < hand.index('data-group="H"') < hand.index('data-group="C"')
    )
    assert 'class="card joker big trump"' in hand


def test_a_bad_start_is_a_400_with_the_reason(client: Client) -> None:
    r = client.get("/play/?ruleset=nope&seed=1&seat=0")
    assert r.status_code == 400
    r = client.get("/play/?ruleset=erqiwang&seed=1&seat=5&bots=greedy")
    assert r.status_code == 400 and "seat" in r.content.decode()
    r = client.get("/play/?ruleset=classic&seed=3&seat=1&bots=greedy&moves=D6-D3")
    assert r.status_code == 400 and "第 1 步" in r.content.decode()
    assert PlayGame.objects.count() == 0


def test_a_legal_follow_moves_and_the_bots_reply_one_step_at_a_time(client: Client) -> None:
    game = start(client)
    r = post_move(client, game, c=["D6", "D6"])
    assert r.status_code == 200
    game.refresh_from_db()
    assert game.ply == 1 and game.moves == "D6-D6"
    text = r.content.decode()
    assert 'data-partial="1"' in text
    at = re.search(r'\?at=(\d+)"', text)
    assert at is not None
    step = client.get(f"/play/{game.key}/?at={at.group(1)}", **HX)
    assert step.status_code == 200 and "<html" not in step.content.decode()
    assert "为什么" in step.content.decode()  # each bot move says why
    full = client.get(f"/play/{game.key}/").content.decode()
    assert "data-partial" not in full and 'data-testid="turn"' in full


def test_an_illegal_follow_is_refused_with_the_reason_and_nothing_changes(client: Client) -> None:
    game = start(client)
    r = post_move(client, game, c=["D6", "D3"])
    assert r.status_code == 400
    text = r.content.decode()
    assert "有对子必须出对子" in text and 'role="alert"' in text
    assert re.search(r'value="D6" checked', text)  # the selection is kept
    game.refresh_from_db()
    assert game.ply == 0 and game.moves == ""


@pytest.mark.parametrize(
    ("fields", "status", "words"),
    [
        ({"c": ["CK", "CK"]}, 400, "手里没有"),
        ({"c": ["ZZ"]}, 400, "无法识别"),
        ({}, 400, "请先选牌"),
        ({"move": "b50"}, 400, "跟牌"),
    ],
)
def test_bad_moves_are_4xx_and_leave_the_game(
    client: Client, fields: dict[str, object], status: int, words: str
) -> None:
    game = start(client)
    r = post_move(client, game, **fields)
    assert r.status_code == status and words in r.content.decode()
    game.refresh_from_db()
    assert game.ply == 0


def test_a_replayed_post_and_a_wrong_phase_are_409(client: Client) -> None:
    game = start(client)
    data = {"ply": "0", "phase": "follow", "c": ["D6", "D6"]}
    assert client.post(f"/play/{game.key}/move", data, **HX).status_code == 200
    again = client.post(f"/play/{game.key}/move", data, **HX)
    assert again.status_code == 409 and "已经走过" in again.content.decode()
    wrong = client.post(f"/play/{game.key}/move", {**data, "ply": "1", "phase": "bid"}, **HX)
    assert wrong.status_code == 409
    game.refresh_from_db()
    assert game.ply == 1 and game.moves == "D6-D6"


def test_another_browser_sees_the_table_but_cannot_move(client: Client) -> None:
    game = start(client)
    other = Client()
    r = other.get(f"/play/{game.key}/")
    assert r.status_code == 200 and 'data-testid="not-owner"' in r.content.decode()
    refused = other.post(
        f"/play/{game.key}/move", {"ply": "0", "phase": "follow", "c": ["D6", "D6"]}
    )
    assert refused.status_code == 403
    game.refresh_from_db()
    assert game.ply == 0
    forked = other.post(f"/play/{game.key}/fork")
    assert forked.status_code == 303
    assert PlayGame.objects.count() == 2


def test_csrf_is_required(client: Client) -> None:
    game = start(client)
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = client.cookies
    r = strict.post(f"/play/{game.key}/move", {"ply": "0", "phase": "follow", "c": ["D6", "D6"]})
    assert r.status_code == 403
    game.refresh_from_db()
    assert game.ply == 0


def test_without_javascript_a_move_redirects_to_the_table(client: Client) -> None:
    game = start(client)
    r = client.post(f"/play/{game.key}/move", {"ply": "0", "phase": "follow", "c": ["D6", "D6"]})
    assert r.status_code == 303 and r["Location"] == f"/play/{game.key}/"


def test_hint_fills_in_a_legal_example(client: Client) -> None:
    game = start(client)
    r = client.get(f"/play/{game.key}/?hint=1", **HX)
    text = r.content.decode()
    assert r.status_code == 200 and 'data-testid="hint-text"' in text
    ticked = re.findall(r'value="([A-Z0-9]+)" checked', text)
    assert len(ticked) == 2


def test_unknown_and_tampered_games_are_clear_4xx(client: Client) -> None:
    assert client.get("/play/nosuchgame/").status_code == 404
    assert client.get("/play/a%20b/").status_code == 404
    game = start(client)
    PlayGame.objects.filter(pk=game.pk).update(moves="D6-D3", ply=1)
    r = client.get(f"/play/{game.key}/")
    assert r.status_code == 400 and "第 1 步" in r.content.decode()
    assert client.get(f"/play/{game.key}/?at=x").status_code in (400,)


def move_fields(pos, bid: str = "pass") -> dict[str, object]:  # type: ignore[no-untyped-def]
    """The form fields of a legal move for the human's decision (see auto_move)."""
    move = auto_move(pos, bid=bid)
    if move.kind == "cards" and pos.ask.phase != "declare":
        return {"c": cards_of(move)}
    return {"move": move.text()}


def _play_out(client: Client, game: PlayGame, *, bid: str = "pass") -> None:
    for _ in range(200):
        pos = position(game)
        if pos.ask is None:
            return
        r = post_move(client, game, **move_fields(pos, bid))
        assert r.status_code == 200, r.content.decode()[:500]
    raise AssertionError("the round did not end")


@pytest.mark.parametrize(
    ("ruleset", "bid"), [("classic", "pass"), ("erqiwang", "low"), ("shuangsheng", "pass")]
)
def test_a_whole_round_through_the_views_ends_with_the_summary_replay_and_log(
    client: Client, ruleset: str, bid: str
) -> None:
    game = start(client, f"/play/?ruleset={ruleset}&seed=4&seat=0&bots=greedy")
    _play_out(client, game, bid=bid)
    text = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="summary"' in text and 'data-testid="kitty"' in text
    page = client.get(f"/play/{game.key}/replay")
    body = page.content.decode()
    assert page.status_code == 200 and body.count('data-testid="replay-trick"') >= 8
    assert 'data-testid="verdict"' in body and 'data-testid="trick-why"' in body
    link = re.search(r'href="(/check/\?[^"]+)" data-testid="open-in-checker"', body)
    assert link is not None
    checker = client.get(link.group(1).replace("&amp;", "&"))
    assert checker.status_code == 200
    log = client.get(f"/play/{game.key}/log.jsonl")
    assert log.status_code == 200 and "attachment" in log["Content-Disposition"]
    report = replay(StringIO(log.content.decode()))
    assert report.ok, report.diffs[:3]
    if ruleset == "erqiwang":
        assert game.moves.startswith("b")


def test_english_table(client: Client) -> None:
    game = start(client)
    client.cookies["lang"] = "en"
    text = client.get(f"/play/{game.key}/").content.decode()
    assert "Your turn" in text and "Hint" in text
    r = post_move(client, game, c=["D6", "D3"])
    assert "pair" in r.content.decode()


def test_move_error_step_is_named() -> None:
    with pytest.raises(MoveError):
        parse_moves("D6-D3.ZZ")


def test_ruleset_seed_and_seat_alone_start_a_game_with_the_default_bots(client: Client) -> None:
    from checker.play.game import default_bots

    game = start(client, SHORT)
    assert game.bots == default_bots() and game.seed == 3 and game.seat == 1


def test_a_failed_throw_on_the_table_says_what_was_forced_and_why(client: Client) -> None:
    from checker.play.table import fold_events
    from checker.web.tableview import table_context

    # Random bots throw now and then: find the first seed where a throw fails.
    for seed in range(1, 60):
        done = replay_game(make_spec("classic", seed, None, "random"), [])
        failed = [i for i, e in enumerate(done.events) if e.get("throw") == "failed"]
        if failed:
            break
    assert failed, "no failed throw in 60 seeds of random bots"
    at = failed[0] + 1
    context = table_context(done, "zh", reveal=at)
    lead = context["trick"]["plays"][0]
    assert lead["tried"] and lead["throw_why"]
    assert fold_events(done.ruleset, done.events[:at]).current is not None


def test_options_start_the_game_under_them_and_bad_ones_are_named(client: Client) -> None:
    game = start(client, "/play/?ruleset=erqiwang&seed=4&seat=0&bots=greedy&options=climb:true")
    assert game.options == {"climb": True}
    page = client.get(f"/play/{game.key}/").content.decode()
    assert "options=climb%3Atrue" in page  # the position link keeps the options
    bad = client.get("/play/?ruleset=erqiwang&seed=4&seat=0&options=nosuch:1")
    assert bad.status_code == 400 and "nosuch" in bad.content.decode()
    worse = client.get("/play/?ruleset=erqiwang&seed=4&seat=0&options=climb")
    assert worse.status_code == 400


def test_next_round_starts_the_matchs_next_round_from_the_state_this_one_left(
    client: Client,
) -> None:
    game = start(client, "/play/?ruleset=classic&seed=4&seat=0&bots=greedy")
    early = client.post(f"/play/{game.key}/next")
    assert early.status_code == 409  # the round is not over yet
    _play_out(client, game)
    page = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="match"' in page and 'data-testid="next-round"' in page
    r = client.post(f"/play/{game.key}/next")
    assert r.status_code == 303
    nxt = PlayGame.objects.exclude(pk=game.pk).get()
    assert nxt.seed == game.seed + 1 and nxt.seat == 0 and nxt.match["round"] == 2
    done = position(game)
    banker = nxt.match["banker"]
    first = position(nxt).events[0]
    assert first["banker"] == banker and banker is not None
    assert client.get(f"/play/{nxt.key}/").status_code == 200
    assert done.result is not None
    other = Client()
    assert other.post(f"/play/{game.key}/next").status_code == 403
