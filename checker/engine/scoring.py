"""Kitty bonus and round scoring: multipliers, bands, level rises and the next level."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from .cards import Card, count_points, format_cards, format_rank
from .combos import SINGLE, Unit, _units_from, type_name
from .errors import PlayError
from .order import TRUMP, Context
from .ruleset import EmptyKitty, KittyOnBankerWin, KittyPolicy, Ruleset, ScoreBand
from .texts import Lang, Say, Spoken, cards_text, count_en, pick
from .vocab import term

ATTACKERS = "attackers"
BANKER = "banker"
SIDES = (ATTACKERS, BANKER)


@dataclass(frozen=True)
class KittyResult(Spoken):
    """The kitty bonus the attackers add when they win the last trick."""

    multiplier: int
    kitty_points: int
    bonus: int
    say: Say = field(repr=False, compare=False)


def kitty_bonus(
    ctx: Context,
    play: Sequence[Card],
    kitty: Sequence[Card],
    *,
    side: str = ATTACKERS,
    trick_points: int | None = None,
) -> KittyResult:
    """Compute the kitty multiplier from the play that won the last trick, and the bonus.

    `side` is who won the last trick (attackers or banker); `trick_points` are the last
    trick's points, multiplied instead where the ruleset says so and there is no kitty.
    """
    play, kitty = tuple(play), tuple(kitty)  # the words are rendered later
    _check_last_trick(play, side)
    if ctx.ruleset.kitty.policy == KittyPolicy.BY_CARDS:
        return _kitty_by_cards(ctx, play, kitty, side, trick_points)
    if side == BANKER:

        def banker_side(lang: Lang) -> str:
            return pick(
                lang,
                "最后一墩由庄家方赢得，不算扣底，底牌分不计入闲家。",
                "The banker's side won the last trick: no kitty bonus for the attackers.",
            )

        return KittyResult(0, count_points(kitty), 0, banker_side)
    groups = {ctx.key[c][0] for c in play}
    points = count_points(kitty)
    rs = ctx.ruleset
    if len(groups) > 1:
        raise PlayError(
            f"{format_cards(play)} 混有不同花色，不能赢得一墩",
            en=f"{format_cards(play)} mixes suits and cannot win a trick",
            field="play",
        )
    if rs.kitty_requires_trump and groups != {TRUMP}:

        def not_trump(lang: Lang) -> str:
            won = cards_text(play, lang)
            return pick(
                lang,
                f"最后一墩用的不是主牌（{won}），不算扣底，底牌 {points} 分不计入闲家。",
                f"The last trick was not won with trumps ({won}), so the kitty does not count: "
                f"its {points} points do not go to the attackers.",
            )

        return KittyResult(0, points, 0, not_trump)
    units = _units_from(ctx, play)
    unit = max(units, key=lambda u: (len(u.cards), u.top))
    mult = _multiplier(rs, unit)
    bonus = points * mult
    return KittyResult(mult, points, bonus, partial(_kitty_words, rs, play, kitty, unit, mult))


def _check_last_trick(play: tuple[Card, ...], side: str) -> None:
    """Refuse a missing last play or an unknown side, naming the field."""
    if not play:
        raise PlayError(
            "缺少赢得最后一墩的牌（play）",
            en="the play that won the last trick is missing",
            field="play",
        )
    if side not in SIDES:
        raise PlayError(
            f"side 应为 attackers 或 banker，而不是“{side}”",
            en=f"side must be attackers or banker, not “{side}”",
            field="side",
        )


def _multiplier(rs: Ruleset, unit: Unit) -> int:
    """Return the kitty multiplier the largest unit of the last trick earns."""
    if rs.kitty_policy == KittyPolicy.POWER_OF_TWO:
        mult = int(2 ** len(unit.cards))
        if rs.kitty_cap is not None:
            mult = min(mult, int(rs.kitty_cap))
        return mult
    values = rs.kitty_values
    if rs.kitty_policy == KittyPolicy.BY_UNIT:
        return values[unit.kind]
    return values["single"] if unit.kind == SINGLE else values["per_pair"] * max(unit.length, 1)


def _kitty_words(
    rs: Ruleset,
    play: tuple[Card, ...],
    kitty: tuple[Card, ...],
    unit: Unit,
    mult: int,
    lang: Lang,
) -> str:
    """Say how the attackers' kitty bonus was counted from the last trick's largest unit."""
    name = type_name(unit.kind, lang)
    points = count_points(kitty)
    bonus = points * mult
    if rs.kitty_policy == KittyPolicy.POWER_OF_TWO:
        k = len(unit.cards)
        cap = rs.kitty_cap
        rule = pick(
            lang,
            f"最大牌型 {k} 张，2^{k}" + (f"，封顶 {cap}" if cap else "") + f" → ×{mult}",
            f"the largest unit has {count_en(k, 'card')}, 2^{k}"
            + (f", capped at {cap}" if cap else "")
            + f" → ×{mult}",
        )
    else:
        verb = "抠底" if rs.kitty_policy == KittyPolicy.BY_UNIT else "扣底"
        rule = pick(lang, f"{name}{verb} ×{mult}", f"kitty won with a {name}: ×{mult}")
    won, shown = cards_text(play, lang), cards_text(unit.cards, lang)
    held = cards_text(kitty, lang) or pick(lang, "（空）", "(empty)")
    return pick(
        lang,
        f"最后一墩 {won} 的最大牌型是{name} {shown}：{rule}。"
        f"底牌 {held} 共 {points} 分，{points} × {mult} = {bonus} 分计入闲家。",
        f"The largest unit of the last trick {won} is the {name} {shown}: {rule}. "
        f"The kitty {held} holds {points} points; {points} × {mult} = {bonus} points "
        "go to the attackers.",
    )


def _kitty_by_cards(
    ctx: Context,
    play: tuple[Card, ...],
    kitty: tuple[Card, ...],
    side: str,
    trick_points: int | None,
) -> KittyResult:
    """Multiply by the number of cards in the winning play; the banker's side deducts from ×n."""
    rules = ctx.ruleset.kitty
    mult = len(play)
    empty = not kitty and rules.empty == EmptyKitty.LAST_TRICK
    points = (
        (trick_points if trick_points is not None else count_points(play))
        if empty
        else count_points(kitty)
    )
    bonus = points * mult
    if side == BANKER:
        deducts = rules.banker_wins == KittyOnBankerWin.DEDUCT and mult >= rules.deduct_from
        bonus = -bonus if deducts else 0
    else:
        deducts = False

    facts = _ByCards(play, kitty, points, mult, bonus, side, deducts, empty, rules.deduct_from)
    return KittyResult(mult, points, bonus, partial(_by_cards_words, facts))


@dataclass(frozen=True)
class _ByCards:
    """What a by-cards kitty settlement says: the cards, points, multiplier and who won."""

    play: tuple[Card, ...]
    kitty: tuple[Card, ...]
    points: int
    mult: int
    bonus: int
    side: str
    deducts: bool
    empty: bool
    deduct_from: int


def _by_cards_words(facts: _ByCards, lang: Lang) -> str:
    """Say how the last trick's number of cards multiplied the kitty, for either side."""
    play, kitty = facts.play, facts.kitty
    points, mult, bonus = facts.points, facts.mult, facts.bonus
    side, deducts, empty = facts.side, facts.deducts, facts.empty
    shown = cards_text(play, lang)
    what = (
        pick(
            lang,
            f"没有底牌，最后一墩的 {points} 分",
            f"there is no kitty, so the last trick's {points} points",
        )
        if empty
        else pick(
            lang,
            f"底牌 {cards_text(kitty, lang)} 共 {points} 分",
            f"the kitty {cards_text(kitty, lang)} holds {points} points",
        )
    )
    rule = pick(
        lang,
        f"最后一墩出了 {mult} 张（{shown}），×{mult}",
        f"the last trick was won with {count_en(mult, 'card')} ({shown}): ×{mult}",
    )
    if side == ATTACKERS:
        return pick(
            lang,
            f"抓分方赢得最后一墩（扣底）：{rule}；{what}，{points} × {mult} = {bonus} 分计入抓分方。",
            f"The attackers won the last trick: {rule}; {what}; {points} × {mult} = {bonus} "
            "points go to the attackers.",
        )
    if deducts:
        return pick(
            lang,
            f"庄家方赢得最后一墩：{rule}；{what}，{points} × {mult} = {-bonus} 分从抓分方得分中扣除。",
            f"The banker's side won the last trick: {rule}; {what}; {points} × {mult} = "
            f"{-bonus} points are deducted from the attackers.",
        )
    return pick(
        lang,
        f"庄家方赢得最后一墩：{rule}，不到 ×{facts.deduct_from}，不扣分。",
        f"The banker's side won the last trick: {rule}, below ×{facts.deduct_from}, so "
        "nothing is deducted.",
    )


@dataclass(frozen=True)
class ScoreResult(Spoken):
    """The result of a round from the attackers' points."""

    winner: str
    rise: int
    result: str
    next_level: int | None
    say: Say = field(repr=False, compare=False)
    multiplier: int | None = None
    base_chips: int | None = None
    chips: int | None = None


# Kept for callers that read the names here; the words live in the vocabulary.
RESULT_NAMES = {c: term(c) for c in ("big_sweep", "small_sweep", "hold", "swap", "promote")}
# The banker's result as the start of an English sentence.
BANKER_RESULTS_EN = {
    "big_sweep": "a big sweep for the banker",
    "small_sweep": "a small sweep for the banker",
    "hold": "the banker holds",
}

# The banker's rise for the bands below the swap line (a 0-point sweep uses score.zero_rise).
BANKER_RISES = {"small_sweep": 2, "hold": 1, "swap": 0}

# Why a side's next level is not simply its level plus the rise.
MUST_PLAY_FIRST = "must_play_first"
STOP_AT = "stop_at"
AT_TOP = "at_top"


def _advance(rs: Ruleset, level: int, rise: int, was_banker: bool) -> tuple[int, str]:
    """Move a side's level up by rise, stopping at levels that must be played; say why (a code)."""
    must = rs.mandatory_levels
    if not was_banker and level in must:
        return level, MUST_PLAY_FIRST
    higher = [r for r in rs.levels if r > level][:rise]
    for steps, r in enumerate(higher, start=1):
        if r in must and steps < rise:
            return r, STOP_AT
    if len(higher) < rise:
        return (higher[-1] if higher else level), AT_TOP
    return (higher[-1] if higher else level), ""


def _advance_text(why: str, level: int, lang: Lang) -> str:
    """Say why the next level is where _advance stopped."""
    r = format_rank(level)
    if why == MUST_PLAY_FIRST:
        return pick(
            lang,
            f"{r} 不可跳过：闲家上台后先打 {r}",
            f"{r} cannot be skipped: after taking over, the attackers play {r} first",
        )
    if why == STOP_AT:
        return pick(lang, f"{r} 不可跳过，停在 {r}", f"{r} cannot be skipped, so they stop at {r}")
    return pick(lang, "已打到 A", "already at A")


def band_of(rs: Ruleset, points: int) -> ScoreBand | None:
    """Find the row of a level table written as data (score.bands) that the points fall in."""
    found = None
    for band in rs.score.bands:
        if band.low > points and found is not None:
            break
        found = band
    return found


def band_text(rs: Ruleset, band: ScoreBand, lang: Lang) -> str:
    """Name a band of score.bands by its points: "Attackers 40–75", "Attackers 200 or more"."""
    later = [b.low for b in rs.score.bands if b.low > band.low]
    if later:
        return pick(
            lang, f"闲家 {band.low}–{later[0] - 5} 分", f"Attackers {band.low}–{later[0] - 5}"
        )
    return pick(lang, f"闲家 {band.low} 分及以上", f"Attackers {band.low} or more")


def score_round(
    rs: Ruleset,
    points: int,
    banker_level: int | None = None,
    attacker_level: int | None = None,
) -> ScoreResult:
    """Score a round on the level table: the band, who rises, by how much, and the next level."""
    step, swap_at, small = rs.score_step, rs.score_swap_at, rs.score.small_below
    low = 0
    band = band_of(rs, points)
    if band is not None:
        winner, rise, result = band.winner, band.rise, band.result
    elif points <= 0:
        winner, rise, result = "banker", rs.score_zero_rise, "big_sweep"
    elif points < small:
        winner, result = "banker", "small_sweep"
        rise = BANKER_RISES[result]
    elif points < swap_at:
        winner, result = "banker", "hold"
        rise = BANKER_RISES[result]
    else:
        winner = "attackers"
        rise = (points - swap_at) // step
        result = "swap" if rise == 0 else "promote"
        low = swap_at + rise * step
    next_level = None
    why = ""
    level = banker_level if winner == "banker" else attacker_level
    if level is not None:
        next_level, why = _advance(rs, level, rise, winner == "banker")

    facts = _Scored(rs, points, band, winner, rise, result, low, next_level, why)
    return ScoreResult(winner, rise, result, next_level, partial(_score_words, facts))


@dataclass(frozen=True)
class _Scored:
    """What a scored round says: the points, their band, who rises how far, the next level."""

    rs: Ruleset
    points: int
    band: ScoreBand | None
    winner: str
    rise: int
    result: str
    low: int  # the attackers' band's lowest points (computed bands)
    next_level: int | None
    why: str


def _score_words(f: _Scored, lang: Lang) -> str:
    """Say the band the points fall in, what it does, and the next round's level."""
    text = _band_words(f, lang)
    points, rise, step = f.points, f.rise, f.rs.score_step
    levels = count_en(rise, "level")
    if f.winner == "banker":
        text = pick(
            lang,
            f"{text}（{points} 分）：庄家{RESULT_NAMES[f.result]}，庄家升 {rise} 级。",
            f"{text} ({points} points): {BANKER_RESULTS_EN[f.result]}; the banker rises {levels}.",
        )
    elif rise == 0:
        text = pick(
            lang,
            f"{text}（{points} 分）：闲家上台（换庄），不升级。",
            f"{text} ({points} points): the attackers take over as banker, no level rise.",
        )
    elif f.band is not None:
        text = pick(
            lang,
            f"{text}（{points} 分）：闲家上台并升 {rise} 级。",
            f"{text} ({points} points): the attackers take over as banker and rise {levels}.",
        )
    else:
        text = pick(
            lang,
            f"{text}（{points} 分）：闲家上台并升 {rise} 级（每多 {step} 分多升 1 级）。",
            f"{text} ({points} points): the attackers take over as banker and rise "
            f"{levels} (one more level for every {step} points more).",
        )
    return text + _next_level_words(f, lang)


def _band_words(f: _Scored, lang: Lang) -> str:
    """Name the band of attacker points the round fell in."""
    rs = f.rs
    step, swap_at, small, low = rs.score_step, rs.score_swap_at, rs.score.small_below, f.low
    if f.band is not None:
        return band_text(rs, f.band, lang)
    if f.result == "big_sweep":
        return pick(lang, "闲家 0 分", "Attackers scored 0")
    if f.result == "small_sweep":
        return pick(lang, f"闲家不满 {small} 分", f"Attackers under {small}")
    if f.result == "hold":
        return pick(lang, f"闲家 {small}–{swap_at - 5} 分", f"Attackers {small}–{swap_at - 5}")
    return pick(lang, f"闲家 {low}–{low + step - 5} 分", f"Attackers {low}–{low + step - 5}")


def _next_level_words(f: _Scored, lang: Lang) -> str:
    """Say which level the rising side plays next round, and why when a rule stopped it."""
    if f.next_level is None:
        return ""
    rank = format_rank(f.next_level)
    side = "庄家" if f.winner == "banker" else "闲家"
    side_en = "banker plays" if f.winner == "banker" else "attackers play"
    text = pick(lang, f"下局{side}打 {rank}", f" Next round the {side_en} {rank}")
    if f.why:
        reason = _advance_text(f.why, f.next_level, lang)
        return text + pick(lang, f"（{reason}）。", f" ({reason}).")
    return text + pick(lang, "。", ".")
