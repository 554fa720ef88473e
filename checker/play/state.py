"""A round as a value its caller drives: who decides what now (`turn`), what that seat may see
(`view`), the moves the rules allow (`verify`, `can`, `legal`) and `apply`, which returns the
records of what happened up to the next decision. `copy` is cheap (no replay).

Every caller drives a round the same way: simulations, duels and matches (`play_round`), the
web table, the terminal game and replay. A seat that makes an illegal choice in a simulation
has it replaced by the rules' fallback and counted (`apply(move, replace_illegal=True)`); a
person's illegal move is refused with the reason (`MoveError`) and the round stays as it was.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import NamedTuple

from checker.engine.bidding import PASS, judge_auction, settle_chips
from checker.engine.cards import SUITS, Card, count_points, is_subset, remove_cards
from checker.engine.combos import THROW, Combo, classify
from checker.engine.declare import flip_trump, judge_declaration, shown_declaration
from checker.engine.errors import EngineError
from checker.engine.follow import follow_reason, generate_example, judge_follow
from checker.engine.order import Context, context_for
from checker.engine.roundrules import (
    announces_no_trump,
    is_kitty_shown,
    must_announce_no_trump,
)
from checker.engine.ruleset import NobodyDeclares, Ruleset
from checker.engine.scoring import kitty_bonus, score_round
from checker.engine.texts import pick
from checker.engine.throws import judge_throw
from checker.engine.trick import resolve_trick

from .moves import SURRENDER, Move, MoveError, not_in_hand, signal_refused, wrong_kind
from .players import (
    BID,
    BURY,
    DECLARE,
    FOLLOW,
    LEAD,
    PICK_TRUMP,
    CardPlayer,
    Player,
    PlayerView,
    declare_view,
    declaring_card_ranks,
    follow_view,
    lead_view,
    visible_declaration_options,
)
from .records import (
    Bid,
    Buried,
    Dealt,
    Declared,
    Flipped,
    KittyShown,
    NoTrump,
    Passed,
    Played,
    Record,
    Scored,
    Signaled,
    Started,
    Surrendered,
    TrickWon,
    TrumpFixed,
)
from .rounddata import MAX_REDEALS, RoundResult, RoundSetup, build_deck, settlement_bonus
from .selection import check_cards

Seen = tuple[tuple[int, tuple[Card, ...]], ...]
Hidden = tuple[tuple[int, int], ...]
Trick = tuple[tuple[int, tuple[Card, ...]], ...]

# When a seat is asked to declare during the deal: after every card it is dealt (ALWAYS); only
# when it sees something it could declare (OPTIONS: bots, which pass unasked otherwise); only
# when what it could declare has changed since it was last asked (NEW: a person at the table,
# whose pass holds until something new can be declared).
ALWAYS = "always"
OPTIONS = "options"
NEW = "new"


class Turn(NamedTuple):
    """The decision the round waits for: which seat, and which decision (a phase name)."""

    seat: int
    phase: str


# Every (seat, phase) a round can wait at, made once: a round waits at some 200 of them.
class _Turns(dict[tuple[int, str], Turn]):
    def __missing__(self, key: tuple[int, str]) -> Turn:
        turn = self[key] = Turn(*key)
        return turn


_TURNS = _Turns()


class _Orders(dict[tuple[int, int], tuple[tuple[int, ...], tuple[Turn, ...]]]):
    def __missing__(self, key: tuple[int, int]) -> tuple[tuple[int, ...], tuple[Turn, ...]]:
        leader, n = key
        order = tuple((leader + k) % n for k in range(n))
        found = self[key] = (order, tuple(_TURNS[s, FOLLOW] for s in order))
        return found


# The seats of a trick in play order from its leader, and their turns to follow.
_ORDERS = _Orders()
_new = tuple.__new__  # a record built positionally: no Python-level __new__ per play


def _plain_cards(player: Player) -> Callable[[PlayerView], list[Card]] | None:
    """Return the `cards` of a player whose moves are the `CardPlayer` adapter's, else None."""
    if not isinstance(player, CardPlayer):
        return None
    choose: object = type(player).choose
    return player.cards if choose is CardPlayer.choose else None


def _round_over() -> MoveError:
    return MoveError(lambda lang: pick(lang, "这一局已经结束", "the round is over"))


class RoundState:
    """One round: the deal, the trump, the kitty, the tricks and the score, one move at a time."""

    # Slots: a round reads its fields some thousands of times; more than 30 attributes in an
    # instance dict would lose Python's fast attribute access.
    __slots__ = (
        "_announce",
        "_asked",
        "asks",
        "_at",
        "_before",
        "_bid_turns",
        "_bids",
        "ctx",
        "dealt",
        "deck",
        "declarations",
        "declaring",
        "_entries",
        "_final",
        "_first",
        "_follower",
        "_follow_turns",
        "hands",
        "_history",
        "_keep",
        "kept",
        "kitty",
        "_last_asks",
        "_lead",
        "_leader",
        "level",
        "log",
        "n",
        "_next_card",
        "no_rethrow",
        "no_trump",
        "_no_trump_now",
        "opening",
        "_options",
        "_order",
        "_out",
        "_passing",
        "played",
        "_plays",
        "record",
        "referee",
        "res",
        "rng",
        "rs",
        "seed",
        "setup",
        "_shown",
        "_side",
        "shown_kitty",
        "_shuffled",
        "_signals",
        "_to_deal",
        "_trick",
        "_trick_no",
        "trick_points",
        "turn",
    )

    def __init__(
        self,
        rs: Ruleset,
        seed: int,
        setup: RoundSetup,
        *,
        asks: Sequence[str] | None = None,
        referee: bool = False,
        record: bool = True,
    ) -> None:
        n = rs.players
        self.rs, self.seed, self.n = rs, seed, n
        self.setup = setup
        self.level = setup.level
        self.asks = tuple(asks) if asks is not None else (OPTIONS,) * n
        if len(self.asks) != n:
            raise EngineError(
                f"{rs.name} 需要 {n} 位玩家，给了 {len(self.asks)} 位",
                en=f"{rs.name} needs {n} players, got {len(self.asks)}",
            )
        self.referee, self.record = referee, record
        self._keep = True  # records are made (False only while `play_out` keeps no log)
        self.rng = random.Random(seed)
        self.res = RoundResult(rs.name, seed, setup)
        self.log: list[Record] = []  # every record so far (with `record`)
        self.turn: Turn | None = None
        self.ctx: Context | None = None
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.kitty: list[Card] = []
        self.deck: list[Card] = []
        self.dealt: list[list[Card]] = []
        self.kept: list[Card] = []
        self.played: list[Card] = []
        self.trick_points: list[int] = []
        self.declarations: list[tuple[int, tuple[Card, ...]]] = []
        self.shown_kitty: tuple[Card, ...] = ()
        self.no_trump: list[int] = []
        self.no_rethrow: set[int] = set()
        self._signals: set[tuple[int, int]] = set()  # (trick, seat): one signal a trick each
        self.declaring = declaring_card_ranks(rs, self.level)
        self._out: list[Record] = []
        self._shuffled = build_deck(rs)
        if rs.hand_size * n + rs.kitty_size != len(self._shuffled):
            raise EngineError(
                f"{rs.name}: {n} × {rs.hand_size} + {rs.kitty_size} ≠ {len(self._shuffled)} 张",
                en=f"{rs.name}: {n} × {rs.hand_size} + {rs.kitty_size} ≠ "
                f"{len(self._shuffled)} cards",
            )
        self._start_progress()
        self._emit(Started(rs.name, seed, setup.level, setup.attacker_level, setup.banker))
        self._deal(0)
        self.opening: tuple[Record, ...] = self._flush()

    def _start_progress(self) -> None:
        """Set where the round stands in the deal, the auction and the play: at the start."""
        # The deal: the next card to deal, then the seats asked once more after the last.
        banker = self.setup.banker
        self._first = banker if banker is not None else 0
        self._to_deal = len(self._shuffled) - self.rs.kitty_size
        self._next_card = 0
        self._last_asks = 0
        self._at = 0
        # What each seat was last shown of the declarations: (how many there were, seen, hidden).
        self._shown: dict[int, tuple[int, Seen, Hidden]] = {}
        # Seats found to have nothing to declare, which would pass unasked: how many
        # declarations there were then. While the table stands and every card the seat is
        # dealt since cannot declare, that still holds.
        self._passing: dict[int, int] = {}
        self._asked: dict[int, tuple[tuple[Card, ...], ...]] = {}  # NEW seats: last options
        self._options: tuple[tuple[Card, ...], ...] = ()
        # The auction.
        self._entries: list[int | str] = []
        self._bids: list[tuple[int, int | None]] = []
        self._bid_turns = 0
        # The play.
        self._leader = 0
        self._trick_no = 0
        self._order: tuple[int, ...] = ()
        self._follow_turns: tuple[Turn, ...] = ()
        self._before: list[tuple[Card, ...]] = []
        self._no_trump_now: tuple[int, ...] = ()
        self._lead: Combo = None  # type: ignore[assignment]  # set by every lead before a follow
        self._side: tuple[bool, ...] = ()  # each seat on the banker's side (set at the play)
        self._announce = False  # whether seats announce 无主 (set at the play)
        self._plays: list[tuple[Card, ...]] = []
        self._trick: list[tuple[int, tuple[Card, ...]]] = []
        self._follower = 0
        self._history: tuple[Trick, ...] = ()
        self._final: Seen = ()

    # -- the caller's side --------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Tell whether the round has ended (its result is in `res`)."""
        return self.turn is None

    def copy(self) -> RoundState:
        """Return an independent copy of the round as it stands (its log shared up to now)."""
        new = object.__new__(RoundState)
        put = object.__setattr__
        for name in RoundState.__slots__:
            put(new, name, getattr(self, name))
        if self.ctx is None:  # still dealing: a redeal draws from the generator
            new.rng = rng = random.Random()
            rng.setstate(self.rng.getstate())
            new._shuffled = list(self._shuffled)
            new._shown = dict(self._shown)
            new._passing = dict(self._passing)
            new._asked = dict(self._asked)
        res = self.res
        new.res = new_res = RoundResult(res.ruleset, res.seed, res.setup)
        new_res.__dict__.update(res.__dict__)
        new_res.bonus, new_res.breaks, new_res.events = list(res.bonus), list(res.breaks), []
        new.log = list(self.log)
        new.hands = [list(h) for h in self.hands]
        new.kitty, new.kept, new.played = list(self.kitty), list(self.kept), list(self.played)
        new.trick_points, new.declarations = list(self.trick_points), list(self.declarations)
        new.no_trump, new.no_rethrow = list(self.no_trump), set(self.no_rethrow)
        new._signals = set(self._signals)
        new._entries, new._bids = list(self._entries), list(self._bids)
        new._plays, new._trick, new._out = list(self._plays), list(self._trick), []
        return new

    def view(self, seat: int) -> PlayerView:
        """Return what a seat may know at its decision: its own hand and the public table."""
        turn = self.turn
        if turn is None or turn.seat != seat:
            raise ValueError(f"seat {seat} has no decision to make now")
        phase = turn.phase
        rs = self.rs
        if phase == FOLLOW:
            return self._follow_view(seat)
        if phase == LEAD:
            return self._lead_view(seat)
        if phase == DECLARE:
            _, seen, hidden = self._shown[seat]
            hand = tuple(self.hands[seat])
            first = self.setup.banker is None
            return declare_view(seat, rs, self.level, hand, seen, first, hidden)
        if phase == BID:
            return PlayerView(
                BID,
                seat,
                rs,
                self.level,
                tuple(self.hands[seat]),
                bids=tuple(self._bids),
                bid_range=self.bid_range,
                must_bid=self.must_bid,
            )
        if phase == BURY:
            assert self.ctx is not None
            hand = tuple(self.ctx.sort_cards(self.hands[seat] + self.kitty))
            return PlayerView(BURY, seat, rs, self.level, hand, ctx=self.ctx, banker=seat)
        # surrender and pick_trump: the banker with the kitty in hand
        return PlayerView(
            phase,
            seat,
            rs,
            self.level,
            tuple(self.hands[seat] + self.kitty),
            banker=seat,
            bids=tuple(self._bids),
            shown_kitty=self.shown_kitty,
        )

    def legal_declarations(self) -> tuple[tuple[Card, ...], ...]:
        """List the declarations the seat to declare sees it could make (a pass is always one)."""
        if self.turn is None or self.turn.phase != DECLARE:
            return ()
        if self._options:
            return self._options
        seat = self.turn.seat
        _, seen, hidden = self._shown[seat]
        options = visible_declaration_options(
            self.rs, self.level, seen, hidden, seat, tuple(self.hands[seat])
        )
        return tuple(tuple(o) for o in options)

    @property
    def declaring_at(self) -> int:
        """Return how many cards were dealt when the seat to declare was asked."""
        return self._at

    @property
    def bid_range(self) -> tuple[int, int, int]:
        """Return the auction's lowest and highest bid and its step ((0, 0, 0) without one)."""
        bidding = self.rs.bidding
        if bidding is None:
            return (0, 0, 0)
        return int(bidding["min"]), int(bidding["max"]), int(bidding["step"])

    @property
    def must_bid(self) -> bool:
        """Tell whether the seat to bid must bid (nobody has bid yet)."""
        return not any(v is not None for _, v in self._bids)

    def legal(self, seat: int) -> tuple[Move, ...]:
        """List moves the seat may make now (the whole choice for the actions; the cards of a
        lead, follow or burial are too many to list: one legal example is given)."""
        turn = self.turn
        if turn is None or turn.seat != seat:
            return ()
        phase = turn.phase
        if phase == DECLARE:
            return (Move("pass"), *(Move("cards", o) for o in self.legal_declarations()))
        if phase == BID:
            low, high, step = self.bid_range
            bids = tuple(Move("bid", value=b) for b in range(low, high + 1, step))
            moves = bids if self.must_bid else (Move("pass"), *bids)
            return tuple(m for m in moves if self.can(m))
        if phase == SURRENDER:
            return (Move("surrender", value=True), Move("surrender", value=False))
        if phase == PICK_TRUMP:
            return tuple(Move("trump", value=s) for s in SUITS)
        if phase == BURY:
            return (Move("cards", tuple(self.kitty)),)
        hand = self.hands[seat]
        assert self.ctx is not None
        if phase == LEAD:
            ctx = self.ctx
            return (
                Move("cards", (min(hand, key=lambda c: (ctx.key[c][0] != "T", ctx.key[c][1], c)),)),
            )
        assert self._lead is not None
        return (Move("cards", tuple(generate_example(self.ctx, self._lead, hand))),)

    def verify(self, move: Move) -> None:
        """Raise MoveError with the reason unless the seat to move may make this move."""
        turn = self.turn
        if turn is None:
            raise _round_over()
        phase = turn.phase
        if move.kind == "signal":
            self._verify_signal(move)
        elif phase == DECLARE:
            self._verify_declare(move)
        elif phase == BID:
            self._verify_bid(move)
        elif phase == SURRENDER:
            if move.kind != "surrender":
                raise MoveError(wrong_kind(SURRENDER))
        elif phase == PICK_TRUMP:
            if move.kind != "trump" or not isinstance(move.value, str) or move.value not in SUITS:
                raise MoveError(wrong_kind(PICK_TRUMP))
        else:
            self._verify_cards(phase, move)

    def can(self, move: Move) -> bool:
        """Tell whether the seat to move may make this move."""
        try:
            self.verify(move)
        except MoveError:
            return False
        return True

    def apply(self, move: Move, *, replace_illegal: bool = False) -> tuple[Record, ...]:
        """Make the move of the seat to move; return the records of what happened up to the
        next decision. An illegal move raises MoveError (the round unchanged), or with
        `replace_illegal` is recorded and replaced by the rules' fallback, as a referee does."""
        turn = self.turn
        if turn is None:
            raise _round_over()
        if not replace_illegal or move.kind == "signal":
            self.verify(move)  # a signal is never replaced: a wrong one is refused
        phase = turn.phase
        if move.kind == "signal":
            self._signals.add((self._trick_no, turn.seat))
            self._emit(Signaled(self._trick_no, turn.seat, str(move.value)))
        elif phase == FOLLOW:
            self._follow(tuple(move.cards))
        elif phase == LEAD:
            self._lead_with(list(move.cards))
        elif phase == DECLARE:
            self._declare(move.cards)
        elif phase == BID:
            self._bid(move)
        elif phase == BURY:
            self._bury(list(move.cards))
        elif phase == SURRENDER:
            self._surrender(bool(move.value))
        else:
            self._pick_trump(move.value)
        out = self._out
        records = tuple(out)
        out.clear()
        if self.record:
            self.log.extend(records)
        return records

    def play_out(self, players: Sequence[Player]) -> None:
        """Let the players make every move left, an illegal choice replaced and counted as
        `apply(move, replace_illegal=True)` does; a round that keeps no log makes no records.
        A plain `CardPlayer` (whose `choose` is the adapter's) has its declarations, leads and
        follows taken from its `cards` straight to the rules (no Move, no records handed back)."""
        cards = [_plain_cards(p) for p in players]
        out, log, keep = self._out, self.log, self.record
        apply, view = self.apply, self.view
        follow, follow_view = self._follow, self._follow_view
        self._keep = keep
        try:
            turn = self.turn
            while turn is not None:
                seat, phase = turn[0], turn[1]
                own = cards[seat]
                if own is not None and phase == FOLLOW:
                    follow(tuple(own(follow_view(seat))))
                elif own is not None and phase == LEAD:
                    self._lead_with(list(own(self._lead_view(seat))))
                elif own is not None and phase == DECLARE:
                    self._declare(own(view(seat)))
                else:
                    apply(players[seat].choose(view(seat)), replace_illegal=True)
                if out:
                    log.extend(out)
                    out.clear()
                turn = self.turn
        finally:
            self._keep = True

    # -- records ------------------------------------------------------------------------------

    def _emit(self, record: Record) -> None:
        if self._keep:
            self._out.append(record)

    def _flush(self) -> tuple[Record, ...]:
        out = tuple(self._out)
        self._out.clear()
        if self.record:
            self.log.extend(out)
        return out

    # -- checks of a person's moves -----------------------------------------------------------

    def _verify_cards(self, phase: str, move: Move) -> None:
        if move.kind != "cards":
            raise MoveError(wrong_kind(phase))
        seat = self.turn.seat if self.turn else 0
        if phase == DECLARE:
            if not is_subset(move.cards, self.hands[seat]):
                raise MoveError(not_in_hand(move.cards))
            return
        hand: Sequence[Card] = self.hands[seat]
        if phase == BURY:
            hand = self.hands[seat] + self.kitty
        elif phase == FOLLOW:
            hand = self._before[self._follower]
        lead = self._lead if phase == FOLLOW else None
        why = check_cards(phase, self.ctx, lead, hand, move.cards, kitty_size=self.rs.kitty_size)
        if why is not None:
            raise MoveError(why)

    def _verify_declare(self, move: Move) -> None:
        if move.kind == "pass":
            return
        self._verify_cards(DECLARE, move)
        seat = self.turn.seat if self.turn else 0
        _, seen, hidden = self._shown[seat]
        cards, hand = list(move.cards), self.hands[seat]
        verdict = judge_declaration(self.rs, self.level, seen, seat, cards, hand)
        if not verdict.accepted:
            raise MoveError(verdict.explanation_for)
        most = max((k for _, k in hidden), default=0)
        if len(cards) <= most:
            n = len(cards)
            raise MoveError(
                lambda lang: pick(
                    lang,
                    f"桌上有人暗亮了 {most} 张，{n} 张不比它多，不能再亮。",
                    f"someone has shown {most} hidden cards; {n} is not more, so it cannot declare.",
                )
            )

    def _verify_signal(self, move: Move) -> None:
        """Refuse a signal unless the ruleset has it and an attacker sends it at its play, once
        a trick (二七王 §11: 闲家在出牌时)."""
        turn = self.turn
        assert turn is not None
        signals = self.rs.table.signals
        if not signals:
            raise MoveError(signal_refused("none"))
        if move.value not in signals:
            raise MoveError(signal_refused("unknown", str(move.value)[:20], signals))
        if turn.phase not in (LEAD, FOLLOW):
            raise MoveError(signal_refused("phase"))
        if self.rs.is_banker_side(turn.seat, self.res.banker):
            raise MoveError(signal_refused("banker"))
        if (self._trick_no, turn.seat) in self._signals:
            raise MoveError(signal_refused("again"))

    def _verify_bid(self, move: Move) -> None:
        if move.kind == "pass":
            if self.must_bid:
                raise MoveError(
                    lambda lang: pick(
                        lang, "前面都没人叫，你必须叫分", "nobody has bid: you must bid"
                    )
                )
            return
        if move.kind != "bid" or not isinstance(move.value, int):
            raise MoveError(wrong_kind(BID))
        seat = self.turn.seat if self.turn else 0
        first = self._bids[0][0] if self._bids else seat
        verdict = judge_auction(self.rs, [*self._entries, move.value], first)
        if not (verdict.valid or verdict.reason == "incomplete"):
            raise MoveError(verdict.say)

    # -- the deal -----------------------------------------------------------------------------

    def _deal(self, attempt: int) -> None:
        """Shuffle and deal (again, after a deal nobody declared in), up to the next decision."""
        rs, n = self.rs, self.n
        while True:
            if attempt > MAX_REDEALS:
                raise EngineError(
                    f"{MAX_REDEALS} 次发牌都无人亮主", en=f"nobody declared in {MAX_REDEALS} deals"
                )
            deck = self._shuffled
            self.rng.shuffle(deck)
            self.deck = list(deck)
            dealt, first = self._to_deal, self._first
            self.kitty = deck[dealt:]
            # Card i goes to seat (first + i) % n: each seat's cards are every n-th one.
            full = [deck[(s - first) % n : dealt : n] for s in range(n)]
            self.dealt = [list(h) for h in full]
            self._emit(Dealt(attempt, first, tuple(map(tuple, full)), tuple(self.kitty)))
            if rs.bidding is not None:
                self.hands = full
                self._start_auction()
                return
            self.hands = [[] for _ in range(n)]
            self.declarations = []
            self._shown, self._passing, self._asked = {}, {}, {}
            self._next_card = self._last_asks = 0
            if self._continue_deal():
                return
            self.res.redeals += 1
            attempt += 1

    def _continue_deal(self) -> bool:
        """Deal on until a seat must decide (True) or the deal ends: the trump is fixed (True),
        or nobody declared and nothing fixes it (False: deal again)."""
        hands, passing, table = self.hands, self._passing, self.declarations
        ranks, deck, n, first = self.declaring, self._shuffled, self.n, self._first
        dealt, declared = self._to_deal, len(table)  # the table stands while the deal goes on
        for i in range(self._next_card, dealt):
            seat = (first + i) % n
            card = deck[i]
            hands[seat].append(card)
            if (passing.get(seat) != declared or card.rank in ranks) and self._ask_declare(
                seat, i + 1
            ):
                self._next_card = i + 1
                return True
        self._next_card = dealt
        while self._last_asks < n:
            seat = (first + self._last_asks) % n
            self._last_asks += 1
            if passing.get(seat) != len(table) and self._ask_declare(seat, dealt):
                return True
        rs = self.rs
        if table:
            last = table[-1]
            verdict = judge_declaration(rs, self.level, table[:-1], *last)
            self._set_trump(verdict.trump, last[0], "declare")
            return True
        if rs.has_flip:
            flipped = flip_trump(rs, self.level, self.kitty)
            self._emit(Flipped(flipped.card, flipped.trump))
            self._set_trump(flipped.trump, None, "flip")
            return True
        if rs.declare.nobody == NobodyDeclares.NO_TRUMP:
            self._set_trump(None, None, "no_trump")
            return True
        return False

    def _seen_declarations(self, seat: int) -> tuple[Seen, Hidden]:
        """Split the declarations so far into what a seat sees whole and what only as a count."""
        seen: list[tuple[int, tuple[Card, ...]]] = []
        hidden: list[tuple[int, int]] = []
        for who, cards in self.declarations:
            shown = shown_declaration(self.rs, cards, own=who == seat, deal_over=False)
            if isinstance(shown, int):
                hidden.append((who, shown))
            else:
                seen.append((who, shown))
        return tuple(seen), tuple(hidden)

    def _ask_declare(self, seat: int, at: int) -> bool:
        """Stop for the seat's declaration (True), or let it pass unasked (False)."""
        shown = self._shown.get(seat)
        if shown is None or shown[0] != len(self.declarations):
            shown = self._shown[seat] = (len(self.declarations), *self._seen_declarations(seat))
        _, seen, hidden = shown
        mode = self.asks[seat]
        self._options = ()
        if mode == OPTIONS:
            hand = tuple(self.hands[seat])
            if not visible_declaration_options(self.rs, self.level, seen, hidden, seat, hand):
                self._passing[seat] = len(self.declarations)
                return False  # it would pass: nothing it sees can be declared
            self._passing.pop(seat, None)  # it has a choice: ask again at its next card
        elif mode == NEW:
            hand = tuple(self.hands[seat])
            options = visible_declaration_options(self.rs, self.level, seen, hidden, seat, hand)
            known = tuple(tuple(o) for o in options)
            if not known or known == self._asked.get(seat):
                return False
            self._asked[seat] = self._options = known
        self._at = at
        self.turn = _TURNS[seat, DECLARE]
        return True

    def _declare(self, chosen: Sequence[Card]) -> None:
        assert self.turn is not None
        seat = self.turn.seat
        cards = list(chosen)
        if not cards:
            self._emit(Passed(seat))
        else:
            hand = self.hands[seat]
            verdict = judge_declaration(self.rs, self.level, self.declarations, seat, cards, hand)
            self._emit(
                Declared(
                    seat, self._at, tuple(cards), verdict.accepted, verdict.trump, verdict.reason
                )
            )
            _, seen, hidden = self._shown[seat]
            if verdict.accepted:
                self.declarations.append((seat, tuple(cards)))
            elif (
                not hidden
                or not judge_declaration(self.rs, self.level, seen, seat, cards, hand).accepted
            ):
                # A refusal the seat could not foresee (it decided on what it was shown, the
                # hidden declarations aside) is the game's secret at work, not an illegal play.
                self.res.illegal += 1
        self.turn = None
        if not self._continue_deal():
            self.res.redeals += 1
            self._deal(self.res.redeals)

    def _set_trump(self, trump: str | None, declarer: int | None, how: str) -> None:
        res = self.res
        res.trump, res.declarer, res.trump_by = trump, declarer, how
        if self.setup.banker is not None:
            res.banker = self.setup.banker
        else:
            res.banker = declarer if declarer is not None else 0
        self._emit(TrumpFixed(trump, declarer, res.banker, how))
        self._start_bury()

    # -- the auction (rulesets with bidding) --------------------------------------------------

    def _start_auction(self) -> None:
        self._entries, self._bids, self._bid_turns = [], [], 0
        self.turn = _TURNS[self._first, BID]

    def _bid(self, move: Move) -> None:
        assert self.turn is not None
        rs, res, seat = self.rs, self.res, self.turn.seat
        _, high, _ = self.bid_range
        must = self.must_bid
        entry: int | str = PASS if move.value is None or move.kind == "pass" else move.value
        verdict = judge_auction(rs, [*self._entries, entry], self._first)
        legal = verdict.valid or verdict.reason == "incomplete"
        if not legal:
            res.illegal += 1
            entry = high if must else PASS
            verdict = judge_auction(rs, [*self._entries, entry], self._first)
        self._entries.append(entry)
        self._bids.append((seat, None if entry == PASS else int(entry)))
        self._emit(Bid(seat, entry, legal))
        self._bid_turns += 1
        if not verdict.valid:
            if self._bid_turns >= 100 * self.n:
                raise EngineError("叫分没有结束", en="the bidding has not ended")
            self.turn = _TURNS[(seat + 1) % self.n, BID]
            return
        assert verdict.banker is not None and verdict.bid is not None
        banker, bid = verdict.banker, verdict.bid
        res.bid = bid
        self.setup = RoundSetup(self.setup.level, self.setup.attacker_level, banker)
        if is_kitty_shown(rs, bid):
            self.shown_kitty = tuple(self.kitty)
            self._emit(KittyShown(banker, bid, self.shown_kitty))
        assert rs.bidding is not None
        surrender_bid = rs.bidding.get("surrender_bid")
        may_surrender = surrender_bid is not None and bid == int(surrender_bid)
        self.turn = _TURNS[banker, SURRENDER if may_surrender else PICK_TRUMP]

    def _surrender(self, yes: bool) -> None:
        assert self.turn is not None
        banker, res = self.turn.seat, self.res
        if not yes:
            self.turn = _TURNS[banker, PICK_TRUMP]
            return
        res.surrendered, res.banker, res.trump_by = True, banker, "surrender"
        assert res.bid is not None
        self._emit(Surrendered(banker, res.bid))
        self._finish()

    def _pick_trump(self, value: object) -> None:
        assert self.turn is not None
        trump = value
        if not isinstance(trump, str) or trump not in SUITS:
            self.res.illegal += 1
            trump = SUITS[0]
        self._set_trump(str(trump), self.turn.seat, "bid")

    # -- the kitty and the play ---------------------------------------------------------------

    def _start_bury(self) -> None:
        res = self.res
        if res.surrendered:
            self._finish()
            return
        self.ctx = context_for(self.rs, self.level, res.trump)
        self.turn = _TURNS[res.banker, BURY]

    def _bury(self, cards: list[Card]) -> None:
        banker = self.res.banker
        hand = self.hands[banker] + self.kitty
        legal = len(cards) == self.rs.kitty_size and is_subset(cards, hand)
        if not legal:
            self.res.illegal += 1
            cards = list(self.kitty)
        self._emit(Buried(banker, tuple(cards), legal))
        self.kitty = list(cards)
        kept = remove_cards(hand, cards)
        self.hands[banker] = kept
        self.kept = list(kept)
        self._final = tuple(self.declarations)  # the deal is over: they stand
        self._leader = banker
        self._begin_play()
        self._announce_no_trump()
        self._start_trick()

    def _begin_play(self) -> None:
        """Fix what stays the same through the tricks: the banker's side, the 无主 rule."""
        rs, banker = self.rs, self.res.banker
        self._side = tuple(rs.is_banker_side(seat, banker) for seat in range(self.n))
        self._announce = announces_no_trump(rs)

    def _start_trick(self) -> None:
        leader = self._leader
        self._order, self._follow_turns = order, _ = _ORDERS[leader, self.n]
        # Every hand as the trick starts: each follower decides (and is judged) on its own.
        self._before = list(map(tuple, map(self.hands.__getitem__, order)))
        self._no_trump_now = tuple(self.no_trump)
        self.turn = _TURNS[leader, LEAD]

    def _follow_view(self, seat: int) -> PlayerView:
        return follow_view(
            seat,
            self.rs,
            self.level,
            self._before[self._follower],
            self.ctx,  # type: ignore[arg-type]  # set from the burial on
            self.res.banker,
            self._final,
            self._lead,
            tuple(self._trick),
            self._history,
            self.res.attackers_points,
            self.shown_kitty,
            self._no_trump_now,
        )

    def _lead_view(self, seat: int) -> PlayerView:
        assert self.ctx is not None
        banker = self.res.banker
        return lead_view(
            seat,
            self.rs,
            self.level,
            self._before[0],
            self.ctx,
            banker,
            self._final,
            self._history,
            self.res.attackers_points,
            tuple(self.kitty) if seat == banker else (),
            self.shown_kitty,
            self._no_trump_now,
            seat not in self.no_rethrow,
        )

    def _lead_with(self, cards: list[Card]) -> None:
        ctx, res, leader = self.ctx, self.res, self._leader
        assert ctx is not None
        banker = res.banker
        hand = self.hands[leader]
        tried = cards
        combo = classify(ctx, cards) if cards and is_subset(cards, hand) else None
        banned = combo is not None and combo.type == THROW and leader in self.no_rethrow
        legal = not (combo is None or not combo.is_valid or banned)
        throw, penalty = "", 0
        if not legal:
            res.illegal += 1
            cards = [min(hand, key=lambda c: (ctx.key[c][0] != "T", ctx.key[c][1], c))]
        elif combo is not None and combo.type == THROW:
            res.throws_tried += 1
            others = [self.hands[(leader + k) % self.n] for k in range(1, self.n)]
            verdict = judge_throw(ctx, cards, others, leader, banker)
            throw = "ok" if verdict.allowed else "failed"
            if not verdict.allowed:
                res.throws_failed += 1
                if self.rs.rethrow_is_banned:
                    self.no_rethrow.add(leader)
                cards = list(verdict.played)
                if verdict.penalty and verdict.penalty_to == "attackers":
                    penalty = verdict.penalty
                    res.penalty += penalty
                    res.attackers_points += penalty
        lead_cards = tuple(cards)
        if self._keep:
            self._out.append(
                Played(
                    self._trick_no,
                    leader,
                    LEAD,
                    lead_cards,
                    legal,
                    "rethrow_banned" if banned else None,
                    tuple(tried) if throw == "failed" else None,
                    throw,
                    penalty,
                )
            )
        # The cards as chosen, when they stand (a legal lead, not a failed throw): classified.
        stands = legal and throw != "failed"
        self._lead = combo if combo is not None and stands else classify(ctx, lead_cards)
        self._plays = [lead_cards]
        self._trick = [(leader, lead_cards)]
        self._remove(leader, lead_cards)
        self._follower = 1
        self.turn = self._follow_turns[1]

    def _follow(self, cards: tuple[Card, ...]) -> None:
        ctx, lead, k = self.ctx, self._lead, self._follower
        assert ctx is not None
        seat, hand = self._order[k], self._before[k]
        played = tried = cards
        verdict = judge_follow(ctx, lead, hand, played)
        no = self._trick_no
        if verdict.legal:
            if self._keep:
                self._out.append(_new(Played, (no, seat, FOLLOW, played, True, None, None, "", 0)))
        else:
            self.res.illegal += 1
            played = tuple(generate_example(ctx, lead, hand))
            self._emit(Played(no, seat, FOLLOW, played, False, verdict.reason, tried))
        self._plays.append(played)
        self._trick.append((seat, played))
        held = self.hands[seat]
        for c in played:
            held.remove(c)
        self.played += played
        k += 1
        self._follower = k
        if k < self.n:
            self.turn = self._follow_turns[k]
        else:
            self._end_trick()

    def _end_trick(self) -> None:
        ctx, res, plays, no = self.ctx, self.res, self._plays, self._trick_no
        assert ctx is not None
        leader, order = self._leader, self._order
        outcome = resolve_trick(ctx, plays)
        winner = order[outcome.winner]
        breaks = len(res.breaks)
        self._check_trick(no, outcome.winner, outcome.beats, outcome.legal)
        if self.referee and (len(res.breaks) > breaks or not self._plays_held(outcome.lead)):
            self._referee(no, outcome.winner)
        ctx.forget_hands()  # every hand that followed has changed
        self.trick_points.append(outcome.points)
        banker_side = self._side[winner]
        if not banker_side:
            res.attackers_points += outcome.points
        last = not self.hands[leader]
        if last and not all(not h for h in self.hands):
            res.breaks.append(f"trick {no}: hands not all empty at the end")
        if self._keep:
            self._out.append(
                _new(TrickWon, (no, leader, winner, outcome.points, res.attackers_points))
            )
        if last:
            side = "banker" if banker_side else "attackers"
            bonus = kitty_bonus(
                ctx, plays[outcome.winner], self.kitty, side=side, trick_points=outcome.points
            )
            res.kitty_bonus = bonus.bonus
            res.multiplier = bonus.multiplier
            res.attackers_points += bonus.bonus
        self._history = (*self._history, tuple(self._trick))
        self._leader = winner
        self._trick_no = no + 1
        if not last and self._announce:
            self._announce_no_trump()
        if self.hands[winner]:
            self._start_trick()
        else:
            res.tricks = self._trick_no
            self._finish()

    def _plays_held(self, lead: Combo) -> bool:
        """Tell whether the trick's lead came from the leader's hand and every follow is legal
        from the follower's hand as the trick started, each judged afresh (`follow_reason`).
        Then resolving the trick with those hands is the resolution without them: the same
        notes, beats and winner, every play legal (`_referee` would add nothing)."""
        ctx, plays, before = self.ctx, self._plays, self._before
        assert ctx is not None
        for k in range(1, len(plays)):  # a loop: no generator to resume per follow
            if follow_reason(ctx, lead, before[k], plays[k]):
                break
        else:
            return is_subset(plays[0], before[0])
        return False

    def _referee(self, no: int, winner: int) -> None:
        """Resolve the trick again with every hand as it started (each follow judged) and note
        what disagrees: an illegal play, figures that contradict themselves, another winner."""
        assert self.ctx is not None
        again = resolve_trick(self.ctx, self._plays, self._before)
        self._check_trick(no, again.winner, again.beats, again.legal)
        if again.winner != winner:
            self.res.breaks.append(
                f"trick {no}: winner {winner} without hands, {again.winner} with hands"
            )

    def _announce_no_trump(self) -> None:
        """Record 报无主 for every seat that has just run out of trumps (rulesets that have it)."""
        if not self._announce:
            return
        ctx = self.ctx
        assert ctx is not None
        for seat in range(self.n):
            if seat not in self.no_trump and must_announce_no_trump(ctx, self.hands[seat]):
                self.no_trump.append(seat)
                self._emit(NoTrump(seat, self._trick_no))

    def _remove(self, seat: int, cards: Sequence[Card]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.played += cards

    def _check_trick(
        self, no: int, winner: int, beats: Sequence[bool], legal: Sequence[bool | None]
    ) -> None:
        breaks = self.res.breaks
        if not (0 <= winner < self.n) or not beats[winner] or True in beats[winner + 1 :]:
            breaks.append(f"trick {no}: winner {winner} does not match beats {list(beats)}")
        if False in legal:  # bool or None each: only a False matches
            breaks.append(f"trick {no}: the referee judged a follow illegal: {list(legal)}")

    # -- the end ------------------------------------------------------------------------------

    def _finish(self) -> None:
        self.turn = None
        rs, res = self.rs, self.res
        res.kitty_points = count_points(self.kitty)
        res.trick_points = sum(self.trick_points)
        if not res.surrendered and res.trick_points + res.kitty_points != rs.total_points:
            res.breaks.append(
                f"points: tricks {res.trick_points} + kitty {res.kitty_points} ≠ {rs.total_points}"
            )
        # The same cards as the deck, copies counted: the same sorted lists (cards are ints).
        compared = not res.surrendered
        differ = compared and sorted(self.played + self.kitty) != sorted(self.deck)
        if differ:
            res.breaks.append("cards: played + kitty differ from the deck")
        # A card played more often than the decks hold: possible only where the cards differ
        # from the deck (which holds `decks` copies of each card) or were not compared.
        if differ or not compared:
            played = Counter(self.played)
            if played and max(played.values()) > rs.decks:
                res.breaks.append("cards: a card was played more often than the decks hold")
        if rs.settles_by_bid:
            assert res.bid is not None
            chips = settle_chips(rs, res.attackers_points, res.bid, res.surrendered)
            res.result, res.winner, res.rise = chips.result, chips.winner, chips.rise
            res.chips = chips.chips
            if rs.bonus_rules is not None:
                res.bonus = settlement_bonus(
                    rs,
                    self.level,
                    res.trump,
                    res.banker,
                    self.dealt,
                    self.kitty,
                    self.kept,
                    res.surrendered,
                )
            res.multiplier = res.multiplier or 0
        else:
            setup = self.setup
            score = score_round(rs, res.attackers_points, setup.level, setup.attacker_level)
            res.result, res.winner, res.rise = score.result, score.winner, score.rise
            res.next_level = score.next_level
        self._emit(
            Scored(
                res.attackers_points,
                tuple(self.kitty),
                res.kitty_points,
                res.kitty_bonus,
                res.multiplier,
                res.result,
                res.winner,
                res.rise,
                res.next_level,
                res.chips,
                tuple(res.bonus),
                tuple(res.breaks),
            )
        )
