"""The workshop's form: every field a designer may change in a ruleset derived from a base, typed,
with help in both languages, and the level table (`score.bands`) as rows.

`Draft` reads the form and the rows, writes the house ruleset's YAML (`extends: BASE` and only
what differs from the base) and has the engine validate it; an engine error lands on the field
its key path names (`score.bands[2].rise` → row 3's rise).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import yaml
from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from checker.engine.errors import EngineError
from checker.engine.house import read_ruleset_text
from checker.engine.ruleset import (
    BAND_RESULTS,
    BAND_WINNERS,
    MATCH_POLICIES,
    BeatenBy,
    FailedThrow,
    KittyPolicy,
    NobodyDeclares,
    Ruleset,
    SelfOverride,
    ThrowSuits,
)
from checker.engine.vocab import term
from checker.web import present, rulesdoc

BAND_ROWS = 6  # rows of the level table the form offers
DROP_BANDS = "drop_bands"  # the switch that removes the base's level table
OWN_PLACE = ("title", "title_en", "description", "description_en", DROP_BANDS)
DRAFT_NAME = "draft"  # the name a draft is judged under before it is saved


def _values(policy: type[StrEnum]) -> tuple[str, ...]:
    """List a policy's values as the YAML spells them, in the enum's order."""
    return tuple(member.value for member in policy)


@dataclass(frozen=True)
class Field:
    """One field of the workshop: its key path in the ruleset file, how it is read, its help."""

    path: str
    label: Any
    help: Any
    kind: str  # int, choice, bool, ranks
    read: Callable[[Ruleset], Any]
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """Name the form field (the key path with __ for the dots)."""
        return self.path.replace(".", "__")


FIELDS = (
    Field(
        "decks",
        _("几副牌"),
        _("用几副 54 张的牌（改了它或底牌张数，每人的张数由引擎算出）。"),
        "int",
        lambda rs: rs.decks,
        1,
        4,
    ),
    Field(
        "kitty_size",
        _("底牌张数"),
        _("扣在底下的牌；其余的牌平分给每位玩家，必须分得尽。"),
        "int",
        lambda rs: rs.kitty_size,
        0,
        40,
    ),
    Field(
        "throw.suits",
        _("哪些花色可以甩牌"),
        _("any：任何一门；trump_only：只有主牌。"),
        "choice",
        lambda rs: rs.throw.suits,
        choices=_values(ThrowSuits),
    ),
    Field(
        "throw.failed",
        _("甩牌失败时打出什么"),
        _("first_beaten_unit：第一个被压的分量；另两种：被压牌型里最小的一个、最小的一张。"),
        "choice",
        lambda rs: rs.throw.failed,
        choices=_values(FailedThrow),
    ),
    Field(
        "throw.beaten_by",
        _("甩牌的分量被什么压住"),
        _("same_shape：同形状更大的分量；same_count：张数相同、更宽的也算。"),
        "choice",
        lambda rs: rs.throw.beaten_by.value,
        choices=_values(BeatenBy),
    ),
    Field(
        "kitty.policy",
        _("抠底的倍数"),
        _("by_unit：按最后一手的牌型（下面三个倍数）；其余见规则页。"),
        "choice",
        lambda rs: rs.kitty.policy,
        choices=_values(KittyPolicy),
    ),
    Field(
        "kitty.values.single",
        _("单张抠底倍数"),
        _("最后一手是单张时底牌分数乘几。"),
        "int",
        lambda rs: rs.kitty.values.get("single", 2),
        0,
        64,
    ),
    Field(
        "kitty.values.pair",
        _("对子抠底倍数"),
        _("最后一手是对子时底牌分数乘几。"),
        "int",
        lambda rs: rs.kitty.values.get("pair", 4),
        0,
        64,
    ),
    Field(
        "kitty.values.tractor",
        _("拖拉机抠底倍数"),
        _("最后一手是拖拉机时底牌分数乘几。"),
        "int",
        lambda rs: rs.kitty.values.get("tractor", 8),
        0,
        64,
    ),
    Field(
        "kitty.requires_trump",
        _("抠底须用主牌"),
        _("勾上：闲家只有用主牌赢最后一墩才算抠底。"),
        "bool",
        lambda rs: rs.kitty.requires_trump,
    ),
    Field(
        "score.step",
        _("每多少分升一级"),
        _("没有升级表时：上台线以上每多这么多分多升一级，以下每少这么多分庄家多升一级。"),
        "int",
        lambda rs: rs.score.step,
        1,
        200,
    ),
    Field(
        "score.swap_at",
        _("上台线"),
        _("没有升级表时：闲家拿到这么多分就上台。"),
        "int",
        lambda rs: rs.score.swap_at,
        0,
        400,
    ),
    Field(
        "score.zero_rise",
        _("大光升几级"),
        _("没有升级表时：闲家一分未得，庄家升几级。"),
        "int",
        lambda rs: rs.score.zero_rise,
        0,
        12,
    ),
    Field(
        "score.mandatory_levels",
        _("必打的级别"),
        _("升级时不能越过、必须停下来打的级别（不勾：都可以跳过）。"),
        "ranks",
        lambda rs: [present.rank_label(r) for r in rs.score.mandatory_levels],
    ),
    Field(
        "declare.nobody",
        _("无人亮主时"),
        _("redeal：重新发牌；no_trump：打无主；flip：翻底定主（规则集须有翻底的规定）。"),
        "choice",
        lambda rs: rs.declare.nobody.value,
        choices=("redeal", "no_trump", "flip"),
    ),
    Field(
        "declare.self_override",
        _("自己反自己的主"),
        _("same_suit_only：只能用同花色的对子加固；any：任何更高的亮主都可以。"),
        "choice",
        lambda rs: rs.declare.self_override,
        choices=_values(SelfOverride),
    ),
    Field(
        "match.first_banker",
        _("首局庄家"),
        _("declarer：首局定主的人坐庄；seat0：0 号座位坐庄。"),
        "choice",
        lambda rs: rs.match.get("first_banker", "declarer"),
        choices=_values(MATCH_POLICIES["first_banker"]),
    ),
    Field(
        "match.match_end",
        _("整场何时结束"),
        _("banker_wins_at_top：庄家一方打 A 保庄；其余见规则页。"),
        "choice",
        lambda rs: rs.match.get("match_end", "banker_wins_at_top"),
        choices=_values(MATCH_POLICIES["match_end"]),
    ),
)


def _applies(field: Field, rs: Ruleset) -> bool:
    """Offer a field only where the base has it (a match policy the base sets as an option is
    changed through that option; flip only for a base that can flip)."""
    section, _dot, key = field.path.partition(".")
    if section == "match":
        return bool(rs.match) and not rs.has_option(key)
    if field.path.startswith("kitty.values."):
        return rs.kitty_counts_by_unit
    if field.path.startswith("score.") and field.path != "score.mandatory_levels":
        return rs.has_fixed_level_table
    return True


def _widget_attrs(field: Field) -> dict[str, str]:
    return {"aria-describedby": f"help-{field.name}"}


def _form_field(field: Field, rs: Ruleset) -> forms.Field:
    attrs = _widget_attrs(field)
    if field.kind == "int":
        return forms.IntegerField(
            label=field.label,
            help_text=field.help,
            min_value=field.low,
            max_value=field.high,
            widget=forms.NumberInput(attrs={**attrs, "inputmode": "numeric"}),
        )
    if field.kind == "bool":
        return forms.BooleanField(label=field.label, help_text=field.help, required=False)
    if field.kind == "ranks":
        return forms.MultipleChoiceField(
            label=field.label,
            help_text=field.help,
            required=False,
            choices=[(present.rank_label(r),) * 2 for r in sorted(rs.levels)],
            widget=forms.CheckboxSelectMultiple,
        )
    choices = [c for c in field.choices if c != NobodyDeclares.FLIP or rs.has_flip]
    return forms.ChoiceField(
        label=field.label,
        help_text=field.help,
        choices=[(c, c) for c in choices],
        widget=forms.Select(attrs=attrs),
    )


class WorkshopForm(forms.Form):
    """The named fields of a derived ruleset: its titles and texts, the fields, the options."""

    title = forms.CharField(
        label=_("名称（中文）"),
        max_length=80,
        help_text=_("规则集的名称，中文页面上显示。"),
        widget=forms.TextInput(attrs={"lang": "zh-Hans"}),
    )
    title_en = forms.CharField(
        label=_("名称（英文）"),
        max_length=80,
        help_text=_("规则集的名称，英文页面上显示。"),
    )
    description = forms.CharField(
        label=_("说明（中文）"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3, "lang": "zh-Hans"}),
        help_text=_("这套家规改了什么、在哪里这样打。"),
    )
    description_en = forms.CharField(
        label=_("说明（英文）"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("同上，英文。"),
    )

    def __init__(self, base: Ruleset, shown: Ruleset, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.base = base
        self.shown_fields = [f for f in FIELDS if _applies(f, base)]
        for field in self.shown_fields:
            self.fields[field.name] = _form_field(field, base)
            self.fields[field.name].initial = field.read(shown)
        if base.score.bands:
            self.fields[DROP_BANDS] = forms.BooleanField(
                label=_("不用升级表"),
                help_text=_(
                    "勾上：去掉底规则的升级表，按上面的“每多少分升一级”“上台线”“大光升几级”"
                    "（照现在填的数）算升级；下面的行须留空或保持原样。"
                ),
                required=False,
                initial=not shown.score.bands,
            )
        if flips_by_key(base) and "declare__nobody" in self.fields:
            nobody = self.fields["declare__nobody"]
            nobody.help_text = f"{nobody.help_text} {_flip_words(base)}"
        for name, spec in base.option_specs.items():
            self.fields[f"option__{name}"] = forms.ChoiceField(
                label=gettext("选项 %(name)s 的默认值") % {"name": name},
                help_text=rulesdoc.option_description(base, name),
                choices=[(_plain(c), _plain(c)) for c in spec.choices],
                initial=_plain(shown.options.get(name, spec.default)),
            )
        self.fields["title"].initial = shown.title
        self.fields["title_en"].initial = shown.title_en
        # A description the ruleset did not write itself is its base's: not shown as its own.
        for key in ("description", "description_en"):
            own = getattr(shown, key)
            self.fields[key].initial = own if own != getattr(base, key) else ""

    def rule_fields(self) -> list[forms.BoundField]:
        """List the rule fields the template draws together (not the names, texts and the
        level table's own switch)."""
        return [self[name] for name in self.fields if name not in OWN_PLACE]

    def drop_field(self) -> forms.BoundField | None:
        """Give the level table's switch "no level table" (only a base with a table has it)."""
        return self[DROP_BANDS] if DROP_BANDS in self.fields else None

    def clean(self) -> dict[str, Any]:
        """Refuse a no-declaration choice the base's top-level `flip: true` would override."""
        data = super().clean()
        nobody = data.get("declare__nobody")
        if flips_by_key(self.base) and nobody and nobody != NobodyDeclares.FLIP:
            self.add_error("declare__nobody", _flip_words(self.base, nobody))
        return data


def flips_by_key(rs: Ruleset) -> bool:
    """Tell whether a ruleset flips the kitty by its top-level `flip: true`, which decides over
    any `declare.nobody` a derived ruleset writes (so the workshop cannot change it)."""
    return rs.data.get("flip") is True


def _flip_words(base: Ruleset, chosen: str = "") -> str:
    """Say why the base's no-declaration rule stays flip (and that `chosen` would not apply)."""
    words = gettext(
        "此底（%(base)s）用顶层的 flip: true 规定无人亮主时翻底定主，工坊改不了这一条；"
        "要无人亮主时重新发牌或打无主，请换一个不翻底的规则集为底。"
    ) % {"base": base.name}
    if not chosen:
        return words
    return gettext("选 %(value)s 不会生效：") % {"value": chosen} + words


def _plain(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


class BandForm(forms.Form):
    """One row of the level table: from how many attacker points, who wins, levels, result."""

    low = forms.IntegerField(
        label=_("闲家得分从"),
        required=False,
        min_value=0,
        max_value=1000,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    winner = forms.ChoiceField(label=_("哪方赢"), required=False)
    rise = forms.IntegerField(
        label=_("升几级"),
        required=False,
        min_value=0,
        max_value=12,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    result = forms.ChoiceField(label=_("结果"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [("", "—")] + [(w, _side(w)) for w in BAND_WINNERS]
        self.fields["result"].choices = [("", "—")] + [
            (r, term(r, present.engine_lang())) for r in BAND_RESULTS
        ]

    def row(self) -> dict[str, Any] | None:
        """Give the row as the ruleset writes it, None when it is left empty."""
        data = self.cleaned_data
        values = [data.get(k) for k in ("low", "winner", "rise", "result")]
        if all(v in (None, "") for v in values):
            return None
        if any(v in (None, "") for v in values):
            self.add_error(None, gettext("这一行要填满四格（或全部留空）。"))
            return None
        low, winner, rise, result = values
        return {"from": low, "winner": winner, "rise": rise, "result": result}


def _side(winner: str) -> str:
    return gettext("庄家") if winner == "banker" else gettext("闲家")


BandFormSet = forms.formset_factory(BandForm, extra=0, min_num=BAND_ROWS, max_num=BAND_ROWS)


def band_initial(rs: Ruleset) -> list[dict[str, Any]]:
    """Write a ruleset's level table as the rows' initial values (empty rows without one)."""
    return [
        {"low": b.low, "winner": b.winner, "rise": b.rise, "result": b.result}
        for b in rs.score.bands
    ]


def _table(rs: Ruleset) -> list[dict[str, Any]]:
    """Write a ruleset's level table as its file does (what the rows read back to)."""
    return [
        {"from": b.low, "winner": b.winner, "rise": b.rise, "result": b.result}
        for b in rs.score.bands
    ]


def _put(tree: dict[str, Any], path: str, value: Any) -> None:
    head, _dot, rest = path.partition(".")
    if rest:
        _put(tree.setdefault(head, {}), rest, value)
    else:
        tree[head] = value


KEY_INDEX = re.compile(r"^score\.bands\[(\d+)\](?:\.(\w+))?$")


class Draft:
    """A workshop submission: the form and the rows, read into a house ruleset or field errors."""

    def __init__(self, base: Ruleset, shown: Ruleset, data: Mapping[str, Any] | None) -> None:
        self.base = base
        self.form = WorkshopForm(base, shown, data)
        self.bands = BandFormSet(data, prefix="bands", initial=band_initial(shown))
        self.text = ""
        self.ruleset: Ruleset | None = None
        self.overrides: dict[str, Any] = {}

    def is_valid(self, name: str = DRAFT_NAME) -> bool:
        """Check the fields, write the YAML, let the engine judge it; errors go to fields."""
        if not (self.form.is_valid() & self.bands.is_valid()):
            return False
        rows = [r for r in (f.row() for f in self.bands.forms) if r is not None]
        if any(f.non_field_errors() for f in self.bands.forms):
            return False
        if self._drops_bands(rows) and rows and rows != _table(self.base):
            message = gettext("勾了“不用升级表”，下面的行却改了：请取消勾选，或把行留空、还原。")
            self.form.add_error(DROP_BANDS, message)
            return False
        self.overrides = self._overrides(rows)
        self.text = self.yaml(name)
        try:
            self.ruleset = read_ruleset_text(self.text, name)
        except EngineError as exc:
            self._place(exc, name)
            return False
        return True

    def _overrides(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        data = self.form.cleaned_data
        out: dict[str, Any] = {}
        for field in self.form.shown_fields:
            value, before = data[field.name], field.read(self.base)
            if field.kind == "ranks":
                value, before = sorted(value, key=str), sorted(before, key=str)
            if value != before:
                _put(out, field.path, value)
        if "decks" in out or "kitty_size" in out:
            out.setdefault("kitty_size", data["kitty_size"])
            out["hand_size"] = "auto"
        if self._drops_bands(rows):
            # No table: the step rules as the form shows them (a table's base derives its
            # takeover line and big-sweep rise from its rows, not from its own keys).
            _put(out, "score.bands", [])
            for key in ("score.step", "score.swap_at", "score.zero_rise"):
                if key.replace(".", "__") in data:
                    _put(out, key, data[key.replace(".", "__")])
        elif rows and rows != _table(self.base):
            _put(out, "score.bands", rows)
        options = {}
        for name, spec in self.base.option_specs.items():
            value = data[f"option__{name}"]
            if value != _plain(spec.default):
                chosen = next(c for c in spec.choices if _plain(c) == value)
                options[name] = {"default": chosen}
        if options:
            out["options"] = options
        return out

    def _drops_bands(self, rows: list[dict[str, Any]]) -> bool:
        """Tell whether the draft removes the base's level table: ticked, or every row blank."""
        ticked = bool(self.form.cleaned_data.get(DROP_BANDS))
        return bool(self.base.score.bands) and (ticked or not rows)

    def yaml(self, name: str) -> str:
        """Write the house ruleset: `extends` the base, its name and texts, what it changes."""
        data = self.form.cleaned_data
        head: dict[str, Any] = {"extends": self.base.name, "name": name}
        for key in ("title", "title_en", "description", "description_en"):
            if data.get(key):
                head[key] = data[key].strip()
        return yaml.safe_dump({**head, **self.overrides}, allow_unicode=True, sort_keys=False)

    def _place(self, exc: EngineError, name: str) -> None:
        """Put an engine error on the field its key path names, else on the form."""
        lang = present.engine_lang()
        message = exc.message_for(lang).removeprefix(f"{name}: ")
        key = exc.field or ""
        message = message if key and key in message else f"{key}: {message}".lstrip(": ")
        key = "kitty_size" if key == "hand_size" else key
        hit = KEY_INDEX.match(key)
        if hit:
            forms_ = [f for f in self.bands.forms if f.row() is not None]
            index = int(hit.group(1))
            target = forms_[index] if index < len(forms_) else None
            if target is not None:
                column = {"from": "low"}.get(hit.group(2) or "", hit.group(2) or "")
                target.add_error(column if column in target.fields else None, message)
                return
        field = key.replace(".", "__")
        if field in self.form.fields:
            self.form.add_error(field, message)
        else:
            self.form.add_error(None, message)
