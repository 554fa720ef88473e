"""Following a lead (跟牌): staying legal for every lead shape, feeding a winning partner,
winning cheaply, ruffing or blocking when void, and discarding (垫牌) when not."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from checker.engine.cards import Card, remove_cards
from checker.engine.combos import THROW, Combo, classify
from checker.engine.order import TRUMP, Context

from ..players import Decision, PlayerView
from .memory import Memory
from .moves import (
    broken_wide,
    cost,
    follow_options,
    in_group,
    ruff_options,
    strength_cost,
    winner_now,
    wins,
)
from .strength import trump_ranks
from .words import decided

# Points a void suit may still hold unseen before spending a 10 or a 5 on voiding it pays.
VOID_POINTS_OVER = 20
# The most points a void-making discard may give up.
VOID_COST_MAX = 10
# Order of point trumps when collecting points with a ruff: 10, then K, then 5.
POINT_ORDER = {10: 0, 13: 1, 5: 2}


@dataclass(frozen=True)
class Style:
    """What a bot version does when following (v1: the plain rules; v2: every refinement)."""

    name: str
    safe_feed: bool
    block: bool
    void_discards: bool
    last_seat: bool
    hold_high: bool = False
    # Overruff chance under which a middle seat ruffs cheaply instead of blocking (0: always block).
    block_risk: float = 0.0


def same_side(view: PlayerView, a: int, b: int) -> bool:
    """Tell whether two seats are partners (seats of one parity under four players)."""
    return view.ruleset.is_same_side(a, b, view.banker)


def seats_after(view: PlayerView) -> list[int]:
    """List the seats still to play in this trick after this one."""
    n = view.ruleset.players
    left = n - len(view.trick) - 1
    return [(view.seat + k) % n for k in range(1, left + 1)]


def can_take_later(
    ctx: Context, mem: Memory, lead: Combo, winning: Sequence[Card], seats: Sequence[int]
) -> bool:
    """Tell whether any of these seats might still beat the winning play, given what is known."""
    group = lead.group or ""
    key = ctx.key
    ruffed = group != TRUMP and all(key[c][0] == TRUMP for c in winning)
    top = classify(ctx, list(winning)).units
    for seat in seats:
        void_here = mem.is_void(seat, group)
        may_ruff = group != TRUMP and void_here and not mem.is_void(seat, TRUMP)
        if ruffed:
            # A ruff of a throw is over-ruffed unit by unit in its own shapes only.
            wider = lead.type != THROW
            if may_ruff and any(mem.can_be_beaten(u, TRUMP, wider=wider) for u in top):
                return True
            continue
        if may_ruff:
            return True
        if not void_here and lead.type != THROW and mem.can_be_beaten(top[0], group):
            return True
    return False


def overruff_chance(mem: Memory, group: str, seats: Sequence[int], held: int) -> float:
    """Estimate the highest chance that one of these seats is void in the group with trumps left."""
    return max(
        (mem.void_chance(s, group, held) for s in seats if not mem.is_void(s, TRUMP)), default=0.0
    )


def block_threshold(ctx: Context, mem: Memory) -> int:
    """Position a blocking ruff must exceed: trump K, or trump 10 once both Ks are out."""
    trump = ctx.trump
    if trump is None:
        return -1
    for rank in (13, 10):
        card = Card(trump, rank)
        if card not in ctx.key or ctx.key[card][0] != TRUMP or rank == ctx.level:
            continue
        if mem.unseen[card] > 0 or rank == 10:
            return ctx.key[card][1]
    return -1


def discard(
    ctx: Context,
    mem: Memory,
    pool: Sequence[Card],
    k: int,
    style: Style,
    *,
    feed: bool,
    spend: bool = True,
) -> tuple[list[Card], str]:
    """Choose k cards to discard from pool (the hand without the forced cards) and say how.

    `spend=False` never spends points on a void (a partner wins a trick that may still fall).
    """
    key = ctx.key
    left = list(pool)
    chosen: list[Card] = []
    how = "smallest"

    def take(cards: Sequence[Card]) -> None:
        nonlocal left
        chosen.extend(cards)
        left = remove_cards(left, cards)

    if feed:
        feeding = sorted(
            (c for c in left if key[c][0] != TRUMP and c.points),
            key=lambda c: (-c.points, key[c][1]),
        )
        if feeding:
            take(feeding[: k - len(chosen)])
            how = "feed"
    if style.void_discards and not feed and len(chosen) < k:
        suits = Counter(key[c][0] for c in left if key[c][0] != TRUMP)
        for suit, _ in sorted(suits.items(), key=lambda item: (item[1], item[0])):
            room = k - len(chosen)
            cards = [c for c in left if key[c][0] == suit]
            if not cards or len(cards) > room:
                continue
            if any(
                not mem.can_be_beaten(u, suit)
                for u in classify(ctx, cards).units
                if u.kind == "single"
            ):
                continue  # a master card is a trick: do not throw it away for a void
            points = sum(c.points for c in cards)
            trumps_kept = any(key[c][0] == TRUMP for c in left)
            if points == 0:
                take(cards)
                how = "void"
            elif (
                spend
                and points <= VOID_COST_MAX
                and trumps_kept
                and mem.unseen_points(suit) > VOID_POINTS_OVER
            ):
                take(cards)
                how = "void_points"
    held = Counter(pool)
    if len(chosen) < k:
        # A card of a 三条 (several decks) goes last among the plain ones: the set can win a trick.
        side_plain = sorted(
            (c for c in left if key[c][0] != TRUMP and not c.points),
            key=lambda c: (held[c] >= 3, key[c][1], c),
        )
        take(side_plain[: k - len(chosen)])
    if len(chosen) < k:
        side_points = sorted(
            (c for c in left if key[c][0] != TRUMP), key=lambda c: (c.points, key[c][1], c)
        )
        spent = side_points[: k - len(chosen)]
        take(spent)
        if how == "smallest" and any(c.points for c in spent):
            how = "low_points"  # said only when point cards were in fact discarded
    if len(chosen) < k:
        fixed = trump_ranks(ctx.ruleset, ctx.level)
        trumps = sorted(
            left, key=lambda c: (c.is_joker, c.rank in fixed, c.points > 0, key[c][1], c)
        )
        take(trumps[: k - len(chosen)])
        how = {"smallest": "smallest_trumps", "low_points": "low_points_trumps"}.get(how, how)
    return chosen, how


DISCARD_WORDS = {
    "smallest": ("垫最小的非分副牌 {cards}", "discards the smallest pointless side cards {cards}"),
    "feed": (
        "伙伴赢牌且后手对手无法再压：垫分 {cards}",
        "partner is winning and no later opponent can take it: feeds points {cards}",
    ),
    "void": (
        "从最短副牌门垫牌，争取造成缺门：{cards}",
        "discards from the shortest side suit to make a void: {cards}",
    ),
    "void_points": (
        "该门手外未见分超过 20 且留有主牌：花分制造缺门 {cards}，准备以后将吃",
        "over 20 points of that suit unseen and a trump kept: spends {cards} to make a void and ruff it later",
    ),
    "low_points": (
        "只有分牌可垫：先垫低分牌（5 先于 10/K）{cards}",
        "only point cards left to discard: the low ones first (5 before 10/K) {cards}",
    ),
    "low_points_trumps": (
        "副牌只剩分牌，不够垫：先垫低分副牌，再垫最小的主（保留级牌和王）{cards}",
        "the side cards left are point cards and too few: the low ones first, then the smallest "
        "trumps (keeping level cards and jokers) {cards}",
    ),
    "smallest_trumps": (
        "没有可垫的副牌，垫最小的主（保留级牌和王）{cards}",
        "no side cards to discard: the smallest trumps (keeping level cards and jokers) {cards}",
    ),
}


def discarding(
    style: Style,
    ctx: Context,
    mem: Memory,
    pool: Sequence[Card],
    k: int,
    rule: str,
    zh: str,
    en: str,
    *,
    feed: bool = False,
    forced: Sequence[Card] = (),
) -> Decision:
    """Decide a follow that plays the forced cards and discards k more, saying why."""
    fill, how = discard(ctx, mem, pool, k, style, feed=feed)
    how_zh, how_en = DISCARD_WORDS[how]
    return decided(style.name, f"follow.{rule}_{how}", [*forced, *fill], zh + how_zh, en + how_en)


def decide_follow(style: Style, view: PlayerView, mem: Memory) -> Decision:
    """Decide a follow for the view's trick under a bot version's style."""
    ctx, lead, hand = view.ctx, view.lead, view.hand
    assert ctx is not None and lead is not None
    bot = style.name
    plays = [list(cards) for _, cards in view.trick]
    n = len(lead.cards)
    now = winner_now(ctx, plays)
    partner_wins = same_side(view, view.trick[now][0], view.seat)
    later = [s for s in seats_after(view) if not same_side(view, s, view.seat)]
    trick_points = sum(c.points for p in plays for c in p)
    # Fed only when safe: no later opponent can still take the trick (asked only then).
    feed = partner_wins and (
        not style.safe_feed or not later or not can_take_later(ctx, mem, lead, plays[now], later)
    )
    suit = in_group(ctx, lead.group, hand)
    key = ctx.key

    if len(suit) > n:
        held = Counter(hand)
        options = follow_options(
            ctx,
            lead,
            hand,
            [
                lambda c: (c.points, key[c][1]),
                lambda c: (-key[c][1],),
                lambda c: (-c.points, key[c][1]),
            ],
        )
        if partner_wins:
            if feed:
                best = max(
                    options, key=lambda p: (sum(c.points for c in p), [-x for x in cost(ctx, p)])
                )
                if sum(c.points for c in best):
                    return decided(
                        bot,
                        "follow.feed",
                        best,
                        "伙伴赢牌且无人能再压：跟牌喂分 {cards}",
                        "partner is winning and safe: follows with points {cards}",
                    )
            best = min(
                options,
                key=lambda p: (broken_wide(held, p), sum(c.points for c in p), cost(ctx, p)),
            )
            return decided(
                bot,
                "follow.partner_small",
                best,
                "伙伴领先：跟最小的牌 {cards}",
                "partner is winning: follows with the smallest cards {cards}",
            )
        winning = [p for p in options if wins(ctx, plays, p)]
        if winning and style.hold_high and later and trick_points == 0:
            best = min(winning, key=lambda p: strength_cost(ctx, p))
            if can_take_later(ctx, mem, lead, best, later):
                # A pointless trick a later opponent can still take: keep the high cards.
                winning = []
        if winning:
            best = min(winning, key=lambda p: (broken_wide(held, p), strength_cost(ctx, p)))
            return decided(
                bot,
                "follow.beat_cheapest",
                best,
                "同花色争胜：用能压过当前赢家的最小牌 {cards}",
                "contests in suit: the cheapest cards that beat the current winner {cards}",
            )
        best = min(
            options, key=lambda p: (broken_wide(held, p), sum(c.points for c in p), cost(ctx, p))
        )
        return decided(
            bot,
            "follow.cannot_win",
            best,
            "压不过：跟最小的非分牌 {cards}",
            "cannot win: follows with the smallest pointless cards {cards}",
        )

    rest = remove_cards(hand, suit)
    k = n - len(suit)
    if suit and k == 0:
        return decided(
            bot,
            "follow.all_of_suit",
            suit,
            "同花色正好够张：全部跟出 {cards}",
            "exactly enough of the suit: plays all of it {cards}",
        )
    if suit or lead.group == TRUMP:
        return discarding(
            style,
            ctx,
            mem,
            rest,
            k,
            "short",
            "同花色不够：出尽该门，余下",
            "short of the suit: plays all of it, and ",
            feed=feed,
            forced=suit,
        )

    # Void in a side suit: ruff, block or discard.
    ruffs = [r for r in ruff_options(ctx, lead, hand) if wins(ctx, plays, r)]
    if partner_wins or not ruffs:
        fill, how = discard(ctx, mem, rest, k, style, feed=feed, spend=not partner_wins)
        zh, en = DISCARD_WORDS[how]
        if (
            not partner_wins
            and lead.type == THROW
            and ruff_options(ctx, lead, hand) == []
            and any(key[c][0] == TRUMP for c in hand)
        ):
            zh, en = (
                "散主杀不了该甩牌（结构不符），" + zh,
                "loose trumps cannot ruff this throw (wrong shape); " + en,
            )
        return decided(bot, f"follow.void_{how}", fill, "缺门：" + zh, "void: " + en)
    cheapest = min(ruffs, key=lambda r: strength_cost(ctx, r))
    plain_ruff = decided(
        bot,
        "follow.ruff",
        cheapest,
        "缺门将吃：用最小的能赢的主 {cards}",
        "void: ruffs with the smallest winning trumps {cards}",
    )
    if not style.last_seat:
        return plain_ruff
    unbeatable = not later or not any((not mem.is_void(s, TRUMP)) for s in later)
    if unbeatable:
        pointed = [r for r in ruffs if any(c.points for c in r)]
        if pointed:
            best = min(
                pointed,
                key=lambda r: (min(POINT_ORDER.get(c.rank, 3) for c in r), strength_cost(ctx, r)),
            )
            where_zh = "末家" if not later else "后手对手已示缺主"
            where_en = "last to play" if not later else "the later opponents have shown no trumps"
            return decided(
                bot,
                "follow.collect_points",
                best,
                f"{where_zh}，无人能盖：用带分的主将吃收分（10→K→5）{{cards}}",
                f"{where_en}, nobody can overruff: ruffs with a point trump (10, then K, then 5) {{cards}}",
            )
        if trick_points > 0:
            return decided(
                bot,
                "follow.ruff_no_waste",
                cheapest,
                "无盖杀风险：用最小的主毙牌，不浪费大主 {cards}",
                "no overruff risk: ruffs with the smallest trump, wasting no big one {cards}",
            )
        return discarding(
            style,
            ctx,
            mem,
            rest,
            k,
            "keep_trumps",
            "本墩 0 分：不上主，",
            "a pointless trick: keeps the trumps, ",
        )
    if style.block and overruff_chance(mem, lead.group or "", later, len(hand)) < style.block_risk:
        return decided(
            bot,
            "follow.ruff_low_risk",
            cheapest,
            "后手对手多半还有该门、难以盖杀：用最小的能赢的主将吃 {cards}",
            "the later opponent most likely still holds the suit and cannot overruff: ruffs with the smallest winning trump {cards}",
        )
    if style.block:
        threshold = block_threshold(ctx, mem)
        high = [r for r in ruffs if min(key[c][1] for c in r) > threshold]
        if high:
            best = min(high, key=lambda r: strength_cost(ctx, r))
            return decided(
                bot,
                "follow.block",
                best,
                "中间位主动封分：用大于主K（两张主K已出则大于主10）的最小主牌 {cards}",
                "middle seat blocks: the smallest trump above the trump K (above the 10 once both Ks are out) {cards}",
            )
        if trick_points >= 10:
            return decided(
                bot,
                "follow.ruff_points",
                cheapest,
                "墩上有分：用最小的能赢的主将吃 {cards}",
                "points on the trick: ruffs with the smallest winning trump {cards}",
            )
        return discarding(
            style,
            ctx,
            mem,
            rest,
            k,
            "no_block",
            "没有大于主K的主牌，不将吃：",
            "no trump above the trump K, so no ruff: ",
        )
    return plain_ruff
