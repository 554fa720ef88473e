"""Rule variants as validated, frozen data loaded from rulesets/*.yaml.

A Ruleset holds typed, frozen sections (deck, throw, kitty, score, declare) with named
policies; the flat attribute names older code reads (``rs.kitty_size``, ``rs.throw_suits`` …)
are read-only properties over those sections.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from .cards import parse_rank
from .errors import CardError, PlayError, RulesetError
from .tablerules import TableRules, parse_table

RULESET_DIR = Path(__file__).resolve().parents[2] / "rulesets"
HOUSE_DIR = RULESET_DIR / "house"

CARDS_PER_DECK = 54


class Teams(StrEnum):
    """Who plays with whom: partners every other seat, or the banker alone against the rest."""

    PARTNERS = "partners"
    BANKER_ALONE = "banker_alone"


class ThrowSuits(StrEnum):
    """Which suits may be thrown: any suit, or trumps only."""

    ANY = "any"
    TRUMP_ONLY = "trump_only"


class FailedThrow(StrEnum):
    """What a failed throw must play: the beaten unit, the smallest of its kind, or one card."""

    FIRST_BEATEN_UNIT = "first_beaten_unit"
    SMALLEST_OF_BEATEN_KIND = "smallest_of_beaten_kind"
    SMALLEST_CARD = "smallest_card"


class KittyPolicy(StrEnum):
    """How the kitty's points are multiplied for the attackers taking the last trick."""

    BY_UNIT = "by_unit"
    POWER_OF_TWO = "power_of_two"
    PER_PAIR = "per_pair"
    BY_CARDS = "by_cards"


class ScorePolicy(StrEnum):
    """How a round is settled: levels from the attackers' points, or chips from the bid."""

    LEVELS = "levels"
    BID_CHIPS = "bid_chips"


class SelfOverride(StrEnum):
    """Whether a player may override their own declaration in another suit."""

    SAME_SUIT_ONLY = "same_suit_only"
    ANY = "any"


class FirstBanker(StrEnum):
    """Who is the first round's banker: whoever fixes trump, or seat 0."""

    DECLARER = "declarer"
    SEAT0 = "seat0"


class HoldBanker(StrEnum):
    """Who is banker next when the banker's side wins: the partner, or the banker again."""

    PARTNER = "partner"
    SAME = "same"


class TakeoverBanker(StrEnum):
    """Who is banker next when the attackers win: the banker's next or previous seat."""

    NEXT_SEAT = "next_seat"
    PREVIOUS_SEAT = "previous_seat"


class MatchEnd(StrEnum):
    """When a match is over."""

    BANKER_WINS_AT_TOP = "banker_wins_at_top"
    SIDE_WINS_AT_TOP = "side_wins_at_top"
    REACH_TOP = "reach_top"
    ROUNDS = "rounds"


class Review(StrEnum):
    """The option `review`: may players look back on the cards (可查牌) or not (不查牌)."""

    OPEN = "open"
    CLOSED = "closed"


class Rethrow(StrEnum):
    """The option `rethrow`: after a failed throw, no more throws this round, or only this trick."""

    BANNED_FOR_ROUND = "banned_for_round"
    ALLOWED = "allowed"


class DeclareView(StrEnum):
    """The option `declare_view`: declarations shown to everyone, or only counted (暗亮)."""

    OPEN = "open"
    HIDDEN = "hidden"


# Match policies (section `match:`; an option of the same name overrides the value).
MATCH_POLICIES: dict[str, type[StrEnum]] = {
    "first_banker": FirstBanker,
    "hold_banker": HoldBanker,
    "takeover_banker": TakeoverBanker,
    "match_end": MatchEnd,
}
# Options whose values are policies: each choice must be one of the enum's values.
OPTION_POLICIES: dict[str, type[StrEnum]] = {
    **MATCH_POLICIES,
    "review": Review,
    "rethrow": Rethrow,
    "declare_view": DeclareView,
}
# The policies of a ruleset that has no `match:` section (the 双升 §8 rotation, a match won by
# winning a round at A; a 6-round match where the banker plays alone).
MATCH_DEFAULTS: dict[str, Any] = {
    "first_banker": FirstBanker.DECLARER,
    "hold_banker": HoldBanker.PARTNER,
    "takeover_banker": TakeoverBanker.NEXT_SEAT,
    "match_end": MatchEnd.SIDE_WINS_AT_TOP,
    "match_rounds": 6,
}


class DeclarePolicy(StrEnum):
    """How declarations outrank each other: by a tier table, or by the number of copies."""

    TIERS = "tiers"
    COPIES = "copies"


class NobodyDeclares(StrEnum):
    """What happens when the deal ends without a declaration."""

    REDEAL = "redeal"
    FLIP = "flip"
    NO_TRUMP = "no_trump"


class KittyOnBankerWin(StrEnum):
    """What the kitty does when the banker's side wins the last trick."""

    NOTHING = "nothing"
    DEDUCT = "deduct"


class EmptyKitty(StrEnum):
    """What is multiplied when there is no kitty at all."""

    NOTHING = "nothing"
    LAST_TRICK = "last_trick"


class ScoreThresholds(StrEnum):
    """Where the score bands come from: fixed numbers, or formulas in the number of decks."""

    FIXED = "fixed"
    BY_DECKS = "by_decks"


class SmallSweepFormula(StrEnum):
    """The 保底分 (small-sweep line) for k decks: 5·3^(k-1) (seed's numbers) or k!·5 (its formula)."""

    THREE_POWER = "three_power"
    FACTORIAL = "factorial"


class TractorNames(StrEnum):
    """How multi-rank units are named: always 拖拉机, or 拖拉机/推土机/火车 by width and length."""

    PLAIN = "plain"
    BY_SHAPE = "by_shape"


class TractorOrder(StrEnum):
    """Which trumps are adjacent for tractors: the strength ladder itself, or the trump suit in
    its natural rank order (level card and 2 at their own rank) with the jokers above its A and
    every other trump joining nothing (seed 004 §6)."""

    LADDER = "ladder"
    NATURAL = "natural"


class BeatenBy(StrEnum):
    """What breaks a unit of a throw: only a higher unit of its own shape, or also a wider unit
    with the same number of cards (as one-unit plays compare: 5555 > 6677)."""

    SAME_SHAPE = "same_shape"
    SAME_COUNT = "same_count"


@dataclass(frozen=True)
class OptionSpec:
    """One switchable rule of a ruleset: its default, allowed values and meaning."""

    name: str
    default: bool | str | int
    choices: tuple[bool | str | int, ...]
    description: str
    sets: str = ""  # the top-level ruleset field this option rewrites (decks, players)
    description_en: str = ""


@dataclass(frozen=True)
class DeckRules:
    """The cards: decks, ranks, jokers, playable levels, seats and how the deck is dealt."""

    decks: int
    ranks: tuple[int, ...]
    jokers: bool
    has_level: bool
    levels: tuple[int, ...]
    trump_ranks: tuple[int | str, ...]
    players: int
    teams: Teams
    hand_size: int
    kitty_size: int
    tractor_names: TractorNames = TractorNames.PLAIN
    tractor_order: TractorOrder = TractorOrder.LADDER
    # The side suits in the order a sorted hand shows them (also the tie order of equal
    # trumps): alternating colours unless the ruleset's seed says otherwise.
    hand_suits: str = "SHCD"

    @property
    def size(self) -> int:
        """Count the cards of all decks together."""
        return (len(self.ranks) * 4 + (2 if self.jokers else 0)) * self.decks


@dataclass(frozen=True)
class ThrowRules:
    """Throws: which suits may be thrown, what a failed throw plays, its penalty."""

    suits: ThrowSuits
    failed: FailedThrow
    penalty: tuple[int, int, int] | None
    beaten_by: BeatenBy = BeatenBy.SAME_SHAPE


@dataclass(frozen=True)
class KittyRules:
    """The kitty multiplier policy and what happens with either side winning the last trick."""

    policy: KittyPolicy
    values: Mapping[str, int]
    cap: int | None
    requires_trump: bool
    banker_wins: KittyOnBankerWin = KittyOnBankerWin.NOTHING
    deduct_from: int = 2
    empty: EmptyKitty = EmptyKitty.NOTHING


BAND_RESULTS = ("big_sweep", "small_sweep", "hold", "swap", "promote")
BAND_WINNERS = ("banker", "attackers")


@dataclass(frozen=True)
class ScoreBand:
    """One row of a level table written as data: from `low` attacker points up to the next row."""

    low: int
    winner: str
    rise: int
    result: str


@dataclass(frozen=True)
class ScoreRules:
    """The score bands: big sweep, small sweep, banker holds, attackers take over and rise.

    `bands`, when given, is the whole level table (step, swap_at and zero_rise then only
    describe it: swap_at is where the attackers' first band starts); empty, the step rules
    settle the levels."""

    policy: ScorePolicy
    step: int
    swap_at: int
    zero_rise: int
    small_below: int
    mandatory_levels: tuple[int, ...]
    thresholds: ScoreThresholds = ScoreThresholds.FIXED
    bands: tuple[ScoreBand, ...] = ()


@dataclass(frozen=True)
class DeclareRules:
    """Declaring trump: what may declare, how declarations outrank each other, no declaration."""

    policy: DeclarePolicy
    tiers: Mapping[str, int]
    tiers_enhanced: Mapping[str, int]
    self_override: SelfOverride
    ranks: tuple[int | str, ...] = ("level",)
    two_locks: bool = False
    nobody: NobodyDeclares = NobodyDeclares.REDEAL


@dataclass(frozen=True)
class Ruleset:
    """One rule variant; every behavioural difference between variants lives in its sections."""

    name: str
    title: str
    title_en: str
    description: str
    source: str
    deck: DeckRules
    throw: ThrowRules
    kitty: KittyRules
    score: ScoreRules
    declare: DeclareRules
    option_specs: Mapping[str, OptionSpec]
    options: Mapping[str, bool | str | int]
    conflicts: tuple[str, ...]
    bidding: Mapping[str, int] | None = None
    chips: Mapping[str, Any] | None = None
    bonus_rules: Mapping[str, Any] | None = None
    reveal_rules: Mapping[str, Any] | None = None
    match: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    data: Mapping[str, Any] = field(
        default_factory=lambda: MappingProxyType({}), repr=False, compare=False
    )
    # The English words beside the Chinese ones (rules page in English); empty = not written.
    # conflicts_en pairs the start of a Chinese conflict note with its English text.
    description_en: str = ""
    conflicts_en: tuple[tuple[str, str], ...] = ()
    extends: str = ""  # the parent of a house ruleset ("" for a built-in one)
    table: TableRules = field(default_factory=TableRules)  # signals, countdown, room cards…

    def conflict_in(self, note: str, lang: str) -> str:
        """Give a conflict note in the language asked for (the Chinese one when none is written)."""
        if lang.startswith("en"):
            flat = " ".join(note.split())
            for start, english in self.conflicts_en:
                if flat.startswith(start):
                    return english
        return note

    # -- flat names, read by older code ---------------------------------------------------------
    @property
    def players(self) -> int:
        return self.deck.players

    @property
    def decks(self) -> int:
        return self.deck.decks

    @property
    def ranks(self) -> tuple[int, ...]:
        return self.deck.ranks

    @property
    def jokers(self) -> bool:
        return self.deck.jokers

    @property
    def has_level(self) -> bool:
        return self.deck.has_level

    @property
    def levels(self) -> tuple[int, ...]:
        return self.deck.levels

    @property
    def default_level(self) -> int | None:
        """Return the level a fresh question is dealt at: the ladder's first (multideck's 3,
        classic's 2); None for a ruleset without levels."""
        return self.levels[0] if self.has_level else None

    @property
    def default_trump(self) -> str:
        """Return the trump suit a fresh question is dealt with (♥: 打2, 主♥)."""
        return "H"

    @property
    def trump_ranks(self) -> tuple[int | str, ...]:
        return self.deck.trump_ranks

    @property
    def teams(self) -> Teams:
        return self.deck.teams

    @property
    def hand_suits(self) -> str:
        """Give the side suits in the order a sorted hand shows them (e.g. SHCD: ♠ ♥ ♣ ♦)."""
        return self.deck.hand_suits

    @property
    def hand_size(self) -> int:
        return self.deck.hand_size

    @property
    def kitty_size(self) -> int:
        return self.deck.kitty_size

    @property
    def throw_suits(self) -> ThrowSuits:
        return self.throw.suits

    @property
    def failed_throw(self) -> FailedThrow:
        return self.throw.failed

    @property
    def throw_penalty(self) -> tuple[int, int, int] | None:
        return self.throw.penalty

    @property
    def kitty_policy(self) -> KittyPolicy:
        return self.kitty.policy

    @property
    def kitty_values(self) -> Mapping[str, int]:
        return self.kitty.values

    @property
    def kitty_cap(self) -> int | None:
        return self.kitty.cap

    @property
    def kitty_requires_trump(self) -> bool:
        return self.kitty.requires_trump

    @property
    def score_policy(self) -> ScorePolicy:
        return self.score.policy

    @property
    def score_step(self) -> int:
        return self.score.step

    @property
    def score_swap_at(self) -> int:
        return self.score.swap_at

    @property
    def score_zero_rise(self) -> int:
        return self.score.zero_rise

    @property
    def mandatory_levels(self) -> tuple[int, ...]:
        return self.score.mandatory_levels

    @property
    def declare_tiers(self) -> Mapping[str, int]:
        return self.declare.tiers

    @property
    def declare_tiers_enhanced(self) -> Mapping[str, int]:
        return self.declare.tiers_enhanced

    @property
    def declare_self_override(self) -> SelfOverride:
        return self.declare.self_override

    @property
    def has_flip(self) -> bool:
        return self.declare.nobody == NobodyDeclares.FLIP

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
        if not isinstance(overrides, Mapping):
            raise RulesetError(
                f"options 必须是“名称: 值”的映射，而不是“{overrides}”",
                en=f"options must map names to values, not “{overrides}”",
                field="options",
            )
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
            values[key] = _coerce_option(spec, value)
        if values == dict(self.options):
            return self
        return _with_values(self, tuple(sorted(values.items(), key=lambda kv: kv[0])))

    # -- the questions callers ask of the policies (no policy value is compared elsewhere) -------
    @property
    def banker_plays_alone(self) -> bool:
        """Tell whether the banker plays alone against everyone else (settled seat by seat)."""
        return self.deck.teams == Teams.BANKER_ALONE

    @property
    def has_fixed_teams(self) -> bool:
        """Tell whether the sides are fixed partnerships of every other seat."""
        return self.deck.teams == Teams.PARTNERS

    @property
    def throws_trump_only(self) -> bool:
        """Tell whether only trumps may be thrown."""
        return self.throw.suits == ThrowSuits.TRUMP_ONLY

    @property
    def settles_by_bid(self) -> bool:
        """Tell whether a round is settled in chips from the bid rather than in levels."""
        return self.score.policy == ScorePolicy.BID_CHIPS

    @property
    def overrides_own_in_same_suit_only(self) -> bool:
        """Tell whether a player may override their own declaration only in its own suit."""
        return self.declare.self_override == SelfOverride.SAME_SUIT_ONLY

    @property
    def kitty_counts_by_unit(self) -> bool:
        """Tell whether the kitty's multiplier is read from a table by the last trick's unit."""
        return self.kitty.policy == KittyPolicy.BY_UNIT

    @property
    def has_fixed_level_table(self) -> bool:
        """Tell whether levels are settled by fixed point thresholds (not bids, not by decks)."""
        return (
            self.score_policy == ScorePolicy.LEVELS
            and self.score.thresholds == ScoreThresholds.FIXED
        )

    @property
    def review_is_open(self) -> bool:
        """Tell whether the room is in 可查牌 mode (no `review` option counts as open)."""
        return not self.has_option("review") or self.options["review"] == Review.OPEN

    @property
    def rethrow_is_banned(self) -> bool:
        """Tell whether a failed throw bars its player from throwing for the rest of the round."""
        return self.has_option("rethrow") and self.options["rethrow"] == Rethrow.BANNED_FOR_ROUND

    @property
    def declarations_are_hidden(self) -> bool:
        """Tell whether others see only how many cards a declaration showed (暗亮)."""
        return (
            self.has_option("declare_view") and self.options["declare_view"] == DeclareView.HIDDEN
        )

    def match_rule(self, key: str) -> Any:
        """Return one match policy: the option of that name when set, else the `match:` value."""
        if self.has_option(key):
            return self.option(key)
        if not self.match and key in MATCH_DEFAULTS:
            if key == "match_end" and self.banker_plays_alone:
                return MatchEnd.ROUNDS
            return MATCH_DEFAULTS[key]
        if key not in self.match:
            raise PlayError(
                f"{self.title}没有整场规则 {key}",
                en=f"{self.title_en} has no match rule {key}",
                field="ruleset",
                value=key,
            )
        return self.match[key]

    @property
    def first_banker(self) -> FirstBanker:
        """Return who is the first round's banker."""
        return FirstBanker(self.match_rule("first_banker"))

    @property
    def hold_banker(self) -> HoldBanker:
        """Return who is banker next when the banker's side wins."""
        return HoldBanker(self.match_rule("hold_banker"))

    @property
    def takeover_banker(self) -> TakeoverBanker:
        """Return who is banker next when the attackers win."""
        return TakeoverBanker(self.match_rule("takeover_banker"))

    @property
    def match_end(self) -> MatchEnd:
        """Return when a match is over."""
        return MatchEnd(self.match_rule("match_end"))

    def is_banker_side(self, seat: int, banker: int) -> bool:
        """Tell whether a seat plays on the banker's side (the one side-of-seat rule)."""
        if self.banker_plays_alone:
            return seat == banker
        return (seat - banker) % 2 == 0

    def is_same_side(self, seat: int, other: int, banker: int | None) -> bool:
        """Tell whether two seats play on the same side, given the banker's seat (None before
        the banker is known: only fixed partnerships are known sides then)."""
        if banker is None:
            return self.has_fixed_teams and (seat - other) % 2 == 0
        return self.is_banker_side(seat, banker) == self.is_banker_side(other, banker)

    @property
    def total_points(self) -> int:
        """Points in the whole deck (5 = 5, 10 and K = 10)."""
        per_suit = sum({5: 5, 10: 10, 13: 10}.get(r, 0) for r in self.ranks)
        return per_suit * 4 * self.decks

    @property
    def deck_size(self) -> int:
        return self.deck.size


_VARIANTS: dict[tuple[int, tuple[tuple[str, Any], ...]], Ruleset] = {}


def _with_values(rs: Ruleset, items: tuple[tuple[str, Any], ...]) -> Ruleset:
    """Build (once) the ruleset with these option values; options that set fields re-derive."""
    key = (id(rs.data), items)
    hit = _VARIANTS.get(key)
    if hit is not None:
        return hit
    values = dict(items)
    sets = {spec.sets: values[name] for name, spec in rs.option_specs.items() if spec.sets}
    if any(rs.data.get(f) != v for f, v in sets.items()):
        data = {**rs.data, **sets}
        base = parse_ruleset(data, f"{rs.name}.yaml（options）")
        out = dataclasses.replace(base, options=MappingProxyType(values), data=rs.data)
    else:
        out = dataclasses.replace(rs, options=MappingProxyType(values))
    out = _apply_option_policies(out)
    if len(_VARIANTS) > 256:
        _VARIANTS.clear()
    _VARIANTS[key] = out
    return out


def _coerce_option(spec: OptionSpec, value: Any) -> bool | str | int:
    if isinstance(spec.default, bool):
        if isinstance(value, str) and value.lower() in ("true", "1", "yes", "on"):
            value = True
        elif isinstance(value, str) and value.lower() in ("false", "0", "no", "off"):
            value = False
    elif isinstance(spec.default, int) and isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())  # links write every option value as text
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


# House rulesets: a ruleset file that `extends` another one and overrides some of its keys
# (contract, third edition). They live here with the loading by name because a preset's parent
# is loaded by name and a preset is found by name: the two call each other.

# Names whose files are being read right now, parent after child: `extends` in a loop stops here.
_LOADING: list[str] = []
# Where each ruleset loaded from a file came from (a file loaded again replaces its own ruleset).
_SOURCES: dict[str, Path] = {}


def merge_data(parent: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    """Return the parent's keys overridden by the child's: mappings merged, the rest replaced."""
    out = dict(parent)
    for key, value in child.items():
        below = out.get(key)
        if isinstance(value, Mapping) and isinstance(below, Mapping):
            out[key] = merge_data(below, value)
        else:
            out[key] = value
    return out


def _error(where: str, zh: str, en: str, field: str) -> RulesetError:
    return RulesetError(f"{where}: {zh}", en=f"{where}: {en}", field=field)


def parse_house(data: Any, where: str) -> Ruleset:
    """Validate a ruleset file's data, merged over its parent's when it names one in `extends`."""
    if not isinstance(data, dict):
        return parse_ruleset(data, where)
    name = data.get("name")
    if not isinstance(name, str) or not _is_name(name):
        raise _error(
            where,
            f"name 必须是由字母、数字、- 或 _ 组成的名字，而不是“{name}”",
            f"name must be a name of letters, digits, - or _, not “{name}”",
            "name",
        )
    parent_name = data.get("extends")
    if parent_name is None:
        return parse_ruleset(data, where)
    if not isinstance(parent_name, str) or not _is_name(parent_name):
        raise _error(
            where,
            f"extends 的值“{parent_name}”无效",
            f"extends: “{parent_name}” is not valid",
            "extends",
        )
    if parent_name == name:
        raise _error(
            where,
            f"规则集 {name} 不能 extends 自己",
            f"ruleset {name} cannot extend itself",
            "extends",
        )
    if parent_name in _LOADING:
        loop = " → ".join([*_LOADING[_LOADING.index(parent_name) :], name, parent_name])
        raise _error(
            where, f"extends 成环：{loop}", f"extends goes round in a loop: {loop}", "extends"
        )
    _LOADING.append(name)
    try:
        parent = load_ruleset(parent_name)
    except RulesetError as exc:
        if exc.field != "ruleset":
            raise  # the parent's own file is broken: its error names that file
        raise _error(
            where,
            f"extends 的父规则集“{parent_name}”不存在（{exc.message}）",
            f"extends names a parent “{parent_name}” that does not exist ({exc.message_en})",
            "extends",
        ) from exc
    finally:
        _LOADING.pop()
    merged = merge_data(parent.data, data)
    # The parent's title would name the wrong ruleset: without its own, it is called by its name.
    merged["title"] = data.get("title", name)
    merged["title_en"] = data.get("title_en", data.get("title", name))
    return parse_ruleset(merged, where)


def read_ruleset_text(text: str, where: str) -> Ruleset:
    """Parse a ruleset file's text (YAML) into a validated, not yet registered, Ruleset."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise _error(where, f"YAML 有误：{exc}", f"the YAML is broken: {exc}", "yaml") from exc
    try:
        return parse_house(data, where)
    except RulesetError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        # A value of a shape no check above expected: still the file's fault, said plainly.
        raise _error(
            where, f"无效的值（{exc!r}）", f"a value is not valid ({exc!r})", "file"
        ) from exc


def load_ruleset_file(path: str | Path) -> Ruleset:
    """Read, validate and register a ruleset file; its name then works like a built-in one."""
    path = Path(path)
    where = str(path) if path.parent != Path(".") else path.name
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _error(
            where, f"读不了文件（{exc}）", f"cannot read the file ({exc})", "file"
        ) from exc
    in_house = path.parent.resolve() == _house_dir()
    if in_house:
        where = f"rulesets/house/{path.name}"
    rs = read_ruleset_text(text, where)
    if in_house and rs.name != path.stem:
        raise _error(
            where,
            f"house 规则集的 name（{rs.name}）必须与文件名 {path.stem} 相同",
            f"a house ruleset's name ({rs.name}) must be its file name {path.stem}",
            "name",
        )
    owner = _SOURCES.get(rs.name)
    clashes = rs.name in builtin_ruleset_names() or (
        not in_house and rs.name in house_ruleset_names()
    )
    if clashes or (owner is not None and owner != path.resolve()):
        raise _error(
            where,
            f"name“{rs.name}”与已有的规则集重名",
            f"name “{rs.name}” clashes with a ruleset already loaded",
            "name",
        )
    if in_house:
        return rs  # found again by name in rulesets/house/, never listed among the loaded files
    _SOURCES[rs.name] = path.resolve()
    LOADED[rs.name] = rs
    return rs


def _house_dir() -> Path:
    return HOUSE_DIR.resolve()


# Rulesets loaded from files elsewhere for this process (runcases --ruleset-file, study arms),
# by name; house rulesets of rulesets/house/ land here too once loaded.
LOADED: dict[str, Ruleset] = {}


def builtin_ruleset_names() -> list[str]:
    """List the names of the rulesets shipped in rulesets/ (not the house rulesets)."""
    # Read once per state of the folder: a page asks several times per request.
    return list(_names_in(RULESET_DIR, RULESET_DIR.stat().st_mtime_ns))


def house_ruleset_names() -> list[str]:
    """List the names of the house rulesets in rulesets/house/ (each file is named for it)."""
    if not HOUSE_DIR.is_dir():
        return []
    return list(_names_in(HOUSE_DIR, HOUSE_DIR.stat().st_mtime_ns))


def ruleset_names() -> list[str]:
    """List every ruleset name: built in, house presets, then those loaded from files."""
    names = builtin_ruleset_names() + house_ruleset_names()
    return names + [n for n in LOADED if n not in names]


@cache
def _names_in(folder: Path, _mtime_ns: int) -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in folder.glob("*.yaml")))


def ruleset_file(name: str) -> Path | None:
    """Return the file a ruleset of the project is read from (None for one loaded elsewhere)."""
    for folder in (RULESET_DIR, HOUSE_DIR):
        path = folder / f"{name}.yaml"
        if _is_name(name) and path.is_file():
            return path
    return None


def _is_name(name: Any) -> bool:
    return isinstance(name, str) and name.replace("_", "").replace("-", "").isalnum()


# Finders of rulesets stored outside the project's files (the web's saved workshop rulesets),
# installed by the layer that owns the store: a name in, its YAML text (or None) out.
Lookup = Callable[[str], str | None]
_LOOKUPS: list[Lookup] = []


def add_ruleset_lookup(lookup: Lookup) -> None:
    """Install a finder asked for names no file holds (once per finder)."""
    if lookup not in _LOOKUPS:
        _LOOKUPS.append(lookup)


def _looked_up(name: str) -> str | None:
    for lookup in _LOOKUPS:
        text = lookup(name)
        if text is not None:
            return text
    return None


def ruleset_known(name: str) -> bool:
    """Tell whether a name loads: listed (built in, house, loaded) or found by a lookup."""
    if not _is_name(name):
        return False
    return name in ruleset_names() or _looked_up(name) is not None


def load_ruleset(name: str) -> Ruleset:
    """Load and validate one ruleset by name (built in, house preset, loaded from a file, or
    found by an installed lookup)."""
    hit = LOADED.get(name) if isinstance(name, str) else None
    if hit is None and isinstance(name, str):
        hit = _BUILTINS.get((RULESET_DIR, name))
    if hit is not None:
        return hit
    if not _is_name(name):
        raise RulesetError(
            f"未知规则集“{name}”", en=f"unknown ruleset “{name}”", field="ruleset", value=str(name)
        )
    if (RULESET_DIR / f"{name}.yaml").is_file():
        rs = _BUILTINS[RULESET_DIR, name] = _load_builtin(name)
        return rs
    path = HOUSE_DIR / f"{name}.yaml"
    if path.is_file():
        return _load_house(path, path.stat().st_mtime_ns)
    text = _looked_up(name)
    if text is not None:
        return _load_text(name, text)
    known = ", ".join(ruleset_names())
    raise RulesetError(
        f"未知规则集“{name}”（可用：{known}）",
        en=f"unknown ruleset “{name}” (known: {known})",
        field="ruleset",
        value=name,
    )


# The built-in rulesets found so far, by folder and name: a simulation loads its ruleset once
# a round, and looking for the file each time would cost more than a short round's bookkeeping.
_BUILTINS: dict[tuple[Path, str], Ruleset] = {}


@cache
def _load_text(name: str, text: str) -> Ruleset:
    rs = read_ruleset_text(text, name)
    if rs.name != name:
        raise _error(name, f"name 必须是 {name}", f"name must be {name}", "name")
    return rs


@cache
def _load_house(path: Path, _mtime_ns: int) -> Ruleset:
    return load_ruleset_file(path)


@cache
def _load_builtin(name: str) -> Ruleset:
    path = RULESET_DIR / f"{name}.yaml"
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
    "levels",
    "jokers",
    "level",
    "trump_ranks",
    "teams",
    "hand_size",
    "kitty_size",
    "tractor_names",
    "tractor_order",
    "hand_suits",
    "throw",
    "kitty",
    "score",
    "declare",
    "options",
    "conflicts",
    "conflicts_en",
    "extra",
    "extends",
    "table",
}


def _file_error(where: str, zh: str, en: str, *, field: str | None = None) -> RulesetError:
    """Make the error for a malformed ruleset file, in both languages, naming the file."""
    return RulesetError(f"{where}: {zh}", en=f"{where}: {en}", field=field)


def _req(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise _file_error(where, f"缺少字段 {key}", f"field {key} is missing", field=key)
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _file_error(
            where,
            f"字段 {key} 的值“{value}”类型不对",
            f"field {key}: “{value}” has the wrong type",
            field=key,
        )
    return value


def _mapping(data: Mapping[str, Any], key: str, where: str) -> dict[str, Any] | None:
    """Return a section of the file (None when absent), refusing anything but a mapping."""
    value = data.get(key)
    if value is not None and not isinstance(value, dict):
        raise _file_error(where, f"{key} 必须是映射", f"{key} must be a mapping", field=key)
    return value


def _choice(value: Any, choices: tuple[str, ...], key: str, where: str) -> str:
    if value not in choices:
        raise _not_one_of(value, choices, key, where)
    return str(value)


def _enum[E: StrEnum](kind: type[E], value: Any, key: str, where: str) -> E:
    try:
        return kind(value)
    except ValueError:
        raise _not_one_of(value, tuple(m.value for m in kind), key, where) from None


def _not_one_of(value: Any, allowed: tuple[str, ...], key: str, where: str) -> RulesetError:
    choices = " / ".join(allowed)
    return _file_error(
        where,
        f"{key} 的值“{value}”无效（可选：{choices}）",
        f"{key}: “{value}” is not valid (choose {choices})",
        field=key,
    )


def _rank(value: Any, where: str, path: str = "") -> int:
    try:
        return parse_rank(str(value))
    except CardError as exc:
        at = f"{path}: " if path else ""
        raise _file_error(where, at + exc.message, at + exc.message_en, field=path or None) from exc


def _ranks(values: Any, where: str, path: str) -> tuple[int, ...]:
    """Read a list of ranks, naming the key path of a bad one (`score.mandatory_levels[0]`)."""
    if not isinstance(values, list):
        raise _file_error(where, f"{path} 必须是列表", f"{path} must be a list", field=path)
    return tuple(_rank(r, where, f"{path}[{i}]") for i, r in enumerate(values))


def _rank_list(values: Any, where: str, path: str) -> tuple[int | str, ...]:
    """Read a list of ranks in which `level` stands for the level being played."""
    if not isinstance(values, list):
        raise _file_error(where, f"{path} 必须是列表", f"{path} must be a list", field=path)
    return tuple(
        "level" if r == "level" else _rank(r, where, f"{path}[{i}]") for i, r in enumerate(values)
    )


def _int(value: Any, where: str, path: str, low: int | None = 0) -> int:
    """Read a whole number (at least `low`), naming its key path when it is not one."""
    if isinstance(value, bool) or not isinstance(value, int) or (low is not None and value < low):
        least = "" if low is None else f"（至少 {low}）"
        least_en = "" if low is None else f" (at least {low})"
        raise _file_error(
            where,
            f"{path} 的值“{value}”必须是整数{least}",
            f"{path}: “{value}” must be a whole number{least_en}",
            field=path,
        )
    return value


_SECTION_KEYS = {
    "throw": {"suits", "failed", "penalty", "beaten_by"},
    "kitty": {"policy", "values", "cap", "requires_trump", "banker_wins", "deduct_from", "empty"},
    "score": {
        "policy",
        "step",
        "swap_at",
        "zero_rise",
        "mandatory_levels",
        "thresholds",
        "small_below",
        "by_decks",
        "bands",
    },
    "declare": {
        "tiers",
        "tiers_enhanced",
        "self_override",
        "policy",
        "ranks",
        "two_locks",
        "nobody",
    },
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
_BY_DECKS_KEYS = {"small_sweep_unit", "promote_per_deck", "jump_per_deck", "zero_rise_one_deck"}


def _check_sections(data: Mapping[str, Any], where: str) -> None:
    for section, allowed in _SECTION_KEYS.items():
        unknown = ", ".join(sorted(set(_mapping(data, section, where) or ()) - allowed))
        if unknown:
            known = ", ".join(sorted(allowed))
            raise _file_error(
                where,
                f"{section} 中的未知字段 {unknown}（可用：{known}）",
                f"unknown fields in {section}: {unknown} (known: {known})",
                field=section,
            )
    _exact_keys(data, "throw", "penalty", {"single", "pair", "tractor_per_pair"}, where)
    _exact_keys(data, "score", "by_decks", _BY_DECKS_KEYS, where)


def _exact_keys(
    data: Mapping[str, Any], section: str, key: str, keys: set[str], where: str
) -> None:
    """Refuse a sub-mapping (throw.penalty, score.by_decks) without exactly these keys."""
    value = (data.get(section) or {}).get(key)
    if value is not None and (not isinstance(value, dict) or set(value) != keys):
        names = ", ".join(sorted(keys))
        raise _file_error(
            where,
            f"{section}.{key} 必须恰好含 {names}",
            f"{section}.{key} must hold exactly {names}",
            field=section,
        )


def _section(
    data: Mapping[str, Any], key: str, required: tuple[str, ...], where: str
) -> Mapping[str, Any] | None:
    value = _mapping(data, key, where)
    if value is None:
        return None
    missing = ", ".join(k for k in required if k not in value)
    if missing:
        raise _file_error(where, f"{key} 缺少 {missing}", f"{key} lacks {missing}", field=key)
    return MappingProxyType(dict(value))


def _deal_sizes(data: Mapping[str, Any], size: int, players: int, where: str) -> tuple[int, int]:
    """Work out hand and kitty sizes: given numbers, or `auto` (equal hands, the rest is kitty)."""
    hand, kitty = data.get("hand_size"), data.get("kitty_size")
    if hand == "auto" and kitty == "auto":
        hand = size // players
        kitty = size - hand * players
    elif kitty == "auto" and isinstance(hand, int):
        kitty = size - hand * players
    elif hand == "auto" and isinstance(kitty, int) and not isinstance(kitty, bool):
        if (size - kitty) % players:
            raise _file_error(
                where,
                f"{size} 张牌去掉底牌 {kitty} 张后不能平分给 {players} 位玩家",
                f"{size} cards less a kitty of {kitty} cannot be shared among {players} players",
                field="kitty_size",
            )
        hand = (size - kitty) // players
    else:
        # Fixed numbers are taken as written (the round checks them when it deals).
        return _req(data, "hand_size", int, where), _req(data, "kitty_size", int, where)
    assert isinstance(hand, int) and isinstance(kitty, int)
    if hand <= 0 or kitty < 0 or hand * players + kitty != size:
        raise _file_error(
            where,
            f"{players} 位玩家 × {hand} 张 + 底牌 {kitty} 张 ≠ {size} 张，发不了牌",
            f"{players} players × {hand} cards + a kitty of {kitty} ≠ {size} cards: cannot deal",
            field="hand_size",
        )
    return hand, kitty


def _score_rules(
    score: Mapping[str, Any], decks: int, options: Mapping[str, Any], where: str
) -> ScoreRules:
    thresholds = _enum(ScoreThresholds, score.get("thresholds", "fixed"), "score.thresholds", where)
    mandatory = _ranks(score.get("mandatory_levels", []), where, "score.mandatory_levels")
    policy = _enum(ScorePolicy, score.get("policy"), "score.policy", where)
    if thresholds == ScoreThresholds.BY_DECKS:
        params = score.get("by_decks")
        if not isinstance(params, dict):
            raise _file_error(
                where,
                "score.thresholds by_decks 需要 score.by_decks",
                "score.thresholds by_decks needs score.by_decks",
                field="score",
            )
        return ScoreRules(
            policy=policy,
            step=int(params["jump_per_deck"]) * decks,
            swap_at=int(params["promote_per_deck"]) * decks,
            zero_rise=int(params["zero_rise_one_deck"])
            if decks == 1
            else int(score.get("zero_rise", 3)),
            small_below=small_sweep_line(
                int(params["small_sweep_unit"]),
                decks,
                SmallSweepFormula(options.get("small_sweep", SmallSweepFormula.THREE_POWER)),
            ),
            mandatory_levels=mandatory,
            thresholds=thresholds,
        )
    step = _int(score.get("step", 40), where, "score.step", 1)
    bands = _bands(score["bands"], where) if "bands" in score else ()
    attack = [b.low for b in bands if b.winner == "attackers"]
    swap_at = attack[0] if attack else _int(score.get("swap_at", 80), where, "score.swap_at")
    return ScoreRules(
        policy=policy,
        step=step,
        swap_at=swap_at,
        zero_rise=bands[0].rise
        if bands
        else _int(score.get("zero_rise", 3), where, "score.zero_rise"),
        small_below=_int(score.get("small_below", step), where, "score.small_below"),
        mandatory_levels=mandatory,
        bands=bands,
    )


def _bands(rows: Any, where: str) -> tuple[ScoreBand, ...]:
    """Read score.bands: rows {from, winner, rise, result}, the first from 0, rising strictly
    (an empty list: no level table, as a house ruleset drops its parent's)."""
    path = "score.bands"
    if not isinstance(rows, list):
        raise _file_error(
            where,
            f"{path} 必须是列表（空列表：不用升级表）",
            f"{path} must be a list of rows (an empty list: no level table)",
            field=path,
        )
    out: list[ScoreBand] = []
    for i, row in enumerate(rows):
        at = f"{path}[{i}]"
        keys = {"from", "winner", "rise", "result"}
        if not isinstance(row, dict) or set(row) != keys:
            raise _file_error(
                where,
                f"{at} 必须恰好含 from, winner, rise, result",
                f"{at} must hold exactly from, winner, rise, result",
                field=at,
            )
        low = _int(row["from"], where, f"{at}.from")
        if (i == 0 and low != 0) or (out and low <= out[-1].low):
            raise _file_error(
                where,
                f"{at}.from 的值 {low} 不对：第一行从 0 起，以后每行比上一行大",
                f"{at}.from: {low} is out of order (the first row starts at 0, each next is higher)",
                field=f"{at}.from",
            )
        winner = _choice(row["winner"], BAND_WINNERS, f"{at}.winner", where)
        result = _choice(row["result"], BAND_RESULTS, f"{at}.result", where)
        if (winner == "banker") != (result in ("big_sweep", "small_sweep", "hold")):
            raise _file_error(
                where,
                f"{at}.result {result} 不是 {winner} 一方的结果",
                f"{at}.result: {result} is not a result of the {winner} side",
                field=f"{at}.result",
            )
        rise = _int(row["rise"], where, f"{at}.rise")
        out.append(ScoreBand(low, winner, rise, result))
    return tuple(out)


def small_sweep_line(unit: int, decks: int, formula: SmallSweepFormula) -> int:
    """Return the 保底分 for k decks: unit·3^(k-1) (5, 15, 45 …) or unit·k! (5, 10, 30 …)."""
    if formula == SmallSweepFormula.FACTORIAL:
        return unit * math.factorial(decks)
    return int(unit * 3 ** (decks - 1))


def _apply_option_policies(rs: Ruleset) -> Ruleset:
    """Re-derive the sections that read option values (the small-sweep formula)."""
    if rs.score.thresholds != ScoreThresholds.BY_DECKS or not rs.has_option("small_sweep"):
        return rs
    score = _score_rules(rs.data["score"], rs.decks, rs.options, rs.name)
    return dataclasses.replace(rs, score=score)


def _options(data: Mapping[str, Any], where: str) -> dict[str, OptionSpec]:
    specs: dict[str, OptionSpec] = {}
    for key, spec in (data.get("options") or {}).items():
        if not isinstance(spec, dict) or "default" not in spec:
            raise _file_error(
                where, f"选项 {key} 需要 default", f"option {key} needs a default", field="options"
            )
        default = spec["default"]
        choices = tuple(
            spec.get("choices", [False, True] if isinstance(default, bool) else [default])
        )
        if key in OPTION_POLICIES:
            for value in (default, *choices):
                _enum(OPTION_POLICIES[key], value, f"options.{key}", where)
        sets = str(spec.get("sets", ""))
        if sets and sets not in ("decks", "players"):
            raise _file_error(
                where,
                f"选项 {key} 的 sets 只能是 decks 或 players",
                f"option {key}: sets may only be decks or players",
                field="options",
            )
        specs[key] = OptionSpec(
            key,
            default,
            choices,
            str(spec.get("description", "")),
            sets,
            " ".join(str(spec.get("description_en", "")).split()),
        )
    return specs


def parse_ruleset(data: Any, where: str = "ruleset") -> Ruleset:
    """Build a Ruleset from parsed YAML, rejecting unknown keys and bad values."""
    if not isinstance(data, dict):
        raise _file_error(where, "规则集文件必须是一个映射", "a ruleset file must be a mapping")
    unknown = ", ".join(sorted(set(data) - _TOP_KEYS))
    if unknown:
        raise _file_error(where, f"未知字段 {unknown}", f"unknown fields {unknown}")
    _check_sections(data, where)
    deck = _deck_rules(data, where)
    throw = _req(data, "throw", dict, where)
    kitty = _req(data, "kitty", dict, where)
    score = _req(data, "score", dict, where)
    specs = _options(data, where)
    if data.get("score", {}).get("policy") == ScorePolicy.BID_CHIPS and not (
        data.get("bidding") and data.get("chips")
    ):
        raise _file_error(
            where,
            "score.policy bid_chips 需要 bidding 与 chips 两节",
            "score.policy bid_chips needs both the bidding and the chips sections",
            field="score",
        )
    defaults = {k: s.default for k, s in specs.items()}
    return Ruleset(
        name=_req(data, "name", str, where),
        title=_req(data, "title", str, where),
        title_en=str(data.get("title_en", data["title"])),
        description=str(data.get("description", "")).strip(),
        source=str(data.get("source", "")),
        deck=deck,
        throw=_throw_rules(throw, where),
        kitty=_kitty_rules(kitty, where),
        score=_score_rules(score, deck.decks, defaults, where),
        declare=_declare_rules(data, where),
        option_specs=MappingProxyType(specs),
        options=MappingProxyType(defaults),
        conflicts=tuple(str(c).strip() for c in data.get("conflicts") or []),
        description_en=" ".join(str(data.get("description_en", "")).split()),
        conflicts_en=tuple(
            (" ".join(str(c.get("of", "")).split()), " ".join(str(c.get("en", "")).split()))
            for c in data.get("conflicts_en") or []
            if isinstance(c, dict) and c.get("of") and c.get("en")
        ),
        bidding=_section(data, "bidding", ("min", "max", "step"), where),
        chips=_section(data, "chips", ("base", "below", "q"), where),
        bonus_rules=_section(data, "bonus", ("jokers", "ranks"), where),
        reveal_rules=_section(data, "reveal", ("fixed_trumps", "jokers", "ranks"), where),
        match=_match_section(data, specs, where),
        extra=MappingProxyType(dict(data.get("extra") or {})),
        data=MappingProxyType(dict(data)),
        extends=str(data.get("extends") or ""),
        table=_table(data, where),
    )


def _table(data: Mapping[str, Any], where: str) -> TableRules:
    """Read the `table:` section (signals, countdown, room cards, dissolving)."""
    try:
        return parse_table(data.get("table"))
    except ValueError as exc:
        raise _file_error(where, f"table 一节有误：{exc}", str(exc), field="table") from None


def _deck_rules(data: Mapping[str, Any], where: str) -> DeckRules:
    """Read the cards, the seats and the deal: ranks, levels, decks, players, hand and kitty."""
    ranks = tuple(sorted(_ranks(_req(data, "ranks", list, where), where, "ranks")))
    levels = tuple(sorted(_ranks(data["levels"], where, "levels"))) if data.get("levels") else ranks
    if not set(levels) <= set(ranks):
        raise _file_error(
            where,
            "levels 中有不在 ranks 里的点数",
            "levels holds a rank that is not in ranks",
            field="levels",
        )
    players = _req(data, "players", int, where)
    decks = _req(data, "decks", int, where)
    if decks < 1 or players < 2:
        raise _file_error(
            where,
            "decks 至少 1，players 至少 2",
            "decks must be at least 1 and players at least 2",
            field="decks",
        )
    jokers = bool(data.get("jokers", True))
    size = (len(ranks) * 4 + (2 if jokers else 0)) * decks
    hand_size, kitty_size = _deal_sizes(data, size, players, where)
    return DeckRules(
        decks=decks,
        ranks=ranks,
        jokers=jokers,
        has_level=bool(data.get("level", True)),
        levels=levels,
        trump_ranks=_rank_list(data.get("trump_ranks", ["level"]), where, "trump_ranks"),
        players=players,
        teams=_enum(Teams, data.get("teams", "partners"), "teams", where),
        hand_size=hand_size,
        kitty_size=kitty_size,
        tractor_names=_enum(
            TractorNames, data.get("tractor_names", "plain"), "tractor_names", where
        ),
        tractor_order=_enum(
            TractorOrder, data.get("tractor_order", "ladder"), "tractor_order", where
        ),
        hand_suits=_hand_suits(data.get("hand_suits", "SHCD"), where),
    )


def _hand_suits(value: object, where: str) -> str:
    """Read `hand_suits`: the four suit letters in the order a sorted hand shows them."""
    text = str(value).upper()
    if sorted(text) != sorted("SHCD"):
        raise _file_error(
            where,
            f"hand_suits 应是 S H C D 四个字母各一次（排列顺序），而不是“{value}”",
            f"hand_suits must hold S, H, C and D once each (in display order), not “{value}”",
            field="hand_suits",
        )
    return text


def _throw_rules(throw: Mapping[str, Any], where: str) -> ThrowRules:
    """Read the `throw:` section: the suits that may be thrown, a failed throw, its penalty."""
    penalty = throw.get("penalty")
    throw_penalty = None
    if penalty:
        throw_penalty = (
            _int(penalty["single"], where, "throw.penalty.single"),
            _int(penalty["pair"], where, "throw.penalty.pair"),
            _int(penalty["tractor_per_pair"], where, "throw.penalty.tractor_per_pair"),
        )
    return ThrowRules(
        suits=_enum(ThrowSuits, throw.get("suits", "any"), "throw.suits", where),
        failed=_enum(FailedThrow, throw.get("failed"), "throw.failed", where),
        penalty=throw_penalty,
        beaten_by=_enum(BeatenBy, throw.get("beaten_by", "same_shape"), "throw.beaten_by", where),
    )


def _kitty_rules(kitty: Mapping[str, Any], where: str) -> KittyRules:
    """Read the `kitty:` section: the multiplier policy and what either side's last trick does."""
    values = _mapping(kitty, "values", where + ": kitty") or {}
    return KittyRules(
        policy=_enum(KittyPolicy, kitty.get("policy"), "kitty.policy", where),
        values=MappingProxyType(
            {k: _int(v, where, f"kitty.values.{k}") for k, v in values.items()}
        ),
        cap=kitty.get("cap"),
        requires_trump=bool(kitty.get("requires_trump", False)),
        banker_wins=_enum(
            KittyOnBankerWin, kitty.get("banker_wins", "nothing"), "kitty.banker_wins", where
        ),
        deduct_from=_int(kitty.get("deduct_from", 2), where, "kitty.deduct_from"),
        empty=_enum(EmptyKitty, kitty.get("empty", "nothing"), "kitty.empty", where),
    )


def _declare_rules(data: Mapping[str, Any], where: str) -> DeclareRules:
    """Read the `declare:` section (and the old top-level `flip:`): who declares what, and how."""
    declare = data.get("declare") or {}
    return DeclareRules(
        policy=_enum(DeclarePolicy, declare.get("policy", "tiers"), "declare.policy", where),
        tiers=MappingProxyType(dict(declare.get("tiers") or {})),
        tiers_enhanced=MappingProxyType(dict(declare.get("tiers_enhanced") or {})),
        self_override=_enum(
            SelfOverride, declare.get("self_override", "any"), "declare.self_override", where
        ),
        ranks=_rank_list(declare.get("ranks", ["level"]), where, "declare.ranks"),
        two_locks=bool(declare.get("two_locks", False)),
        nobody=NobodyDeclares.FLIP
        if data.get("flip", False)
        else _enum(NobodyDeclares, declare.get("nobody", "redeal"), "declare.nobody", where),
    )


def _match_section(
    data: Mapping[str, Any], specs: Mapping[str, OptionSpec], where: str
) -> Mapping[str, Any]:
    """Check the match policies: each named in `match:` or as an option, with a known value."""
    section = dict(data.get("match") or {})
    if not section:
        return MappingProxyType({})
    for key, kind in MATCH_POLICIES.items():
        spec = specs.get(key)
        values = [section[key]] if key in section else []
        values += list(spec.choices) if spec else []
        if not values:
            raise _file_error(
                where,
                f"match 缺少 {key}（或同名选项）",
                f"match lacks {key} (or an option of that name)",
                field="match",
            )
        for value in values:
            _enum(kind, value, f"match.{key}", where)
    return MappingProxyType(section)
