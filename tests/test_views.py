"""View tests: every page and partial, full page vs htmx partial, status codes, bad input."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from django.test import Client

from checker.web import selfcheck

# The self-check page shows the latest stored simulation run.
pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
CHECK = (
    "/check/?ruleset=classic&level=2&trump=H&lead=SK+SK"
    "&h1=SQ+SQ+S10+S5&p1=SQ+SQ&h2=SA+S3+D4&p2=S3+D4"
)


@pytest.fixture
def client() -> Client:
    return Client()


@pytest.fixture(scope="module")
def run() -> selfcheck.Run:
    return selfcheck.get_run("classic")


def html(response) -> str:  # type: ignore[no-untyped-def]
    return response.content.decode()


# --- dashboard -------------------------------------------------------------------------


def test_dashboard_shows_counts_and_tables(client: Client, run: selfcheck.Run) -> None:
    response = client.get("/")
    assert response.status_code == 200
    body = html(response)
    assert run.seed is not None
    assert f"种子自检 {run.seed.passed}/{run.seed.rows}" in body
    assert f"补充用例 {run.seed.extra_passed}/{run.seed.extra_total}" in body
    assert body.count('data-testid="tile"') == len(run.categories())
    # Passing rows are folded per category, each with a real link as the fallback.
    assert body.count('data-testid="fold"') == len(run.categories())
    assert body.count('data-testid="fold-link"') == len(run.categories())
    assert "<!doctype html>" in body.lower()
    category, items = run.categories()[0]
    opened = html(client.get(f"/?category={quote(category)}&status=pass&part=rows", **HX))
    for column in ("用例", "输入", "期望", "实际", "结果"):
        assert f">{column}</th>" in opened
    assert 'class="card' in opened  # cards drawn as chips
    assert opened.count('data-testid="case-row"') == sum(r.status == "pass" for r in items)


def test_selfcheck_page_per_ruleset(client: Client) -> None:
    response = client.get("/rulesets/classic/selfcheck/")
    assert response.status_code == 200
    assert 'aria-current="page"' in html(response)


def test_dashboard_htmx_returns_results_partial(client: Client) -> None:
    response = client.get("/rulesets/classic/selfcheck/?status=pass", **HX)
    assert response.status_code == 200
    body = html(response)
    assert body.lstrip().startswith('<div id="results"')
    assert "<html" not in body


def test_filter_by_status_and_category(client: Client, run: selfcheck.Run) -> None:
    body = html(client.get("/?status=pass"))
    assert body.count('data-testid="fold"') == len(run.categories())
    assert f"显示 {run.passed} / {run.total} 个用例" in body
    category, items = run.categories()[0]
    body = html(client.get("/?category=" + quote(category)))
    assert body.count('data-testid="case-row"') == len(items)


def test_filter_by_text(client: Client, run: selfcheck.Run) -> None:
    first = run.results[0]
    body = html(client.get("/?q=" + quote(first.id)))
    assert f'id="case-{first.id}"' in body
    assert body.count('data-testid="case-row"') >= 1


def test_rows_have_permalink_anchors_and_case_links(client: Client, run: selfcheck.Run) -> None:
    r = run.results[0]
    body = html(client.get("/?category=" + quote(r.category)))
    assert f'id="case-{r.id}"' in body
    assert f'href="#case-{r.id}"' in body
    assert f'href="/cases/classic/{r.id}/"' in body


def test_dashboard_first_load_is_light_with_failures_first(
    client: Client, failing_run: selfcheck.Run
) -> None:
    body = html(client.get("/"))
    attention = body.index('data-testid="attention"')
    assert body.index('id="case-demo-fail"') > attention
    assert 'id="case-demo-pass"' not in body  # folded until opened
    assert 'data-testid="clear-filters"' in body  # always there


@pytest.mark.parametrize("ruleset", ["classic", "erqiwang", "shuangsheng"])
def test_dashboard_first_load_is_under_100_kb(client: Client, ruleset: str) -> None:
    response = client.get(f"/rulesets/{ruleset}/selfcheck/")
    assert response.status_code == 200
    assert len(response.content) < 100_000


def test_search_typing_replaces_the_history_entry(client: Client) -> None:
    first = client.get("/?q=p", HTTP_HX_TRIGGER="f-q", HTTP_HX_CURRENT_URL="http://x/", **HX)
    assert first["HX-Push-Url"].endswith("?q=p")
    more = client.get("/?q=pa", HTTP_HX_TRIGGER="f-q", HTTP_HX_CURRENT_URL="http://x/?q=p", **HX)
    assert "HX-Push-Url" not in more and more["HX-Replace-Url"].endswith("?q=pa")
    picked = client.get("/?q=pa&status=pass", HTTP_HX_CURRENT_URL="http://x/?q=pa", **HX)
    assert "status=pass" in picked["HX-Push-Url"]


@pytest.mark.parametrize(
    "query",
    ["status=bogus", "category=%E6%B2%A1%E6%9C%89", "q=" + "x" * 500],
)
def test_bad_filters_are_400_with_message(client: Client, query: str) -> None:
    response = client.get("/?" + query)
    assert response.status_code == 400
    assert 'class="message error"' in html(response)


def test_unknown_ruleset_is_404(client: Client) -> None:
    for url in ("/rulesets/nope/selfcheck/", "/rulesets/nope/", "/rulesets/..%2F..%2Fetc/"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "message error" in html(response)


# --- case page ---------------------------------------------------------------------------


def test_case_page(client: Client, run: selfcheck.Run) -> None:
    r = next(x for x in run.results if x.kind == "follow")
    response = client.get(f"/cases/classic/{r.id}/")
    assert response.status_code == 200
    body = html(response)
    assert r.title in body
    assert r.file in body
    assert 'data-testid="yaml-source"' in body
    assert 'data-testid="open-in-checker"' in body
    assert "/check/?ruleset=classic" in body


def test_case_page_unknown_case_is_404(client: Client) -> None:
    assert client.get("/cases/classic/no-such-case/").status_code == 404
    assert client.get("/cases/nope/x/").status_code == 404
    assert client.get("/cases/classic/%3Cscript%3E/").status_code == 404


def test_open_in_checker_reproduces_the_case(client: Client, run: selfcheck.Run) -> None:
    r = next(x for x in run.results if x.kind == "follow" and "play" in x.input)
    body = html(client.get(f"/cases/classic/{r.id}/"))
    start = body.index('href="/check/?') + len('href="')
    url = body[start : body.index('"', start)].replace("&amp;", "&")
    response = client.get(url)
    assert response.status_code == 200
    assert 'data-testid="verdict-follow-1"' in html(response)


# --- rules page --------------------------------------------------------------------------


def test_rules_page(client: Client) -> None:
    response = client.get("/rulesets/classic/")
    assert response.status_code == 200
    body = html(response)
    assert 'data-testid="ladder"' in body
    assert "大王" in body and "Big Joker" in body  # ladder and glossary
    assert 'data-testid="score-table"' in body


def test_rules_ladder_partial_and_bad_level(client: Client) -> None:
    response = client.get("/rulesets/classic/?level=5&trump=none", **HX)
    assert response.status_code == 200
    assert html(response).lstrip().startswith('<div id="ladder"')
    response = client.get("/rulesets/classic/?level=Z")
    assert response.status_code == 400
    assert "message error" in html(response)


# --- checker -----------------------------------------------------------------------------


def test_checker_empty_page(client: Client) -> None:
    response = client.get("/check/")
    assert response.status_code == 200
    body = html(response)
    assert 'id="check-form"' in body and 'id="verdict"' in body


def test_checker_renders_verdict_server_side(client: Client) -> None:
    response = client.get(CHECK)
    assert response.status_code == 200
    body = html(response)
    assert 'data-testid="verdict-lead"' in body
    assert 'data-testid="legal-1"' in body and "✓" in body
    assert "must_follow_suit" in body
    assert 'data-testid="verdict-trick"' in body
    assert 'data-testid="qr"' in body and "/check/qr.svg?" in body  # QR code
    assert "kind: follow" in body  # YAML case


def test_checker_htmx_partial(client: Client) -> None:
    response = client.get(CHECK, **HX)
    assert response.status_code == 200
    body = html(response)
    assert body.lstrip().startswith('<div id="verdict"')
    assert "<form" not in body
    assert response["HX-Push-Url"].startswith("/check/?ruleset=classic")


def test_checker_permalink_is_canonical_ascii(client: Client) -> None:
    response = client.get("/check/?lead=%E2%99%A0K%E2%99%A0K&trump=H&level=2&ruleset=classic")
    body = html(response)
    assert "lead=SK+SK" in body


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("ruleset=nope&lead=SA", "ruleset"),
        ("lead=XX", "lead"),
        ("lead=SA&h1=S3+Z9", "h1"),
        ("lead=SA&level=1", "level"),
        ("lead=SA&trump=Q", "trump"),
        ("lead=SA+SA+SA", "cards"),
        ("lead=SA&h9=S3", "h9"),
        ("lead=SA&options=nope:1", "options"),
        ("lead=" + "SA+" * 200, "lead"),
    ],
)
def test_checker_bad_input_is_400_with_message(client: Client, query: str, field: str) -> None:
    response = client.get("/check/?" + query)
    assert response.status_code == 400, html(response)[:300]
    body = html(response)
    assert 'data-testid="verdict-error"' in body
    partial = client.get("/check/?" + query, **HX)
    assert partial.status_code == 400
    assert 'data-testid="verdict-error"' in html(partial)
    api = client.get("/api/check?" + query)
    assert api.status_code == 400
    data = json.loads(api.content)
    assert set(data) == {"error", "error_en", "field"}
    assert data["error_en"]
    assert data["error"]


def test_checker_hostile_input_is_escaped(client: Client) -> None:
    response = client.get("/check/?lead=%3Cscript%3Ealert(1)%3C/script%3E")
    assert response.status_code == 400
    assert "<script>alert(1)" not in html(response)


def test_post_is_not_allowed(client: Client) -> None:
    assert client.post("/check/").status_code in (403, 405)
    assert Client(enforce_csrf_checks=True).post("/check/").status_code == 403


# --- API ---------------------------------------------------------------------------------


def test_api_check_json(client: Client) -> None:
    response = client.get(CHECK.replace("/check/", "/api/check"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    data = json.loads(response.content)
    assert data["lead"]["type"] == "pair"
    assert data["follows"][0]["legal"] is True
    assert data["follows"][1]["reason"] == "must_follow_suit"
    assert data["trick"]["winner"] == 0
    assert data["lead"]["cards"] == ["♠K", "♠K"]


def test_api_check_needs_a_lead(client: Client) -> None:
    response = client.get("/api/check")
    assert response.status_code == 400
    assert json.loads(response.content)["field"] == "lead"


def test_api_throw(client: Client) -> None:
    data = json.loads(client.get("/api/check?lead=SK+SQ+SQ&h1=SA+S3&trump=H&level=2").content)
    assert data["throw"]["allowed"] is False
    assert data["throw"]["forced"] == ["♠K"]


def test_english_pages(client: Client) -> None:
    client.cookies["lang"] = "en"
    for url in ("/", "/rulesets/classic/", CHECK, "/check/"):
        response = client.get(url)
        assert response.status_code == 200
        assert 'lang="en"' in html(response)
    assert "Checker" in html(client.get("/check/"))


# --- failures and errors (a fake run) -----------------------------------------------------


def test_failing_rows_mark_differing_values(client: Client, failing_run: selfcheck.Run) -> None:
    response = client.get("/")
    body = html(response)
    assert "种子自检 0/167" in body and "补充用例 1/4" in body  # the fake run has no seed rows
    row = body[body.index('id="case-demo-fail"') :]
    row = row[: row.index("</tr>")]
    assert row.count('class="diff"') == 2  # expected and actual of "legal"
    assert "forced" not in row.split('class="diff"')[1][:40]
    assert "用例文件错误" in body and "98-broken.yaml" in body
    body = html(client.get("/?status=error"))
    assert body.count('data-testid="case-row"') == 1
    assert "98-broken.yaml" in body
    body = html(client.get("/?status=fail"))
    assert body.count('data-testid="case-row"') == 1 and "98-broken.yaml" not in body


def test_case_page_of_failure_and_error(client: Client, failing_run: selfcheck.Run) -> None:
    assert 'class="diff"' in html(client.get("/cases/classic/demo-fail/"))
    response = client.get("/cases/classic/demo-error/")
    assert response.status_code == 200
    assert "X9" in html(response)
    assert client.get("/cases/-/98-broken.yaml/").status_code == 200


def test_benchmark_worst_case_is_a_valid_scenario(client: Client) -> None:
    from checker.management.commands.benchweb import worst_case_query

    response = client.get("/check/?" + worst_case_query(), **HX)
    assert response.status_code == 200
    body = html(response)
    assert 'data-testid="verdict-throw"' in body
    assert body.count('data-testid="verdict-follow-') == 3


def test_api_check_errors_come_in_english_too() -> None:
    response = Client().get("/api/check?ruleset=classic&lead=SA+SZ")
    assert response.status_code == 400
    data = json.loads(response.content)
    assert data["field"] == "lead"
    assert "无法识别" in data["error"]
    assert data["error_en"].startswith("unknown card “SZ”")


def test_favicon_is_linked_and_served() -> None:
    client = Client()
    body = client.get("/check/").content.decode()
    assert 'rel="icon"' in body and "favicon" in body
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and "favicon" in response["Location"]
