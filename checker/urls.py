"""URL configuration: the web app lives in checker.web."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.i18n import set_language


def favicon(request: HttpRequest) -> HttpResponse:
    """Send /favicon.ico to the SVG icon (resolved per request: static names are hashed)."""
    return redirect(static("favicon.svg"), permanent=True)


ROBOTS = "User-agent: *\nDisallow: /play/\n"


def robots(request: HttpRequest) -> HttpResponse:
    """Keep crawlers off the game tables (each is someone's game; nothing there to index)."""
    return HttpResponse(ROBOTS, content_type="text/plain; charset=utf-8")


urlpatterns = [
    path("robots.txt", robots),
    path("i18n/setlang/", set_language, name="set_language"),
    path("favicon.ico", favicon),
    path("simulation/", include("checker.web.simulation")),
    path("studies/", include("checker.web.studies")),
    path("play/", include("checker.web.room")),
    path("play/", include("checker.web.play")),
    path("", include("checker.web.urls")),
]
