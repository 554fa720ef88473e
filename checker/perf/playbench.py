"""The /play/ table's figures for manage.py benchweb: move time and page size."""

from __future__ import annotations

import re
import time
from typing import Any

from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings

from checker.engine.cards import ascii_card
from checker.models import PlayGame
from checker.play.game import Move, hint
from checker.web.play import LIVE, POSITIONS, game_spec

PLAY_RULESETS = ("classic", "erqiwang", "shuangsheng", "multideck")


def _move_fields(position: Any) -> dict[str, Any]:
    """A legal move for the human's decision, as the table's form posts it."""
    ask = position.ask
    if ask.phase == "bid":
        low = ask.bid_range[0]
        return {"move": f"b{low}"}
    if ask.phase == "surrender":
        return {"move": "n"}
    if ask.phase == "pick_trump":
        return {"move": "tS"}
    _forced, decision = hint(position)
    assert decision is not None
    if ask.phase == "declare":
        return {"move": Move("cards", tuple(decision.cards)).text()}
    return {"c": [ascii_card(c) for c in decision.cards]}


def play_rows(client: Client, rounds: int, out: Any) -> list[tuple[str, list[float]]]:
    """Play whole rounds through the views; time each move (human play + bots' replies).

    Each move is timed as its POST takes: the table page was just shown (its position is
    kept), the bots reply in the game's live round, and the partial is rendered.
    """
    call_command("migrate", verbosity=0)
    moves: list[float] = []
    largest = 0
    with transaction.atomic():
        for ruleset in PLAY_RULESETS:
            for seed in range(1, rounds + 1):
                POSITIONS.clear()
                LIVE.clear()  # the first move of each game starts its live round
                fields = {"ruleset": ruleset, "seed": seed, "seat": 0}
                with override_settings(PLAY_CREATE_PER_MINUTE=10**6):  # a bench, not a client
                    start = client.post("/play/", fields, secure=True)
                key = start["Location"].strip("/").split("/")[-1]
                for _ in range(300):
                    game = PlayGame.objects.get(key=key)
                    page = client.get(f"/play/{key}/", secure=True)
                    largest = max(largest, len(page.content))
                    position = POSITIONS.get(game_spec(game), game.moves)
                    if position.ask is None:
                        break
                    data = {"ply": game.ply, "phase": position.ask.phase, **_move_fields(position)}
                    began = time.perf_counter()
                    r = client.post(f"/play/{key}/move", data, secure=True, HTTP_HX_REQUEST="true")
                    moves.append((time.perf_counter() - began) * 1000)
                    if r.status_code != 200:
                        text = re.sub(r"\\s+", " ", r.content.decode())[:300]
                        raise SystemExit(f"move refused ({r.status_code}): {text}")
        transaction.set_rollback(True)
    out.write(f"play: largest full table page {largest / 1024:.1f} KB of HTML")
    return [("play: human move + bots' replies", moves)]
