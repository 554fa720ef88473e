"""Follow legality: whether a follow obeys suit and structure, the forced cards, an example."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, cast

from .cards import Card, count_into, is_subset
from .combos import (
    SINGLE,
    Answer,
    Combo,
    lead_words,
    match_copies,
    pair_counts,
    tractor_name,
    type_name,
)
from .held import NO_GROUP, OUTSIDE, Codes, Held
from .jokers import pair_view, restore
from .ladder import (
    Ladder,
    Profile,
    columns,
    first_gap,
    forced_counts,
    lead_bins,
    profile_words,
)
from .native import mypyc_attr
from .order import HELD_MEMO, TRUMP, Context
from .structure import rank_answer, rank_single, slack
from .texts import EN, ZH, Explained, Lang, cards_text, count_en, pick
from .vocab import term

WRONG_COUNT = "wrong_count"
NOT_IN_HAND = "not_in_hand"
MUST_FOLLOW_SUIT = "must_follow_suit"
MUST_PLAY_PAIR = "must_play_pair"
MUST_PLAY_TRACTOR = "must_play_tractor"
MUST_PLAY_TUPLE = "must_play_tuple"


def _ladder(lead: Combo) -> Ladder:
    """Make the width ladder of a lead: one bin per unit of two or more copies."""
    return Ladder(lead_bins((u.width, u.size) for u in lead.units))


# A legal verdict's opening words, and the same sentence read as the rule for a hand.
LEGAL_PREFIX = {ZH: "合法：", EN: "Legal: "}
HINT_PREFIX = {ZH: "跟牌要求：", EN: "Follow: "}


def reason_text(reason: str, lang: Lang = ZH) -> str:
    """Name a follow reason code in a few words, e.g. 没有跟花色 or did not follow suit."""
    return term(reason, lang)


_ZH_COUNT = {1: "一", 2: "两", 3: "三", 4: "四", 5: "五"}
_EN_COUNT = {2: "two", 3: "three", 4: "four", 5: "five"}


def describe_answer(answer: Answer, lang: Lang = ZH) -> str:
    """Say what structure an answer shows, e.g. 一个2连对拖拉机和1个对子 or a 2-pair tractor."""
    parts: list[str] = []
    for length in sorted(set(answer.tractors), reverse=True):
        k = answer.tractors.count(length)
        name = tractor_name(length, lang)
        many = f"{_EN_COUNT.get(k, str(k))} {name}s"
        parts.append(
            pick(lang, f"{_ZH_COUNT.get(k, str(k))}个{name}", f"a {name}" if k == 1 else many)
        )
    if answer.pairs:
        parts.append(pick(lang, f"{answer.pairs}个对子", count_en(answer.pairs, "pair")))
    if not parts:
        return pick(lang, "没有对子", "no pairs")
    return pick(lang, "和", " and ").join(parts)


class _FollowFields(NamedTuple):
    """The fields of a follow verdict, as a tuple: a verdict is built in one step on the hot
    path of every trick (`_verdict`)."""

    legal: bool
    reason: str
    ctx: Context
    lead: Combo
    hand: tuple[Card, ...]
    play: tuple[Card, ...]
    required: Answer | None = None
    shown: Answer | None = None
    need: Profile = ()
    got: Profile = ()


def _many(m: int, gname: str) -> str:
    """Count cards of a group in English, e.g. 1 ♠ spade, 3 trumps."""
    return count_en(m, gname[:-1], gname)


@mypyc_attr(native_class=False)  # a subclass of a builtin: a plain class when compiled
class FollowVerdict(_FollowFields, Explained):
    """The judgement of one follow: legal or not, the reason code, and why in words."""

    __slots__ = ()

    def _explain(self, lang: Lang) -> str:
        """Explain the verdict, naming the rule and the cards that decided it."""
        ctx, lead = self.ctx, self.lead
        n = len(lead.cards)
        group = lead.group or ""
        gname = ctx.group_name(group, lang)
        suit_cards = [c for c in self.hand if ctx.key[c][0] == group]
        k = len(suit_cards)
        play, held = cards_text(self.play, lang), cards_text(suit_cards, lang)

        if self.reason == WRONG_COUNT:
            return pick(
                lang,
                f"张数不符：领牌 {n} 张，跟牌必须同样出 {n} 张，实际出了 {len(self.play)} 张。",
                f"Wrong number of cards: the lead has {n}, so a follow must have {n} too; "
                f"{len(self.play)} {'was' if len(self.play) == 1 else 'were'} played.",
            )
        if self.reason == NOT_IN_HAND:
            return pick(
                lang,
                f"所出的牌 {play} 不全在手牌中。",
                f"The cards played ({play}) are not all in the hand.",
            )
        if self.reason == MUST_FOLLOW_SUIT:
            if k <= n:
                return pick(
                    lang,
                    f"必须跟花色：手中{gname}只有 {k} 张（{held}），"
                    f"不超过领牌的 {n} 张，必须全部打出，其余才可任意垫。",
                    f"Must follow suit: the hand holds only {_many(k, gname)} ({held}), "
                    f"no more than the {n} led, so all of them must be played before "
                    "any other card.",
                )
            return pick(
                lang,
                f"必须跟花色：手中{gname}有 {k} 张，足够 {n} 张，只能出{gname}；所出含有别的牌。",
                f"Must follow suit: the hand holds {_many(k, gname)}, enough for the {n} led, "
                f"so only {gname} may be played; the play includes other cards.",
            )
        if self.reason in (MUST_PLAY_PAIR, MUST_PLAY_TRACTOR, MUST_PLAY_TUPLE) and self.need:
            need, shown = profile_words(self.need, lang), profile_words(self.got, lang)
            return pick(
                lang,
                f"先同再降：领牌是{lead_words(lead)}，手中{gname}能凑出{need}（同级别的先出，"
                f"没有再按 8 → 7+1 → 6+2 → … → 2+2 → 1 逐级递减，高级别的可拆开），所出 {play} 只有{shown}。",
                f"Same grade first, then step down: the lead is {lead_words(lead, lang)}; the "
                f"{gname} in hand can make {need} (units as wide as the lead's first, then "
                f"8 → 7+1 → 6+2 → … → 2+2 → 1, breaking wider units where needed), but the "
                f"play {play} shows only {shown}.",
            )
        if self.reason in (MUST_PLAY_PAIR, MUST_PLAY_TRACTOR):
            tractor = self.reason == MUST_PLAY_TRACTOR
            rule = pick(
                lang,
                "有拖拉机必须出拖拉机" if tractor else "有对子必须出对子",
                "Must play a tractor when holding one"
                if tractor
                else "Must play pairs when holding them",
            )
            need = describe_answer(self.required, lang) if self.required else ""
            empty = self.shown is None or self.shown.is_empty
            shown = describe_answer(self.shown, lang) if self.shown else ""
            if lang == EN:
                has = "has no pairs" if empty else f"shows only {shown}"
                return (
                    f"{rule}: the lead is {lead_words(lead, lang)}; the {gname} in hand "
                    f"can make {need}, but the play {play} {has}."
                )
            shape = lead.shape() or type_name(SINGLE)
            has = "没有对子" if empty else f"只有{shown}"
            return f"{rule}：领牌是{shape}，手中{gname}能凑出{need}，所出 {play} {has}。"
        legal = LEGAL_PREFIX[lang]
        if not suit_cards and group == TRUMP:
            # Trumps were led: a player without trumps can only discard.
            return legal + pick(
                lang,
                f"手中没有{gname}，可任意出 {n} 张垫牌。",
                f"no {gname} in hand, so any {count_en(n, 'card')} may be discarded.",
            )
        if not suit_cards:
            return legal + pick(
                lang,
                f"手中没有{gname}（缺门），可任意出 {n} 张：垫牌或用主牌杀。",
                f"no {gname} in hand (void), so any {count_en(n, 'card')} may be played: "
                "discard, or ruff with trumps.",
            )
        if k <= n:
            return legal + pick(
                lang,
                f"{gname}不足 {n} 张，已全部打出（{held}），其余任意。",
                f"only {_many(k, gname)} in hand ({held}): all of them must be played, "
                "the rest may be any cards.",
            )
        if lead.has_pairs and self.need:
            need = profile_words(self.need, lang)
            return legal + pick(
                lang,
                f"跟{gname} {n} 张，有先同再降所要求的{need}。",
                f"{_many(n, gname)}, holding {need}, as same-grade-first asks.",
            )
        if lead.has_pairs:
            if self.required is None or self.required.is_empty:
                return legal + pick(
                    lang,
                    f"跟{gname} {n} 张；手中{gname}没有对子，出哪 {n} 张都可以。",
                    f"{_many(n, gname)}; the hand holds no {gname} pair, so any {n} of them will do.",
                )
            need = describe_answer(self.required, lang)
            return legal + pick(
                lang,
                f"跟{gname} {n} 张，含领牌结构所要求的{need}。",
                f"{_many(n, gname)}, with the {need} the lead's structure requires.",
            )
        return legal + pick(lang, f"跟{gname} {n} 张。", f"{_many(n, gname)}, following suit.")


# A verdict from all ten fields in one step, without the named tuple's own `__new__` (a Python
# function with defaults): a cold follow judgement spends a good part of its time building one.
_verdict = cast(Callable[[type[FollowVerdict], tuple[object, ...]], FollowVerdict], tuple.__new__)
_new_answer = cast(Callable[[type[Answer], tuple[tuple[int, ...], int]], Answer], tuple.__new__)


def explain_requirement(
    ctx: Context, lead: Combo, hand: Sequence[Card], example: Sequence[Card], lang: Lang = ZH
) -> str:
    """Explain what a follow from this hand must hold, from the verdict on a legal example."""
    text = judge_follow(ctx, lead, hand, example).explanation_for(lang)
    return text.replace(LEGAL_PREFIX[lang], HINT_PREFIX[lang], 1)


def _suit_cards(ctx: Context, lead: Combo, cards: Sequence[Card]) -> list[Card]:
    """List the cards of the led group, in the pair view (大王 + 小王 may be a pair)."""
    group = lead.group
    key = ctx.key
    return pair_view(ctx.ruleset, [c for c in cards if key[c][0] == group])


def judge_follow(
    ctx: Context, lead: Combo, hand: Sequence[Card], play: Sequence[Card], *, keep: bool = False
) -> FollowVerdict:
    """Judge whether playing `play` from `hand` is a legal follow to the lead.

    A hand with a view kept (`Context.held`: its forced cards or an example were asked for, or
    a follow from it was judged with `keep=True`) keeps the verdict with that view for the
    next judgement of the same follow. A hand met afresh is judged without keeping anything
    (a one-off check leaves nothing for the garbage collector to walk), unless `keep=True`:
    a caller that will judge from that hand again has its view kept."""
    hand_t, play_t = tuple(hand), tuple(play)
    if len(play_t) != len(lead.cards):
        return FollowVerdict(False, WRONG_COUNT, ctx, lead, hand_t, play_t)
    if keep or ctx.hands:  # a view may be kept, or is to be kept
        # The hand's view (`Context.held`) found by the hand object's id: a round judges the
        # same follow more than once (the player's own check, the table, then the trick),
        # and the verdict kept with the view names the very lead it answers.
        held = ctx.hands.get(id(hand))
        if held is not None and (held.cards is hand_t or held.cards == hand_t):
            hit = held.verdicts.get(play_t)
            if hit is not None and hit.lead is lead:
                return hit
        else:
            held = None
        return _judge_kept(ctx, lead, hand, hand_t, play_t, keep, held)
    # A one-off check: the hand's card codes and group codes (`held.Codes`), the cards read
    # last not encoded again (as `Codes.read` does, without its call).
    table = ctx.codes or ctx.card_codes()
    last = table.last
    if last[0] == hand_t:
        hand_t, codes, groups = last
    else:
        codes = bytes(hand_t)
        groups = codes.translate(table.to_group)
        if OUTSIDE in groups:  # a card the deck lacks
            return _judge_outside_deck(ctx, lead, hand_t, play_t)
        table.last = (hand_t, codes, groups)
    if len(play_t) == 1:  # one card, as `_judge_codes` reads it, without the call
        x = play_t[0]
        group = table.group.get(lead.group, NO_GROUP)
        if x not in codes:
            found: FollowVerdict | str = NOT_IN_HAND
        elif table.to_group[x] == group or group not in groups:
            return _verdict(
                FollowVerdict, (True, "", ctx, lead, hand_t, play_t, None, None, (), ())
            )
        else:
            found = MUST_FOLLOW_SUIT
    else:
        found = _judge_codes(ctx, lead, None, hand_t, play_t, codes, groups)
        if not isinstance(found, str):
            return found
    return _verdict(
        FollowVerdict, (not found, found, ctx, lead, hand_t, play_t, None, None, (), ())
    )


def _judge_kept(
    ctx: Context,
    lead: Combo,
    hand: Sequence[Card],
    hand_t: tuple[Card, ...],
    play_t: tuple[Card, ...],
    keep: bool,
    held: Held | None,
) -> FollowVerdict:
    """Judge a follow as `judge_follow` does when the context keeps hands' views or `keep`
    asks for one (`held`: the hand object's view, with no verdict kept for this follow, or
    None): the view is found by the hand's card codes, else made with them when `keep` asks
    (`bytes(hand_t)`, and their group codes, `held.Codes`); the verdict is kept with it."""
    hands = ctx.hands
    if held is not None:
        # The kept tuple serves the new verdict: one 25-card tuple fewer for the collector.
        hand_t = held.cards
        codes, groups = held.codes, held.groups
        if codes is None:  # a hand seen so far only for its forced cards or an example
            try:
                codes = ctx.coded(held)
            except KeyError:
                return _judge_outside_deck(ctx, lead, hand_t, play_t)
            groups = held.groups
    else:
        try:  # the cards read last are not encoded again (`Codes.read`)
            hand_t, codes, groups = (ctx.codes or ctx.card_codes()).read(hand_t)
        except KeyError:
            return _judge_outside_deck(ctx, lead, hand_t, play_t)
        held = hands.get(codes) if hands else None
        if held is None:  # a hand met afresh: kept only when asked
            if keep:
                if len(hands) >= HELD_MEMO:
                    hands.clear()
                held = hands[codes] = hands[id(hand)] = Held(ctx.key, hand_t, codes, groups)
        else:  # the same cards in another object
            hands[id(hand)] = held
            hit = held.verdicts.get(play_t)
            if hit is not None and hit.lead is lead:
                return hit
            hand_t = held.cards
    found = _judge_codes(ctx, lead, held, hand_t, play_t, codes, groups or b"")
    if isinstance(found, str):
        verdict = _verdict(
            FollowVerdict, (not found, found, ctx, lead, hand_t, play_t, None, None, (), ())
        )
    else:
        verdict = found
    if held is not None:
        held.verdicts[play_t] = verdict
    return verdict


def follow_reason(ctx: Context, lead: Combo, hand: Sequence[Card], play: Sequence[Card]) -> str:
    """Tell why a follow is illegal ("" when it is legal) as `judge_follow(..., keep=False)`
    does, without building a verdict for a hand met afresh: the trick's own judgement."""
    if ctx.hands or len(play) != len(lead.cards):  # a verdict or view kept may answer it
        return judge_follow(ctx, lead, hand, play, keep=False).reason
    try:
        codes, groups = (ctx.codes or ctx.card_codes()).encode(hand)
    except KeyError:
        return _judge_outside_deck(ctx, lead, tuple(hand), tuple(play)).reason
    found = _judge_codes(ctx, lead, None, hand, play, codes, groups)
    return found if isinstance(found, str) else found.reason


def _judge_codes(
    ctx: Context,
    lead: Combo,
    held: Held | None,
    hand: Sequence[Card],
    play: Sequence[Card],
    codes: bytes,
    groups: bytes,
) -> FollowVerdict | str:
    """Judge a follow of the lead's size on the hand's card and group codes: the hand check,
    then suit, then structure (a group's size is what its pair view keeps, `_suit_cards`).
    Return the reason code ("" when legal), or the verdict on the structure if that decided."""
    table = ctx.codes or ctx.card_codes()
    group = table.group.get(lead.group, NO_GROUP)
    n = len(play)
    if n == 1:
        x = play[0]
        if x not in codes:
            return NOT_IN_HAND
        if table.to_group[x] == group or group not in groups:
            return ""  # of the led group, or the hand has none of it
        return MUST_FOLLOW_SUIT
    # Every card of the play in hand, and a card played twice or more held as often (a card
    # the deck lacks is in no hand of it); m: how many are of the led group.
    to_group = table.to_group
    wanted: dict[int, int] | None = None  # 3+ cards, some twice: the play's copies, and
    units = mask = 0  # the pairs they hold (as `_copies_answer` reads them)
    if n == 2:  # the commonest follow of more than one card, read without a code string
        a, b = play
        if not (a in codes and b in codes and (a != b or codes.count(a) >= 2)):
            return NOT_IN_HAND
        m = (to_group[a] == group) + (to_group[b] == group)
    else:
        played = bytes(play)  # none left once the hand's codes are taken out
        if played.translate(None, codes):
            return NOT_IN_HAND
        if len(set(played)) != n:  # a card played twice or more: held as often?
            wanted = {}
            count_into(wanted, played)
            link = table.link
            for y, c in wanted.items():
                if c > 1:
                    if codes.count(y) < c:
                        return NOT_IN_HAND
                    units += c >> 1
                    mask |= 1 << link[y]
        m = played.translate(to_group).count(group)
    k = groups.count(group)
    if k <= n:
        return "" if m == k else MUST_FOLLOW_SUIT
    if m != n:
        return MUST_FOLLOW_SUIT
    if not lead.has_pairs:
        return ""
    return _judge_structure(
        ctx, lead, held, tuple(hand), tuple(play), codes, group, wanted, units, mask
    )


def _judge_outside_deck(
    ctx: Context, lead: Combo, hand_t: tuple[Card, ...], play_t: tuple[Card, ...]
) -> FollowVerdict:
    """Judge a follow from a hand with a card the deck lacks: not in hand, or the KeyError a
    look-up of that card has always raised."""
    if not is_subset(play_t, hand_t):
        return FollowVerdict(False, NOT_IN_HAND, ctx, lead, hand_t, play_t)
    raise KeyError(next(c for c in hand_t if c not in ctx.key))


def _judge_structure(
    ctx: Context,
    lead: Combo,
    held: Held | None,
    hand_t: tuple[Card, ...],
    play_t: tuple[Card, ...],
    codes: bytes,
    group: int,
    wanted: dict[int, int] | None = None,
    units: int = 0,
    mask: int = 0,
) -> FollowVerdict:
    """Judge the structure of a follow that holds only cards of the led group, from a hand
    with more of them (`codes` is the hand's codes, `group` the led group's code; `held` the
    hand's kept view, or None for a hand not kept, which gets a view only if one is needed;
    `wanted` the play's copies of each code when counted already, changed here at will, with
    its pairs and their positions, `units` and `mask` as `_copies_answer` reads them)."""
    if lead.width >= 3:  # as needs_ladder(lead.width, suit)
        return _judge_ladder(ctx, lead, held or Held(ctx.key, hand_t, codes), hand_t, play_t)
    table = ctx.codes or ctx.card_codes()
    bins, lone = lead.pair_slots
    if not bins and not table.mixed:
        # Pairs alone: the answer is how many pairs the cards hold (up to the lead's). With at
        # most two copies of a card, that is how many cards exceed the distinct ones.
        if wanted is None:  # two cards, or no card twice: the group read afresh
            suit = codes.translate(None, table.outside.get(group) or table.outside_of(group))
            counts: dict[int, int] = {}
            count_into(counts, suit)
            pairs = len(suit) - len(counts)
            played = len(play_t) - len(set(play_t))
        else:  # a throw: the group's copies counted once for the hand read last
            counts = table.group_copies(codes, group, table.seen_for(codes))
            pairs = sum(counts.values()) - len(counts)
            played = len(play_t) - len(wanted)
        widest = max(counts.values()) if pairs >= 2 else 2
        # Two cards beyond the distinct ones may be one card three times.
        if widest >= 3:
            view = held or Held(ctx.key, hand_t, codes)
            return _judge_ladder(ctx, lead, view, hand_t, play_t)  # as needs_ladder
        required = _pairs_answer(pairs if pairs < lone else lone)
        # The play is of the suit, so no card of it has three copies either.
        shown = _pairs_answer(played if played < lone else lone)
    else:
        answered = _tractor_answers(table, lead, held, play_t, codes, group, wanted, units, mask)
        if answered is None:  # a card of the group three times in hand
            view = held or Held(ctx.key, hand_t, codes)
            return _judge_ladder(ctx, lead, view, hand_t, play_t)
        shown, required = answered
    legal = shown == required  # as shown.rank == required.rank: equal tractors, equal pairs
    reason = (
        ""
        if legal
        else MUST_PLAY_TRACTOR
        if shown.tractors != required.tractors
        else MUST_PLAY_PAIR
    )
    return _verdict(
        FollowVerdict, (legal, reason, ctx, lead, hand_t, play_t, required, shown, (), ())
    )


def _tractor_answers(
    table: Codes,
    lead: Combo,
    held: Held | None,
    play_t: tuple[Card, ...],
    codes: bytes,
    group: int,
    wanted: dict[int, int] | None,
    units: int,
    mask: int,
) -> tuple[Answer, Answer] | None:
    """Rank what a play shows of a lead with tractors (or of mixed joker pairs) and the best
    answer the hand gives (as `_judge_structure` takes them); None when the hand holds a card
    of the group three times (the ladder decides). The hand's answer is kept with its view
    (`held`), else for the hand read last (`Codes.seen_for`)."""
    bins, lone = lead.pair_slots
    if wanted is None:
        shown = _copies_answer(table, table.copies(bytes(play_t)), bins, lone)
    elif table.mixed:
        table.pair_view(wanted)
        shown = _copies_answer(table, wanted, bins, lone)
    else:
        shown = _mask_answer(table, wanted, units, mask, bins, lone)
    shape = (lead.group, bins, lone)
    seen = None
    if held is not None:
        answers = held.answers
        if answers is None:
            answers = held.answers = {}
    else:
        seen = table.seen_for(codes)
        answers = seen[2] if seen is not None else None
    kept = answers.get(shape) if answers is not None else None
    if kept is None:
        suit_copies = table.group_copies(codes, group, seen)
        if max(suit_copies.values()) >= 3:  # as needs_ladder(lead.width, suit)
            return None
        kept = _hand_answer(table, suit_copies, shown, bins, lone)
        if answers is not None:
            answers[shape] = kept
    return shown, kept


# The answers of pairs alone, shared: an answer is an immutable tuple compared by value.
_PAIRS_ONLY = tuple(_new_answer(Answer, ((), k)) for k in range(32))


def _pairs_answer(pairs: int) -> Answer:
    """Return the answer that shows `pairs` pairs and no tractor."""
    return _PAIRS_ONLY[pairs] if pairs < len(_PAIRS_ONLY) else _new_answer(Answer, ((), pairs))


def _answer(counts: dict[int, int], bins: tuple[int, ...], lone: int) -> Answer:
    """Rank the best answer pairs by position give to a lead's tractors and lone pairs (as
    `combos.answer_structure` does from cards)."""
    tractors, units = rank_answer(counts, bins, lone)
    return _new_answer(Answer, (tractors, units - sum(tractors)))


def _hand_answer(
    table: Codes, counts: dict[int, int], shown: Answer, bins: tuple[int, ...], lone: int
) -> Answer:
    """Rank the best answer a hand's cards of the led group (`counts`, copies per code) give
    to a lead's tractors and pairs, knowing what the play shows: a play that shows all the
    lead asks for is the hand's answer too, as the hand holds its cards (and reads no mixed
    joker pair the play lacks); else `_copies_answer`."""
    if not table.mixed and shown == _new_answer(Answer, (tuple(sorted(bins, reverse=True)), lone)):
        return shown
    return _copies_answer(table, counts, bins, lone)


def _copies_answer(
    table: Codes, counts: dict[int, int], bins: tuple[int, ...], lone: int
) -> Answer:
    """Rank the best answer cards given as their copies per code (`Codes.copies`) give to a
    lead's tractors and lone pairs, as `_answer` does from their pairs by position: read off
    a bit mask of the positions holding a pair (the longest run of set bits is the longest
    stretch of pairs) when the lead has no tractor, the cards no two adjacent pairs, or the
    lead one tractor that the longest stretch fills as far as one piece can; else by the
    search."""
    units = mask = 0
    link = table.link
    for x, k in counts.items():
        if k >= 2:
            units += k >> 1
            mask |= 1 << link[x]
    return _mask_answer(table, counts, units, mask, bins, lone)


def _mask_answer(
    table: Codes,
    counts: dict[int, int],
    units: int,
    mask: int,
    bins: tuple[int, ...],
    lone: int,
) -> Answer:
    """Rank the answer as `_copies_answer` does, from the cards' copies per code and the pairs
    they hold: how many (`units`) and a bit mask of their positions (`mask`)."""
    if not bins or not mask & (mask >> 1):  # no tractor asked, or no two pairs adjacent
        return _new_answer(Answer, ((), min(units, sum(bins) + lone)))
    if len(bins) == 1:
        tractor = bins[0]
        longest, run = 0, mask
        while run:  # each step shortens every run of set bits by one
            run &= run >> 1
            longest += 1
        length = min(tractor, longest)
        if tractor - length < 2:  # as `structure.rank_answer` reads one tractor
            tractors = (length,) if length >= 2 else ()
            return _new_answer(Answer, (tractors, min(units, tractor + lone) - sum(tractors)))
    if units == mask.bit_count():  # one pair at each position: the search on run lengths
        pieces = rank_single(mask, bins)
        return _new_answer(Answer, (pieces, min(units, sum(bins) + lone) - sum(pieces)))
    return _answer(table.pair_counts(counts), bins, lone)


def _judge_ladder(
    ctx: Context, lead: Combo, held: Held, hand_t: tuple[Card, ...], play_t: tuple[Card, ...]
) -> FollowVerdict:
    """Judge the structure of a follow to a lead of wider units (or from a hand with them) by
    the width ladder: same grade first, then step down."""
    suit, _ = held.view(lead.group, ctx.ruleset)  # as _suit_cards(ctx, lead, hand_t)
    played = _suit_cards(ctx, lead, play_t)
    ladder = _ladder(lead)
    best, shows = ladder.best(columns(ctx, suit)), ladder.best(columns(ctx, played))
    gap = first_gap(best, shows)
    if gap is None:
        return FollowVerdict(True, "", ctx, lead, hand_t, play_t, need=best, got=shows)
    reason = (
        MUST_PLAY_TRACTOR if gap[1] >= 2 else MUST_PLAY_TUPLE if gap[0] >= 3 else MUST_PLAY_PAIR
    )
    return FollowVerdict(False, reason, ctx, lead, hand_t, play_t, need=best, got=shows)


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


def _real(ctx: Context, hand: Sequence[Card], cards: Iterable[Card]) -> list[Card]:
    """Sort cards chosen from the pair view of a hand, as the hand's real cards."""
    return ctx.sort_cards(restore(hand, list(cards)))


def generate_forced(ctx: Context, lead: Combo, hand: Sequence[Card]) -> list[Card]:
    """List the cards that every legal follow from this hand contains (the auto-hint)."""
    n = len(lead.cards)
    held = ctx.held(hand)
    suit, widest = held.view(lead.group, ctx.ruleset)  # as _suit_cards
    if len(suit) <= n:
        rest = [c for c in hand if ctx.key[c][0] != lead.group]
        short = Counter(suit) + _forced_fill(rest, n - len(suit))
        return _real(ctx, hand, short.elements())
    if not lead.has_pairs:
        return _real(ctx, hand, _forced_fill(suit, n).elements())
    if lead.width >= 3 or widest >= 3:  # as needs_ladder(lead.width, suit)
        return _real(ctx, hand, forced_counts(_ladder(lead), ctx, list(suit), n).elements())
    # A card is forced as far as taking away its copies would lower the best answer the hand
    # can give (the search is exact, so a legal follow without them would then be impossible);
    # beyond that, only the count: at most len(suit) - n copies can be left out.
    bins, lone = lead.pair_slots
    free = slack(pair_counts(ctx, suit), bins, lone)  # pairs each position can spare
    spare = len(suit) - n
    link = ctx.link
    forced: Counter[Card] = Counter()
    for card, m in held.copies(lead.group, ctx.ruleset).items():
        removable = 0
        while removable < min(m, spare):
            lost = m // 2 - (m - removable - 1) // 2  # this card's pairs gone
            if lost > free.get(link[card], 0):
                break
            removable += 1
        if removable < m:
            forced[card] = m - removable
    return _real(ctx, hand, forced.elements())


def generate_example(ctx: Context, lead: Combo, hand: Sequence[Card]) -> list[Card]:
    """Build one legal follow: the required structure, then the cheapest other cards."""
    n = len(lead.cards)
    held = ctx.held(hand)
    suit, widest = held.view(lead.group, ctx.ruleset)  # as _suit_cards
    if len(suit) <= n:
        rest = sorted((c for c in hand if ctx.key[c][0] != lead.group), key=ctx.cheap.__getitem__)
        return _real(ctx, hand, [*suit, *rest[: n - len(suit)]])
    counts = held.copies(lead.group, ctx.ruleset)
    if not lead.has_pairs:
        chosen: list[Card] = []
    elif lead.width >= 3 or widest >= 3:  # as needs_ladder(lead.width, suit)
        chosen = _ladder(lead).plan(ctx, list(suit))
    else:
        bins, lone = lead.pair_slots
        slot = (lead.group, bins, lone)
        matches = held.matches
        if matches is None:
            matches = held.matches = {}
        shown = matches.get(slot)
        if shown is None:
            shown = matches[slot] = match_copies(ctx, lead, counts).cards
        chosen = list(shown)
    return _real(ctx, hand, chosen + _cheapest(ctx, counts, chosen, n - len(chosen)))


def _cheapest(ctx: Context, counts: dict[Card, int], taken: Sequence[Card], k: int) -> list[Card]:
    """List the k cheapest cards left once `taken` is set aside from cards given as their
    copies (`cards.copies`): fewest points, then weakest; ties in the order of `counts`."""
    if k <= 0:
        return []
    left = dict(counts)
    for c in taken:
        left[c] -= 1
    out: list[Card] = []
    for c in sorted(left, key=ctx.cheap.__getitem__):
        out += [c] * left[c]
        if len(out) >= k:
            break
    return out[:k]
