"""URL configuration: the web app lives in checker.web."""

from django.urls import include, path
from django.views.i18n import set_language

urlpatterns = [
    path("i18n/setlang/", set_language, name="set_language"),
    path("simulation/", include("checker.web.simulation")),
    path("play/", include("checker.web.play")),
    path("", include("checker.web.urls")),
]
