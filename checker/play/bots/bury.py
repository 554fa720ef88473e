"""Burying the kitty (埋牌): emptying short suits when strong, keeping controlled short suits
and point cards when weak, trumps last (unexposed level cards before exposed ones)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from checker.engine.cards import Card, remove_cards
from checker.engine.combos import SINGLE, Unit
from checker.engine.order import TRUMP, Context

from ..players import Decision, PlayerView
from .lead import is_controlled_suit
from .memory import read_memory
from .strength import is_strong_hand, trump_ranks
from .words import decided


def _exposed(view: PlayerView) -> Counter[Card]:
    shown: Counter[Card] = Counter()
    for seat, cards in view.declarations:
        if seat == view.seat:
            shown |= Counter(cards)
    return shown


def plan_bury(ctx: Context, view: PlayerView) -> tuple[list[Card], list[str]]:
    """Choose the kitty for a v2 bot and list the rules that chose it, in order."""
    hand = list(view.hand)
    k = view.ruleset.kitty_size
    key = ctx.key
    mem = read_memory(ctx, view.seat, hand, ())
    strong = is_strong_hand(ctx, hand)
    side: dict[str, list[Card]] = {}
    for c in hand:
        if key[c][0] != TRUMP:
            side.setdefault(key[c][0], []).append(c)
    controlled = {g for g, cs in side.items() if is_controlled_suit(ctx, mem, cs)}
    chosen: list[Card] = []
    rules: list[str] = []
    if strong:
        for g, cs in sorted(side.items(), key=lambda item: (len(item[1]), item[0])):
            if g in controlled or len(cs) > k - len(chosen):
                continue
            if any(c.rank == 14 for c in cs):
                continue  # a suit with its ace is kept: it can win tricks and be led later
            chosen += cs
            rules.append(f"void:{g}")
    left = remove_cards(hand, chosen)
    counts = Counter(left)
    exposed = _exposed(view)
    fixed = trump_ranks(view.ruleset, view.level)

    def multi_pair_suit(g: str) -> bool:
        pairs = [c for c in set(side.get(g, [])) if counts[c] >= 2 and c.rank != 14]
        return len(pairs) >= 2

    def rank(c: Card) -> tuple[int, ...]:
        group, pos = key[c]
        if group == TRUMP:
            level_card = c.rank in fixed and not c.is_joker
            hidden = level_card and counts[c] > exposed[c]
            # Without a trump suit the level cards are the lowest trumps: an unexposed one goes
            # under the kitty before a controlled suit is broken.
            tier = 3 if hidden and ctx.trump is None else 5
            return (tier, int(c.is_joker), c.points, pos, 0 if hidden else 1)
        if group in controlled:
            return (4, 0, c.points, pos, 0)
        # Weak hands keep their points; strong ones may put point pairs under the kitty.
        point_cost = 0 if not c.points else (1 if strong and counts[c] >= 2 else 2)
        single_guard = 1 if multi_pair_suit(group) and counts[c] < 2 else 0
        master = 0 if mem.can_be_beaten(Unit(SINGLE, (c,), pos, 0), group) else 1
        return (point_cost, single_guard, master, len(side[group]), pos)

    rest = sorted(left, key=lambda c: (rank(c), c))
    fill = rest[: k - len(chosen)]
    if fill:
        rules.append("fill")
    if any(key[c][0] == TRUMP for c in fill):
        rules.append("trumps")
    return chosen + fill, rules


def decide_bury(bot: str, view: PlayerView) -> Decision:
    """Decide a v2 kitty with its reason."""
    ctx = view.ctx
    assert ctx is not None
    cards, rules = plan_bury(ctx, view)
    points = sum(c.points for c in cards)
    voids = [r.split(":")[1] for r in rules if r.startswith("void:")]
    strong = is_strong_hand(ctx, view.hand)
    zh = (
        "强主：绝短门（" + "、".join(voids) + "），"
        if voids
        else ("强主：" if strong else "弱牌：不埋分，")
    )
    en = (
        "strong trumps: empties the short suits (" + ", ".join(voids) + "); "
        if voids
        else ("strong trumps: " if strong else "weak hand: no points buried; ")
    )
    zh += "保留可控短门（A、AA、AKK、AAKKQ）"
    en += "keeps controlled short suits (A, AA, AKK, AAKKQ)"
    if "trumps" in rules:
        zh += "，副牌不够时埋最小的主（先埋未暴露的级牌）"
        en += (
            ", and buries the smallest trumps when side cards run out (unexposed level cards first)"
        )
    return decided(
        bot,
        "bury.plan",
        cards,
        f"埋牌：{zh}；埋 {{cards}}（{points} 分）",
        f"buries: {en}; kitty {{cards}} ({points} points)",
    )


def decide_bury_simple(bot: str, view: PlayerView) -> Decision:
    """Decide a v1 kitty: the lowest side cards without points, level cards and jokers last."""
    level = view.level
    counts = Counter(view.hand)

    def price(c: Card) -> tuple[int, int, int, int]:
        permanent = c.is_joker or c.rank == level
        return (1 if permanent else 0, c.points, counts[c], c.rank)

    ranked = sorted(view.hand, key=lambda c: (price(c), c))
    cards: Sequence[Card] = ranked[: view.ruleset.kitty_size]
    return decided(
        bot,
        "bury.lowest",
        cards,
        "埋最小的无分牌，级牌和王最后：{cards}",
        "buries the lowest pointless cards, level cards and jokers last: {cards}",
    )
