"""Hand strength: how many trumps a hand would hold under each trump choice, the gates that
compare it with the deck (a quarter, a half) and the strength a bid or a bury rests on."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from checker.engine.cards import SUITS, Card
from checker.engine.order import TRUMP, Context
from checker.engine.ruleset import Ruleset

# A pair declaration scores its suit strength plus this; a joker pair (no-trump) scores NT_SCORE.
PAIR_SCORE = 10
NT_SCORE = 100


def trump_ranks(rs: Ruleset, level: int | None) -> set[int]:
    """List the ranks that are trump in every suit: the level and the ruleset's fixed ranks."""
    out: set[int] = set()
    for r in rs.trump_ranks:
        if r == "level":
            if level is not None:
                out.add(level)
        elif isinstance(r, int):
            out.add(r)
    return out


def suit_strength(rs: Ruleset, level: int | None, hand: Iterable[Card], suit: str) -> int:
    """Count the hand's cards that would be trump, jokers aside, with `suit` as trump."""
    fixed = trump_ranks(rs, level)
    return sum(1 for c in hand if not c.is_joker and (c.suit == suit or c.rank in fixed))


def nt_strength(rs: Ruleset, level: int | None, hand: Iterable[Card]) -> int:
    """Count the hand's cards that are trump without a trump suit: jokers and level/fixed ranks."""
    fixed = trump_ranks(rs, level)
    return sum(1 for c in hand if c.is_joker or c.rank in fixed)


def strength_scale(rs: Ruleset, level: int | None) -> int:
    """Count the non-joker trumps of a suit deal in the whole deck (32 in classic)."""
    fixed = trump_ranks(rs, level)
    plain = sum(1 for r in rs.ranks if r not in fixed)
    per_deck = plain + len(SUITS) * sum(1 for r in rs.ranks if r in fixed)
    return per_deck * rs.decks


def below_quarter(rs: Ruleset, level: int | None, strength: int) -> bool:
    """Tell whether a suit strength is under a quarter of the scale (weak)."""
    return 4 * strength < strength_scale(rs, level)


def below_half(rs: Ruleset, level: int | None, strength: int) -> bool:
    """Tell whether a suit strength is under half of the scale."""
    return 2 * strength < strength_scale(rs, level)


def best_suit(rs: Ruleset, level: int | None, hand: Sequence[Card]) -> tuple[str, int]:
    """Return the suit with the most would-be trumps (pairs break ties) and its strength."""
    counts = Counter(hand)

    def rank(s: str) -> tuple[int, int, int]:
        pairs = sum(n // 2 for c, n in counts.items() if c.suit == s)
        return (suit_strength(rs, level, hand, s), pairs, -SUITS.index(s))

    suit = max(SUITS, key=rank)
    return suit, suit_strength(rs, level, hand, suit)


def trump_count(ctx: Context, hand: Iterable[Card]) -> int:
    """Count the trumps in a hand under a deal's card order."""
    return sum(1 for c in hand if ctx.key[c][0] == TRUMP)


def is_strong_hand(ctx: Context, hand: Sequence[Card]) -> bool:
    """Tell whether a hand holds enough trumps to play for voids (at least 40% of a hand)."""
    return 5 * trump_count(ctx, hand) >= 2 * ctx.ruleset.hand_size


def permanent_trumps(rs: Ruleset, hand: Iterable[Card]) -> int:
    """Count the hand's trumps whatever the trump suit: jokers and the fixed trump ranks."""
    return nt_strength(rs, None, hand)


def bid_strength(rs: Ruleset, hand: Sequence[Card]) -> float:
    """Measure a hand for bidding: fixed trumps, jokers, its longest suit and its pairs."""
    fixed = trump_ranks(rs, None)
    counts = Counter(hand)
    permanent = sum(n for c, n in counts.items() if c.is_joker or c.rank in fixed)
    jokers = sum(n for c, n in counts.items() if c.is_joker)
    suit, _ = best_suit(rs, None, hand)
    length = sum(n for c, n in counts.items() if c.suit == suit and c.rank not in fixed)
    pairs = sum(
        n // 2 for c, n in counts.items() if c.is_joker or c.rank in fixed or c.suit == suit
    )
    return permanent + 0.5 * jokers + 0.6 * length + 0.5 * pairs
