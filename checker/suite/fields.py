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
from checker.engine.texts import EN, ZH, Lang, Say, pick


class Fault(str):
    """What is wrong with a case file, naming the field: the Chinese words (the string itself)
    and the English ones (`en`), e.g. "current[1].seat 必须是…" / "current[1].seat must be …"."""

    en: str

    def __new__(cls, zh: str, en: str) -> Fault:
        fault = super().__new__(cls, zh)
        fault.en = en
        return fault


def english(message: str) -> str:
    """Give a message's English words: a Fault's own, else the message as it is."""
    return message.en if isinstance(message, Fault) else message


Schema = dict[str, Any]
# What is wrong with a value, or None when it fits.
Problem = Fault | None
Outcome = tuple[dict[str, Any], Say]
Runner = Callable[[Ruleset, Context, Mapping[str, Any]], Outcome]


def shown(value: Any, lang: Lang = ZH) -> str:
    """Write a value of a case file as the message quotes it (YAML's words, kept short)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (datetime.date, datetime.datetime)):
        return pick(lang, f"{value.isoformat()}（YAML 日期）", f"{value.isoformat()} (a YAML date)")
    if isinstance(value, (list, dict)):
        try:
            text = json.dumps(value, ensure_ascii=False, default=str)
        except (TypeError, ValueError, RecursionError):
            text = type(value).__name__
        if isinstance(value, list):
            kind = pick(lang, "列表", "a list")
        else:
            kind = pick(lang, "映射", "a mapping")
        return f"{kind} {text[:60]}{'…' if len(text) > 60 else ''}"
    text = str(value)
    return text[:60] + ("…" if len(text) > 60 else "")


def wrong(path: str, kind: FieldType, value: Any) -> Fault:
    """Say that the field at path must be of another type than the value it holds."""
    return Fault(
        f"{path or '值'} 必须是{kind.words}，而不是 {shown(value)}",
        f"{path or 'the value'} must be {kind.words_en}, not {shown(value, EN)}",
    )


class FieldType:
    """A type of a case-file value: words for messages, a check, and a JSON Schema fragment."""

    words: str
    en: str  # the words in English ("a seat number (an integer from 0)")

    @property
    def words_en(self) -> str:
        """The type's words in English (the Chinese ones where none were written)."""
        return self.en or self.words

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
    en: str = field(default="", kw_only=True)

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
        return None if ok else wrong(path, self, value)

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
    en: str = field(default="", kw_only=True)

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
        return wrong(path, self, value)

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
    en: str = field(default="", kw_only=True)

    def problem(self, value: Any, path: str) -> Problem:
        if not isinstance(value, list) or len(value) < self.min_items:
            return wrong(path, self, value)
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
    en: str = field(default="", kw_only=True)

    def problem(self, value: Any, path: str) -> Problem:
        if not isinstance(value, dict):
            return wrong(path, self, value)
        prefix = f"{path}." if path else ""
        unknown = ", ".join(sorted(shown(k) for k in value if k not in self.fields))
        if unknown:
            known = ", ".join(sorted(self.fields))
            return Fault(
                f"{f'{path} 中的' if path else ''}未知字段 {unknown}（可用：{known}）",
                f"unknown field {unknown}{f' in {path}' if path else ''} (known: {known})",
            )
        missing = ", ".join(prefix + m for m in sorted(self.required - set(value)))
        if missing:
            return Fault(f"缺少字段 {missing}", f"missing field {missing}")
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
    en: str = field(default="", kw_only=True)

    def problem(self, value: Any, path: str) -> Problem:
        if not isinstance(value, dict):
            return wrong(path, self, value)
        for k, v in value.items():
            if not isinstance(k, str):
                return Fault(
                    f"{path} 的键必须是名称（字符串），而不是 {shown(k)}",
                    f"the keys of {path} must be names (strings), not {shown(k, EN)}",
                )
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

    @property
    def en(self) -> str:  # type: ignore[override]
        return self.type.en

    def problem(self, value: Any, path: str) -> Problem:
        return self.type.problem(value, path)

    def schema(self, defs: dict[str, Schema] | None = None) -> Schema:
        if defs is None:
            return self.type.schema()
        if self.name not in defs:
            defs[self.name] = self.type.schema(defs)
        return {"$ref": f"#/$defs/{self.name}"}


STRING = Scalar("string", "字符串", en="a string")
TEXT = Scalar("string", "一段文字（字符串）", en="a text (a string)")
TITLE = Scalar(
    "string", "非空的标题（字符串）", min_length=1, en="a title that is not empty (a string)"
)
INT = Scalar("integer", "整数", en="an integer")
POINTS = Scalar("integer", "整数（分数）", en="an integer (points)")
SEAT = Named(
    "seat",
    Scalar("integer", "座位号（0 起的整数）", minimum=0, en="a seat number (an integer from 0)"),
)
BOOL = Scalar("boolean", "true 或 false", en="true or false")
TOKEN_LIST = ArrayOf(
    STRING, "牌的列表（每张牌一个字符串）", en="a list of cards (a string per card)"
)
CARDS = Named(
    "cards",
    AnyOf(
        (STRING, TOKEN_LIST),
        "牌（一个字符串，或每张牌一个字符串的列表）",
        en="cards (one string, or a list with a string per card)",
    ),
)
CARD_LISTS = Named(
    "card_lists",
    ArrayOf(
        AnyOf(
            (STRING, TOKEN_LIST),
            "牌（字符串或列表），或 null",
            nullable=True,
            en="cards (a string or a list), or null",
        ),
        "牌的列表的列表（每个座位一项）",
        en="a list of card lists (one per seat)",
    ),
)
RANK = Named(
    "rank",
    AnyOf((INT, STRING), "级别（如 2、10 或 J）", en="a level (such as 2, 10 or J)"),
)
SUIT = Scalar("string", "花色（S H C D 或 ♠♥♣♦）或 none", en="a suit (S H C D or ♠♥♣♦) or none")
SEAT_CARDS = Named(
    "seat_cards",
    ArrayOf(
        Record(
            {"seat": SEAT, "cards": CARDS},
            "{seat, cards} 映射",
            frozenset({"seat", "cards"}),
            en="a {seat, cards} mapping",
        ),
        "{seat, cards} 映射的列表",
        en="a list of {seat, cards} mappings",
    ),
)
BIDS = Named(
    "bids",
    ArrayOf(
        AnyOf((INT, STRING), "分数或 pass", en="a bid or pass"),
        "叫分的列表（分数或 pass）",
        en="a list of bids (numbers or pass)",
    ),
)
OPTION_VALUE = AnyOf(
    (BOOL, INT, STRING),
    "选项值（true/false、整数或字符串）",
    en="an option value (true/false, an integer or a string)",
)
OPTIONS = Named(
    "options",
    MapOf(OPTION_VALUE, "选项的映射（名称: 值）", en="a mapping of options (name: value)"),
)
INT_LIST = ArrayOf(INT, "整数的列表", en="a list of integers")
BOOL_LIST = Named(
    "bool_list",
    ArrayOf(
        AnyOf((BOOL,), "true、false 或 null", nullable=True, en="true, false or null"),
        "true/false 的列表",
        en="a list of true/false",
    ),
)
TEXT_LIST = ArrayOf(STRING, "字符串的列表", en="a list of strings")
COUNT_OR_CARDS = AnyOf(
    (INT, STRING, TOKEN_LIST), "个数（整数）或牌", en="a count (an integer) or cards"
)
UNITS = Named(
    "units",
    ArrayOf(
        AnyOf(
            (STRING, MapOf(INT, "映射", en="a mapping")),
            "单位（文字或映射）",
            en="a unit (words or a mapping)",
        ),
        "单位的列表",
        en="a list of units",
    ),
)
RULESET_NAMES = Named(
    "ruleset_names",
    AnyOf(
        (STRING, ArrayOf(STRING, "规则集名称的列表", en="a list of ruleset names")),
        "规则集名称或其列表",
        en="a ruleset name or a list of them",
    ),
)
ID_PATTERN = r"[a-z0-9]+(-[a-z0-9]+)*"
CASE_ID = Named(
    "case_id",
    Scalar(
        "string",
        "kebab-case 的 id（小写字母、数字和连字符）",
        pattern=ID_PATTERN,
        en="a kebab-case id (lower-case letters, digits and hyphens)",
    ),
)

# The fields every case may carry whatever its kind (expect is added per kind).
COMMON_FIELDS: dict[str, FieldType] = {
    "id": CASE_ID,
    "title": TITLE,
    "title_en": TITLE,
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
        return Record(
            dict(self.outputs), f"{self.name} 的输出映射", en=f"the output mapping of {self.name}"
        )

    @property
    def case(self) -> Record:
        """The type of one case of this kind, common fields included."""
        fields: dict[str, FieldType] = {**COMMON_FIELDS, **self.inputs}
        fields["expect"] = self.expect
        fields["expect_by_ruleset"] = MapOf(
            self.expect,
            "规则集名称到输出映射的映射",
            en="a mapping from ruleset names to output mappings",
        )
        required = frozenset({"id", "title", "kind", *self.required})
        return Record(fields, "用例映射", required, en="a case mapping")


# Every case kind, as the modules declare them (@case_kind); `registry.KINDS` orders them.
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
