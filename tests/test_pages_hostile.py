"""One bad case file never takes a page down: the dashboard, the self-check pages, the case
pages and the matrix all answer and show its error row (issue 9.3)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client

from checker.perf.hostile import write_hostile_files
from checker.suite import cases as cases_module
from checker.web import selfcheck

pytestmark = pytest.mark.django_db

BAD_CASES = """\
rulesets: [classic, erqiwang]
cases:
  - {id: h-seat-null, title: 座位为空, kind: declare, level: 2, cards: ♥2, seat: null, expect: {accepted: true}}
  - {id: h-list-in-rulesets, title: 规则集里有列表, kind: classify, rulesets: [[classic]], cards: ♠A, expect: {type: single}}
  - {id: h-number-for-cards, title: 牌是数字, kind: follow, lead: ♠A, hand: [10, 11], expect: {forced: 5}}
  - {id: h-date, title: 日期, kind: classify, cards: ♠A ♠A, note: 2024-01-01, expect: {type: 2024-01-02}}
  - {id: h-kelvin, title: 开尔文, kind: classify, cards: "\\u212a\\u212a", expect: {type: pair}}
  - {id: h-good, title: 好用例, kind: classify, cards: ♠A ♠A, expect: {type: pair}}
"""


@pytest.fixture
def hostile_cases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "cases"
    write_hostile_files(folder)
    shutil.copy(cases_module.CASES_DIR / "classic" / "01-classify.yaml", folder / "good.yaml")
    (folder / "bad-types.yaml").write_text(BAD_CASES, encoding="utf-8")
    monkeypatch.setattr(cases_module, "CASES_DIR", folder)
    monkeypatch.setattr(selfcheck, "WATCHED", [folder])
    selfcheck.clear_cache()
    yield folder
    selfcheck.clear_cache()


def test_dashboard_shows_every_bad_file_as_an_error_row(hostile_cases: Path) -> None:
    response = Client().get("/")
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("alias-bomb.yaml", "fifo.yaml", "link-to-zero.yaml", "too-big.yaml"):
        assert name in html, name
    for case_id in ("h-seat-null", "h-number-for-cards", "h-date", "h-kelvin"):
        assert case_id in html, case_id
    # The file's good case passes: it is folded with the passes, and found by a search.
    assert "h-good" in Client().get("/?q=h-good").content.decode()


@pytest.mark.parametrize("ruleset", ["classic", "erqiwang", "shuangsheng"])
def test_selfcheck_pages_answer(hostile_cases: Path, ruleset: str) -> None:
    response = Client().get(f"/rulesets/{ruleset}/selfcheck/")
    assert response.status_code == 200
    assert "alias-bomb.yaml" in response.content.decode()


@pytest.mark.parametrize(
    "case_id", ["h-seat-null", "h-list-in-rulesets", "h-number-for-cards", "h-date", "h-kelvin"]
)
def test_case_pages_of_bad_cases_answer_with_the_error(hostile_cases: Path, case_id: str) -> None:
    response = Client().get(f"/cases/classic/{case_id}/")
    assert response.status_code == 200, case_id
    assert case_id in response.content.decode()


def test_case_page_of_a_file_error_answers(hostile_cases: Path) -> None:
    run = selfcheck.get_run("classic")
    for error in run.file_errors:
        response = Client().get(f"/cases/-/{error.id}/")
        assert response.status_code == 200, error.id
        assert error.file.split("/")[-1] in response.content.decode()


def test_matrix_answers_and_shows_the_error_rows(hostile_cases: Path) -> None:
    response = Client().get("/matrix/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "h-seat-null" in html
    assert "alias-bomb.yaml" in html
