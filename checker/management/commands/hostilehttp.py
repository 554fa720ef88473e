"""python manage.py hostilehttp --url http://127.0.0.1:PORT: hostile requests against a server.

Only loopback URLs are accepted. Requests mix odd Unicode and look-alike letters in every
card field of the checker, the API and the matrix, in the play lobby's fields and in
tampered game keys, over-long and repeated parameters, bad percent-encoding, path
traversal, unknown rulesets and cases, odd methods and Host headers. With --games N (the
default 3) it also starts N real games through the lobby's form (so point it at a
throwaway database) and attacks their URLs: table queries (at, hint, mingpai), moves with
bad plies, phases and cards, with and without the owner's cookie, next round, copy, replay,
match page and log. `.ci/with-server` serves a throwaway one (`make hostile-check`).

--create N instead sends N game creations from one client (the closing figure of issue 24:
what a flood of creations stores), and prints how they were answered.
Prints the count of each status code; exits 1 when any answer was a 5xx.
"""

from __future__ import annotations

import http.client
import os
import random
import re
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from django.core.management.base import BaseCommand, CommandError, CommandParser

from checker.management.stopping import stoppable

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


GAME_RULESETS = ["classic", "erqiwang", "multideck", "shuangsheng"]
NUMBERS = ["²", "9" * 5000, "-1", "1.5", "", "1e3", "٣", "0x10", " 1", "0", "3", "40"]
PHASES = ["lead", "follow", "bury", "declare", "bid", "", "<x>", "lead" * 100]


class Session:
    """One keep-alive connection with the cookies the server set (csrftoken, table)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.conn = http.client.HTTPConnection(host, port, timeout=30)
        self.cookies: dict[str, str] = {}

    def send(
        self,
        method: str,
        path: str,
        fields: list[tuple[str, str]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[str, str, str]:
        """Send a request; return the status (or connection:Error), Location and body."""
        head = dict(headers or {})
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            body = urlencode(fields)
            head["Content-Type"] = "application/x-www-form-urlencoded"
            head["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        try:
            self.conn.request(method, path, body=body, headers=head)
            response = self.conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            for value in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(value).items():
                    self.cookies[name] = morsel.value
            if response.will_close:
                self.conn.close()
            return str(response.status), response.getheader("Location") or "", text
        except (http.client.HTTPException, OSError, ValueError) as exc:
            self.conn.close()
            return f"connection:{type(exc).__name__}", "", ""

    def start_game(self, ruleset: str, seat: int) -> str:
        """Start a game through the lobby's form; return its key ("" when refused)."""
        if "csrftoken" not in self.cookies:
            self.send("GET", "/play/")
        code, location, _body = self.send(
            "POST", "/play/", [("ruleset", ruleset), ("seat", str(seat))]
        )
        match = re.fullmatch(r"/play/([A-Za-z0-9]+)/", location)
        return match[1] if code == "303" and match else ""


def _game_request(rng: random.Random, key: str) -> tuple[str, str, list[tuple[str, str]] | None]:
    """One hostile request at a live game's URLs."""
    base = f"/play/{key}/"
    roll = rng.random()
    if roll < 0.35:
        params = [
            (rng.choice(["at", "hint", "mingpai"]), rng.choice(NUMBERS + ODD))
            for _ in range(rng.randint(1, 3))
        ]
        return "GET", base + "?" + "&".join(f"{k}={quote(v, safe='')}" for k, v in params), None
    if roll < 0.5:
        return (
            rng.choice(["GET", "HEAD"]),
            base + rng.choice(["replay", "match", "log.jsonl"]),
            None,
        )
    if roll < 0.9:
        fields = [("ply", rng.choice(NUMBERS)), ("phase", rng.choice(PHASES))]
        if rng.random() < 0.5:
            fields.append(
                ("move", rng.choice(["p", "y", "n", "tS", "b70", "b" + "9" * 30, _value(rng)]))
            )
        fields += [
            ("c", rng.choice(CARDS + ODD))
            for _ in range(rng.randint(0, 70 if rng.random() < 0.1 else 6))
        ]
        return "POST", base + "move", fields
    if roll < 0.97:
        return "POST", base + "next", []
    return "POST", base + "fork", []


class Command(BaseCommand):
    help = "Send hostile HTTP requests to a loopback server and count its answers."

    def add_arguments(self, parser: CommandParser) -> None:
        server = os.environ.get("SERVER_URL")  # set by .ci/with-server
        parser.add_argument("--url", required=server is None, default=server)
        parser.add_argument("--requests", type=int, default=10_000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--threads", type=int, default=4)
        parser.add_argument("--games", type=int, default=3, help="live games to attack")
        parser.add_argument("--seconds", type=float, default=0, help="stop after this long")
        parser.add_argument(
            "--create", type=int, default=0, metavar="N", help="only send N game creations"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        with stoppable(
            "hostilehttp",
            sys.stderr,
            lambda: "nothing kept (its counts print once every request is sent)",
        ):
            self._handle(*args, **opts)

    def _handle(self, *args: Any, **opts: Any) -> None:
        url = urlsplit(opts["url"])
        if url.hostname not in ("127.0.0.1", "localhost", "::1"):
            raise CommandError("hostilehttp only talks to a loopback server")
        host, port = url.hostname, url.port or 80
        if opts["create"]:
            self._flood(host, port, opts["create"])
            return
        total, threads = opts["requests"], opts["threads"]
        deadline = time.monotonic() + opts["seconds"] if opts["seconds"] else None
        owner = Session(host, port)
        keys = [owner.start_game(GAME_RULESETS[i % 4], i % 3) for i in range(opts["games"])]
        keys = [k for k in keys if k]
        if len(keys) < opts["games"]:
            raise CommandError(f"could start only {len(keys)} of {opts['games']} games")
        statuses: Counter[str] = Counter()
        examples: list[str] = []

        def worker(index: int) -> None:
            rng = random.Random(opts["seed"] * 1000 + index)
            plain = http.client.HTTPConnection(host, port, timeout=30)
            session = Session(host, port)
            if index % 2 == 0:  # half the threads hold the owner's cookies
                session.cookies = dict(owner.cookies)
            for _ in range(total // threads):
                if deadline is not None and time.monotonic() > deadline:
                    break
                if keys and rng.random() < 0.5:
                    method, path, fields = _game_request(rng, rng.choice(keys))
                    code, _location, _body = session.send(method, path, fields)
                    headers: dict[str, str] = {}
                else:
                    method, path, headers = _request(rng)
                    try:
                        plain.request(method, path, headers=headers)
                        response = plain.getresponse()
                        response.read()
                        code = str(response.status)
                        if response.will_close:
                            plain.close()
                    except (http.client.HTTPException, OSError, ValueError) as exc:
                        code = f"connection:{type(exc).__name__}"
                        plain.close()
                statuses[code] += 1
                if code.startswith("5") and len(examples) < 10:
                    examples.append(f"{code} {method} {path[:200]} {headers}")

        start = time.perf_counter()
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(worker, range(threads)))
        seconds = time.perf_counter() - start
        sent = sum(statuses.values())
        fives = sum(n for code, n in statuses.items() if code.startswith("5"))
        self.stdout.write(f"requests  {sent} in {seconds:.1f} s ({len(keys)} live games)")
        self.stdout.write("statuses  " + "  ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
        self.stdout.write(f"5xx       {fives}")
        for e in examples:
            self.stdout.write("  " + e)
        if fives:
            sys.exit(1)

    def _flood(self, host: str, port: int, count: int) -> None:
        """Send `count` creations from one client, each with a fresh cookie jar (as a script
        would), and count the answers."""
        statuses: Counter[str] = Counter()
        start = time.perf_counter()
        rng = random.Random(1)
        for _ in range(count):
            session = Session(host, port)
            session.send("GET", "/play/")
            fields = [("ruleset", rng.choice(GAME_RULESETS)), ("seat", "0")]
            fields.append(("seed", str(rng.randrange(1, 10**6))))
            code, _location, _body = session.send("POST", "/play/", fields)
            session.conn.close()
            statuses[code] += 1
        seconds = time.perf_counter() - start
        self.stdout.write(f"creations {count} in {seconds:.1f} s from one client")
        self.stdout.write("statuses  " + "  ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
        self.stdout.write(stored_games())
        if any(code.startswith("5") for code in statuses):
            sys.exit(1)


def stored_games() -> str:
    """Say how many games the database this command sees holds, and their bytes (the table
    and its indexes, as SQLite's dbstat or PostgreSQL counts them)."""
    from django.db import DatabaseError, connection

    from checker.models import PlayGame

    table = PlayGame._meta.db_table
    try:
        rows = PlayGame.objects.count()
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SELECT pg_total_relation_size(%s)", [table])
            else:
                cursor.execute(
                    "SELECT SUM(pgsize) FROM dbstat WHERE name = %s OR name IN "
                    "(SELECT name FROM sqlite_master WHERE tbl_name = %s AND type = 'index')",
                    [table, table],
                )
            size = int(cursor.fetchone()[0] or 0)
    except DatabaseError as exc:
        return f"stored    (cannot read the database: {exc})"
    return f"stored    {rows} games, {size} bytes in {table} and its indexes"
