"""The 模拟 page: the latest stored simulation run of every ruleset and the history of runs."""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import get_language, ngettext
from django.views.decorators.http import require_safe

from checker.dbstatus import NOT_MIGRATED, classify_db_error, without_waiting
from checker.engine.ruleset import load_ruleset, ruleset_names
from checker.engine.vocab import as_lang, term
from checker.models import SimulationRun

HISTORY = 50
BAR_WIDTH = 240
BAR_ROW = 34  # one outcome: its name on a line, the bar under it


def latest_card(name: str, runs: list[SimulationRun] | None = None) -> dict[str, Any]:
    """Describe the newest run of one ruleset, with its outcome bars scaled for the chart."""
    run = next((r for r in runs or [] if r.ruleset == name), None)
    if run is None:
        run = SimulationRun.objects.filter(ruleset=name).first()
    rs = load_ruleset(name)
    bars = run.outcome_bars() if run else []
    top = max((b["count"] for b in bars), default=1) or 1
    lang = as_lang(get_language())
    for i, b in enumerate(bars):
        b["label"] = term(b["name"], lang)
        b["width"] = max(1, round(BAR_WIDTH * b["count"] / top)) if b["count"] else 0
        b["y"] = i * BAR_ROW
    return {
        "name": name,
        "title": rs.title,
        "title_en": rs.title_en,
        "run": run,
        "bars": bars,
        "chart_height": max(BAR_ROW * len(bars), BAR_ROW),
        "bar_width": BAR_WIDTH,
    }


MATCH_CHART_W = 300
MATCH_CHART_H = 90


def match_card(name: str, runs: list[SimulationRun]) -> dict[str, Any] | None:
    """Describe the newest run of whole matches of one ruleset, with its match-length chart."""
    run = next((r for r in runs if r.ruleset == name and (r.summary or {}).get("matches")), None)
    if run is None:
        return None
    m = run.summary["matches"]
    buckets = list(m.get("length_histogram") or [])
    top = max((b["count"] for b in buckets), default=1) or 1
    width = MATCH_CHART_W / max(len(buckets), 1)
    bars = []
    for i, b in enumerate(buckets):
        height = round(MATCH_CHART_H * b["count"] / top) if b["count"] else 0
        label = str(b["low"]) if b["low"] == b["high"] else f"{b['low']}–{b['high']}"
        bars.append(
            {
                **b,
                "label": label,
                "x": round(i * width + 2, 1),
                "w": round(width - 4, 1),
                "mid": round(i * width + width / 2, 1),
                "h": height,
                "y": 16 + MATCH_CHART_H - height,
            }
        )
    rs = load_ruleset(name)
    return {
        "name": name,
        "title": rs.title,
        "title_en": rs.title_en,
        "run": run,
        "m": m,
        "length": m["rounds_per_match"],
        "bars": bars,
        "chart_w": MATCH_CHART_W,
        "chart_h": MATCH_CHART_H + 40,
        "axis_y": MATCH_CHART_H + 16,
        "label_y": MATCH_CHART_H + 32,
        "wins": [(side_words(side), n) for side, n in sorted(m.get("wins", {}).items())],
        "chips": list(enumerate(m.get("chips_per_seat_per_match") or [])),
    }


def side_words(side: str) -> str:
    """Name a winning side of the match summary ("seats 0+2", "seat 1") in the page's language."""
    head, _space, seats = side.partition(" ")
    if head in ("seat", "seats") and seats:
        count = len(seats.split("+"))
        return ngettext("座位 %(seats)s", "座位 %(seats)s", count) % {"seats": seats}
    return side


def dashboard_card(name: str) -> dict[str, Any] | None:
    """The newest run of one ruleset for the self-check page, or None without a table (or
    while another process holds the database's lock: the page does not wait for it)."""
    try:
        with without_waiting():
            return latest_card(name)
    except DatabaseError:
        return None


def _latest(runs: list[SimulationRun]) -> list[dict[str, Any]]:
    """Pick the newest run of each ruleset."""
    return [latest_card(name, runs) for name in ruleset_names()]


@require_safe
def simulation(request: HttpRequest) -> HttpResponse:
    """Show the latest simulation run per ruleset and the history of runs."""
    error = ""
    try:
        runs = list(SimulationRun.objects.all()[:HISTORY])
        latest = _latest(runs)
        matches = [c for c in (match_card(n, runs) for n in ruleset_names()) if c is not None]
    except DatabaseError as exc:
        if classify_db_error(exc) != NOT_MIGRATED:
            raise  # locked or unreachable: DatabaseDownMiddleware answers 503
        runs, latest, matches, error = [], [], [], "no_table"
    context = {
        "nav": "simulation",
        "latest": latest,
        "matches": matches,
        "history": runs,
        "error": error,
        "bar_width": BAR_WIDTH,
    }
    return render(request, "simulation.html", context)


urlpatterns = [path("", simulation, name="simulation")]
