"""Pages of the web app."""

from django.urls import path

from checker.web import views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("rulesets/new/", views.workshop_view, name="workshop"),
    path("rulesets/<str:name>/selfcheck/", views.selfcheck_view, name="selfcheck"),
    path("rulesets/<str:name>/", views.rules, name="rules"),
    path("cases/<str:ruleset>/<str:case_id>/", views.case_detail, name="case"),
    path("check/", views.check, name="check"),
    path("check/qr.svg", views.check_qr, name="check_qr"),
    path("api/check", views.api_check, name="api_check"),
    path("matrix/", views.matrix, name="matrix"),
]
