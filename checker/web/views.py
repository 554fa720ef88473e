"""Views of the web app (placeholders until the engine lands)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(request, "web/placeholder.html", {"nav": "selfcheck"})


@require_GET
def selfcheck(request: HttpRequest, name: str) -> HttpResponse:
    return render(request, "web/placeholder.html", {"nav": "selfcheck"})


@require_GET
def rules(request: HttpRequest, name: str) -> HttpResponse:
    return render(request, "web/placeholder.html", {"nav": "rules"})


@require_GET
def case_detail(request: HttpRequest, ruleset: str, case_id: str) -> HttpResponse:
    return render(request, "web/placeholder.html", {"nav": "selfcheck"})


@require_GET
def check(request: HttpRequest) -> HttpResponse:
    return render(request, "web/placeholder.html", {"nav": "check"})


@require_GET
def api_check(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"error": "engine not available yet", "field": ""}, status=503)
