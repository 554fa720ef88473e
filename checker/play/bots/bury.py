"""Burying the kitty (埋牌): emptying short suits when strong, keeping controlled short suits
and point cards when weak, trumps last (unexposed level cards before exposed ones)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from checker.engine.cards import SUIT_SYMBOLS, Card, remove_cards
from checker.engine.combos import SINGLE, Unit
from checker.engine.order import TRUMP, Context
from checker.engine.scoring import kitty_bonus

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


# The most a void may put at risk: the points under the kitty as the attackers would count them
# on taking the last trick with a single (the least a kitty loss costs). One 5 doubled is worth
# emptying a suit; a 10 or a K (20 at risk) is not — a buried ♥10 turned a hold into a loss.
RISK_LIMIT = 10


def points_at_risk(ctx: Context, hand: Sequence[Card], cards: Sequence[Card]) -> int:
    """Count what these cards under the kitty give the attackers if they take the last trick
    with a single trump (the ruleset's least multiplier); 0 when they hold no points."""
    if not any(c.points for c in cards):
        return 0
    lone = next((c for c in hand if ctx.key[c][0] == TRUMP), None)
    if lone is None:
        return 2 * sum(c.points for c in cards)
    return kitty_bonus(ctx, [lone], cards).bonus


def _voids(
    ctx: Context,
    hand: Sequence[Card],
    side: dict[str, list[Card]],
    controlled: set[str],
    k: int,
    weigh_risk: bool,
) -> tuple[list[Card], list[str]]:
    """Choose the short side suits a strong hand empties (seed 000: 绝门 to ruff later), shortest
    first, keeping controlled suits and suits with their ace; with `weigh_risk`, a suit whose
    points would cost more than RISK_LIMIT under the kitty is kept while blanks can go instead."""
    chosen: list[Card] = []
    rules: list[str] = []
    for g, cs in sorted(side.items(), key=lambda item: (len(item[1]), item[0])):
        if g in controlled or len(cs) > k - len(chosen):
            continue
        if any(c.rank == 14 for c in cs):
            continue  # a suit with its ace is kept: it can win tricks and be led later
        risk = points_at_risk(ctx, hand, cs) if weigh_risk else 0
        spare = [c for h, others in side.items() if h != g for c in others if not c.points]
        if risk > RISK_LIMIT and len(spare) >= k - len(chosen):
            rules.append(f"risky:{g}:{risk}")
            continue
        chosen += cs
        rules.append(f"void:{g}")
    return chosen, rules


def plan_bury(
    ctx: Context, view: PlayerView, *, weigh_risk: bool = False
) -> tuple[list[Card], list[str]]:
    """Choose the kitty for a v2 bot and list the rules that chose it, in order.

    `weigh_risk` (the table's bury hint) keeps a pointed short suit whose points would cost more
    under the kitty than the void gains; the bots bury as seed 000 says (a strong hand may put a
    point pair under the kitty). A banker alone (二七王) needs its voids to ruff against two
    attackers, so there the risk is never weighed: over 300 v2 rounds keeping the pointed suit
    lost more rounds (banker 39 → 30) than the kitty saved."""
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
        weigh = weigh_risk and not view.ruleset.banker_plays_alone
        chosen, rules = _voids(ctx, hand, side, controlled, k, weigh)
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


def decide_bury(bot: str, view: PlayerView, *, weigh_risk: bool = False) -> Decision:
    """Decide a v2 kitty with its reason in plain words: what it empties, what it keeps and
    the points it leaves at risk if the attackers take the last trick (`weigh_risk`: the hint's
    caution, see plan_bury)."""
    ctx = view.ctx
    assert ctx is not None
    cards, rules = plan_bury(ctx, view, weigh_risk=weigh_risk)
    points = sum(c.points for c in cards)
    risk = points_at_risk(ctx, view.hand, cards)
    voids = "".join(SUIT_SYMBOLS[r.split(":")[1]] for r in rules if r.startswith("void:"))
    risky = [r.split(":")[1:] for r in rules if r.startswith("risky:")]
    strong = is_strong_hand(ctx, view.hand)
    zh, en = [], []
    if voids:
        zh.append(f"主牌够强，把{voids}扣光，以后这门可以用主牌杀")
        en.append(f"trumps are strong: empties {voids} so that suit can be ruffed later")
    elif strong:
        zh.append("主牌够强，但没有能扣光的短门")
        en.append("trumps are strong, but no short suit can be emptied")
    else:
        zh.append("手牌偏弱：尽量不扣分牌")
        en.append("a weak hand: keeps point cards out of the kitty")
    for g, at in risky:
        zh.append(f"不扣光{SUIT_SYMBOLS[g]}：里面的分若被抠底要算 {at} 分，不值")
        en.append(f"keeps {SUIT_SYMBOLS[g]}: its points would count {at} if the kitty is lost")
    zh.append("留着有 A 或能自己控制的短门")
    en.append("keeps short suits it controls (with an ace)")
    if "trumps" in rules:
        zh.append("副牌不够，扣最小的主（先扣没亮过的级牌）")
        en.append("short of side cards, buries the smallest trumps (unshown level cards first)")
    if risk:
        tail_zh = f"扣下 {{cards}}，共 {points} 分：闲家抠底至少算 {risk} 分"
        tail_en = f"buries {{cards}}, {points} points: at least {risk} if the kitty is lost"
    else:
        tail_zh, tail_en = "扣下 {cards}，没有分", "buries {cards}, no points"
    return decided(
        bot,
        "bury.plan",
        cards,
        "扣底：" + "；".join(zh) + "。" + tail_zh + "。",
        "kitty: " + "; ".join(en) + ". It " + tail_en + ".",
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
