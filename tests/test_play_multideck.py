"""Multideck (seed 002) at the table and in the terminal: whole rounds with 3 decks, and the
暗牌 declarations (`declare_view: hidden`) that the table and the bots see only as a count."""

from __future__ import annotations

import io
import sys
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from checker.engine.cards import ascii_card, parse_cards
from checker.play.bots.registry import make_players
from checker.play.game import format_moves, make_spec, play_move, replay_game
from checker.play.moves import Move
from checker.play.players import DECLARE, PlayerView
from checker.play.replay import replay
from checker.play.round import play_round
from checker.web.tableview import table_context
from tests.test_game import auto_move
from tests.test_play_views import _play_out, position, start

HIDDEN = {"declare_view": "hidden"}


@pytest.mark.django_db
def test_a_whole_multideck_round_through_the_views(client: Client) -> None:
    # Seed 2: the human declares, becomes banker, buries, leads and follows (3 decks, 40 cards).
    game = start(client, "/play/?ruleset=multideck&seed=2&seat=0&bots=greedy")
    first = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-phase="declare"' in first and 'data-testid="declare"' in first
    _play_out(client, game)
    done = position(game)
    assert done.is_over and done.result is not None and done.result.illegal == 0
    moves = [e for e in done.events if e["t"] in ("bury", "play") and e["seat"] == 0]
    assert {e["t"] for e in moves} == {"bury", "play"}
    assert len(parse_cards(done.events[1]["hands"][0])) == 40
    text = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="summary"' in text and len(text.encode()) < 50_000
    log = client.get(f"/play/{game.key}/log.jsonl").content.decode()
    assert replay(StringIO(log)).ok


def _typed(move_text: str) -> str:
    return "pass" if move_text == "p" else move_text.replace("-", " ")


def test_a_whole_multideck_round_in_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = make_spec("multideck", 2, 0, "greedy")
    pos = replay_game(spec, [])
    while not pos.is_over:
        pos = play_move(spec, pos.moves, auto_move(pos))
    typed = "\n".join(_typed(m.text()) for m in pos.moves) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    out = io.StringIO()
    args = ("--ruleset", "multideck", "--seed", "2", "--human-seat", "0", "--bots", "greedy")
    call_command("play", *args, "--no-color", stdout=out)
    text = out.getvalue()
    assert "不行" not in text  # every typed move was accepted
    assert "结果" in text and "底牌" in text
    assert text.rstrip().splitlines()[-1] == f"棋谱：{format_moves(pos.moves)}"
    assert f"闲家得分：{pos.result.attackers_points}" in text


class _Recorder:
    """A bot seat that keeps every declare-phase view it was given."""

    def __init__(self, inner: object, views: list[PlayerView]) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "bot")
        self.views = views

    def choose(self, view: PlayerView) -> Move:
        if view.phase == DECLARE:
            self.views.append(view)
        move: Move = self.inner.choose(view)  # type: ignore[attr-defined]
        return move


@pytest.mark.parametrize("bots", ["greedy", "v2", "random"])
def test_hidden_declarations_reach_the_bots_only_as_a_count(bots: str) -> None:
    from checker.engine.ruleset import load_ruleset

    rs = load_ruleset("multideck").with_options(HIDDEN)
    hidden_seen = 0
    for seed in range(1, 9):
        views: list[PlayerView] = []
        seats = [_Recorder(p, views) for p in make_players(bots, seed, rs.players)]
        res = play_round(rs, seed, seats)  # type: ignore[arg-type]
        assert res.illegal == 0 and not res.breaks
        accepted = [e for e in res.events if e["t"] == "declare" and e["accepted"]]
        for view in views:
            assert all(who == view.seat for who, _ in view.declarations)
            hidden_seen += len(view.hidden_declarations)
            for who, count in view.hidden_declarations:
                assert who != view.seat and count in {
                    len(parse_cards(e["cards"])) for e in accepted if e["seat"] == who
                }
    assert hidden_seen > 0
    # Under the default (明牌) the bots see every declaration whole.
    open_rs = load_ruleset("multideck")
    views = []
    seats = [_Recorder(p, views) for p in make_players(bots, 1, open_rs.players)]
    play_round(open_rs, 1, seats)  # type: ignore[arg-type]
    assert not any(v.hidden_declarations for v in views)
    assert any(who != v.seat for v in views for who, _ in v.declarations)


def _hidden_game_with_a_bot_declaration() -> tuple[object, int]:
    for seed in range(1, 40):
        spec = make_spec("multideck", seed, 0, "greedy", options=HIDDEN)
        pos = replay_game(spec, [])
        others = [e for e in pos.events if e["t"] == "declare" and e["accepted"] and e["seat"]]
        if pos.ask is not None and pos.ask.phase == DECLARE and others:
            return pos, seed
    raise AssertionError("no seed where a bot declares before the human is asked")


def test_the_table_shows_hidden_declarations_as_a_count_until_the_deal_is_over() -> None:
    pos, _seed = _hidden_game_with_a_bot_declaration()
    context = table_context(pos, "zh")  # type: ignore[arg-type]
    shown = [d for d in context["declarations"] if d["name"] != "你"]
    assert shown and all(d.get("hidden") and "暗亮" in d["cards"] for d in shown)
    assert "♠" not in "".join(str(d["cards"]) for d in shown)
    ask = pos.ask  # type: ignore[attr-defined]
    assert ask.view.hidden_declarations and not [w for w, _ in ask.view.declarations if w != 0]
    # Once trump is fixed, every declaration is shown whole.
    while pos.ask is not None and pos.ask.phase == DECLARE:  # type: ignore[attr-defined]
        pos = play_move(pos.spec, pos.moves, auto_move(pos))  # type: ignore[attr-defined]
    after = table_context(pos, "zh")  # type: ignore[arg-type]
    assert not any(d.get("hidden") for d in after["declarations"])


def test_the_terminal_shows_hidden_declarations_as_a_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pos, seed = _hidden_game_with_a_bot_declaration()
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    out = io.StringIO()
    args = ("--ruleset", "multideck", "--seed", str(seed), "--bots", "greedy", "--no-color")
    call_command("play", *args, "--options", "declare_view:hidden", stdout=out)
    text = out.getvalue()
    assert "暗亮" in text
    bot = next(e for e in pos.events if e["t"] == "declare" and e["accepted"] and e["seat"])  # type: ignore[attr-defined]
    cards = " ".join(ascii_card(c) for c in parse_cards(bot["cards"]))
    assert f"座{bot['seat']} 亮主 {cards}" not in text


def test_a_multideck_game_and_match_start_at_3_and_2_is_never_the_level() -> None:
    from checker.engine.ruleset import load_ruleset
    from checker.play.match import start_match

    pos = replay_game(make_spec("multideck", 2, 0, "greedy"), [])
    assert pos.events[0]["level"] == "3"
    with pytest.raises(ValueError, match="level"):
        make_spec("multideck", 2, 0, "greedy", level="2")
    assert start_match(load_ruleset("multideck")).levels == (3, 3)
    assert start_match(load_ruleset("classic")).levels == (2, 2)
