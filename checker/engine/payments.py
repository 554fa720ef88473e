"""Chip payments of one round (二七王 §7.0, §8.4): the base lines between the banker and each
defender, and the bonus lines every other player pays to a player holding bonuses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .errors import PlayError
from .ruleset import Ruleset
from .texts import Lang, Say, Spoken, pick

BASE = "base"
BONUS = "bonus"


@dataclass(frozen=True)
class PaymentLine:
    """One payment: who pays whom how many chips, and on which line (base or bonus)."""

    payer: int
    payee: int
    chips: int
    line: str

    def as_dict(self) -> dict[str, Any]:
        """Return the line as plain data."""
        return {"from": self.payer, "to": self.payee, "chips": self.chips, "line": self.line}


@dataclass(frozen=True)
class Payments(Spoken):
    """Every payment line of a round and each player's net chips."""

    net: tuple[int, ...]
    lines: tuple[PaymentLine, ...]
    say: Say = field(repr=False, compare=False)


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PlayError(
            f"{what} 必须是不小于 0 的整数，而不是“{value}”",
            en=f"{what} must be an integer of at least 0, not “{value}”",
            field=what,
            value=str(value),
        )
    return value


def settle_payments(
    rs: Ruleset, *, x: int, bonus: Sequence[int], banker: int, banker_won: bool
) -> Payments:
    """List a round's payment lines from its X, each player's bonus count and who won."""
    n = rs.players
    if not rs.banker_plays_alone:
        raise PlayError(
            f"{rs.title}不按子数结算，没有支付线",
            en=f"{rs.name} does not settle in chips: there are no payment lines",
            field="kind",
        )
    if isinstance(banker, bool) or not isinstance(banker, int) or not 0 <= banker < n:
        raise PlayError(
            f"banker: 座位“{banker}”不存在（{rs.title}只有座位 0–{n - 1}）",
            en=f"banker: there is no seat “{banker}” ({rs.name} has seats 0–{n - 1})",
            field="banker",
            value=str(banker),
        )
    x = _count(x, "x")
    if not isinstance(bonus, (list, tuple)) or len(bonus) != n:
        raise PlayError(
            f"bonus: 需要 {n} 位玩家各自的奖数，给的是“{bonus}”",
            en=f"bonus: needs the bonus count of each of the {n} players, not “{bonus}”",
            field="bonus",
            value=str(bonus),
        )
    counts = [_count(b, f"bonus[{i}]") for i, b in enumerate(bonus)]
    lines: list[PaymentLine] = []
    for seat in range(n):
        if seat == banker:
            continue
        payer, payee = (seat, banker) if banker_won else (banker, seat)
        lines.append(PaymentLine(payer, payee, x, BASE))
    for seat, count in enumerate(counts):
        if count <= 0:
            continue
        for other in range(n):
            if other != seat:
                lines.append(PaymentLine(other, seat, x * count, BONUS))
    net = [0] * n
    for line in lines:
        net[line.payer] -= line.chips
        net[line.payee] += line.chips

    words = partial(_payment_words, x, banker, banker_won, tuple(counts), tuple(net))
    return Payments(tuple(net), tuple(lines), words)


def _payment_words(
    x: int,
    banker: int,
    banker_won: bool,
    counts: tuple[int, ...],
    net: tuple[int, ...],
    lang: Lang,
) -> str:
    """Say who pays whom: the base line with each defender, each bonus, the net per seat."""
    who = (
        pick(lang, "庄家赢", "the banker won")
        if banker_won
        else pick(lang, "庄家输", "the banker lost")
    )
    parts = [
        pick(
            lang,
            f"X = {x}，{who}：庄家（座位 {banker}）与每个闲家一对一结算 {x} 个子",
            f"X = {x}, {who}: the banker (seat {banker}) settles {x} chips with each defender",
        )
    ]
    for seat, count in enumerate(counts):
        if count > 0:
            parts.append(
                pick(
                    lang,
                    f"座位 {seat} 有 {count} 奖：其余两人各付给他 {x} × {count} = {x * count} 个子",
                    f"seat {seat} holds {count} bonus: each other player pays them "
                    f"{x} × {count} = {x * count} chips",
                )
            )
    shown = pick(lang, "、", ", ").join(f"{s}: {v:+d}" for s, v in enumerate(net))
    parts.append(pick(lang, f"各家本局盈亏 {shown}", f"net per seat {shown}"))
    return pick(lang, "；", "; ").join(parts) + pick(lang, "。", ".")
