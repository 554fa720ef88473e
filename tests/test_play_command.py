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


def _erqiwang_attacker_args() -> tuple[str, ...]:
    """The terminal resumed at a 二七王 play of the human (seat 1) as an attacker."""
    from checker.play.game import format_moves
    from tests.test_erqiwang_table import _to_attacker_play

    pos = _to_attacker_play()
    args = ["--ruleset", "erqiwang", "--seed", str(pos.spec.seed), "--human-seat", "1"]
    return (*args, "--bots", "greedy", "--no-color", "--moves", format_moves(pos.moves))


def test_an_attacker_types_a_signal_at_the_prompt_in_both_languages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = _erqiwang_attacker_args()
    text = _play(monkeypatch, "help\n踩\n~cai\nquit\n", *args)
    assert "踩/没分/有分 信号" in text and "help 帮助" in text
    assert "踩（或 ~cai）：我能大过庄家。闲家在自己出牌前给队友的信号" in text
    assert "你(座1) 提示：踩（我能大过庄家）" in text
    assert "不行：这一墩你已经发过提示了" in text  # one signal a trick
    assert text.rstrip().endswith("已退出。")
    english = _play(monkeypatch, "help\nno points\nquit\n", *args, "--lang", "en")
    assert "cai/no_points/has_points signal" in english
    assert "has_points (or points): “I hold points”. An attacker's signal" in english
    assert "you (seat 1) signals: No points (I have no points left)" in english


def test_a_signal_outside_a_signalling_table_is_refused_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    classic = _play(monkeypatch, "踩\nquit\n", "--seed", "3", "--human-seat", "1", "--no-color")
    assert "不行：这个规则没有闲家提示" in classic and "信号" not in classic.split("不行")[0]
