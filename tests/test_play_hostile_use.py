"""The play table under hostile use (issue 24): secret seeds, links that store nothing, every
parameter through a form, a creation limit, retention, one next round, the owner cookie."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils import timezone

from checker.models import PlayGame, SimulationRun
from tests.test_play_views import _play_out, start

pytestmark = pytest.mark.django_db

LINK = "/play/?ruleset=classic&seed=3&seat=2&bots=greedy"


def _new(client: Client, **fields: object) -> PlayGame:
    r = client.post("/play/", {"ruleset": "classic", "seat": "1", "bots": "greedy", **fields})
    assert r.status_code == 303, r.content[:400]
    return PlayGame.objects.get(key=r["Location"].strip("/").split("/")[-1])


def test_a_link_fills_the_lobby_in_and_stores_nothing(client: Client) -> None:
    r = client.get(LINK)
    page = r.content.decode()
    assert r.status_code == 200 and PlayGame.objects.count() == 0
    assert 'method="post" action="/play/"' in page and "csrfmiddlewaretoken" in page
    assert re.search(r'<input type="radio" name="seat" value="2"[^>]*checked', page)
    assert 'name="seed" value="3"' in page and 'data-testid="prefilled"' in page
    assert 'data-testid="seed-note"' in page  # a chosen seed is a shared puzzle
    for n in range(4):
        assert f'name="seat" value="{n}"' in page  # seat buttons, not a number box
    assert client.head(LINK).status_code == 200 and PlayGame.objects.count() == 0


def test_starting_is_a_post_with_csrf_answered_by_303() -> None:
    strict = Client(enforce_csrf_checks=True)
    refused = strict.post("/play/", {"ruleset": "classic", "seat": "0"})
    assert refused.status_code == 403 and PlayGame.objects.count() == 0
    page = strict.get("/play/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    r = strict.post("/play/", {"ruleset": "classic", "seat": "0", "csrfmiddlewaretoken": token[1]})
    assert r.status_code == 303 and r["Location"].startswith("/play/")
    assert PlayGame.objects.count() == 1


def test_robots_keep_crawlers_off_the_tables(client: Client) -> None:
    r = client.get("/robots.txt")
    assert r.status_code == 200 and "Disallow: /play/" in r.content.decode()


def test_a_random_seed_is_shown_nowhere_until_the_round_is_over(client: Client) -> None:
    game = _new(client)
    assert game.secret_seed and game.seed >= 1
    seed = str(game.seed)
    for url in ("", "?hint=1", "replay", "match", "log.jsonl"):
        body = client.get(f"/play/{game.key}/{url}").content.decode()
        assert seed not in body and "seed=" not in body, url
    _play_out(client, game)
    page = client.get(f"/play/{game.key}/").content.decode()
    assert seed in page and 'data-testid="position-url"' in page
    # "再来一局" is a form: a fresh secret deal, not this seed + 1.
    again = re.search(r'<form method="post" action="/play/" class="actions">(.*?)</form>', page)
    assert again is not None and 'name="seed"' not in again[1]


def test_a_chosen_seed_is_a_puzzle_its_page_may_show(client: Client) -> None:
    game = start(client, LINK)
    assert not game.secret_seed
    page = client.get(f"/play/{game.key}/").content.decode()
    assert "3" in re.findall(r"\d+", page) and 'data-testid="position-url"' in page


def test_next_and_again_are_forms_never_links(client: Client) -> None:
    game = start(client, "/play/?ruleset=classic&seed=4&seat=0&bots=greedy")
    _play_out(client, game)
    page = client.get(f"/play/{game.key}/").content.decode()
    assert re.search(r'<form method="post" action="/play/[^"]*next"', page)
    assert 'data-testid="next-game"' in page
    assert not re.search(r'<a [^>]*href="/play/\?', page)
    before = PlayGame.objects.count()
    assert client.get(f"/play/{game.key}/next").status_code == 405
    assert PlayGame.objects.count() == before


BAD = ["²", "9" * 5000, "-1", "1.5", "", "1e3", "٣"]


@pytest.mark.parametrize("value", BAD)
def test_a_bad_table_query_is_a_400_naming_the_field(client: Client, value: str) -> None:
    game = start(client)
    r = client.get(f"/play/{game.key}/", {"at": value})
    assert r.status_code == 400 and "at" in r.content.decode()


@pytest.mark.parametrize("value", BAD)
def test_a_bad_ply_is_a_400_naming_the_field_and_changes_nothing(
    client: Client, value: str
) -> None:
    game = start(client)
    r = client.post(f"/play/{game.key}/move", {"ply": value, "phase": "follow", "c": "D6"})
    assert r.status_code == 400 and "ply" in r.content.decode()
    game.refresh_from_db()
    assert game.ply == 0


def test_a_bad_card_is_a_400_naming_the_field(client: Client) -> None:
    game = start(client)
    r = client.post(f"/play/{game.key}/move", {"ply": "0", "phase": "follow", "c": ["D6", "²"]})
    assert r.status_code == 400 and "c" in r.content.decode() and "²" in r.content.decode()
    r = client.post(f"/play/{game.key}/move", {"ply": "0", "phase": "follow", "c": ["D6"] * 61})
    assert r.status_code == 400


@override_settings(PLAY_CREATE_PER_MINUTE=3)
def test_creating_is_limited_per_client_with_a_429_in_both_languages(client: Client) -> None:
    for _ in range(3):
        _new(client)
    refused = client.post("/play/", {"ruleset": "classic", "seat": "1"})
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert "每分钟最多开 3 局" in refused.content.decode()
    client.cookies["lang"] = "en"
    english = client.post("/play/", {"ruleset": "classic", "seat": "1"})
    assert english.status_code == 429 and "3 games a minute" in english.content.decode()
    other = Client(REMOTE_ADDR="10.1.2.3")
    assert other.post("/play/", {"ruleset": "classic", "seat": "1"}).status_code == 303
    assert PlayGame.objects.count() == 4
    PlayGame.objects.update(created=timezone.now() - timedelta(minutes=2))
    _new(client)  # a minute later the client may start games again


def test_purge_deletes_old_games_and_runs_and_says_what_it_removed() -> None:
    now = timezone.now()
    spec = {"owner": "o" * 32, "ruleset": "classic", "seed": 1, "seat": 0, "bots": "greedy"}
    rows = [
        ("fresh", False, 1),
        ("stale", False, 31),
        ("done", True, 31),
        ("ancient", True, 181),
    ]
    for key, finished, days in rows:
        PlayGame.objects.create(
            key=key, finished=finished, updated=now - timedelta(days=days), **spec
        )
    for i in range(5):
        SimulationRun.objects.create(
            ruleset="classic", seed=i, rounds=1, created=now - timedelta(hours=i)
        )
    out = StringIO()
    with override_settings(RUNS_KEEP=2):
        call_command("purge", stdout=out)
        assert sorted(PlayGame.objects.values_list("key", flat=True)) == ["done", "fresh"]
        assert sorted(SimulationRun.objects.values_list("seed", flat=True)) == [0, 1]
        assert "removed: 1 unfinished" in out.getvalue() and "1 finished" in out.getvalue()
        assert "3 simulation runs" in out.getvalue()
        again = StringIO()
        call_command("purge", stdout=again)
    assert (
        "removed: 0 unfinished games" in again.getvalue()
        and "0 simulation runs" in again.getvalue()
    )


@override_settings(PLAY_OWNER_COOKIE_SECURE=True)
def test_the_owner_cookie_is_secure_httponly_and_lax(client: Client) -> None:
    r = client.post("/play/", {"ruleset": "classic", "seat": "0"})
    cookie = r.cookies["table"]
    assert cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "Lax"


@pytest.mark.django_db(transaction=True)
def test_racing_next_round_posts_make_one_next_game_and_all_point_at_it() -> None:
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from django.db import connection

    client = Client()
    game = start(client, "/play/?ruleset=classic&seed=4&seat=0&bots=greedy")
    _play_out(client, game)
    before = PlayGame.objects.count()
    burst = 8
    gate = Barrier(burst)

    def post(_: int) -> tuple[int, str]:
        racer = Client()
        racer.cookies = client.cookies
        try:
            gate.wait()
            r = racer.post(f"/play/{game.key}/next")
            return r.status_code, r.get("Location", "")
        finally:
            connection.close()

    with ThreadPoolExecutor(burst) as pool:
        answers = list(pool.map(post, range(burst)))
    made = PlayGame.objects.filter(previous=game.key)
    assert made.count() == 1 and PlayGame.objects.count() == before + 1
    assert answers == [(303, f"/play/{made.get().key}/")] * burst


def test_a_secret_deal_is_copied_only_once_its_round_is_over(client: Client) -> None:
    game = _new(client)
    stranger = Client()
    page = stranger.get(f"/play/{game.key}/").content.decode()
    assert 'data-testid="fork"' not in page
    before = PlayGame.objects.count()
    for who in (stranger, client):
        assert who.post(f"/play/{game.key}/fork").status_code == 409
    assert PlayGame.objects.count() == before
    _play_out(client, game)
    assert stranger.post(f"/play/{game.key}/fork").status_code == 303


def test_the_owner_cookie_is_secure_whenever_debug_is_off() -> None:
    import secrets

    from tests.test_settings import _manage

    code = "from django.conf import settings; print(settings.PLAY_OWNER_COOKIE_SECURE)"
    production = _manage("shell", "-c", code, DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    assert production.stdout.split()[-1:] == ["True"], production.stderr
    debug = _manage("shell", "-c", code, DJANGO_DEBUG="1")
    assert debug.stdout.split()[-1:] == ["False"], debug.stderr
