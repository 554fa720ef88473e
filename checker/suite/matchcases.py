"""Case kinds between rounds: next_round (banker rotation, levels, the end of a match) and
payments (二七王's chip lines of one round)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from checker.engine.bidding import settle_chips
from checker.engine.errors import PlayError
from checker.engine.order import Context
from checker.engine.payments import settle_payments
from checker.engine.rotation import BANKER_RESULTS, check_result, next_round
from checker.engine.ruleset import Ruleset
from checker.engine.scoring import score_round
from checker.engine.texts import Lang, Say, pick

Outcome = tuple[dict[str, Any], Say]

MATCH_INPUT_KEYS: dict[str, set[str]] = {
    "next_round": {
        "banker",
        "result",
        "rise",
        "points",
        "bid",
        "levels",
        "chips",
        "x",
        "bonus",
        "round",
    },
    "payments": {"x", "bonus", "banker", "result", "rise"},
}
MATCH_REQUIRED_KEYS: dict[str, set[str]] = {
    "next_round": {"banker"},
    "payments": {"x", "bonus", "banker", "result"},
}
MATCH_OUTPUT_KEYS: dict[str, set[str]] = {
    "next_round": {"banker", "levels", "chips", "round", "match_over", "match_winner", "rule"},
    "payments": {"net", "lines", "x"},
}
WINNER_WORDS = {"banker": True, "庄家": True, "attackers": False, "defenders": False, "闲家": False}


def _round_result(rs: Ruleset, data: Mapping[str, Any]) -> tuple[str, int]:
    """Read the round's result: a result code (with its rise), or the points that give one."""
    if data.get("result") is not None:
        return check_result(rs, data["result"], data.get("rise"))
    points = data.get("points")
    if points is None:
        raise PlayError("next_round 需要 result（或 points）", field="result")
    if isinstance(points, bool) or not isinstance(points, int):
        raise PlayError(f"points 必须是整数，而不是“{points}”", field="points", value=str(points))
    if rs.score_policy == "bid_chips":
        bid = data.get("bid")
        if bid is None:
            raise PlayError(f"{rs.title}按叫分结算，用 points 时需要 bid", field="bid")
        chips = settle_chips(rs, points, bid)
        return chips.result, chips.rise
    score = score_round(rs, points)
    return score.result, score.rise


def run_next_round(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    result, rise = _round_result(rs, data)
    chips = data.get("chips")
    say_pay: Say | None = None
    if data.get("x") is not None:
        bonus = data.get("bonus") or [0] * rs.players
        pay = settle_payments(
            rs,
            x=data["x"],
            bonus=bonus,
            banker=data["banker"],
            banker_won=result in BANKER_RESULTS,
        )
        before = chips if chips is not None else [0] * rs.players
        if not isinstance(before, list) or len(before) != rs.players:
            raise PlayError(
                f"chips: 需要 {rs.players} 位玩家的子数", field="chips", value=str(before)
            )
        chips = [int(c) + d for c, d in zip(before, pay.net, strict=True)]
        say_pay = pay.explanation_for
    outcome = next_round(
        rs,
        banker=data["banker"],
        result=result,
        rise=rise,
        levels=data.get("levels"),
        chips=chips,
        round_no=data.get("round", 1),
    )
    out = outcome.as_dict()
    out["rule"] = outcome.rule
    if out["levels"] is None:
        del out["levels"]
    if out["chips"] is None:
        del out["chips"]

    def explain(lang: Lang) -> str:
        text = outcome.explanation_for(lang)
        if say_pay is not None:
            text = say_pay(lang) + pick(lang, "", " ") + text
        return text

    return out, explain


def run_payments(rs: Ruleset, ctx: Context, data: Mapping[str, Any]) -> Outcome:
    raw = data["result"]
    if isinstance(raw, str) and raw.strip().lower() in WINNER_WORDS:
        banker_won = WINNER_WORDS[raw.strip().lower()]
    else:
        result, _ = check_result(rs, raw, data.get("rise"))
        banker_won = result in BANKER_RESULTS
    pay = settle_payments(
        rs, x=data["x"], bonus=data["bonus"], banker=data["banker"], banker_won=banker_won
    )
    out = {"x": data["x"], "net": list(pay.net), "lines": [ln.as_dict() for ln in pay.lines]}
    return out, pay.explanation_for


MATCH_RUNNERS: dict[str, Callable[[Ruleset, Context, Mapping[str, Any]], Outcome]] = {
    "next_round": run_next_round,
    "payments": run_payments,
}
