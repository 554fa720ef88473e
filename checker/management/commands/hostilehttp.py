"""python manage.py hostilehttp --url http://127.0.0.1:PORT: hostile requests against a server.

Only loopback URLs are accepted. Requests mix odd Unicode and look-alike letters in every
card field of the checker, the API and the matrix, in the play lobby's fields and in
tampered game keys (a /play/ GET with a good ruleset, seed and seat starts a game, so point
it at a throwaway database), over-long and repeated parameters, bad
percent-encoding, path traversal, unknown rulesets and cases, odd methods and Host headers.
Prints the count of each status code; exits 1 when any answer was a 5xx.
"""

from __future__ import annotations

import http.client
import random
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import quote, urlsplit

from django.core.management.base import BaseCommand, CommandError, CommandParser

ODD = [
    "\u212a",
    "\u017f",
    "\u0131",
    "ﬆ",
    "Ｓ",
    "\x00",
    "\u200b",
    "\ufe0f",
    "%",
    "'",
    '"',
    "<",
    ">",
    "&",
    "\\",
    "\n",
    "♤",
    "大",
    "王",
]
CARDS = ["SA", "SK", "S10", "HT", "BJ", "LJ", "♠Q", "大王", "小王", "D2", "C7"]
PATHS = [
    "/check/",
    "/api/check",
    "/matrix/",
    "/",
    "/rulesets/classic/",
    "/rulesets/classic/selfcheck/",
    "/rulesets/multideck/",
    "/rulesets/erqiwang/selfcheck/",
    "/play/",
    "/play/x/",
    "/play/" + "A" * 40 + "/replay",
    "/play/0/log.jsonl",
    "/simulation/",
]
FIELDS = [
    "lead",
    "h0",
    "h1",
    "p1",
    "h2",
    "p2",
    "h3",
    "p3",
    "level",
    "trump",
    "options",
    "ruleset",
    "q",
    "kind",
    "only",
    "status",
    "category",
    "seed",
    "seat",
    "bots",
    "banker",
    "decks",
    "players",
    "page",
]


def _value(rng: random.Random) -> str:
    parts = [rng.choice(CARDS + ODD) for _ in range(rng.randint(0, 8))]
    if rng.random() < 0.05:
        parts.append("S" * rng.randint(500, 5000))
    return rng.choice(["", " ", "+", ","]).join(parts)


def _request(rng: random.Random) -> tuple[str, str, dict[str, str]]:
    roll = rng.random()
    headers: dict[str, str] = {}
    if roll < 0.7:
        params = [(rng.choice(FIELDS), _value(rng)) for _ in range(rng.randint(1, 8))]
        query = "&".join(f"{quote(k)}={quote(v, safe='')}" for k, v in params)
        return rng.choice(["GET", "GET", "HEAD"]), f"{rng.choice(PATHS)}?{query}", headers
    if roll < 0.8:
        bad = rng.choice(["%zz", "%", "%E2%82", "%ff%fe", "lead=%00", "&&&", "=" * 50])
        return "GET", f"{rng.choice(PATHS)}?{bad}", headers
    if roll < 0.9:
        path = rng.choice(
            [
                "/../../etc/passwd",
                "/static/../checker/settings.py",
                "/cases/classic/%2e%2e/",
                "/cases/-/x/",
                "/cases/nope/nope/",
                "/rulesets/%00/",
                "/rulesets/" + "a" * 3000 + "/",
                "/static/vendor/htmx.min.js",
                "/favicon.ico",
                "/simulation/",
                "/admin/",
            ]
        )
        return rng.choice(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"]), path, headers
    headers["Host"] = rng.choice(["evil.example", "127.0.0.1:1", "", "a" * 300, "127.0.0.1"])
    headers["HX-Request"] = rng.choice(["true", "1", "%E2%84%AA"])
    return "GET", rng.choice(PATHS) + "?lead=SA", headers


class Command(BaseCommand):
    help = "Send hostile HTTP requests to a loopback server and count its answers."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", required=True)
        parser.add_argument("--requests", type=int, default=10_000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--threads", type=int, default=4)

    def handle(self, *args: Any, **opts: Any) -> None:
        url = urlsplit(opts["url"])
        if url.hostname not in ("127.0.0.1", "localhost", "::1"):
            raise CommandError("hostilehttp only talks to a loopback server")
        total, threads = opts["requests"], opts["threads"]
        statuses: Counter[str] = Counter()
        examples: list[str] = []

        def worker(index: int) -> None:
            rng = random.Random(opts["seed"] * 1000 + index)
            conn = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=30)
            for _ in range(total // threads):
                method, path, headers = _request(rng)
                try:
                    conn.request(method, path, headers=headers)
                    response = conn.getresponse()
                    response.read()
                    code = str(response.status)
                    if response.will_close:
                        conn.close()
                except (http.client.HTTPException, OSError, ValueError) as exc:
                    code = f"connection:{type(exc).__name__}"
                    conn.close()
                statuses[code] += 1
                if code.startswith("5") and len(examples) < 10:
                    examples.append(f"{code} {method} {path[:200]} {headers}")

        start = time.perf_counter()
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(worker, range(threads)))
        seconds = time.perf_counter() - start
        sent = sum(statuses.values())
        fives = sum(n for code, n in statuses.items() if code.startswith("5"))
        self.stdout.write(f"requests  {sent} in {seconds:.1f} s")
        self.stdout.write("statuses  " + "  ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
        self.stdout.write(f"5xx       {fives}")
        for e in examples:
            self.stdout.write("  " + e)
        if fives:
            sys.exit(1)
