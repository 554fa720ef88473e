"""Serving (issue 9.4): HEAD wherever GET, gzip, ETag on the self-check pages, a CSP the
templates satisfy, trusted permalink hosts, and threaded workers that slow clients cannot stall."""

from __future__ import annotations

import gzip
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver

PROJECT = Path(__file__).resolve().parents[1]
TEMPLATES = PROJECT / "templates"
pytestmark = pytest.mark.django_db

# Sample values for the URL parameters of the site's routes.
SAMPLES = {
    "name": "classic",
    "ruleset": "classic",
    "case_id": "classic-classify-pair-same-suit",
}
QUERIES = {
    "check": "?ruleset=classic&level=2&trump=H&lead=SK+SK&h1=SQ+SQ+S10+S5&p1=SQ+SQ",
    "api_check": "?ruleset=classic&level=2&trump=H&lead=SK+SK&h1=SQ+SQ+S10+S5&p1=SQ+SQ",
}


def _routes() -> Iterator[tuple[str, URLPattern]]:
    def walk(patterns: list, prefix: str) -> Iterator[tuple[str, URLPattern]]:  # type: ignore[type-arg]
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            else:
                yield prefix + str(p.pattern), p

    yield from walk(get_resolver().url_patterns, "/")


def _url(route: str, pattern: URLPattern) -> str:
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: SAMPLES.get(m.group(1), "x"), route)
    return path + QUERIES.get(pattern.name or "", "")


GET_ROUTES = [
    (route, p) for route, p in _routes() if p.name not in ("set_language",) and "^" not in route
]


@pytest.mark.parametrize("route, pattern", GET_ROUTES, ids=[r for r, _ in GET_ROUTES])
def test_head_is_answered_wherever_get_is(route: str, pattern: URLPattern) -> None:
    client = Client()
    url = _url(route, pattern)
    got, head = client.get(url), client.head(url)
    if got.status_code == 405 and "GET" not in got.get("Allow", ""):
        # A POST-only route (a move at the play table): HEAD is refused the same way.
        assert got["Allow"] == "POST" and head.status_code == 405, url
        return
    assert got.status_code != 405, url
    assert head.status_code == got.status_code, url
    assert head.content == b""


def test_html_is_gzip_compressed() -> None:
    response = Client().get("/", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    assert b"<!doctype html>" in gzip.decompress(response.content).lower()


def test_dashboard_repeat_visit_is_a_304() -> None:
    client = Client()
    client.get("/")  # the first visit sets the CSRF cookie the page's token depends on
    first = client.get("/")
    tag = first["ETag"]
    again = client.get("/", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b""
    assert client.get("/?status=fail", HTTP_IF_NONE_MATCH=tag).status_code == 200
    assert client.get("/rulesets/erqiwang/selfcheck/", HTTP_IF_NONE_MATCH=tag).status_code == 200
    htmx = client.get("/", HTTP_IF_NONE_MATCH=tag, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 200  # the partial is another representation
    assert "HX-Request" in first["Vary"]


def test_pages_send_a_strict_content_security_policy() -> None:
    for url in ("/", "/check/" + QUERIES["check"], "/matrix/", "/rulesets/classic/"):
        policy = Client().get(url)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "object-src 'none'" in policy and "frame-ancestors 'none'" in policy


def test_templates_have_no_inline_script_or_style() -> None:
    offenders = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"<script\b([^>]*)>", text):
            attrs = match.group(1)
            if "src=" not in attrs and 'type="application/json"' not in attrs:
                offenders.append(f"{path.name}: inline <script{attrs}>")
        if re.search(r"<style\b|\sstyle=|\son[a-z]+=|hx-on|javascript:", text):
            offenders.append(f"{path.name}: inline style or handler")
    assert not offenders, offenders


def test_htmx_is_told_not_to_inject_its_indicator_styles() -> None:
    html = Client().get("/matrix/").content.decode()
    config = re.findall(r'<meta name="htmx-config" content=\'([^\']+)\'', html)
    assert len(config) == 1 and '"includeIndicatorStyles":false' in config[0]
    assert "responseHandling" in config[0]  # the matrix keeps its own settings


@override_settings(ALLOWED_HOSTS=["*"])
def test_permalink_and_qr_never_echo_an_untrusted_host() -> None:
    response = Client().get("/check/" + QUERIES["check"], HTTP_HOST="evil.example")
    html = response.content.decode()
    assert response.status_code == 200
    assert "evil.example" not in html
    assert 'data-testid="permalink"' in html or "/check/?" in html


@override_settings(ALLOWED_HOSTS=["*"], PUBLIC_URL="https://tractor.example.org")
def test_permalink_uses_the_public_url_when_set() -> None:
    html = Client().get("/check/" + QUERIES["check"], HTTP_HOST="evil.example").content.decode()
    assert "https://tractor.example.org/check/?" in html and "evil.example" not in html


def test_permalink_uses_an_exactly_allowed_host() -> None:
    html = Client().get("/check/" + QUERIES["check"], HTTP_HOST="localhost").content.decode()
    assert "http://localhost/check/?" in html


# -- gunicorn on loopback: two slow clients cannot stall the site ------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    env = dict(os.environ)
    env.pop("PYTEST_VERSION", None)  # production settings, not the test ones
    env.update(
        DJANGO_SECRET_KEY="slow-client-test-" + "k" * 40,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        GUNICORN_BIND=f"127.0.0.1:{port}",
        GUNICORN_WORKERS="1",  # the harshest case: one worker process
        GUNICORN_THREADS="4",
    )
    gunicorn_bin = Path(sys.executable).parent / "gunicorn"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=PROJECT,
        env=env,
        check=True,
        timeout=120,
    )
    proc = subprocess.Popen(
        [
            str(gunicorn_bin),
            "checker.wsgi",
            "-c",
            "gunicorn.conf.py",
            "--access-logfile",
            "/dev/null",
        ],
        cwd=PROJECT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):  # bounded: up to 30 s to start
            try:
                with urllib.request.urlopen(base + "/api/check?lead=SA", timeout=2):
                    break
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("gunicorn did not start")
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_two_slow_clients_cannot_stall_the_site(gunicorn: str) -> None:
    port = int(gunicorn.rsplit(":", 1)[1])
    slow = []
    for _ in range(2):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and then nothing more, for now
        slow.append(s)
    try:
        answered = 0
        for _ in range(6):  # bounded: six fast requests while both slow clients hang
            for s in slow:
                s.sendall(b"X-Slow: 1\r\n")  # a header line now and then, never the end
            with urllib.request.urlopen(gunicorn + "/api/check?lead=SA+SA", timeout=10) as r:
                assert r.status == 200
                answered += 1
        assert answered == 6
        # The slow clients are still connected and unanswered.
        for s in slow:
            s.setblocking(False)
            with pytest.raises(BlockingIOError):
                s.recv(1)
    finally:
        for s in slow:
            s.close()


def _wsgi(method: str, path: str) -> tuple[str, dict[str, str], bytes]:
    """Call the real WSGI handler (the test Client would strip HEAD bodies itself)."""
    from io import BytesIO

    from django.core.handlers.wsgi import WSGIHandler

    got: dict[str, object] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        got["status"], got["headers"] = status, dict(headers)

    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "HTTP_HOST": "127.0.0.1",
        "wsgi.input": BytesIO(b""),
        "wsgi.url_scheme": "http",
    }
    body = b"".join(WSGIHandler()(environ, start_response))
    return str(got["status"]), got["headers"], body  # type: ignore[return-value]


@pytest.mark.parametrize("path", ["/", "/rulesets/classic/", "/play/x/"])
def test_head_sends_the_get_headers_and_no_body(path: str) -> None:
    status, headers, body = _wsgi("GET", path)
    head_status, head_headers, head_body = _wsgi("HEAD", path)
    assert head_status == status and body
    assert head_body == b""
    assert head_headers["Content-Length"] == str(len(body))
