"""The self-check dashboard's context: filters, folded categories and the rows of its results.

The views (`dashboard`, `selfcheck_view`, `case_detail`) only pick the template; the matrix
page draws its file errors with `case_row` too.
"""

from __future__ import annotations

import re
import time
from collections.abc import Collection, Mapping
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from checker.engine.errors import EngineError
from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_known, ruleset_names
from checker.suite.runner import CaseResult, case_yaml
from checker.web import present, selfcheck
from checker.web.context import DEFAULT_RULESET
from checker.web.links import case_checker_params, checker_query

STATUSES = ("pass", "fail", "error")
MAX_TEXT = 100
SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")
INPUT_SKIP = {"level", "trump", "options"}


def ruleset_or_none(name: str) -> Ruleset | None:
    """Load a ruleset named in a URL, or None when no such ruleset loads."""
    if not isinstance(name, str) or not SAFE_ID.match(name) or not ruleset_known(name):
        return None
    try:
        return load_ruleset(name)
    except EngineError:
        return None


def case_row(result: Any, has_level: bool = True) -> dict[str, Any]:
    """Return everything a dashboard row, the matrix or the case page draws for one result."""
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


def search_text(text: str, problems: list[str]) -> str:
    """Keep a filter's search text, or note that it is too long and drop it."""
    if len(text) > MAX_TEXT:
        problems.append(_("搜索文字太长（最多 %(n)d 个字符）。") % {"n": MAX_TEXT})
        return ""
    return text


def read_filters(
    query: Mapping[str, str], allowed: Mapping[str, tuple[Collection[str], str]]
) -> tuple[dict[str, str], list[str]]:
    """Read each named filter and the search text `q`; a value outside its choices is dropped
    and named by the filter's message (with `%(v)s` for the value)."""
    filters: dict[str, str] = {}
    problems: list[str] = []
    for name, (choices, message) in allowed.items():
        value = query.get(name, "").strip()
        if value and value not in choices:
            problems.append(message % {"v": value[:40]})
            value = ""
        filters[name] = value
    filters["q"] = search_text(query.get("q", "").strip(), problems)
    return filters, problems


def _groups(
    run: selfcheck.Run, rs: Ruleset, filters: Mapping[str, str], page_url: str
) -> list[dict[str, Any]]:
    """Each category's box: its passing rows (folded unless a category or a search narrows the
    list: each category's passes then load when opened) and its counts."""
    status, category, text = filters["status"], filters["category"], filters["q"]
    fold = not (category or text)
    groups: list[dict[str, Any]] = []
    for cat, items in run.categories():
        passing = [r for r in items if r.status == "pass"]
        wanted = [r for r in passing if selfcheck.matches(r, status, category, text)]
        if category and cat != category:
            continue
        rows = [] if fold else [case_row(r, rs.has_level) for r in wanted]
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
    return groups


def passing_rows(rs: Ruleset, category: str) -> list[dict[str, Any]]:
    """Return one folded category's passing rows, as the dashboard opens it (htmx)."""
    run = selfcheck.get_run(rs.name)
    return [
        case_row(r, rs.has_level)
        for r in run.results
        if category and selfcheck.matches(r, "pass", category, "")
    ]


def page_context(query: Mapping[str, str], rs: Ruleset) -> dict[str, Any]:
    """Build the dashboard of one ruleset's self-check under the query's filters."""
    run = selfcheck.get_run(rs.name)
    categories = [c for c, _items in run.categories()]
    filters, problems = read_filters(
        query,
        {
            "status": (STATUSES, _("状态筛选只能是 pass、fail 或 error，收到“%(v)s”。")),
            "category": (categories, _("没有名为“%(v)s”的分类。")),
        },
    )
    status, category, text = filters["status"], filters["category"], filters["q"]
    page_url = reverse("selfcheck", args=[rs.name])
    picked = [r for r in run.results if selfcheck.matches(r, status, category, text)]
    file_errors: list[CaseResult] = [] if category else run.file_errors
    errors = [case_row(r) for r in file_errors if selfcheck.matches(r, status, "", text)]
    return {
        "nav": "selfcheck",
        "ruleset": rs,
        "rulesets": [(n, ruleset_or_none(n)) for n in ruleset_names()],
        "run": run,
        "tiles": selfcheck.category_tiles(run.results),
        "attention": [case_row(r, rs.has_level) for r in picked if r.status != "pass"],
        "groups": _groups(run, rs, filters, page_url),
        "file_errors": errors,
        "shown": len(picked) + len(errors),
        "folded": not (category or text),
        "filters": filters,
        "filtered": bool(status or category or text),
        "categories": [
            (c, label, present.quoted_lang(label))
            for c, label in selfcheck.category_labels(run.results).items()
        ],
        "seed_names": _seed_names(run),
        "problems": problems,
        "finished_at": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(run.finished_at)),
        "page_url": page_url,
    }


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


def find_case(ruleset: str, case_id: str) -> tuple[CaseResult | None, Ruleset | None, str]:
    """Find a case's result in its ruleset's cached run; without one, say what was not found."""
    rs = None
    if ruleset == selfcheck.FILE_ERROR_RULESET:
        errors = selfcheck.get_run(DEFAULT_RULESET).file_errors
        result = next((r for r in errors if r.id == case_id), None)
    else:
        rs = ruleset_or_none(ruleset)
        if rs is None:
            return None, None, _("没有名为“%(name)s”的规则集。") % {"name": ruleset[:60]}
        result = selfcheck.get_run(rs.name).find(case_id) if SAFE_ID.match(case_id) else None
    if result is None:
        missing = _("规则集 %(rs)s 中没有 id 为“%(id)s”的用例。")
        return None, rs, missing % {"rs": ruleset[:60], "id": case_id[:80]}
    return result, rs, ""


def case_context(result: CaseResult, rs: Ruleset | None) -> dict[str, Any]:
    """Build the case page: its row in full, its YAML and its link into the checker."""
    row = case_row(result, rs.has_level if rs else True)
    row["actual_full_html"] = present.kv_rows(result.actual, row["ctx"], set(result.diff or ()))
    params = case_checker_params(result)
    try:
        yaml_text = case_yaml(result) if result.ruleset != "-" else ""
    except Exception:  # pragma: no cover - defensive: the page still shows the source
        yaml_text = ""
    return {
        "nav": "selfcheck",
        "ruleset": rs,
        "row": row,
        "r": result,
        "checker_url": reverse("check") + "?" + checker_query(params) if params else "",
        "yaml_text": yaml_text,
        "back_url": reverse("selfcheck", args=[rs.name]) + f"#case-{result.id}" if rs else "/",
    }
