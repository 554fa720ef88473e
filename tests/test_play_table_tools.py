"""The table's status bar, the rule stated before a play, the play button judged by /check,
and the seats still to play shown as placeholders (issue 26, point 2)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from checker.engine.cards import ascii_card, parse_cards
from checker.engine.follow import judge_follow
from checker.engine.ruleset import load_ruleset
from checker.engine.scoring import score_round
from checker.models import PlayGame
from checker.play.game import make_spec, play_move, replay_game
from checker.play.selection import judge_picks, requirement
from checker.web.tablebar import score_marks
from tests.test_game import auto_move
from tests.test_play_views import HX, position, post_move, start

pytestmark = pytest.mark.django_db


def _check(client: Client, game: PlayGame, cards: list[str], ply: int | None = None) -> str:
    query = "&".join(f"c={c}" for c in cards)
    r = client.get(f"/play/{game.key}/check?ply={game.ply if ply is None else ply}&{query}", **HX)
    assert r.status_code == 200, r.content[:300]
    return r.content.decode()


@pytest.mark.parametrize("name", ["classic", "multideck", "erqiwang"])
def test_the_band_marks_are_where_the_rulesets_scoring_changes_its_result(name: str) -> None:
    rs = load_ruleset(name)
    marks = [m["points"] for m in score_marks(rs, "zh")]
    assert marks and marks == sorted(marks)
    for p in marks:
        before, at = score_round(rs, p - 5), score_round(rs, p)
        assert (before.result, before.rise, before.winner) != (at.result, at.rise, at.winner)
    for p in range(5, marks[-1], 5):
        if p not in marks:
            assert score_round(rs, p - 5).result == score_round(rs, p).result


def test_multideck_bands_are_not_classics() -> None:
    classic = [m["points"] for m in score_marks(load_ruleset("classic"), "zh")]
    multi = [m["points"] for m in score_marks(load_ruleset("multideck"), "zh")]
    assert classic != multi


def test_the_status_bar_shows_trump_banker_points_turn_and_cards_held(client: Client) -> None:
    game = start(client)
    text = client.get(f"/play/{game.key}/").content.decode()
    bar = text[text.index('data-testid="status"') : text.index('class="play-head')]
    assert "打2" in bar and "庄" in bar and 'data-testid="points">0<' in bar
    assert "轮到你" in bar and "下一档" in bar
    held = re.findall(
        r'data-testid="held"[^>]*>[^<]*(?:<span[^>]*>[^<]*</span>)? <b>(\d+)</b>', bar
    )
    assert [int(n) for n in held] == [23, 25, 25, 25]  # the banker has buried 8 of 33
    assert bar.count('data-testid="band-mark"') == len(
        [m for m in score_marks(load_ruleset("classic"), "zh") if m["points"] <= 200]
    )


def test_the_seats_still_to_play_are_placeholders(client: Client) -> None:
    game = start(client)
    text = client.get(f"/play/{game.key}/").content.decode()
    trick = text[text.index('data-testid="trick"') : text.index('id="hand-form"')]
    assert trick.count('data-testid="play"') == 1
    assert re.findall(r'data-testid="pending" data-seat="(\d)"', trick) == ["1", "2", "3"]


def test_the_follow_rule_comes_from_the_engine_with_a_legal_example(client: Client) -> None:
    game = start(client)
    pos = position(game)
    rule = requirement(pos.ask.view)
    assert rule is not None and rule.count == len(pos.ask.view.lead.cards)
    view = pos.ask.view
    assert judge_follow(view.ctx, view.lead, view.hand, rule.example).legal
    text = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="rule">跟牌要求：' in text
    example = " ".join(ascii_card(c) for c in rule.example)
    assert f'data-example="{example}"' in text
    client.cookies["lang"] = "en"
    english = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="rule">Follow: ' in english


def test_the_play_button_is_enabled_only_for_legal_picks(client: Client) -> None:
    game = start(client)
    pos = position(game)
    example = [ascii_card(c) for c in requirement(pos.ask.view).example]
    legal = _check(client, game, example)
    assert re.search(r'data-testid="play-button">', legal) and "play-why" not in legal
    short = _check(client, game, example[:1])
    assert 'data-testid="play-button" disabled' in short and "要出 2 张，选了 1 张" in short
    nothing = _check(client, game, [])
    assert 'data-testid="play-button" disabled' in nothing and "play-why" not in nothing
    wrong = [ascii_card(c) for c in pos.ask.view.hand if c not in pos.ask.view.lead.cards][:2]
    verdict = judge_picks(pos.ask.view, [c for c in pos.ask.view.hand][:2])
    shown = _check(client, game, [ascii_card(c) for c in pos.ask.view.hand][:2])
    assert ("disabled" in shown) == (not verdict.legal)
    assert wrong  # the hand has cards to pick
    game.refresh_from_db()
    assert game.ply == 0  # judging changes nothing


def test_a_stale_or_bad_check_is_refused_without_a_traceback(client: Client) -> None:
    game = start(client)
    stale = _check(client, game, ["SA"], ply=5)
    assert "disabled" in stale and "局面已经变了" in stale
    bad = client.get(f"/play/{game.key}/check?ply=0&c=ZZ")
    assert bad.status_code == 400 and "c" in bad.content.decode()
    assert client.get(f"/play/{game.key}/check?c=SA").status_code == 400  # no ply
    assert client.post(f"/play/{game.key}/check?ply=0").status_code == 405


def test_the_picks_a_refused_move_leaves_are_judged_on_the_page(client: Client) -> None:
    game = start(client)
    pos = position(game)
    example = [ascii_card(c) for c in requirement(pos.ask.view).example]
    r = post_move(client, game, c=example[:1])
    text = r.content.decode()
    assert r.status_code == 400 and 'data-testid="play-button" disabled' in text


def test_the_lead_rule_and_a_banned_rethrow_are_stated() -> None:
    spec = make_spec("classic", 3, 1, "greedy")
    pos = replay_game(spec, [])
    while pos.ask is not None and pos.ask.phase != "lead":
        pos = play_move(spec, pos.moves, auto_move(pos))
    assert pos.ask is not None
    rule = requirement(pos.ask.view)
    assert rule is not None and rule.count == 0 and "首出" in rule.say("zh")
    assert "Lead" in rule.say("en")
    assert judge_picks(pos.ask.view, rule.example).legal
    banned = pos.ask.view._replace(may_throw=False)
    assert "甩" in requirement(banned).say("zh")


def _after_own_bury(options: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    """二七王 seed 4, seat 0: the person bids, names trump and buries; then the first play."""
    spec = make_spec("erqiwang", 4, 0, "greedy", options=options)
    pos = replay_game(spec, [])
    while pos.ask is not None and pos.ask.phase not in ("lead", "follow"):
        pos = play_move(spec, pos.moves, auto_move(pos, bid="low"))
    return pos


def test_the_banker_sees_the_kitty_it_buried_and_nobody_else_does() -> None:
    from checker.play.visibility import Viewer, buried_kitty
    from checker.web.tableview import table_context

    pos = _after_own_bury()
    bury = [e for e in pos.events if e["t"] == "bury"]
    assert bury and bury[0]["seat"] == 0
    buried = buried_kitty(pos.ruleset, pos.events, Viewer(0, False))
    assert buried is not None and buried == parse_cards(bury[0]["cards"])
    assert table_context(pos, "zh")["my_kitty"]
    for seat in (1, 2):
        assert buried_kitty(pos.ruleset, pos.events, Viewer(seat, False)) is None
    closed = _after_own_bury({"review": "closed"})
    assert buried_kitty(closed.ruleset, closed.events, Viewer(0, False)) is None
    assert table_context(closed, "zh")["my_kitty"] == ""


def test_a_non_banker_seat_page_has_no_kitty(client: Client) -> None:
    game = start(client)  # classic seed 3: seat 0 is the banker, the person sits at 1
    text = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="my-kitty"' not in text


def test_seat_names_at_a_six_seat_table_have_no_stray_dot() -> None:
    from checker.web.tableview import seat_name, seat_place

    assert seat_name(4, 0, 6) == "座4" and seat_name(0, 0, 6) == "你"
    assert [seat_place(k, 4) for k in range(4)] == ["", "right", "top", "left"]
    assert seat_place(1, 5) == ""  # an odd table: no place, the layout flows


def test_the_bury_hint_at_the_table_speaks_plainly_in_both_languages() -> None:
    import re

    from checker.web.tableview import table_context

    spec = make_spec("erqiwang", 4, 0, "v2")
    pos = replay_game(spec, [])
    while pos.ask is not None and pos.ask.phase != "bury":
        pos = play_move(spec, pos.moves, auto_move(pos, bid="low"))
    assert pos.ask is not None
    for lang, opening in (("zh", "扣底："), ("en", "kitty: ")):
        words = table_context(pos, lang, show_hint=True)["suggestion"]
        assert opening in words and re.search(r"\b[SHCD]\b", words) is None, words
        assert ("分" in words) if lang == "zh" else ("point" in words)
