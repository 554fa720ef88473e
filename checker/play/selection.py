"""A person's picked cards judged before they are played: the rule a play must meet, a legal
example, and whether the picks meet it. The round judges a submitted play the same way
(`check_cards`), so the table's 出牌 button and the referee never disagree."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from checker.engine.cards import Card, is_subset
from checker.engine.combos import THROW, Combo, classify
from checker.engine.follow import explain_requirement, generate_example, judge_follow
from checker.engine.order import Context
from checker.engine.readings import Readings, lead_readings
from checker.engine.texts import Lang, Say, count_en, pick

from .moves import not_in_hand
from .players import BURY, FOLLOW, LEAD, PlayerView


def _count(need: int, n: int) -> Say:
    return lambda lang: pick(
        lang, f"要出 {need} 张，选了 {n} 张", f"play {count_en(need, 'card')}, not {n}"
    )


def _rethrow_banned(lang: Lang) -> str:
    return pick(
        lang,
        "甩牌失败过一次，这一局不能再甩：请出单张、对子或拖拉机",
        "a throw of yours failed, so no more throws this round: lead a single, pair or tractor",
    )


def check_cards(
    phase: str,
    ctx: Context | None,
    lead: Combo | None,
    hand: Sequence[Card],
    cards: Sequence[Card],
    *,
    kitty_size: int = 0,
) -> Say | None:
    """Say why these cards may not be buried, led or played as a follow (None: they may)."""
    if not is_subset(cards, hand):
        return not_in_hand(cards)
    if phase == BURY:
        n = len(cards)
        if n != kitty_size:
            return lambda lang: pick(
                lang, f"要扣 {kitty_size} 张，选了 {n} 张", f"bury {kitty_size} cards, not {n}"
            )
        return None
    assert ctx is not None
    if phase == LEAD:
        combo = classify(ctx, list(cards))
        return None if combo.is_valid else (lambda lang: combo.reason_for(ctx, lang))
    assert lead is not None
    verdict = judge_follow(ctx, lead, hand, cards)
    return None if verdict.legal else verdict.explanation_for


@dataclass(frozen=True)
class Picked:
    """The picks judged: whether 出牌 may be pressed, and why not in words (`why`)."""

    legal: bool
    why: Say | None


def judge_picks(view: PlayerView, cards: Sequence[Card]) -> Picked:
    """Judge a person's picks at its decision (bury, lead or follow) without playing them."""
    if not cards:
        return Picked(False, lambda lang: pick(lang, "请先选牌", "pick cards first"))
    if view.phase == FOLLOW and view.lead is not None and len(cards) != len(view.lead.cards):
        return Picked(False, _count(len(view.lead.cards), len(cards)))
    why = check_cards(
        view.phase, view.ctx, view.lead, view.hand, cards, kitty_size=view.ruleset.kitty_size
    )
    ctx = view.ctx
    banned = view.phase == LEAD and not view.may_throw and ctx is not None
    if why is None and banned and ctx is not None and classify(ctx, list(cards)).type == THROW:
        why = _rethrow_banned
    return Picked(why is None, why)


def picks_reading(view: PlayerView, cards: Sequence[Card]) -> Readings | None:
    """Read a person's picked lead as the rules do, with its other readings (None: one reading)."""
    if view.phase != LEAD or view.ctx is None or not cards or not is_subset(cards, view.hand):
        return None
    return lead_readings(view.ctx, list(cards))


@dataclass(frozen=True)
class Requirement:
    """What a play must hold at this decision, said before any try, and one legal example."""

    say: Say
    example: tuple[Card, ...]
    count: int  # how many cards the play has (0: any number, a lead)


def requirement(view: PlayerView) -> Requirement | None:
    """State the rule the person's play must meet: the follow the lead asks for, or a lead."""
    ctx, lead, hand = view.ctx, view.lead, view.hand
    if view.phase == FOLLOW and ctx is not None and lead is not None:
        example = tuple(generate_example(ctx, lead, hand))

        def say(lang: Lang) -> str:
            return explain_requirement(ctx, lead, hand, example, lang)

        return Requirement(say, example, len(lead.cards))
    if view.phase == LEAD and ctx is not None and hand:
        low = min(hand, key=lambda c: (ctx.key[c][0] == "T", ctx.key[c][1]))
        return Requirement(_lead_rule if view.may_throw else _rethrow_banned, (low,), 0)
    return None


def _lead_rule(lang: Lang) -> str:
    return pick(
        lang,
        "首出：一张、一对、拖拉机，或同一门里的几组一起甩",
        "Lead: a single, a pair, a tractor, or several of them in one suit as a throw",
    )
