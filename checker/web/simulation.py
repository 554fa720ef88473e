"""The 模拟 page: the latest stored simulation run of every ruleset and the history of runs."""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET

from checker.engine.ruleset import load_ruleset, ruleset_names
from checker.models import SimulationRun

HISTORY = 50
BAR_WIDTH = 240


def _latest(runs: list[SimulationRun]) -> list[dict[str, Any]]:
    """Pick the newest run of each ruleset, with its outcome bars scaled for the chart."""
    out: list[dict[str, Any]] = []
    for name in ruleset_names():
        run = next((r for r in runs if r.ruleset == name), None)
        if run is None:
            run = SimulationRun.objects.filter(ruleset=name).first()
        rs = load_ruleset(name)
        bars = run.outcome_bars() if run else []
        top = max((b["count"] for b in bars), default=1) or 1
        for i, b in enumerate(bars):
            b["width"] = max(1, round(BAR_WIDTH * b["count"] / top)) if b["count"] else 0
            b["y"] = i * 22
        out.append(
            {
                "name": name,
                "title": rs.title,
                "title_en": rs.title_en,
                "run": run,
                "bars": bars,
                "chart_height": max(22 * len(bars), 22),
            }
        )
    return out


@require_GET
def simulation(request: HttpRequest) -> HttpResponse:
    """Show the latest simulation run per ruleset and the history of runs."""
    error = ""
    try:
        runs = list(SimulationRun.objects.all()[:HISTORY])
        latest = _latest(runs)
    except DatabaseError:
        runs, latest, error = [], [], "no_table"
    context = {
        "nav": "simulation",
        "latest": latest,
        "history": runs,
        "error": error,
        "bar_width": BAR_WIDTH,
    }
    return render(request, "simulation.html", context)


urlpatterns = [path("", simulation, name="simulation")]
