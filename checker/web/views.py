"""Views of the web app: one function per page; htmx requests get a named partial.

Bad input never raises: every parse error becomes a page or partial with a clear
message and a 4xx status.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from checker.engine.cards import Card, ascii_card, format_card
from checker.engine.errors import EngineError
from checker.engine.order import make_context
from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_names
from checker.web import present, rulesdoc, selfcheck, simulation
from checker.web.context import DEFAULT_RULESET
from checker.web.links import canonical_params, case_checker_params, checker_query, trump_param

STATUSES = ("pass", "fail", "error")


def TRUMP_CHOICES() -> list[tuple[str, str]]:  # noqa: N802 - a constant that needs gettext
    return [
        ("S", _("♠ 黑桃")),
        ("H", _("♥ 红桃")),
        ("C", _("♣ 梅花")),
        ("D", _("♦ 方块")),
        ("none", _("无主")),
    ]


MAX_TEXT = 100
SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")


def _ruleset_or_none(name: str) -> Ruleset | None:
    if not isinstance(name, str) or not SAFE_ID.match(name) or name not in ruleset_names():
        return None
    try:
        return load_ruleset(name)
    except EngineError:
        return None


def _not_found(request: HttpRequest, message: str, nav: str = "") -> HttpResponse:
    return render(request, "web/error.html", {"message": message, "nav": nav}, status=404)


INPUT_SKIP = {"level", "trump", "options"}


def _row(result: Any, has_level: bool = True) -> dict[str, Any]:
    """Everything a dashboard row or the case page draws for one result."""
    data = result.input or {}
    ctx = present.deal_context(result.ruleset, data) if result.ruleset != "-" else None
    expected = result.expected or {}
    actual = result.actual or {}
    shown_actual: dict[str, Any] = {}
    for key, want in expected.items():
        if key in ("pairs", "singles") and isinstance(want, list):
            shown_actual[key] = actual.get(f"{key[:-1]}_cards", actual.get(key))
        elif key in actual:
            shown_actual[key] = actual[key]
    diff = set(result.diff or ())
    inputs = {k: v for k, v in data.items() if k not in INPUT_SKIP}
    options = data.get("options") or {}
    linkable = bool(SAFE_ID.match(result.id or "")) and bool(SAFE_ID.match(result.ruleset or ""))
    return {
        "r": result,
        "deal": present.deal_words(data.get("level"), data.get("trump"), has_level),
        "options": options,
        "input_html": present.kv_rows(inputs, ctx),
        "expected_html": present.kv_rows(expected, ctx, diff if result.status == "fail" else set()),
        "actual_html": present.kv_rows(
            shown_actual, ctx, diff if result.status == "fail" else set()
        )
        if result.status != "error"
        else "",
        "kind_label": present.KIND_LABELS.get(result.kind, result.kind),
        "anchor": f"case-{result.id}",
        "case_url": reverse("case", args=[result.ruleset, result.id]) if linkable else "",
        "ctx": ctx,
        "explanation": present.explanation(result),
    }


def _bad_request(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    return render(request, template, context, status=400)


@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """The self-check of the default ruleset."""
    return _selfcheck(request, DEFAULT_RULESET)


@require_GET
def selfcheck_view(request: HttpRequest, name: str) -> HttpResponse:
    """The self-check of one ruleset."""
    return _selfcheck(request, name)


def _search_text(text: str, problems: list[str]) -> str:
    """Keep a filter's search text, or note that it is too long and drop it."""
    if len(text) > MAX_TEXT:
        problems.append(_("搜索文字太长（最多 %(n)d 个字符）。") % {"n": MAX_TEXT})
        return ""
    return text


def _selfcheck(request: HttpRequest, name: str) -> HttpResponse:
    rs = _ruleset_or_none(name)
    if rs is None:
        return _not_found(
            request, _("没有名为“%(name)s”的规则集。") % {"name": name[:60]}, "selfcheck"
        )
    run = selfcheck.get_run(rs.name)
    status = request.GET.get("status", "")
    category = request.GET.get("category", "")
    text = request.GET.get("q", "").strip()
    problems = []
    categories = [c for c, _items in run.categories()]
    if status and status not in STATUSES:
        problems.append(_("状态筛选只能是 pass、fail 或 error，收到“%(v)s”。") % {"v": status[:40]})
        status = ""
    if category and category not in categories:
        problems.append(_("没有名为“%(v)s”的分类。") % {"v": category[:40]})
        category = ""
    text = _search_text(text, problems)
    groups = []
    shown = 0
    for cat, items in run.categories():
        rows = [
            _row(r, rs.has_level) for r in items if selfcheck.matches(r, status, category, text)
        ]
        shown += len(rows)
        if rows:
            groups.append(
                {
                    "name": cat,
                    "rows": rows,
                    "slug": f"cat-{len(groups) + 1}",
                    "passed": sum(r.status == "pass" for r in items),
                    "total": len(items),
                }
            )
    file_errors = (
        [_row(r) for r in run.file_errors if selfcheck.matches(r, status, "", text)]
        if not category
        else []
    )
    tiles = selfcheck.category_tiles(run.results)
    filtered = bool(status or category or text)
    context = {
        "nav": "selfcheck",
        "ruleset": rs,
        "rulesets": [(n, _ruleset_or_none(n)) for n in ruleset_names()],
        "run": run,
        "tiles": tiles,
        "groups": groups,
        "file_errors": file_errors,
        "shown": shown + len(file_errors),
        "filters": {"status": status, "category": category, "q": text},
        "filtered": filtered,
        "categories": categories,
        "problems": problems,
        "finished_at": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(run.finished_at)),
        "page_url": reverse("selfcheck", args=[rs.name]),
        "simulation": None if request.htmx else simulation.dashboard_card(rs.name),
    }
    template = "web/selfcheck.html#results" if request.htmx else "web/selfcheck.html"
    return render(request, template, context, status=400 if problems else 200)


@require_GET
def case_detail(request: HttpRequest, ruleset: str, case_id: str) -> HttpResponse:
    """One case: its YAML, input as cards, expected vs actual, the engine's explanation."""
    if ruleset == selfcheck.FILE_ERROR_RULESET:
        run = selfcheck.get_run(DEFAULT_RULESET)
        result = next((r for r in run.file_errors if r.id == case_id), None)
        rs = None
    else:
        rs = _ruleset_or_none(ruleset)
        if rs is None:
            return _not_found(
                request, _("没有名为“%(name)s”的规则集。") % {"name": ruleset[:60]}, "selfcheck"
            )
        run = selfcheck.get_run(rs.name)
        result = run.find(case_id) if SAFE_ID.match(case_id) else None
    if result is None:
        return _not_found(
            request,
            _("规则集 %(rs)s 中没有 id 为“%(id)s”的用例。")
            % {"rs": ruleset[:60], "id": case_id[:80]},
            "selfcheck",
        )
    row = _row(result, rs.has_level if rs else True)
    row["actual_full_html"] = present.kv_rows(result.actual, row["ctx"], set(result.diff or ()))
    params = case_checker_params(result)
    checker_url = reverse("check") + "?" + checker_query(params) if params else ""
    try:
        from checker.suite.runner import case_yaml

        yaml_text = case_yaml(result) if result.ruleset != "-" else ""
    except Exception:  # pragma: no cover - defensive: the page still shows the source
        yaml_text = ""
    context = {
        "nav": "selfcheck",
        "ruleset": rs,
        "row": row,
        "r": result,
        "checker_url": checker_url,
        "yaml_text": yaml_text,
        "back_url": reverse("selfcheck", args=[rs.name]) + f"#case-{result.id}" if rs else "/",
    }
    return render(request, "web/case.html", context)


@require_GET
def rules(request: HttpRequest, name: str) -> HttpResponse:
    """The rules of one ruleset in words, with the trump ladder drawn as cards."""
    rs = _ruleset_or_none(name)
    if rs is None:
        return _not_found(request, _("没有名为“%(name)s”的规则集。") % {"name": name[:60]}, "rules")
    problems: list[str] = []
    level = request.GET.get("level", "2" if rs.has_level else "")
    trump = request.GET.get("trump", "H")
    try:
        ctx = make_context(rs, level or None, trump)
    except EngineError as exc:
        problems.append(exc.message)
        level, trump = ("2" if rs.has_level else ""), "H"
        ctx = make_context(rs, level or None, trump)
    doc = rulesdoc.describe(rs, ctx)
    context = {
        "nav": "rules",
        "ruleset": rs,
        "rulesets": [(n, _ruleset_or_none(n)) for n in ruleset_names()],
        "doc": doc,
        "level": level,
        "trump": trump,
        "problems": problems,
        "glossary": rulesdoc.glossary(),
        "level_choices": [(present.rank_label(r), present.rank_label(r)) for r in sorted(rs.ranks)],
        "trump_choices": TRUMP_CHOICES(),
    }
    template = "web/rules.html#ladder" if request.htmx else "web/rules.html"
    return render(request, template, context, status=400 if problems else 200)


# ---------------------------------------------------------------------------
# The checker
# ---------------------------------------------------------------------------

MAX_PARAM = 300
MAX_PARAMS = 40


def _scenario_module() -> Any:
    from checker.suite import scenario

    return scenario


def _check_state(request: HttpRequest) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The checker's query parameters as strings, and input problems found before the engine."""
    problems: list[tuple[str, str]] = []
    query = request.GET
    if len(query) > MAX_PARAMS:
        problems.append(("", _("参数太多（最多 %(n)d 个）。") % {"n": MAX_PARAMS}))
    params: dict[str, str] = {}
    for key in query:
        values = query.getlist(key)
        value = values[-1] if values else ""
        if len(value) > MAX_PARAM:
            problems.append(
                (key, _("参数 %(k)s 太长（最多 %(n)d 个字符）。") % {"k": key[:20], "n": MAX_PARAM})
            )
            continue
        if "\x00" in value:
            problems.append((key, _("参数 %(k)s 含有非法字符。") % {"k": key[:20]}))
            continue
        params[key[:20]] = value.strip()
    return params, problems


def _seat_fields(rs: Ruleset, params: Mapping[str, str], ctx: Any) -> list[dict[str, Any]]:
    seats = []
    for i in range(1, rs.players):
        seats.append(
            {
                "seat": i,
                "hand_name": f"h{i}",
                "play_name": f"p{i}",
                "hand": params.get(f"h{i}", ""),
                "play": params.get(f"p{i}", ""),
            }
        )
    return seats


def _grid(rs: Ruleset) -> list[dict[str, Any]]:
    rows = []
    for suit in "SHCD":
        cells = []
        for rank in sorted(rs.ranks, reverse=True):
            card = Card(suit, rank)
            cells.append({"token": format_card(card), "label": present.rank_label(rank)})
        rows.append(
            {
                "suit": suit,
                "symbol": present.SUIT_SYMBOLS[suit],
                "red": suit in present.RED_SUITS,
                "cells": cells,
            }
        )
    return rows


def _verdict_view(
    verdict: Mapping[str, Any], ctx: Any, rs: Ruleset, params: Mapping[str, str]
) -> dict[str, Any]:
    """Turn the checker JSON into what the verdict partial draws."""
    from checker.engine.combos import classify

    out: dict[str, Any] = {"raw": verdict}
    lead_cards = present.to_cards(params.get("lead", "")) or []
    lead = verdict.get("lead") or {}
    units = []
    if ctx is not None and lead_cards:
        try:
            combo = classify(ctx, lead_cards)
            for unit in combo.units:
                units.append(
                    {
                        "kind": present.code_label(unit.kind),
                        "length": unit.length,
                        "html": present.chips(unit.cards, ctx),
                    }
                )
        except (EngineError, KeyError, ValueError):
            units = []
    out["lead"] = {
        "html": present.chips(lead_cards, ctx),
        "type": lead.get("type"),
        "type_label": present.code_label(str(lead.get("type", ""))),
        "suit_label": present.code_label(str(lead.get("suit", ""))) if lead.get("suit") else "",
        "units": units,
        "explanation": present.explanation(lead),
        "valid": lead.get("type") not in (None, "invalid"),
    }
    throw = verdict.get("throw")
    if throw:
        out["throw"] = {
            "allowed": throw.get("allowed"),
            "forced_html": present.chips(present.to_cards(throw.get("forced") or []) or [], ctx),
            "has_forced": bool(throw.get("forced")),
            "explanation": present.explanation(throw),
            "penalty": throw.get("penalty"),
        }
    follows = []
    for i, follow in enumerate(verdict.get("follows") or [], start=1):
        if not follow:
            follows.append({"seat": i, "empty": True})
            continue
        hand = present.to_cards(params.get(f"h{i}", "")) or []
        play = present.to_cards(params.get(f"p{i}", "")) or []
        forced = present.to_cards(follow.get("forced") or []) or []
        example = present.to_cards(follow.get("example") or []) or []
        follows.append(
            {
                "seat": i,
                "empty": False,
                "hand_html": present.chips(hand, ctx, forced) if hand else "",
                "play_html": present.chips(play, ctx) if play else "",
                "has_play": bool(play),
                "legal": follow.get("legal"),
                "reason": follow.get("reason"),
                "reason_label": present.code_label(str(follow.get("reason") or "")),
                "forced_html": present.chips(forced, ctx),
                "has_forced": bool(forced),
                "example_html": present.chips(example, ctx),
                "example_text": " ".join(c for c in (format_card(x) for x in example)),
                "has_example": bool(example),
                "explanation": present.explanation(follow),
                "example_url": reverse("check")
                + "?"
                + checker_query({**params, f"p{i}": " ".join(ascii_card(c) for c in example)}),
            }
        )
    out["follows"] = follows
    trick = verdict.get("trick")
    if trick:
        winner = trick.get("winner")
        out["trick"] = {
            "winner": winner,
            "winner_label": _("玩家 0（领牌）赢")
            if winner == 0
            else _("玩家 %(n)s 赢") % {"n": winner},
            "plays": [
                {
                    "html": present.chips(
                        present.to_cards(params.get("lead" if j == 0 else f"p{j}", "")) or [], ctx
                    ),
                    "beats": bool(b),
                }
                for j, b in enumerate(trick.get("beats") or [])
            ],
            "points": trick.get("points"),
            "explanation": present.explanation(trick),
        }
    return out


@require_GET
def check(request: HttpRequest) -> HttpResponse:
    """The interactive checker; the URL holds the whole scenario (contract: Checker links)."""
    params, problems = _check_state(request)
    name = params.get("ruleset") or DEFAULT_RULESET
    rs = _ruleset_or_none(name)
    error: dict[str, str] | None = None
    if rs is None:
        error = {
            "field": "ruleset",
            "message": _("没有名为“%(name)s”的规则集。") % {"name": name[:60]},
        }
        rs = load_ruleset(DEFAULT_RULESET)
    elif problems:
        error = {"field": problems[0][0], "message": problems[0][1]}
    params["ruleset"] = rs.name
    has_input = bool(params.get("lead"))
    if not has_input:
        # A fresh checker: offer the most common deal (打2, 主♥) in the form.
        if rs.has_level:
            params.setdefault("level", "2")
        params.setdefault("trump", "H")
    ctx = None
    try:
        ctx = make_context(
            rs.with_options(_parse_options(params.get("options", ""))),
            params.get("level") or ("2" if rs.has_level else None),
            params.get("trump") or "none",
        )
    except (EngineError, ValueError):
        ctx = None
    verdict = None
    if error is None and has_input:
        scenario = _scenario_module()
        try:
            verdict = scenario.check_scenario(params)
        except scenario.ScenarioError as exc:
            error = {
                "field": exc.field or "",
                "message": exc.message_en if present.engine_lang() == "en" else exc.message,
            }
    query = checker_query(canonical_params(params))
    permalink = request.build_absolute_uri(reverse("check") + "?" + query)
    yaml_text = ""
    if verdict is not None:
        try:
            yaml_text = _scenario_module().scenario_to_case_yaml(params)
        except Exception:  # the YAML is a convenience; a failure must not break the page
            yaml_text = ""
    trump_value = trump_param(params.get("trump") or "none")
    context = {
        "nav": "check",
        "ruleset": rs,
        "rulesets": [(n, _ruleset_or_none(n)) for n in ruleset_names()],
        "params": params,
        "trump_value": trump_value,
        "seats": _seat_fields(rs, params, ctx),
        "grid": _grid(rs),
        "ranks": [present.rank_label(r) for r in sorted(rs.ranks)],
        "error": error,
        "verdict": _verdict_view(verdict, ctx, rs, params) if verdict is not None else None,
        "has_input": has_input,
        "permalink": permalink,
        "query": query,
        "qr_svg": _qr_svg(permalink) if verdict is not None else "",
        "yaml_text": yaml_text,
        "api_url": reverse("api_check") + "?" + query,
        "matrix_url": reverse("matrix")
        + "?"
        + checker_query(
            {k: v for k, v in canonical_params(params).items() if k not in ("ruleset", "options")}
        )
        + "#scenario",
        "trump_choices": TRUMP_CHOICES(),
        "option_specs": [
            {
                "name": o.name,
                "choices": [_fmt_option(c) for c in o.choices],
                "description": o.description,
            }
            for o in rs.option_specs.values()
        ],
    }
    status = 400 if error else 200
    template = "web/check.html#verdict" if request.htmx else "web/check.html"
    response = render(request, template, context, status=status)
    if request.htmx and not error:
        response["HX-Push-Url"] = reverse("check") + "?" + query
    return response


def _fmt_option(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_options(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in (text or "").split(","):
        if ":" in part:
            key, _sep, value = part.partition(":")
            if key.strip():
                out[key.strip()] = value.strip()
    return out


def _qr_svg(url: str) -> str:
    """The permalink as an inline SVG QR code.

    A fixed mask pattern skips segno's evaluation of all eight masks (the slow part of
    encoding: about 20 ms for a full four-hand link); every mask decodes the same.
    """
    import segno

    qr = segno.make(url, error="l", mask=0, micro=False)
    svg: str = qr.svg_inline(scale=3, border=2, dark="#1d2430", light="#ffffff", title="QR")
    return svg


@require_GET
def api_check(request: HttpRequest) -> JsonResponse:
    """JSON verdict for a checker scenario; 400 with {"error", "field"} on bad input."""
    params, problems = _check_state(request)
    utf8 = {"ensure_ascii": False}
    if problems:
        with translation.override("zh-hans"):
            chinese = _check_state(request)[1][0][1]
        with translation.override("en"):
            english = _check_state(request)[1][0][1]
        error = {"error": chinese, "error_en": english, "field": problems[0][0]}
        return JsonResponse(error, status=400, json_dumps_params=utf8)
    scenario = _scenario_module()
    try:
        result = scenario.check_scenario(params)
    except scenario.ScenarioError as exc:
        error = {
            "error": exc.message,
            "error_en": exc.message_en,
            "field": exc.field or "",
        }
        return JsonResponse(error, status=400, json_dumps_params=utf8)
    if not params.get("lead"):
        error = {"error": "缺少领牌（lead）。", "error_en": "the lead is missing.", "field": "lead"}
        return JsonResponse(error, status=400, json_dumps_params=utf8)
    return JsonResponse(result, json_dumps_params={"ensure_ascii": False})


# ---------------------------------------------------------------------------
# The variant matrix
# ---------------------------------------------------------------------------

MATRIX_ONLY = ("", "diff")
FILTER_KEYS = ("only", "q", "kind")


def _matrix_report() -> Any:
    """Every ruleset's cached self-check run as one report (file errors left out)."""
    from checker.suite.runner import SuiteReport

    results = []
    for name in ruleset_names():
        results += selfcheck.get_run(name).results
    return SuiteReport(results=results)


@require_GET
def matrix(request: HttpRequest) -> HttpResponse:
    """Cases naming several rulesets side by side, and one checker scenario under every ruleset.

    htmx requests get the partial of the section they target (`scenario` or `cases`).
    """
    from checker.suite.matrix import case_matrix, scenario_matrix
    from checker.web import variants

    columns = variants.rulesets()
    params, problems = _check_state(request)
    scenario_keys = variants.scenario_keys(columns)
    scenario_problems = [m for k, m in problems if k in scenario_keys or not k]
    filter_problems = [m for k, m in problems if k not in scenario_keys]

    all_rows = case_matrix(_matrix_report())
    kinds = sorted({row.kind for row in all_rows})
    only = params.get("only", "")
    kind = params.get("kind", "")
    text = params.get("q", "")
    if only not in MATRIX_ONLY:
        filter_problems.append(_("“只看”只能是 diff，收到“%(v)s”。") % {"v": only[:40]})
        only = ""
    if kind and kind not in kinds:
        filter_problems.append(_("没有名为“%(v)s”的用例类型。") % {"v": kind[:40]})
        kind = ""
    text = _search_text(text, filter_problems)
    shown = [
        row
        for row in all_rows
        if (not only or row.differs)
        and (not kind or row.kind == kind)
        and (not text or variants.matches(row, text))
    ]

    scenario = variants.scenario_params(params, columns)
    scenario_view = None
    if scenario.get("lead") and not scenario_problems:
        try:
            result = scenario_matrix(scenario)
        except (EngineError, ValueError) as exc:  # defensive: scenario errors are per cell
            scenario_problems.append(str(exc))
        else:
            cells = result["cells"].values()
            if all("error" in c for c in cells):
                messages: list[str] = []
                for name in result["rulesets"]:
                    cell = result["cells"][name]
                    field = f"{cell['field']}: " if cell.get("field") else ""
                    messages.append(field + cell["error"])
                if len(set(messages)) > 1:
                    titles = {rs.name: rs.title for rs in columns}
                    messages = [
                        f"{titles.get(n, n)} — {m}"
                        for n, m in zip(result["rulesets"], messages, strict=True)
                    ]
                scenario_problems.append(
                    _("这个局面在任何规则下都无法判定：") + "；".join(dict.fromkeys(messages))
                )
            else:
                scenario_view = variants.scenario_view(scenario, result, columns)
    elif not scenario_problems and any(k not in ("level", "trump") for k in scenario):
        scenario_problems.append(_("缺少领牌（lead）：先填“领出的牌”。"))

    seats = []
    for seat in range(1, variants.max_players(columns)):
        missing = [rs for rs in columns if rs.players <= seat]
        seats.append(
            {
                "seat": seat,
                "hand": scenario.get(f"h{seat}", ""),
                "play": scenario.get(f"p{seat}", ""),
                "missing": missing,
            }
        )
    level_ranks = sorted({r for rs in columns if rs.has_level for r in rs.ranks})
    # The form shows what was judged: no trump parameter means 无主 once there is a lead.
    trump_value = trump_param(scenario.get("trump") or ("none" if scenario.get("lead") else "H"))
    filters = {"only": only, "kind": kind, "q": text}
    context = {
        "nav": "matrix",
        "columns": columns,
        "rows": variants.case_rows(shown, columns),
        "total_rows": len(all_rows),
        "differing_rows": sum(row.differs for row in all_rows),
        "shown": len(shown),
        "kinds": [(k, present.KIND_LABELS.get(k, k)) for k in kinds],
        "file_errors": [_row(r) for r in selfcheck.get_run(DEFAULT_RULESET).file_errors],
        "filters": filters,
        "filtered": bool(only or kind or text),
        "filter_problems": filter_problems,
        "filter_hidden": [(k, v) for k, v in filters.items() if v],
        "scenario": scenario,
        "scenario_hidden": list(scenario.items()),
        "scenario_view": scenario_view,
        "scenario_problems": scenario_problems,
        "has_level": any(rs.has_level for rs in columns),
        "level_choices": [present.rank_label(r) for r in level_ranks],
        "level_value": (scenario.get("level") or "2").upper(),
        "trump_value": trump_value,
        "trump_choices": TRUMP_CHOICES(),
        "seats": seats,
        "page_url": reverse("matrix"),
    }
    target = request.htmx.target if request.htmx else None
    if target == "scenario-result":
        template, bad = "web/matrix.html#scenario", bool(scenario_problems)
    elif request.htmx:
        template, bad = "web/matrix.html#cases", bool(filter_problems)
    else:
        template, bad = "web/matrix.html", bool(scenario_problems or filter_problems)
    return render(request, template, context, status=400 if bad else 200)
