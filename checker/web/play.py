"""The /play/ table: start a game against the bots, play it move by move, replay it.

A game is stored as its spec and the human's moves (PlayGame); every request rebuilds the
position by replaying the round. Only the browser that started a game may move in it;
anyone with the link sees the table and may copy it to play on from there.
"""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from checker.engine.cards import ascii_card, format_rank, parse_card
from checker.engine.errors import CardError, EngineError
from checker.engine.ruleset import load_ruleset, ruleset_names
from checker.engine.texts import Lang, as_lang
from checker.models import PlayGame
from checker.play.bots.registry import PLAYER_KINDS
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
    random_seed,
    replay_game,
)
from checker.play.match import MatchState
from checker.play.seats import BOT_SEP
from checker.play.table import fold_events, judge_tricks
from checker.scenarios.scenario import ScenarioError, parse_options
from checker.web import matchview, present, tableview
from checker.web.context import engine_version
from checker.web.links import checker_query, options_param

OWNER_COOKIE = "table"
POSITIONS = PositionCache()
LIVE = LiveTables()
KEY_LENGTH = 10


def _lang() -> Lang:
    return as_lang(get_language() or "zh")


def _pause_ms() -> int:
    return int(getattr(settings, "PLAY_BOT_PAUSE_MS", 600))


SEAT_FIELDS = 8  # the most seats a ruleset can have (multideck with players: 8)
SEATS_SHOWN = 4  # the seat selects shown open; the rest fold away


class NewGameForm(forms.Form):
    """The parameters of a new game: ruleset, seed (blank: random), seat, bots, level.

    The bots come from `bots` (one name, or a comma list per seat, as in links) and the
    per-seat selects bot0… of the lobby, which win where they name a bot.
    """

    ruleset = forms.ChoiceField(label=gettext_lazy("规则"), choices=())
    seed = forms.IntegerField(
        label=gettext_lazy("种子"), required=False, min_value=0, max_value=2**48 - 1
    )
    seat = forms.IntegerField(label=gettext_lazy("你的座位"), min_value=0, max_value=7, initial=0)
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
        self.fields["ruleset"].choices = [
            (n, present.ruleset_title(load_ruleset(n))) for n in names
        ]
        self.fields["ruleset"].initial = "classic"
        strongest = default_bots()
        choices = [("", _("默认（最强：%(bot)s）") % {"bot": strongest})]
        choices += [(k, k) for k in PLAYER_KINDS]
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
        try:
            data["spec"] = make_spec(
                data["ruleset"],
                random_seed() if seed is None else seed,
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


def _message(request: HttpRequest, text: str, status: int) -> HttpResponse:
    return render(request, "web/play_message.html", {"message": text, "nav": "play"}, status=status)


def _owner(request: HttpRequest) -> str:
    token = request.COOKIES.get(OWNER_COOKIE, "")
    return token if 16 <= len(token) <= 40 and token.isalnum() else ""


def _with_owner(response: HttpResponse, token: str) -> HttpResponse:
    response.set_cookie(OWNER_COOKIE, token, max_age=3600 * 24 * 365, httponly=True, samesite="Lax")
    return response


def _create(
    request: HttpRequest,
    spec: GameSpec,
    moves: list[Move],
    *,
    history: list[dict[str, Any]] | None = None,
    previous: str = "",
) -> HttpResponse:
    token = _owner(request) or secrets.token_hex(16)
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
    )
    return _with_owner(redirect("play_table", key=game.key), token)


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """Pick a game; with ruleset, seed and seat in the query, start that game at once."""
    if "ruleset" in request.GET:
        form = NewGameForm(request.GET)
        if form.is_valid():
            return _create(request, form.cleaned_data["spec"], form.cleaned_data["move_list"])
        return render(request, "web/play_lobby.html", {"form": form, "nav": "play"}, status=400)
    return render(request, "web/play_lobby.html", {"form": NewGameForm(), "nav": "play"})


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
    if _owner(request) != game.owner:
        return _render_table(
            request, game, position, status=403, error=_("这局不是你开的：可以复制一份接着打。")
        )
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
) -> HttpResponse:
    mingpai = (request.POST if request.method == "POST" else request.GET).get("mingpai") == "1"
    context = tableview.table_context(
        position,
        _lang(),
        reveal=reveal,
        show_hint=show_hint,
        checked=checked or (),
        mingpai=mingpai,
    )
    context.update(
        {
            "game": game,
            "nav": "play",
            "error": error,
            "is_owner": _owner(request) == game.owner,
            "pause_ms": _pause_ms(),
            "table_url": reverse("play_table", args=[game.key]),
            "move_url": reverse("play_move", args=[game.key]),
            "share_url": request.build_absolute_uri(reverse("play_table", args=[game.key])),
            "position_url": _position_url(request, position),
            "next_url": _start_url(position.spec, seed=position.spec.seed + 1),
            "match": _match_context(position),
        }
    )
    template = "web/play_table.html#table" if request.htmx else "web/play_table.html"
    return render(request, template, context, status=status)


def _match_context(position: Position) -> dict[str, Any] | None:
    """The match around a finished round: its number, the state it leaves, whether it ended."""
    if not position.is_over:
        return None
    rs = position.ruleset
    _spec, state, record = next_round(position)
    human = position.spec.seat
    levels = matchview.team_levels(rs, state.levels, human) if state.levels else None
    chips = matchview.seat_chips(rs, state.chips, human) if rs.teams == "banker_alone" else None
    return {
        "round": record.round_no,
        "over": state.over,
        "levels": levels,
        "chips": chips,
        "winner": [tableview.seat_name(s, human, rs.players) for s in state.winner or ()],
    }


def _start_url(spec: GameSpec, *, seed: int, moves: str = "") -> str:
    """The /play/ link that starts this game (another seed, or up to some moves)."""
    params: dict[str, str] = {"ruleset": spec.ruleset, "seed": str(seed), "bots": spec.bots}
    params["seat"] = "" if spec.seat is None else str(spec.seat)
    if spec.level is not None:
        params["level"] = format_rank(spec.level)
    if spec.options:
        params["options"] = options_param(dict(spec.options))
    if moves:
        params["moves"] = moves
    return reverse("play") + "?" + urlencode(params)


def _position_url(request: HttpRequest, position: Position) -> str:
    """A link that rebuilds exactly this position as a new game (spec and moves in the URL)."""
    moves = format_moves(position.moves)
    return request.build_absolute_uri(
        _start_url(position.spec, seed=position.spec.seed, moves=moves)
    )


@require_safe
def table(request: HttpRequest, key: str) -> HttpResponse:
    """Show the table: the whole position, or (htmx) the bots' replies one step at a time."""
    loaded = _load_game(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    reveal: int | None = None
    at = request.GET.get("at", "")
    if at:
        if not at.isdigit():
            return _message(request, _("参数 at 应为数字。"), 400)
        reveal = int(at)
    return _render_table(
        request, game, position, reveal=reveal, show_hint=request.GET.get("hint") == "1"
    )


def _read_move(request: HttpRequest) -> Move:
    """Read the posted move: an action or declaration button, or the ticked cards."""
    action = request.POST.get("move", "").strip()
    if action:
        return parse_move(action)
    values = request.POST.getlist("c")
    if not values:
        raise MoveError(lambda lang: _("请先选牌。"))
    try:
        cards = tuple(parse_card(v) for v in values[:60])
    except CardError as exc:
        why = str(exc)
        raise MoveError(lambda lang: why) from None
    return Move("cards", cards)


@require_POST
def move(request: HttpRequest, key: str) -> HttpResponse:
    """Make the human's move: refused moves leave the game as it was, with the reason."""
    loaded = _load_own(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    ply = request.POST.get("ply", "")
    if not ply.isdigit() or int(ply) != game.ply:
        return _render_table(
            request,
            game,
            position,
            status=409,
            error=_("这一步已经走过了（页面过期或重复提交）：下面是现在的局面。"),
        )
    ask = position.ask
    if ask is None or request.POST.get("phase", "") != ask.phase:
        return _render_table(
            request, game, position, status=409, error=_("现在轮不到你这样走：下面是现在的局面。")
        )
    try:
        new = LIVE.play(position.spec, game.moves, _read_move(request))
    except MoveError as exc:
        checked = [parse_card(v) for v in request.POST.getlist("c")[:60] if _is_card(v)]
        return _render_table(
            request, game, position, status=400, error=exc.message(_lang()), checked=checked
        )
    updated = PlayGame.objects.filter(pk=game.pk, ply=game.ply).update(
        moves=format_moves(new.moves), ply=F("ply") + 1, updated=timezone.now()
    )
    if not updated:
        return _render_table(
            request, game, position, status=409, error=_("这一步已经走过了：下面是现在的局面。")
        )
    game.refresh_from_db()
    POSITIONS.put(new)
    if not request.htmx:
        return redirect("play_table", key=game.key)
    return _render_table(request, game, new, reveal=tableview.animate_from(new))


def _is_card(value: str) -> bool:
    try:
        parse_card(value)
    except CardError:
        return False
    return True


@require_POST
def fork(request: HttpRequest, key: str) -> HttpResponse:
    """Copy a game (at its current position) into a new one this browser may play."""
    loaded = _load_game(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    return _create(
        request, position.spec, position.moves, history=matchview.stored_history(game.match)
    )


@require_POST
def next_game(request: HttpRequest, key: str) -> HttpResponse:
    """Start the match's next round (the same seats and bots, the state this round left)."""
    loaded = _load_own(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    if not position.is_over:
        return _render_table(request, game, position, status=409, error=_("这一局还没打完。"))
    spec, _state, _record = next_round(position)
    if spec is None:
        return _render_table(request, game, position, status=409, error=_("整场已经结束。"))
    history = [*matchview.stored_history(game.match), matchview.round_entry(game.key, position)]
    return _create(request, spec, [], history=history, previous=game.key)


@require_safe
def log(request: HttpRequest, key: str) -> HttpResponse:
    """Download the game's round as a replay log (the `replay` command's format)."""
    loaded = _load_game(request, key)
    if isinstance(loaded, HttpResponse):
        return loaded
    game, position = loaded
    body = "\n".join(game_log(position, engine_version())) + "\n"
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
    if not tableview.review_open(position):
        text = _("不查牌模式：这一局打完之前不能回看出牌历史。")
        return _message(request, text, 403)
    table = fold_events(position.ruleset, position.events, position.reasons)
    over = position.is_over or position.spec.seat is None
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
    return render(request, "web/play_match.html", context)


urlpatterns = [
    path("", lobby, name="play"),
    path("<str:key>/", table, name="play_table"),
    path("<str:key>/move", move, name="play_move"),
    path("<str:key>/fork", fork, name="play_fork"),
    path("<str:key>/next", next_game, name="play_next"),
    path("<str:key>/log.jsonl", log, name="play_log"),
    path("<str:key>/replay", replay, name="play_replay"),
    path("<str:key>/match", match_page, name="play_match"),
]
