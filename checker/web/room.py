"""A match's room actions at the /play/ table: 解散 (seed 001 §12.2), ending the match now,
settled at its current totals. Only the game's owner may, with the CSRF token and a
confirmation; the settlement is stored with the match and shown on the match page.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from checker.engine.errors import EngineError
from checker.models import PlayGame
from checker.play.game import Position, next_round
from checker.play.match import MatchState
from checker.web.matchview import stored_history
from checker.web.play import WholeNumberField, _load_own, _match_data, _render_table, field_errors


class DissolveForm(forms.Form):
    """A posted 解散: the ply the page was drawn at and the ticked confirmation."""

    ply = WholeNumberField(min_value=0, max_value=10_000)
    confirm = forms.ChoiceField(choices=[("1", "1")])


def totals_now(position: Position) -> MatchState:
    """The match's totals now: after this round when it is over, else before it."""
    if position.is_over:
        return next_round(position)[1]
    return position.spec.match_state(position.ruleset)


def dissolved_match(game: PlayGame, position: Position) -> dict[str, Any]:
    """The game's stored match data with the 解散 settled at the totals now (EngineError: the
    match is already over)."""
    rs = position.ruleset
    _state, record = totals_now(position).dissolve(rs)
    if isinstance(game.match, dict):  # a later round: its stored match as it is
        data = dict(game.match)
    else:
        data = _match_data(position.spec.match_state(rs), stored_history(game.match)) or {}
    data["dissolved"] = {**record.as_event(), "round_counted": position.is_over}
    return data


@require_POST
def dissolve(request: HttpRequest, key: str) -> HttpResponse:
    """Dissolve the match (owner only): settle it at its totals, then show the match page."""
    loaded = _load_own(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    form = DissolveForm(request.POST)
    if not position.ruleset.table.dissolve or not form.is_valid():
        why = field_errors(form) if position.ruleset.table.dissolve else _("这个规则不能解散。")
        return _render_table(request, game, position, status=400, error=why)
    try:
        data = dissolved_match(game, position)
    except EngineError:
        return _render_table(request, game, position, status=409, error=_("整场已经结束。"))
    done = PlayGame.objects.filter(pk=game.pk, ply=form.cleaned_data["ply"])
    if not done.update(match=data, ply=F("ply"), updated=timezone.now()):
        text = _("页面过期：下面是现在的局面。")
        return _render_table(request, game, position, status=409, error=text)
    response = redirect("play_match", key=game.key)
    response.status_code = 303
    return response


urlpatterns = [path("<str:key>/dissolve", dissolve, name="play_dissolve")]
