"""Trick resolution: which play takes the trick, who took the lead when, and the points."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, cast

from .cards import Card, count_play_points, format_cards, is_subset
from .combos import INVALID, THROW, Combo, classify, type_name
from .compare import ruff_key, unit_key
from .errors import PlayError
from .follow import follow_reason, reason_text
from .held import NO_GROUP
from .native import mypyc_attr
from .order import TRUMP, Context
from .texts import EN, ZH, Explained, Lang, capitalize, cards_text, pick

# Why each play did or did not take the trick; rendered into words only on demand.
# A note is (code, rival, extra): extra is the follow reason code of an illegal play.
ILLEGAL = "illegal"
WRONG_SIZE = "wrong_size"
SAME_SUIT_VS_THROW = "same_suit_vs_throw"
SAME_SUIT_AFTER_RUFF = "same_suit_after_ruff"
SAME_SUIT_SHAPE = "same_suit_shape"
SAME_SUIT_HIGHER = "same_suit_higher"
SAME_SUIT_WIDER = "same_suit_wider"
SAME_SUIT_EQUAL = "same_suit_equal"
SAME_SUIT_LOWER = "same_suit_lower"
RUFF_SHAPE = "ruff_shape"
RUFF = "ruff"
OVERRUFF = "overruff"
RUFF_NOT_HIGHER = "ruff_not_higher"
MIXED = "mixed"
DISCARD = "discard"


class _TrickFields(NamedTuple):
    """The fields of a trick's outcome, as a tuple: every trick of a round builds two."""

    winner: int
    beats: tuple[bool, ...]
    points: int
    legal: tuple[bool | None, ...]
    notes: tuple[tuple[str, int, str], ...]
    lead: Combo
    plays: tuple[tuple[Card, ...], ...]
    ctx: Context


@mypyc_attr(native_class=False)  # a subclass of a builtin: a plain class when compiled
class TrickResult(_TrickFields, Explained):
    """The outcome of a trick: winner index, who beat at the time, points, and why."""

    __slots__ = ()

    def _explain(self, lang: Lang) -> str:
        """Explain, play by play, why the winner holds the trick."""
        lead = self.lead
        cards = cards_text(lead.cards, lang)
        group = self.ctx.group_name(lead.group or "", lang)
        label = _label(lead, lang)
        lines = [
            pick(lang, f"领牌：{label} {cards}（{group}）", f"Lead: {label} {cards} ({group}).")
        ]
        for i, (code, rival, extra) in enumerate(self.notes, start=1):
            said = _render(self.ctx, lead, self.plays[i], code, rival, extra, lang)
            lines.append(pick(lang, f"第{i}手：{said}", f"Play {i}: {said}"))
        who = capitalize(_name(self.winner, lang))
        lines.append(
            pick(
                lang,
                f"本墩由{who}赢得，牌面分数 {self.points} 分。",
                f"{who} wins the trick, which holds {self.points} points.",
            )
        )
        return "\n".join(lines)


# A result from all eight fields in one step, without the named tuple's own `__new__`.
_result = cast(Callable[[type[TrickResult], tuple[object, ...]], TrickResult], tuple.__new__)


def _label(combo: Combo, lang: Lang = ZH) -> str:
    if combo.type == THROW:
        return pick(lang, f"甩牌（{combo.shape()}）", f"throw ({combo.shape(lang)})")
    return type_name(combo.type, lang)


def _name(i: int, lang: Lang = ZH) -> str:
    if i == 0:
        return pick(lang, "领牌", "the lead")
    return pick(lang, f"第{i}手", f"play {i}")


RUFF_TIEBREAK = "ruff_tiebreak"


def compares_every_unit(ctx: Context, lead: Combo) -> bool:
    """Tell whether rival ruffs of this lead compare every unit of a layer, or only its biggest.

    Option `ruff_tiebreak`: `by_throw` (the default) compares only the biggest single of a
    throw of singles (the seed's example) and every unit, layer by layer, of a throw with
    pairs or tractors (the seed's text); `top_unit` and `every_unit` apply one reading to every
    throw. A ruleset without the option compares the biggest unit of each layer.
    """
    rs = ctx.ruleset
    mode = rs.option(RUFF_TIEBREAK) if rs.has_option(RUFF_TIEBREAK) else "top_unit"
    if mode == "by_throw":
        return lead.has_pairs
    return mode == "every_unit"


def _layers(ctx: Context, lead: Combo, lang: Lang = ZH) -> str:
    every = compares_every_unit(ctx, lead)
    if not lead.has_pairs:
        if every:
            return pick(lang, "单张从大到小逐张比较", "the singles one by one from the highest")
        return pick(lang, "最大的单张比较", "the highest single")
    zh = "先拖拉机、再对子、后单张逐层比较" if lead.tractors else "先对子、后单张逐层比较"
    en = (
        "tractors first, then pairs, then singles, layer by layer"
        if lead.tractors
        else "pairs first, then singles, layer by layer"
    )
    if every:
        return pick(lang, zh + "，每层从大到小逐个比", en + ", each unit of a layer in turn")
    return pick(lang, zh + "，每层只比最大的一个", en + ", only the biggest unit of each layer")


def _render(
    ctx: Context,
    lead: Combo,
    play: Sequence[Card],
    code: str,
    rival: int,
    extra: str,
    lang: Lang = ZH,
) -> str:
    """Say in words why one play did or did not take the trick (one note of a TrickResult)."""
    cards = cards_text(play, lang)
    gname = ctx.group_name(lead.group or "", lang)
    why = reason_text(extra, lang) if code == ILLEGAL else ""
    if lang == EN:
        rival_name, label, layers = _name(rival, lang), _label(lead, lang), _layers(ctx, lead, lang)
        follows = f"follows {gname} with {cards}"
        return {
            ILLEGAL: f"{cards} is illegal ({why}) and cannot win.",
            WRONG_SIZE: f"{cards} has a different number of cards from the lead and cannot win.",
            SAME_SUIT_VS_THROW: f"{follows}: a follow in the led suit cannot beat a throw.",
            SAME_SUIT_AFTER_RUFF: f"{follows}: the trick has already been ruffed with trumps, "
            "so the led suit cannot beat it.",
            SAME_SUIT_SHAPE: f"{follows}: its shape differs from the lead ({label}), "
            "so it cannot beat it.",
            SAME_SUIT_HIGHER: f"{follows}: same shape and higher than {rival_name}, so it beats it.",
            SAME_SUIT_WIDER: f"{follows}: as many cards as {rival_name} but more copies of each "
            "rank (wider), and the wider unit is bigger, so it beats it.",
            SAME_SUIT_EQUAL: f"{follows}: as high as {rival_name}; the earlier play wins.",
            SAME_SUIT_LOWER: f"{follows}: lower than {rival_name}, so it does not beat it.",
            RUFF_SHAPE: f"trumps {cards} do not match the lead's structure ({label}), "
            "so they cannot ruff and count as a discard.",
            RUFF: f"void in the led suit, ruffs with trumps {cards}: same structure as the lead, "
            "and trumps beat off-suit cards.",
            OVERRUFF: f"over-ruffs with trumps {cards}: comparing {layers}, "
            f"higher than {rival_name}.",
            RUFF_NOT_HIGHER: f"trumps {cards} could ruff too, but comparing {layers}, "
            f"they are not higher than {rival_name} (on a tie the earlier play wins).",
            MIXED: f"{cards} mixes {gname} with other cards: a discard, "
            "not competing for the trick.",
            DISCARD: f"{cards} is a discard and cannot win.",
        }[code]
    texts = {
        ILLEGAL: f"{cards} 不合法（{why}），不能赢。",
        WRONG_SIZE: f"{cards} 张数与领牌不同，不能赢。",
        SAME_SUIT_VS_THROW: f"跟{gname} {cards}：同花色跟牌压不过甩牌。",
        SAME_SUIT_AFTER_RUFF: f"跟{gname} {cards}：本墩已被主牌杀，副牌压不过。",
        SAME_SUIT_SHAPE: f"跟{gname} {cards}：牌型与领牌（{_label(lead)}）不同，不能压。",
        SAME_SUIT_HIGHER: f"跟{gname} {cards}：同牌型且比{_name(rival)}大，压过。",
        SAME_SUIT_WIDER: f"跟{gname} {cards}：与{_name(rival)}张数相同而基数（宽度）更大，"
        "相同数量时宽的大，压过。",
        SAME_SUIT_EQUAL: f"跟{gname} {cards}：与{_name(rival)}一样大，先出者胜。",
        SAME_SUIT_LOWER: f"跟{gname} {cards}：比{_name(rival)}小，压不过。",
        RUFF_SHAPE: f"主牌 {cards} 与领牌结构（{_label(lead)}）不符，不能杀，算垫牌。",
        RUFF: f"缺门用主牌 {cards} 杀牌：结构与领牌相同，主牌大于副牌。",
        OVERRUFF: f"主牌 {cards} 盖杀：按{_layers(ctx, lead)}，比{_name(rival)}大。",
        RUFF_NOT_HIGHER: f"主牌 {cards} 也能杀，但按{_layers(ctx, lead)}，不比{_name(rival)}大（相同时先出者胜）。",
        MIXED: f"{cards} 混出{gname}与其他牌，视为垫牌，不争本墩。",
        DISCARD: f"{cards} 是垫牌，不能赢。",
    }
    return texts[code]


def resolve_trick(
    ctx: Context,
    plays: Sequence[Sequence[Card]],
    hands: Sequence[Sequence[Card] | None] | None = None,
) -> TrickResult:
    """Resolve a trick from its plays in order (index 0 is the lead).

    When hands are given (None for a player whose hand is unknown), each follow is judged
    first; an illegal follow cannot win.
    """
    if not plays:
        raise PlayError("一墩牌至少要有领牌", en="a trick needs at least a lead", field="plays")
    lead = classify(ctx, plays[0])
    if lead.type == INVALID:
        raise PlayError(
            f"领牌 {format_cards(plays[0])} 不能领出：{lead.reason}",
            en=f"the lead {format_cards(plays[0])} cannot be led: {lead.reason_for(ctx, EN)}",
            field="plays",
        )
    if hands is not None and len(hands) != len(plays):
        raise PlayError(
            f"hands 有 {len(hands)} 手，plays 有 {len(plays)} 手，必须一一对应",
            en=f"{len(hands)} hands for {len(plays)} plays: they must match one to one",
            field="hands",
        )
    beats = [True]
    lead_hand = hands[0] if hands is not None else None
    legal: list[bool | None] = [None if lead_hand is None else is_subset(plays[0], lead_hand)]
    if hands is not None and lead_hand is None:
        legal[0] = True
    notes: list[tuple[str, int, str]] = []
    resolve = _resolve_singles if len(lead.cards) == 1 and lead.type != THROW else _resolve_units
    best = resolve(ctx, lead, plays, hands, beats, legal, notes)
    points = count_play_points(plays)
    frozen = tuple(map(tuple, plays))
    return _result(
        TrickResult, (best, tuple(beats), points, tuple(legal), tuple(notes), lead, frozen, ctx)
    )


def _resolve_units(
    ctx: Context,
    lead: Combo,
    plays: Sequence[Sequence[Card]],
    hands: Sequence[Sequence[Card] | None] | None,
    beats: list[bool],
    legal: list[bool | None],
    notes: list[tuple[str, int, str]],
) -> int:
    """Resolve the follows to any lead: note each one, return the index of the best play."""
    table = ctx.codes or ctx.card_codes()
    group = lead.group
    led, trumps = table.group.get(group, NO_GROUP), table.group.get(TRUMP, NO_GROUP)
    n = len(lead.cards)
    side_lead = group != TRUMP
    best = 0
    best_top = (lead.width, lead.units[0].top)
    best_key = None  # set once a ruff holds the trick
    for i in range(1, len(plays)):
        play = plays[i]
        hand = hands[i] if hands is not None else None
        # The follow's last judgement: a verdict the round kept is read, none is kept anew.
        why = follow_reason(ctx, lead, hand, play) if hand is not None else None
        legal.append(None if why is None else not why)
        took = False
        rival = best
        if why:
            note = (ILLEGAL, rival, why)
        elif len(play) != n:
            note = (WRONG_SIZE, rival, "")
        else:
            # The groups of the play's cards, as codes (a card the deck lacks raises KeyError).
            _, groups = table.encode(play)
            if groups.count(led) == n:
                if lead.type == THROW:
                    code = SAME_SUIT_VS_THROW
                elif best_key is not None:
                    code = SAME_SUIT_AFTER_RUFF
                else:
                    code, top = _same_suit(ctx, lead, play, best_top)
                    if code in (SAME_SUIT_HIGHER, SAME_SUIT_WIDER):
                        took, best_top = True, top
                note = (code, rival, "")
            elif side_lead and groups.count(trumps) == n:
                ruff = ruff_key(ctx, lead, play)
                if ruff is None:
                    note = (RUFF_SHAPE, rival, "")
                elif best_key is None:
                    took, best_key = True, ruff
                    note = (RUFF, rival, "")
                elif ruff.value(every := compares_every_unit(ctx, lead)) > best_key.value(every):
                    took, best_key = True, ruff
                    note = (OVERRUFF, rival, "")
                else:
                    note = (RUFF_NOT_HIGHER, rival, "")
            elif led in groups:
                note = (MIXED, rival, "")
            else:
                note = (DISCARD, rival, "")
        if took:
            best = i
        beats.append(took)
        notes.append(note)
    return best


def _resolve_singles(
    ctx: Context,
    lead: Combo,
    plays: Sequence[Sequence[Card]],
    hands: Sequence[Sequence[Card] | None] | None,
    beats: list[bool],
    legal: list[bool | None],
    notes: list[tuple[str, int, str]],
) -> int:
    """Resolve the follows to a one-card lead as the general loop does, reading each card's
    position directly (a single's unit key is (1, position), a single's ruff its position)."""
    key = ctx.key
    group = lead.group
    side_lead = group != TRUMP
    best = 0
    best_pos = key[lead.cards[0]][1]
    ruffed = -1  # the position of the best ruff once one holds the trick
    for i in range(1, len(plays)):
        play = plays[i]
        hand = hands[i] if hands is not None else None
        why = follow_reason(ctx, lead, hand, play) if hand is not None else None
        legal.append(None if why is None else not why)
        took = False
        if why:
            note = (ILLEGAL, best, why)
        elif len(play) != 1:
            note = (WRONG_SIZE, best, "")
        else:
            g, pos = key[play[0]]
            if g == group:
                if ruffed >= 0:
                    code = SAME_SUIT_AFTER_RUFF
                elif pos > best_pos:
                    code, took, best_pos = SAME_SUIT_HIGHER, True, pos
                elif pos == best_pos:
                    code = SAME_SUIT_EQUAL
                else:
                    code = SAME_SUIT_LOWER
            elif side_lead and g == TRUMP:
                if ruffed < 0:
                    code, took, ruffed = RUFF, True, pos
                elif pos > ruffed:
                    code, took, ruffed = OVERRUFF, True, pos
                else:
                    code = RUFF_NOT_HIGHER
            else:
                code = DISCARD
            note = (code, best, "")
        if took:
            best = i
        beats.append(took)
        notes.append(note)
    return best


def _same_suit(
    ctx: Context, lead: Combo, play: Sequence[Card], best: tuple[int, int]
) -> tuple[str, tuple[int, int]]:
    """Compare a follow in the led suit with the best so far: one unit, width then rank."""
    key = unit_key(ctx, lead, play)
    if key is None:
        return SAME_SUIT_SHAPE, best
    if key[0] > best[0]:
        return SAME_SUIT_WIDER, key
    if key > best:
        return SAME_SUIT_HIGHER, key
    if key == best:
        return SAME_SUIT_EQUAL, best
    return SAME_SUIT_LOWER, best
