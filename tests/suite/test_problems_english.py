"""Every problem row of the case runner (a broken file or case) says what is wrong in English
too: `message_en` in `runcases --format json` and on the English dashboard (issue 8.6)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client

from checker.perf.hostile import write_hostile_files
from checker.suite import cases as cases_module
from checker.suite.runner import run_suite
from checker.web import selfcheck
from tests.suite.test_hostile_files import runcases_json

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
# One broken case per problem the loader knows (fields, types, ids, rulesets, expect).
BROKEN_CASES = """\
rulesets: [classic]
cases:
  - {id: p-seat-null, title: 座位为空, kind: declare, cards: ♥2, seat: null, expect: {accepted: true}}
  - {id: p-list-in-rulesets, title: 列表, kind: classify, rulesets: [[classic]], cards: ♠A, expect: {type: single}}
  - {id: p-number-for-cards, title: 数字, kind: follow, lead: ♠A, hand: [10, 11], expect: {forced: 5}}
  - {id: p-date, title: 日期, kind: classify, cards: ♠A ♠A, expect: {type: 2024-01-02}}
  - {id: p-unknown-kind, title: 未知, kind: juggle, expect: {x: 1}}
  - {id: p-no-kind, title: 无类型, expect: {x: 1}}
  - {id: p-no-title, kind: classify, cards: ♠A, expect: {type: single}}
  - {id: p-no-expect, title: 无期望, kind: classify, cards: ♠A}
  - {id: p-unknown-field, title: 多余字段, kind: classify, cards: ♠A, colour: red, expect: {type: single}}
  - {id: p-missing-field, title: 缺字段, kind: follow, lead: ♠A, expect: {legal: true}}
  - {id: p-bad-ruleset, title: 规则集, kind: classify, rulesets: [nope], cards: ♠A, expect: {type: single}}
  - {id: p-by-ruleset, title: 按规则集, kind: classify, cards: ♠A, expect_by_ruleset: {nope: {type: single}}}
  - {id: P_Bad_Id, title: 坏 id, kind: classify, cards: ♠A, expect: {type: single}}
  - {id: p-twice, title: 一次, kind: classify, cards: ♠A, expect: {type: single}}
  - {id: p-twice, title: 两次, kind: classify, cards: ♠A, expect: {type: single}}
  - {id: p-options-keys, title: 选项, kind: classify, cards: ♠A, options: {1: true}, expect: {type: single}}
  - just a string
  - {id: p-bad-card, title: 坏牌, kind: classify, cards: ♠Z, expect: {type: single}}
"""
BROKEN_FILES = {
    "not-a-mapping.yaml": "- 1\n- 2\n",
    "syntax.yaml": "cases: [\n",
    "extra-key.yaml": "cases: []\ncolour: red\n",
    "rulesets-list.yaml": "rulesets: [[classic]]\ncases: []\n",
    "category.yaml": "category: [1]\ncases: []\n",
}


def _english_words(message: str) -> str:
    """The message without what it quotes from the file (titles, values may be Chinese)."""
    return re.sub(r"“[^”]*”|列表 \[.*?\]|[\w.-]+\.yaml|· [^:]+:", "", message)


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    write_hostile_files(folder)
    (folder / "broken-cases.yaml").write_text(BROKEN_CASES, encoding="utf-8")
    for name, text in BROKEN_FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_every_problem_row_has_its_own_english_message(broken: Path) -> None:
    rows = [r for r in run_suite([broken]).results if r.status == "error"]
    assert len(rows) >= 25
    for row in rows:
        assert row.message_en and row.message_en != row.message, row.message
        assert not CJK.search(_english_words(row.message_en)), row.message_en


def test_runcases_json_carries_the_english_message_of_problem_rows(broken: Path) -> None:
    _, report = runcases_json(broken)
    rows = [r for r in report["results"] if r["status"] == "error"]
    assert rows
    for row in rows:
        assert row["message_en"] != row["message"], row
    by_id = {r["id"]: r for r in rows}
    assert (
        "p-seat-null" in by_id
        and "seat must be a seat number" in by_id["p-seat-null"]["message_en"]
    )
    assert "alias bomb" in next(r for r in rows if "alias-bomb" in r["file"])["message_en"]


@pytest.fixture
def broken_suite(broken: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    shutil.copy(cases_module.CASES_DIR / "classic" / "01-classify.yaml", broken / "good.yaml")
    monkeypatch.setattr(cases_module, "CASES_DIR", broken)
    monkeypatch.setattr(selfcheck, "WATCHED", [broken])
    selfcheck.clear_cache()
    yield broken
    selfcheck.clear_cache()


@pytest.mark.django_db
def test_english_dashboard_shows_problem_rows_in_english(broken_suite: Path) -> None:
    client = Client()
    client.cookies["lang"] = "en"
    html = client.get("/").content.decode()
    assert "seat must be a seat number (an integer from 0), not null" in html
    assert "more than 200000 nodes once aliases are expanded" in html
    assert "必须是座位号" not in html and "别名炸弹" not in html
    page = client.get("/cases/classic/p-seat-null/").content.decode()
    assert "must be a seat number" in page


# One broken bot case per input error of the bot kind (checker/suite/botcase.py).
BROKEN_BOT_CASES = """\
rulesets: [classic]
cases:
  - {id: b-action, title: 动作, kind: bot, bot: v2, action: juggle, seat: 0, hand: ♠A, expect: {legal: true}}
  - {id: b-seat, title: 座位, kind: bot, bot: v2, action: lead, seat: 9, hand: ♠A, expect: {legal: true}}
  - {id: b-first-round, title: 首局, kind: bot, bot: v2, action: lead, seat: 0, hand: ♠A, first_round: 1, expect: {legal: true}}
  - {id: b-no-hand, title: 无手牌, kind: bot, bot: v2, action: lead, seat: 0, expect: {legal: true}}
  - {id: b-bot, title: 机器人, kind: bot, bot: nobody, action: lead, seat: 0, hand: ♠A, expect: {legal: true}}
  - {id: b-lead-trick, title: 领牌, kind: bot, bot: v2, action: lead, seat: 0, hand: ♠A, trick: [{seat: 3, cards: ♠K}], expect: {legal: true}}
  - {id: b-follow-no-trick, title: 跟牌, kind: bot, bot: v2, action: follow, seat: 0, hand: ♠A, expect: {legal: true}}
  - {id: b-turn, title: 顺序, kind: bot, bot: v2, action: follow, seat: 2, hand: ♠A, trick: [{seat: 0, cards: ♠K}], expect: {legal: true}}
  - {id: b-short, title: 张数, kind: bot, bot: v2, action: follow, seat: 1, hand: ♠A, trick: [{seat: 0, cards: ♠K ♠K}], expect: {legal: true}}
  - {id: b-ask, title: 询问, kind: bot, bot: v2, action: ask, ask: nope, seat: 0, cards: ♠A, expect: {answer: true}}
  - {id: b-ask-cards, title: 询问牌, kind: bot, bot: v2, action: ask, ask: tractor, seat: 0, hand: ♠K, cards: ♠A, expect: {answer: true}}
  - {id: b-plays, title: 出牌, kind: bot, bot: v2, action: follow, seat: 1, hand: ♠A, trick: [{seat: 0}], expect: {legal: true}}
  - {id: b-void, title: 示缺, kind: bot, bot: v2, action: lead, seat: 1, hand: ♠A ♠3, history: [[{seat: 0, cards: ♠K}, {seat: 1, cards: ♥3}, {seat: 2, cards: ♠4}, {seat: 3, cards: ♠5}]], expect: {legal: true}}
"""


def test_every_bot_case_problem_has_its_own_english_message(tmp_path: Path) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "broken-bots.yaml").write_text(BROKEN_BOT_CASES, encoding="utf-8")
    rows = [r for r in run_suite([folder]).results if r.status == "error"]
    assert {r.id for r in rows} == {
        f"b-{name}"
        for name in [
            "action",
            "seat",
            "first-round",
            "no-hand",
            "bot",
            "lead-trick",
            "follow-no-trick",
            "turn",
            "short",
            "ask",
            "ask-cards",
            "plays",
            "void",
        ]
    }
    for row in rows:
        assert row.message_en and row.message_en != row.message, row.message
        assert not CJK.search(_english_words(row.message_en)), row.message_en
