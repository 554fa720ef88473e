"""Case kinds between rounds: next_round (banker rotation, levels, the end of a match) and
payments (二七王's chip lines of one round)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from checker.engine.bidding import settle_chips
from checker.engine.errors import PlayError
from checker.engine.order import Context
from checker.engine.payments import settle_payments
from checker.engine.rotation import BANKER_RESULTS, check_result, next_round
from checker.engine.ruleset import Ruleset
from checker.engine.scoring import score_round
from checker.engine.texts import Lang, Say, pick

from . import fields as F
from .fields import ArrayOf, Outcome, Record, case_kind

WINNER_WORDS = {"banker": True, "庄家": True, "attackers": False, "defenders": False, "闲家": False}


LEVELS = ArrayOf(
    F.RANK,
    "每队的级别列表 [0、2 号座位一队, 1、3 号座位一队]",
    en="the level of each team [seats 0 and 2, seats 1 and 3]",
)
PAYMENT_LINE = Record(
    {"from": F.SEAT, "to": F.SEAT, "chips": F.INT, "line": F.STRING},
    "{from, to, chips, line} 映射",
    frozenset({"from", "to", "chips", "line"}),
    en="a {from, to, chips, line} mapping",
)


def _round_result(rs: Ruleset, data: Mapping[str, Any]) -> tuple[str, int]:
    """Read the round's result: a result code (with its rise), or the points that give one."""
    if data.get("result") is not None:
        return check_result(rs, data["result"], data.get("rise"))
    points = data.get("points")
    if points is None:
        raise PlayError(
            "next_round 需要 result（或 points）",
            en="next_round needs result (or points)",
            field="result",
        )
    if isinstance(points, bool) or not isinstance(points, int):
        raise PlayError(
            f"points 必须是整数，而不是“{points}”",
            en=f"points must be an integer, not “{points}”",
            field="points",
            value=str(points),
        )
    if rs.settles_by_bid:
        bid = data.get("bid")
        if bid is None:
            raise PlayError(
                f"{rs.title}按叫分结算，用 points 时需要 bid",
                en=f"{rs.name} settles by the bid: points need bid",
                field="bid",
            )
        chips = settle_chips(rs, points, bid)
        return chips.result, chips.rise
    score = score_round(rs, points)
    return score.result, score.rise


@case_kind(
    "next_round",
    "轮庄与整场",
    "Next round",
    inputs={
        "banker": F.SEAT,
        "result": F.STRING,
        "rise": F.INT,
        "points": F.POINTS,
        "bid": F.INT,
        "levels": LEVELS,
        "chips": F.INT_LIST,
        "x": F.INT,
        "bonus": F.INT_LIST,
        "round": F.INT,
    },
    required=("banker",),
    outputs={
        "banker": F.SEAT,
        "levels": LEVELS,
        "chips": F.INT_LIST,
        "round": F.INT,
        "match_over": F.BOOL,
        "match_winner": ArrayOf(F.SEAT, "座位的列表", en="a list of seats"),
        "rule": F.STRING,
    },
)
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
                f"chips: 需要 {rs.players} 位玩家的子数",
                en=f"chips: needs the chips of the {rs.players} players",
                field="chips",
                value=str(before),
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


@case_kind(
    "payments",
    "支付线",
    "Payments",
    inputs={
        "x": F.INT,
        "bonus": F.INT_LIST,
        "banker": F.SEAT,
        "result": F.STRING,
        "rise": F.INT,
    },
    required=("x", "bonus", "banker", "result"),
    outputs={
        "net": F.INT_LIST,
        "lines": ArrayOf(PAYMENT_LINE, "支付线的列表", en="a list of payment lines"),
        "x": F.INT,
    },
)
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
