"""python manage.py benchweb: server time of the checker partial and of the dashboard.

Requests go through Django's full stack (middleware, view, template) in-process
with the test client, so the figures are server time without network.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import urlencode

from django.core.management.base import BaseCommand, CommandParser
from django.test import Client
from django.test.utils import override_settings

from checker.engine.cards import Card, ascii_card, parse_cards
from checker.engine.ruleset import ruleset_names
from checker.management.stopping import stoppable
from checker.perf.playbench import play_rows
from checker.web import selfcheck

# A 10-card spade throw: one tractor (♠A♠A♠K♠K), a pair and four singles.
THROW = ["SA", "SA", "SK", "SK", "SQ", "SQ", "S10", "S9", "S8", "S6"]


def worst_case_query(seed: int = 7) -> str:
    """Four full 25-card hands (classic, 打2 主♥), a 10-card throw and a 10-card play each."""
    rng = random.Random(seed)
    deck = [Card(s, r) for s in "SHCD" for r in range(2, 15)] * 2 + [Card("", 15), Card("", 16)] * 2
    throw = parse_cards(" ".join(THROW))
    for card in throw:
        deck.remove(card)
    rng.shuffle(deck)
    h0 = throw + deck[:15]
    rest = deck[15:]
    hands = [rest[i * 25 : (i + 1) * 25] for i in range(3)]
    params = {
        "ruleset": "classic",
        "level": "2",
        "trump": "H",
        "lead": " ".join(ascii_card(c) for c in throw),
        "h0": " ".join(ascii_card(c) for c in h0),
    }
    for i, hand in enumerate(hands, start=1):
        params[f"h{i}"] = " ".join(ascii_card(c) for c in hand)
        params[f"p{i}"] = " ".join(ascii_card(c) for c in rng.sample(hand, 10))
    return urlencode(params)


def measure(fn: Callable[[], Any], n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


class Command(BaseCommand):
    help = "Measure p50/p95 server time of the checker partial (worst case) and the dashboard."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("-n", type=int, default=200, help="requests per checker measurement")
        parser.add_argument("--dashboard-n", type=int, default=40)
        parser.add_argument(
            "--play-rounds", type=int, default=3, help="whole rounds played at /play/ per ruleset"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        with stoppable(
            "benchweb",
            sys.stderr,
            lambda: "nothing kept (its figures print once every request is timed)",
        ):
            self._handle(*args, **opts)

    def _handle(self, *args: Any, **opts: Any) -> None:
        # Plain static storage: the hashed manifest only exists after collectstatic.
        storages = {
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        with override_settings(STORAGES=storages):
            self._run(opts)

    def _run(self, opts: dict[str, Any]) -> None:
        client = Client(HTTP_HOST="localhost")
        url = "/check/?" + worst_case_query()
        first = client.get(url, secure=True, HTTP_HX_REQUEST="true")
        if first.status_code != 200:
            self.stderr.write(f"checker answered {first.status_code}: {first.content[:400]!r}")
            raise SystemExit(1)
        self.stdout.write(f"worst case: {len(url)} characters of URL")
        rows = _checker_rows(client, url, opts["n"])
        rows += self._dashboard_rows(client, opts["dashboard_n"])
        rows += play_rows(client, opts["play_rounds"], self.stdout)
        run = selfcheck.get_run("classic")
        self.stdout.write(f"suite: {run.total} cases for classic, run {run.seconds * 1000:.0f} ms")
        self.stdout.write(f"{'request':36} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'mean':>8}")
        for name, times in rows:
            self.stdout.write(
                f"{name:36} {len(times):5d} {pct(times, 0.5):8.1f} {pct(times, 0.95):8.1f}"
                f" {statistics.fmean(times):8.1f}"
            )

    def _dashboard_rows(self, client: Client, n: int) -> list[tuple[str, list[float]]]:
        """Time the dashboard cold, warm and filtered, and each ruleset's warm; print sizes."""
        home = partial(client.get, "/", secure=True)
        filtered = partial(client.get, "/?status=pass", secure=True, HTTP_HX_REQUEST="true")
        selfcheck.clear_cache()
        rows = [
            ("dashboard, cold (runs the suite)", measure(home, 1)),
            ("dashboard, warm", measure(home, n)),
            ("dashboard filtered (htmx)", measure(filtered, n)),
        ]
        sizes = []
        for name in ruleset_names():
            page = partial(client.get, f"/rulesets/{name}/selfcheck/", secure=True)
            page()  # runs that ruleset's suite once
            size = len(page().content)
            rows.append((f"dashboard {name}, warm", measure(page, n)))
            sizes.append(f"{name} {size / 1000:.1f} kB")
        self.stdout.write("dashboard first load HTML: " + ", ".join(sizes))
        return rows


def _checker_rows(client: Client, url: str, n: int) -> list[tuple[str, list[float]]]:
    """Time the worst-case checker query as a partial, a full page and the JSON API."""
    partial_page = partial(client.get, url, secure=True, HTTP_HX_REQUEST="true")
    for _ in range(5):  # warm up
        partial_page()
    api = url.replace("/check/", "/api/check")
    return [
        ("checker partial (htmx)", measure(partial_page, n)),
        ("checker full page", measure(partial(client.get, url, secure=True), max(20, n // 4))),
        ("api/check JSON", measure(partial(client.get, api, secure=True), n)),
    ]
