"""The dashboard headline keeps the seed's own rows apart from the project's cases."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from checker.suite.seedcheck import SEED_SELF_CHECKS, parse_seed_row
from checker.web import selfcheck

pytestmark = pytest.mark.django_db
SEED = "000_5d8e95ec3e6da488.txt"


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_classic_headline_counts_seed_rows_and_project_cases_apart() -> None:
    run = selfcheck.get_run("classic")
    seed = run.seed
    assert seed is not None
    html = Client().get("/").content.decode()
    headline = _text(html.split('data-testid="headline"', 1)[1].split("</h1>", 1)[0])
    assert f"种子自检 {seed.passed}/167" in headline
    assert f"补充用例 {seed.extra_passed}/{seed.extra_total}" in headline
    rows = sum(parse_seed_row(r.source) is not None for r in [*run.results, *run.file_errors])
    assert seed.extra_total == len(run.results) + len(run.file_errors) - rows


def test_classic_lists_the_seeds_14_categories_in_the_seeds_order() -> None:
    html = Client().get("/").content.decode()
    table = html.split('data-testid="seed-table"', 1)[1].split("</section>", 1)[0]
    names = re.findall(r'<th scope="row">([^<]+)</th>', table)
    assert names == [name for name, _ in SEED_SELF_CHECKS[SEED]]


def test_english_headline() -> None:
    client = Client()
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    html = client.get("/").content.decode()
    assert "Seed self-check" in html and "Project cases" in html


@pytest.mark.parametrize("name", ["erqiwang", "shuangsheng"])
def test_rulesets_whose_seed_has_no_table_say_so(name: str) -> None:
    html = Client().get(f"/rulesets/{name}/selfcheck/").content.decode()
    assert 'data-testid="seed-none"' in html and "没有自带自检表" in html
    assert 'data-testid="seed-table"' not in html
    assert "引擎自检" in html
