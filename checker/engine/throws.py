"""Throws: whether a multi-unit lead stands against the other hands, and what a failed one plays."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import NamedTuple, cast

from .cards import Card, copies, format_cards
from .combos import PAIR, SINGLE, THROW, TRACTOR, Combo, PairStock, Unit, classify
from .errors import PlayError
from .held import OUTSIDE, Codes
from .jokers import pair_view, restore
from .native import mypyc_attr
from .order import Context
from .ruleset import BeatenBy, FailedThrow, Ruleset
from .texts import EN, Explained, Lang, cards_text, pick
from .units import Stock

KIND_ORDER = {SINGLE: 0, PAIR: 1, TRACTOR: 2}


# What a failed throw forces, per ruleset policy.
POLICY_TEXT = {
    FailedThrow.FIRST_BEATEN_UNIT: ("强制打出这个被压的分量", "The beaten unit is forced"),
    FailedThrow.SMALLEST_OF_BEATEN_KIND: (
        "强制打出被压牌型中最小的一组",
        "The smallest unit of the beaten kind is forced",
    ),
    FailedThrow.SMALLEST_CARD: (
        "只强制打出甩牌中最小的一张",
        "Only the smallest card of the throw is forced",
    ),
}


class _ThrowFields(NamedTuple):
    """The fields of a throw verdict, as a tuple: a verdict is built in one step (`_verdict`)."""

    combo: Combo
    allowed: bool
    forced: tuple[Card, ...]
    beaten: Unit | None
    beater: tuple[int, tuple[Card, ...]] | None
    penalty: int
    penalty_to: str
    policy: FailedThrow
    ctx: Context | None = None


@mypyc_attr(native_class=False)  # a subclass of a builtin: a plain class when compiled
class ThrowVerdict(_ThrowFields, Explained):
    """The judgement of a lead against the other hands."""

    __slots__ = ()

    def __repr__(self) -> str:
        """Show the fields but the context, by name."""
        fields = ", ".join(f"{n}={v!r}" for n, v in zip(self._fields[:-1], self, strict=False))
        return f"ThrowVerdict({fields})"

    def __eq__(self, other: object) -> bool:
        """Compare two verdicts field by field, the context aside (never equal to a tuple)."""
        return isinstance(other, ThrowVerdict) and self[:-1] == other[:-1]

    def __ne__(self, other: object) -> bool:
        """Tell two verdicts apart field by field, the context aside."""
        return not self.__eq__(other)

    def __hash__(self) -> int:
        """Hash the fields but the context."""
        return hash(self[:-1])

    @property
    def played(self) -> tuple[Card, ...]:
        """Give the cards that count as led: the whole lead, or the forced cards of a failed throw."""
        return self.combo.cards if self.allowed else self.forced

    def _explain(self, lang: Lang) -> str:
        """Explain why the throw stands or which unit was beaten and what is forced."""
        combo = self.combo
        cards = cards_text(combo.cards, lang)
        if not combo.is_valid:
            reason = combo.reason_for(self.ctx, lang) if self.ctx is not None else combo.reason
            return pick(lang, f"不能甩牌：{cards}——{reason}。", f"Cannot throw {cards}: {reason}.")
        if combo.type != THROW:
            return pick(
                lang,
                f"{cards} 不是甩牌（单一牌型），无需检查，照常出牌。",
                f"{cards} is not a throw (it is a single combination): "
                "nothing to check, play it as usual.",
            )
        if self.allowed:
            shape = combo.shape(lang)
            wider = self.ctx is not None and beaten_by(self.ctx.ruleset) == BeatenBy.SAME_COUNT
            return pick(
                lang,
                f"甩牌成立：{shape}，每个分量都没有其他玩家能用同花色更大的同类牌"
                f"{'或张数相同而更宽的牌' if wider else ''}压过。",
                f"The throw stands: {shape}; no other player can beat any of its units "
                f"with a higher one of the same kind{' or a wider one of as many cards' if wider else ''}"
                " in the same suit.",
            )
        assert self.beaten is not None and self.beater is not None
        who, beater = self.beater
        unit, by = self.beaten.describe(lang), cards_text(beater, lang)
        zh_policy, en_policy = POLICY_TEXT[self.policy]
        forced = cards_text(self.forced, lang)
        text = pick(
            lang,
            f"甩牌失败：按“单张→对子→拖拉机”的顺序检查，分量 {unit} "
            f"可被第{who + 1}位其他玩家的 {by} 压过。"
            f"{zh_policy}：{forced}，其余收回。",
            "The throw fails: checking its units in the order single → pair → tractor, "
            f"the {unit} can be beaten by {by} of other player {who + 1}. "
            f"{en_policy}: {forced}; the rest go back to the hand.",
        )
        if self.penalty:
            n = abs(self.penalty)
            if self.penalty > 0:
                text += pick(
                    lang, f"罚 {n} 分，加给闲家。", f" Penalty: {n} points to the attackers."
                )
            else:
                text += pick(
                    lang,
                    f"罚 {n} 分，从闲家得分中扣除。",
                    f" Penalty: {n} points deducted from the attackers.",
                )
        return text


# Build a verdict from its fields in one step (`ThrowVerdict`'s own constructor is slower).
_verdict = cast(Callable[[type[ThrowVerdict], tuple[object, ...]], ThrowVerdict], tuple.__new__)


def _stands(ctx: Context, combo: Combo, policy: FailedThrow) -> ThrowVerdict:
    """Judge a lead allowed: every card of it counts as led."""
    return _verdict(ThrowVerdict, (combo, True, combo.cards, None, None, 0, "none", policy, ctx))


BEATEN_BY_OPTION = "throw_beaten_by"


def beaten_by(rs: Ruleset) -> BeatenBy:
    """Return what breaks a throw's unit: the `throw_beaten_by` option if the ruleset has one,
    else its `throw.beaten_by` (same_shape unless written)."""
    if rs.has_option(BEATEN_BY_OPTION):
        return BeatenBy(rs.option(BEATEN_BY_OPTION))
    return rs.throw.beaten_by


def find_beater(
    ctx: Context, unit: Unit, group: str, cards: Sequence[Card], *, wider: bool
) -> tuple[Card, ...] | None:
    """Find among cards a unit of the group that beats `unit`: the lowest higher one of the same
    shape, else, with wider=True, the narrowest, lowest wider unit with as many cards (相同数量的
    对牌大于相同数量的拖拉机: how a lone unit is beaten in a trick, and a throw's unit under
    `throw.beaten_by: same_count`)."""
    view = pair_view(ctx.ruleset, cards) if unit.width >= 2 else list(cards)
    found = _same_shape_beater(ctx, unit, group, view)
    if found is None and wider and unit.width >= 2:
        found = _wider_beater(ctx, unit, group, view)
    return None if found is None else tuple(restore(cards, found))


def beats_wider_in_throw(rs: Ruleset) -> bool:
    """Tell whether a wider unit with as many cards breaks a throw's unit (policy same_count)."""
    return beaten_by(rs) == BeatenBy.SAME_COUNT


def _wider_beater(
    ctx: Context, unit: Unit, group: str, hand: Sequence[Card]
) -> tuple[Card, ...] | None:
    """Find the narrowest, lowest unit wider than `unit` with its number of cards (any rank:
    at the same count the wider unit is bigger, 相同数量的对牌大于相同数量的拖拉机)."""
    size = unit.size
    stock = Stock(ctx, Counter(c for c in hand if ctx.key[c][0] == group))
    for width in range(unit.width + 1, min(size, stock.max_width()) + 1):
        if size % width:
            continue
        span = size // width
        runs = [(low, high) for low, high in stock.runs(width) if high - low + 1 >= span]
        if runs:
            low = min(low for low, _ in runs)
            return tuple(stock.take(low, low + span - 1, width))
    return None


def _same_shape_beater(
    ctx: Context, unit: Unit, group: str, hand: Sequence[Card]
) -> tuple[Card, ...] | None:
    """Find the lowest unit of the same shape in hand that beats `unit`, or None."""
    mine = [c for c in hand if ctx.key[c][0] == group]
    if unit.kind == SINGLE:
        better = [c for c in mine if ctx.key[c][1] > unit.top]
        return (min(better, key=lambda c: ctx.key[c][1]),) if better else None
    key = ctx.key
    width = unit.width
    if unit.span == 1:  # n-of-a-kind rank by strength, wherever tractors connect
        counts = copies(mine)
        higher = [c for c, n in counts.items() if n >= width and key[c][1] > unit.top]
        if not higher:
            return None
        low = min(key[c][1] for c in higher)
        at_low = [c for c in higher if key[c][1] == low]
        return (min(at_low) if width == 2 else max(at_low),) * width
    if width == 2:  # pair tractors: the pair stock answers directly
        pairs = PairStock(ctx, copies(mine))
        found = pairs.highest_run(unit.span)
        return None if found is None or found[1] <= unit.top else tuple(pairs.take(*found))
    stock = Stock(ctx, Counter(mine))
    run = stock.highest_run(width, unit.span)
    if run is None or run[1] <= unit.top:
        return None
    return tuple(stock.take(*run, width))


def judge_throw(
    ctx: Context,
    cards: Sequence[Card],
    others: Sequence[Sequence[Card]],
    seat: int | None = None,
    banker: int | None = None,
) -> ThrowVerdict:
    """Judge whether a lead stands: every unit must be unbeatable by every other hand."""
    combo = classify(ctx, cards)
    policy = ctx.ruleset.failed_throw
    if combo.type != THROW:
        return _not_a_throw(ctx, combo, cards, policy)
    widest = combo.units[0]  # the units go widest first
    table = ctx.codes or ctx.card_codes()
    if len(widest.cards) <= 2 * (widest.length or 1) and not table.mixed:
        beaten = _beaten_narrow(ctx, table, combo, others)  # no unit wider than a pair
        if beaten is None:
            return _stands(ctx, combo, policy)
        return _failed(ctx, combo, beaten[0], beaten[1], policy, seat, banker)
    return _judge_units(ctx, combo, others, policy, seat, banker)


def _beaten_narrow(
    ctx: Context, table: Codes, combo: Combo, others: Sequence[Sequence[Card]]
) -> tuple[Unit, tuple[int, tuple[Card, ...]]] | None:
    """Find the unit of a throw of no unit wider than a pair (no mixed jokers) that another
    hand beats, and the beater (the hand and its cards), as `_judge_units` finds them: the
    weakest single (of equal ones the first), beaten by any stronger card of the group; the
    weakest lone pair, by a stronger card held twice; then each tractor, shortest and lowest
    first (`_beaten_tractor`). None if the throw stands."""
    units = combo.units  # tractors (longest first), pairs, singles (each highest first)
    code = table.group[combo.group]
    i = len(units) - 1
    coded: list[bytes] = []  # the hands' codes, once read (`_first_beater`)
    if not units[i].length:  # the weakest single, of equal ones the first
        top = units[i].top
        while i and units[i - 1].top == top and not units[i - 1].length:
            i -= 1
        weak = table.weaker.get((code, top)) or table.not_above(code, top)
        if not units[0].length:  # singles alone: each hand's cards looked up in a set, in C
            kept = table.stronger(code, top)
            for who, hand in enumerate(others):
                if not kept.isdisjoint(hand):
                    strong = bytes(hand).translate(None, weak)
                    return units[i], (who, _beater(table, strong, top, hand))
            return None
        found = _first_beater(table, others, coded, weak, top, False)
        if found is not None:
            return units[i], found
        while not units[i].length:
            i -= 1
    if units[i].length == 1:  # the weakest lone pair, of equal ones the first
        top = units[i].top
        while i and units[i - 1].top == top and units[i - 1].length == 1:
            i -= 1
        weak = table.weaker.get((code, top)) or table.not_above(code, top)
        found = _first_beater(table, others, coded, weak, top, True)
        if found is not None:
            return units[i], found
    if units[0].length < 2:
        return None
    tractors = sorted([u for u in units if u.length > 1], key=_LENGTH_TOP)
    return _beaten_tractor(ctx, table, combo.group or "", tractors, others, coded)


def _beaten_tractor(
    ctx: Context,
    table: Codes,
    group: str,
    tractors: list[Unit],
    others: Sequence[Sequence[Card]],
    coded: list[bytes],
) -> tuple[Unit, tuple[int, tuple[Card, ...]]] | None:
    """Find the first of a throw's pair tractors (in the order checked) that a hand beats
    (`_can_beat`), with the beater (`find_beater`); the hands' codes read so far (`coded`)
    are read again for none, and a hand first read here with a card the deck lacks raises
    its KeyError."""
    if not others:
        return None
    outside = table.outside_of(table.group[group])
    wider = beats_wider_in_throw(ctx.ruleset)
    reads: list[tuple[bytes, dict[int, int]]] = []  # per hand: its codes of the group, copies
    for unit in tractors:
        for who, hand in enumerate(others):
            suit, counts = _group_read(table, hand, who, coded, reads, outside)
            if _can_beat(ctx, unit, group, suit, counts, wider):
                beater = find_beater(ctx, unit, group, table.cards_of(suit), wider=wider)
                assert beater is not None  # as the yes/no check found
                return unit, (who, beater)
    return None


def _group_read(
    table: Codes,
    hand: Sequence[Card],
    who: int,
    coded: list[bytes],
    reads: list[tuple[bytes, dict[int, int]]],
    outside: bytes,
) -> tuple[bytes, dict[int, int]]:
    """Read the hand `who` (hands are read in order) for the group's units: its codes of the
    group (`outside`, the codes to delete) and their copies (`Codes.copies`), kept in `reads`;
    its codes, kept in `coded`, are read once (a card the deck lacks raises its KeyError)."""
    if who < len(reads):
        return reads[who]
    if who < len(coded):
        codes = coded[who]
    else:
        codes = bytes(hand)
        coded.append(codes)
        if OUTSIDE in codes.translate(table.to_group):
            table.encode(hand)
    suit = codes.translate(None, outside)
    read = suit, table.copies(suit)
    reads.append(read)
    return read


def _first_beater(
    table: Codes,
    others: Sequence[Sequence[Card]],
    coded: list[bytes],
    weak: bytes,
    top: int,
    pair: bool,
) -> tuple[int, tuple[Card, ...]] | None:
    """Find the first hand holding a card of the group stronger than `top` (held twice, for
    a pair) and its beater (`_beater`), reading each hand's codes once into `coded`."""
    to_group = table.to_group
    for who, hand in enumerate(others):
        if who < len(coded):
            codes = coded[who]
        else:
            codes = bytes(hand)
            coded.append(codes)
        strong = codes.translate(None, weak)  # the stronger cards of the group
        if not strong:
            continue
        if pair and len(set(strong)) == len(strong) and OUTSIDE not in strong.translate(to_group):
            continue
        return who, _beater(table, strong, top, hand, pair)
    return None


def _beater(
    table: Codes, strong: bytes, top: int, hand: Sequence[Card], pair: bool = False
) -> tuple[Card, ...]:
    """Give the cards of a hand that beat a single or a pair (`_weakest`), from its codes kept
    by `Codes.not_above` (`strong`); a card the deck lacks (kept too) raises its KeyError."""
    if OUTSIDE in strong.translate(table.to_group):
        table.encode(hand)
    return _weakest(table, strong, top, pair)


# Per string of codes to delete (`Codes.not_above`), the codes it keeps, as a set (a hand's
# cards are then looked up in it in one C loop), up to a bound before starting afresh.
def _judge_units(
    ctx: Context,
    combo: Combo,
    others: Sequence[Sequence[Card]],
    policy: FailedThrow,
    seat: int | None,
    banker: int | None,
) -> ThrowVerdict:
    """Judge a throw unit by unit against each hand (any shape of units, mixed jokers)."""
    group = combo.group or ""
    wider = beats_wider_in_throw(ctx.ruleset)  # whether a wider unit breaks one
    widest = combo.units[0]  # the units go widest first
    narrow = len(widest.cards) <= 2 * (widest.length or 1)  # no unit wider than a pair
    order = sorted(combo.units, key=_LENGTH_TOP if narrow else _check_order)
    # Only each hand's cards of the thrown group can beat a unit, and each unit asks only
    # whether some beat it: a single (a pair, unless the jokers mix) as `_first_beater` does;
    # a wider unit reads the hand's codes of the group, cut once per hand (`_group_read`).
    # The beater's cards are found for the unit and hand that fail the throw.
    table = ctx.codes or ctx.card_codes()
    code, mixed = table.group[group], table.mixed
    outside = table.outside_of(code)
    coded: list[bytes] = []
    reads: list[tuple[bytes, dict[int, int]]] = []
    # Per hand, once read: its strongest pair's position (-2 until asked, -1: none; with
    # mixed jokers). Units are checked weakest first: once the weakest single (pair) stands
    # against every hand, every single (pair) does; with mixed jokers, once every hand has
    # given its strongest pair, a pair at least as strong as all of them is beaten by none.
    pair_tops = [-2] * len(others)
    stand = [False, False]  # whether the singles, the pairs stand
    top_pair = -2
    for unit in order:
        length, top = unit.length, unit.top
        pair = length == 1 and len(unit.cards) == 2
        if length == 0 or pair and not mixed:
            if not stand[length]:
                weak = table.weaker.get((code, top)) or table.not_above(code, top)
                found = _first_beater(table, others, coded, weak, top, pair)
                if found is not None:
                    return _failed(ctx, combo, unit, found, policy, seat, banker)
                stand[length] = True
            continue
        if pair and top >= top_pair >= -1:
            continue
        for who, hand in enumerate(others):
            suit, counts = _group_read(table, hand, who, coded, reads, outside)
            if pair:  # beaten by the hand's strongest pair (in the pair view) if stronger
                if pair_tops[who] == -2:
                    paired = [table.to_pos[x] for x, k in counts.items() if k >= 2]
                    pair_tops[who] = max(paired) if paired else -1
                if pair_tops[who] <= top:
                    continue
            elif not _can_beat(ctx, unit, group, suit, counts, wider):
                continue
            beater = find_beater(ctx, unit, group, table.cards_of(suit), wider=wider)
            assert beater is not None  # as the yes/no check found
            return _failed(ctx, combo, unit, (who, beater), policy, seat, banker)
        if pair:
            top_pair = max(pair_tops, default=-1)
    return _stands(ctx, combo, policy)


def _weakest(table: Codes, strong: bytes, top: int, pair: bool) -> tuple[Card, ...]:
    """Give the cards of a hand's group stronger than `top` (`strong`, their codes) that beat
    a single or a pair as `find_beater` finds them: the weakest stronger card, the first in
    hand order; the weakest stronger card held twice, of equal ones the lowest code."""
    if pair:
        card = table.card[_lowest_pair_above(table.copies(strong), table.to_pos, top)]
        return (card, card)
    return (table.card[_lowest_above(strong, table.to_pos, top)],)


def _failed(
    ctx: Context,
    combo: Combo,
    unit: Unit,
    beater: tuple[int, tuple[Card, ...]],
    policy: FailedThrow,
    seat: int | None,
    banker: int | None,
) -> ThrowVerdict:
    """Judge a throw failed: `unit` is beaten by `beater` (the other player and the cards)."""
    forced = _forced(ctx, combo, unit, policy)
    penalty, to = _penalty(ctx, forced, seat, banker)
    return _verdict(ThrowVerdict, (combo, False, forced, unit, beater, penalty, to, policy, ctx))


def _not_a_throw(
    ctx: Context, combo: Combo, cards: Sequence[Card], policy: FailedThrow
) -> ThrowVerdict:
    """Judge a lead that is no throw: a single combination stands; cards of one suit the
    ruleset forbids throwing get a verdict; cards of several suits are bad input."""
    if combo.is_valid:
        return _stands(ctx, combo, policy)
    if combo.group is None:
        raise PlayError(
            f"{format_cards(cards)} 不能领出：{combo.reason}",
            en=f"{format_cards(cards)} cannot be led: {combo.reason_for(ctx, EN)}",
            field="cards",
        )
    # One suit, but the ruleset forbids throwing it: a verdict, not bad input.
    return _verdict(ThrowVerdict, (combo, False, (), None, None, 0, "none", policy, ctx))


def _lowest_above(suit: bytes, to_pos: bytes, top: int) -> int:
    """Return the code of the weakest card stronger than `top` among a hand's codes of the
    group (the first such in hand order), as `find_beater` finds a single's beater."""
    best = -1
    low = 1 << 30
    for x in suit:
        p = to_pos[x]
        if top < p < low:
            best, low = x, p
    return best


def _lowest_pair_above(counts: dict[int, int], to_pos: bytes, top: int) -> int:
    """Return the code of the weakest card held twice that is stronger than `top` (of equal
    ones the lowest code), as `find_beater` finds a pair's beater without mixed jokers."""
    best = -1
    low = 1 << 30
    for x, k in counts.items():
        if k >= 2:
            p = to_pos[x]
            if top < p and (p < low or p == low and x < best):
                best, low = x, p
    return best


def _check_order(unit: Unit) -> tuple[int, int, int]:
    """Order a throw's units as they are checked: narrowest, shortest, lowest first."""
    length = unit.length
    return (len(unit.cards) // (length or 1), length, unit.top)


# The same order for a throw of no unit wider than a pair, read in C: there a unit's length
# tells its width (a single's is 0, a pair's or a pair tractor's 1 and up).
_LENGTH_TOP = itemgetter(3, 2)


def _can_beat(
    ctx: Context, unit: Unit, group: str, suit: bytes, counts: dict[int, int], wider: bool
) -> bool:
    """Tell whether a hand's cards of the group (`suit`, their codes; `counts`, the copies
    of each in the pair view, `held.Codes.copies`) beat `unit` as `find_beater` finds a
    beater: a single by any stronger card, n of a kind by a stronger card held n times, a
    pair tractor by a higher run of pairs; other units by `find_beater` itself."""
    table = ctx.codes or ctx.card_codes()
    length = unit.length
    to_pos, low = table.to_pos, unit.top
    if length == 0:
        return any(to_pos[x] > low for x in suit)
    width = len(unit.cards) // length
    if length == 1:  # n of a kind: by a stronger card held n times (never by a wider unit)
        return any(k >= width and to_pos[x] > low for x, k in counts.items())
    if width == 2:  # a pair tractor: by a higher run of as many pairs (as `PairStock` finds)
        if _higher_run(table.link, counts, length, unit.top):
            return True
        if not wider:
            return False
    return find_beater(ctx, unit, group, table.cards_of(suit), wider=wider) is not None


def _higher_run(link: list[int], counts: dict[int, int], length: int, top: int) -> bool:
    """Tell whether the codes held twice or more (`counts`, copies per code) make a run of
    `length` tractor positions (`Codes.link`) ending above `top`: a bit mask of the
    positions holding a pair, each step keeping the positions that start a run one longer."""
    mask = 0
    for x, k in counts.items():
        if k >= 2:
            mask |= 1 << link[x]
    for _ in range(length - 1):
        mask &= mask >> 1
    shift = top - length + 2  # the lowest start of a run ending above `top`
    return (mask >> shift if shift > 0 else mask) != 0


def _forced(ctx: Context, combo: Combo, beaten: Unit, policy: FailedThrow) -> tuple[Card, ...]:
    if policy == FailedThrow.FIRST_BEATEN_UNIT:
        return beaten.cards
    if policy == FailedThrow.SMALLEST_OF_BEATEN_KIND:
        same = [u for u in combo.units if u.kind == beaten.kind]
        return min(same, key=lambda u: (u.top, u.length)).cards
    lowest = min(combo.cards, key=lambda c: ctx.key[c][1])
    return (lowest,)


def _penalty(
    ctx: Context, forced: Sequence[Card], seat: int | None, banker: int | None
) -> tuple[int, str]:
    table = ctx.ruleset.throw_penalty
    if not table:
        return 0, "none"
    unit = classify(ctx, forced).units[0]
    amount = {SINGLE: table[0], PAIR: table[1]}.get(unit.kind, table[2] * unit.length)
    if seat is not None and banker is not None and not ctx.ruleset.is_banker_side(seat, banker):
        amount = -amount
    return amount, "attackers"
