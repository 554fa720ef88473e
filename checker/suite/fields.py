"""Field types of case files and the case-kind record: each type checks a value (naming the
field that is wrong) and writes itself as JSON Schema, so validation and the schema agree."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from checker.engine.order import Context
from checker.engine.ruleset import Ruleset
from checker.engine.texts import Lang, Say, pick

Schema = dict[str, Any]
# What is wrong with a value, naming the field (e.g. "current[1].seat 必须是…"), or None.
Problem = str | None
Outcome = tuple[dict[str, Any], Say]
Runner = Callable[[Ruleset, Context, Mapping[str, Any]], Outcome]


def shown(value: Any) -> str:
    """Write a value of a case file as the message quotes it (YAML's words, kept short)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"{value.isoformat()}（YAML 日期）"
    if isinstance(value, (list, dict)):
        try:
            text = json.dumps(value, ensure_ascii=False, default=str)
        except (TypeError, ValueError, RecursionError):
            text = type(value).__name__
        kind = "列表" if isinstance(value, list) else "映射"
        return f"{kind} {text[:60]}{'…' if len(text) > 60 else ''}"
    text = str(value)
    return text[:60] + ("…" if len(text) > 60 else "")


def wrong(path: str, words: str, value: Any) -> str:
    """Say that the field at path must be something else than the value it holds."""
    return f"{path or '值'} 必须是{words}，而不是 {shown(value)}"


class FieldType:
    """A type of a case-file value: words for messages, a check, and a JSON Schema fragment."""

    words: str

    def problem(self, value: Any, path: str) -> Problem:
        """Return where and how the value breaks the type, or None when it fits."""
        raise NotImplementedError

    def schema(self, defs: dict[str, Schema] | None = None) -> Schema:
        """Write the type as JSON Schema (named types go into defs as $refs when given)."""
        raise NotImplementedError

    def accepts(self, value: Any) -> bool:
        """Tell whether a value fits the type."""
        return self.problem(value, "") is None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Scalar(FieldType):
    """A string, an integer or a boolean (optionally an integer's minimum, a string's pattern)."""

    type: str
    words: str
    minimum: int | None = None
    pattern: str | None = None
    enum: tuple[Any, ...] = ()
    min_length: int = 0

    def problem(self, value: Any, path: str) -> Problem:
        ok = {
            "string": isinstance(value, str),
            "integer": _is_int(value),
            "boolean": isinstance(value, bool),
        }[self.type]
        if ok and self.minimum is not None and value < self.minimum:
            ok = False
        if ok and self.pattern is not None and not re.fullmatch(self.pattern, value):
            ok = False
        if ok and self.enum and value not in self.enum:
            ok = False
        if ok and self.min_length and len(value) < self.min_length:
            ok = False
        return None if ok else wrong(path, self.words, value)

    def schema(self, defs: dict[str, Schema] | None = None) -> Schema:
        out: Schema = {"type": self.type}
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.pattern is not None:
            out["pattern"] = f"^{self.pattern}$"
        if self.enum:
            out["enum"] = list(self.enum)
        if self.min_length:
            out["minLength"] = self.min_length
        return out


@dataclass(frozen=True)
class AnyOf(FieldType):
    """One of several types (a null among them when the value may be left empty)."""

    options: tuple[FieldType, ...]
    words: str
    nullable: bool = False

    def problem(self, value: Any, path: str) -> Problem:
        if value is None and self.nullable:
            return None
        if any(o.accepts(value) for o in self.options):
            return None
        # A list or mapping that fits one option's shape reports its deepest wrong part.
        for o in self.options:
            inner = o.type if isinstance(o, Named) else o
            if isinstance(inner, (ArrayOf, Record, MapOf)) and isinstance(value, inner.container):
                return o.problem(value, path)
        return wrong(path, self.words, value)

    def schema(self, defs: dict[str, Schema] | None = None) -> Schema:
        options = [o.schema(defs) for o in self.options]
        if self.nullable:
            options.append({"type": "null"})
        return options[0] if len(options) == 1 else {"anyOf": options}


@dataclass(frozen=True)
class ArrayOf(FieldType):
    """A list whose items are all of one type."""

    item: FieldType
    words: str
    min_items: int = 0
    container: type = list

    def problem(self, value: Any, path: str) -> Problem:
        if not isinstance(value, list) or len(value) < self.min_items:
            return wrong(path, self.words, value)
        for i, v in enumerate(value):
            found = self.item.problem(v, f"{path}[{i}]")
            if found is not None:
                return found
        return None

    def schema(self, defs: dict[str, Schema] | None = None) -> Schema:
        out: Schema = {"type": "array", "items": self.item.schema(defs)}
        if self.min_items:
            out["minItems"] = self.min_items
        return out


@dataclass(frozen=True)
class Record(FieldType):
    """A mapping with named fields of their own types; required ones, no unknown ones."""

    fields: Mapping[str, FieldType]
    words: str
    required: frozenset[str] = frozenset()
    container: type = dict

    def problem(self, value: Any, path: str) -> Problem:
        if not isinstance(value, dict):
            return wrong(path, self.words, value)
        prefix = f"{path}." if path else ""
        unknown = sorted(shown(k) for k in value if k not in self.fields)
        if unknown:
            where = f"{path} 中的" if path else ""
            return f"{where}未知字段 {', '.join(unknown)}（可用：{', '.join(sorted(self.fields))}）"
        missing = sorted(self.required - set(value))
        if missing:
            return f"缺少字段 {', '.join(prefix + m for m in missing)}"
        for name, v in value.items():
            if v is None and name not in self.required:
                continue  # an optional field left empty is a field not given
            found = self.fields[name].problem(v, prefix + name)
            if found is not None:
                return found
        return None

    def schema(self, defs: dict[str, Schema] | None = None) -> Schema:
        props = {}
        for name, t in self.fields.items():
            s = t.schema(defs)
            if name not in self.required:
                s = {"anyOf": [s, {"type": "null"}]}
            props[name] = s
        out: Schema = {"type": "object", "properties": props, "additionalProperties": False}
        if self.required:
            out["required"] = sorted(self.required)
        return out


@dataclass(frozen=True)
class MapOf(FieldType):
    """A mapping from names (strings) to values of one type."""

    value: FieldType
    words: str
    container: type = dict

    def problem(self, value: Any, path: str) -> Problem:
        if not isinstance(value, dict):
            return wrong(path, self.words, value)
        for k, v in value.items():
            if not isinstance(k, str):
                return f"{path} 的键必须是名称（字符串），而不是 {shown(k)}"
            found = self.value.problem(v, f"{path}.{k}")
            if found is not None:
                return found
        return None

    def schema(self, defs: dict[str, Schema] | None = None) -> Schema:
        return {"type": "object", "additionalProperties": self.value.schema(defs)}


@dataclass(frozen=True)
class Named(FieldType):
    """A type with a name: the schema defines it once under $defs and refers to it."""

    name: str
    type: FieldType

    @property
    def words(self) -> str:  # type: ignore[override]
        return self.type.words

    def problem(self, value: Any, path: str) -> Problem:
        return self.type.problem(value, path)

    def schema(self, defs: dict[str, Schema] | None = None) -> Schema:
        if defs is None:
            return self.type.schema()
        if self.name not in defs:
            defs[self.name] = self.type.schema(defs)
        return {"$ref": f"#/$defs/{self.name}"}


STRING = Scalar("string", "字符串")
TEXT = Scalar("string", "一段文字（字符串）")
TITLE = Scalar("string", "非空的标题（字符串）", min_length=1)
INT = Scalar("integer", "整数")
POINTS = Scalar("integer", "整数（分数）")
SEAT = Named(
    "seat",
    Scalar("integer", "座位号（0 起的整数）", minimum=0),
)
BOOL = Scalar("boolean", "true 或 false")
TOKEN_LIST = ArrayOf(STRING, "牌的列表（每张牌一个字符串）")
CARDS = Named(
    "cards",
    AnyOf((STRING, TOKEN_LIST), "牌（一个字符串，或每张牌一个字符串的列表）"),
)
CARD_LISTS = Named(
    "card_lists",
    ArrayOf(
        AnyOf((STRING, TOKEN_LIST), "牌（字符串或列表），或 null", nullable=True),
        "牌的列表的列表（每个座位一项）",
    ),
)
RANK = Named(
    "rank",
    AnyOf((Scalar("integer", "整数"), STRING), "级别（如 2、10 或 J）"),
)
SUIT = Scalar("string", "花色（S H C D 或 ♠♥♣♦）或 none")
SEAT_CARDS = Named(
    "seat_cards",
    ArrayOf(
        Record({"seat": SEAT, "cards": CARDS}, "{seat, cards} 映射", frozenset({"seat", "cards"})),
        "{seat, cards} 映射的列表",
    ),
)
BIDS = Named(
    "bids",
    ArrayOf(AnyOf((INT, STRING), "分数或 pass"), "叫分的列表（分数或 pass）"),
)
OPTION_VALUE = AnyOf((BOOL, INT, STRING), "选项值（true/false、整数或字符串）")
OPTIONS = Named(
    "options",
    MapOf(OPTION_VALUE, "选项的映射（名称: 值）"),
)
INT_LIST = ArrayOf(INT, "整数的列表")
BOOL_LIST = Named(
    "bool_list",
    ArrayOf(AnyOf((BOOL,), "true、false 或 null", nullable=True), "true/false 的列表"),
)
TEXT_LIST = ArrayOf(STRING, "字符串的列表")
COUNT_OR_CARDS = AnyOf((INT, STRING, TOKEN_LIST), "个数（整数）或牌")
UNITS = Named(
    "units",
    ArrayOf(AnyOf((STRING, MapOf(INT, "映射")), "单位（文字或映射）"), "单位的列表"),
)
RULESET_NAMES = Named(
    "ruleset_names",
    AnyOf((STRING, ArrayOf(STRING, "规则集名称的列表")), "规则集名称或其列表"),
)
ID_PATTERN = r"[a-z0-9]+(-[a-z0-9]+)*"
CASE_ID = Named(
    "case_id", Scalar("string", "kebab-case 的 id（小写字母、数字和连字符）", pattern=ID_PATTERN)
)

# The fields every case may carry whatever its kind (expect is added per kind).
COMMON_FIELDS: dict[str, FieldType] = {
    "id": CASE_ID,
    "title": TITLE,
    "kind": STRING,
    "rulesets": RULESET_NAMES,
    "level": RANK,
    "trump": SUIT,
    "options": OPTIONS,
    "note": TEXT,
    "source": TEXT,
}


@dataclass(frozen=True)
class CaseKind:
    """One case kind: its input fields and their types, the required ones, its outputs, its
    label on the pages and the runner that asks the engine; declared by @case_kind on the runner."""

    name: str
    label: str
    label_en: str
    inputs: Mapping[str, FieldType]
    required: frozenset[str]
    outputs: Mapping[str, FieldType]
    runner: Runner
    doc: str = ""
    extra: Mapping[str, FieldType] = field(default_factory=dict)

    def label_for(self, lang: Lang) -> str:
        """Name the kind in zh-Hans or English."""
        return pick(lang, self.label, self.label_en)

    @property
    def expect(self) -> Record:
        """The type of `expect`: any subset of the outputs, each of its own type or null."""
        return Record(dict(self.outputs), f"{self.name} 的输出映射")

    @property
    def case(self) -> Record:
        """The type of one case of this kind, common fields included."""
        fields: dict[str, FieldType] = {**COMMON_FIELDS, **self.inputs}
        fields["expect"] = self.expect
        fields["expect_by_ruleset"] = MapOf(self.expect, "规则集名称到输出映射的映射")
        return Record(fields, "用例映射", frozenset({"id", "title", "kind", *self.required}))


# Every case kind, in the order the modules declare them (kinds, then matchcases, roundcases
# and the bot kind, as checker.suite.kinds imports them); filled by @case_kind.
DECLARED: dict[str, CaseKind] = {}


def case_kind(
    name: str,
    label: str,
    label_en: str,
    *,
    inputs: Mapping[str, FieldType],
    required: tuple[str, ...],
    outputs: Mapping[str, FieldType],
) -> Callable[[Runner], Runner]:
    """Declare the case kind a runner answers: its labels, typed inputs (the required ones)
    and typed outputs. Validation, the runner, the labels and the JSON Schema read it."""

    def declare(runner: Runner) -> Runner:
        if name in DECLARED:
            raise ValueError(f"case kind {name} is declared twice")
        unknown = set(required) - set(inputs)
        if unknown:
            raise ValueError(f"case kind {name}: required {sorted(unknown)} are not inputs")
        DECLARED[name] = CaseKind(
            name, label, label_en, inputs, frozenset(required), outputs, runner
        )
        return runner

    return declare
