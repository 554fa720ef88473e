"""The studies page (/studies/): start a bounded balance study, watch it play (htmx polls that
each play its next shards), read its report, download it as CSV or JSON."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from checker.models import Study
from checker.web import studiespage
from checker.web.limits import client_of, refused
from checker.web.play import owner_token


@require_http_methods(["GET", "HEAD", "POST"])
def studies(request: HttpRequest) -> HttpResponse:
    """The form of a new study (prefilled by `?arm=…`) and the studies so far."""
    names = studiespage.form_names(owner_token(request))
    if request.method == "POST":
        form = studiespage.StudyForm(request.POST, names=names)
        if form.is_valid():
            study = studiespage.start(form, client_of(request))
            if study is not None:
                return redirect("study", pk=study.pk)
    else:
        form = studiespage.StudyForm(initial=studiespage.initial_arms(request.GET), names=names)
    context = {"nav": "studies", "form": form, "names": names, "history": studiespage.history()}
    response = render(request, "web/studies.html", context)
    return refused(response) if form.refused else response


@require_safe
def study(request: HttpRequest, pk: int) -> HttpResponse:
    """One study: its progress while it plays, then its report with charts."""
    found = get_object_or_404(Study, pk=pk)
    return render(request, "web/study.html", studiespage.report_context(found))


@require_POST
def study_run(request: HttpRequest, pk: int) -> HttpResponse:
    """Play the study's next shards (about half a second); htmx gets the progress partial."""
    found = get_object_or_404(Study, pk=pk)
    studiespage.step(found)
    if not request.htmx:
        return redirect("study", pk=pk)
    if found.finished:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("study", args=[pk])
        return response
    context = studiespage.report_context(found)
    return render(request, "web/study.html#progress", context)


@require_safe
def study_json(request: HttpRequest, pk: int) -> JsonResponse:
    """A finished study's report in the `study` command's JSON format (404 before it ends)."""
    found = get_object_or_404(Study, pk=pk, finished__isnull=False)
    response = JsonResponse(
        {**found.report, "id": found.pk}, json_dumps_params={"ensure_ascii": False}
    )
    response["Content-Disposition"] = f'attachment; filename="study-{pk}.json"'
    return response


@require_safe
def study_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished study's report as CSV (404 before it ends)."""
    found = get_object_or_404(Study, pk=pk, finished__isnull=False)
    response = HttpResponse(studiespage.to_csv(found), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="study-{pk}.csv"'
    return response


urlpatterns = [
    path("", studies, name="studies"),
    path("<int:pk>/", study, name="study"),
    path("<int:pk>/run", study_run, name="study_run"),
    path("<int:pk>/report.json", study_json, name="study_json"),
    path("<int:pk>/report.csv", study_csv, name="study_csv"),
]
