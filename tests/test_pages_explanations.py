"""The engine's explanations on the pages: English on English pages, Chinese otherwise.

Every place that shows an explanation (checker verdict, case page, matrix cells and the
scenario under every ruleset, the rules page's deal heading and level table) is fetched in
both languages.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from checker.web import selfcheck

pytestmark = pytest.mark.django_db

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
EXPLAIN = re.compile(r'<p class="explain"[^>]*>(.*?)</p>', re.S)
HX = {"HTTP_HX_REQUEST": "true"}
# A throw that fails (♠K♠K beats ♠Q♠Q): the follows are judged against the forced ♠Q♠Q.
CHECK = (
    "/check/?ruleset=classic&level=2&trump=H&lead=SA+SA+SQ+SQ"
    "&h1=S4+S4+S5+H3+H4&p1=S4+S5&h2=SK+SK+S9+S8+C3"
    "&p2=S9+C3&p3=H5+H5"
)


def client_for(lang: str) -> Client:
    client = Client()
    if lang == "en":
        client.cookies["lang"] = "en"
    return client


def explanations(body: str) -> list[str]:
    return [re.sub(r"<[^>]+>", " ", text) for text in EXPLAIN.findall(body)]


@pytest.mark.parametrize("headers", [{}, HX])
def test_english_checker_shows_english_reasons(headers: dict[str, str]) -> None:
    response = client_for("en").get(CHECK, **headers)
    assert response.status_code == 200
    texts = explanations(response.content.decode())
    assert len(texts) == 6  # the lead, the throw, three follows and the trick
    for text in texts:
        assert text.strip() and not CJK.search(text), text
    joined = "\n".join(texts)
    assert "so they are a throw" in joined
    assert "The throw fails" in joined
    assert "Must follow suit" in joined
    assert "Must play pairs when holding them" in joined
    assert "No hand was given" in joined
    assert "Play 3: void in the led suit, ruffs with trumps" in joined


def test_chinese_checker_keeps_chinese_reasons() -> None:
    texts = explanations(client_for("zh").get(CHECK).content.decode())
    assert texts and all(CJK.search(text) for text in texts)
    assert any(text.startswith("必须跟花色") for text in texts)


def test_api_has_both_languages() -> None:
    data = client_for("en").get("/api/check?" + CHECK.split("?", 1)[1]).json()
    follow = data["follows"][1]
    assert follow["explanation"].startswith("必须跟花色")
    assert follow["explanation_en"].startswith("Must follow suit")


def test_case_page_in_both_languages() -> None:
    result = next(r for r in selfcheck.get_run("classic").results if r.kind == "trick")
    url = f"/cases/classic/{result.id}/"
    english = client_for("en").get(url).content.decode()
    chinese = client_for("zh").get(url).content.decode()
    shown = re.search(r'data-testid="explanation">(.*?)</p>', english, re.S)
    assert shown and shown.group(1).startswith("Lead: ") and not CJK.search(shown.group(1))
    shown = re.search(r'data-testid="explanation">(.*?)</p>', chinese, re.S)
    assert shown and shown.group(1).startswith("领牌：")


def test_matrix_explanations_in_english() -> None:
    body = client_for("en").get("/matrix/?lead=SA+SA&h1=S3+S3+S5&p1=S3+S5").content.decode()
    texts = explanations(body)
    assert texts
    for text in texts:
        assert not CJK.search(text), text
    assert any("Must play pairs" in text for text in texts)
    chinese = explanations(client_for("zh").get("/matrix/").content.decode())
    assert chinese and all(CJK.search(text) for text in chinese)


def test_rules_page_deal_and_level_table_in_english() -> None:
    english = client_for("en").get("/rulesets/classic/?level=2&trump=H").content.decode()
    assert "level 2, ♥ trump" in english and "打2" not in english
    table = english[english.index('data-testid="score-table"') :].split("</table>")[0]
    assert "Big sweep" in table and not CJK.search(table)
    chinese = client_for("zh").get("/rulesets/classic/?level=2&trump=H").content.decode()
    table = chinese[chinese.index('data-testid="score-table"') :].split("</table>")[0]
    assert "打2，主♥" in chinese and "大光" in table
