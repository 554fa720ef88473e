"""The /play/ table: start a game against the bots, play it move by move, replay it.

A game is stored as its spec and the human's moves (PlayGame); every request rebuilds the
position by replaying the round. Only the browser that started a game may move in it;
anyone with the link sees the table and may copy it to play on from there.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from checker.dbstatus import LOCKED, classify_db_error
from checker.engine.cards import ascii_card, format_rank, parse_card
from checker.engine.errors import CardError, EngineError
from checker.engine.ruleset import load_ruleset, ruleset_known, ruleset_names
from checker.engine.texts import Lang, as_lang
from checker.models import PlayGame
from checker.play.bots.registry import EXPERT_BOT, PLAYER_KINDS
from checker.play.game import (
    GameSpec,
    LiveTables,
    Move,
    MoveError,
    Position,
    PositionCache,
    default_bots,
    format_moves,
    game_log,
    make_spec,
    next_round,
    parse_move,
    parse_moves,
    replay_game,
)
from checker.play.match import MatchState
from checker.play.seats import BOT_SEP
from checker.play.table import fold_events, judge_tricks
from checker.play.visibility import (
    Viewer,
    earliest_reveal,
    seat_log,
    shows_history,
    shows_open_hands,
    shows_seed,
)
from checker.scenarios.scenario import ScenarioError, parse_options
from checker.web import handtools, matchview, present, roomview, tableview
from checker.web.context import engine_version
from checker.web.limits import client_of, over_limit, refused
from checker.web.links import checker_query, options_param

OWNER_COOKIE = "table"
POSITIONS = PositionCache()
LIVE = LiveTables()
KEY_LENGTH = 10
NEXT_TRIES = 8  # a next round racing others on a locked SQLite database: tries, then 503


def _lang() -> Lang:
    return as_lang(get_language() or "zh")


def _pause_ms() -> int:
    return int(getattr(settings, "PLAY_BOT_PAUSE_MS", 600))


SEAT_FIELDS = 8  # the most seats a ruleset can have (multideck with players: 8)
SEATS_SHOWN = 4  # the seat selects shown open; the rest fold away


def bot_label(name: str) -> str:
    """Label a bot in the seat pickers: its name, the searching v3 as 高手 / expert."""
    return _("%(bot)s（高手）") % {"bot": name} if name == EXPERT_BOT else name


class NewGameForm(forms.Form):
    """The parameters of a new game: ruleset, seed (blank: random), seat, bots, level.

    The bots come from `bots` (one name, or a comma list per seat, as in links) and the
    per-seat selects bot0… of the lobby, which win where they name a bot.
    """

    ruleset = forms.ChoiceField(label=gettext_lazy("规则"), choices=())
    seed = forms.IntegerField(
        label=gettext_lazy("种子"), required=False, min_value=0, max_value=2**48 - 1
    )
    seat = forms.TypedChoiceField(
        label=gettext_lazy("你的座位"),
        choices=[(str(n), str(n)) for n in range(SEAT_FIELDS)],
        coerce=int,
        initial="0",
        widget=forms.RadioSelect(attrs={"class": "seat-pick"}),
    )
    bots = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)
    level = forms.CharField(label=gettext_lazy("打几"), required=False, max_length=2)
    options = forms.CharField(
        label=gettext_lazy("选项"),
        required=False,
        max_length=200,
        help_text=gettext_lazy("规则选项，如 climb:true（留空：默认）"),
    )
    moves = forms.CharField(required=False, max_length=4000, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = ruleset_names()
        asked = str(self.data.get("ruleset") or self.initial.get("ruleset") or "")
        if asked not in names and ruleset_known(asked):
            names.append(asked)  # a saved workshop ruleset, named by a link
        self.fields["ruleset"].choices = [
            (n, present.ruleset_title(load_ruleset(n))) for n in names
        ]
        self.fields["ruleset"].initial = "classic"
        strongest = default_bots()
        choices = [("", _("默认（%(bot)s）") % {"bot": strongest})]
        choices += [(k, bot_label(k)) for k in PLAYER_KINDS]
        for seat in range(SEAT_FIELDS):
            self.fields[f"bot{seat}"] = forms.ChoiceField(
                label=_("座%(n)d") % {"n": seat}, choices=choices, required=False
            )

    def main_fields(self) -> list[forms.BoundField]:
        """The visible fields but the per-seat bot selects."""
        return [f for f in self.visible_fields() if not f.name.startswith("bot")]

    def seat_fields(self) -> list[forms.BoundField]:
        """The per-seat bot selects shown open (the first seats)."""
        return [self[f"bot{s}"] for s in range(SEATS_SHOWN)]

    def more_seat_fields(self) -> list[forms.BoundField]:
        """The per-seat bot selects of the larger tables (folded away)."""
        return [self[f"bot{s}"] for s in range(SEATS_SHOWN, SEAT_FIELDS)]

    def chosen_bots(self, data: dict[str, Any], players: int) -> str:
        """The bots asked for: the per-seat selects where set, else the `bots` parameter.

        Selects of seats the table does not have are ignored (they are there for 6 or 8).
        """
        picked = [str(data.get(f"bot{s}") or "") for s in range(players)]
        base = str(data.get("bots") or "")
        if not any(picked):
            return base
        if BOT_SEP in base:
            given = base.split(BOT_SEP)
            if len(given) == players:
                picked = [p or g.strip() for p, g in zip(picked, given, strict=True)]
            base = ""
        return BOT_SEP.join(p or base for p in picked)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        seed = data.get("seed")
        try:
            options = parse_options(data.get("options") or "")
        except ScenarioError as exc:
            raise forms.ValidationError(
                exc.message_en if _lang() == "en" else exc.message
            ) from None
        try:
            players = load_ruleset(data["ruleset"]).with_options(options).players
        except EngineError as exc:
            raise forms.ValidationError(str(exc)) from None
        data["secret_seed"] = seed is None
        try:
            data["spec"] = make_spec(
                data["ruleset"],
                secret_seed() if seed is None else seed,
                data["seat"],
                self.chosen_bots(data, players),
                data.get("level") or None,
                options,
            )
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        try:
            data["move_list"] = parse_moves(data.get("moves") or "")
            replay_game(data["spec"], data["move_list"])
        except MoveError as exc:
            raise forms.ValidationError(exc.message(_lang())) from None
        return data


class WholeNumberField(forms.IntegerField):
    """A whole number written in ASCII digits (no ², no other scripts' digits, no 1.0)."""

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str) and value.strip() and not value.strip().isascii():
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        number: int | None = super().to_python(value)
        return number


class TableQuery(forms.Form):
    """The query of a table page: how far to reveal the bots' replies, hint, 明牌."""

    at = WholeNumberField(required=False, min_value=0, max_value=100_000)
    hint = forms.ChoiceField(required=False, choices=[("0", "0"), ("1", "1")])
    mingpai = forms.ChoiceField(required=False, choices=[("0", "0"), ("1", "1")])

    def clean_at(self) -> int | None:
        """Refuse an empty `at=` (a number was meant); no `at` at all is the whole table."""
        if "at" in self.data and not str(self.data["at"]).strip():
            raise forms.ValidationError(_("应为数字。"))
        value: int | None = self.cleaned_data["at"]
        return value


class CardsField(forms.Field):
    """Ticked cards (repeated `c` fields) read as cards; a bad one is named."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[Any]:
        values = [str(v) for v in (value or [])]
        if len(values) > 60:
            raise forms.ValidationError(_("最多 60 张。"))
        try:
            return [parse_card(v) for v in values]
        except CardError as exc:
            raise forms.ValidationError(str(exc)) from None


class MoveForm(forms.Form):
    """A posted move: the ply it answers, its phase, an action button or the ticked cards."""

    ply = WholeNumberField(min_value=0, max_value=10_000)
    phase = forms.CharField(required=False, max_length=20)
    move = forms.CharField(required=False, max_length=400)
    c = CardsField(required=False)
    mingpai = forms.ChoiceField(required=False, choices=[("0", "0"), ("1", "1")])


class PicksForm(forms.Form):
    """The picks the play button is judged for: the ply they answer and the ticked cards."""

    ply = WholeNumberField(min_value=0, max_value=10_000)
    c = CardsField(required=False)


def field_errors(form: forms.Form) -> str:
    """Say which fields were wrong and why, in one line (for a 400)."""
    parts = []
    for name, errors in form.errors.items():
        what = " ".join(str(e) for e in errors)
        parts.append(_("参数 %(field)s：%(why)s") % {"field": name, "why": what})
    return " ".join(parts)


def secret_seed() -> int:
    """Draw a seed nobody can guess from a hand (48 bits, the most a seed may have)."""
    return secrets.randbelow(2**48 - 1) + 1


def viewer_of(game: PlayGame, position: Position) -> Viewer:
    """Who looks at this table: its seat, now, with the cards it holds at its decision."""
    ask = position.ask
    return Viewer(
        position.spec.seat,
        position.is_over,
        game.secret_seed,
        tuple(ask.view.hand) if ask is not None else None,
    )


def _message(request: HttpRequest, text: str, status: int) -> HttpResponse:
    return render(request, "web/play_message.html", {"message": text, "nav": "play"}, status=status)


def owner_token(request: HttpRequest) -> str:
    """Read the owner cookie of this browser (its games and saved rulesets), "" without one."""
    token = request.COOKIES.get(OWNER_COOKIE, "")
    return token if 16 <= len(token) <= 40 and token.isalnum() else ""


def with_owner(response: HttpResponse, token: str) -> HttpResponse:
    """Set the owner cookie on a response (a year, HTTP only)."""
    response.set_cookie(
        OWNER_COOKIE,
        token,
        max_age=3600 * 24 * 365,
        httponly=True,
        samesite="Lax",
        secure=settings.PLAY_OWNER_COOKIE_SECURE,
    )
    return response


def _too_many(request: HttpRequest, client: str) -> HttpResponse | None:
    """The 429 page when this client has created its allowance of games this minute."""
    limit = settings.PLAY_CREATE_PER_MINUTE
    if not over_limit(PlayGame, client, limit):
        return None
    text = _("开局太频繁：每分钟最多开 %(n)d 局，请稍后再试。") % {"n": limit}
    return refused(_message(request, text, 429))


def _create(
    request: HttpRequest,
    spec: GameSpec,
    moves: list[Move],
    *,
    secret: bool,
    history: list[dict[str, Any]] | None = None,
    previous: str = "",
    finished: bool = False,
) -> HttpResponse:
    client = client_of(request)
    refused = _too_many(request, client)
    if refused is not None:
        return refused
    token = owner_token(request) or secrets.token_hex(16)
    game = PlayGame.objects.create(
        key=secrets.token_urlsafe(8)[:KEY_LENGTH].replace("-", "x").replace("_", "y"),
        owner=token,
        ruleset=spec.ruleset,
        seed=spec.seed,
        seat=spec.seat,
        bots=spec.bots,
        level="" if spec.level is None else str(spec.level),
        options=dict(spec.options),
        moves=format_moves(moves),
        ply=len(moves),
        match=_match_data(spec.match, history),
        previous=previous,
        secret_seed=secret,
        finished=finished,
        client=client,
    )
    return with_owner(see_other(game.key), token)


def see_other(key: str) -> HttpResponse:
    """Answer a POST with 303 to a game's table."""
    response = redirect("play_table", key=key)
    response.status_code = 303
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def lobby(request: HttpRequest) -> HttpResponse:
    """Pick a game: a query fills the form in (nothing stored); posting it starts the game."""
    if request.method == "POST":
        form = NewGameForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            return _create(request, data["spec"], data["move_list"], secret=data["secret_seed"])
        return _lobby_page(request, form, status=400)
    if not request.GET:
        return _lobby_page(request, NewGameForm())
    form = NewGameForm(request.GET)
    return _lobby_page(request, form, status=200 if form.is_valid() else 400)


def _lobby_page(request: HttpRequest, form: NewGameForm, status: int = 200) -> HttpResponse:
    context = {"form": form, "nav": "play", "prefilled": form.is_bound}
    return render(request, "web/play_lobby.html", context, status=status)


def _match_state(data: Any) -> MatchState | None:
    """Read a stored match state (None for a first round)."""
    if not isinstance(data, dict):
        return None
    levels = data.get("levels")
    return MatchState(
        int(data["round"]),
        data.get("banker"),
        tuple(int(v) for v in levels) if levels else None,
        tuple(int(v) for v in data.get("chips") or ()),
    )


def _match_data(
    state: MatchState | None, history: list[dict[str, Any]] | None = None
) -> dict[str, Any] | None:
    if state is None:
        return None
    return {
        "round": state.round_no,
        "banker": state.banker,
        "levels": list(state.levels) if state.levels else None,
        "chips": list(state.chips),
        "history": history or [],
    }


def game_spec(game: PlayGame) -> GameSpec:
    """Read a stored game's spec."""
    return GameSpec(
        game.ruleset,
        int(game.seed),
        game.seat,
        game.bots,
        int(game.level) if game.level else None,
        tuple(sorted(game.options.items())),
        _match_state(game.match),
    )


def _load(key: str) -> tuple[PlayGame | None, Position | None, str]:
    """Find a game and rebuild its position, or say what is wrong with it."""
    if not (0 < len(key) <= 16 and key.replace("x", "").replace("y", "").isalnum()):
        return None, None, _("没有这局牌（链接可能不完整）。")
    game = PlayGame.objects.filter(key=key).first()
    if game is None:
        return None, None, _("没有这局牌（链接可能不完整）。")
    try:
        position = POSITIONS.get(game_spec(game), game.moves)
    except (MoveError, EngineError, ValueError) as exc:
        text = exc.message(_lang()) if isinstance(exc, MoveError) else str(exc)
        return game, None, _("这局牌的记录坏了：%(why)s") % {"why": text}
    return game, position, ""


def _load_game(request: HttpRequest, key: str) -> tuple[PlayGame, Position] | HttpResponse:
    """Load a game and its position, or the page saying what is wrong (404, or 400)."""
    game, position, problem = _load(key)
    if position is None or game is None:
        return _message(request, problem, 404 if game is None else 400)
    return game, position


def _load_own(request: HttpRequest, key: str) -> tuple[PlayGame, Position] | HttpResponse:
    """Load a game for a move by its owner, or the refusal page (404/400, or 403 for others)."""
    loaded = _load_game(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    if owner_token(request) != game.owner:
        return _render_table(
            request, game, position, status=403, error=_("这局不是你开的：可以复制一份接着打。")
        )
    if roomview.dissolved_event(game.match) is not None:
        text = _("这一场已经解散，按解散时的累计结算：不能再走了。")
        return _render_table(request, game, position, status=409, error=text)
    return game, position


def _render_table(
    request: HttpRequest,
    game: PlayGame,
    position: Position,
    *,
    status: int = 200,
    error: str = "",
    reveal: int | None = None,
    show_hint: bool = False,
    checked: list[Any] | None = None,
    mingpai: bool = False,
) -> HttpResponse:
    viewer = viewer_of(game, position)
    context = tableview.table_context(
        position,
        _lang(),
        reveal=reveal,
        show_hint=show_hint,
        checked=checked or (),
        mingpai=mingpai,
    )
    seed_shown = shows_seed(viewer)
    context.update(
        {
            "game": game,
            "nav": "play",
            "error": error,
            "is_owner": owner_token(request) == game.owner,
            "pause_ms": _pause_ms(),
            "table_url": reverse("play_table", args=[game.key]),
            "move_url": reverse("play_move", args=[game.key]),
            "check_url": reverse("play_check", args=[game.key]),
            "takeback_url": reverse("play_takeback", args=[game.key]),
            "share_url": request.build_absolute_uri(reverse("play_table", args=[game.key])),
            "show_seed": seed_shown,
            "position_url": _position_url(request, position) if seed_shown else "",
            "again": _again_fields(position.spec, secret=game.secret_seed),
            "match": _match_context(position),
        }
    )
    choices = context.get("bid_choices", [])
    context.update(roomview.table_extras(position, context["table"], _lang(), choices, game.match))
    template = "web/play_table.html#table" if request.htmx else "web/play_table.html"
    return render(request, template, context, status=status)


def _again_fields(spec: GameSpec, *, secret: bool) -> list[tuple[str, str]]:
    """The lobby fields of "再来一局": the same game with the next seed, or a fresh secret one."""
    fields = [("ruleset", spec.ruleset), ("seat", "" if spec.seat is None else str(spec.seat))]
    fields.append(("bots", spec.bots))
    if spec.level is not None:
        fields.append(("level", format_rank(spec.level)))
    if spec.options:
        fields.append(("options", options_param(dict(spec.options))))
    if not secret:
        fields.append(("seed", str(spec.seed + 1)))
    return fields


def _match_context(position: Position) -> dict[str, Any] | None:
    """The match around a finished round: its number, the state it leaves, whether it ended."""
    if not position.is_over:
        return None
    rs = position.ruleset
    _spec, state, record = next_round(position)
    human = position.spec.seat
    levels = matchview.team_levels(rs, state.levels, human) if state.levels else None
    chips = matchview.seat_chips(rs, state.chips, human) if rs.banker_plays_alone else None
    return {
        "round": record.round_no,
        "over": state.over,
        "levels": levels,
        "chips": chips,
        "winner": [tableview.seat_name(s, human, rs.players) for s in state.winner or ()],
    }


def _position_url(request: HttpRequest, position: Position) -> str:
    """A link to the lobby filled in to rebuild exactly this position (spec and moves)."""
    spec = position.spec
    params: dict[str, str] = {"ruleset": spec.ruleset, "seed": str(spec.seed), "bots": spec.bots}
    params["seat"] = "" if spec.seat is None else str(spec.seat)
    if spec.level is not None:
        params["level"] = format_rank(spec.level)
    if spec.options:
        params["options"] = options_param(dict(spec.options))
    params["moves"] = format_moves(position.moves)
    return request.build_absolute_uri(reverse("play") + "?" + urlencode(params))


@require_safe
def table(request: HttpRequest, key: str) -> HttpResponse:
    """Show the table: the whole position, or (htmx) the bots' replies one step at a time."""
    query = TableQuery(request.GET)
    if not query.is_valid():
        return _message(request, field_errors(query), 400)
    loaded = _load_game(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    q = query.cleaned_data
    at = q["at"]
    if at is not None and at < earliest_reveal(
        position.ruleset, position.events, viewer_of(game, position)
    ):
        at = None  # a partial table never goes back where the seat could not look
    return _render_table(
        request,
        game,
        position,
        reveal=at,
        show_hint=q["hint"] == "1",
        mingpai=q["mingpai"] == "1",
    )


def _stale(
    request: HttpRequest, game: PlayGame, position: Position, *, raced: bool, mingpai: bool = False
) -> HttpResponse:
    """Answer a move made on a table that has moved on (a stale page, or another request first)."""
    text = (
        _("这一步已经走过了：下面是现在的局面。")
        if raced
        else _("这一步已经走过了（页面过期或重复提交）：下面是现在的局面。")
    )
    return _render_table(request, game, position, status=409, error=text, mingpai=mingpai)


def _advance(game: PlayGame, moves: str, **fields: Any) -> bool:
    """Store the game's new moves one ply on, only if nobody moved it meanwhile."""
    return bool(
        PlayGame.objects.filter(pk=game.pk, ply=game.ply).update(
            moves=moves, ply=F("ply") + 1, updated=timezone.now(), **fields
        )
    )


def _read_move(data: dict[str, Any]) -> Move:
    """Read the posted move: an action or declaration button, or the ticked cards."""
    action = data["move"].strip()
    if action:
        return parse_move(action)
    if not data["c"]:
        raise MoveError(lambda lang: _("请先选牌。"))
    return Move("cards", tuple(data["c"]))


@require_POST
def move(request: HttpRequest, key: str) -> HttpResponse:
    """Make the human's move: refused moves leave the game as it was, with the reason."""
    loaded = _load_own(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _render_table(request, game, position, status=400, error=field_errors(form))
    data = form.cleaned_data
    mingpai = data["mingpai"] == "1"
    if data["ply"] != game.ply:
        return _stale(request, game, position, raced=False, mingpai=mingpai)
    ask = position.ask
    if ask is None or data["phase"] != ask.phase:
        text = _("现在轮不到你这样走：下面是现在的局面。")
        return _render_table(request, game, position, status=409, error=text, mingpai=mingpai)
    try:
        new = LIVE.play(position.spec, game.moves, _read_move(data))
    except MoveError as exc:
        return _render_table(
            request,
            game,
            position,
            status=400,
            error=exc.message(_lang()),
            checked=data["c"],
            mingpai=mingpai,
        )
    if not _advance(game, format_moves(new.moves), finished=new.is_over):
        return _stale(request, game, position, raced=True, mingpai=mingpai)
    game.refresh_from_db()
    POSITIONS.put(new)
    if not request.htmx:
        return see_other(game.key)
    reveal = tableview.animate_from(new)
    return _render_table(request, game, new, reveal=reveal, mingpai=mingpai)


@require_POST
def take_back(request: HttpRequest, key: str) -> HttpResponse:
    """Take the person's last move back: the round replayed without it, the take-back logged."""
    loaded = _load_own(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    form = PicksForm(request.POST)
    if not form.is_valid() or form.cleaned_data["ply"] != game.ply:
        return _stale(request, game, position, raced=False)
    if not tableview.take_back_open(position):
        return _render_table(request, game, position, status=409, error=_("这里不能悔棋。"))
    moves = format_moves([*position.moves, Move("takeback")])
    back = POSITIONS.get(position.spec, moves)
    if not _advance(game, moves):
        return _stale(request, game, position, raced=True)
    game.refresh_from_db()
    return _render_table(request, game, back) if request.htmx else see_other(game.key)


@require_safe
def check_picks(request: HttpRequest, key: str) -> HttpResponse:
    """Judge the picked cards for the play button; nothing changes (the move is judged again)."""
    form = PicksForm(request.GET)
    if not form.is_valid():
        return _message(request, field_errors(form), 400)
    loaded = _load_game(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    ask = position.ask if form.cleaned_data["ply"] == game.ply else None
    tools = handtools.picks_verdict(ask, form.cleaned_data["c"], _lang())
    if ask is None:
        tools["why"] = _("局面已经变了：请刷新这一页。")
    context = {"tools": tools, "phase": ask.phase if ask else "", "check_url": request.path}
    return render(request, "web/_play_check.html", context)


@require_POST
def fork(request: HttpRequest, key: str) -> HttpResponse:
    """Copy a game (at its current position) into a new one this browser may play.

    A secret deal is copied only once its round is over: a copy played to its end would
    open every hand of the game still being played.
    """
    loaded = _load_game(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    if game.secret_seed and not position.is_over:  # a copy played out would show this deal
        text = _("这局的牌是保密的（随机种子）：打完之后才能复制。")
        return _render_table(request, game, position, status=409, error=text)
    return _create(
        request,
        position.spec,
        position.moves,
        secret=game.secret_seed,
        history=matchview.stored_history(game.match),
        finished=position.is_over,
    )


@require_POST
def next_game(request: HttpRequest, key: str) -> HttpResponse:
    """Start the match's next round (the same seats and bots, the state this round left).

    However many of these race, one next game is made and every answer points at it (a
    database locked by a racing writer, as SQLite is, is waited for a few times).
    """
    for attempt in range(NEXT_TRIES):
        try:
            return _next_game(request, key)
        except OperationalError as exc:
            if classify_db_error(exc) != LOCKED or attempt == NEXT_TRIES - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


def _next_game(request: HttpRequest, key: str) -> HttpResponse:
    loaded = _load_own(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    if not position.is_over:
        return _render_table(request, game, position, status=409, error=_("这一局还没打完。"))
    spec, _state, _record = next_round(position)
    if spec is None:
        return _render_table(request, game, position, status=409, error=_("整场已经结束。"))
    made = PlayGame.objects.filter(previous=game.key).first()
    if made is not None:
        return see_other(made.key)
    if game.secret_seed:  # seed + 1 would give the next deal away with this one's seed
        spec = dataclasses.replace(spec, seed=secret_seed())
    history = [*matchview.stored_history(game.match), matchview.round_entry(game.key, position)]
    try:
        with transaction.atomic():
            return _create(
                request, spec, [], secret=game.secret_seed, history=history, previous=game.key
            )
    except IntegrityError:  # another request made it first: answer with that one
        return see_other(PlayGame.objects.get(previous=game.key).key)


@require_safe
def log(request: HttpRequest, key: str) -> HttpResponse:
    """Download the round as a replay log: while it is played, only what the seat has seen."""
    loaded = _load_game(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    viewer = viewer_of(game, position)
    head = json.loads(game_log(position, engine_version())[0])
    if not shows_seed(viewer):
        del head["seed"]
    events = seat_log(position.ruleset, position.events, viewer)
    lines = [head, *({"r": 0, **e} for e in events)]
    body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    response = HttpResponse(body, content_type="application/x-ndjson; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-{game.key}.jsonl"'
    return response


def _checker_url(position: Position, trick: Any, *, open_hands: bool) -> str:
    """The /check/ link that rebuilds one trick (with the hands once the round is over)."""
    spec = position.spec
    params: dict[str, str] = {"ruleset": spec.ruleset}
    level = position.events[0].get("level")
    if level:
        params["level"] = str(level)
    trump = next((e["trump"] for e in position.events if e["t"] == "trump"), "none")
    params["trump"] = str(trump)
    opts = options_param(dict(spec.options))
    if opts:
        params["options"] = opts
    plays = [p.play.cards for p in trick.plays]
    params["lead"] = " ".join(ascii_card(c) for c in plays[0])
    for i, cards in enumerate(plays[1:], start=1):
        params[f"p{i}"] = " ".join(ascii_card(c) for c in cards)
    if open_hands:
        for i, hand in enumerate(trick.hands):
            params[f"h{i}"] = " ".join(ascii_card(c) for c in hand)
    return reverse("check") + "?" + checker_query(params)


@require_safe
def replay(request: HttpRequest, key: str) -> HttpResponse:
    """Replay the round trick by trick: each follow's and throw's verdict, each winner and why."""
    loaded = _load_game(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    lang = _lang()
    viewer = viewer_of(game, position)
    if not shows_history(position.ruleset, viewer):
        text = _("不查牌模式：这一局打完之前不能回看出牌历史。")
        return _message(request, text, 403)
    table = fold_events(position.ruleset, position.events, position.reasons)
    over = shows_open_hands(viewer)
    human = position.spec.seat
    n = position.ruleset.players
    tricks = []
    for judged in judge_tricks(table, open_hands=over, seat=human):
        rows = []
        for jp in judged.plays:
            p = jp.play
            rows.append(
                {
                    "name": tableview.seat_name(p.seat, human, n),
                    "cards": present.chips(p.cards, table.ctx),
                    "tried": present.chips(p.tried, table.ctx) if p.throw == "failed" else "",
                    "lead": p.role == "lead",
                    "winner": p.seat == judged.trick.winner,
                    "verdict": jp.verdict.explanation_for(lang) if jp.verdict else "",
                    "bad": getattr(jp.verdict, "legal", True) is False
                    or getattr(jp.verdict, "allowed", True) is False,
                    "reason": p.reason.explanation_for(lang) if p.reason else "",
                }
            )
        tricks.append(
            {
                "number": judged.trick.number + 1,
                "winner": tableview.seat_name(judged.trick.winner, human, n)
                if judged.trick.winner is not None
                else "",
                "won": tableview.won_words(judged.trick.winner, human, n, judged.trick.points)
                if judged.trick.winner is not None
                else "",
                "points": judged.trick.points,
                "why": judged.outcome.explanation_for(lang) if judged.outcome else "",
                "plays": rows,
                "checker_url": _checker_url(position, judged, open_hands=over),
                "signals": roomview.trick_signals(table, judged.trick.number, human, lang),
            }
        )
    context = {
        "game": game,
        "nav": "play",
        "title": position.ruleset.title_en if lang == "en" else position.ruleset.title,
        "trump_words": tableview.trump_words(table),
        "tricks": tricks,
        "over": over,
        "spec": position.spec,
        "show_seed": shows_seed(viewer),
    }
    return render(request, "web/play_replay.html", context)


@require_safe
def match_page(request: HttpRequest, key: str) -> HttpResponse:
    """Show the whole match up to this round: each round's banker, result, levels or chips."""
    loaded = _load_game(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    later = PlayGame.objects.filter(previous=game.key).order_by("created", "id").first()
    context = matchview.match_context(game.key, game.match, position, _lang())
    context.update({"game": game, "nav": "play", "next_game": later})
    context["is_owner"] = owner_token(request) == game.owner
    return render(request, "web/play_match.html", context)


urlpatterns = [
    path("", lobby, name="play"),
    path("<str:key>/", table, name="play_table"),
    path("<str:key>/move", move, name="play_move"),
    path("<str:key>/check", check_picks, name="play_check"),
    path("<str:key>/takeback", take_back, name="play_takeback"),
    path("<str:key>/fork", fork, name="play_fork"),
    path("<str:key>/next", next_game, name="play_next"),
    path("<str:key>/log.jsonl", log, name="play_log"),
    path("<str:key>/replay", replay, name="play_replay"),
    path("<str:key>/match", match_page, name="play_match"),
]
