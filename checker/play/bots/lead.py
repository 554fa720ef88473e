"""Leading a trick (领牌): unbeatable pairs and tractors, throws whose every unit is
unbeatable given what is known, a short suit thrown out whole, and a plain lead otherwise."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from checker.engine.cards import Card
from checker.engine.combos import SINGLE, THROW, Unit, classify
from checker.engine.order import TRUMP, Context
from checker.engine.throws import beats_wider_in_throw

from ..players import Decision, groups_of, lead_units
from .memory import Memory
from .strength import trump_count
from .words import decided


def beater_of(
    mem: Memory, unit: Unit, group: str, *, in_throw: bool = False
) -> tuple[Card, ...] | None:
    """Find a unit the unseen cards can make that beats this one, led alone or (in_throw) as a
    unit of a throw; None when there is none."""
    return mem.beater(unit, group, wider=_wider(mem, in_throw))


def is_unbeatable(mem: Memory, unit: Unit, group: str, *, in_throw: bool = False) -> bool:
    """Tell whether no unseen cards of the group can make a unit beating this one, led alone
    or (in_throw) as a unit of a throw."""
    return not mem.can_be_beaten(unit, group, wider=_wider(mem, in_throw))


def _wider(mem: Memory, in_throw: bool) -> bool:
    """Tell whether a wider unit with as many cards beats one led alone or (in_throw) in a throw."""
    return beats_wider_in_throw(mem.ctx.ruleset) if in_throw else True


def is_unbeatable_pair(ctx: Context, mem: Memory, cards: Sequence[Card]) -> bool:
    """Tell whether a pair cannot be beaten: every higher card has a copy accounted for."""
    combo = classify(ctx, cards)
    if combo.type != "pair":
        return False
    return is_unbeatable(mem, combo.units[0], combo.group or "")


def safe_part(ctx: Context, mem: Memory, cards: Sequence[Card]) -> list[Card]:
    """Keep the units of one group's cards that nobody can beat (lone singles only when safe)."""
    if not cards:
        return []
    combo = classify(ctx, cards)
    group = ctx.key[cards[0]][0]
    out: list[Card] = []
    for unit in combo.units:
        if is_unbeatable(mem, unit, group, in_throw=combo.type == THROW):
            out.extend(unit.cards)
    # Leaving a single out can join what is left into other units: check the result again.
    while out:
        again = classify(ctx, out)
        thrown = again.type == THROW
        bad = [u for u in again.units if not is_unbeatable(mem, u, group, in_throw=thrown)]
        if not bad:
            return out
        for u in bad:
            for c in u.cards:
                out.remove(c)
    return out


def is_safe_throw(ctx: Context, mem: Memory, cards: Sequence[Card]) -> bool:
    """Tell whether cards can be led together and every unit is unbeatable given what is known."""
    combo = classify(ctx, cards)
    if not combo.is_valid:
        return False
    group = combo.group or ""
    thrown = combo.type == THROW
    return all(is_unbeatable(mem, u, group, in_throw=thrown) for u in combo.units)


def is_controlled_suit(ctx: Context, mem: Memory, cards: Sequence[Card]) -> bool:
    """Tell whether a short suit can be thrown out whole safely (A, AA, AKK, AAKKQ …)."""
    return bool(cards) and is_safe_throw(ctx, mem, cards)


def _may_throw(ctx: Context, group: str, *, allowed: bool = True) -> bool:
    # `allowed` is the view's may_throw: False after a failed throw this round (rethrow ban).
    return allowed and (group == TRUMP or not ctx.ruleset.throws_trump_only)


def _top_unit(ctx: Context, cards: Sequence[Card]) -> list[Card]:
    """Keep the widest, highest unit of one group's cards (a lead that is never a throw)."""
    units = classify(ctx, cards).units
    wide = [u for u in units if u.kind != SINGLE] or list(units)
    return list(max(wide, key=lambda u: (u.size, u.top)).cards)


def ruffed_by(mem: Memory, group: str, seats: Sequence[int]) -> bool:
    """Tell whether one of these seats has shown a void in the group and no trump void."""
    return any(mem.is_void(s, group) and not mem.is_void(s, TRUMP) for s in seats)


def decide_lead(
    bot: str,
    ctx: Context,
    mem: Memory,
    hand: Sequence[Card],
    *,
    v2: bool,
    opponents: Sequence[int] = (),
    partners: Sequence[int] = (),
    may_throw: bool = True,
    partner_void: str = "first",
) -> Decision:
    """Decide a lead: safe whole suits and throws, unbeatable units, then a plain lead.

    v2 leaves out side suits an opponent has shown it can ruff, and leads low into a suit its
    partner can ruff. With `may_throw=False` (a failed throw earlier this round) every lead is
    one unit.
    """
    groups = groups_of(ctx, hand)
    side = {g: cs for g, cs in groups.items() if g != TRUMP}
    if v2:
        open_side = {g: cs for g, cs in side.items() if not ruffed_by(mem, g, opponents)}
        if partner_void == "first":
            to_partner = _to_partner(bot, ctx, mem, side, open_side, partners)
            if to_partner is not None:
                return to_partner
        if open_side:
            side = open_side
    # 1. A whole side suit that nobody can beat, shortest first: it leaves a void behind.
    whole = [
        cs
        for g, cs in side.items()
        if len(cs) > 1
        and (_may_throw(ctx, g, allowed=may_throw) or len(classify(ctx, cs).units) == 1)
        and is_controlled_suit(ctx, mem, cs)
    ]
    if whole:
        best = min(whole, key=lambda cs: (len(cs), cs))
        kind = "throw" if classify(ctx, best).type == THROW else "unit"
        return decided(
            bot,
            f"lead.whole_suit_{kind}",
            best,
            "整门甩出（每个分量都无人能压），甩完绝门：{cards}",
            "throws a whole suit out (no unit can be beaten), leaving a void: {cards}",
        )
    # 2. The unbeatable part of a side suit (a lone single waits until it is safe).
    parts = []
    for g, cs in side.items():
        part = safe_part(ctx, mem, cs)
        if not part:
            continue
        combo = classify(ctx, part)
        if not v2:
            # v1 leads only an unbeatable pair or tractor: partial throws and lone masters are
            # v2's refinements (seed rows 机器人v2策略优化 #23–#25).
            if not combo.has_pairs:
                continue
            part = _top_unit(ctx, part)
            combo = classify(ctx, part)
        elif len(combo.units) > 1 and not _may_throw(ctx, g, allowed=may_throw):
            part = _top_unit(ctx, part)
            combo = classify(ctx, part)
        parts.append((combo.has_pairs, len(part), part))
    if parts:
        has_pairs, _, best = max(parts, key=lambda t: (t[0], t[1], t[2]))
        combo = classify(ctx, best)
        if combo.type == THROW:
            return decided(
                bot,
                "lead.safe_throw",
                best,
                "甩牌：只甩无人能压的分量（孤张需更大的牌都已确认）{cards}",
                "a safe throw of only the unbeatable units (a lone single only once every higher card is accounted for) {cards}",
            )
        if has_pairs:
            return decided(
                bot,
                "lead.unbeatable_pair",
                best,
                "领无敌对子/三条/拖拉机（没有未见的牌能组成更大的同型牌）{cards}",
                "leads an unbeatable pair, set or tractor (no unseen cards can make a higher one of its shape) {cards}",
            )
        return decided(
            bot,
            "lead.master",
            best,
            "领该门最大的牌 {cards}",
            "leads the top card of the suit {cards}",
        )
    trumps = groups.get(TRUMP, [])
    if trumps:
        part = safe_part(ctx, mem, trumps)
        shown = classify(ctx, part) if part else None
        if shown is not None and shown.has_pairs and shown.is_valid:
            if len(shown.units) > 1 and not may_throw:
                part = _top_unit(ctx, part)
            elif len(shown.units) > 1:
                # A throw of trumps (the only throw 二七王 allows) whose every unit stands.
                return decided(
                    bot,
                    "lead.safe_trump_throw",
                    part,
                    "甩主牌：每个分量都无人能压 {cards}",
                    "throws trumps whose every unit is unbeatable {cards}",
                )
            return decided(
                bot,
                "lead.unbeatable_trumps",
                part,
                "领无人能压的主牌对子/拖拉机 {cards}",
                "leads trumps nobody can beat {cards}",
            )
    if v2 and partner_void == "late":
        to_partner = _to_partner(bot, ctx, mem, side, side, partners)
        if to_partner is not None:
            return to_partner
    if v2 and side and len(side) < len(groups_of(ctx, hand)) - (1 if TRUMP in groups else 0):
        kept = [c for c in hand if ctx.key[c][0] in side or ctx.key[c][0] == TRUMP]
        return _plain_lead(bot, ctx, kept, v2=v2)
    return _plain_lead(bot, ctx, hand, v2=v2)


def _to_partner(
    bot: str,
    ctx: Context,
    mem: Memory,
    side: dict[str, list[Card]],
    open_side: dict[str, list[Card]],
    partners: Sequence[int],
) -> Decision | None:
    to_partner = [g for g in open_side if ruffed_by(mem, g, partners)]
    if not to_partner:
        return None
    g = min(to_partner, key=lambda x: (len(side[x]), x))
    low = min(side[g], key=lambda c: (c.points, ctx.key[c][1]))
    return decided(
        bot,
        "lead.to_partner_void",
        [low],
        "伙伴已示缺该门：领小牌让伙伴将吃 {cards}",
        "the partner has shown a void there: leads low for the partner to ruff {cards}",
    )


def _plain_lead(bot: str, ctx: Context, hand: Sequence[Card], *, v2: bool) -> Decision:
    key = ctx.key
    groups = groups_of(ctx, hand)
    side = {g: cs for g, cs in groups.items() if g != TRUMP}
    trumps = groups.get(TRUMP, [])
    if not side:
        units = lead_units(ctx, trumps)
        pairs = [u for u in units if len(u) >= 2]
        best = (
            min(pairs, key=lambda u: (-len(u), sum(key[c][1] for c in u)))
            if pairs
            else min(units, key=lambda u: (u[0].points, key[u[0]][1]))
        )
        return decided(
            bot,
            "lead.trumps_only",
            best,
            "只剩主牌：先出成对的小主 {cards}",
            "only trumps left: leads low trumps, pairs first {cards}",
        )
    if v2 and 2 * trump_count(ctx, hand) >= len(hand) and len(trumps) >= 4:
        units = [u for u in lead_units(ctx, trumps) if len(u) >= 2]
        if units:
            best = min(units, key=lambda u: (-len(u), sum(key[c][1] for c in u)))
            return decided(
                bot,
                "lead.draw_trumps",
                best,
                "主牌占一半以上：领小主对调主 {cards}",
                "half the hand is trumps: leads a low trump pair to draw trumps {cards}",
            )
    if v2:
        # A low pointless card of the shortest side suit, to make a void for ruffing later.
        def rank(item: tuple[str, list[Card]]) -> tuple[int, int]:
            g, cs = item
            return (len(cs), min(key[c][1] for c in cs))

        for g, cs in sorted(side.items(), key=rank):
            pairs = [u for u in lead_units(ctx, cs) if len(u) >= 2 and not any(c.points for c in u)]
            if pairs:
                best = max(pairs, key=lambda u: (len(u), -sum(key[c][1] for c in u)))
                if len(best) >= 4 or key[best[0]][1] >= len(ctx.tiers[g]) - 4:
                    return decided(
                        bot,
                        "lead.side_pair",
                        best,
                        "领副牌对子/拖拉机 {cards}",
                        "leads a side-suit pair or tractor {cards}",
                    )
            copies = Counter(cs)
            # A card of a 三条 (several decks) is led last: the set can win a trick later.
            plain = sorted(
                (c for c in cs if not c.points), key=lambda c: (copies[c] >= 3, key[c][1])
            )
            if plain:
                return decided(
                    bot,
                    "lead.short_suit_low",
                    [plain[0]],
                    "从最短副牌门领小牌，争取做缺门 {cards}",
                    "leads low from the shortest side suit to make a void {cards}",
                )
    # v1 and the last resort: the longest, highest side unit (greedy).
    best_unit: list[Card] | None = None
    best_key: tuple[int, int] | None = None
    for cs in side.values():
        for unit in lead_units(ctx, cs):
            k = (len(unit), max(key[c][1] for c in unit))
            if best_key is None or k > best_key:
                best_unit, best_key = unit, k
    assert best_unit is not None
    return decided(
        bot,
        "lead.longest_high",
        best_unit,
        "领副牌中最长、最大的牌型 {cards}",
        "leads the longest, highest side-suit unit {cards}",
    )
