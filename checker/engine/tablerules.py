"""A room's table features as ruleset data (seed 001 §10, §11, §12.2): the attackers' signals,
the per-turn countdown, the room-card cost and dissolving a match, and the pair counts shown
on the suit buttons when the banker picks the trump. Read through `Ruleset.table`; a ruleset
without a `table:` section has none of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .cards import Card
from .texts import Lang, pick

# The attackers' signals to their partner (§11), each with its words in both languages.
SIGNAL_WORDS: Mapping[str, tuple[str, str, str, str]] = MappingProxyType(
    {
        "cai": ("踩", "Trump it", "我能大过庄家", "I can beat the banker"),
        "no_points": ("没分", "No points", "我手上没分了", "I have no points left"),
        "has_points": ("有分", "Points", "我手上有分", "I hold points"),
    }
)
# The phases a countdown may be set for (those a seat decides in).
COUNTDOWN_PHASES = ("declare", "bid", "surrender", "pick_trump", "bury", "lead", "follow")
ROOM_CARD_MODES = ("aa", "owner")
TABLE_KEYS = {"signals", "countdown", "room_cards", "trump_pairs", "dissolve"}


def _frozen() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class TableRules:
    """The table features a ruleset turns on (empty: none)."""

    signals: tuple[str, ...] = ()
    countdown: Mapping[str, int] = field(default_factory=_frozen)
    room_cards: Mapping[str, Mapping[int, int]] = field(default_factory=_frozen)
    trump_pairs: bool = False
    dissolve: bool = False


def parse_table(data: Any) -> TableRules:
    """Read a ruleset's `table:` section; ValueError (English) names what is wrong."""
    if data is None:
        return TableRules()
    if not isinstance(data, dict):
        raise ValueError("table must be a mapping")
    unknown = sorted(set(data) - TABLE_KEYS)
    if unknown:
        raise ValueError(f"unknown fields in table: {', '.join(unknown)}")
    signals = tuple(str(s) for s in data.get("signals") or ())
    bad = [s for s in signals if s not in SIGNAL_WORDS]
    if bad:
        raise ValueError(
            f"table.signals: unknown signal {bad[0]} (known: {', '.join(SIGNAL_WORDS)})"
        )
    countdown = dict(data.get("countdown") or {})
    for phase, seconds in countdown.items():
        if phase not in COUNTDOWN_PHASES or type(seconds) is not int or not 0 < seconds <= 600:
            raise ValueError(f"table.countdown.{phase}: a phase and 1–600 seconds")
    cards = dict(data.get("room_cards") or {})
    for mode, costs in cards.items():
        if mode not in ROOM_CARD_MODES or not isinstance(costs, dict):
            raise ValueError(f"table.room_cards.{mode}: modes are {', '.join(ROOM_CARD_MODES)}")
        if not all(type(k) is int and type(v) is int and k > 0 and v > 0 for k, v in costs.items()):
            raise ValueError(f"table.room_cards.{mode}: rounds → cards, whole numbers above 0")
    return TableRules(
        signals=signals,
        countdown=MappingProxyType(countdown),
        room_cards=MappingProxyType({m: MappingProxyType(dict(c)) for m, c in cards.items()}),
        trump_pairs=bool(data.get("trump_pairs", False)),
        dissolve=bool(data.get("dissolve", False)),
    )


def signal_name(code: str, lang: Lang) -> str:
    """Name a signal (踩 / 没分 / 有分) in the language asked for."""
    zh, en, _, _ = SIGNAL_WORDS[code]
    return pick(lang, zh, en)


def signal_meaning(code: str, lang: Lang) -> str:
    """Say what a signal tells the partner."""
    _, _, zh, en = SIGNAL_WORDS[code]
    return pick(lang, zh, en)


def signal_code(word: str) -> str | None:
    """Read a typed signal: its code (cai, ~cai), its Chinese name (踩) or its English name
    (trump it); None when the word names no signal."""
    said = word.strip().lower().removeprefix("~").replace(" ", "_")
    for code, (zh, en, _, _) in SIGNAL_WORDS.items():
        if said in (code, zh, en.lower().replace(" ", "_")):
            return code
    return None


def suit_pairs(cards: Iterable[Card], suit: str, fixed_ranks: Iterable[int]) -> tuple[int, int]:
    """Count the pairs of a suit in a hand, and how many of them are of ranks that are trumps
    whatever the suit (二七王's 2s and 7s): (pairs, fixed pairs)."""
    fixed = set(fixed_ranks)
    held = Counter(c for c in cards if c.suit == suit)
    pairs = sum(n // 2 for n in held.values())
    return pairs, sum(n // 2 for c, n in held.items() if c.rank in fixed)


def room_card_cost(rules: TableRules, mode: str, rounds: int) -> int | None:
    """Return the room cards a match of `rounds` rounds costs in a mode (None: not set)."""
    costs = rules.room_cards.get(mode)
    return None if costs is None else costs.get(rounds)


def room_card_words(mode: str, cost: int, rounds: int, lang: Lang) -> str:
    """Say a match's room-card cost: AA制 every player pays, 房主 the room's owner pays."""
    if mode == "aa":
        return pick(
            lang,
            f"AA 制：每人扣 {cost} 张房卡（{rounds} 局）",
            f"Split (AA): every player pays {cost} room card{'s' if cost != 1 else ''} "
            f"({rounds} rounds)",
        )
    return pick(
        lang,
        f"房主扣卡：房主扣 {cost} 张房卡（{rounds} 局）",
        f"Owner pays: the room's owner pays {cost} room card{'s' if cost != 1 else ''} "
        f"({rounds} rounds)",
    )
