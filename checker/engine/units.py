"""Units of any width: the copies of each card by ladder position, runs of w-wide columns,
and the names of n-of-a-kind and tractors (对子、三条、拖拉机、推土机、火车)."""

from __future__ import annotations

from collections import Counter

from .cards import Card
from .order import Context
from .ruleset import TractorNames
from .texts import ZH, Lang, pick

SINGLE = "single"
PAIR = "pair"
TUPLE = "tuple"
TRACTOR = "tractor"

_DIGITS_ZH = "零一二三四五六七八九十"
_OF_A_KIND_EN = {3: "triple", 4: "four of a kind", 5: "five of a kind", 6: "six of a kind"}


def unit_kind(width: int, length: int) -> str:
    """Name the kind of a unit of `width` copies over `length` ranks."""
    if length >= 2:
        return TRACTOR
    return {1: SINGLE, 2: PAIR}.get(width, TUPLE)


def tuple_name(width: int, lang: Lang = ZH) -> str:
    """Name n identical cards, e.g. 对子, 三条, 四条 or pair, triple, four of a kind."""
    if width == 1:
        return pick(lang, "单张", "single")
    if width == 2:
        return pick(lang, "对子", "pair")
    zh = _DIGITS_ZH[width] if width <= 10 else str(width)
    return pick(lang, f"{zh}条", _OF_A_KIND_EN.get(width, f"{width} of a kind"))


def shape_name(width: int, length: int, names: TractorNames, lang: Lang = ZH) -> str:
    """Name a unit by width and length: 拖拉机 / 推土机 / 火车 for tractors under by_shape names."""
    if length < 2:
        return tuple_name(width, lang)
    if names == TractorNames.PLAIN or width == 2 and length == 2:
        return pick(lang, "拖拉机", "tractor")
    if length == 2:
        return pick(lang, "推土机", "bulldozer")
    return pick(lang, "火车", "train")


def unit_words(width: int, length: int, lang: Lang = ZH) -> str:
    """Describe a unit's shape exactly, e.g. 2连对拖拉机, 3连三条拖拉机, 四条 or a 2-pair tractor."""
    if length < 2:
        return tuple_name(width, lang)
    if width == 2:
        return pick(lang, f"{length}连对拖拉机", f"{length}-pair tractor")
    each = tuple_name(width, lang)
    return pick(lang, f"{length}连{each}拖拉机", f"{length}-{each} tractor")


class Stock:
    """The cards of one group by tractor position (`Context.link`, the ladder position unless
    the ruleset reads trump tractors otherwise): each distinct card there and its copies."""

    __slots__ = ("at",)

    def __init__(self, ctx: Context, counts: Counter[Card]) -> None:
        self.at: dict[int, dict[Card, int]] = {}
        link = ctx.link
        for card, n in counts.items():
            if n > 0:
                self.at.setdefault(link[card], {})[card] = n

    def width_at(self, pos: int) -> int:
        """Return the most copies of one card at a position (0 when empty)."""
        cards = self.at.get(pos)
        return max(cards.values()) if cards else 0

    def max_width(self) -> int:
        """Return the most copies of any one card."""
        return max((max(c.values()) for c in self.at.values()), default=0)

    def runs(self, width: int) -> list[tuple[int, int]]:
        """List maximal runs of consecutive positions holding `width` copies of a card."""
        out: list[tuple[int, int]] = []
        for p in sorted(p for p, cs in self.at.items() if max(cs.values()) >= width):
            if out and p == out[-1][1] + 1:
                out[-1] = (out[-1][0], p)
            else:
                out.append((p, p))
        return out

    def longest_run(self, width: int, cap: int = 0) -> tuple[int, int] | None:
        """Return the longest run of `width`-wide columns (at most `cap` long; ties: highest)."""
        best: tuple[int, int] | None = None
        for low, high in self.runs(width):
            if cap and high - low + 1 > cap:
                low = high - cap + 1
            if best is None or (high - low, high) > (best[1] - best[0], best[1]):
                best = (low, high)
        return best

    def highest_run(self, width: int, length: int) -> tuple[int, int] | None:
        """Return the highest `length`-long stretch of `width`-wide columns, or None."""
        best: tuple[int, int] | None = None
        for low, high in self.runs(width):
            if high - low + 1 >= length and (best is None or high > best[1]):
                best = (high - length + 1, high)
        return best

    def take(self, low: int, high: int, width: int) -> list[Card]:
        """Remove `width` copies of one card at each position low..high; return them, top first."""
        cards: list[Card] = []
        for p in range(high, low - 1, -1):
            column = self.at[p]
            card = max(c for c, n in column.items() if n >= width)
            column[card] -= width
            if not column[card]:
                del column[card]
                if not column:
                    del self.at[p]
            cards += [card] * width
        return cards

    def elements(self) -> list[Card]:
        """List the cards left, as a multiset."""
        return [c for cs in self.at.values() for c, n in cs.items() for _ in range(n)]
