"""A study's spec (YAML): its arms, bots, size and seed, checked before anything runs.

name: hold-banker
rounds: 20000          # or `matches: N` (whole matches)
seed: 1
bots: v2               # one bot for every seat, or one per seat: "v2,random,v2,random"
shard: 200             # rounds (or matches) per shard; optional
arms:
  - {ruleset: classic}
  - {ruleset: classic, options: {hold_banker: same}, label: same banker}
  - {ruleset_file: rulesets/house/terminal-003.yaml}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from checker.engine.errors import EngineError
from checker.engine.house import load_ruleset_file, resolve_ruleset, ruleset_ref
from checker.engine.ruleset import load_ruleset
from checker.play.seats import BotChoiceError, parse_bots

MAX_ROUNDS = 10_000_000  # per arm: ~60 CPU-hours of v2 bots, more than any study here needs
MAX_MATCHES = 100_000
MAX_ARMS = 50
SPEC_KEYS = {"name", "rounds", "matches", "seed", "bots", "arms", "shard"}
ARM_KEYS = {"ruleset", "ruleset_file", "options", "label"}


class SpecError(ValueError):
    """A study spec that cannot run; the message names the key and what is wrong with it."""


@dataclass(frozen=True)
class Arm:
    """One arm of a study: a ruleset (a name, or a name with its file's text) and options."""

    label: str
    ruleset: str | tuple[str, str]
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def ruleset_name(self) -> str:
        """Name the arm's ruleset."""
        return self.ruleset if isinstance(self.ruleset, str) else self.ruleset[0]

    def as_dict(self) -> dict[str, Any]:
        """Write the arm as plain data (a file's ruleset with its whole text, for a resume)."""
        text = None if isinstance(self.ruleset, str) else self.ruleset[1]
        return {
            "label": self.label,
            "ruleset": self.ruleset_name,
            "ruleset_text": text,
            "options": dict(self.options),
        }


@dataclass(frozen=True)
class StudySpec:
    """A checked study: what every arm plays, how much, from which seed, cut in shards."""

    name: str
    seed: int
    bots: str
    arms: tuple[Arm, ...]
    rounds: int = 0
    matches: int = 0
    shard: int = 200

    @property
    def unit(self) -> str:
        """Say what is counted: rounds, or whole matches."""
        return "matches" if self.matches else "rounds"

    @property
    def size(self) -> int:
        """Count the rounds (or matches) of one arm."""
        return self.matches or self.rounds

    def shard_count(self) -> int:
        """Count the shards of one arm."""
        return -(-self.size // self.shard)

    def as_dict(self) -> dict[str, Any]:
        """Write the spec as plain data (stored with the study; read back by from_dict)."""
        return {
            "name": self.name,
            "seed": self.seed,
            "bots": self.bots,
            self.unit: self.size,
            "shard": self.shard,
            "arms": [a.as_dict() for a in self.arms],
        }


def from_dict(data: dict[str, Any]) -> StudySpec:
    """Read back a spec stored by as_dict (rulesets of files come with their text)."""
    arms = tuple(
        Arm(
            a["label"],
            a["ruleset"] if a.get("ruleset_text") is None else (a["ruleset"], a["ruleset_text"]),
            dict(a.get("options") or {}),
        )
        for a in data["arms"]
    )
    return StudySpec(
        name=data["name"],
        seed=data["seed"],
        bots=data["bots"],
        arms=arms,
        rounds=data.get("rounds", 0),
        matches=data.get("matches", 0),
        shard=data["shard"],
    )


def read_spec(path: str | Path) -> StudySpec:
    """Read and check a spec file; SpecError names the file, the key and what is wrong."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise SpecError(f"{path}: cannot read the spec ({exc})") from exc
    try:
        return parse_spec(data, base=path.parent)
    except SpecError as exc:
        raise SpecError(f"{path}: {exc}") from exc


def _count(data: dict[str, Any], key: str, high: int, low: int = 1) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SpecError(f"{key}: {value!r} must be a whole number from {low} to {high:,}")
    return value


def parse_spec(data: Any, base: Path = Path(".")) -> StudySpec:
    """Check a spec's data: counts, seed, bots, and every arm's ruleset and options."""
    if not isinstance(data, dict):
        raise SpecError(
            "a study spec must be a mapping (name, rounds or matches, seed, bots, arms)"
        )
    unknown = sorted(set(data) - SPEC_KEYS)
    if unknown:
        raise SpecError(
            f"unknown keys {', '.join(unknown)} (known: {', '.join(sorted(SPEC_KEYS))})"
        )
    name = data.get("name", "study")
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        raise SpecError(f"name: {name!r} must be a text of 1 to 80 characters")
    if ("rounds" in data) == ("matches" in data):
        raise SpecError("give either rounds or matches (per arm), not both or neither")
    rounds = _count(data, "rounds", MAX_ROUNDS) if "rounds" in data else 0
    matches = _count(data, "matches", MAX_MATCHES) if "matches" in data else 0
    seed = _count(data, "seed", 2**63 - 1, 0) if "seed" in data else 1
    shard = _count(data, "shard", 100_000) if "shard" in data else (10 if matches else 200)
    arms_data = data.get("arms")
    if not isinstance(arms_data, list) or not 1 <= len(arms_data) <= MAX_ARMS:
        raise SpecError(f"arms: must be a list of 1 to {MAX_ARMS} arms")
    arms = tuple(_arm(a, i, base) for i, a in enumerate(arms_data))
    labels = [a.label for a in arms]
    if len(set(labels)) != len(labels):
        raise SpecError(
            f"arms: two arms have the same label ({', '.join(labels)}); give each a label"
        )
    players = {resolve_ruleset(a.ruleset).with_options(a.options).players for a in arms}
    bots = _bots(data.get("bots", "random"), players)
    if matches and "," in bots:
        raise SpecError("bots: one bot per seat works with rounds; whole matches take one bot name")
    return StudySpec(name.strip(), seed, bots, arms, rounds, matches, shard)


def _bots(value: Any, players: set[int]) -> str:
    if not isinstance(value, str):
        raise SpecError(f"bots: {value!r} must be a bot name or one name per seat, comma-separated")
    if "," in value and len(players) > 1:
        raise SpecError("bots: one bot per seat needs arms with the same number of players")
    try:
        return parse_bots(value, players.pop(), None)
    except BotChoiceError as exc:
        raise SpecError(str(exc)) from exc


def _arm(data: Any, i: int, base: Path) -> Arm:
    where = f"arms[{i}]"
    if not isinstance(data, dict):
        raise SpecError(f"{where}: must be a mapping with ruleset or ruleset_file, and options")
    unknown = sorted(set(data) - ARM_KEYS)
    if unknown:
        raise SpecError(
            f"{where}: unknown keys {', '.join(unknown)} (known: {', '.join(sorted(ARM_KEYS))})"
        )
    if ("ruleset" in data) == ("ruleset_file" in data):
        raise SpecError(f"{where}: give either ruleset (a name) or ruleset_file (a path)")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise SpecError(f"{where}.options: must be a mapping of option names to values")
    try:
        if "ruleset" in data:
            rs = load_ruleset(data["ruleset"])
        else:
            path = Path(str(data["ruleset_file"]))
            rs = load_ruleset_file(path if path.is_absolute() or path.exists() else base / path)
        rs.with_options(options)
    except EngineError as exc:
        key = (
            "options"
            if exc.field == "options"
            else ("ruleset" if "ruleset" in data else "ruleset_file")
        )
        raise SpecError(f"{where}.{key}: {exc.message_en}") from exc
    label = data.get("label") or (
        rs.name + "".join(f" {k}={v}" for k, v in sorted(options.items()))
    )
    return Arm(str(label)[:80], ruleset_ref(rs), dict(options))
