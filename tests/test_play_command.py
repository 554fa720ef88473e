"""manage.py play: the terminal table, driven through stdin."""

from __future__ import annotations

import io
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def _play(monkeypatch: pytest.MonkeyPatch, typed: str, *args: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    out = io.StringIO()
    call_command("play", *args, stdout=out)
    return out.getvalue()


def test_autoplay_plays_a_whole_round_the_same_way_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    args = ("--ruleset", "classic", "--seed", "5", "--autoplay", "--bots", "greedy", "--no-color")
    first = _play(monkeypatch, "", *args)
    assert first == _play(monkeypatch, "", *args)
    assert "定主" in first and "结果" in first and "底牌" in first
    assert "\033[" not in first and "♠" not in first.split("底牌")[0].split("（")[0]


def test_illegal_follow_is_refused_then_hint_last_and_quit(monkeypatch: pytest.MonkeyPatch) -> None:
    typed = "hint\nD6 D3\nD6 D6\nlast\nquit\n"
    args = ("--seed", "3", "--human-seat", "1", "--bots", "greedy", "--no-color")
    text = _play(monkeypatch, typed, *args)
    assert "建议：" in text
    assert "不行：有对子必须出对子" in text
    assert "你(座1) 跟 D6 D6" in text
    assert "上把（第 1 墩）" in text
    assert text.rstrip().endswith("已退出。")


def test_colour_uses_suit_symbols_and_ansi(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _play(monkeypatch, "quit\n", "--seed", "3", "--human-seat", "1", "--bots", "greedy")
    assert "♦" in text and "\033[31m" in text


def test_english_and_a_bad_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _play(monkeypatch, "quit\n", "--seed", "3", "--human-seat", "1", "--lang", "en")
    assert "Your hand" in text and "Left the table." in text
    with pytest.raises(CommandError, match="unknown ruleset"):
        _play(monkeypatch, "", "--ruleset", "nope")
