"""What the checker page draws, built from one judged scenario (`CheckForm.checked`).

Nothing here parses a card or asks the engine again: the cards come parsed on the
scenario, the verdicts on its `Checked` result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from checker.engine.cards import Card, ascii_card, format_card
from checker.engine.order import Context
from checker.engine.ruleset import Ruleset, ruleset_names
from checker.scenarios.scenario import Checked, case_yaml, parse_options

from . import present
from .forms import CheckForm, carry_over, field_label, ruleset_or_default
from .hosts import absolute_url
from .links import canonical_params, checker_query, trump_param
from .readingview import reading_view
from .rulesdoc import option_description


def trump_choices() -> list[tuple[str, str]]:
    """The trump select's choices in the page's language."""
    return [
        ("S", _("♠ 黑桃")),
        ("H", _("♥ 红桃")),
        ("C", _("♣ 梅花")),
        ("D", _("♦ 方块")),
        ("none", _("无主")),
    ]


def _players(seats: Sequence[int]) -> str:
    joined = (
        "、".join(str(s) for s in seats)
        if present.engine_lang() == "zh"
        else ", ".join(str(s) for s in seats)
    )
    return _("玩家 %(n)s") % {"n": joined}


def _cards_html(cards: Sequence[Card], ctx: Context, mark: Sequence[Card] = ()) -> Any:
    return present.chips(cards, ctx, mark)


def _short(cards: Sequence[Card]) -> str:
    return "".join(format_card(c) for c in cards)


def verdict_view(checked: Checked, params: Mapping[str, str]) -> dict[str, Any]:
    """Turn one judged scenario into what the summary and the verdict panels draw."""
    sc, data = checked.scenario, checked.data
    ctx = sc.ctx
    lang = present.engine_lang()
    lead = checked.lead
    assert lead is not None
    lead_json = data["lead"]
    out: dict[str, Any] = {"setting": data["setting_en"] if lang == "en" else data["setting"]}
    out["lead"] = {
        "html": _cards_html(sc.lead, ctx),
        "short": _short(sc.lead),
        "valid": lead.is_valid,
        "type_label": present.term_label(lead.type),
        "suit_label": present.code_label(str(lead_json.get("suit")))
        if lead_json.get("suit")
        else "",
        "units": [
            {"kind": present.term_label(u.kind), "html": _cards_html(u.cards, ctx)}
            for u in lead.units
        ]
        if lead.is_valid and len(lead.units) > 1
        else [],
        "explanation": present.explanation(lead_json),
        "reading": reading_view(checked.readings, lang),
    }
    throw = data.get("throw")
    if throw:
        view: dict[str, Any] = {
            "checked": throw["checked"],
            "explanation": present.explanation(throw),
        }
        if throw["checked"]:
            verdict = checked.throw
            assert verdict is not None
            view.update(
                allowed=throw["allowed"],
                forced_html=_cards_html(ctx.sort_cards(verdict.forced), ctx),
                forced_short=_short(ctx.sort_cards(verdict.forced)),
                has_forced=bool(verdict.forced),
                penalty=throw["penalty"],
                scope=throw["scope_en"] if lang == "en" else throw["scope"],
            )
        out["throw"] = view
    led = data.get("led")
    if led and led["from_failed_throw"]:
        out["led"] = {
            "html": _cards_html(checked.led, ctx),
            "short": _short(ctx.sort_cards(checked.led)),
            "explanation": present.explanation(led),
        }
    trick = data.get("trick")
    follows = []
    for seat, entry in zip(checked.follow_seats, data.get("follows") or [], strict=False):
        follows.append(_follow_view(checked, seat, entry, params, trick))
    out["follows"] = follows
    if trick:
        out["trick"] = _trick_view(checked, trick)
    out["summary"] = _summary(out, checked)
    return out


def _follow_view(
    checked: Checked,
    seat: int,
    entry: Mapping[str, Any] | None,
    params: Mapping[str, str],
    trick: Mapping[str, Any] | None,
) -> dict[str, Any]:
    sc, ctx = checked.scenario, checked.scenario.ctx
    lang = present.engine_lang()
    if not entry:
        return {"seat": seat, "empty": True}
    hand, play = sc.hands.get(seat), sc.plays.get(seat)
    forced = [c for c in _parsed(entry.get("forced"), hand)]
    example = [c for c in _parsed(entry.get("example"), hand)]
    view: dict[str, Any] = {
        "seat": seat,
        "empty": False,
        "hand_html": _cards_html(ctx.sort_cards(hand), ctx, forced) if hand else "",
        "play_html": _cards_html(play, ctx) if play else "",
        "play_short": _short(play) if play else "",
        "has_play": bool(play),
        "legal": entry.get("legal"),
        "reason_label": present.term_label(entry["reason"]) if entry.get("reason") else "",
        "forced_html": _cards_html(forced, ctx),
        "has_forced": bool(forced),
        "need": entry.get("need_en" if lang == "en" else "need", ""),
        "incomplete": bool(entry.get("incomplete")),
        "example_html": _cards_html(example, ctx),
        "example_text": " ".join(format_card(c) for c in example),
        "has_example": bool(example),
        "explanation": present.explanation(entry),
        "example_url": reverse("check")
        + "?"
        + checker_query({**params, f"p{seat}": " ".join(ascii_card(c) for c in example)}),
    }
    if trick and seat < len(trick["beats"]):
        view["beats"] = trick["beats"][seat]
        view["wins"] = trick["winner"] == seat
    return view


def _parsed(tokens: Any, hand: Sequence[Card] | None) -> list[Card]:
    """Read back cards the JSON wrote with symbols (they came from the scenario's own cards)."""
    if not tokens:
        return []
    pool = {format_card(c): c for c in (hand or ())}
    return [pool[t] for t in tokens if t in pool]


def _trick_view(checked: Checked, trick: Mapping[str, Any]) -> dict[str, Any]:
    sc, ctx = checked.scenario, checked.scenario.ctx
    lang = present.engine_lang()
    winner = trick["winner"]
    complete = trick["complete"] and "so_far" not in trick
    who = _("玩家 0（领牌）") if winner == 0 else _players([winner])
    label = (
        (_("%(who)s 赢") % {"who": who}) if complete else (_("目前 %(who)s 领先") % {"who": who})
    )
    plays = [checked.led] + [sc.plays[s] for s in range(1, len(trick["beats"]))]
    return {
        "winner": winner,
        "complete": complete,
        "winner_label": label,
        "so_far": trick.get("so_far_en" if lang == "en" else "so_far", ""),
        "plays": [
            {"html": _cards_html(p, ctx), "beats": bool(b), "seat": i}
            for i, (p, b) in enumerate(zip(plays, trick["beats"], strict=True))
        ],
        "points": trick["points"],
        "explanation": present.explanation(trick),
    }


def _summary(view: Mapping[str, Any], checked: Checked) -> list[dict[str, Any]]:
    """One short line per seat for the sticky summary: mark, cards and the reason in words."""
    lines: list[dict[str, Any]] = []
    lead = view["lead"]
    text = lead["type_label"]
    state = "ok" if lead["valid"] else "bad"
    throw = view.get("throw")
    if throw and throw.get("checked"):
        if throw["allowed"]:
            text = _("甩牌成立")
        else:
            text = _("甩牌失败，按 %(cards)s 判断") % {"cards": throw["forced_short"]}
            state = "warn"
    elif throw:
        text = _("甩牌（未对照手牌）")
    lines.append(
        {"seat": 0, "who": _("领牌"), "cards": lead["short"], "state": state, "text": text}
    )
    for f in view["follows"]:
        if f["empty"]:
            continue
        if f["has_play"] and f["legal"] is True:
            state, text = "ok", _("合法")
        elif f["has_play"] and f["legal"] is False:
            state, text = "bad", _("不合法：%(why)s") % {"why": f["reason_label"]}
        elif f["has_play"]:
            state, text = "unknown", _("没有手牌，按合法处理")
        elif f["incomplete"]:
            state, text = "unknown", _("手牌不全")
        else:
            state, text = "hint", f["need"]
        if f.get("wins"):
            text += " · " + (_("赢") if view["trick"]["complete"] else _("领先"))
        lines.append(
            {
                "seat": f["seat"],
                "who": _players([f["seat"]]),
                "cards": f["play_short"],
                "state": state,
                "text": text,
            }
        )
    trick = view.get("trick")
    if trick:
        lines.append(
            {
                "seat": "trick",
                "who": _("本墩"),
                "cards": "",
                "state": "trick",
                "text": trick["winner_label"] + " · " + (_("%(p)s 分") % {"p": trick["points"]}),
            }
        )
    return lines


def with_form_options(rs: Ruleset, params: Mapping[str, str]) -> Ruleset:
    """Return the ruleset with the form's options (decks and players shape the grid and seats);
    the ruleset itself when they do not parse (the form reports that error)."""
    try:
        return rs.with_options(parse_options(params.get("options") or ""))
    except ValueError:  # EngineError and ScenarioError are ValueErrors
        return rs


def seat_fields(rs: Ruleset, params: Mapping[str, str]) -> list[dict[str, Any]]:
    """The follower seats of the ruleset with their hand and play fields."""
    lang = present.engine_lang()
    return [
        {
            "seat": i,
            "hand_name": f"h{i}",
            "play_name": f"p{i}",
            "hand": params.get(f"h{i}", ""),
            "play": params.get(f"p{i}", ""),
            "hand_label": field_label(f"h{i}", lang),
            "play_label": field_label(f"p{i}", lang),
        }
        for i in range(1, rs.players)
    ]


def card_grid(rs: Ruleset) -> list[dict[str, Any]]:
    """The card grid's rows: one per suit in the ruleset's display order, ranks high to low."""
    rows = []
    for suit in rs.hand_suits:
        cells = [
            {"token": format_card(Card(suit, rank)), "label": present.rank_label(rank)}
            for rank in sorted(rs.ranks, reverse=True)
        ]
        rows.append(
            {
                "suit": suit,
                "symbol": present.SUIT_SYMBOLS[suit],
                "red": suit in present.RED_SUITS,
                "cells": cells,
            }
        )
    return rows


def qr_svg(url: str) -> bytes:
    """Draw a URL as an SVG QR code.

    A fixed mask pattern skips segno's evaluation of all eight masks (the slow part of
    encoding: about 20 ms for a full four-hand link); every mask decodes the same.
    """
    import io

    import segno

    qr = segno.make(url, error="l", mask=0, micro=False)
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=3, border=2, dark="#1d2430", light="#ffffff", title="QR")
    return out.getvalue()


def _fmt_option(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def page_context(request: HttpRequest, form: CheckForm, rs: Ruleset) -> dict[str, Any]:
    """Everything the checker page and its partial draw, from the form's one judged result."""
    params = dict(form.params)
    params["ruleset"] = rs.name
    lang = present.engine_lang()
    error = form.error_for(lang)
    checked = form.checked
    has_input = bool(params.get("lead"))
    if not has_input:
        # A fresh checker: offer the ruleset's default deal (打2, 主♥ for most) in the form.
        if rs.has_level:
            params.setdefault("level", present.default_level(rs))
        params.setdefault("trump", rs.default_trump)
    canonical = _canonical(form, params)
    query = checker_query(canonical)
    path = reverse("check") + "?" + query
    permalink = absolute_url(request, path) or path
    yaml_text = ""
    if checked is not None and error is None:
        yaml_text = case_yaml(checked, lang)
    table = with_form_options(rs, params)
    return {
        "nav": "check",
        "ruleset": table,
        "rulesets": _ruleset_titles(lang),
        "params": params,
        "trump_value": trump_param(params.get("trump") or "none"),
        "banker_value": params.get("banker", "0"),
        "seat_choices": list(range(table.players)),
        "seats": seat_fields(table, params),
        "grid": card_grid(table),
        "ranks": [present.rank_label(r) for r in sorted(rs.ranks)],
        "error": error,
        "verdict": verdict_view(checked, params) if checked is not None and error is None else None,
        "has_input": has_input,
        "permalink": permalink,
        "query": query,
        "qr_url": reverse("check_qr") + "?" + query,
        "yaml_text": yaml_text,
        "api_url": reverse("api_check") + "?" + query,
        "matrix_url": reverse("matrix")
        + "?"
        + checker_query({k: v for k, v in canonical.items() if k not in ("ruleset", "options")})
        + "#scenario",
        "trump_choices": trump_choices(),
        "option_specs": _option_specs(rs),
    }


def _ruleset_titles(lang: str) -> list[tuple[str, str]]:
    """Every ruleset's name and title in the page's language, for the ruleset select."""
    return [
        (n, other.title_en if lang == "en" else other.title)
        for n in ruleset_names()
        for other in [ruleset_or_default(n)]
    ]


def _option_specs(rs: Ruleset) -> list[dict[str, Any]]:
    """The ruleset's options as the form offers them: name, choices and what each means."""
    return [
        {
            "name": o.name,
            "choices": [_fmt_option(c) for c in o.choices],
            "description": option_description(rs, o.name),
        }
        for o in rs.option_specs.values()
    ]


def _canonical(form: CheckForm, params: Mapping[str, str]) -> dict[str, str]:
    """The scenario's parameters in link spelling, from the cards the form already parsed."""
    sc = form.scenario
    if sc is None or form.problem is not None:
        return canonical_params(params)
    out = canonical_params({k: v for k, v in params.items() if k in ("ruleset", "level", "trump")})
    for key in ("options", "banker"):
        if params.get(key):
            out[key] = params[key]
    cards: dict[str, Sequence[Card] | None] = {"lead": sc.lead, "h0": sc.h0}
    cards.update({f"h{s}": h for s, h in sc.hands.items()})
    cards.update({f"p{s}": p for s, p in sc.plays.items()})
    for key, value in cards.items():
        if value:
            out[key] = " ".join(ascii_card(c) for c in value)
    return out


def switch_ruleset(params: Mapping[str, str], rs: Ruleset) -> tuple[dict[str, str], str]:
    """Carry a scenario over to another ruleset; the notice says which cards were dropped."""
    kept, dropped = carry_over(params, rs)
    lang = present.engine_lang()
    if not dropped:
        return kept, ""
    parts = [f"{field_label(k, lang)} {v}" for k, v in dropped]
    sep = "；" if lang == "zh" else "; "
    return kept, _("换成%(rs)s后，新牌里没有这些牌，已去掉：%(list)s") % {
        "rs": rs.title_en if lang == "en" else rs.title,
        "list": sep.join(parts),
    }
