"""二七王's 报无主 in 可查牌 mode at the table (seed 001 §5.4.2, §9, §10.2): once a player is out
of trumps every player sees the other two's trump and pair counts, and 明牌 shows their trumps;
不查牌 (review: closed) shows none of it and no history before the round's end."""

from __future__ import annotations

import pytest
from django.test import Client

from checker.engine.roundrules import trump_count
from checker.play.game import Position, format_moves, make_spec, play_move, replay_game
from checker.play.table import fold_events
from checker.web.tableview import table_context
from tests.test_game import auto_move
from tests.test_play_views import start


def _after_no_trump(options: dict[str, str] | None = None) -> Position:
    """A game with the human still to play after someone announced 无主."""
    for seed in range(1, 30):
        spec = make_spec("erqiwang", seed, 0, "greedy", options=options)
        pos = replay_game(spec, [])
        while not pos.is_over:
            announced = any(e["t"] == "no_trump" for e in pos.events)
            if announced and pos.ask is not None and pos.ask.phase in ("lead", "follow"):
                return pos
            pos = play_move(spec, pos.moves, auto_move(pos))
    raise AssertionError("no game with 报无主 before the human's last play")


def test_open_review_shows_the_others_trump_and_pair_counts_after_no_trump() -> None:
    pos = _after_no_trump()
    table = fold_events(pos.ruleset, pos.events)
    assert table.no_trump and table.ctx is not None
    context = table_context(pos, "zh")
    panel = context["no_trump"]
    assert panel["open"] and panel["announced"]
    assert [s["name"] for s in panel["seats"]] == ["下家 · 座1", "上家 · 座2"]
    for row, seat in zip(panel["seats"], (1, 2), strict=True):
        assert (row["trumps"], row["pairs"]) == trump_count(table.ctx, table.hands[seat])
        assert row["cards"] == ""  # counts only until 明牌 is pressed
    shown = table_context(pos, "zh", mingpai=True)["no_trump"]
    for row, seat in zip(shown["seats"], (1, 2), strict=True):
        trumps = [c for c in table.hands[seat] if table.ctx.is_trump(c)]
        assert (row["cards"] != "") == bool(trumps)
    # The one who announced sees the same: counts of the other two, never of itself.
    assert all(s["name"] != "你" for s in panel["seats"])


def test_closed_review_shows_only_the_announcement_and_no_history() -> None:
    pos = _after_no_trump({"review": "closed"})
    context = table_context(pos, "zh", mingpai=True)
    panel = context["no_trump"]
    assert panel["announced"] and not panel["open"] and panel["seats"] == []
    assert context["last"] is None and not context["review_open"]


@pytest.mark.django_db
def test_the_table_page_has_the_mingpai_toggle_and_closed_mode_hides_the_replay(
    client: Client,
) -> None:
    pos = _after_no_trump()
    moves = format_moves(pos.moves)
    game = start(
        client, f"/play/?ruleset=erqiwang&seed={pos.spec.seed}&seat=0&bots=greedy&moves={moves}"
    )
    text = client.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="no-trump"' in text and 'data-testid="trump-count"' in text
    assert 'data-testid="mingpai"' in text and 'aria-pressed="false"' in text
    assert 'data-testid="mingpai-cards"' not in text
    on = client.get(f"/play/{game.key}/?mingpai=1", HTTP_HX_REQUEST="true").content.decode()
    assert 'aria-pressed="true"' in on and "取消明牌" in on
    assert 'name="mingpai" value="1"' in on  # a move keeps 明牌 on
    assert client.get(f"/play/{game.key}/replay").status_code == 200
    closed = _after_no_trump({"review": "closed"})
    url = (
        f"/play/?ruleset=erqiwang&seed={closed.spec.seed}&seat=0&bots=greedy"
        f"&options=review:closed&moves={format_moves(closed.moves)}"
    )
    other = start(client, url)
    page = client.get(f"/play/{other.key}/").content.decode()
    assert 'data-testid="no-trump"' in page and 'data-testid="trump-count"' not in page
    assert 'data-testid="replay-link"' not in page and 'data-testid="last-trick"' not in page
    assert client.get(f"/play/{other.key}/replay").status_code == 403
    client.cookies["lang"] = "en"
    english = client.get(f"/play/{game.key}/").content.decode()
    assert "No trumps announced" in english and "trumps," in english


def _banker_has_revealed(options: dict[str, str] | None = None) -> Position:
    spec = make_spec("erqiwang", 2, 1, "greedy", options=options)
    pos = replay_game(spec, [])
    while pos.ask is not None and pos.ask.phase not in ("lead", "follow"):
        pos = play_move(spec, pos.moves, auto_move(pos))
    return pos


def test_the_bankers_reveal_reaches_the_attackers_only_in_open_review() -> None:
    from checker.engine.bonus import reveal_duty

    pos = _banker_has_revealed()
    table = fold_events(pos.ruleset, pos.events)
    assert table.banker != 1 and table.ctx is not None
    duty = reveal_duty(table.ctx, table.kept)
    assert duty.required  # seed 2: the banker keeps 3 jokers
    shown = table_context(pos, "zh")["banker_reveal"]
    assert shown == {"own": False, "text": duty.explanation_for("zh")}
    assert "3张王" in shown["text"]
    assert table_context(pos, "en")["banker_reveal"]["text"] == duty.explanation_for("en")
    closed = _banker_has_revealed({"review": "closed"})
    assert table_context(closed, "zh")["banker_reveal"] is None
