"""Bidding rulesets (二七王): the auction and the settlement in chips."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from .errors import PlayError
from .ruleset import Ruleset
from .texts import Lang, Say, Spoken, count_en, pick

PASS = "pass"


@dataclass(frozen=True)
class AuctionResult(Spoken):
    """The outcome of an auction: valid or not, the banker and winning bid, and why."""

    valid: bool
    banker: int | None
    bid: int | None
    reason: str
    error_at: int | None
    say: Say = field(repr=False, compare=False)


def _rules(rs: Ruleset) -> tuple[int, int, int]:
    if rs.bidding is None:
        raise PlayError(f"{rs.title}没有叫分", en=f"{rs.name} has no bidding", field="kind")
    return int(rs.bidding["min"]), int(rs.bidding["max"]), int(rs.bidding["step"])


# Why a bid is invalid: (Chinese, English) templates per reason code.
BID_ERRORS = {
    "after_end": (
        "叫分已在座位 {holder} 叫 {current} 分时结束，之后不能再叫。",
        "the auction already ended when seat {holder} bid {current}; no more bids are allowed.",
    ),
    "first_must_bid": (
        "座位 {seat} 是首叫，必须叫分，不能不叫。",
        "seat {seat} opens the auction and must bid, not pass.",
    ),
    "not_a_bid": ("“{entry}”既不是分数也不是 pass。", '"{entry}" is neither a number nor a pass.'),
    "out_of_range": ("{entry} 分不在 {low}–{high} 之间。", "{entry} is not within {low}–{high}."),
    "bad_step": ("{entry} 分不是 {step} 的倍数。", "{entry} is not a multiple of {step}."),
    "not_lower": (
        "{entry} 分不低于当前的 {current} 分：后叫必须叫得更低。",
        "{entry} is not lower than the current {current}: each bid must be lower "
        "than the one before.",
    ),
}


def judge_auction(rs: Ruleset, bids: Sequence[int | str], first: int = 0) -> AuctionResult:
    """Run an auction from bids in seat order and tell who becomes banker at which bid."""
    low, high, step = _rules(rs)
    players = rs.players
    current: int | None = None
    holder: int | None = None
    passes = 0
    ended = False
    for i, entry in enumerate(bids):
        seat = (first + i) % players
        if ended:
            return _bad_bid(i, "after_end", holder=holder, current=current)
        if isinstance(entry, str) and entry.strip().lower() in (PASS, "不叫", "p"):
            if current is None:
                return _bad_bid(i, "first_must_bid", seat=seat)
            passes += 1
            ended = passes == players - 1
            continue
        if isinstance(entry, bool) or not isinstance(entry, int):
            return _bad_bid(i, "not_a_bid", entry=entry)
        if not low <= entry <= high:
            return _bad_bid(i, "out_of_range", entry=entry, low=low, high=high)
        if entry % step:
            return _bad_bid(i, "bad_step", entry=entry, step=step)
        if current is not None and entry >= current:
            return _bad_bid(i, "not_lower", entry=entry, current=current)
        current, holder, passes = entry, seat, 0
        ended = entry == low
    if not ended:
        return AuctionResult(False, None, None, "incomplete", None, _unfinished_words)
    return AuctionResult(True, holder, current, "", None, partial(_won_words, current, holder, low))


def _bad_bid(i: int, reason: str, **args: object) -> AuctionResult:
    """Refuse the auction at its i-th entry, saying why."""

    def explain(lang: Lang) -> str:
        zh, en = BID_ERRORS[reason]
        head = pick(lang, f"第 {i + 1} 个叫分无效：", f"Bid {i + 1} is invalid: ")
        return head + pick(lang, zh, en).format(**args)

    return AuctionResult(False, None, None, reason, i, explain)


def _unfinished_words(lang: Lang) -> str:
    """Say that the auction has not ended yet."""
    return pick(
        lang,
        "叫分尚未结束：最后一个叫分之后还需另外两家都不叫（或有人叫到最低分）。",
        "The auction has not ended: after the last bid the other two players must "
        "both pass (or someone must bid the minimum).",
    )


def _won_words(at: int | None, by: int | None, low: int, lang: Lang) -> str:
    """Say who became banker at which bid, and how the auction ended."""
    if at == low:
        how = pick(lang, "叫到最低分，无人能再压", "the minimum bid, which nobody can go under")
    else:
        how = pick(lang, "其后两家都不叫", "the other two players passed after it")
    return pick(
        lang,
        f"座位 {by} 叫 {at} 分坐庄（{how}）。",
        f"Seat {by} becomes banker with a bid of {at} ({how}).",
    )


@dataclass(frozen=True)
class ChipResult(Spoken):
    """Settlement of a bidding round in chips, per opponent."""

    winner: str
    result: str
    rise: int
    multiplier: int
    base_chips: int
    chips: int
    say: Say = field(repr=False, compare=False)


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
        raise PlayError(
            f"叫分 {bid} 无效（应为 {low}–{high}，步进 {step}）",
            en=f"bid {bid} is not valid ({low}–{high} in steps of {step})",
            field="bid",
        )
    if surrender:
        return _surrendered(rs, bid, high)
    climb = bool(rs.has_option("climb") and rs.option("climb"))
    base = _base(rs, bid, climb)
    q = _q(rs, bid, climb)
    head = partial(_chips_head, climb, bid, base)
    if points >= bid:
        rise = 1 + (points - bid) // q
        total = base * rise
        words = partial(_promote_words, head, points, q, rise, total)
        return ChipResult("attackers", "promote", rise, rise, base, total, words)
    chips = rs.chips or {}
    if points <= 0:
        result, mult = "big_sweep", int(chips.get("sweep_multiplier", 3))
    elif points < q:
        result, mult = "small_sweep", int(chips.get("small_sweep_multiplier", 2))
    else:
        result, mult = "hold", 1
    total = base * mult
    words = partial(_banker_words, head, result, points, q, bid, mult, total)
    return ChipResult("banker", result, 0, mult, base, total, words)


def _surrendered(rs: Ruleset, bid: int, high: int) -> ChipResult:
    """Settle a surrender: only at the surrender bid, for the fixed surrender chips."""
    if rs.bidding is None or bid != int(rs.bidding.get("surrender_bid", high)):
        raise PlayError(
            f"只有叫 {rs.bidding and rs.bidding.get('surrender_bid')} 分坐庄才能投降",
            en=f"only a banker who bid {rs.bidding and rs.bidding.get('surrender_bid')}"
            " may surrender",
            field="surrender",
        )
    base = int((rs.chips or {})["surrender"])
    return ChipResult(
        "attackers",
        "surrender",
        0,
        1,
        base,
        base,
        lambda lang: pick(
            lang,
            f"叫 {bid} 分坐庄后投降：基础子数固定 {base} 个，庄家直接输给每个闲家 {base} 个子。",
            f"Surrender after becoming banker with a bid of {bid}: the base is fixed at "
            f"{base} chips, and the banker pays each attacker {base} chips.",
        ),
    )


def _chips_head(climb: bool, bid: int, base: int, lang: Lang) -> str:
    """Say the way chips are counted, the bid and the base."""
    mode = pick(lang, "爬坡" if climb else "常规算子", "Climb" if climb else "Standard chips")
    return pick(
        lang, f"{mode}：叫 {bid} 分，基础 {base} 个子；", f"{mode}: bid {bid}, base {base} chips; "
    )


def _promote_words(head: Say, points: int, q: int, rise: int, total: int, lang: Lang) -> str:
    """Say how far the attackers rise past the bid and what each of them wins."""
    return head(lang) + pick(
        lang,
        f"闲家捡 {points} 分 ≥ 叫分，升 {rise} 级"
        f"（达到叫分升 1 级，每再多 {q} 分再升 1 级），×{rise} = 每个闲家赢 {total} 个子。",
        f"the attackers took {points} points ≥ the bid and rise {count_en(rise, 'level')} "
        f"(1 for reaching the bid, 1 more for every further {q} points); "
        f"×{rise} = each attacker wins {total} chips.",
    )


def _banker_words(
    head: Say, result: str, points: int, q: int, bid: int, mult: int, total: int, lang: Lang
) -> str:
    """Say the banker's win (大光, 小光 or 过庄) and what each attacker loses."""
    if result == "big_sweep":
        band = pick(lang, "闲家一分未捡", "the attackers took no points")
        name = pick(lang, "大光", "big sweep")
    elif result == "small_sweep":
        band = pick(
            lang,
            f"闲家捡 {points} 分，不满 {q} 分",
            f"the attackers took {points} points, under {q}",
        )
        name = pick(lang, "小光", "small sweep")
    else:
        band = pick(
            lang,
            f"闲家捡 {points} 分，满 {q} 分但未达叫分 {bid}",
            f"the attackers took {points} points, at least {q} but short of the bid {bid}",
        )
        name = pick(lang, "过庄", "hold")
    return head(lang) + pick(
        lang,
        f"{band}：庄家{name} ×{mult} = 每个闲家输 {total} 个子。",
        f"{band}: the banker's {name} ×{mult} = each attacker loses {total} chips.",
    )


def bid_commitment(rs: Ruleset, bid: int) -> Say:
    """Say in one line what a bid commits the bidder to, from the ruleset's data: the points the
    attackers must stay under, the level step, the small-sweep line, the base chips, the shown
    kitty and the surrender."""
    low, _high, _step = _rules(rs)
    bidding = rs.bidding or {}
    climb = bool(rs.has_option("climb") and rs.option("climb"))
    base, q = _base(rs, bid, climb), _q(rs, bid, climb)
    line = min(q, bid)  # below the bid every take is a banker's win: the sweep line is the lower
    shown = bidding.get("show_kitty") is not None and bid == int(bidding["show_kitty"])
    surrender = bidding.get("surrender_bid") is not None and bid == int(bidding["surrender_bid"])
    give_up = int((rs.chips or {}).get("surrender", 1))

    def say(lang: Lang) -> str:
        parts = [
            pick(
                lang,
                f"叫 {bid}：闲家捡到 {bid} 分你就输（级距 {q}），不满 {line} 分你小光；基础 {base} 个子",
                f"Bid {bid}: you lose once the attackers take {bid} (level step {q}), a small "
                f"sweep under {line}; base {count_en(base, 'chip')}",
            )
        ]
        if bid == low:
            parts.append(pick(lang, "最低分，立即坐庄", "the lowest bid wins at once"))
        if shown:
            parts.append(pick(lang, "暗牌先亮给所有玩家", "the hidden cards are shown to all"))
        if surrender:
            parts.append(
                pick(
                    lang,
                    f"可以投降（{give_up} 个子）",
                    f"you may surrender ({count_en(give_up, 'chip')})",
                )
            )
        return pick(lang, "；", "; ").join(parts)

    return say


def bid_terms(rs: Ruleset) -> Say:
    """Say once what every bid means (seed 001 §4.2, §7): the promise, the sweeps, the levels."""
    chips = rs.chips or {}
    small, big = chips.get("small_sweep_multiplier", 2), chips.get("sweep_multiplier", 3)
    return lambda lang: pick(
        lang,
        f"叫分就是承诺：闲家捡分要少于你叫的数。做到了你赢，闲家捡分不满小光线为小光 ×{small}，"
        f"一分未捡为大光 ×{big}；闲家捡到叫分你就输，闲家升级，之后每多一个级距再升 1 级。"
        "叫得越低，基础子数越多。",
        f"A bid is a promise: the attackers take fewer points than you bid. Keep it and you win, "
        f"×{small} for a small sweep (under the small-sweep line), ×{big} for a big sweep (no "
        "points); if they reach the bid you lose and they rise, one more level per further step. "
        "The lower the bid, the more base chips.",
    )


def first_bid_rule(rs: Ruleset) -> Say:
    """Say why the opening bidder has no pass (seed 001 §4.2: the provisional banker must bid)."""
    low, high, step = _rules(rs)
    return lambda lang: pick(
        lang,
        f"暂定庄家必须叫分，不能不叫（{low}–{high} 分，步进 {step}）；后面的玩家才可以不叫。",
        f"The provisional banker opens and must bid ({low}–{high} in steps of {step}), "
        "not pass; the players after may pass.",
    )
