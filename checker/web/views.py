"""Views of the web app: one function per page; htmx requests get a named partial.

Bad input never raises: every parse error becomes a page or partial with a clear
message and a 4xx status.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_safe
from django.views.decorators.vary import vary_on_headers

from checker.engine.cards import ascii_upper
from checker.engine.errors import EngineError
from checker.engine.order import make_context
from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_names
from checker.web import checkpage, forms, present, rulesdoc, selfcheck, simulation
from checker.web.context import DEFAULT_RULESET
from checker.web.etags import selfcheck_etag
from checker.web.forms import CheckForm, ruleset_or_default
from checker.web.hosts import absolute_url
from checker.web.links import case_checker_params, checker_query, trump_param

STATUSES = ("pass", "fail", "error")


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
    title = present.case_title(result)
    return {
        "r": result,
        "title": title,
        "title_lang": present.quoted_lang(title),
        "note_lang": present.quoted_lang(str(result.note or "")),
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
        "message": present.message(result),
    }


def _bad_request(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    return render(request, template, context, status=400)


@require_safe
@condition(etag_func=selfcheck_etag)
@vary_on_headers("HX-Request", "Cookie")
def dashboard(request: HttpRequest) -> HttpResponse:
    """The self-check of the default ruleset."""
    return _selfcheck(request, DEFAULT_RULESET)


@require_safe
@condition(etag_func=selfcheck_etag)
@vary_on_headers("HX-Request", "Cookie")
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
    page_url = reverse("selfcheck", args=[rs.name])
    # Passing rows stay folded unless a category or a search narrows the list: the first
    # load carries the failures and errors, each category's passes load when opened.
    fold = not (category or text)
    attention = [
        _row(r, rs.has_level)
        for r in run.results
        if r.status != "pass" and selfcheck.matches(r, status, category, text)
    ]
    groups: list[dict[str, Any]] = []
    shown = sum(selfcheck.matches(r, status, category, text) for r in run.results)
    for cat, items in run.categories():
        passing = [r for r in items if r.status == "pass"]
        wanted = [r for r in passing if selfcheck.matches(r, status, category, text)]
        if category and cat != category:
            continue
        rows = [] if fold else [_row(r, rs.has_level) for r in wanted]
        if not (rows or (fold and wanted) or any(r.status != "pass" for r in items)):
            continue
        label = present.category_name(items[0])
        groups.append(
            {
                "name": cat,
                "label": label,
                "label_lang": present.quoted_lang(label),
                "rows": rows,
                "folded": len(wanted) if fold else 0,
                "fold_url": page_url + "?" + urlencode({"category": cat, "status": "pass"}),
                "slug": f"cat-{len(groups) + 1}",
                "passed": len(passing),
                "total": len(items),
                "attention": sum(r.status != "pass" for r in items),
            }
        )
    if request.GET.get("part") == "rows":
        # One folded category opened (htmx): its passing rows only.
        rows = [
            _row(r, rs.has_level)
            for r in run.results
            if category and selfcheck.matches(r, "pass", category, "")
        ]
        bad = 400 if problems or not category else 200
        return render(request, "web/selfcheck.html#case_table", {"rows": rows}, status=bad)
    file_errors = (
        [_row(r) for r in run.file_errors if selfcheck.matches(r, status, "", text)]
        if not category
        else []
    )
    tiles = selfcheck.category_tiles(run.results)
    filtered = bool(status or category or text)
    filters = {"status": status, "category": category, "q": text}
    context = {
        "nav": "selfcheck",
        "ruleset": rs,
        "rulesets": [(n, _ruleset_or_none(n)) for n in ruleset_names()],
        "run": run,
        "tiles": tiles,
        "attention": attention,
        "groups": groups,
        "file_errors": file_errors,
        "shown": shown + len(file_errors),
        "folded": fold,
        "filters": filters,
        "filtered": filtered,
        "categories": [
            (c, label, present.quoted_lang(label))
            for c, label in selfcheck.category_labels(run.results).items()
        ],
        "seed_names": _seed_names(run),
        "problems": problems,
        "finished_at": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(run.finished_at)),
        "page_url": page_url,
        "simulation": None if request.htmx else simulation.dashboard_card(rs.name),
    }
    template = "web/selfcheck.html#results" if request.htmx else "web/selfcheck.html"
    response = render(request, template, context, status=400 if problems else 200)
    if request.htmx:
        _history_entry(request, response, page_url, filters)
    return response


def _seed_names(run: selfcheck.Run) -> list[dict[str, Any]]:
    """The seed table's categories with their names in the page's language (the case files'
    category_en where a file holds that category, else the seed's own words, marked)."""
    if run.seed is None:
        return []
    labels = selfcheck.category_labels(run.results)
    out = []
    for c in run.seed.categories:
        label = labels.get(c.name, c.name)
        out.append({"c": c, "label": label, "label_lang": present.quoted_lang(label)})
    return out


def _history_entry(
    request: HttpRequest, response: HttpResponse, page_url: str, filters: Mapping[str, str]
) -> None:
    """One history entry per filter change: typing on in the search box replaces the entry."""
    query = urlencode({k: v for k, v in filters.items() if v})
    url = page_url + ("?" + query if query else "")
    before = parse_qs(urlsplit(request.headers.get("HX-Current-URL", "")).query)
    same_rest = all(
        (before.get(k) or [""])[0] == filters.get(k, "") for k in ("status", "category")
    )
    typing_on = same_rest and bool(before.get("q")) and bool(filters.get("q"))
    response["HX-Replace-Url" if typing_on else "HX-Push-Url"] = url


@require_safe
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


@require_safe
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
        "level_choices": [
            (present.rank_label(r), present.rank_label(r)) for r in sorted(rs.levels)
        ],
        "trump_choices": checkpage.trump_choices(),
    }
    template = "web/rules.html#ladder" if request.htmx else "web/rules.html"
    return render(request, template, context, status=400 if problems else 200)


# ---------------------------------------------------------------------------
# The checker
# ---------------------------------------------------------------------------


@require_safe
def check(request: HttpRequest) -> HttpResponse:
    """The interactive checker; the URL holds the whole scenario (contract: Checker links)."""
    query = request.GET
    notice = ""
    if query.get("from") and query.get("from") != query.get("ruleset"):
        # The ruleset select changed: keep every card the new deck has, say which went.
        rs = ruleset_or_default(query.get("ruleset") or DEFAULT_RULESET)
        plain = {k: v for k, v in query.items() if k != "from"}
        kept, notice = checkpage.switch_ruleset(plain, rs)
        query = QueryDict(mutable=True)
        query.update(kept)
    form = CheckForm(query)
    form.is_valid()
    rs = ruleset_or_default(form.ruleset_name)
    context = checkpage.page_context(request, form, rs)
    context["notice"] = notice
    template = "web/check.html#verdict" if request.htmx else "web/check.html"
    response = render(request, template, context, status=400 if form.problem else 200)
    if request.htmx and not form.problem:
        response["HX-Push-Url"] = reverse("check") + "?" + context["query"]
    return response


@require_safe
def check_qr(request: HttpRequest) -> HttpResponse:
    """The permalink of a checker query as an SVG QR code (loaded by the share box's image).

    Nothing is judged: the code encodes /check/ with this query on the host it was asked on.
    """
    query = request.META.get("QUERY_STRING", "")[: forms.MAX_PARAM * forms.MAX_PARAMS]
    path = reverse("check") + ("?" + query if query else "")
    url = absolute_url(request, path) or path
    response = HttpResponse(checkpage.qr_svg(url), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@require_safe
def api_check(request: HttpRequest) -> JsonResponse:
    """JSON verdict for a checker scenario; 400 with {"error", "error_en", "field"} on bad input."""
    utf8 = {"ensure_ascii": False}
    form = CheckForm(request.GET)
    form.is_valid()
    if form.problem is not None:
        return JsonResponse(form.api_error(), status=400, json_dumps_params=utf8)
    if form.checked is None:
        error = {"error": "缺少领牌（lead）。", "error_en": "the lead is missing.", "field": "lead"}
        return JsonResponse(error, status=400, json_dumps_params=utf8)
    return JsonResponse(form.checked.data, json_dumps_params=utf8)


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


@require_safe
def matrix(request: HttpRequest) -> HttpResponse:
    """Cases naming several rulesets side by side, and one checker scenario under every ruleset.

    htmx requests get the partial of the section they target (`scenario` or `cases`).
    """
    from checker.suite.matrix import case_matrix, scenario_matrix
    from checker.web import variants

    columns = variants.rulesets()
    form = CheckForm(request.GET, judge=False)
    form.is_valid()
    params = form.params
    problem = form.error_for(present.engine_lang())
    scenario_problems = [problem["message"]] if problem else []
    filter_problems: list[str] = []

    all_rows = case_matrix(_matrix_report())
    kinds = sorted({row.kind for row in all_rows})
    only = request.GET.get("only", "").strip()
    kind = request.GET.get("kind", "").strip()
    text = request.GET.get("q", "").strip()
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
                    messages.append(field + present.error_of(cell))
                if len(set(messages)) > 1:
                    titles = {rs.name: present.ruleset_title(rs) for rs in columns}
                    messages = [
                        f"{titles.get(n, n)} — {m}"
                        for n, m in zip(result["rulesets"], messages, strict=True)
                    ]
                scenario_problems.append(
                    _("这个局面在任何规则下都无法判定：") + _("；").join(dict.fromkeys(messages))
                )
            else:
                scenario_view = variants.scenario_view(scenario, result, columns)
    elif not scenario_problems and any(k not in ("level", "trump") for k in scenario):
        scenario_problems.append(_("缺少领牌（lead）：先填“领出的牌”。"))

    widest = max(columns, key=lambda rs: (rs.players, len(rs.ranks), rs.decks))
    seats = checkpage.seat_fields(widest, scenario)
    for seat in seats:
        seat["note"] = " ".join(
            _("（%(t)s没有这位玩家）") % {"t": present.ruleset_title(rs)}
            for rs in columns
            if rs.players <= seat["seat"]
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
        "no_level_titles": [present.ruleset_title(rs) for rs in columns if not rs.has_level],
        "level_choices": [present.rank_label(r) for r in level_ranks],
        "level_value": ascii_upper(scenario.get("level") or "2"),
        "trump_value": trump_value,
        "trump_choices": checkpage.trump_choices(),
        "seats": seats,
        "grid": checkpage.card_grid(max(columns, key=lambda rs: len(rs.ranks))),
        "decks": max(rs.decks for rs in columns),
        "jokers": any(rs.jokers for rs in columns),
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
