"""Bidding rulesets (二七王): the auction and the settlement in chips."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import PlayError
from .ruleset import Ruleset

PASS = "pass"


@dataclass(frozen=True)
class AuctionResult:
    """The outcome of an auction: valid or not, the banker and winning bid, and why."""

    valid: bool
    banker: int | None
    bid: int | None
    reason: str
    error_at: int | None
    explanation: str


def _rules(rs: Ruleset) -> tuple[int, int, int]:
    if rs.bidding is None:
        raise PlayError(f"{rs.title}没有叫分", field="kind")
    return int(rs.bidding["min"]), int(rs.bidding["max"]), int(rs.bidding["step"])


def judge_auction(rs: Ruleset, bids: Sequence[int | str], first: int = 0) -> AuctionResult:
    """Run an auction from bids in seat order and tell who becomes banker at which bid."""
    low, high, step = _rules(rs)
    players = rs.players
    current: int | None = None
    holder: int | None = None
    passes = 0
    ended = False

    def bad(i: int, reason: str, text: str) -> AuctionResult:
        return AuctionResult(False, None, None, reason, i, f"第 {i + 1} 个叫分无效：{text}")

    for i, entry in enumerate(bids):
        seat = (first + i) % players
        if ended:
            return bad(
                i, "after_end", f"叫分已在座位 {holder} 叫 {current} 分时结束，之后不能再叫。"
            )
        if isinstance(entry, str) and entry.strip().lower() in (PASS, "不叫", "p"):
            if current is None:
                return bad(i, "first_must_bid", f"座位 {seat} 是首叫，必须叫分，不能不叫。")
            passes += 1
            if passes == players - 1:
                ended = True
            continue
        if isinstance(entry, bool) or not isinstance(entry, int):
            return bad(i, "not_a_bid", f"“{entry}”既不是分数也不是 pass。")
        if not low <= entry <= high:
            return bad(i, "out_of_range", f"{entry} 分不在 {low}–{high} 之间。")
        if entry % step:
            return bad(i, "bad_step", f"{entry} 分不是 {step} 的倍数。")
        if current is not None and entry >= current:
            return bad(i, "not_lower", f"{entry} 分不低于当前的 {current} 分：后叫必须叫得更低。")
        current, holder, passes = entry, seat, 0
        if entry == low:
            ended = True
    if not ended:
        return AuctionResult(
            False,
            None,
            None,
            "incomplete",
            None,
            "叫分尚未结束：最后一个叫分之后还需另外两家都不叫（或有人叫到最低分）。",
        )
    how = "叫到最低分，无人能再压" if current == low else "其后两家都不叫"
    return AuctionResult(
        True, holder, current, "", None, f"座位 {holder} 叫 {current} 分坐庄（{how}）。"
    )


@dataclass(frozen=True)
class ChipResult:
    """Settlement of a bidding round in chips, per opponent."""

    winner: str
    result: str
    rise: int
    multiplier: int
    base_chips: int
    chips: int
    explanation: str


def _base(rs: Ruleset, bid: int, climb: bool) -> int:
    chips = rs.chips or {}
    table = chips["base_climb"] if climb else chips["base"]
    if bid in table:
        return int(table[bid])
    return int(chips["below"])


def _q(rs: Ruleset, bid: int, climb: bool) -> int:
    chips = rs.chips or {}
    if not climb:
        return int(chips["q"])
    bands = sorted(((int(k), int(v)) for k, v in chips["q_climb"].items()), reverse=True)
    for lowest, q in bands:
        if bid >= lowest:
            return q
    return bands[-1][1]


def settle_chips(rs: Ruleset, points: int, bid: int, surrender: bool = False) -> ChipResult:
    """Settle a bidding round: 大光/小光/过庄 for the banker or 升N级 for the attackers, in chips."""
    low, high, step = _rules(rs)
    if not low <= bid <= high or bid % step:
        raise PlayError(f"叫分 {bid} 无效（应为 {low}–{high}，步进 {step}）", field="bid")
    chips = rs.chips or {}
    climb = bool(rs.has_option("climb") and rs.option("climb"))
    if surrender:
        if rs.bidding is None or bid != int(rs.bidding.get("surrender_bid", high)):
            raise PlayError(
                f"只有叫 {rs.bidding and rs.bidding.get('surrender_bid')} 分坐庄才能投降",
                field="surrender",
            )
        base = int(chips["surrender"])
        return ChipResult(
            "attackers",
            "surrender",
            0,
            1,
            base,
            base,
            f"叫 {bid} 分坐庄后投降：基础子数固定 {base} 个，庄家直接输给每个闲家 {base} 个子。",
        )
    base = _base(rs, bid, climb)
    q = _q(rs, bid, climb)
    mode = "爬坡" if climb else "常规算子"
    if points >= bid:
        rise = 1 + (points - bid) // q
        total = base * rise
        return ChipResult(
            "attackers",
            "promote",
            rise,
            rise,
            base,
            total,
            f"{mode}：叫 {bid} 分，基础 {base} 个子；闲家捡 {points} 分 ≥ 叫分，升 {rise} 级"
            f"（达到叫分升 1 级，每再多 {q} 分再升 1 级），×{rise} = 每个闲家赢 {total} 个子。",
        )
    if points <= 0:
        result, mult, name = "big_sweep", int(chips.get("sweep_multiplier", 3)), "大光"
        band = "闲家一分未捡"
    elif points < q:
        result, mult, name = "small_sweep", int(chips.get("small_sweep_multiplier", 2)), "小光"
        band = f"闲家捡 {points} 分，不满 {q} 分"
    else:
        result, mult, name = "hold", 1, "过庄"
        band = f"闲家捡 {points} 分，满 {q} 分但未达叫分 {bid}"
    total = base * mult
    return ChipResult(
        "banker",
        result,
        0,
        mult,
        base,
        total,
        f"{mode}：叫 {bid} 分，基础 {base} 个子；{band}：庄家{name} ×{mult} = 每个闲家输 {total} 个子。",
    )
