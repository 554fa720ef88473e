"""Players of simulated rounds: what a seat sees, and random and greedy policies behind choose()."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from math import comb
from types import MappingProxyType
from typing import NamedTuple, Protocol

from checker.engine.cards import BIG_JOKER, SMALL_JOKER, SUITS, Card, copies
from checker.engine.combos import Combo, PairStock, classify, required_answer
from checker.engine.declare import declaring_ranks, judge_declaration
from checker.engine.follow import generate_example, judge_follow
from checker.engine.order import TRUMP, Context
from checker.engine.ruleset import DeclarePolicy, Ruleset
from checker.engine.texts import Lang, Say, Spoken, cards_text, pick
from checker.engine.trick import resolve_trick

from .moves import BID as BID
from .moves import BURY as BURY
from .moves import DECLARE as DECLARE
from .moves import FOLLOW as FOLLOW
from .moves import LEAD as LEAD
from .moves import PICK_TRUMP as PICK_TRUMP
from .moves import SURRENDER as SURRENDER
from .moves import Move


class PlayerView(NamedTuple):
    """What one seat may know at a decision: its own hand and the public table, nothing else.

    `phase` is the decision: declare, bid, surrender, pick_trump, bury, lead or follow. `trick` holds the plays of the current
    trick so far as (seat, cards), lead first; `history` the finished tricks the same way.
    `kitty` is only filled for the banker after burying. `first_round` (declare phase): the
    banker is not fixed yet, the first declarer becomes banker.
    """

    phase: str
    seat: int
    ruleset: Ruleset
    level: int | None
    hand: tuple[Card, ...]
    ctx: Context | None = None
    banker: int | None = None
    declarations: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    lead: Combo | None = None
    trick: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    history: tuple[tuple[tuple[int, tuple[Card, ...]], ...], ...] = ()
    attackers_points: int = 0
    kitty: tuple[Card, ...] = ()
    bids: tuple[tuple[int, int | None], ...] = ()
    options: Mapping[str, object] = MappingProxyType({})
    # Public facts of the round: the 暗牌 shown to everyone at a 70 bid (二七王 §4.3), the
    # seats that announced 无主 (§5.4.2), and whether this seat may still throw (§5.4.5).
    shown_kitty: tuple[Card, ...] = ()
    no_trump: tuple[int, ...] = ()
    may_throw: bool = True
    first_round: bool = False
    # Declarations during the deal that this seat sees only as a number of cards
    # (`declare_view: hidden`, seed 002's 暗牌): (seat, how many); `declarations` leaves them out.
    hidden_declarations: tuple[tuple[int, int], ...] = ()
    # The auction (bid phase): its lowest and highest bid and step, and whether this seat must
    # bid (nobody has bid yet).
    bid_range: tuple[int, int, int] = (0, 0, 0)
    must_bid: bool = False

    def partner_of(self, seat: int) -> bool:
        """Tell whether a seat is on this seat's side."""
        if self.banker is None:
            return seat == self.seat
        return self.ruleset.is_same_side(seat, self.seat, self.banker)


# A round builds about 200 views; the keyword form of the NamedTuple costs four times the
# tuple itself, so the round's three frequent views are built positionally here (the other
# fields at their defaults) and tests check them against the keyword form.
_new_view = tuple.__new__
_NO_OPTIONS = PlayerView._field_defaults["options"]
_NO_BIDS = PlayerView._field_defaults["bid_range"]


def declare_view(
    seat: int,
    ruleset: Ruleset,
    level: int | None,
    hand: tuple[Card, ...],
    declarations: tuple[tuple[int, tuple[Card, ...]], ...],
    first_round: bool,
    hidden_declarations: tuple[tuple[int, int], ...],
) -> PlayerView:
    """Build the view of a seat asked to declare during the deal."""
    return _new_view(
        PlayerView,
        (
            DECLARE,
            seat,
            ruleset,
            level,
            hand,
            None,
            None,
            declarations,
            None,
            (),
            (),
            0,
            (),
            (),
            _NO_OPTIONS,
            (),
            (),
            True,
            first_round,
            hidden_declarations,
            _NO_BIDS,
            False,
        ),
    )


def lead_view(
    seat: int,
    ruleset: Ruleset,
    level: int | None,
    hand: tuple[Card, ...],
    ctx: Context,
    banker: int,
    declarations: tuple[tuple[int, tuple[Card, ...]], ...],
    history: tuple[tuple[tuple[int, tuple[Card, ...]], ...], ...],
    attackers_points: int,
    kitty: tuple[Card, ...],
    shown_kitty: tuple[Card, ...],
    no_trump: tuple[int, ...],
    may_throw: bool,
) -> PlayerView:
    """Build the view of the seat that leads a trick."""
    return _new_view(
        PlayerView,
        (
            LEAD,
            seat,
            ruleset,
            level,
            hand,
            ctx,
            banker,
            declarations,
            None,
            (),
            history,
            attackers_points,
            kitty,
            (),
            _NO_OPTIONS,
            shown_kitty,
            no_trump,
            may_throw,
            False,
            (),
            _NO_BIDS,
            False,
        ),
    )


def follow_view(
    seat: int,
    ruleset: Ruleset,
    level: int | None,
    hand: tuple[Card, ...],
    ctx: Context,
    banker: int,
    declarations: tuple[tuple[int, tuple[Card, ...]], ...],
    lead: Combo,
    trick: tuple[tuple[int, tuple[Card, ...]], ...],
    history: tuple[tuple[tuple[int, tuple[Card, ...]], ...], ...],
    attackers_points: int,
    shown_kitty: tuple[Card, ...],
    no_trump: tuple[int, ...],
) -> PlayerView:
    """Build the view of a seat that follows in a trick."""
    return _new_view(
        PlayerView,
        (
            FOLLOW,
            seat,
            ruleset,
            level,
            hand,
            ctx,
            banker,
            declarations,
            lead,
            trick,
            history,
            attackers_points,
            (),
            (),
            _NO_OPTIONS,
            shown_kitty,
            no_trump,
            True,
            False,
            (),
            _NO_BIDS,
            False,
        ),
    )


class Player(Protocol):
    """A seat's policy: given its own view, return its move for the view's decision (declare,
    bid, surrender, pick trump, bury, lead or follow). `CardPlayer` writes one from a bot's
    cards(view) and its auction answers.

    A player may also set `passes_without_options = True`: when the seat could declare nothing
    it sees (`visible_declaration_options` is empty) it would pass without drawing or keeping
    anything, so the round need not ask it then. Players without it are asked after every card.
    """

    name: str

    def choose(self, view: PlayerView) -> Move:
        """Return the move for this decision."""
        ...


_PASS = Move("pass")
_new_move = tuple.__new__  # a move built positionally: no Python-level __new__ per play


class CardPlayer:
    """The adapter from a bot written as cards(view) (what it declares, buries, leads or follows)
    and three auction answers to choose(view) -> Move. The answers here are the plain ones (the
    top bid when it must bid, else pass; no surrender; ♠ trump): a bot overrides what it plays."""

    def cards(self, view: PlayerView) -> list[Card]:
        """Return the cards for a declaration (none: pass), the kitty, a lead or a follow."""
        raise NotImplementedError

    def bid(self, view: PlayerView, low: int, high: int, step: int, must: bool) -> int | None:
        """Return a bid, or None to pass."""
        return high if must else None

    def surrender(self, view: PlayerView) -> bool:
        """Tell whether to give up the round at the surrender bid."""
        return False

    def pick_trump(self, view: PlayerView) -> str:
        """Return the trump suit the banker names."""
        return SUITS[0]

    def choose(self, view: PlayerView) -> Move:
        """Return the move for the view's decision."""
        phase = view.phase
        if phase in (FOLLOW, LEAD, BURY):
            return _new_move(Move, ("cards", tuple(self.cards(view)), None))
        if phase == DECLARE:
            cards = tuple(self.cards(view))
            return _new_move(Move, ("cards", cards, None)) if cards else _PASS
        if phase == BID:
            value = self.bid(view, *view.bid_range, view.must_bid)
            return _PASS if value is None else Move("bid", value=value)
        if phase == SURRENDER:
            return Move("surrender", value=bool(self.surrender(view)))
        return Move("trump", value=self.pick_trump(view))


@dataclass(frozen=True)
class Decision(Spoken):
    """One decision of a player: the cards, the policy rule that decided, and why in words."""

    cards: tuple[Card, ...]
    rule: str
    say: Say


class Explaining(Player, Protocol):
    """A player that can say why it chose: decide() returns the cards with the reason."""

    def decide(self, view: PlayerView) -> Decision:
        """Return the decision for the view's phase with the rule that decided it."""
        ...


def decide(player: Player, view: PlayerView) -> Decision:
    """Ask a player for a decision with its reason; players without reasons get a plain one."""
    explain = getattr(player, "decide", None)
    if explain is not None:
        decision: Decision = explain(view)
        return decision
    cards = player.choose(view).cards
    name = player.name

    def say(lang: Lang) -> str:
        shown = cards_text(cards, lang) or pick(lang, "不出", "nothing")
        return pick(lang, f"{name} 选择 {shown}", f"{name} chose {shown}")

    return Decision(cards, f"{name}.choose", say)


# ---------------------------------------------------------------------------------------------
# Legal moves built directly (no enumeration of subsets)


def sample_multiset(rng: random.Random, cards: Sequence[Card], k: int) -> list[Card]:
    """Draw k cards from cards, uniformly among the distinct multisets of size k."""
    if k <= 0:
        return []
    if k >= len(cards):
        return list(cards)
    if k == 1:
        return [rng.choice(sorted(set(cards)))]
    counts = sorted(copies(cards).items())
    if k == 2:
        return _sample_two(rng, counts)
    m = len(counts)
    # ways[i] is the polynomial whose coefficient j counts the multisets of size j from items
    # i..m-1: ways[i+1] times (1 + x + … + x^cap), kept to degree k. Each one is a single int
    # with one `bits`-wide digit per coefficient (no count reaches C(m+k, k)).
    bits = comb(m + k, k).bit_length() + 1
    digit = (1 << bits) - 1
    keep = (1 << ((k + 1) * bits)) - 1
    ways = [0] * m + [1]
    poly = 1
    for i in range(m - 1, -1, -1):
        grown = poly
        for t in range(1, min(counts[i][1], k) + 1):
            grown += poly << (t * bits)
        poly = ways[i] = grown & keep
    out: list[Card] = []
    need = k
    for i, (card, cap) in enumerate(counts):
        if need == 0:
            break
        pick = rng.randrange((ways[i] >> (need * bits)) & digit)
        after = ways[i + 1]
        for t in range(min(cap, need) + 1):
            w = (after >> ((need - t) * bits)) & digit
            if pick < w:
                out.extend([card] * t)
                need -= t
                break
            pick -= w
    return out


def _sample_two(rng: random.Random, counts: list[tuple[Card, int]]) -> list[Card]:
    """Draw 2 of the counted cards (sorted) as `sample_multiset` does, draw for draw, with its
    counts in closed form: from the r items left, C(r, 2) pairs of two items and one pair of
    each item held twice or more."""
    m = len(counts)
    doubles = [0] * (m + 1)  # doubles[i]: the items from i on held twice or more
    for i in range(m - 1, -1, -1):
        doubles[i] = doubles[i + 1] + (counts[i][1] >= 2)
    first: list[Card] = []
    for i, (card, _) in enumerate(counts):
        r = m - i
        if first:  # one more card: this one, or one of the r - 1 after it
            if rng.randrange(r) == r - 1:
                return first + [card]
            continue
        pick = rng.randrange(r * (r - 1) // 2 + doubles[i])
        after = (r - 1) * (r - 2) // 2 + doubles[i + 1]  # both cards from later items
        if pick < after:
            continue
        if pick - after < r - 1:  # this card and one of a later item
            first = [card]
            continue
        return [card, card]
    return first


def _windows(stock: PairStock, size: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for low, high in stock.runs():
        for start in range(low, high - size + 2):
            out.append((start, start + size - 1))
    return out


def random_follow(
    rng: random.Random, ctx: Context, lead: Combo, hand: Sequence[Card], tries: int = 20
) -> list[Card]:
    """Build a random legal follow directly: suit first, then the lead's structure, then a fill."""
    # Where no pair is required the draw is uniform over the distinct legal follows. Where
    # pairs or tractors are required, the runs and pairs are drawn uniformly among those
    # available and the rest uniformly, so every legal follow can come up; a follow that holds
    # the required structure in more than one way is proportionally more likely.
    n = len(lead.cards)
    members = _group_table(ctx).members.get(lead.group, _NONE)
    suit = [c for c in hand if c in members]
    if n == 1:  # the commonest follow: what `sample_multiset` draws for one card, inline
        pool = suit or hand
        if len(suit) == 1 or len(pool) <= 1:
            return list(pool)
        return [rng.choice(sorted(set(pool)))]
    if len(suit) <= n:
        rest = [c for c in hand if c not in members] if suit else hand
        return suit + sample_multiset(rng, rest, n - len(suit))
    if not lead.has_pairs:
        return sample_multiset(rng, suit, n)
    held = copies(suit)  # first-seen order, as Counter keeps it
    required = required_answer(ctx, lead, held)
    sizes = required.tractors
    for _ in range(tries):
        stock = PairStock(ctx, held)
        chosen: list[Card] = []
        for size in sizes:
            windows = _windows(stock, size)
            if not windows:
                break
            chosen += stock.take(*rng.choice(windows))
        for _ in range(required.pairs):
            if not stock.at:
                break
            p = rng.choice(sorted(stock.at))
            chosen += stock.take(p, p)
        # The suit's cards less the chosen ones, in first-seen order (Counter subtraction's).
        counts = held.copy()
        for c in chosen:
            counts[c] -= 1
        left = [c for c, k in counts.items() for _ in range(k)]
        play = chosen + sample_multiset(rng, left, n - len(chosen))
        if judge_follow(ctx, lead, hand, play).legal:
            return play
    return generate_example(ctx, lead, hand)


# Per context, each card's place in the order of (strength position, card): a sort key looked
# up rather than built per card.
_STRENGTH: dict[int, tuple[Context, dict[Card, int]]] = {}


def _strength_order(ctx: Context) -> dict[Card, int]:
    hit = _STRENGTH.get(id(ctx))
    if hit is None or hit[0] is not ctx:
        key = ctx.key
        order = {c: i for i, c in enumerate(sorted(key, key=lambda c: (key[c][1], c)))}
        if len(_STRENGTH) >= 256:
            _STRENGTH.clear()
        hit = _STRENGTH[id(ctx)] = (ctx, order)
    return hit[1]


def _unit_parts(ctx: Context, cards: Sequence[Card]) -> tuple[list[Card], dict[int, list[Card]]]:
    """Split cards of one group into their distinct cards, weakest first, and their pairs by
    tractor position (`PairStock.at`): what `lead_units` lists the units from."""
    counts = copies(cards)  # first-seen order, as Counter keeps it
    singles = sorted(counts, key=_strength_order(ctx).__getitem__)
    # No card twice: no pair (the stock would be empty).
    return singles, PairStock(ctx, counts).at if len(counts) < len(cards) else {}


def _tractor_units(at: dict[int, list[Card]]) -> Iterator[list[Card]]:
    """Yield every tractor of the pairs held (`PairStock.at`), in `lead_units` order."""
    for low, high in PairStock.runs_of(at):
        # A tractor low..high takes, at each position from the top, the last pair held there
        # (what PairStock.take would remove from a fresh stock).
        tops = [at[p][-1] for p in range(high, low - 1, -1)]
        for size in range(2, high - low + 2):
            for start in range(low, high - size + 2):
                first = high - (start + size - 1)
                yield [c for c in tops[first : first + size] for _ in (0, 1)]


def lead_units(ctx: Context, cards: Sequence[Card]) -> list[list[Card]]:
    """List every single-unit lead in cards of one group: each single, pair and tractor."""
    singles, at = _unit_parts(ctx, cards)
    out: list[list[Card]] = [[c] for c in singles]
    if not at:
        return out
    for p in sorted(at):
        for card in at[p]:
            out.append([card, card])
    out.extend(_tractor_units(at))
    return out


def random_unit(rng: random.Random, ctx: Context, cards: Sequence[Card]) -> list[Card]:
    """Pick one of `lead_units(ctx, cards)` as `rng.choice` of that list does (the same draw),
    listing only the units it needs to count."""
    singles, at = _unit_parts(ctx, cards)
    if not at:
        return [rng.choice(singles)]
    pairs = [card for p in sorted(at) for card in at[p]]
    # A run of L positions holds L·(L-1)/2 tractors (every stretch of 2 or more).
    tractors = sum((high - low) * (high - low + 1) // 2 for low, high in PairStock.runs_of(at))
    i = rng.choice(range(len(singles) + len(pairs) + tractors))
    if i < len(singles):
        return [singles[i]]
    i -= len(singles)
    if i < len(pairs):
        return [pairs[i], pairs[i]]
    return next(islice(_tractor_units(at), i - len(pairs), None))


class _GroupTable(NamedTuple):
    """A context's cards by group (TRUMP or a suit letter, `ctx.key[card][0]`)."""

    of: dict[Card, str]  # each card's group, in one look-up
    members: dict[str | None, frozenset[Card]]  # each group's cards: a set look-up per card


_GROUPS: dict[int, tuple[Context, _GroupTable]] = {}
_NONE: frozenset[Card] = frozenset()


def _group_table(ctx: Context) -> _GroupTable:
    hit = _GROUPS.get(id(ctx))
    if hit is None or hit[0] is not ctx:
        if len(_GROUPS) >= 256:
            _GROUPS.clear()
        of = {c: g for c, (g, _) in ctx.key.items()}
        split: dict[str | None, set[Card]] = {}
        for c, g in of.items():
            split.setdefault(g, set()).add(c)
        members = {g: frozenset(cs) for g, cs in split.items()}
        hit = _GROUPS[id(ctx)] = (ctx, _GroupTable(of, members))
    return hit[1]


def groups_of(ctx: Context, hand: Sequence[Card]) -> dict[str, list[Card]]:
    """Split a hand by group (TRUMP or suit letter), in a fixed group order."""
    group_of = _group_table(ctx).of
    split: dict[str, list[Card]] = {TRUMP: [], "S": [], "H": [], "C": [], "D": []}
    for c in hand:
        split[group_of[c]].append(c)  # every group is one of these five
    return {g: cards for g, cards in split.items() if cards}


def random_lead(
    rng: random.Random, ctx: Context, hand: Sequence[Card], throw_rate: float = 0.15
) -> list[Card]:
    """Pick a random legal lead: a random group, then a random unit or (sometimes) a throw."""
    # The groups held in `groups_of` order sorted, as their names sort (C, D, H, S, T).
    table = _group_table(ctx)
    group = rng.choice(sorted(set(map(table.of.__getitem__, hand))))
    members = table.members[group]
    cards = [c for c in hand if c in members]
    if len(cards) >= 2 and rng.random() < throw_rate:
        size = rng.randint(2, min(len(cards), 8))
        attempt = sample_multiset(rng, cards, size)
        if classify(ctx, attempt).is_valid:
            return attempt
    return random_unit(rng, ctx, cards)


# Whether one declaration try is accepted depends on the try, the seat and the table, not on
# the rest of the hand: the answers are kept per (ruleset id, level, seat, table), so a hand
# reuses the answers of the tries it shares with an earlier one. The ruleset itself is kept
# beside each answer, so an id reused by another ruleset is never mistaken for it.
_TRIES: dict[tuple[object, ...], tuple[Ruleset, dict[tuple[Card, ...], bool]]] = {}
_RANKS: dict[tuple[int, int | None], tuple[Ruleset, frozenset[int]]] = {}
_OPTIONS_LIMIT = 8192


def declaring_card_ranks(rs: Ruleset, level: int | None) -> frozenset[int]:
    """Return the ranks of the cards that may take part in a declaration (jokers included)."""
    hit = _RANKS.get((id(rs), level))
    if hit is None or hit[0] is not rs:
        if len(_RANKS) >= _OPTIONS_LIMIT:
            _RANKS.clear()
        hit = _RANKS[id(rs), level] = (
            rs,
            frozenset((*declaring_ranks(rs, level), SMALL_JOKER, BIG_JOKER)),
        )
    return hit[1]


def _table_key(current: Sequence[tuple[int, Sequence[Card]]]) -> tuple[object, ...]:
    if type(current) is tuple:
        try:
            hash(current)  # a view's declarations: already tuples all the way down
            return current
        except TypeError:
            pass
    return tuple((s, tuple(cs)) for s, cs in current)


class _Asked:
    """The last hand a seat was asked about (per ruleset and level): the table it saw, its
    declaring cards and its options."""

    __slots__ = ("rs", "ranks", "most", "current", "table", "hand", "cards", "options")

    def __init__(self, rs: Ruleset, ranks: frozenset[int]) -> None:
        self.rs, self.ranks = rs, ranks
        # The most copies of one card a declaration shows (a joker declares as a pair).
        self.most = rs.decks if rs.declare.policy == DeclarePolicy.COPIES else 2
        self.current: object = None  # the very declarations object last passed in
        self.table: tuple[object, ...] = ()
        self.hand: tuple[Card, ...] = ()
        self.cards: list[Card] = []
        self.options: tuple[tuple[Card, ...], ...] = ()


# During a deal a seat's next hand is its last one and one more card: only the new card is
# looked at and, unless it can declare or the table changed, the options stand.
_LAST: dict[tuple[int, int | None, int], _Asked] = {}


def declaration_options(
    rs: Ruleset,
    level: int | None,
    current: Sequence[tuple[int, Sequence[Card]]],
    seat: int,
    hand: Sequence[Card],
) -> list[list[Card]]:
    """List the declarations this seat could make now that judge_declaration would accept."""
    slot = (id(rs), level, seat)
    last = _LAST.get(slot)
    if last is None or last.rs is not rs:
        if len(_LAST) >= _OPTIONS_LIMIT:
            _LAST.clear()
        last = _LAST[slot] = _Asked(rs, declaring_card_ranks(rs, level))
        last.current = object()  # nothing was asked yet: no table matches
    ranks = last.ranks
    hand_t = hand if type(hand) is tuple else tuple(hand)
    if current is last.current:  # the same immutable declarations as the last time
        table = last.table
    else:
        table = _table_key(current)
        if table != last.table:
            last.hand = ()  # another table: every option is asked afresh below
        # Only a table that is its own key (tuples all the way down) can be known again by
        # identity: a list may have changed since.
        last.current = current if table is current else None
    seen = len(last.hand)
    if seen and hand_t[:seen] == last.hand:
        new = [c for c in hand_t[seen:] if c.rank in ranks]
        last.hand = hand_t
        if not new:
            return [list(o) for o in last.options]
        cards = sorted(last.cards + new)
        if len(new) == 1:  # the table stands: a try of the new card's copies is all that is new
            last.cards = cards
            added = _new_try(last, new[0], cards.count(new[0]))
            answers = _answers(last.rs, level, seat, table) if added is not None else {}
            if added is not None and _accepts(answers, last.rs, level, current, seat, added):
                last.options = tuple(sorted((*last.options, added)))  # in card order, as tried
            return [list(o) for o in last.options]
    else:
        cards = sorted([c for c in hand_t if c.rank in ranks])
    last.hand, last.table, last.cards = hand_t, table, cards
    last.options = _accepted_declarations(last, level, current, seat, table, cards) if cards else ()
    return [list(o) for o in last.options]


def _accepted_declarations(
    last: _Asked,
    level: int | None,
    current: Sequence[tuple[int, Sequence[Card]]],
    seat: int,
    table: tuple[object, ...],
    cards: list[Card],
) -> tuple[tuple[Card, ...], ...]:
    """Return the accepted declarations made of these sorted declaring cards (of `last.ranks`:
    the level's ranks and the jokers), for the seat's ruleset and level (`last`)."""
    rs = last.rs
    answers = _answers(rs, level, seat, table)
    out: list[tuple[Card, ...]] = []
    for c, n in copies(cards).items():  # sorted cards: the tries come in card order
        for t in _tries(last, c, n):
            if _accepts(answers, rs, level, current, seat, t):
                out.append(t)
    return tuple(out)


def _tries(last: _Asked, card: Card, held: int) -> list[tuple[Card, ...]]:
    """List the declarations `held` copies of a declaring card can be tried as, fewest first:
    a joker as a pair only; a level card as one copy up to the most a declaration shows."""
    if card.rank >= SMALL_JOKER:  # `is_joker`, without the property's call
        return [(card, card)] if held >= 2 else []
    if card.rank not in last.ranks:
        return []
    return [(card,) * k for k in range(1, min(held, last.most) + 1)]


def _new_try(last: _Asked, card: Card, held: int) -> tuple[Card, ...] | None:
    """Return the one try that holding `held` copies of a declaring card adds to those of one
    copy fewer (`_tries`), or None."""
    tries = _tries(last, card, held)
    return tries[-1] if tries and tries[-1] == (card,) * held else None


def _answers(
    rs: Ruleset, level: int | None, seat: int, table: tuple[object, ...]
) -> dict[tuple[Card, ...], bool]:
    """Return the answers kept for the seat's tries at this table (`_TRIES`)."""
    slot = (id(rs), level, seat, table)
    known = _TRIES.get(slot)
    if known is None or known[0] is not rs:
        if len(_TRIES) >= _OPTIONS_LIMIT:
            _TRIES.clear()
        known = _TRIES[slot] = (rs, {})
    return known[1]


def _accepts(
    answers: dict[tuple[Card, ...], bool],
    rs: Ruleset,
    level: int | None,
    current: Sequence[tuple[int, Sequence[Card]]],
    seat: int,
    cards: tuple[Card, ...],
) -> bool:
    """Tell whether judge_declaration accepts this try of held cards at the table the answers
    are kept for (the hand check is left out: the cards are held)."""
    ok = answers.get(cards)
    if ok is None:
        ok = answers[cards] = judge_declaration(rs, level, current, seat, cards).accepted
    return ok


def seen_declaration_options(view: PlayerView) -> list[list[Card]]:
    """List the declarations a seat could make from what its view shows (see
    `visible_declaration_options`)."""
    return visible_declaration_options(
        view.ruleset,
        view.level,
        view.declarations,
        view.hidden_declarations,
        view.seat,
        view.hand,
    )


def visible_declaration_options(
    rs: Ruleset,
    level: int | None,
    declarations: Sequence[tuple[int, Sequence[Card]]],
    hidden: Sequence[tuple[int, int]],
    seat: int,
    hand: Sequence[Card],
) -> list[list[Card]]:
    """List the declarations a seat could make from what it sees (hidden ones by their count).

    Under `declare_view: hidden` the standing declaration may be one the seat sees only as a
    number of cards: a new one must have more. Its suit stays unknown, so the referee may still
    refuse a declaration of the same suit (only its declarer may reinforce it).
    """
    options = declaration_options(rs, level, declarations, seat, hand)
    if not hidden:
        return options
    most = max(n for _, n in hidden)
    return [o for o in options if len(o) > most]


# ---------------------------------------------------------------------------------------------
# Policies


class RandomPlayer(CardPlayer):
    """Plays uniformly at random among legal moves: any lead (throws included), any follow."""

    name = "random"
    passes_without_options = True  # it draws only when it has something to declare

    def __init__(self, rng: random.Random, throw_rate: float = 0.15) -> None:
        self.rng = rng
        self.throw_rate = throw_rate

    def cards(self, view: PlayerView) -> list[Card]:
        """Return a random legal choice for the view's phase."""
        rng, phase, ctx = self.rng, view.phase, view.ctx
        if phase == FOLLOW:  # the commonest decision first
            assert ctx is not None and view.lead is not None
            return random_follow(rng, ctx, view.lead, view.hand)
        if phase == LEAD:
            assert ctx is not None
            rate = self.throw_rate if view.may_throw else 0.0
            return random_lead(rng, ctx, view.hand, rate)
        if phase == DECLARE:
            options = seen_declaration_options(view)
            if options and rng.random() < 0.5:
                return rng.choice(options)
            return []
        if phase == BURY:
            return sample_multiset(rng, view.hand, view.ruleset.kitty_size)
        raise ValueError(f"no cards to choose at {phase}")

    def bid(self, view: PlayerView, low: int, high: int, step: int, must: bool) -> int | None:
        """Return a random bid near the top, one or two steps under the standing one, or None."""
        standing = [b for _, b in view.bids if b is not None]
        if must or not standing:
            return self.rng.choice(range(max(low, high - 4 * step), high + 1, step))
        if self.rng.random() < 0.6:
            return None
        bid = min(standing) - step * self.rng.randint(1, 2)
        return bid if bid >= low else None

    def surrender(self, view: PlayerView) -> bool:
        """Return True now and then to give up a round won at the surrender bid."""
        return self.rng.random() < 0.2

    def pick_trump(self, view: PlayerView) -> str:
        """Return a random trump suit for the banker to name."""
        return self.rng.choice("SHCD")


def _strength(ctx: Context, cards: Sequence[Card]) -> tuple[int, int, int]:
    """Cost of giving up cards: trumps, then points, then rank position."""
    key = ctx.key
    return (
        sum(1 for c in cards if key[c][0] == TRUMP),
        sum(c.points for c in cards),
        sum(key[c][1] for c in cards),
    )


class GreedyPlayer(CardPlayer):
    """Plays simply and greedily: win cheaply when an opponent holds the trick, feed a partner."""

    name = "greedy"
    passes_without_options = True

    def __init__(self, rng: random.Random, samples: int = 6) -> None:
        self.rng = rng
        self.samples = samples

    def cards(self, view: PlayerView) -> list[Card]:
        """Return a greedy choice for the view's phase."""
        if view.phase == DECLARE:
            return self._declare(view)
        if view.phase == BURY:
            return self._bury(view)
        assert view.ctx is not None
        if view.phase == LEAD:
            return self._lead(view.ctx, view.hand)
        return self._follow(view)

    def bid(self, view: PlayerView, low: int, high: int, step: int, must: bool) -> int | None:
        """Return a bid that grows with the permanent trumps held, or None to pass."""
        fixed = [c for c in view.hand if c.is_joker or c.rank in view.ruleset.trump_ranks]
        target = max(low, high - step * max(0, len(fixed) - 8))
        standing = [b for _, b in view.bids if b is not None]
        if must:
            return target
        if standing and target < min(standing):
            return target
        return None

    def surrender(self, view: PlayerView) -> bool:
        """Never give up a round."""
        return False

    def pick_trump(self, view: PlayerView) -> str:
        """Name the suit with the most cards (pairs counting double) as trump."""
        counts = Counter(view.hand)
        length: Counter[str] = Counter()
        for c, n in counts.items():
            if not c.is_joker and c.rank not in view.ruleset.trump_ranks:
                length[c.suit] += n + (n // 2)
        return max("SHCD", key=lambda s: (length[s], s))

    def _declare(self, view: PlayerView) -> list[Card]:
        options = seen_declaration_options(view)
        if not options:
            return []
        length = Counter(c.suit for c in view.hand if not c.is_joker)
        return max(options, key=lambda o: (len(o), length[o[0].suit] if o[0].suit else -1, o))

    def _bury(self, view: PlayerView) -> list[Card]:
        level = view.level
        counts = Counter(view.hand)

        def cost(c: Card) -> tuple[int, int, int, int]:
            permanent = c.is_joker or c.rank == level
            return (1 if permanent else 0, c.points, counts[c], c.rank)

        ranked = sorted(view.hand, key=lambda c: (cost(c), c))
        return ranked[: view.ruleset.kitty_size]

    def _lead(self, ctx: Context, hand: Sequence[Card]) -> list[Card]:
        groups = groups_of(ctx, hand)
        side = {g: cs for g, cs in groups.items() if g != TRUMP}
        pool = side or groups
        best: list[Card] | None = None
        best_key: tuple[int, int] | None = None
        for cards in pool.values():
            for unit in lead_units(ctx, cards):
                k = (len(unit), max(ctx.key[c][1] for c in unit))
                if best_key is None or k > best_key:
                    best, best_key = unit, k
        assert best is not None
        return best

    def _follow(self, view: PlayerView) -> list[Card]:
        ctx, lead, hand = view.ctx, view.lead, view.hand
        assert ctx is not None and lead is not None
        candidates: list[list[Card]] = [generate_example(ctx, lead, hand)]
        if len(lead.cards) == 1:
            candidates += [[c] for c in sorted(set(hand))]
        else:
            candidates += [random_follow(self.rng, ctx, lead, hand) for _ in range(self.samples)]
        legal = [c for c in candidates if judge_follow(ctx, lead, hand, c).legal]
        plays = [list(cards) for _, cards in view.trick]
        now = resolve_trick(ctx, plays).winner
        partner_winning = view.partner_of(view.trick[now][0])
        scored: list[tuple[bool, list[Card]]] = []
        for cand in legal:
            res = resolve_trick(ctx, [*plays, cand])
            scored.append((res.winner == len(plays), cand))
        if partner_winning:
            calm = [c for beats, c in scored if not beats] or [c for _, c in scored]
            return max(
                calm, key=lambda c: (sum(x.points for x in c), [-s for s in _strength(ctx, c)])
            )
        winning = [c for beats, c in scored if beats]
        if winning:
            return min(winning, key=lambda c: _strength(ctx, c))
        return min(
            (c for _, c in scored), key=lambda c: (sum(x.points for x in c), _strength(ctx, c))
        )
