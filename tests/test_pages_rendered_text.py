"""What a reader sees as text: no template syntax printed on any page, and English lines at the
table written in English (no full-width "：（）", "You win" not "You wins", the kitty and
winning the kitty named apart), the simulation page's commands one a line."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.test_game import auto_move
from tests.test_pages_english import ChineseOutsideMarks, _pages
from tests.test_play_views import cards_of, position, post_move, start

pytestmark = pytest.mark.django_db

TEMPLATE_SYNTAX = ("{#", "#}", "{%", "%}")
FULL_WIDTH = re.compile(r"[：（）]")


class _Text(ChineseOutsideMarks):
    """The text a reader meets outside elements marked lang="zh…" (scripts and styles left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1][0] in ("script", "style"):
            return
        if not self._marked():
            self.parts.append(data)


def reader_text(html: str) -> str:
    """Return the page's text outside zh-marked elements, whitespace folded."""
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def _round_pages(client: Client, url: str, *, bid: str = "pass") -> list[str]:
    """Play a round through the views; return the table at every turn, the end, replay, match."""
    game = start(client, url)
    pages: list[str] = []
    for _ in range(200):
        pages.append(client.get(f"/play/{game.key}/").content.decode())
        pos = position(game)
        if pos.ask is None:
            break
        move = auto_move(pos, bid=bid)
        cards = move.kind == "cards" and pos.ask.phase != "declare"
        fields = {"c": cards_of(move)} if cards else {"move": move.text()}
        assert post_move(client, game, **fields).status_code == 200  # type: ignore[attr-defined]
    pages.append(client.get(f"/play/{game.key}/replay").content.decode())
    pages.append(client.get(f"/play/{game.key}/match").content.decode())
    return pages


def _english() -> Client:
    client = Client()
    client.cookies["lang"] = "en"
    return client


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_no_page_prints_template_syntax(lang: str) -> None:
    client = Client()
    client.cookies["lang"] = lang
    texts = [client.get(path).content.decode() for path in _pages()]
    texts += _round_pages(client, "/play/?ruleset=erqiwang&seed=4&seat=0&bots=greedy", bid="low")
    for html in texts:
        shown = reader_text(html)
        leaked = [mark for mark in TEMPLATE_SYNTAX if mark in shown]
        assert not leaked, (leaked, shown[:300])


def test_the_card_entry_comment_is_not_page_text() -> None:
    for path in ("/check/", "/matrix/"):
        assert "static/js/check.js drives both" not in reader_text(
            Client().get(path).content.decode()
        )


@pytest.mark.parametrize(
    ("url", "bid"),
    [
        ("/play/?ruleset=classic&seed=3&seat=1&bots=greedy", "pass"),
        ("/play/?ruleset=erqiwang&seed=4&seat=0&bots=greedy", "low"),
        ("/play/?ruleset=shuangsheng&seed=11&seat=1&bots=greedy", "pass"),
    ],
)
def test_english_table_lines_use_english_punctuation_and_grammar(url: str, bid: str) -> None:
    pages = [reader_text(html) for html in _round_pages(_english(), url, bid=bid)]
    for text in pages:
        assert not FULL_WIDTH.findall(text), FULL_WIDTH.sub("⟪\\g<0>⟫", text)[:600]
        assert "You wins" not in text and "You leads" not in text
    joined = " ".join(pages)
    assert re.search(r"You win, \d+ points", joined) or re.search(r"won by you", joined)
    end = pages[-3]
    assert "Winning the kitty" in end and "Kitty" in end


def test_the_kitty_and_winning_the_kitty_have_different_english_names() -> None:
    from django.utils import translation

    with translation.override("en"):
        assert translation.gettext("底牌") != translation.gettext("抠底")


def test_simulation_page_gives_each_command_on_its_own_line() -> None:
    html = Client().get("/simulation/").content.decode()
    commands = re.findall(r"<li><code>(python manage\.py simulate[^<]*)</code></li>", html)
    assert len(commands) == 2 and all(c.count("manage.py") == 1 for c in commands)
    assert "--seed 1python" not in reader_text(html).replace(" ", "")


def test_replay_has_a_trick_index_linking_every_trick(client: Any) -> None:
    game = start(client, "/play/?ruleset=classic&seed=3&seat=1&bots=greedy")
    for _ in range(3):
        pos = position(game)
        post_move(client, game, c=cards_of(auto_move(pos)))
    html = client.get(f"/play/{game.key}/replay").content.decode()
    sections = re.findall(r'<section class="replay-trick" id="(trick-\d+)"', html)
    index = re.search(r'data-testid="trick-index">(.*?)</nav>', html, re.S)
    assert sections and index is not None
    assert re.findall(r'href="#(trick-\d+)"', index.group(1)) == sections
