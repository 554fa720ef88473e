"""What the /play/ table draws of a ruleset's room features (`Ruleset.table`, seed 001 §10–§12):
the pair counts on the trump buttons, the bid hints, the attackers' signals, the per-turn
countdown, the room-card cost and dissolving the match. Each is on only where the ruleset's
`table:` section turns it on; the table template includes one small template per feature.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from checker.engine.bidding import bid_commitment, bid_terms, first_bid_rule
from checker.engine.cards import SUIT_SYMBOLS
from checker.engine.ruleset import Ruleset
from checker.engine.tablerules import (
    room_card_cost,
    room_card_words,
    signal_meaning,
    signal_name,
    suit_pairs,
)
from checker.engine.texts import Lang
from checker.play.game import Position
from checker.play.players import BID, FOLLOW, LEAD, PICK_TRUMP
from checker.play.table import Table
from checker.web.tableview import seat_name


def trump_buttons(position: Position) -> list[dict[str, Any]]:
    """The suit buttons of the trump pick, each with the pairs of that suit in the banker's own
    hand (§4.4, §11): every pair, and how many of them are the always-trump 2s and 7s."""
    ask, rs = position.ask, position.ruleset
    if ask is None or ask.phase != PICK_TRUMP:
        return []
    fixed = [r for r in rs.trump_ranks if isinstance(r, int)]
    out: list[dict[str, Any]] = []
    for suit in rs.hand_suits:
        pairs, of_fixed = suit_pairs(ask.view.hand, suit, fixed)
        if not rs.table.trump_pairs:
            out.append(
                {"suit": suit, "symbol": SUIT_SYMBOLS[suit], "pairs": None, "red": suit in "HD"}
            )
            continue
        label = _("主 %(s)s：你手里这门 %(n)d 对") % {"s": SUIT_SYMBOLS[suit], "n": pairs}
        if of_fixed:
            label += _("（其中 %(k)d 对是恒为主的 2/7）") % {"k": of_fixed}
        out.append(
            {
                "suit": suit,
                "symbol": SUIT_SYMBOLS[suit],
                "pairs": pairs,
                "fixed": of_fixed,
                "label": label,
                "red": suit in "HD",
            }
        )
    return out


def bid_help(position: Position, choices: list[int], lang: Lang) -> dict[str, Any] | None:
    """The auction's help: why the opening bidder cannot pass, and what each bid commits to."""
    ask, rs = position.ask, position.ruleset
    if ask is None or ask.phase != BID or rs.bidding is None:
        return None
    return {
        "must_bid": ask.must_bid,
        "rule": first_bid_rule(rs)(lang) if ask.must_bid else "",
        "terms": bid_terms(rs)(lang),
        "hints": [{"bid": b, "text": bid_commitment(rs, b)(lang)} for b in choices],
    }


def signal_buttons(position: Position, table: Table, lang: Lang) -> list[dict[str, str]]:
    """The signals the person may send now: an attacker at its play, once a trick (§11)."""
    ask, rs, human = position.ask, position.ruleset, position.spec.seat
    codes = rs.table.signals
    if not codes or ask is None or ask.phase not in (LEAD, FOLLOW) or human is None:
        return []
    if table.banker is None or rs.is_banker_side(human, table.banker):
        return []
    trick = len(table.finished)
    if any(t == trick and s == human for t, s, _c in table.signals):
        return []
    return [
        {"value": f"~{c}", "name": signal_name(c, lang), "meaning": signal_meaning(c, lang)}
        for c in codes
    ]


def trick_signals(table: Table, trick: int, human: int | None, lang: Lang) -> list[str]:
    """Say the signals sent during one trick (0-based), public to every seat."""
    n = table.ruleset.players
    return [
        _("%(who)s：%(signal)s（%(meaning)s）")
        % {
            "who": seat_name(seat, human, n),
            "signal": signal_name(code, lang),
            "meaning": signal_meaning(code, lang),
        }
        for t, seat, code in table.signals
        if t == trick
    ]


def countdown(position: Position) -> dict[str, Any] | None:
    """The seconds shown for the person's decision (None: the ruleset sets none), shown only,
    and the turn they count for (a signal redraws the table without ending the turn)."""
    ask = position.ask
    if ask is None or position.spec.seat is None:
        return None
    seconds = position.ruleset.table.countdown.get(ask.phase)
    if seconds is None:
        return None
    turn = sum(1 for m in position.moves if m.kind != "signal")
    return {"seconds": seconds, "turn": str(turn)}  # never the seed: it may be secret


def room_cards(rs: Ruleset, lang: Lang) -> str:
    """Say what the match costs in room cards (§10.1), from the ruleset's options and data."""
    if not rs.table.room_cards or not rs.has_option("room_cards"):
        return ""
    mode = str(rs.option("room_cards"))
    rounds = int(rs.option("match_rounds")) if rs.has_option("match_rounds") else 0
    cost = room_card_cost(rs.table, mode, rounds)
    return "" if cost is None else room_card_words(mode, cost, rounds, lang)


def table_extras(
    position: Position, table: Table, lang: Lang, choices: list[int], match: Any
) -> dict[str, Any]:
    """Everything the room-feature templates of the table draw (`match`: the stored match)."""
    current = table.current
    tricks = sorted({len(table.finished), *([current.number] if current else [])})
    shown = [w for t in tricks for w in trick_signals(table, t, position.spec.seat, lang)]
    return {
        "trump_buttons": trump_buttons(position),
        "bid_help": bid_help(position, choices, lang),
        "signal_buttons": signal_buttons(position, table, lang),
        "signals_shown": shown,
        "countdown": countdown(position),
        "room_cards": room_cards(position.ruleset, lang),
        "may_dissolve": position.ruleset.table.dissolve and dissolved_event(match) is None,
        "dissolved": dissolve_words(position, match),
    }


def dissolved_event(match: Any) -> dict[str, Any] | None:
    """The stored 解散 of a match (§12.2), None while it goes on."""
    if isinstance(match, dict) and isinstance(match.get("dissolved"), dict):
        found: dict[str, Any] = match["dissolved"]
        return found
    return None


def dissolve_words(position: Position, match: Any) -> dict[str, Any] | None:
    """What the table and the match page say of a dissolved match: the totals it settled at."""
    event = dissolved_event(match)
    if event is None:
        return None
    rs, human = position.ruleset, position.spec.seat
    n = rs.players
    chips = [c for c in event.get("chips") or [] if isinstance(c, int)][:n]
    winners = [s for s in event.get("winner") or [] if isinstance(s, int) and 0 <= s < n]
    stopped: int = event["round"] if isinstance(event.get("round"), int) else 1
    return {
        "round": stopped,  # the round the match stopped before (or in, unfinished)
        "played": stopped - 1,  # the last round finished
        "counted": bool(event.get("round_counted")),
        "chips": [{"name": seat_name(s, human, n), "chips": c} for s, c in enumerate(chips)],
        "winners": [seat_name(s, human, n) for s in winners],
    }
