"""English all the way (issue 26.4): every page in English, and the terminal's `--lang en`, shows
no Han character outside what is quoted from a source and marked `lang="zh-Hans"`; case titles and
categories are the files' English ones, never quoted Chinese."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.test import Client

from checker.engine.ruleset import ruleset_names
from tests.test_pages_english import chinese_outside_marks
from tests.test_play_views import move_fields, position, post_move, start

pytestmark = pytest.mark.django_db

HAN = re.compile(r"[\u3400-\u9fff]")
CASES = Path(__file__).resolve().parents[1] / "cases"


def _first_cases() -> list[tuple[str, str, str, str]]:
    """The first case of every case file: (ruleset, id, title_en, category_en)."""
    out = []
    for path in sorted(CASES.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        case = data["cases"][0]
        names = case.get("rulesets") or data.get("rulesets") or ["classic"]
        out.append((names[0], case["id"], case["title_en"], data["category_en"]))
    return out


def english_client() -> Client:
    client = Client()
    client.cookies["lang"] = "en"
    return client


def han_outside_marks(client: Client, path: str) -> list[str]:
    response: Any = client.get(path)
    assert response.status_code in (200, 400), (path, response.status_code)
    return chinese_outside_marks(response.content.decode(), HAN)


def test_the_audit_catches_han_only() -> None:
    html = '<p>Round over：</p><p lang="zh-Hans">出处</p><p>小光 4</p>'
    assert chinese_outside_marks(html, HAN) == ["小光 4"]


@pytest.mark.parametrize("name", ruleset_names())
def test_dashboard_and_rules_of_every_ruleset(name: str) -> None:
    client = english_client()
    pages = [
        f"/rulesets/{name}/selfcheck/",
        f"/rulesets/{name}/selfcheck/?status=pass",
        f"/rulesets/{name}/",
        f"/check/?ruleset={name}&trump=S&lead=SA+SA&h1=SK+SK+S5&p1=SK+S5",
    ]
    found = {p: han_outside_marks(client, p) for p in pages}
    assert found == {p: [] for p in pages}


def test_dashboard_names_categories_and_cases_in_english() -> None:
    html = english_client().get("/").content.decode()
    # The tiles, the category filter and the section headings carry the files' English names.
    assert '<span class="name">Classifying plays</span>' in html
    assert ">Kitty multiplier (more)</option>" in html
    folded = english_client().get("/?category=%E7%89%8C%E5%9E%8B%E8%AF%86%E5%88%AB")
    text = folded.content.decode()
    assert "Two cards of one rank and suit = a pair" in text
    assert "同点同花色两张" not in text


@pytest.mark.parametrize(("ruleset", "case_id", "title_en", "category_en"), _first_cases())
def test_the_first_case_page_of_every_file(
    ruleset: str, case_id: str, title_en: str, category_en: str
) -> None:
    client = english_client()
    path = f"/cases/{ruleset}/{case_id}/"
    assert han_outside_marks(client, path) == []
    html = client.get(path).content.decode()
    assert f"<h1>{_escaped(title_en)}</h1>" in html


def _escaped(text: str) -> str:
    from django.utils.html import escape

    return str(escape(text))


def test_checker_matrix_and_lobby() -> None:
    client = english_client()
    pages = [
        "/check/",
        "/check/?ruleset=classic&level=2&trump=H&lead=SA+SQ+SQ&h1=SK+SK+S3+S4&p1=SK+SK",
        "/check/?ruleset=erqiwang&trump=S&lead=BJ+BJ+LJ&h1=LJ+S3+S4&p1=LJ+S3+S4",
        "/matrix/",
        "/matrix/?only=diff",
        "/matrix/?lead=SA+SA&h1=SK+SK+S3&p1=SK+SK",
        "/play/",
    ]
    found = {p: han_outside_marks(client, p) for p in pages}
    assert found == {p: [] for p in pages}
    matrix = client.get("/matrix/").content.decode()
    assert "♥7♥7: a heart pair in classic and shuangsheng, a trump pair in erqiwang" in matrix


def test_simulation_pages_with_stored_runs() -> None:
    out = io.StringIO()
    for name in ("classic", "erqiwang"):
        common = ("--ruleset", name, "--seed", "1", "--no-progress")
        call_command("simulate", *common, "--rounds", "12", stdout=out, stderr=out)
        call_command("simulate", *common, "--matches", "2", stdout=out, stderr=out)
    client = english_client()
    for path in ("/simulation/", "/", "/rulesets/erqiwang/selfcheck/"):
        assert han_outside_marks(client, path) == [], path
    html = client.get("/simulation/").content.decode()
    assert "level up" in html and ("seats 0+2" in html or "seats 1+3" in html)
    chinese = Client().get("/simulation/").content.decode()
    assert "seats " not in chinese and "座位 " in chinese


@pytest.mark.parametrize(
    ("ruleset", "bid"),
    [("classic", "pass"), ("erqiwang", "low"), ("shuangsheng", "pass"), ("multideck", "pass")],
)
def test_a_whole_round_at_the_table_then_its_replay_and_match(ruleset: str, bid: str) -> None:
    client = english_client()
    game = start(client, f"/play/?ruleset={ruleset}&seed=4&seat=0&bots=greedy")
    table = f"/play/{game.key}/"
    found: dict[str, str] = {}
    for _ in range(200):
        for text in han_outside_marks(client, table):
            found.setdefault(text, table)
        pos = position(game)
        if pos.ask is None:
            break
        answer: Any = post_move(client, game, **move_fields(pos, bid))
        for text in chinese_outside_marks(answer.content.decode(), HAN):
            found.setdefault(text, "the move's answer")
    assert position(game).ask is None, "the round did not end"
    for path in (f"/play/{game.key}/replay", f"/play/{game.key}/match"):
        for text in han_outside_marks(client, path):
            found.setdefault(text, path)
    assert found == {}


def _terminal(monkeypatch: pytest.MonkeyPatch, typed: str, *args: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    out = io.StringIO()
    call_command("play", *args, "--lang", "en", stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("ruleset", ruleset_names())
@pytest.mark.parametrize("colour", [True, False])
def test_the_terminal_in_english(
    monkeypatch: pytest.MonkeyPatch, ruleset: str, colour: bool
) -> None:
    flags = () if colour else ("--no-color",)
    common = ("--ruleset", ruleset, "--seed", "3", "--bots", "greedy", *flags)
    whole = _terminal(monkeypatch, "", *common, "--autoplay")
    typed = "hint\nlast\nxx\nzz9\nreview\npass\nhint\nquit\n"
    human = _terminal(monkeypatch, typed, *common, "--human-seat", "0")
    lines = [line for line in (whole + human).splitlines() if HAN.search(line)]
    assert lines == []
    assert "Refused: unknown card “xx”" in human or "cannot read “xx”" in human
    if colour:
        assert "BJ" in whole + human or "LJ" in whole + human


def test_the_workshop_and_the_studies_pages() -> None:
    from tests.test_studies_page import run_to_the_end, start
    from tests.test_workshop import save, seed_003_data

    client = english_client()
    name = save(client, seed_003_data())
    study = start(client, arm1=name)
    run_to_the_end(client, study)
    pages = [
        "/rulesets/new/?base=classic",
        "/rulesets/new/?base=terminal-003",
        f"/rulesets/new/?base=classic&saved={name}",
        f"/rulesets/{name}/",
        "/studies/",
        f"/studies/?arm=classic&arm={name}",
        f"/studies/{study.pk}/",
    ]
    found = {p: han_outside_marks(client, p) for p in pages}
    assert found == {p: [] for p in pages}
    preview = client.post(
        "/rulesets/new/?base=classic", seed_003_data(), headers={"HX-Request": "true"}
    )
    assert chinese_outside_marks(preview.content.decode(), HAN) == []
    bad = client.post("/rulesets/new/?base=classic", {**seed_003_data(), "kitty_size": "7"})
    assert chinese_outside_marks(bad.content.decode(), HAN) == []
    assert "cannot be shared" in bad.content.decode()
