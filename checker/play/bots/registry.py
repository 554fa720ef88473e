"""The bots by name: one registry behind make_players, simulate --players, duels and the
play table."""

from __future__ import annotations

import random
from collections.abc import Callable

from checker.engine.errors import EngineError

from ..players import Player
from .basic import GreedyBot, RandomBot
from .search import V3Bot
from .v1 import V1Bot
from .v2 import V2Bot

BotFactory = Callable[[random.Random], Player]

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "v1": V1Bot,
    "v2": V2Bot,
    "v3": V3Bot,
}
# The bots' names, weakest first: what a seat, --players and a duel may name.
PLAYER_KINDS: tuple[str, ...] = tuple(BOTS)
# What a seat plays when nobody names one: v2, the strongest of the quick bots (v3 searches
# for up to a second a play; the table offers it as 高手 / expert).
DEFAULT_BOT = "v2"
# The strongest bot, offered at the table as 高手 / expert.
EXPERT_BOT = "v3"


class UnknownBotError(EngineError):
    """A bot name that is not registered; the message quotes it and lists the names."""

    def __init__(self, name: str) -> None:
        known = ", ".join(BOTS)
        super().__init__(
            f"未知的机器人“{name}”（可用：{known}）",
            en=f"unknown bot '{name}' (known: {known})",
            field="bot",
            value=name,
        )
        self.name = name


def bot_names() -> tuple[str, ...]:
    """List the registered bot names, weakest first."""
    return PLAYER_KINDS


def make_bot(name: str, rng: random.Random, budget_ms: float | None = None) -> Player:
    """Make one bot by name with its own random generator (and, for a searching bot, this
    search budget in ms instead of the current one)."""
    factory = BOTS.get(name)
    if factory is None:
        raise UnknownBotError(name)
    if budget_ms is not None and name == EXPERT_BOT:
        return V3Bot(rng, budget_ms)
    return factory(rng)


def make_players(name: str, seed: int, count: int) -> list[Player]:
    """Make one bot per seat, each with its own generator derived from the seed."""
    if name not in BOTS:
        raise UnknownBotError(name)
    return [make_bot(name, random.Random(seed * 16 + seat + 1)) for seat in range(count)]
