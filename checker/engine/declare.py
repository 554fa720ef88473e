"""Declaring trump during the deal and overriding an earlier declaration."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import BIG_JOKER, SUIT_SYMBOLS, Card, format_cards, is_subset
from .ruleset import Ruleset

TIER_NAMES = {
    "level_single": "单张级牌",
    "level_pair": "级牌对子",
    "small_joker_pair": "对小王",
    "big_joker_pair": "对大王",
}


@dataclass(frozen=True)
class Declaration:
    """One declaration on the table: who, with which cards, its tier and the suit it names."""

    seat: int
    cards: tuple[Card, ...]
    tier: str
    trump: str | None


@dataclass(frozen=True)
class DeclareVerdict:
    """Whether an attempted declaration is accepted, the trump and declarer that result, and why."""

    accepted: bool
    trump: str | None
    declarer: int | None
    reason: str
    explanation: str


def _tier_of(level: int | None, cards: Sequence[Card]) -> tuple[str | None, str | None, str]:
    """Return (tier, trump suit, refusal reason) for a set of declared cards."""
    if len(cards) == 1:
        card = cards[0]
        if card.is_joker:
            return None, None, "single_joker"
        if card.rank != level:
            return None, None, "not_level_card"
        return "level_single", card.suit, ""
    if len(cards) == 2:
        a, b = cards
        if a.is_joker or b.is_joker:
            if a != b:
                return None, None, "not_a_pair"
            return ("big_joker_pair" if a.rank == BIG_JOKER else "small_joker_pair"), None, ""
        if a.rank != level or b.rank != level:
            return None, None, "not_level_card"
        if a != b:
            return None, None, "not_a_pair"
        return "level_pair", a.suit, ""
    return None, None, "wrong_count"


def _name(trump: str | None) -> str:
    return "无主" if trump is None else f"{SUIT_SYMBOLS[trump]}为主"


def judge_declaration(
    rs: Ruleset,
    level: int | None,
    current: Sequence[tuple[int, Sequence[Card]]],
    seat: int,
    cards: Sequence[Card],
    hand: Sequence[Card] | None = None,
) -> DeclareVerdict:
    """Judge a declaration attempt against the declarations already on the table."""
    tiers = (
        rs.declare_tiers_enhanced
        if (rs.has_option("enhanced_joker_override") and rs.option("enhanced_joker_override"))
        else rs.declare_tiers
    )
    standing: Declaration | None = None
    for s, cs in current:
        tier, trump, why = _tier_of(level, cs)
        if tier is None:
            continue
        standing = Declaration(s, tuple(cs), tier, trump)
    keep_trump = standing.trump if standing else None
    keep_seat = standing.seat if standing else None
    shown = format_cards(cards)

    def refuse(reason: str, text: str) -> DeclareVerdict:
        return DeclareVerdict(False, keep_trump, keep_seat, reason, "拒绝亮主：" + text)

    if hand is not None and not is_subset(cards, hand):
        return refuse("not_in_hand", f"{shown} 不在亮主者的手牌中。")
    tier, trump, why = _tier_of(level, cards)
    if standing is not None and len(cards) == 1:
        return refuse(
            "not_stronger",
            f"已有{TIER_NAMES[standing.tier]}亮主（第{standing.seat}位，{_name(standing.trump)}），"
            "单张不能再亮，反主必须用更高等级的对子。",
        )
    if tier is None:
        texts = {
            "single_joker": f"{shown} 是单张王：王必须成对才能亮（无主）。",
            "not_level_card": f"{shown} 不是级牌，只有级牌或对王可以亮主。",
            "not_a_pair": f"{shown} 不是对子：对子必须是两张完全相同的牌。",
            "wrong_count": f"{shown} 张数不对：亮主用一张级牌或一对。",
        }
        return refuse(why, texts[why])
    if tier not in tiers:
        return refuse("not_allowed", f"本规则不能用{TIER_NAMES[tier]}亮主。")
    if standing is not None:
        if tiers[tier] <= tiers[standing.tier]:
            return refuse(
                "not_stronger",
                f"{TIER_NAMES[tier]}不比桌上的{TIER_NAMES[standing.tier]}（第{standing.seat}位，"
                f"{_name(standing.trump)}）等级高，不能反主。",
            )
        if (
            standing.seat == seat
            and rs.declare_self_override == "same_suit_only"
            and trump != standing.trump
        ):
            return refuse("self_override", "自己亮的主只能用同花色的对子加固，不能自己反自己。")
    action = "反主" if standing is not None else "亮主"
    return DeclareVerdict(
        True,
        trump,
        seat,
        "",
        f"接受{action}：第{seat}位用{TIER_NAMES[tier]} {shown} {action}，{_name(trump)}。",
    )


@dataclass(frozen=True)
class FlipResult:
    """Trump decided by turning a kitty card when nobody declared."""

    trump: str | None
    card: Card
    explanation: str


def flip_trump(rs: Ruleset, level: int | None, kitty: Sequence[Card]) -> FlipResult:
    """Turn the configured kitty card and name the trump it decides."""
    from .errors import PlayError

    if not rs.has_flip:
        raise PlayError(f"{rs.title}没有翻底牌定主", field="kind")
    index = int(rs.option("flip_card")) if rs.has_option("flip_card") else 1
    if len(kitty) < index:
        raise PlayError(f"底牌只有 {len(kitty)} 张，翻不到第 {index} 张", field="kitty")
    card = kitty[index - 1]
    if card.is_joker:
        what = "王，打无主"
        trump = None
    elif card.rank == level:
        what = f"级牌，以其花色{SUIT_SYMBOLS[card.suit]}为主"
        trump = card.suit
    else:
        what = f"普通牌，以其花色{SUIT_SYMBOLS[card.suit]}为主"
        trump = card.suit
    return FlipResult(
        trump, card, f"无人亮主：翻底牌第 {index} 张 {format_cards([card])}，是{what}。"
    )
