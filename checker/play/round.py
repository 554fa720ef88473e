"""Whole rounds: a seeded deal with trump selection, the kitty, tricks until the hands are empty,
kitty bonus and score, every action judged by the same functions the checker uses."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from checker.engine.bidding import PASS, judge_auction, settle_chips
from checker.engine.bonus import count_bonus
from checker.engine.cards import (
    BIG,
    SMALL,
    SUITS,
    Card,
    count_points,
    format_card,
    format_cards,
    is_subset,
    remove_cards,
)
from checker.engine.combos import THROW, classify
from checker.engine.declare import flip_trump, judge_declaration, shown_declaration
from checker.engine.errors import EngineError
from checker.engine.follow import generate_example, judge_follow
from checker.engine.order import Context, context_for
from checker.engine.roundrules import (
    announces_no_trump,
    is_kitty_shown,
    is_rethrow_banned,
    must_announce_no_trump,
)
from checker.engine.ruleset import NobodyDeclares, Ruleset
from checker.engine.scoring import kitty_bonus, score_round
from checker.engine.throws import judge_throw
from checker.engine.trick import resolve_trick

from .players import (
    BID,
    BURY,
    PICK_TRUMP,
    Player,
    PlayerView,
    declare_view,
    declaring_card_ranks,
    follow_view,
    lead_view,
    visible_declaration_options,
)

Event = dict[str, Any]
Seen = tuple[tuple[int, tuple[Card, ...]], ...]
Hidden = tuple[tuple[int, int], ...]
MAX_REDEALS = 50


class RoundPaused(Exception):  # noqa: N818 - a pause, not an error
    """Raised by a player to stop the round at its decision; play_round adds the log so far."""

    def __init__(self, view: PlayerView, detail: object = None) -> None:
        super().__init__(view.phase)
        self.view = view
        self.detail = detail
        self.events: list[Event] = []


@dataclass(frozen=True)
class RoundSetup:
    """Where a round starts: the level ranks of both sides and the banker (None: first round,
    the first declarer becomes banker)."""

    level: int | None
    attacker_level: int | None
    banker: int | None

    def as_event(self) -> Event:
        """Write the setup as log fields."""
        return {
            "level": _rank_text(self.level),
            "attacker_level": _rank_text(self.attacker_level),
            "banker": self.banker,
        }


@dataclass
class RoundResult:
    """Everything a round produced: the log, the figures and any broken invariant."""

    ruleset: str
    seed: int
    setup: RoundSetup
    trump: str | None = None
    banker: int = 0
    declarer: int | None = None
    trump_by: str = "declare"
    redeals: int = 0
    tricks: int = 0
    illegal: int = 0
    throws_tried: int = 0
    throws_failed: int = 0
    penalty: int = 0
    attackers_points: int = 0
    trick_points: int = 0
    kitty_points: int = 0
    kitty_bonus: int = 0
    multiplier: int = 0
    result: str = ""
    winner: str = ""
    rise: int = 0
    next_level: int | None = None
    bid: int | None = None
    surrendered: bool = False
    chips: int | None = None
    bonus: list[int] = field(default_factory=list)
    breaks: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        """Return the round's figures (no log) as plain data."""
        return {
            "seed": self.seed,
            "trump": self.trump or "none",
            "trump_by": self.trump_by,
            "banker": self.banker,
            "redeals": self.redeals,
            "tricks": self.tricks,
            "illegal": self.illegal,
            "throws_tried": self.throws_tried,
            "throws_failed": self.throws_failed,
            "attackers_points": self.attackers_points,
            "kitty_bonus": self.kitty_bonus,
            "result": self.result,
            "winner": self.winner,
            "rise": self.rise,
            "bid": self.bid,
            "chips": self.chips,
            "bonus": list(self.bonus),
            "breaks": list(self.breaks),
        }


def _rank_text(rank: int | None) -> str | None:
    if rank is None:
        return None
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank))


_DECKS: dict[int, tuple[Ruleset, tuple[Card, ...]]] = {}


def build_deck(rs: Ruleset) -> list[Card]:
    """List the ruleset's whole deck: its ranks in four suits, jokers, times the decks."""
    known = _DECKS.get(id(rs))
    if known is None or known[0] is not rs:
        one = [Card(s, r) for s in SUITS for r in rs.ranks]
        if rs.jokers:
            one += [SMALL, BIG]
        if len(_DECKS) >= 64:
            _DECKS.clear()
        known = _DECKS[id(rs)] = (rs, tuple(one * rs.decks))
    return list(known[1])


def round_setup(rs: Ruleset, seed: int) -> RoundSetup:
    """Draw a round's starting point from its seed (levels and banker, or a first round)."""
    # A quarter are first rounds at the lowest rank (the first declarer becomes banker); the
    # rest start mid-match with random levels and a random banker.
    rng = random.Random(f"setup:{seed}")
    first = rng.random() < 0.25
    low = rs.levels[0] if rs.has_level else None
    if first:
        return RoundSetup(low, low, None)
    level = rng.choice(rs.levels) if rs.has_level else None
    attacker = rng.choice(rs.levels) if rs.has_level else None
    return RoundSetup(level, attacker, rng.randrange(rs.players))


class _Round:
    """The state of one round while it is played."""

    def __init__(
        self,
        rs: Ruleset,
        seed: int,
        players: Sequence[Player],
        setup: RoundSetup,
        referee: bool = False,
        *,
        record: bool = True,
    ) -> None:
        self.referee = referee
        self.record = record
        if len(players) != rs.players:
            raise EngineError(
                f"{rs.name} 需要 {rs.players} 位玩家，给了 {len(players)} 位",
                en=f"{rs.name} needs {rs.players} players, got {len(players)}",
            )
        self.rs = rs
        self.players = players
        self.rng = random.Random(seed)
        self.n = rs.players
        self.res = RoundResult(rs.name, seed, setup)
        self.setup = setup
        self.level = setup.level
        self.hands: list[list[Card]] = [[] for _ in range(self.n)]
        self.kitty: list[Card] = []
        self.deck: list[Card] = []
        self.declarations: list[tuple[int, tuple[Card, ...]]] = []
        self.trick_points: list[int] = []
        self.dealt: list[list[Card]] = []
        self.kept: list[Card] = []
        self.played: list[Card] = []
        self.shown_kitty: tuple[Card, ...] = ()
        self.no_trump: list[int] = []
        self.no_rethrow: set[int] = set()
        # What each seat was last shown of the declarations: (how many there were, seen, hidden).
        self.shown: dict[int, tuple[int, Seen, Hidden]] = {}
        # Seats that were found to have nothing to declare, and would pass unasked: how many
        # declarations there were then. While the table stands and every card the seat is
        # dealt since cannot declare, that still holds (the deal checks each card as it goes).
        self.passing: dict[int, int] = {}
        self.declaring = declaring_card_ranks(rs, self.level)

    def log(self, kind: str, **fields: Any) -> None:
        # Callers whose fields cost something to write check `record` themselves.
        if self.record:
            self.res.events.append({"t": kind, **fields})

    # -- deal and trump -----------------------------------------------------------------------

    def deal(self) -> None:
        rs = self.rs
        deck = build_deck(rs)
        if rs.hand_size * self.n + rs.kitty_size != len(deck):
            raise EngineError(
                f"{rs.name}: {self.n} × {rs.hand_size} + {rs.kitty_size} ≠ {len(deck)} 张",
                en=f"{rs.name}: {self.n} × {rs.hand_size} + {rs.kitty_size} ≠ {len(deck)} cards",
            )
        bidding = rs.bidding is not None
        first = self.setup.banker if self.setup.banker is not None else 0
        dealt = len(deck) - rs.kitty_size
        for attempt in range(MAX_REDEALS + 1):
            self.rng.shuffle(deck)
            self.deck = list(deck)
            self.kitty = deck[dealt:]
            # Card i goes to seat (first + i) % n: each seat's cards are every n-th one.
            full = [deck[(s - first) % self.n : dealt : self.n] for s in range(self.n)]
            self.dealt = [list(h) for h in full]
            if self.record:
                self.log(
                    "deal",
                    redeal=attempt,
                    first=first,
                    hands=[format_cards(h) for h in full],
                    kitty=format_cards(self.kitty),
                )
            if bidding:
                self.hands = full
                self.auction(first)
                return
            self.hands = [[] for _ in range(self.n)]
            self.declarations = []
            self.shown = {}
            self.passing = {}
            hands, passing, table = self.hands, self.passing, self.declarations
            ranks = self.declaring
            for i in range(dealt):
                seat = (first + i) % self.n
                card = deck[i]
                hands[seat].append(card)
                if passing.get(seat) != len(table) or card.rank in ranks:
                    self.ask_declare(seat, i + 1)
            for k in range(self.n):
                seat = (first + k) % self.n
                if passing.get(seat) != len(table):
                    self.ask_declare(seat, dealt)
            if self.declarations:
                last = self.declarations[-1]
                verdict = judge_declaration(rs, self.level, self.declarations[:-1], *last)
                self.set_trump(verdict.trump, last[0], "declare")
                return
            if rs.has_flip:
                flipped = flip_trump(rs, self.level, self.kitty)
                self.log("flip", card=format_card(flipped.card), trump=flipped.trump or "none")
                self.set_trump(flipped.trump, None, "flip")
                return
            if rs.declare.nobody == NobodyDeclares.NO_TRUMP:
                self.set_trump(None, None, "no_trump")
                return
            self.res.redeals += 1
        raise EngineError(
            f"{MAX_REDEALS} 次发牌都无人亮主", en=f"nobody declared in {MAX_REDEALS} deals"
        )

    def seen_declarations(self, seat: int) -> tuple[Seen, Hidden]:
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

    def ask_declare(self, seat: int, at: int) -> None:
        hand = self.hands[seat]
        shown = self.shown.get(seat)
        if shown is None or shown[0] != len(self.declarations):
            shown = (len(self.declarations), *self.seen_declarations(seat))
            self.shown[seat] = shown
        _, seen, hidden = shown
        player, hand_t = self.players[seat], tuple(hand)
        if getattr(player, "passes_without_options", False) and not visible_declaration_options(
            self.rs, self.level, seen, hidden, seat, hand_t
        ):
            self.passing[seat] = len(self.declarations)
            return  # it would pass: nothing it sees can be declared
        self.passing.pop(seat, None)  # it has a choice: ask again at its next card
        view = declare_view(
            seat, self.rs, self.level, hand_t, seen, self.setup.banker is None, hidden
        )
        cards = player.choose(view)
        if not cards:
            return
        verdict = judge_declaration(self.rs, self.level, self.declarations, seat, cards, hand)
        if self.record:
            self.log(
                "declare",
                seat=seat,
                at=at,
                cards=format_cards(cards),
                accepted=verdict.accepted,
                trump=verdict.trump or "none",
                reason=verdict.reason,
            )
        if verdict.accepted:
            self.declarations.append((seat, tuple(cards)))
        elif (
            not hidden
            or not judge_declaration(self.rs, self.level, seen, seat, cards, hand).accepted
        ):
            # A refusal the seat could not foresee (it decided on what it was shown, the
            # hidden declarations aside) is the game's secret at work, not an illegal play.
            self.res.illegal += 1

    def set_trump(self, trump: str | None, declarer: int | None, how: str) -> None:
        res = self.res
        res.trump = trump
        res.declarer = declarer
        res.trump_by = how
        if self.setup.banker is not None:
            res.banker = self.setup.banker
        else:
            res.banker = declarer if declarer is not None else 0
        self.log("trump", trump=trump or "none", declarer=declarer, banker=res.banker, by=how)

    def auction(self, first: int) -> None:
        """Run the auction (rulesets with bidding), then the banker surrenders or names trump."""
        rs, res = self.rs, self.res
        assert rs.bidding is not None
        low, high, step = (int(rs.bidding[k]) for k in ("min", "max", "step"))
        entries: list[int | str] = []
        shown: list[tuple[int, int | None]] = []
        seat = first
        for _ in range(100 * self.n):
            player = self.players[seat]
            view = PlayerView(BID, seat, rs, self.level, tuple(self.hands[seat]), bids=tuple(shown))
            bidder = getattr(player, "bid", None)
            must = not any(v is not None for _, v in shown)
            value = bidder(view, low, high, step, must) if bidder else (high if must else None)
            entry: int | str = PASS if value is None else value
            verdict = judge_auction(rs, [*entries, entry], first)
            legal = verdict.valid or verdict.reason == "incomplete"
            if not legal:
                res.illegal += 1
                entry = high if must else PASS
                verdict = judge_auction(rs, [*entries, entry], first)
            entries.append(entry)
            shown.append((seat, None if entry == PASS else int(entry)))
            self.log("bid", seat=seat, bid=entry, legal=legal)
            if verdict.valid:
                break
            seat = (seat + 1) % self.n
        else:
            raise EngineError("叫分没有结束", en="the bidding has not ended")
        assert verdict.banker is not None and verdict.bid is not None
        banker, bid = verdict.banker, verdict.bid
        res.bid = bid
        self.setup = RoundSetup(self.setup.level, self.setup.attacker_level, banker)
        if is_kitty_shown(rs, bid):
            self.shown_kitty = tuple(self.kitty)
            self.log("show_kitty", seat=banker, bid=bid, cards=format_cards(self.kitty))
        hand = tuple(self.hands[banker] + self.kitty)
        view = PlayerView(
            PICK_TRUMP,
            banker,
            rs,
            self.level,
            hand,
            banker=banker,
            bids=tuple(shown),
            shown_kitty=self.shown_kitty,
        )
        player = self.players[banker]
        surrender_bid = rs.bidding.get("surrender_bid")
        asker = getattr(player, "surrender", None)
        if surrender_bid is not None and bid == int(surrender_bid) and asker and asker(view):
            res.surrendered = True
            res.banker = banker
            res.trump_by = "surrender"
            self.log("surrender", seat=banker, bid=bid)
            return
        picker = getattr(player, "pick_trump", None)
        trump = picker(view) if picker else SUITS[0]
        if trump not in SUITS:
            res.illegal += 1
            trump = SUITS[0]
        self.set_trump(trump, banker, "bid")

    # -- kitty and play -----------------------------------------------------------------------

    def bury(self, ctx: Context) -> None:
        rs = self.rs
        banker = self.res.banker
        hand = self.hands[banker] + self.kitty
        view = PlayerView(
            BURY, banker, rs, self.level, tuple(ctx.sort_cards(hand)), ctx=ctx, banker=banker
        )
        cards = self.players[banker].choose(view)
        legal = len(cards) == rs.kitty_size and is_subset(cards, hand)
        if not legal:
            self.res.illegal += 1
            cards = list(self.kitty)
        if self.record:
            self.log("bury", seat=banker, cards=format_cards(cards), legal=legal)
        self.kitty = list(cards)
        kept = remove_cards(hand, cards)
        self.hands[banker] = kept
        self.kept = list(kept)

    def play(self, ctx: Context) -> None:
        rs, res = self.rs, self.res
        level, players, events, shown_kitty = self.level, self.players, res.events, self.shown_kitty
        record = self.record
        announce = announces_no_trump(rs)
        banker = res.banker
        leader = banker
        history: tuple[tuple[tuple[int, tuple[Card, ...]], ...], ...] = ()
        trick_no = 0
        n = self.n
        orders = [[(first + k) % n for k in range(n)] for first in range(n)]
        banker_side = [rs.is_banker_side(seat, banker) for seat in range(n)]
        declarations = tuple(self.declarations)  # the deal is over: they stand
        self.announce_no_trump(ctx, trick_no)
        while self.hands[leader]:
            order = orders[leader]
            # Every hand as the trick starts: each follower decides (and is judged) on its own.
            before = [tuple(self.hands[s]) for s in order]
            no_trump = tuple(self.no_trump)
            lead_cards = tuple(
                self.choose_lead(ctx, leader, banker, history, trick_no, before[0], declarations)
            )
            lead = classify(ctx, lead_cards)
            plays: list[tuple[Card, ...]] = [lead_cards]
            trick: list[tuple[int, tuple[Card, ...]]] = [(leader, lead_cards)]
            self.remove(leader, lead_cards)
            for k in range(1, n):
                seat, hand = order[k], before[k]
                view = follow_view(
                    seat,
                    rs,
                    level,
                    hand,
                    ctx,
                    banker,
                    declarations,
                    lead,
                    tuple(trick),
                    history,
                    res.attackers_points,
                    shown_kitty,
                    no_trump,
                )
                played = tried = tuple(players[seat].choose(view))
                verdict = judge_follow(ctx, lead, hand, played)
                if not verdict.legal:
                    res.illegal += 1
                    played = tuple(generate_example(ctx, lead, hand))
                if record:
                    event: Event = {
                        "t": "play",
                        "trick": trick_no,
                        "seat": seat,
                        "role": "follow",
                        "cards": format_cards(played),
                        "legal": verdict.legal,
                    }
                    if not verdict.legal:
                        event["reason"] = verdict.reason
                        event["tried"] = format_cards(tried)
                    events.append(event)
                plays.append(played)
                trick.append((seat, played))
                self.remove(seat, played)
            outcome = resolve_trick(ctx, plays)
            winner = order[outcome.winner]
            self.check_trick(trick_no, outcome.winner, outcome.beats, outcome.legal)
            if self.referee:
                again = resolve_trick(ctx, plays, before)
                self.check_trick(trick_no, again.winner, again.beats, again.legal)
                if again.winner != outcome.winner:
                    res.breaks.append(
                        f"trick {trick_no}: winner {outcome.winner} without hands, "
                        f"{again.winner} with hands"
                    )
            ctx.forget_hands()  # every hand that followed has changed
            self.trick_points.append(outcome.points)
            if not banker_side[winner]:
                res.attackers_points += outcome.points
            last = not self.hands[leader]
            if last and not all(not h for h in self.hands):
                res.breaks.append(f"trick {trick_no}: hands not all empty at the end")
            if record:
                self.log(
                    "trick",
                    trick=trick_no,
                    leader=leader,
                    winner=winner,
                    points=outcome.points,
                    attackers=res.attackers_points,
                )
            if last:
                side = "banker" if banker_side[winner] else "attackers"
                bonus = kitty_bonus(
                    ctx, plays[outcome.winner], self.kitty, side=side, trick_points=outcome.points
                )
                res.kitty_bonus = bonus.bonus
                res.multiplier = bonus.multiplier
                res.attackers_points += bonus.bonus
            history = (*history, tuple(trick))
            leader = winner
            trick_no += 1
            if not last and announce:
                self.announce_no_trump(ctx, trick_no)
        res.tricks = trick_no

    def choose_lead(
        self,
        ctx: Context,
        leader: int,
        banker: int,
        history: tuple[tuple[tuple[int, tuple[Card, ...]], ...], ...],
        trick_no: int,
        hand_t: tuple[Card, ...],
        declarations: tuple[tuple[int, tuple[Card, ...]], ...],
    ) -> list[Card]:
        res = self.res
        hand = self.hands[leader]
        view = lead_view(
            leader,
            self.rs,
            self.level,
            hand_t,
            ctx,
            banker,
            declarations,
            history,
            res.attackers_points,
            tuple(self.kitty) if leader == banker else (),
            self.shown_kitty,
            tuple(self.no_trump),
            leader not in self.no_rethrow,
        )
        cards = tried = list(self.players[leader].choose(view))
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
                if is_rethrow_banned(self.rs):
                    self.no_rethrow.add(leader)
                cards = list(verdict.played)
                if verdict.penalty and verdict.penalty_to == "attackers":
                    penalty = verdict.penalty
                    res.penalty += penalty
                    res.attackers_points += penalty
        if self.record:
            event: Event = {
                "t": "play",
                "trick": trick_no,
                "seat": leader,
                "role": "lead",
                "cards": format_cards(cards),
            }
            if banned:
                event["reason"] = "rethrow_banned"
            event["legal"] = legal
            if throw:
                event["throw"] = throw
                if throw == "failed":
                    event["tried"] = format_cards(tried)
                    if penalty:
                        event["penalty"] = penalty
            res.events.append(event)
        return cards

    def announce_no_trump(self, ctx: Context, trick_no: int) -> None:
        """Log 报无主 for every seat that has just run out of trumps (rulesets that have it)."""
        if not announces_no_trump(self.rs):
            return
        for seat in range(self.n):
            if seat not in self.no_trump and must_announce_no_trump(ctx, self.hands[seat]):
                self.no_trump.append(seat)
                self.log("no_trump", seat=seat, trick=trick_no)

    def remove(self, seat: int, cards: Sequence[Card]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.played += cards

    def check_trick(
        self, no: int, winner: int, beats: Sequence[bool], legal: Sequence[bool | None]
    ) -> None:
        breaks = self.res.breaks
        if not (0 <= winner < self.n) or not beats[winner] or True in beats[winner + 1 :]:
            breaks.append(f"trick {no}: winner {winner} does not match beats {list(beats)}")
        if False in legal:  # bool or None each: only a False matches
            breaks.append(f"trick {no}: the referee judged a follow illegal: {list(legal)}")

    # -- end ----------------------------------------------------------------------------------

    def bonus(self) -> list[int]:
        """Count each seat's 算奖 (bidding rulesets) from the hands it held."""
        # The banker counts the hand kept after burying (dealt + kitty without trump after a
        # surrender), the others their dealt hands.
        return settlement_bonus(
            self.rs,
            self.level,
            self.res.trump,
            self.res.banker,
            self.dealt,
            self.kitty,
            self.kept,
            self.res.surrendered,
        )

    def finish(self) -> None:
        rs, res = self.rs, self.res
        res.kitty_points = count_points(self.kitty)
        res.trick_points = sum(self.trick_points)
        if res.surrendered:
            pass
        elif res.trick_points + res.kitty_points != rs.total_points:
            res.breaks.append(
                f"points: tricks {res.trick_points} + kitty {res.kitty_points} ≠ {rs.total_points}"
            )
        played = Counter(self.played)
        # Counted copies compared as plain dicts (no count is ever zero): C work, not Python.
        every = Counter(self.played + self.kitty)
        if not res.surrendered and not dict.__eq__(every, Counter(self.deck)):
            res.breaks.append("cards: played + kitty differ from the deck")
        if played and max(played.values()) > rs.decks:
            res.breaks.append("cards: a card was played more often than the decks hold")
        if rs.score_policy == "bid_chips":
            assert res.bid is not None
            chips = settle_chips(rs, res.attackers_points, res.bid, res.surrendered)
            res.result, res.winner, res.rise = chips.result, chips.winner, chips.rise
            res.chips = chips.chips
            if rs.bonus_rules is not None:
                res.bonus = self.bonus()
            res.multiplier = res.multiplier or 0
        else:
            score = score_round(
                rs, res.attackers_points, self.setup.level, self.setup.attacker_level
            )
            res.result, res.winner, res.rise = score.result, score.winner, score.rise
            res.next_level = score.next_level
        if self.record:
            self.log(
                "end",
                attackers_points=res.attackers_points,
                kitty=format_cards(self.kitty),
                kitty_points=res.kitty_points,
                kitty_bonus=res.kitty_bonus,
                multiplier=res.multiplier,
                result=res.result,
                winner=res.winner,
                rise=res.rise,
                next_level=_rank_text(res.next_level),
                chips=res.chips,
                bonus=res.bonus,
                breaks=list(res.breaks),
            )


def settlement_bonus(
    rs: Ruleset,
    level: int | None,
    trump: str | None,
    banker: int,
    dealt: Sequence[Sequence[Card]],
    kitty: Sequence[Card],
    kept: Sequence[Card],
    surrendered: bool,
) -> list[int]:
    """Count every seat's 算奖 at settlement (rulesets with bonus rules)."""
    ctx = context_for(rs, level, None if surrendered else trump)
    out: list[int] = []
    for seat, hand in enumerate(dealt):
        if seat == banker:
            mine = [*hand, *kitty] if surrendered else list(kept)
            out.append(count_bonus(ctx, mine, "banker").bonus)
        else:
            out.append(count_bonus(ctx, list(hand), "defender").bonus)
    return out


def play_round(
    rs: Ruleset,
    seed: int,
    players: Sequence[Player],
    setup: RoundSetup | None = None,
    referee: bool = True,
    events: list[Event] | None = None,
    *,
    record: bool = True,
) -> RoundResult:
    """Play one whole round from a seed with the given players and return its log and figures.

    `events`, when given, is the list the log is written to as the round goes (a caller that
    keeps the round waiting at a player's decision reads it there). With `record=False` the
    round keeps no log at all (its events stay empty): the same play, figures and breaks.
    """
    # Each trick is resolved from its plays; with referee=True (the default) it is resolved a
    # second time with every follower's hand (the follows judged again): both winners must agree.
    setup = setup or round_setup(rs, seed)
    state = _Round(rs, seed, players, setup, referee, record=record)
    if events is not None:
        state.res.events = events
    if record:
        state.log("round", ruleset=rs.name, seed=seed, **setup.as_event())
    try:
        state.deal()
        if not state.res.surrendered:
            ctx = context_for(rs, state.level, state.res.trump)
            state.bury(ctx)
            state.play(ctx)
    except RoundPaused as pause:
        pause.events = state.res.events
        raise
    state.finish()
    return state.res
