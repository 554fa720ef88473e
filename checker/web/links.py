"""Checker links: the contract's query parameters, built from cases and normalised."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from checker.engine.cards import ascii_card, ascii_upper, parse_cards
from checker.engine.vocab import SUIT_ALIASES, is_no_trump

# The contract's parameters, in the order a canonical link writes them.
BASE_PARAMS = ("ruleset", "level", "trump", "options", "banker", "lead", "h0")
MAX_SEATS = 8


def seat_params(players: int) -> list[str]:
    out: list[str] = []
    for i in range(1, max(players, 2)):
        out += [f"h{i}", f"p{i}"]
    return out


def ascii_cards(value: Any) -> str:
    """Cards (text or list) in the link-friendly ASCII spelling, space separated."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        value = " ".join(str(v) for v in value)
    return " ".join(ascii_card(c) for c in parse_cards(str(value)))


def options_param(options: Any) -> str:
    if not options or not isinstance(options, Mapping):
        return ""
    parts = []
    for key, value in options.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        parts.append(f"{key}:{value}")
    return ",".join(parts)


def checker_query(params: Mapping[str, str]) -> str:
    """A canonical query string: known parameters only, in contract order, empty ones left out."""
    order = list(BASE_PARAMS) + seat_params(MAX_SEATS + 1)
    pairs = [(k, params[k]) for k in order if params.get(k)]
    return urlencode(pairs)


def case_checker_params(result: Any) -> dict[str, str] | None:
    """The checker scenario of a case, for "open in checker"; None for kinds it cannot show."""
    data: Mapping[str, Any] = result.input or {}
    kind = result.kind
    params: dict[str, str] = {"ruleset": result.ruleset}
    if data.get("level") is not None:
        params["level"] = str(data["level"])
    trump = data.get("trump")
    params["trump"] = "none" if trump is None else trump_param(str(trump))
    opts = options_param(data.get("options"))
    if opts:
        params["options"] = opts
    try:
        if kind == "classify":
            params["lead"] = ascii_cards(data.get("cards"))
        elif kind == "follow":
            params["lead"] = ascii_cards(data.get("lead"))
            params["h1"] = ascii_cards(data.get("hand"))
            if data.get("play") is not None:
                params["p1"] = ascii_cards(data.get("play"))
        elif kind == "throw":
            params["lead"] = ascii_cards(data.get("cards"))
            for i, hand in enumerate(data.get("others") or [], start=1):
                params[f"h{i}"] = ascii_cards(hand)
        elif kind in ("trick", "compare"):
            plays = list(data.get("plays") or [])
            if kind == "compare" and data.get("lead") is not None:
                plays = [data.get("lead")] + plays
            if not plays:
                return None
            params["lead"] = ascii_cards(plays[0])
            for i, play in enumerate(plays[1:], start=1):
                params[f"p{i}"] = ascii_cards(play)
            for i, hand in enumerate(data.get("hands") or []):
                params[f"h{i}"] = ascii_cards(hand)
        else:
            return None
    except (ValueError, TypeError):
        return None
    return params if params.get("lead") else None


def trump_param(value: str) -> str:
    """Write a trump value the way links do: a suit letter, or none for no trump."""
    text = value.strip()
    if not text or is_no_trump(text):
        return "none"
    return SUIT_ALIASES.get(ascii_upper(text), ascii_upper(text))


def _is_card_param(key: str) -> bool:
    return key == "lead" or (key[:1] in ("h", "p") and key[1:].isdigit())


def canonical_params(params: Mapping[str, str]) -> dict[str, str]:
    """The same scenario with cards in ASCII spelling and the trump as a letter or none."""
    out: dict[str, str] = {}
    for key, value in params.items():
        if _is_card_param(key) and value:
            with contextlib.suppress(ValueError):
                value = ascii_cards(value)
        elif key == "trump" and value:
            value = trump_param(value)
        elif key == "level" and value:
            value = ascii_upper(value.strip())
        out[key] = value
    return out
