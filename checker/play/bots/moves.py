"""Legal plays built directly from a hand: follows in suit shaped by a preference, ruffs of the
lead's shape, and the cost of giving cards up (never an enumeration of subsets of a hand)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from checker.engine.cards import Card
from checker.engine.combos import (
    PAIR,
    SINGLE,
    Combo,
    PairStock,
    match_structure,
    structure_key,
)
from checker.engine.follow import generate_example, judge_follow
from checker.engine.order import TRUMP, Context
from checker.engine.trick import resolve_trick

Pref = Callable[[Card], tuple[int, ...]]


def in_group(ctx: Context, group: str | None, cards: Sequence[Card]) -> list[Card]:
    """List the cards of one group (TRUMP or a suit letter)."""
    key = ctx.key
    return [c for c in cards if key[c][0] == group]


def cost(ctx: Context, cards: Sequence[Card]) -> tuple[int, int, int]:
    """Cost of giving cards up: trumps, then points, then strength positions."""
    key = ctx.key
    return (
        sum(1 for c in cards if key[c][0] == TRUMP),
        sum(c.points for c in cards),
        sum(key[c][1] for c in cards),
    )


def broken_wide(counts: Counter[Card], cards: Sequence[Card]) -> int:
    """Count the 三条 or wider sets (several decks) a play breaks: some copies played, not all."""
    wide = [c for c in cards if counts[c] >= 3]
    if not wide:
        return 0
    played = Counter(wide)
    return sum(1 for c, n in played.items() if n < counts[c])


def strength_cost(ctx: Context, cards: Sequence[Card]) -> tuple[int, int, int]:
    """Cost of a winning play: trumps, then strength positions, then points."""
    key = ctx.key
    return (
        sum(1 for c in cards if key[c][0] == TRUMP),
        sum(key[c][1] for c in cards),
        sum(c.points for c in cards),
    )


def _windows(stock: PairStock, size: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for low, high in stock.runs():
        for start in range(low, high - size + 2):
            out.append((start, start + size - 1))
    return out


def shaped(ctx: Context, lead: Combo, cards: Sequence[Card], pref: Pref) -> list[Card] | None:
    """Build n cards from `cards` (one group) with the lead's structure as far as they hold it,
    choosing the runs, pairs and singles that `pref` ranks first; None if they lack it."""
    n = len(lead.cards)
    if len(cards) < n:
        return None
    need = match_structure(ctx, lead, cards)
    stock = PairStock(ctx, Counter(cards))
    chosen: list[Card] = []

    def rank_of(window: tuple[int, int]) -> tuple[int, ...]:
        keys = [pref(min(stock.at[p], key=pref)) for p in range(window[0], window[1] + 1)]
        return tuple(sum(k[i] for k in keys) for i in range(len(keys[0])))

    for size in need.answer.tractors:
        windows = _windows(stock, size)
        if not windows:
            return None
        low, high = min(windows, key=rank_of)
        for p in range(high, low - 1, -1):
            card = min(stock.at[p], key=pref)
            stock.at[p].remove(card)
            if not stock.at[p]:
                del stock.at[p]
            chosen += [card, card]
    for _ in range(need.answer.pairs):
        if not stock.at:
            return None
        p = min(stock.at, key=lambda q: pref(min(stock.at[q], key=pref)))
        card = min(stock.at[p], key=pref)
        stock.at[p].remove(card)
        if not stock.at[p]:
            del stock.at[p]
        chosen += [card, card]
    left = sorted((Counter(cards) - Counter(chosen)).elements(), key=pref)
    play = chosen + left[: n - len(chosen)]
    return play if len(play) == n else None


def follow_options(
    ctx: Context, lead: Combo, hand: Sequence[Card], prefs: Sequence[Pref]
) -> list[list[Card]]:
    """List legal follows that stay in the lead's group (the hand holds more than enough).

    Singles and pairs list every distinct unit; longer leads one shaped follow per preference.
    """
    n = len(lead.cards)
    suit = in_group(ctx, lead.group, hand)
    out: list[list[Card]] = []
    if n == 1:
        out = [[c] for c in sorted(set(suit))]
    elif lead.type == PAIR:
        pairs = [[c, c] for c, k in sorted(Counter(suit).items()) if k >= 2]
        out = pairs or []
    if not out:
        for pref in prefs:
            play = shaped(ctx, lead, suit, pref)
            if play is not None:
                out.append(play)
    if n == 1 and out:
        return out  # a card of the led group always follows a single
    legal = [p for p in out if judge_follow(ctx, lead, hand, p).legal]
    return legal or [generate_example(ctx, lead, hand)]


def ruff_options(ctx: Context, lead: Combo, hand: Sequence[Card]) -> list[list[Card]]:
    """List trump plays with the lead's full structure (singles and pairs: every distinct one)."""
    trumps = in_group(ctx, TRUMP, hand)
    n = len(lead.cards)
    if len(trumps) < n:
        return []
    counts = Counter(trumps)
    if n == 1:
        return [[c] for c in sorted(counts)]
    if lead.type == PAIR:
        return [[c, c] for c, k in sorted(counts.items()) if k >= 2]
    out: list[list[Card]] = []
    key = ctx.key
    for pref in (lambda c: (key[c][1],), lambda c: (-key[c][1],)):
        play = shaped(ctx, lead, trumps, pref)
        if play is None:
            continue
        if structure_key(ctx, lead, play) is None:
            continue
        if play not in out:
            out.append(play)
    return out


def _beats(ctx: Context, card: Card, best: Card) -> bool:
    group, pos = ctx.key[card]
    best_group, best_pos = ctx.key[best]
    if group == best_group:
        return pos > best_pos
    return group == TRUMP


def winner_now(ctx: Context, plays: Sequence[Sequence[Card]]) -> int:
    """Return the index of the play that wins the trick so far."""
    if len(plays[0]) == 1:
        # One card a seat: the same comparison resolve_trick makes, without classifying.
        best = 0
        for i in range(1, len(plays)):
            if _beats(ctx, plays[i][0], plays[best][0]):
                best = i
        return best
    return resolve_trick(ctx, plays).winner


def wins(ctx: Context, plays: Sequence[Sequence[Card]], play: Sequence[Card]) -> bool:
    """Tell whether adding this play to the trick so far makes it the winner now."""
    return winner_now(ctx, [*plays, play]) == len(plays)


def is_single_or_pair(lead: Combo) -> bool:
    """Tell whether a lead is one single or one pair."""
    return lead.type in (SINGLE, PAIR)
