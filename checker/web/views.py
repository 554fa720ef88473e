"""Views of the web app: one function per page; htmx requests get a named partial.

Bad input never raises: every parse error becomes a page or partial with a clear
message and a 4xx status.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import parse_qs, urlencode, urlsplit

from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from checker.engine.errors import EngineError
from checker.engine.order import make_context
from checker.engine.ruleset import ruleset_names
from checker.web import (
    checkpage,
    forms,
    matrixpage,
    present,
    rulesdoc,
    selfcheckpage,
    simulation,
    workshop,
)
from checker.web.context import DEFAULT_RULESET
from checker.web.etags import selfcheck_etag
from checker.web.forms import CheckForm, ruleset_or_default
from checker.web.hosts import absolute_url
from checker.web.selfcheckpage import ruleset_or_none
from checker.web.workshopform import Draft


def _not_found(request: HttpRequest, message: str, nav: str = "") -> HttpResponse:
    return render(request, "web/error.html", {"message": message, "nav": nav}, status=404)


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


def _selfcheck(request: HttpRequest, name: str) -> HttpResponse:
    rs = ruleset_or_none(name)
    if rs is None:
        return _not_found(
            request, _("没有名为“%(name)s”的规则集。") % {"name": name[:60]}, "selfcheck"
        )
    context = selfcheckpage.page_context(request.GET, rs)
    problems, filters = context["problems"], context["filters"]
    if request.GET.get("part") == "rows":  # one folded category opened (htmx)
        rows = selfcheckpage.passing_rows(rs, filters["category"])
        bad = 400 if problems or not filters["category"] else 200
        return render(request, "web/selfcheck.html#case_table", {"rows": rows}, status=bad)
    context["simulation"] = None if request.htmx else simulation.dashboard_card(rs.name)
    template = "web/selfcheck.html#results" if request.htmx else "web/selfcheck.html"
    response = render(request, template, context, status=400 if problems else 200)
    if request.htmx:
        _history_entry(request, response, context["page_url"], filters)
    return response


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
    result, rs, missing = selfcheckpage.find_case(ruleset, case_id)
    if result is None:
        return _not_found(request, missing, "selfcheck")
    return render(request, "web/case.html", selfcheckpage.case_context(result, rs))


@require_safe
def rules(request: HttpRequest, name: str) -> HttpResponse:
    """The rules of one ruleset in words, with the trump ladder drawn as cards."""
    rs = ruleset_or_none(name)
    if rs is None:
        return _not_found(request, _("没有名为“%(name)s”的规则集。") % {"name": name[:60]}, "rules")
    problems: list[str] = []
    level = request.GET.get("level", present.default_level(rs))
    trump = request.GET.get("trump", rs.default_trump)
    try:
        ctx = make_context(rs, level or None, trump)
    except EngineError as exc:
        problems.append(exc.message)
        level, trump = present.default_level(rs), rs.default_trump
        ctx = make_context(rs, level or None, trump)
    context = {
        "nav": "rules",
        "ruleset": rs,
        "rulesets": [(n, ruleset_or_none(n)) for n in ruleset_names()],
        "doc": rulesdoc.describe(rs, ctx),
        "level": level,
        "trump": trump,
        "problems": problems,
        "glossary": rulesdoc.glossary(),
        "level_choices": [(present.rank_label(r),) * 2 for r in sorted(rs.levels)],
        "trump_choices": checkpage.trump_choices(),
    }
    template = "web/_rules_doc.html#ladder" if request.htmx else "web/rules.html"
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


@require_safe
def matrix(request: HttpRequest) -> HttpResponse:
    """Cases naming several rulesets side by side, and one checker scenario under every ruleset.

    htmx requests get the partial of the section they target (`scenario` or `cases`).
    """
    form = CheckForm(request.GET, judge=False)
    form.is_valid()
    context = matrixpage.page_context(request.GET, form)
    scenario_bad, filter_bad = bool(context["scenario_problems"]), bool(context["filter_problems"])
    target = request.htmx.target if request.htmx else None
    if target == "scenario-result":
        template, bad = "web/matrix.html#scenario", scenario_bad
    elif request.htmx:
        template, bad = "web/matrix.html#cases", filter_bad
    else:
        template, bad = "web/matrix.html", scenario_bad or filter_bad
    return render(request, template, context, status=400 if bad else 200)


# ---------------------------------------------------------------------------
# The workshop
# ---------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def workshop_view(request: HttpRequest) -> HttpResponse:
    """Derive a ruleset from a base, see what it changes (htmx preview on change), save it."""
    base, shown, missing = workshop.read_base(request.GET)
    if base is None or shown is None:
        return _not_found(request, missing, "rules")
    posted = request.method == "POST"
    draft = Draft(base, shown, request.POST if posted else None)
    if posted and draft.is_valid() and request.POST.get("action") == "save":
        done = workshop.save(request, draft)
        if done is not None:
            return done
    context = workshop.page_context(request, draft, shown, posted)
    template = "web/workshop.html#preview" if request.htmx else "web/workshop.html"
    return render(request, template, context)
