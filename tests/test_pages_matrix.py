"""View tests of the variant matrix (/matrix/): full page, htmx partials, scenarios, bad input."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.test import Client

from checker.engine.ruleset import load_ruleset, ruleset_names
from checker.scenarios.matrix import case_matrix
from checker.web import selfcheck
from checker.web.matrixpage import matrix_report

HX_CASES = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "case-matrix"}
HX_SCENARIO = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "scenario-result"}
# ♥8♥8♥6♥6 at level 9, trump ♠: a tractor only in 二七王 (its 7s are trump), a throw elsewhere.
SCENARIO = "level=9&trump=S&lead=H8+H8+H6+H6&h1=H5+H5+HA+HQ&p1=H5+H5+HA+HQ"


@pytest.fixture
def client() -> Client:
    return Client()


@pytest.fixture(scope="module")
def rows() -> list:  # type: ignore[type-arg]
    return case_matrix(matrix_report())


def html(response) -> str:  # type: ignore[no-untyped-def]
    return response.content.decode()


def count_rows(body: str) -> int:
    return body.count('data-testid="matrix-row"')


# --- the case matrix ------------------------------------------------------------------


def test_full_page_has_one_row_per_case_and_one_column_per_ruleset(
    client: Client, rows: list
) -> None:  # type: ignore[type-arg]
    response = client.get("/matrix/")
    assert response.status_code == 200
    body = html(response)
    assert "<!doctype html>" in body.lower()
    assert count_rows(body) == len(rows)
    for name in ruleset_names():
        assert load_ruleset(name).title in body
    # Every row has one cell per ruleset.
    assert body.count('data-testid="matrix-cell"') == len(rows) * len(ruleset_names())
    assert re.search(r'<a href="/matrix/" aria-current="page">', body)


def test_differing_cells_are_marked_not_by_colour_alone(client: Client, rows: list) -> None:  # type: ignore[type-arg]
    if not any(r.differs for r in rows):
        pytest.skip("no cross-ruleset case differs")
    body = html(client.get("/matrix/"))
    assert 'data-odd="1"' in body
    assert "≠ 与其他规则不同" in body  # a text badge on the odd cell
    assert 'class="diff"' in body  # the odd value itself, with its ≠ marker (CSS)
    assert "不同：" in body  # the row names the keys that differ


def test_each_cell_has_its_explanation_and_links(client: Client, rows: list) -> None:  # type: ignore[type-arg]
    row = rows[0]
    body = html(client.get("/matrix/?q=" + quote(row.id)))
    assert count_rows(body) == 1
    assert body.count('data-testid="matrix-explain"') == len(row.cells)
    for name, result in row.cells.items():
        assert f'href="/cases/{name}/{result.id}/"' in body
        if result.explanation:
            first_line = result.explanation.splitlines()[0]
            assert first_line[:20].replace("<", "&lt;").replace(">", "&gt;") in body


def test_only_differing_rows(client: Client, rows: list) -> None:  # type: ignore[type-arg]
    body = html(client.get("/matrix/?only=diff"))
    assert count_rows(body) == sum(r.differs for r in rows)
    assert 'data-differs="0"' not in body
    assert 'id="m-only" checked' in body


def test_kind_filter(client: Client, rows: list) -> None:  # type: ignore[type-arg]
    kind = rows[0].kind
    body = html(client.get("/matrix/?kind=" + kind))
    assert count_rows(body) == sum(r.kind == kind for r in rows)


def test_no_match_says_so(client: Client) -> None:
    response = client.get("/matrix/?q=no-such-case-anywhere")
    assert response.status_code == 200
    assert "没有符合筛选条件的用例" in html(response)


def test_htmx_cases_partial_keeps_the_scenario_form_in_sync(client: Client) -> None:
    response = client.get("/matrix/?only=diff&" + SCENARIO, **HX_CASES)
    assert response.status_code == 200
    body = html(response)
    assert body.lstrip().startswith('<div id="case-matrix"')
    assert "<html" not in body
    # The scenario form learns the new filters out of band.
    assert (
        '<span id="keep-filters" hx-swap-oob="true"><input type="hidden" name="only" value="diff">'
        in body
    )
    assert 'id="scenario-result"' not in body


def test_htmx_scenario_partial_keeps_the_filter_form_in_sync(client: Client) -> None:
    response = client.get("/matrix/?only=diff&" + SCENARIO, **HX_SCENARIO)
    assert response.status_code == 200
    body = html(response)
    assert body.lstrip().startswith('<div id="scenario-result"')
    assert "<html" not in body
    assert 'data-testid="matrix-row"' not in body
    assert '<span id="keep-scenario" hx-swap-oob="true">' in body
    assert '<input type="hidden" name="lead" value="H8 H8 H6 H6">' in body


# --- one scenario under every ruleset -------------------------------------------------


def _scenario_columns(body: str) -> dict[str, str]:
    """Each ruleset column header of the scenario table, by ruleset name."""
    return dict(
        re.findall(r'<th scope="col" class="[^"]*" data-ruleset="([\w-]+)">(.*?)</th>', body, re.S)
    )


def test_scenario_under_every_ruleset(client: Client) -> None:
    response = client.get("/matrix/?" + SCENARIO)
    assert response.status_code == 200
    body = html(response)
    columns = _scenario_columns(body)
    assert set(columns) == set(ruleset_names())
    assert "≠ 与其他规则不同" in columns["erqiwang"]
    assert "≠" not in columns["classic"]
    assert "没有级牌" in columns["erqiwang"]  # the level is ignored, and the page says so
    lead_row = re.search(r'<tr class="differs" data-key="lead.type">(.*?)</tr>', body, re.S)
    assert lead_row, "the lead type differs between the rulesets"
    assert "拖拉机" in lead_row.group(1) and "甩牌" in lead_row.group(1)
    assert body.count('data-testid="scenario-explain"') == len(ruleset_names())
    assert "/check/?ruleset=erqiwang&amp;level=9&amp;trump=S&amp;lead=H8+H8+H6+H6" in body
    # The form shows the scenario that was judged.
    lead_input = re.search(r'<input type="text" id="m-lead" name="lead"[^>]*>', body)
    assert lead_input and 'value="H8 H8 H6 H6"' in lead_input.group(0)
    assert '<option value="S" selected>' in body


def test_scenario_with_a_fourth_player_drops_it_for_three_player_rulesets(client: Client) -> None:
    response = client.get("/matrix/?trump=H&lead=SA&h1=SK+S5&h2=S6+S8&h3=SQ+S9&p3=SQ")
    assert response.status_code == 200
    columns = _scenario_columns(html(response))
    three = [n for n in ruleset_names() if load_ruleset(n).players == 3]
    for name in three:
        assert "忽略玩家 3" in columns[name]
        assert "不适用" not in columns[name]


def test_scenario_card_missing_from_one_deck_is_not_applicable_there(client: Client) -> None:
    response = client.get("/matrix/?level=2&trump=H&lead=S3+S3")
    assert response.status_code == 200
    columns = _scenario_columns(html(response))
    assert "不适用" in columns["erqiwang"] and "♠3" in columns["erqiwang"]
    assert "不适用" not in columns["classic"]


def test_checker_links_to_the_matrix_with_its_scenario(client: Client) -> None:
    body = html(
        client.get("/check/?ruleset=classic&options=enhanced_joker_override:true&" + SCENARIO)
    )
    link = re.search(r'href="([^"]+)" data-testid="matrix-link"', body)
    assert link
    url = link.group(1).replace("&amp;", "&")
    assert url.startswith("/matrix/?") and url.endswith("#scenario")
    assert "ruleset=" not in url and "options=" not in url
    assert "lead=H8+H8+H6+H6" in url
    response = client.get(url.split("#")[0])
    assert response.status_code == 200
    assert "≠ 与其他规则不同" in html(response)


def test_case_row_offers_its_scenario(client: Client, rows: list) -> None:  # type: ignore[type-arg]
    row = next((r for r in rows if r.kind in ("classify", "follow", "throw", "trick")), None)
    if row is None:
        pytest.skip("no cross-ruleset case of a checker kind")
    body = html(client.get("/matrix/?q=" + quote(row.id)))
    link = re.search(r'href="(/matrix/\?[^"]+#scenario)"', body)
    assert link
    response = client.get(link.group(1).replace("&amp;", "&").split("#")[0])
    assert response.status_code == 200
    assert 'data-testid="scenario-cell"' in html(response)


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "testid", "needle"),
    [
        ("only=maybe", "filter-error", "maybe"),
        ("kind=nope", "filter-error", "nope"),
        ("q=" + "x" * 101, "filter-error", "太长"),
        ("lead=ZZ", "scenario-error", "ZZ"),
        ("lead=" + "SA+" * 120, "scenario-error", "lead"),
        ("h1=SA+SK", "scenario-error", "lead"),
        ("trump=X&lead=SA", "scenario-error", "X"),
        ("lead=SA&h1=SA+SA+SA", "scenario-error", "♠A"),  # more copies than any ruleset holds
        ("&".join(f"x{i}=1" for i in range(45)), "scenario-error", "参数太多"),
        ("lead=%3Cscript%3E", "scenario-error", "&lt;script&gt;"),
    ],
)
def test_bad_input_is_400_with_a_clear_message(
    client: Client, query: str, testid: str, needle: str
) -> None:
    response = client.get("/matrix/?" + query)
    assert response.status_code == 400
    body = html(response)
    assert f'data-testid="{testid}"' in body
    assert needle in body
    assert "<script>" not in body


def test_bad_input_in_htmx_partials_is_400(client: Client) -> None:
    response = client.get("/matrix/?only=maybe", **HX_CASES)
    assert response.status_code == 400
    assert html(response).lstrip().startswith('<div id="case-matrix"')
    response = client.get("/matrix/?lead=ZZ", **HX_SCENARIO)
    assert response.status_code == 400
    assert 'data-testid="scenario-error"' in html(response)
    # A bad scenario does not fail the filter partial, and the other way round.
    assert client.get("/matrix/?lead=ZZ", **HX_CASES).status_code == 200
    assert client.get("/matrix/?only=maybe&" + SCENARIO, **HX_SCENARIO).status_code == 200


def test_post_is_not_allowed(client: Client) -> None:
    assert client.post("/matrix/").status_code in (403, 405)


def test_english_matrix(client: Client) -> None:
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    body = html(client.get("/matrix/?" + SCENARIO))
    assert "Rulesets side by side" in body
    assert "differs from the other rulesets" in body
    differing = re.search(r'data-testid="scenario-differing">(.*?)</p>', body, re.S)
    assert differing and "、" not in differing.group(1) and "Lead type, " in differing.group(1)
    assert "打9" not in body.split('data-testid="scenario-result"')[1].split("<tbody>")[0]


def test_matrix_uses_the_cached_runs() -> None:
    report = matrix_report()
    assert {r.ruleset for r in report.results} <= set(ruleset_names())
    assert len(report.results) == sum(len(selfcheck.get_run(n).results) for n in ruleset_names())
