"""Follow legality: whether a follow obeys suit and structure, the forced cards, an example."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, format_cards, is_subset
from .combos import Combo, Match, match_structure
from .order import Context

WRONG_COUNT = "wrong_count"
NOT_IN_HAND = "not_in_hand"
MUST_FOLLOW_SUIT = "must_follow_suit"
MUST_PLAY_PAIR = "must_play_pair"
MUST_PLAY_TRACTOR = "must_play_tractor"
REASON_TEXT = {
    WRONG_COUNT: "张数不符",
    NOT_IN_HAND: "牌不在手中",
    MUST_FOLLOW_SUIT: "没有跟花色",
    MUST_PLAY_PAIR: "有对子没出对子",
    MUST_PLAY_TRACTOR: "有拖拉机没出拖拉机",
}


def describe_match(match: Match) -> str:
    """Say in Chinese what structure a match shows, e.g. 一个2连对拖拉机和1个对子."""
    parts: list[str] = []
    pairs = match.pairs
    for pieces in match.pieces:
        for size in pieces:
            if size >= 2:
                parts.append(f"{size}连对拖拉机")
            else:
                pairs += 1
    if pairs:
        parts.append(f"{pairs}个对子")
    return "、".join(parts) if parts else "没有对子"


@dataclass(frozen=True)
class FollowVerdict:
    """The judgement of one follow: legal or not, the reason code, and why in words."""

    legal: bool
    reason: str
    ctx: Context
    lead: Combo
    hand: tuple[Card, ...]
    play: tuple[Card, ...]
    required: Match | None = None
    shown: Match | None = None

    @property
    def explanation(self) -> str:
        """Explain the verdict in Chinese, naming the rule and the cards that decided it."""
        ctx, lead = self.ctx, self.lead
        n = len(lead.cards)
        group = lead.group or ""
        gname = ctx.group_name(group)
        suit_cards = [c for c in self.hand if ctx.key[c][0] == group]
        if self.reason == WRONG_COUNT:
            return f"张数不符：领牌 {n} 张，跟牌必须同样出 {n} 张，实际出了 {len(self.play)} 张。"
        if self.reason == NOT_IN_HAND:
            return f"所出的牌 {format_cards(self.play)} 不全在手牌中。"
        if self.reason == MUST_FOLLOW_SUIT:
            if len(suit_cards) <= n:
                return (
                    f"必须跟花色：手中{gname}只有 {len(suit_cards)} 张（{format_cards(suit_cards)}），"
                    f"不超过领牌的 {n} 张，必须全部打出，其余才可任意垫。"
                )
            return (
                f"必须跟花色：手中{gname}有 {len(suit_cards)} 张，足够 {n} 张，只能出{gname}；"
                f"所出含有别的牌。"
            )
        if self.reason in (MUST_PLAY_PAIR, MUST_PLAY_TRACTOR):
            rule = (
                "有拖拉机必须出拖拉机" if self.reason == MUST_PLAY_TRACTOR else "有对子必须出对子"
            )
            need = describe_match(self.required) if self.required else ""
            shown = describe_match(self.shown) if self.shown else ""
            return (
                f"{rule}：领牌是{lead.shape() or '单张'}，手中{gname}能凑出{need}，"
                f"所出 {format_cards(self.play)} 只有{shown}。"
            )
        if not suit_cards:
            return f"合法：手中没有{gname}（缺门），可任意出 {n} 张：垫牌或用主牌杀。"
        if len(suit_cards) <= n:
            return f"合法：{gname}不足 {n} 张，已全部打出（{format_cards(suit_cards)}），其余任意。"
        need = describe_match(self.required) if self.required else "没有对子"
        if lead.has_pairs:
            return f"合法：跟{gname} {n} 张，满足领牌结构所要求的{need}。"
        return f"合法：跟{gname} {n} 张。"


def _suit_cards(ctx: Context, lead: Combo, cards: Sequence[Card]) -> list[Card]:
    group = lead.group
    key = ctx.key
    return [c for c in cards if key[c][0] == group]


def judge_follow(
    ctx: Context, lead: Combo, hand: Sequence[Card], play: Sequence[Card]
) -> FollowVerdict:
    """Judge whether playing `play` from `hand` is a legal follow to the lead."""
    hand_t, play_t = tuple(hand), tuple(play)
    n = len(lead.cards)
    if len(play_t) != n:
        return FollowVerdict(False, WRONG_COUNT, ctx, lead, hand_t, play_t)
    if not is_subset(play_t, hand_t):
        return FollowVerdict(False, NOT_IN_HAND, ctx, lead, hand_t, play_t)
    suit = _suit_cards(ctx, lead, hand_t)
    played = _suit_cards(ctx, lead, play_t)
    if len(suit) <= n:
        ok = len(played) == len(suit)
        return FollowVerdict(ok, "" if ok else MUST_FOLLOW_SUIT, ctx, lead, hand_t, play_t)
    if len(played) != n:
        return FollowVerdict(False, MUST_FOLLOW_SUIT, ctx, lead, hand_t, play_t)
    if not lead.has_pairs:
        return FollowVerdict(True, "", ctx, lead, hand_t, play_t)
    required = match_structure(ctx, lead, suit)
    shown = match_structure(ctx, lead, played)
    if shown.profile == required.profile:
        return FollowVerdict(True, "", ctx, lead, hand_t, play_t, required, shown)
    reason = MUST_PLAY_PAIR
    for need, got in zip(required.pieces, shown.pieces, strict=True):
        if need != got and max(need, default=0) >= 2:
            reason = MUST_PLAY_TRACTOR
            break
    return FollowVerdict(False, reason, ctx, lead, hand_t, play_t, required, shown)


def _forced_fill(pool: Sequence[Card], k: int) -> Counter[Card]:
    """Cards present in every choice of k cards from pool (as a multiset)."""
    counts = Counter(pool)
    total = len(pool)
    out: Counter[Card] = Counter()
    if k <= 0:
        return out
    for card, m in counts.items():
        need = k - (total - m)
        if need > 0:
            out[card] = min(need, m)
    return out


def _order_key(ctx: Context, card: Card) -> tuple[int, int, int]:
    group, pos = ctx.key[card]
    return (1 if group == "T" else 0, card.points, pos)


def generate_forced(ctx: Context, lead: Combo, hand: Sequence[Card]) -> list[Card]:
    """List the cards that every legal follow from this hand contains (the auto-hint)."""
    n = len(lead.cards)
    suit = _suit_cards(ctx, lead, hand)
    if len(suit) <= n:
        rest = [c for c in hand if ctx.key[c][0] != lead.group]
        short = Counter(suit) + _forced_fill(rest, n - len(suit))
        return ctx.sort_cards(short.elements())
    if not lead.has_pairs:
        return ctx.sort_cards(_forced_fill(suit, n).elements())
    profile = match_structure(ctx, lead, suit).profile
    counts = Counter(suit)
    forced: Counter[Card] = Counter()
    for card, m in counts.items():
        removable = 0
        trial = counts.copy()
        while removable < m:
            trial[card] -= 1
            remaining = list(trial.elements())
            if len(remaining) < n or match_structure(ctx, lead, remaining).profile != profile:
                break
            removable += 1
        if removable < m:
            forced[card] = m - removable
    return ctx.sort_cards(forced.elements())


def generate_example(ctx: Context, lead: Combo, hand: Sequence[Card]) -> list[Card]:
    """Build one legal follow: the required structure, then the cheapest other cards."""
    n = len(lead.cards)
    suit = _suit_cards(ctx, lead, hand)
    if len(suit) <= n:
        rest = sorted(
            (c for c in hand if ctx.key[c][0] != lead.group), key=lambda c: _order_key(ctx, c)
        )
        return ctx.sort_cards(suit + rest[: n - len(suit)])
    chosen = list(match_structure(ctx, lead, suit).cards) if lead.has_pairs else []
    left = Counter(suit) - Counter(chosen)
    fill = sorted(left.elements(), key=lambda c: _order_key(ctx, c))
    return ctx.sort_cards(chosen + fill[: n - len(chosen)])
