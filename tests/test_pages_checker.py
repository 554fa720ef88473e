"""The checker page and /api/check built from one judged scenario (issue 8, items 1, 3, 4, 5)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils.html import escape

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
DISPUTE = "/check/?ruleset=classic&level=2&trump=H&lead=SA+SQ+SQ&h1=SK+SK+S3+S4&p1=SK+SK"


def body(response) -> str:  # type: ignore[no-untyped-def]
    return response.content.decode()


def english() -> Client:
    client = Client()
    client.cookies["lang"] = "en"
    return client


def test_failed_throw_page_judges_the_follow_against_the_forced_cards() -> None:
    page = body(Client().get(DISPUTE))
    follow = page[page.index('data-testid="verdict-follow-1"') :]
    assert "✓ 合法" in follow.split("</section>")[0]
    assert 'data-testid="wins-1"' in page
    assert "按强制打出的牌判断" in page and "其余收回手中" in page
    assert "张数不符" not in page


def test_failed_throw_api_and_partial_agree_with_the_page() -> None:
    data = json.loads(Client().get(DISPUTE.replace("/check/", "/api/check")).content)
    assert data["follows"][0]["legal"] is True and data["trick"]["winner"] == 1
    partial = body(Client().get(DISPUTE, **HX))
    assert partial.lstrip().startswith('<div id="verdict"')
    assert 'id="summary"' in partial and 'hx-swap-oob="true"' in partial
    assert "甩牌失败，按 ♠Q♠Q 判断" in partial


def test_yaml_export_on_the_page_uses_the_forced_cards() -> None:
    page = body(Client().get(DISPUTE))
    yaml_text = re.search(r'data-testid="yaml-case">(.*?)</textarea>', page, re.S)
    assert yaml_text and "kind: throw" in yaml_text.group(1)
    assert "lead: ♠Q ♠Q" in yaml_text.group(1)


def test_summary_has_one_line_per_seat_with_words() -> None:
    page = body(Client().get(DISPUTE))
    summary = page[page.index('id="summary"') : page.index('<div class="check-grid">')]
    assert 'data-testid="summary-0"' in summary and 'data-testid="summary-1"' in summary
    assert "合法" in summary and "✓" in summary


def test_no_raw_codes_reach_the_reader() -> None:
    page = body(Client().get("/check/?level=2&trump=H&lead=SK+SK&h1=SQ+SQ+S3&p1=SQ+S3"))
    verdict = page[page.index('id="verdict"') : page.index('class="panel share"')]
    for code in ("must_play_pair", ">pair<", "<code>true</code>", "<code>[]</code>"):
        assert code not in verdict
    assert "有对子没出对子" in verdict


def test_follow_help_by_shape_beside_forced() -> None:
    page = body(Client().get("/check/?level=2&trump=H&lead=SA+SA+SK&h1=SQ+SQ+S3+S4+S5"))
    need = re.search(r'data-testid="need-1">(.*?)</span>', page)
    assert need and need.group(1) == "须出：一对♠ + 任意 1 张♠"
    en = body(english().get("/check/?level=2&trump=H&lead=SA+SA+SK&h1=SQ+SQ+S3+S4+S5"))
    need = re.search(r'data-testid="need-1">(.*?)</span>', en)
    assert need and need.group(1) == "Must play: a ♠ pair + any 1 ♠"


def test_bad_token_error_names_the_seat_not_the_parameter() -> None:
    response = Client().get("/check/?level=2&trump=H&lead=SK&h1=SQ+ZZ")
    assert response.status_code == 400
    error = re.search(r'data-testid="verdict-error">(.*?)</div>', body(response), re.S)
    assert error and "玩家 1 的手牌" in error.group(1) and "h1:" not in error.group(1)
    en = body(english().get("/check/?level=2&trump=H&lead=SK&h1=SQ+ZZ"))
    assert "player 1&#x27;s hand" in en and "unknown card “ZZ”" in en


def test_banker_parameter_is_read_and_kept_in_the_permalink() -> None:
    query = "/check/?ruleset=shuangsheng&level=2&trump=H&lead=SA+SQ+SQ&h1=SK+SK+S3+S4&banker=1"
    page = body(Client().get(query))
    assert "从闲家得分中扣除" in page
    assert "banker=1" in re.search(r'data-testid="permalink">([^<]*)<', page).group(1)
    assert 'value="1" selected' in page
    bad = Client().get(query.replace("banker=1", "banker=9"))
    assert bad.status_code == 400 and "庄家座位" in body(bad)


def test_ruleset_change_keeps_the_cards_the_new_deck_has() -> None:
    response = Client().get(
        "/check/?from=classic&ruleset=erqiwang&level=2&trump=H&lead=S3+S3&h1=SK+SK+S4&h3=SA"
    )
    assert response.status_code == 200
    page = body(response)
    notice = re.search(r'data-testid="ruleset-notice">(.*?)</div>', page, re.S)
    assert notice and "♠3 ♠3" in notice.group(1) and "♠4" in notice.group(1)
    assert "玩家 3 的手牌" in notice.group(1)  # 二七王 has three players
    assert 'value="SK SK"' in page


def test_matrix_reads_the_scenario_with_the_same_form() -> None:
    response = Client().get("/matrix/?lead=SA&h1=" + "S" * 400)
    assert response.status_code == 400
    assert "太长" in body(response)


def test_api_reports_too_long_parameters_in_both_languages() -> None:
    response = Client().get("/api/check?lead=" + "SA+" * 200)
    data = json.loads(response.content)
    assert response.status_code == 400 and data["field"] == "lead"
    assert "太长" in data["error"] and "too long" in data["error_en"]


@pytest.mark.parametrize("name", ["classic", "erqiwang", "shuangsheng"])
def test_rules_page_summary_options_and_conflicts_in_english(name: str) -> None:
    from checker.engine.ruleset import load_ruleset

    rs = load_ruleset(name)
    notes = [" ".join(n.split()) for n in rs.conflicts]
    # Every English note belongs to a Chinese one (matched by its start), none is left over.
    for start, _english in rs.conflicts_en:
        assert any(n.startswith(start) for n in notes), start
    assert len(rs.conflicts_en) >= 3
    page = body(english().get(f"/rulesets/{name}/"))
    assert rs.description_en[:40] in page
    for note in rs.conflicts:
        shown = rs.conflict_in(note, "en")
        assert escape(shown[:30]) in page
        if shown != note:
            assert escape(note[:20]) not in page
    chinese = body(Client().get(f"/rulesets/{name}/"))
    assert rs.description.split()[0][:20] in chinese


def test_permalink_and_qr_use_the_host_the_page_was_served_on(settings) -> None:  # type: ignore[no-untyped-def]
    settings.ALLOWED_HOSTS = ["192.168.1.20", "testserver"]
    page = body(Client().get(DISPUTE, HTTP_HOST="192.168.1.20:8000"))
    link = re.search(r'data-testid="permalink">([^<]*)<', page)
    assert link and link.group(1).startswith("http://192.168.1.20:8000/check/?")
    qr = re.search(r'<img src="([^"]+)"[^>]*data-testid="qr"', page)
    assert qr and qr.group(1).startswith("/check/qr.svg?")
    image = Client().get(qr.group(1).replace("&amp;", "&"), HTTP_HOST="192.168.1.20:8000")
    assert image.status_code == 200 and image["Content-Type"] == "image/svg+xml"
    assert b"<svg" in image.content


@pytest.mark.parametrize(("ruleset", "level"), [("classic", "2"), ("multideck", "3")])
def test_a_fresh_checker_offers_the_rulesets_default_level(ruleset: str, level: str) -> None:
    page = body(Client().get(f"/check/?ruleset={ruleset}"))
    select = page[page.index('id="f-level"') :]
    select = select[: select.index("</select>")]
    assert re.findall(r'<option value="(\w+)" selected>', select) == [level]
    assert re.search(r'<option value="H"[^>]* selected', page)  # the default trump, ♥
