"""The seed self-check table: seed 000's 14 categories in order, rows mapped from `source`."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from checker.suite.seedcheck import SEED_SELF_CHECKS, parse_seed_row, seed_report

SEED = "000_5d8e95ec3e6da488.txt"


@dataclass
class R:
    source: str | None
    status: str


def test_seed_000_table_is_the_seeds_167_rows_in_its_order() -> None:
    names = [name for name, _ in SEED_SELF_CHECKS[SEED]]
    assert names[:5] == ["牌型识别", "亮主规则", "甩牌合法性与是否可出", "跟牌规则", "比牌与杀牌"]
    assert names[-3:] == ["抠底倍率", "不可跳过级别", "机器人领牌"]
    assert len(names) == 14 and sum(n for _, n in SEED_SELF_CHECKS[SEED]) == 167


@pytest.mark.parametrize(
    "source, row",
    [
        (f"{SEED}, 跟牌规则 #3", (SEED, "跟牌规则", 3)),
        (f"{SEED}, 机器人v2反主门槛 #19", (SEED, "机器人v2反主门槛", 19)),
        (f"{SEED}, 二、跟牌规则 · 跟单张", None),
        (f"project case for the principle of {SEED}, 机器人领牌 #2", None),
        (f"{SEED}, 跟牌规则 #3; 比牌与杀牌 #4", None),
        (None, None),
        (5, None),
    ],
)
def test_parse_seed_row(source: object, row: tuple[str, str, int] | None) -> None:
    assert parse_seed_row(source) == row


def test_a_row_passes_only_when_all_its_cases_pass_and_missing_rows_do_not() -> None:
    results = [
        R(f"{SEED}, 牌型识别 #1", "pass"),
        R(f"{SEED}, 牌型识别 #1", "pass"),  # two cases, one row
        R(f"{SEED}, 牌型识别 #2", "pass"),
        R(f"{SEED}, 牌型识别 #2", "fail"),  # one of its cases fails: the row fails
        R(f"{SEED}, 亮主规则 #4", "error"),
        R(f"{SEED}, 亮主规则 #9", "pass"),  # the seed has no such row: a supplementary case
        R("project case", "pass"),
        R(None, "fail"),
    ]
    report = seed_report(SEED, results)
    assert report is not None
    first, second = report.categories[:2]
    assert (first.name, first.passed, first.failing, first.missing) == ("牌型识别", 1, 1, 23)
    assert (second.passed, second.failing, second.missing) == (0, 1, 3)
    assert report.passed == 1 and report.rows == 167 and report.missing == 167 - 3
    assert (report.extra_passed, report.extra_total) == (2, 3)
    assert report.stray == [f"{SEED}, 亮主规则 #9"]
    assert not report.ok


def test_seeds_without_a_table_have_no_report() -> None:
    assert seed_report("001_f69c3e41e53d4431.txt", [R(None, "pass")]) is None
