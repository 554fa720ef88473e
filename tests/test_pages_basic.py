"""Smoke tests of the site frame: every page answers, the language switch works."""

from __future__ import annotations

import pytest
from django.test import Client

# The self-check page shows the latest stored simulation run.
pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> Client:
    return Client()


def test_home_is_chinese_by_default(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'lang="zh-Hans"' in html
    assert "自检" in html and "规则" in html and "检查器" in html


def test_switch_to_english_sets_cookie_and_redirects(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/check/"})
    assert response.status_code == 302
    assert response["Location"] == "/check/"
    html = client.get("/").content.decode()
    assert 'lang="en"' in html
    assert "Self-check" in html


def test_set_language_requires_csrf() -> None:
    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 403


def test_vendored_htmx_is_served(live_server) -> None:  # type: ignore[no-untyped-def]
    import urllib.request

    with urllib.request.urlopen(live_server.url + "/static/vendor/htmx.min.js") as resp:
        body = resp.read()
    assert resp.status == 200
    assert b"htmx" in body[:200]
