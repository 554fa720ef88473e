"""Rule variants as validated, frozen data loaded from rulesets/*.yaml."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from .cards import parse_rank
from .errors import CardError, RulesetError

RULESET_DIR = Path(__file__).resolve().parents[2] / "rulesets"

FAILED_THROW_POLICIES = ("first_beaten_unit", "smallest_of_beaten_kind", "smallest_card")
KITTY_POLICIES = ("by_unit", "power_of_two", "per_pair")
SCORE_POLICIES = ("levels", "bid_chips")
THROW_SUITS = ("any", "trump_only")
TEAM_POLICIES = ("partners", "banker_alone")
SELF_OVERRIDE = ("same_suit_only", "any")
# Match policies (section `match:`; an option of the same name overrides the value).
MATCH_POLICIES: dict[str, tuple[str, ...]] = {
    "first_banker": ("declarer", "seat0"),
    "hold_banker": ("partner", "same"),
    "takeover_banker": ("next_seat", "previous_seat"),
    "match_end": ("banker_wins_at_top", "side_wins_at_top", "reach_top", "rounds"),
}


@dataclass(frozen=True)
class OptionSpec:
    """One switchable rule of a ruleset: its default, allowed values and meaning."""

    name: str
    default: bool | str | int
    choices: tuple[bool | str | int, ...]
    description: str
    description_en: str = ""


@dataclass(frozen=True)
class Ruleset:
    """One rule variant; every behavioural difference between variants lives in these fields."""

    name: str
    title: str
    title_en: str
    description: str
    source: str
    players: int
    decks: int
    ranks: tuple[int, ...]
    jokers: bool
    has_level: bool
    trump_ranks: tuple[int | str, ...]
    teams: str
    hand_size: int
    kitty_size: int
    throw_suits: str
    failed_throw: str
    throw_penalty: tuple[int, int, int] | None
    kitty_policy: str
    kitty_values: Mapping[str, int]
    kitty_cap: int | None
    kitty_requires_trump: bool
    score_policy: str
    score_step: int
    score_swap_at: int
    score_zero_rise: int
    mandatory_levels: tuple[int, ...]
    declare_tiers: Mapping[str, int]
    declare_tiers_enhanced: Mapping[str, int]
    declare_self_override: str
    option_specs: Mapping[str, OptionSpec]
    options: Mapping[str, bool | str | int]
    conflicts: tuple[str, ...]
    has_flip: bool = False
    bidding: Mapping[str, int] | None = None
    chips: Mapping[str, Any] | None = None
    bonus_rules: Mapping[str, Any] | None = None
    reveal_rules: Mapping[str, Any] | None = None
    match: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    # The English words beside the Chinese ones (rules page in English); empty = not written.
    # conflicts_en pairs the start of a Chinese conflict note with its English text.
    description_en: str = ""
    conflicts_en: tuple[tuple[str, str], ...] = ()

    def conflict_in(self, note: str, lang: str) -> str:
        """Give a conflict note in the language asked for (the Chinese one when none is written)."""
        if lang.startswith("en"):
            flat = " ".join(note.split())
            for start, english in self.conflicts_en:
                if flat.startswith(start):
                    return english
        return note

    def option(self, name: str) -> Any:
        """Return the current value of a named option."""
        return self.options[name]

    def has_option(self, name: str) -> bool:
        """Tell whether this ruleset defines the named option."""
        return name in self.option_specs

    def with_options(self, overrides: Mapping[str, Any] | None) -> Ruleset:
        """Return this ruleset with some options switched, after checking names and values."""
        if not overrides:
            return self
        values = dict(self.options)
        for key, value in overrides.items():
            spec = self.option_specs.get(key)
            if spec is None:
                known = ", ".join(self.option_specs) or "无"
                known_en = ", ".join(self.option_specs) or "none"
                raise RulesetError(
                    f"规则集 {self.name} 没有选项“{key}”（可用：{known}）",
                    en=f"ruleset {self.name} has no option “{key}” (known: {known_en})",
                    field="options",
                    value=key,
                )
            value = _coerce_option(spec, value)
            values[key] = value
        return dataclasses.replace(self, options=MappingProxyType(values))

    def is_banker_side(self, seat: int, banker: int) -> bool:
        """Tell whether a seat plays on the banker's side (the one side-of-seat rule)."""
        if self.teams == "banker_alone":
            return seat == banker
        return (seat - banker) % 2 == 0

    def is_same_side(self, seat: int, other: int, banker: int) -> bool:
        """Tell whether two seats play on the same side, given the banker's seat."""
        return self.is_banker_side(seat, banker) == self.is_banker_side(other, banker)

    @property
    def total_points(self) -> int:
        """Points in the whole deck (5 = 5, 10 and K = 10)."""
        per_suit = sum({5: 5, 10: 10, 13: 10}.get(r, 0) for r in self.ranks)
        return per_suit * 4 * self.decks

    @property
    def deck_size(self) -> int:
        return (len(self.ranks) * 4 + (2 if self.jokers else 0)) * self.decks


def _coerce_option(spec: OptionSpec, value: Any) -> bool | str | int:
    if isinstance(spec.default, bool):
        if isinstance(value, str) and value.lower() in ("true", "1", "yes", "on"):
            value = True
        elif isinstance(value, str) and value.lower() in ("false", "0", "no", "off"):
            value = False
    if value not in spec.choices or type(value) is not type(spec.default):
        allowed = " / ".join(
            str(c).lower() if isinstance(c, bool) else str(c) for c in spec.choices
        )
        raise RulesetError(
            f"选项 {spec.name} 的值“{value}”无效（可选：{allowed}）",
            en=f"option {spec.name}: “{value}” is not valid (choose {allowed})",
            field="options",
            value=str(value),
        )
    return value


def ruleset_names() -> list[str]:
    """List the names of the rulesets shipped in rulesets/."""
    return sorted(p.stem for p in RULESET_DIR.glob("*.yaml"))


@cache
def load_ruleset(name: str) -> Ruleset:
    """Load and validate one ruleset by name."""
    if not isinstance(name, str) or not name.replace("_", "").replace("-", "").isalnum():
        raise RulesetError(
            f"未知规则集“{name}”", en=f"unknown ruleset “{name}”", field="ruleset", value=str(name)
        )
    path = RULESET_DIR / f"{name}.yaml"
    if not path.is_file():
        known = ", ".join(ruleset_names())
        raise RulesetError(
            f"未知规则集“{name}”（可用：{known}）",
            en=f"unknown ruleset “{name}” (known: {known})",
            field="ruleset",
            value=name,
        )
    with path.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    return parse_ruleset(data, path.name)


_TOP_KEYS = {
    "flip",
    "bidding",
    "chips",
    "bonus",
    "reveal",
    "match",
    "name",
    "title",
    "title_en",
    "description",
    "description_en",
    "source",
    "players",
    "decks",
    "ranks",
    "jokers",
    "level",
    "trump_ranks",
    "teams",
    "hand_size",
    "kitty_size",
    "throw",
    "kitty",
    "score",
    "declare",
    "options",
    "conflicts",
    "conflicts_en",
    "extra",
}


def _req(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise RulesetError(f"{where}: 缺少字段 {key}", field=key)
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RulesetError(
            f"{where}: 字段 {key} 的值“{value}”类型不对", field=key, value=str(value)
        )
    return value


def _choice(value: Any, choices: tuple[str, ...], key: str, where: str) -> str:
    if value not in choices:
        raise RulesetError(
            f"{where}: {key} 的值“{value}”无效（可选：{' / '.join(choices)}）", field=key
        )
    return str(value)


def _rank(value: Any, where: str) -> int:
    try:
        return parse_rank(str(value))
    except CardError as exc:
        raise RulesetError(f"{where}: {exc.message}") from exc


_SECTION_KEYS = {
    "throw": {"suits", "failed", "penalty"},
    "kitty": {"policy", "values", "cap", "requires_trump"},
    "score": {"policy", "step", "swap_at", "zero_rise", "mandatory_levels"},
    "declare": {"tiers", "tiers_enhanced", "self_override"},
    "bidding": {"min", "max", "step", "surrender_bid", "show_kitty"},
    "chips": {
        "base",
        "below",
        "base_climb",
        "surrender",
        "sweep_multiplier",
        "small_sweep_multiplier",
        "q",
        "q_climb",
    },
    "bonus": {"jokers", "ranks", "chain_needs_jokers"},
    "reveal": {"fixed_trumps", "jokers", "ranks", "no_trump"},
    "match": set(MATCH_POLICIES) | {"match_rounds"},
}


def _check_sections(data: Mapping[str, Any], where: str) -> None:
    for section, allowed in _SECTION_KEYS.items():
        value = data.get(section)
        if value is None:
            continue
        if not isinstance(value, dict):
            raise RulesetError(f"{where}: {section} 必须是映射", field=section)
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise RulesetError(
                f"{where}: {section} 中的未知字段 {', '.join(unknown)}"
                f"（可用：{', '.join(sorted(allowed))}）",
                field=section,
            )
    penalty = (data.get("throw") or {}).get("penalty")
    if penalty is not None and (
        not isinstance(penalty, dict) or set(penalty) != {"single", "pair", "tractor_per_pair"}
    ):
        raise RulesetError(
            f"{where}: throw.penalty 必须恰好含 single、pair、tractor_per_pair", field="throw"
        )


def _section(
    data: Mapping[str, Any], key: str, required: tuple[str, ...], where: str
) -> Mapping[str, Any] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RulesetError(f"{where}: {key} 必须是映射", field=key)
    missing = [k for k in required if k not in value]
    if missing:
        raise RulesetError(f"{where}: {key} 缺少 {', '.join(missing)}", field=key)
    return MappingProxyType(dict(value))


def parse_ruleset(data: Any, where: str = "ruleset") -> Ruleset:
    """Build a Ruleset from parsed YAML, rejecting unknown keys and bad values."""
    if not isinstance(data, dict):
        raise RulesetError(f"{where}: 规则集文件必须是一个映射")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise RulesetError(f"{where}: 未知字段 {', '.join(sorted(unknown))}")
    _check_sections(data, where)
    ranks = tuple(sorted(_rank(r, where) for r in _req(data, "ranks", list, where)))
    trump_ranks: list[int | str] = []
    for r in data.get("trump_ranks", ["level"]):
        trump_ranks.append("level" if r == "level" else _rank(r, where))
    throw = _req(data, "throw", dict, where)
    kitty = _req(data, "kitty", dict, where)
    score = _req(data, "score", dict, where)
    declare = data.get("declare") or {}
    penalty = throw.get("penalty")
    throw_penalty = None
    if penalty:
        throw_penalty = (
            int(penalty["single"]),
            int(penalty["pair"]),
            int(penalty["tractor_per_pair"]),
        )
    specs: dict[str, OptionSpec] = {}
    for key, spec in (data.get("options") or {}).items():
        if not isinstance(spec, dict) or "default" not in spec:
            raise RulesetError(f"{where}: 选项 {key} 需要 default")
        default = spec["default"]
        choices = tuple(
            spec.get("choices", [False, True] if isinstance(default, bool) else [default])
        )
        specs[key] = OptionSpec(
            key,
            default,
            choices,
            str(spec.get("description", "")),
            " ".join(str(spec.get("description_en", "")).split()),
        )
    if data.get("score", {}).get("policy") == "bid_chips" and not (
        data.get("bidding") and data.get("chips")
    ):
        raise RulesetError(f"{where}: score.policy bid_chips 需要 bidding 与 chips 两节")
    return Ruleset(
        name=_req(data, "name", str, where),
        title=_req(data, "title", str, where),
        title_en=str(data.get("title_en", data["title"])),
        description=str(data.get("description", "")).strip(),
        source=str(data.get("source", "")),
        players=_req(data, "players", int, where),
        decks=_req(data, "decks", int, where),
        ranks=ranks,
        jokers=bool(data.get("jokers", True)),
        has_level=bool(data.get("level", True)),
        trump_ranks=tuple(trump_ranks),
        teams=_choice(data.get("teams", "partners"), TEAM_POLICIES, "teams", where),
        hand_size=_req(data, "hand_size", int, where),
        kitty_size=_req(data, "kitty_size", int, where),
        throw_suits=_choice(throw.get("suits", "any"), THROW_SUITS, "throw.suits", where),
        failed_throw=_choice(throw.get("failed"), FAILED_THROW_POLICIES, "throw.failed", where),
        throw_penalty=throw_penalty,
        kitty_policy=_choice(kitty.get("policy"), KITTY_POLICIES, "kitty.policy", where),
        kitty_values=MappingProxyType({k: int(v) for k, v in (kitty.get("values") or {}).items()}),
        kitty_cap=kitty.get("cap"),
        kitty_requires_trump=bool(kitty.get("requires_trump", False)),
        score_policy=_choice(score.get("policy"), SCORE_POLICIES, "score.policy", where),
        score_step=int(score.get("step", 40)),
        score_swap_at=int(score.get("swap_at", 80)),
        score_zero_rise=int(score.get("zero_rise", 3)),
        mandatory_levels=tuple(_rank(r, where) for r in score.get("mandatory_levels", [])),
        declare_tiers=MappingProxyType(dict(declare.get("tiers") or {})),
        declare_tiers_enhanced=MappingProxyType(dict(declare.get("tiers_enhanced") or {})),
        declare_self_override=_choice(
            declare.get("self_override", "any"), SELF_OVERRIDE, "declare.self_override", where
        ),
        option_specs=MappingProxyType(specs),
        options=MappingProxyType({k: s.default for k, s in specs.items()}),
        conflicts=tuple(str(c).strip() for c in data.get("conflicts") or []),
        description_en=" ".join(str(data.get("description_en", "")).split()),
        conflicts_en=tuple(
            (" ".join(str(c.get("of", "")).split()), " ".join(str(c.get("en", "")).split()))
            for c in data.get("conflicts_en") or []
            if isinstance(c, dict) and c.get("of") and c.get("en")
        ),
        has_flip=bool(data.get("flip", False)),
        bidding=_section(data, "bidding", ("min", "max", "step"), where),
        chips=_section(data, "chips", ("base", "below", "q"), where),
        bonus_rules=_section(data, "bonus", ("jokers", "ranks"), where),
        reveal_rules=_section(data, "reveal", ("fixed_trumps", "jokers", "ranks"), where),
        match=_match_section(data, specs, where),
        extra=MappingProxyType(dict(data.get("extra") or {})),
    )


def _match_section(
    data: Mapping[str, Any], specs: Mapping[str, OptionSpec], where: str
) -> Mapping[str, Any]:
    """Check the match policies: each named in `match:` or as an option, with a known value."""
    section = dict(data.get("match") or {})
    if not section:
        return MappingProxyType({})
    for key, allowed in MATCH_POLICIES.items():
        spec = specs.get(key)
        values = [section[key]] if key in section else []
        values += list(spec.choices) if spec else []
        if not values:
            raise RulesetError(f"{where}: match 缺少 {key}（或同名选项）", field="match")
        for value in values:
            _choice(value, allowed, f"match.{key}", where)
    return MappingProxyType(section)
