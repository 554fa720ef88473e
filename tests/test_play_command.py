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


def _erqiwang_after_no_trump(options: dict[str, str] | None = None) -> tuple[str, ...]:
    from checker.play.game import format_moves
    from tests.test_play_review_mode import _after_no_trump

    pos = _after_no_trump(options)
    args = ["--ruleset", "erqiwang", "--seed", str(pos.spec.seed), "--human-seat", "0"]
    args += ["--bots", "greedy", "--no-color", "--moves", format_moves(pos.moves)]
    if options:
        args += ["--options", ",".join(f"{k}:{v}" for k, v in options.items())]
    return tuple(args)


def test_no_trump_is_announced_and_review_shows_the_others_trumps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from checker.engine.cards import ascii_card
    from checker.engine.roundrules import trump_count
    from checker.play.table import fold_events
    from tests.test_play_review_mode import _after_no_trump

    pos = _after_no_trump()
    table = fold_events(pos.ruleset, pos.events)
    ctx = table.ctx
    assert ctx is not None and table.no_trump
    text = _play(monkeypatch, "review\n明牌\nquit\n", *_erqiwang_after_no_trump())
    assert "报无主：没有主牌了" in text and "review 查牌" in text
    counted, shown = text.split("已报无主：")[1:3]
    for seat in (1, 2):
        trumps, pairs = trump_count(ctx, table.hands[seat])
        line = f"座{seat} 主牌 {trumps} 张，{pairs} 对"
        assert f"{line}\n" in counted  # review: the counts only
        held = [c for c in ctx.sort_cards(table.hands[seat]) if ctx.is_trump(c)]
        cards = " ".join(ascii_card(c) + "*" for c in held)
        assert (f"{line}：{cards}\n" if held else f"{line}\n") in shown  # 明牌: the trumps too


def test_closed_review_hides_the_others_and_the_last_trick(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = _play(
        monkeypatch, "review\nlast\nquit\n", *_erqiwang_after_no_trump({"review": "closed"})
    )
    assert "不查牌：本局不能看别人的主牌。" in text
    assert "不查牌：本局结束前不能看已出的牌。" in text
    assert "上把（第" not in text


def test_a_bad_move_list_is_refused_with_its_step(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(CommandError, match=r"--moves: Move 2 of the game is invalid"):
        _play(monkeypatch, "", "--seed", "3", "--moves", "p.zz9")
