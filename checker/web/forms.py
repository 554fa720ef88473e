"""The checker's query read once: a Django form that turns the contract's parameters into one
judged scenario (or one error naming the parameter, in both languages).

`/check/`, its htmx partial, `/api/check` and the matrix's scenario form all start here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import forms

from checker.engine.cards import ascii_card, format_cards, parse_cards
from checker.engine.errors import EngineError
from checker.engine.order import make_context
from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_known
from checker.scenarios.scenario import Checked, Scenario, ScenarioError, judge_scenario

from .context import DEFAULT_RULESET

MAX_PARAM = 300
MAX_PARAMS = 40
SEAT_KEY = re.compile(r"^[hp][0-9]{1,2}$")
DEAL_KEYS = ("ruleset", "level", "trump", "options", "banker")
CARD_KEYS = ("lead", "h0")


def field_label(key: str, lang: str = "zh") -> str:
    """Name a checker parameter for a reader: 玩家 1 的手牌 rather than h1."""
    en = lang.startswith("en")
    fixed = {
        "lead": ("领牌（玩家 0）", "the lead (player 0)"),
        "h0": ("玩家 0 的整手牌", "player 0's whole hand"),
        "ruleset": ("规则", "ruleset"),
        "level": ("级牌", "level"),
        "trump": ("主花色", "trump"),
        "options": ("规则选项", "rule options"),
        "banker": ("庄家座位", "banker's seat"),
        "cards": ("牌面", "the cards"),
    }
    if key in fixed:
        return fixed[key][1 if en else 0]
    if SEAT_KEY.match(key):
        seat = int(key[1:])
        if key[0] == "h":
            return f"player {seat}'s hand" if en else f"玩家 {seat} 的手牌"
        return f"player {seat}'s play" if en else f"玩家 {seat} 出的牌"
    return key


class CheckForm(forms.Form):
    """The checker's query: validated into one `Scenario` and judged once into `checked`.

    After `is_valid()`: `params` holds the parameters given (stripped, known keys only),
    `problem` the first error as a bilingual `ScenarioError` (or None), `scenario` the parsed
    scenario and `checked` its judgement (None without a lead or with a problem).
    """

    ruleset = forms.CharField(required=False)
    level = forms.CharField(required=False)
    trump = forms.CharField(required=False)
    options = forms.CharField(required=False)
    banker = forms.CharField(required=False)
    lead = forms.CharField(required=False)
    h0 = forms.CharField(required=False)

    def __init__(self, data: Mapping[str, Any] | None = None, *, judge: bool = True) -> None:
        query = data if data is not None else {}
        seat_keys = [k for k in query if SEAT_KEY.match(str(k)) and k != "h0"]
        super().__init__({k: _last(query, k) for k in query})
        for key in sorted(seat_keys, key=lambda k: (int(k[1:]), k[0])):
            self.fields[key] = forms.CharField(required=False)
        self.judge = judge
        self.extra_count = len(query)
        self.params: dict[str, str] = {}
        self.problem: ScenarioError | None = None
        self.scenario: Scenario | None = None
        self.checked: Checked | None = None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.params = {k: str(v).strip() for k, v in data.items() if v not in (None, "")}
        try:
            self._check_sizes()
            if self.judge:
                self.scenario = Scenario({"ruleset": DEFAULT_RULESET, **self.params})
                if self.scenario.lead:
                    self.checked = judge_scenario(self.scenario)
        except ScenarioError as exc:
            self.problem = exc
            self.add_error(None, exc.message)
        return data

    def _check_sizes(self) -> None:
        if self.extra_count > MAX_PARAMS:
            raise ScenarioError(
                "",
                f"参数太多（最多 {MAX_PARAMS} 个）。",
                en=f"too many parameters (at most {MAX_PARAMS}).",
            )
        for key, value in self.params.items():
            if len(value) > MAX_PARAM:
                raise ScenarioError(
                    key,
                    f"参数 {key} 太长（最多 {MAX_PARAM} 个字符）。",
                    en=f"parameter {key} is too long (at most {MAX_PARAM} characters).",
                )
            if "\x00" in value:
                raise ScenarioError(
                    key, f"参数 {key} 含有非法字符。", en=f"parameter {key} holds a bad character."
                )

    @property
    def ruleset_name(self) -> str:
        name = self.params.get("ruleset") or DEFAULT_RULESET
        return name if ruleset_known(name) else DEFAULT_RULESET

    def error_for(self, lang: str) -> dict[str, str] | None:
        """The problem as the page shows it: the field, its label for a reader, the message."""
        if self.problem is None:
            return None
        en = lang.startswith("en")
        return {
            "field": self.problem.field,
            "label": field_label(self.problem.field, lang) if self.problem.field else "",
            "message": self.problem.message_en if en else self.problem.message,
        }

    def api_error(self) -> dict[str, str]:
        """The problem as /api/check returns it: error, error_en and field."""
        assert self.problem is not None
        return {
            "error": self.problem.message,
            "error_en": self.problem.message_en,
            "field": self.problem.field,
        }


def _last(query: Mapping[str, Any], key: str) -> str:
    getlist = getattr(query, "getlist", None)
    if getlist is not None:
        values = getlist(key)
        return str(values[-1]) if values else ""
    return str(query[key])


def carry_over(
    params: Mapping[str, str], rs: Ruleset
) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Keep every card the ruleset's deck has after a ruleset change; say which were dropped.

    Returns the parameters to show and, per field, the dropped cards in words
    (e.g. "领牌（玩家 0）: ♠3"); seats the ruleset does not have are dropped whole.
    """
    kept: dict[str, str] = {}
    dropped: list[tuple[str, str]] = []
    level = params.get("level") or ""
    try:
        ctx = make_context(rs, level if rs.has_level else None, params.get("trump") or "none")
    except EngineError:
        level = str(rs.ranks[0]) if rs.has_level else ""
        ctx = make_context(rs, level or None, params.get("trump") or "none")
        if params.get("level"):
            dropped.append(("level", params["level"]))
    for key, value in params.items():
        if key in ("level",):
            if level:
                kept[key] = level
            continue
        if key == "options":
            continue  # options belong to the ruleset they were written for
        if key not in CARD_KEYS and not SEAT_KEY.match(key):
            kept[key] = value
            continue
        if SEAT_KEY.match(key) and key != "h0" and int(key[1:]) >= rs.players:
            dropped.append((key, value))
            continue
        try:
            cards = parse_cards(value)
        except EngineError:
            kept[key] = value  # a bad token stays for the reader to fix
            continue
        good = [c for c in cards if c in ctx.key]
        lost = [c for c in cards if c not in ctx.key]
        kept[key] = " ".join(ascii_card(c) for c in good)
        if lost:
            dropped.append((key, format_cards(lost)))
    return {k: v for k, v in kept.items() if v}, dropped


def ruleset_or_default(name: str) -> Ruleset:
    """Load a ruleset by name, the default one when the name is unknown."""
    try:
        return load_ruleset(name if ruleset_known(name) else DEFAULT_RULESET)
    except EngineError:
        return load_ruleset(DEFAULT_RULESET)
