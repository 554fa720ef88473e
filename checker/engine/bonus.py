"""Settlement bonuses (二七王 算奖, 傍王) and the banker's reveal duty."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .cards import Card, format_card, format_rank, parse_rank
from .combos import _units_from
from .errors import PlayError
from .order import TRUMP, Context
from .ruleset import Ruleset
from .texts import EN, Lang, Say, Spoken, count_en, pick


@dataclass(frozen=True)
class BonusResult(Spoken):
    """The bonus count of one player and its named parts."""

    bonus: int
    items: tuple[str, ...]
    say: Say = field(repr=False, compare=False)


@dataclass(frozen=True)
class RevealResult(Spoken):
    """Whether the banker must reveal hand statistics, and which."""

    required: bool
    items: tuple[str, ...]
    say: Say = field(repr=False, compare=False)


def _best(table: Mapping[Any, Any], count: int) -> int:
    """Return the value of the highest threshold reached in a {copies: value} table."""
    return max((int(v) for k, v in table.items() if count >= int(k)), default=0)


def _rank_tables(table: Mapping[Any, Any], hand: Sequence[Card]) -> Iterable[tuple[int, int, Any]]:
    """Yield (rank, copies held, the rank's entry) for each rank a ruleset table lists."""
    for key, entry in table.items():
        rank = parse_rank(str(key))
        yield rank, sum(1 for c in hand if c.rank == rank and not c.is_joker), entry


def _chain(ctx: Context, hand: Sequence[Card]) -> list[str]:
    """List the pairs of the consecutive chain from the top non-joker trump tier downwards."""
    counts = Counter(hand)
    pairs_at: dict[int, Card] = {}
    for card, n in counts.items():
        group, pos = ctx.key[card]
        if group == TRUMP and n >= 2 and not card.is_joker:
            pairs_at.setdefault(pos, card)
    tiers = ctx.tiers[TRUMP]
    chain: list[str] = []
    for pos in range(len(tiers) - 1, -1, -1):
        if tiers[pos][0].is_joker:
            continue
        if pos not in pairs_at:
            break
        chain.append(format_card(pairs_at[pos]) * 2)
    return chain


def count_bonus(ctx: Context, hand: Sequence[Card], role: str) -> BonusResult:
    """Count a player's 算奖 at settlement: banker combinations, and 傍王 when switched on."""
    rs: Ruleset = ctx.ruleset
    rules = rs.bonus_rules
    if rules is None:
        raise PlayError(f"{rs.title}没有算奖", en=f"{rs.name} has no bonus count", field="kind")
    if role not in ("banker", "defender"):
        raise PlayError(
            f"role 应为 banker 或 defender，而不是“{role}”",
            en=f"role must be banker or defender, not “{role}”",
            field="role",
        )
    jokers = sum(1 for c in hand if c.is_joker)
    # Each part of the count as (item, value, Chinese words, English words).
    if role == "banker":
        found = _banker_bonus(ctx, rules, hand, jokers)
    else:
        found = [("", 0, "闲家不计常规算奖", "no regular bonus for a defender")]
    if rs.has_option("bangwang") and rs.option("bangwang") and jokers:
        found.append(
            (
                f"傍王:{jokers}",
                jokers,
                f"傍王每张王 1 奖，共 {jokers} 奖",
                f"bangwang, 1 per joker = {jokers}",
            )
        )
    total = sum(value for _, value, _, _ in found)
    items = tuple(item for item, _, _, _ in found if item)
    parts = tuple((zh, en) for _, _, zh, en in found)
    return BonusResult(total, items, partial(_bonus_words, parts, role, total))


def _banker_bonus(
    ctx: Context, rules: Mapping[str, Any], hand: Sequence[Card], jokers: int
) -> list[tuple[str, int, str, str]]:
    """List the banker's bonus combinations: jokers, ranks, and the chain of pairs."""
    found: list[tuple[str, int, str, str]] = []
    value = _best(rules["jokers"], jokers)
    if value:
        name = {3: "三王", 4: "四王"}.get(jokers, f"{jokers}张王")
        name_en = {3: "three jokers", 4: "four jokers"}.get(jokers, f"{jokers} jokers")
        found.append((f"{name}:{value}", value, f"{name} {value} 奖", f"{name_en} = {value}"))
    for rank, count, table in _rank_tables(rules["ranks"], hand):
        value = _best(table, count)
        if value:
            name = f"{count}个{format_rank(rank)}"
            en = f"{count_en(count, 'card')} of rank {format_rank(rank)} = {value}"
            found.append((f"{name}:{value}", value, f"{name} {value} 奖", en))
    if jokers >= int(rules.get("chain_needs_jokers", 3)) and ctx.trump is not None:
        chain = _chain(ctx, hand)
        if chain:
            n, links = len(chain), "-".join(chain)
            zh, en = (
                f"连续对子 {links} 共 {n} 奖",
                f"{count_en(n, 'consecutive pair')} {links} = {n}",
            )
            found.append((f"连续对子{n}对:{n}", n, zh, en))
    return found


def _bonus_words(parts: tuple[tuple[str, str], ...], role: str, total: int, lang: Lang) -> str:
    """Say each part of the count and the total."""
    words = [en if lang == EN else zh for zh, en in parts]
    text = pick(lang, "；", "; ").join(words) or pick(
        lang, "没有达到任何算奖组合", "no bonus combination reached"
    )
    who = pick(lang, "庄家", "Banker") if role == "banker" else pick(lang, "闲家", "Defender")
    return pick(lang, f"{who}：{text}，合计 {total} 奖。", f"{who}: {text}; total bonus {total}.")


def reveal_duty(ctx: Context, hand: Sequence[Card]) -> RevealResult:
    """Tell what the banker must show the defenders after burying (counts, never the cards)."""
    rules = ctx.ruleset.reveal_rules
    if rules is None:
        raise PlayError(
            f"{ctx.ruleset.title}没有亮牌规则",
            en=f"{ctx.ruleset.name} has no reveal rule",
            field="kind",
        )
    jokers = sum(1 for c in hand if c.is_joker)
    permanent = {r for r in ctx.ruleset.trump_ranks if isinstance(r, int)}
    fixed = jokers + sum(1 for c in hand if c.rank in permanent and not c.is_joker)
    counts = list(_rank_tables(rules["ranks"], hand))
    items: list[str] = []
    items_en: list[str] = []
    if fixed >= int(rules["fixed_trumps"]):
        trumps = [c for c in hand if ctx.key[c][0] == TRUMP]
        units = _units_from(ctx, trumps)
        pairs = sum(u.length if u.kind == "tractor" else 1 for u in units if u.kind != "single")
        tractors = sum(1 for u in units if u.kind == "tractor")
        items.append(f"{len(trumps)}张主，{pairs}对主带{tractors}拖")
        items_en.append(
            f"{count_en(len(trumps), 'trump')}, {count_en(pairs, 'trump pair')} "
            f"with {count_en(tractors, 'tractor')}"
        )
    if jokers >= int(rules["jokers"]):
        items.append(f"{jokers}张王")
        items_en.append(count_en(jokers, "joker"))
    for rank, count, need in counts:
        if count >= int(need):
            items.append(f"{count}张{format_rank(rank)}")
            items_en.append(f"{count_en(count, 'card')} of rank {format_rank(rank)}")
    if not items:

        def nothing(lang: Lang) -> str:
            if lang == EN:
                held = "".join(
                    f", {count_en(n, 'card')} of rank {format_rank(r)}" for r, n, _ in counts
                )
                return (
                    f"{count_en(fixed, 'fixed trump')}, {count_en(jokers, 'joker')}{held}: "
                    "none reaches its threshold, so nothing needs to be revealed."
                )
            held = "".join(f"、{format_rank(r)} {n} 张" for r, n, _ in counts)
            return f"固定主 {fixed} 张、王 {jokers} 张{held}：都未达门槛，不需亮牌。"

        return RevealResult(False, (), nothing)

    def reveal(lang: Lang) -> str:
        if lang == EN:
            return (
                "The banker must show the defenders: "
                + "; ".join(items_en)
                + " (counts and structure only, not the cards)."
            )
        return "庄家须向闲家亮出：" + "；".join(items) + "（只亮数量与结构，不亮牌面）。"

    return RevealResult(True, tuple(items), reveal)
