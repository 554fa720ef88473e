"""What the /play/ table draws: a game position turned into seats, trick, hand and actions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from checker.engine.cards import SUIT_SYMBOLS, Card, ascii_card, format_rank, parse_cards
from checker.engine.declare import shown_declaration
from checker.engine.follow import generate_forced
from checker.engine.order import TRUMP, Context
from checker.engine.texts import Lang
from checker.engine.trick import resolve_trick
from checker.models import OUTCOME_LABELS
from checker.play.game import SURRENDER, Ask, Position, hint
from checker.play.players import BID, BURY, DECLARE, FOLLOW, LEAD, PICK_TRUMP
from checker.play.seats import seat_bots
from checker.play.table import Table, Trick, banker_reveal, fold_events, hand_at, review_seats
from checker.play.takeback import effective_moves, taken_back
from checker.play.visibility import Viewer, allows_take_back, buried_kitty, shows_history
from checker.web import handtools, present, tablebar

PHASE_WORDS = {
    DECLARE: gettext_noop("亮主"),
    BID: gettext_noop("叫分"),
    SURRENDER: gettext_noop("投降"),
    PICK_TRUMP: gettext_noop("定主"),
    BURY: gettext_noop("扣底"),
    LEAD: gettext_noop("首出"),
    FOLLOW: gettext_noop("跟牌"),
}


# Where each other seat sits on the desk layout, by its offset from the person (下家 first).
SEAT_PLACES = {
    3: ("right", "left"),
    4: ("right", "top", "left"),
    6: ("right", "top-right", "top", "top-left", "left"),
    8: ("right-low", "right-high", "top-right", "top", "top-left", "left-high", "left-low"),
}


def seat_place(offset: int, players: int) -> str:
    """Name where a seat sits on the desk layout ("" for the person's own, or an odd table)."""
    places = SEAT_PLACES.get(players)
    return places[offset - 1] if places and offset else ""


def seat_name(seat: int, human: int | None, players: int) -> str:
    """Name a seat from the human's chair: 你, 下家, 对家, 上家 (with its number)."""
    if human is None:
        return _("座%(n)d") % {"n": seat}
    offset = (seat - human) % players
    if offset == 0:
        return _("你")
    if players == 4:
        word = [_("下家"), _("对家"), _("上家")][offset - 1]
    elif players == 3:
        word = [_("下家"), _("上家")][offset - 1]
    else:
        return _("座%(n)d") % {"n": seat}
    return f"{word} · " + _("座%(n)d") % {"n": seat}


def trump_words(table: Table) -> str:
    """Say the deal's level and trump (or that trump is not fixed yet)."""
    parts = []
    if table.level is not None:
        parts.append(_("打%(r)s") % {"r": format_rank(table.level)})
    if table.ctx is None:
        parts.append(_("主未定"))
    elif table.trump is None:
        parts.append(_("无主"))
    else:
        parts.append(_("主%(s)s") % {"s": SUIT_SYMBOLS[table.trump]})
    return " · ".join(parts)


def next_step(events: Sequence[dict[str, Any]], start: int) -> int:
    """Find where the next bot step ends: after the next play (and its trick's close)."""
    j = start
    while j < len(events) and events[j]["t"] != "play":
        j += 1
    j += 1
    if j < len(events) and events[j]["t"] == "trick":
        j += 1
    return min(j, len(events))


def animate_from(position: Position) -> int | None:
    """Where the reveal of the bots' replies starts after the human's play (None: no play)."""
    human = position.spec.seat
    for i in range(len(position.events) - 1, -1, -1):
        e = position.events[i]
        if e["t"] == "play" and e["seat"] == human:
            return i + 1 if next_step(position.events, i + 1) < len(position.events) else None
        if e["t"] == "play":
            continue
        if e["t"] not in ("trick",):
            return None
    return None


def _winning(table: Table, trick: Trick) -> int | None:
    """The seat winning the trick so far (the winner once complete)."""
    if trick.winner is not None:
        return trick.winner
    if table.ctx is None or not trick.plays:
        return None
    outcome = resolve_trick(table.ctx, [list(p.cards) for p in trick.plays])
    return trick.plays[outcome.winner].seat


def _trick(table: Table, trick: Trick, human: int | None, lang: Lang) -> dict[str, Any]:
    n = table.ruleset.players
    names = [seat_name(s, human, n) for s in range(n)]  # each seat named once
    winning = _winning(table, trick)
    plays = []
    for p in trick.plays:
        plays.append(
            {
                "seat": p.seat,
                "name": names[p.seat],
                "cards": present.chips(p.cards, table.ctx),
                "lead": p.role == "lead",
                "winning": p.seat == winning,
                "banker": p.seat == table.banker,
                "tried": present.chips(p.tried, table.ctx) if p.throw == "failed" else "",
                "penalty": p.penalty,
                "throw_why": p.verdict.explanation_for(lang) if p.verdict is not None else "",
                "reason": p.reason.explanation_for(lang)
                if p.reason is not None and p.seat != human
                else "",
            }
        )
    if trick.winner is None:
        start = trick.leader + len(trick.plays)
        for k in range(n - len(trick.plays)):
            seat = (start + k) % n
            plays.append({"seat": seat, "name": names[seat], "pending": True})
    number = trick.number + 1
    if trick.leader == human:
        heading = _("第 %(n)s 墩 · 你首出") % {"n": number}
    else:
        heading = _("第 %(n)s 墩 · %(who)s 首出") % {
            "n": number,
            "who": names[trick.leader],
        }
    if winning is None:
        summary = ""
    elif winning == human:
        summary = _("（第 %(n)s 墩，你赢）") % {"n": number}
    else:
        summary = _("（第 %(n)s 墩，%(who)s 赢）") % {
            "n": number,
            "who": names[winning],
        }
    return {
        "number": number,
        "leader": names[trick.leader],
        "heading": heading,
        "plays": plays,
        "done": trick.winner is not None,
        "winner": names[winning] if winning is not None else "",
        "won": won_words(winning, human, n, trick.points) if winning is not None else "",
        "won_summary": summary,
        "points": trick.points,
        "count": sum(c.points for p in trick.plays for c in p.cards),
    }


def won_words(seat: int, human: int | None, players: int, points: int) -> str:
    """Say who won a trick and its points ("You win, 20 points" when the human did)."""
    if seat == human:
        return _("你赢，%(p)s 分") % {"p": points}
    return _("%(who)s 赢，%(p)s 分") % {"who": seat_name(seat, human, players), "p": points}


def hand_groups(
    table: Table, cards: Sequence[Card], checked: Sequence[Card] = (), forced: Sequence[Card] = ()
) -> list[dict[str, Any]]:
    """Group a hand for tapping in the engine's display order (`Context.sort_cards`): trumps
    first, then the ruleset's side suits, strongest first in each; each card's `order` is its
    place when sorted by rank (the table's by-strength setting).

    Before trump is fixed the trumps shown are those that do not depend on it (jokers and
    the ruleset's trump ranks, 常主).
    """
    ctx = table.ctx or Context(table.ruleset, table.level, None)
    picked, must = Counter(checked), Counter(forced)
    groups: dict[str, list[Card]] = {}
    for c in ctx.sort_cards(cards):
        groups.setdefault(ctx.group(c), []).append(c)
    by_rank = {c: i for i, c in enumerate(ctx.sort_cards(set(cards), by_rank=True))}
    names = {TRUMP: _("主牌"), **SUIT_SYMBOLS}
    out: list[dict[str, Any]] = []
    for group, members in groups.items():
        items: list[dict[str, Any]] = []
        for c in members:
            on = picked[c] > 0
            if on:
                picked[c] -= 1
            hard = must[c] > 0
            if hard:
                must[c] -= 1
            items.append(
                {
                    "value": ascii_card(c),
                    "order": by_rank[c],
                    "chip": mark_safe(present.chip(c, ctx, "forced" if hard else "")),
                    "checked": on,
                    "trump": group == TRUMP,
                }
            )
        out.append(
            {
                "group": group,
                "name": names[group],
                "trump": group == TRUMP,
                "cards": items,
                "count": len(items),
            }
        )
    return out


def cards_held(table: Table, ask: Ask | None, human: int | None) -> list[int]:
    """Count the cards each seat holds now: only those dealt so far while declaring, and the
    kitty in the banker's hand from when it is taken until it is buried."""
    n = table.ruleset.players
    if not table.hands:
        return [0] * n
    counts = [len(h) for h in table.hands]
    if ask is not None and ask.phase == DECLARE and human is not None:
        at = _dealt_so_far(table, human, len(ask.view.hand))
        counts = [len(hand_at(table, s, at)) for s in range(n)]
    holder = None
    if ask is not None and ask.phase in (SURRENDER, PICK_TRUMP, BURY):
        holder = ask.view.seat
    elif table.ctx is not None and not table.buried and table.end is None:
        holder = table.banker
    if holder is not None and not table.buried:
        counts[holder] += len(table.kitty)
    return counts


def _dealt_so_far(table: Table, human: int, held: int) -> int:
    """How many cards of the deal are out when the human, holding `held`, is asked to declare.

    The human is asked on receiving its `held`-th card, or after the deal when a declaration
    made since changed what it may declare (that declaration's `at` is then the later one).
    """
    n = table.ruleset.players
    own = (held - 1) * n + (human - table.first) % n + 1
    made = [int(e["at"]) for _s, _c, e in table.declarations if e.get("at") is not None]
    return max([own, *made])


def _bid_choices(position: Position) -> list[int]:
    ask = position.ask
    assert ask is not None
    low, high, step = ask.bid_range
    standing = [b for _, b in ask.view.bids if b is not None]
    top = min(standing) - step if standing else high
    return list(range(top, low - 1, -step))


def _end(table: Table, human: int | None) -> dict[str, Any] | None:
    e = table.end
    if e is None:
        return None
    n = table.ruleset.players
    result = str(e["result"])
    winner = str(e["winner"])
    return {
        "kitty": present.chips(parse_cards(e["kitty"]), table.ctx) if e["kitty"] else "",
        "kitty_points": e["kitty_points"],
        "kitty_bonus": e["kitty_bonus"],
        "multiplier": e["multiplier"],
        "attackers_points": e["attackers_points"],
        "result": _(OUTCOME_LABELS.get(result, result)),
        "result_code": result,
        "winner": present.term_label(winner) if winner else "",
        "rise": e["rise"],
        "next_level": e.get("next_level"),
        "chips": e.get("chips"),
        "bonus": e.get("bonus") or [],
        "banker": seat_name(table.banker, human, n) if table.banker is not None else "",
        "human_won": human is not None
        and table.banker is not None
        and (winner in ("banker", "庄家")) == table.ruleset.is_banker_side(human, table.banker),
    }


def table_context(
    position: Position,
    lang: Lang,
    *,
    reveal: int | None = None,
    show_hint: bool = False,
    checked: Sequence[Card] = (),
    mingpai: bool = False,
) -> dict[str, Any]:
    """Build everything the table template draws for a position (or its first `reveal` events)."""
    events = position.events
    partial = reveal is not None and reveal < len(events)
    shown = events[:reveal] if partial else events
    rs, human = position.ruleset, position.spec.seat
    table, n = fold_events(rs, shown, position.reasons), rs.players
    ask = None if partial else position.ask
    left = cards_held(table, ask, human)
    current, finished = table.current, table.finished
    last = _last_finished(table)
    context: dict[str, Any] = {
        "position": position,
        "spec": position.spec,
        "ruleset": rs,
        "title": rs.title_en if lang == "en" else rs.title,
        "table": table,
        "trump_words": trump_words(table),
        "seats": _seat_rows(table, left, human, position.spec.bots),
        "banker": seat_name(table.banker, human, n) if table.banker is not None else "",
        "trick": _trick(table, current, human, lang) if current is not None else None,
        "last": _trick(table, last, human, lang)
        if last is not None and review_open(position)
        else None,
        "review_open": review_open(position),
        "no_trump": _no_trump(table, human, mingpai=mingpai),
        "banker_reveal": _banker_reveal(table, human, lang),
        "mingpai": mingpai,
        "tricks_done": len(finished),
        "end": None if partial else _end(table, human),
        "partial": partial,
        "next_reveal": next_step(events, reveal) if partial and reveal is not None else None,
        "bids": [{"name": seat_name(s, human, n), "bid": b} for s, b in table.bids or []],
        "declarations": [_declaration(table, s, c, human) for s, c, _e in table.declarations],
        "attackers_points": table.attackers_points,
        "waiting_for": _waiting(table, human, partial, position),
        "status": tablebar.status_bar(table, human, left, lang, to_move=_turn(table, ask, partial)),
        "my_kitty": _my_kitty(position, shown, table),
        "take_back": take_back_open(position) and not partial,
        "taken_back": taken_back(events),
    }
    context.update(_hand_context(position, table, ask, checked, lang, show_hint=show_hint))
    if ask is not None:
        context.update(_ask_context(position, ask, table))
    return context


def _hand_context(
    position: Position,
    table: Table,
    ask: Ask | None,
    checked: Sequence[Card],
    lang: Lang,
    *,
    show_hint: bool,
) -> dict[str, Any]:
    """Build the person's hand and what the decision asks of it: the cards as rows (picked and
    forced marked), the hint's choice and why, the requirement and its one-tap example."""
    if ask is not None and show_hint:
        forced, suggested, suggestion = _hint(position, lang)
    else:
        forced, suggested, suggestion = forced_cards(ask), None, None
    checked = checked if suggested is None else suggested
    hand = _human_hand(table, ask, position.spec.seat)
    return {
        "hand": hand_groups(table, hand, checked, forced) if hand else [],
        "hand_size": len(hand),
        "ask": ask,
        "phase": ask.phase if ask is not None else "",
        "phase_word": _(PHASE_WORDS[ask.phase]) if ask is not None else "",
        "forced": present.chips(forced, table.ctx) if forced else "",
        "suggestion": suggestion,
        "tools": handtools.hand_tools(ask, checked, table.ctx, lang),
    }


def _hint(position: Position, lang: Lang) -> tuple[list[Card], Sequence[Card] | None, str | None]:
    """Return the forced cards, the suggested ones and why (the hint button)."""
    forced, decision = hint(position)
    if decision is None:
        return forced, None, None
    return forced, decision.cards, decision.explanation_for(lang)


def _human_hand(table: Table, ask: Ask | None, human: int | None) -> list[Card]:
    """Return the person's hand as the decision shows it (the kitty in it while burying)."""
    if human is None:
        return []
    if ask is not None and ask.phase in (DECLARE, SURRENDER, PICK_TRUMP, BURY):
        return list(ask.view.hand)
    return table.hands[human] if table.hands else []


def _last_finished(table: Table) -> Trick | None:
    """Return the last finished trick before the one on the table."""
    current, finished = table.current, table.finished
    last = finished[-1] if finished else None
    if current is not None and current.winner is not None and last is current:
        last = finished[-2] if len(finished) > 1 else None
    return last


def _seat_rows(
    table: Table, left: Sequence[int], human: int | None, bot_names: str
) -> list[dict[str, Any]]:
    """Describe every seat: its name, place around the trick, side, cards left and who plays it."""
    n = table.ruleset.players
    bots = seat_bots(bot_names, n)
    return [
        {
            "seat": s,
            "pos": (s - (human or 0)) % n,
            "place": seat_place((s - (human or 0)) % n, n),
            "name": seat_name(s, human, n),
            "banker": s == table.banker,
            "attacker": table.is_attacker(s),
            "left": left[s],
            "human": s == human,
            "bot": "" if s == human else bots[s],
        }
        for s in range(n)
    ]


def _ask_context(position: Position, ask: Ask, table: Table) -> dict[str, Any]:
    """Build what the decision's controls draw: declarations, bids, the kitty's size, suits."""
    out: dict[str, Any] = {
        "declare_options": [
            {"value": "-".join(ascii_card(c) for c in o), "cards": present.chips(o, table.ctx)}
            for o in ask.declarations
        ],
        "dealt": len(ask.view.hand),
        "kitty_size": position.ruleset.kitty_size,
        "suits": [(s, SUIT_SYMBOLS[s]) for s in position.ruleset.hand_suits],
    }
    if ask.phase == BID:
        out["bid_choices"] = _bid_choices(position)
    return out


def forced_cards(ask: Ask | None) -> list[Card]:
    """List the cards every legal follow from the person's hand holds (marked in the hand)."""
    if ask is None:
        return []
    view = ask.view
    if ask.phase != FOLLOW or view.ctx is None or view.lead is None:
        return []
    return generate_forced(view.ctx, view.lead, view.hand)


def _turn(table: Table, ask: Ask | None, partial: bool) -> int | None:
    """The seat the table waits for: the person's decision, else the next to play."""
    if ask is not None and not partial:
        return ask.view.seat
    return table.to_move() if table.end is None else None


def _my_kitty(position: Position, shown: Sequence[dict[str, Any]], table: Table) -> str:
    """The kitty the person buried, as chips, where visibility lets the seat look at it again."""
    viewer = Viewer(position.spec.seat, position.is_over)
    cards = buried_kitty(position.ruleset, shown, viewer)
    return present.chips(cards, table.ctx) if cards else ""


def take_back_open(position: Position) -> bool:
    """Tell whether the person may take its last move back now (a move stands to be undone)."""
    standing, _marks = effective_moves(position.moves)
    viewer = Viewer(position.spec.seat, position.is_over)
    return bool(standing) and allows_take_back(position.ruleset, viewer)


def review_open(position: Position) -> bool:
    """Tell whether the cards played may be looked back on now (不查牌 hides them until the end)."""
    return shows_history(position.ruleset, Viewer(position.spec.seat, position.is_over))


def _no_trump(table: Table, human: int | None, *, mingpai: bool) -> dict[str, Any] | None:
    """报无主 (§5.4.2) and, in 可查牌 mode (§9), the others' trump and pair counts and 明牌."""
    rs = table.ruleset
    if not table.no_trump or table.ctx is None or table.end is not None:
        return None
    n = rs.players
    shown = review_seats(table, human)
    return {
        "announced": [seat_name(s, human, n) for s in table.no_trump],
        "open": shown is not None,
        "mingpai": mingpai,
        "seats": [
            {
                "name": seat_name(r.seat, human, n),
                "trumps": r.trumps,
                "pairs": r.pairs,
                "cards": present.chips(r.cards, table.ctx) if mingpai and r.cards else "",
            }
            for r in shown or ()
        ],
    }


def _banker_reveal(table: Table, human: int | None, lang: Lang) -> dict[str, Any] | None:
    """亮牌 (§8.2): what the banker shows after burying; attackers see it only in 可查牌 mode."""
    duty = banker_reveal(table, human)
    if duty is None:
        return None
    return {"own": human is not None and human == table.banker, "text": duty.explanation_for(lang)}


def _declaration(
    table: Table, seat: int, cards: Sequence[Card], human: int | None
) -> dict[str, Any]:
    """One declaration as the human's seat sees it: the cards, or under 暗牌 only how many."""
    n = table.ruleset.players
    shown = shown_declaration(table.ruleset, cards, own=seat == human, deal_over=table.trump_known)
    if isinstance(shown, int):
        words = _("暗亮 %(n)d 张") % {"n": shown}
        return {"name": seat_name(seat, human, n), "cards": words, "hidden": True}
    return {"name": seat_name(seat, human, n), "cards": present.chips(shown, table.ctx)}


def _waiting(table: Table, human: int | None, partial: bool, position: Position) -> str:
    if not partial:
        return ""
    seat = table.to_move()
    if seat is None or seat == human:
        return _("机器人思考中…")
    return _("等待 %(who)s 出牌…") % {"who": seat_name(seat, human, table.ruleset.players)}
