"""Presentation helpers: cards as glyph chips, case values in words, value diffs.

Chips are built here as HTML strings rather than with template includes: the
dashboard draws a few thousand cards and this keeps it fast.  Every piece of
text that reaches the HTML is either from a fixed set (card faces, labels) or
escaped.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.functional import lazy
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from checker.engine.cards import Card, ascii_upper, format_card, parse_cards
from checker.engine.errors import EngineError
from checker.engine.order import make_context
from checker.engine.ruleset import Ruleset, load_ruleset
from checker.engine.vocab import (
    JOKER_NAMES_EN,
    RED_SUITS,
    SUIT_SYMBOLS,
    Lang,
    as_lang,
    has_term,
    is_no_trump,
    term,
)
from checker.engine.vocab import RANK_LABELS as RANK_LABELS
from checker.suite.registry import KINDS

# Case fields whose values are card lists (or lists of card lists).
CARD_KEYS = {"cards", "lead", "hand", "play", "forced", "example", "kitty", "card"}
CARD_LIST_KEYS = {"plays", "hands", "others"}

FIELD_LABELS: dict[str, Any] = {
    "cards": gettext_lazy("牌"),
    "card": gettext_lazy("决定的牌"),
    "lead": gettext_lazy("领牌"),
    "hand": gettext_lazy("手牌"),
    "play": gettext_lazy("出牌"),
    "plays": gettext_lazy("各家出牌"),
    "hands": gettext_lazy("各家手牌"),
    "others": gettext_lazy("其他玩家手牌"),
    "kitty": gettext_lazy("底牌"),
    "current": gettext_lazy("桌上已亮的主"),
    "seat": gettext_lazy("座位"),
    "banker": gettext_lazy("庄家"),
    "first": gettext_lazy("首叫座位"),
    "points": gettext_lazy("分数"),
    "bids": gettext_lazy("叫分"),
    "bid": gettext_lazy("叫分"),
    "role": gettext_lazy("角色"),
    "surrender": gettext_lazy("投降"),
    "banker_level": gettext_lazy("庄家级别"),
    "attacker_level": gettext_lazy("闲家级别"),
    "legal": gettext_lazy("合法"),
    "reason": gettext_lazy("原因"),
    "forced": gettext_lazy("必出的牌"),
    "example": gettext_lazy("合法示例"),
    "winner": gettext_lazy("赢家"),
    "beats": gettext_lazy("压过"),
    "type": gettext_lazy("牌型"),
    "suit": gettext_lazy("花色"),
    "tractors": gettext_lazy("拖拉机"),
    "pairs": gettext_lazy("对子"),
    "singles": gettext_lazy("单张"),
    "allowed": gettext_lazy("可出"),
    "penalty": gettext_lazy("罚分"),
    "penalty_to": gettext_lazy("罚分归属"),
    "multiplier": gettext_lazy("倍率"),
    "kitty_points": gettext_lazy("底牌分"),
    "bonus": gettext_lazy("加分"),
    "accepted": gettext_lazy("接受"),
    "trump": gettext_lazy("主"),
    "declarer": gettext_lazy("亮主者"),
    "rise": gettext_lazy("升级数"),
    "result": gettext_lazy("结果"),
    "next_level": gettext_lazy("下局级别"),
    "level": gettext_lazy("级牌"),
    "options": gettext_lazy("选项"),
    "base_chips": gettext_lazy("基础筹码"),
    "chips": gettext_lazy("筹码"),
    "valid": gettext_lazy("有效"),
    "error_at": gettext_lazy("首个错误位置"),
    "items": gettext_lazy("明细"),
}


def _kind_label(name: str) -> str:
    return KINDS[name].label_for("en" if engine_lang() == "en" else "zh")


# Each kind's label, in the page's language when rendered (the labels live in the kind records).
KIND_LABELS: dict[str, Any] = {name: lazy(_kind_label, str)(name) for name in KINDS}


def engine_lang() -> Lang:
    """The language of the engine's explanations for the active page: "en" or "zh"."""
    return as_lang(get_language())


def explanation(source: Any) -> str:
    """The engine's explanation of a verdict or result in the page's language.

    `source` is a mapping (the checker JSON) or an object (a CaseResult) holding
    `explanation` (zh-Hans) and `explanation_en`; English pages show the English one,
    falling back to the Chinese where no English was made.
    """
    if isinstance(source, Mapping):
        zh, en = source.get("explanation"), source.get("explanation_en")
    else:
        zh, en = getattr(source, "explanation", ""), getattr(source, "explanation_en", "")
    if en and engine_lang() == "en":
        return str(en)
    return str(zh or "")


def error_of(cell: Mapping[str, Any]) -> str:
    """An error of a judged cell (`error`, `error_en`) in the page's language."""
    english = cell.get("error_en")
    return str(english if english and engine_lang() == "en" else cell.get("error") or "")


def ruleset_title(rs: Any) -> str:
    """A ruleset's title in the page's language."""
    return str(rs.title_en if engine_lang() == "en" else rs.title)


def case_title(result: Any) -> str:
    """A case's row label in the page's language (title_en on English pages, where written)."""
    return str(result.title_for(engine_lang()))


def category_name(result: Any) -> str:
    """A case's category in the page's language (its file's category_en, where written)."""
    return str(result.category_for(engine_lang()))


def message(result: Any) -> str:
    """A result's message (why it failed or is an error) in the page's language."""
    english = getattr(result, "message_en", "")
    if english and engine_lang() == "en":
        return str(english)
    return str(getattr(result, "message", "") or "")


def deal_context(ruleset: str, data: Mapping[str, Any]) -> Any:
    """The card order of a case's deal (for trump badges), or None when it cannot be built."""
    try:
        rs = load_ruleset(ruleset)
        if data.get("options"):
            rs = rs.with_options(data.get("options"))
        return make_context(rs, data.get("level"), data.get("trump"))
    except (EngineError, ValueError, TypeError, KeyError, AttributeError):
        return None


def rank_label(rank: int) -> str:
    """Write a rank as 2..10, J, Q, K, A."""
    return RANK_LABELS.get(rank, str(rank))


def default_level(rs: Ruleset) -> str:
    """Write the ruleset's default level as a link does ("" for a ruleset without levels)."""
    level = rs.default_level
    return "" if level is None else rank_label(level)


def term_label(code: str) -> str:
    """Name a code (type, reason, result, side) in the page's language, as a label."""
    words = term(code, engine_lang())
    return words[:1].upper() + words[1:]


def chip(card: Card, ctx: Any = None, extra: str = "") -> str:
    """One card as an HTML chip; `ctx` (a deal context) adds the trump badge."""
    classes = ["card"]
    trump = False
    if ctx is not None:
        try:
            trump = bool(ctx.is_trump(card))
        except (KeyError, AttributeError, TypeError):
            trump = False
    if card.rank >= 15:
        big = card.rank == 16
        classes += ["joker", "big" if big else "small"]
        if trump:
            classes.append("trump")
        if extra:
            classes.append(extra)
        english = engine_lang() == "en"
        name = ("BJ" if big else "LJ") if english else ("大王" if big else "小王")
        spoken = JOKER_NAMES_EN[card.rank] if english else name
        title = spoken + (" · " + _("主牌") if trump else "")
        return f'<span class="{" ".join(classes)}" title="{title}">{name}</span>'
    symbol = SUIT_SYMBOLS.get(card.suit, "?")
    if card.suit in RED_SUITS:
        classes.append("red")
    if trump:
        classes.append("trump")
    if extra:
        classes.append(extra)
    label = rank_label(card.rank)
    title = symbol + label + (" · " + _("主牌") if trump else "")
    return (
        f'<span class="{" ".join(classes)}" title="{title}">'
        f'<span class="suit">{symbol}</span>{label}</span>'
    )


def chips(cards: Iterable[Card], ctx: Any = None, mark: Iterable[Card] = ()) -> SafeString:
    """A card list as a row of chips; cards in `mark` get the 'forced' outline."""
    marked = Counter(mark)
    parts = []
    for card in cards:
        extra = ""
        if marked[card]:
            marked[card] -= 1
            extra = "forced"
        parts.append(chip(card, ctx, extra))
    if not parts:
        return format_html('<span class="none">{}</span>', _("（无）"))
    return mark_safe('<span class="cards">' + "".join(parts) + "</span>")


def to_cards(value: Any) -> list[Card] | None:
    """Parse a card list written as text or a list of tokens; None when it is not one."""
    if value is None:
        return None
    if isinstance(value, Card):
        return [value]
    if isinstance(value, str):
        text = value
    elif isinstance(value, (list, tuple)) and all(isinstance(v, (str, Card)) for v in value):
        if value and all(isinstance(v, Card) for v in value):
            return list(value)
        text = " ".join(v if isinstance(v, str) else format_card(v) for v in value)
    else:
        return None
    try:
        return parse_cards(text)
    except ValueError:
        return None


def code_label(value: str) -> str:
    """Name a case value code in words (pair → 对子 / pair, S → ♠); other values as they are."""
    if value in SUIT_SYMBOLS:
        return SUIT_SYMBOLS[value]
    return term_label(value) if has_term(value) else value


def field_label(key: str) -> str:
    label = FIELD_LABELS.get(key)
    return str(label) if label is not None else key


def render_value(key: str, value: Any, ctx: Any = None) -> SafeString:
    """Render one case field (input, expected or actual) as HTML."""
    if value is None:
        return mark_safe('<span class="none">—</span>')
    if isinstance(value, bool):
        word = _("是") if value else _("否")
        css = "ok-word" if value else "bad-word"
        return format_html(
            '<span class="{}">{}</span> <code>{}</code>', css, word, "true" if value else "false"
        )
    if key in CARD_KEYS:
        cards = to_cards(value)
        if cards is not None:
            return chips(cards, ctx)
    if key in CARD_LIST_KEYS and isinstance(value, (list, tuple)):
        rows = []
        for i, item in enumerate(value):
            cards = to_cards(item)
            inner = chips(cards, ctx) if cards is not None else escape(str(item))
            rows.append(f'<li><span class="unit-label">{i}</span>{inner}</li>')
        return mark_safe('<ol class="card-rows">' + "".join(rows) + "</ol>")
    if key == "current" and isinstance(value, (list, tuple)):
        rows = []
        for item in value:
            if isinstance(item, Mapping):
                cards = to_cards(item.get("cards"))
                inner = chips(cards, ctx) if cards is not None else escape(str(item.get("cards")))
                seat = escape(str(item.get("seat", "?")))
                rows.append(f'<li><span class="unit-label">{_("座位")} {seat}</span>{inner}</li>')
            else:
                rows.append(f"<li>{escape(str(item))}</li>")
        if not rows:
            return format_html('<span class="none">{}</span>', _("（无）"))
        return mark_safe('<ol class="card-rows">' + "".join(rows) + "</ol>")
    if isinstance(value, str):
        label = code_label(value)
        if label != value:
            return format_html("{} <code>{}</code>", label, value)
        return format_html("<span{}>{}</span>", quoted_lang(value), value)
    if isinstance(value, (list, tuple)):
        if not value:
            return mark_safe("<code>[]</code>")
        text = ", ".join(str(v) for v in value)
        return format_html("<code{}>{}</code>", quoted_lang(text), text)
    if isinstance(value, Mapping):
        items = "".join(
            f"<dt>{escape(field_label(str(k)))}</dt><dd>{render_value(str(k), v, ctx)}</dd>"
            for k, v in value.items()
        )
        return mark_safe(f'<dl class="kv">{items}</dl>')
    return format_html("{}", value)


CJK = re.compile(r"[\u3400-\u9fff]")


def quoted_lang(text: str) -> SafeString:
    """Mark text quoted as written (a case's Chinese words) on an English page: ` lang="zh-Hans"`
    when the page is English and the text holds Chinese, else nothing."""
    if engine_lang() == "en" and CJK.search(text):
        return mark_safe(' lang="zh-Hans"')
    return mark_safe("")


def normalise(key: str, value: Any) -> Any:
    """A comparable form of a field value: card lists as sorted multisets."""
    if key in CARD_KEYS:
        cards = to_cards(value)
        if cards is not None:
            return sorted(cards)
    if key in CARD_LIST_KEYS and isinstance(value, (list, tuple)):
        out = []
        for item in value:
            cards = to_cards(item)
            out.append(sorted(cards) if cards is not None else item)
        return out
    if isinstance(value, tuple):
        return list(value)
    return value


def differing_keys(expected: Mapping[str, Any], actual: Mapping[str, Any] | None) -> set[str]:
    """The expected keys whose actual value differs (card lists compared as multisets)."""
    if not actual:
        return set(expected)
    out = set()
    for key, value in expected.items():
        if key not in actual or normalise(key, value) != normalise(key, actual[key]):
            out.add(key)
    return out


def kv_rows(
    data: Mapping[str, Any] | None,
    ctx: Any = None,
    diff: set[str] | frozenset[str] = frozenset(),
    keys: Sequence[str] | None = None,
) -> SafeString:
    """A definition list of fields; keys in `diff` are marked as differing."""
    if not data:
        return mark_safe('<span class="none">—</span>')
    order = list(keys) if keys is not None else list(data)
    parts = []
    for key in order:
        if key not in data:
            continue
        value = render_value(key, data[key], ctx)
        if key in diff:
            value = mark_safe(f'<span class="diff">{value}</span>')
        parts.append(f"<dt>{escape(field_label(key))}</dt><dd>{value}</dd>")
    return mark_safe('<dl class="kv">' + "".join(parts) + "</dl>")


def deal_words(level: Any, trump: Any, has_level: bool = True) -> str:
    """The deal setting in words, e.g. 打2 · 主♥ / 无主."""
    parts = []
    if has_level and level not in (None, ""):
        parts.append(_("打%(level)s") % {"level": level})
    if trump is not None and trump != "":
        text = str(trump)
        if is_no_trump(text):
            parts.append(_("无主"))
        else:
            letter = ascii_upper(text)[:1]
            parts.append(_("主%(suit)s") % {"suit": SUIT_SYMBOLS.get(letter, text)})
    return " · ".join(parts)
