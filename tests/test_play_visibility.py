"""A seat never sees a card it could not see at a real table (issue 24, point 1).

The walk opens every URL of a live table at several points of a round (while declaring,
after the bury, mid-trick, the round over), as the owner and as a stranger, follows every
/play/ link the pages carry, collects each card token of every answer (glyph chips, card
text, ASCII values and links, the log download) and fails on any card the seat could not
know: one outside what `checker.play.visibility` grants it, which is itself checked against
the deal (never another seat's hand, never the kitty of a seat that did not pick it up).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from html import unescape
from urllib.parse import unquote_plus

import pytest
from django.test import Client

from checker.engine.cards import Card, parse_cards
from checker.models import PlayGame
from checker.play.game import Position, format_moves, make_spec, play_move, replay_game
from checker.play.visibility import Viewer, known_cards, seat_log
from checker.web.play import viewer_of
from tests.test_game import auto_move

pytestmark = pytest.mark.django_db

SYMBOL = re.compile(r"([♠♥♣♦])(10|[2-9JQKA])|(大王|小王)")
ASCII = re.compile(r"(?<![A-Za-z0-9])([SHCD](?:10|[2-9TJQKA])|BJ|LJ)(?![A-Za-z0-9])")
LINK = re.compile(r'(?:href|hx-get|action|value)="(/play/[^"]*)"')


FOOTER = re.compile(r'<footer class="site">.*?</footer>', re.S)  # the site's fixed API example


def card_tokens(body: str) -> set[Card]:
    """Every card an answer names, in any spelling it uses."""
    text = unescape(unquote_plus(FOOTER.sub("", body)))
    found: set[Card] = set()
    for m in SYMBOL.finditer(text):
        found.update(parse_cards(m.group(0)))
    for m in ASCII.finditer(text):
        found.update(parse_cards(m.group(1)))
    return found


def _drive(spec_args: dict[str, object], stop: Callable[[Position], bool]) -> Position:
    """Play the human seat by the hints up to the point looked for (the first seed from the
    one given whose round reaches it)."""
    for tries in range(40):
        spec = make_spec(**{**spec_args, "seed": int(spec_args["seed"]) + tries})  # type: ignore[arg-type]
        pos = replay_game(spec, [])
        while not stop(pos) and not pos.is_over:
            pos = play_move(spec, pos.moves, auto_move(pos))
        if stop(pos):
            return pos
    raise AssertionError(f"no round reaches the point looked for: {spec_args}")


def _store(pos: Position, owner: str, *, secret: bool) -> PlayGame:
    spec = pos.spec
    return PlayGame.objects.create(
        key=f"k{abs(hash((spec, len(pos.moves)))) % 10**8}",
        owner=owner,
        ruleset=spec.ruleset,
        seed=spec.seed,
        seat=spec.seat,
        bots=spec.bots,
        options=dict(spec.options),
        moves=format_moves(pos.moves),
        ply=len(pos.moves),
        secret_seed=secret,
    )


def _phase(name: str) -> Callable[[Position], bool]:
    return lambda p: p.ask is not None and p.ask.phase == name


def _played(p: Position) -> bool:
    return _phase("follow")(p) and any(e["t"] == "trick" for e in p.events)


def _mid_deal(p: Position) -> bool:
    return _phase("declare")(p) and len(p.ask.view.hand) >= 8  # type: ignore[union-attr]


def _no_trump(p: Position) -> bool:
    return _played(p) and any(e["t"] == "no_trump" for e in p.events)


def _buried(p: Position) -> bool:
    return p.ask is not None and any(e["t"] == "bury" for e in p.events)


POINTS: dict[str, tuple[dict[str, object], Callable[[Position], bool]]] = {
    "declaring": (dict(ruleset="classic", seed=731_905, seat=0, bots="greedy"), _mid_deal),
    "bury": (dict(ruleset="classic", seed=731_905, seat=0, bots="greedy"), _buried),
    "mid-trick": (dict(ruleset="classic", seed=731_905, seat=1, bots="greedy"), _played),
    "over": (dict(ruleset="classic", seed=731_905, seat=1, bots="greedy"), lambda p: p.is_over),
    "erqiwang-bid": (dict(ruleset="erqiwang", seed=640_213, seat=0, bots="greedy"), _phase("bid")),
    "erqiwang-closed": (
        dict(ruleset="erqiwang", seed=640_213, seat=1, bots="greedy", options={"review": "closed"}),
        _played,
    ),
    "erqiwang-open": (dict(ruleset="erqiwang", seed=640_213, seat=1, bots="greedy"), _played),
    "erqiwang-no-trump": (dict(ruleset="erqiwang", seed=640_213, seat=0, bots="greedy"), _no_trump),
    "hidden-declare": (
        dict(
            ruleset="multideck",
            seed=582_177,
            seat=0,
            bots="greedy",
            options={"declare_view": "hidden"},
        ),
        _phase("declare"),
    ),
}


def _walk(client: Client, key: str, events: int) -> Iterator[tuple[str, str]]:
    """GET every URL of the table (partial tables at several points of its log too) and
    every /play/ link its pages carry (once each)."""
    base = f"/play/{key}/"
    todo = [base, base + "?hint=1", base + "?mingpai=1"]
    todo += [f"{base}?at={at}" for at in sorted({1, 2, 3, events // 3, events // 2, events - 1})]
    todo += [base + "replay", base + "match", base + "log.jsonl"]
    done: set[str] = set()
    while todo:
        url = unescape(todo.pop())
        if url in done or len(done) > 60 or url.endswith(("/move", "/fork", "/next")):
            continue
        done.add(url)
        for hx in (False, True):
            r = client.get(url, **({"HTTP_HX_REQUEST": "true"} if hx else {}))
            body = r.content.decode()
            yield url, body
            todo += [u for u in LINK.findall(body) if u.startswith(base) or u.startswith("/play/?")]
    for path in ("move", "next"):
        for data in ({"ply": "0", "phase": "lead", "c": ["SA", "BJ"]}, {"move": "zz"}):
            yield base + path, client.post(base + path, data).content.decode()


@pytest.mark.parametrize("point", sorted(POINTS))
def test_no_answer_names_a_card_the_seat_could_not_know(point: str) -> None:
    args, stop = POINTS[point]
    pos = _drive(args, stop)
    owner = Client()
    owner.cookies["table"] = "o" * 32
    game = _store(pos, "o" * 32, secret=True)
    viewer = viewer_of(game, pos)
    log = seat_log(pos.ruleset, pos.events, viewer)
    allowed = set(known_cards(log))
    _check_grant(pos, viewer, log)
    for who, client in (("owner", owner), ("stranger", Client())):
        for url, body in _walk(client, game.key, len(pos.events)):
            leaked = card_tokens(body) - allowed
            assert not leaked, f"{point}: {who} sees {sorted(map(str, leaked))} at {url}"
            if not pos.is_over:
                assert str(pos.spec.seed) not in re.findall(r"\d+", body), (who, url)


def _check_grant(pos: Position, viewer: Viewer, log: list[dict[str, object]]) -> None:
    """What visibility grants a seat mid-round, checked against the deal: of another hand or
    the kitty, only cards the seat holds a copy of, cards played or declared, the kitty it
    picked up, and what the table reveals (a failed throw's beater, 可查牌's trumps)."""
    if viewer.sees_all:
        return
    seat = viewer.seat
    assert seat is not None
    allowed = set(known_cards(log))
    revealed = set(known_cards({"shown": e.get("shown"), "open": e.get("open")} for e in log))
    deal = [e for e in pos.events if e["t"] == "deal"][-1]
    seen = set(parse_cards(deal["hands"][seat]))
    for e in pos.events:
        if e["t"] in ("play", "declare", "flip", "show_kitty"):
            for name in ("cards", "tried", "card"):
                seen.update(parse_cards(e.get(name) or ""))
    if any(e["t"] == "bury" and e["seat"] == seat for e in pos.events) or (
        viewer.holding is not None and len(viewer.holding) > len(parse_cards(deal["hands"][seat]))
    ):
        seen.update(parse_cards(deal["kitty"]))
    secrets = [deal["kitty"], *(h for other, h in enumerate(deal["hands"]) if other != seat)]
    for secret in secrets:
        unseen = set(parse_cards(secret)) - seen
        assert unseen & allowed <= revealed, sorted(map(str, unseen & allowed - revealed))


def test_the_log_mid_round_is_the_seats_own_and_whole_once_over(client: Client) -> None:
    pos = _drive(*POINTS["mid-trick"])
    client.cookies["table"] = "o" * 32
    game = _store(pos, "o" * 32, secret=True)
    lines = client.get(f"/play/{game.key}/log.jsonl").content.decode().splitlines()
    assert '"seed"' not in lines[0] and '"seed"' not in lines[1]
    deal = next(line for line in lines if '"t": "deal"' in line or '"t":"deal"' in line)
    assert deal.count('""') >= 3  # three hands and the kitty hidden
    done = _drive(*POINTS["over"])
    over = _store(done, "o" * 32, secret=True)
    whole = client.get(f"/play/{over.key}/log.jsonl").content.decode()
    assert f'"seed": {done.spec.seed}' in whole or f'"seed":{done.spec.seed}' in whole
    assert all(h in whole for h in done.events[1]["hands"])
