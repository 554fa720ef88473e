"""Bot v3: determinized search (perfect-information Monte Carlo) over v2's play.

At each lead and follow it draws deals the seat could be facing from its own view only
(`sampling`), plays each sensible candidate (`candidates`) on every deal to the end of the round
with v2 at every seat, and keeps the play with the best mean value for its side: the attackers'
final points (kitty bonus and its multiplier included) for or against it, and the round's outcome
(the round won or lost counts as ROUND_WORTH points, each level as LEVEL_WORTH more). Declaring,
bidding and naming trump are v2's; so is burying, except that v3 makes no void whose points would
cost more under the kitty than RISK_LIMIT (`bury.plan_bury`'s weighed risk).

The opponents. An opponent seen throwing a card away (`opponents`: at the last seat of a trick
the other side had won, a card dearer than one it showed later) is played out as v2 that makes
any legal play instead SLIPS of the time; every other seat is v2. Taking opponents to defend as
v2 does, v3 chose plays that pay only against such a defence: of the 47 banker rounds named
below it wins 30 with this (21 without), 59 of the 60 won rounds still won. v2 is never seen
careless, so v3 against v2 and every bot case play as before.

Why the round counts on its own (issue 28). Scored by points and levels only, holding the
attackers to 75 was worth just 25 more than letting them reach 80, no more than 35 against 40:
the search traded the round for a few expected points. Losing the round hands the bank to the
other side, counted as a level and a half (30, not 40: at 40 the kitty-saving ♥K of bot case
bot-v3-kitty-419-17 no longer stands out of the noise of its 12 deals). The risky
kitty: 19 of the 47 banker rounds v3 lost to random players at budget 100 (seed 1, deals
0–758) had points under the kitty; v2, v3's playout policy and so the cheapest proxy, lost 64
of 947 banker rounds to random players over 1,000 deals burying as seed 000 says, 47 weighing
the risk. Both together: of those 47 lost rounds v3 now wins 21 (7 without them), and 59 of
60 rounds it won still won.

The budget. A budget of MS milliseconds is turned into a number of simulated plays
(PLAYS_PER_MS a millisecond, measured on the reference machine), hence into a number of deals
for the decision at hand (more when fewer cards are left): no clock is read, so a choice and its
explanation depend only on the view and the bot's seed, and the time a decision takes is about MS
on the reference machine (`checker/perf/searchbench.py` measures it). The deals are drawn from a
generator seeded by the bot's seed and the view, so the same view gets the same answer however
the round got there.
"""

from __future__ import annotations

import os
import random
import zlib
from collections import Counter
from collections.abc import Sequence

from checker.engine.cards import Card
from checker.engine.errors import EngineError
from checker.engine.texts import Lang, cards_text, pick

from ..moves import Move
from ..players import BURY, FOLLOW, LEAD, CardPlayer, Decision, PlayerView, RandomPlayer
from ..position import attackers_points, round_at
from ..round import RoundResult, drive
from ..state import RoundState
from .bury import decide_bury
from .candidates import candidate_plays
from .opponents import careless_opponents
from .sampling import draw_deals
from .v2 import V2Bot

DEFAULT_BUDGET_MS = 400.0
PLAYS_PER_MS = 4.0
MIN_DEALS = 4
MAX_DEALS = 64
LEVEL_WORTH = 20
ROUND_WORTH = 30
# An opponent seen throwing a card away (`opponents`) is played out as v2 making any
# legal play instead at this rate.
SLIPS = 0.3
# v2's own play stands unless another beats it on the same deals by this many standard errors.
SURE = 1.0
BUDGET_ENV = "CHECKER_SEARCH_BUDGET_MS"


class BudgetError(EngineError):
    """A search budget that is not a positive number; the message quotes it."""

    def __init__(self, value: object) -> None:
        super().__init__(
            f"搜索预算“{value}”不是正数（毫秒）",
            en=f"search budget '{value}' is not a positive number of milliseconds",
            field="budget",
            value=str(value),
        )


def read_budget(value: object) -> float:
    """Return a budget in ms read from text or a number, or raise BudgetError."""
    try:
        ms = float(str(value).strip())
    except ValueError:
        raise BudgetError(value) from None
    if not ms > 0 or ms == float("inf"):
        raise BudgetError(value)
    return ms


def set_budget(ms: float) -> None:
    """Set the budget of every v3 bot made from now on, in this process and its workers."""
    os.environ[BUDGET_ENV] = repr(read_budget(ms))


def current_budget() -> float:
    """Return the budget new v3 bots get: the one set, else DEFAULT_BUDGET_MS."""
    text = os.environ.get(BUDGET_ENV)
    return read_budget(text) if text else DEFAULT_BUDGET_MS


def plan(budget_ms: float, candidates: int, cards_left: int, players: int) -> tuple[int, int]:
    """Turn a budget into (candidates, deals) to try: the plays it buys over plays per deal.

    Fewer candidates (the first ones, v2's own choice first) are tried rather than fewer than
    MIN_DEALS deals; never fewer than two.
    """
    plays = int(budget_ms * PLAYS_PER_MS)
    per_play = max(1, cards_left * players)  # plays to the end of the round on one deal
    tried = max(2, min(candidates, plays // (per_play * MIN_DEALS)))
    deals = max(MIN_DEALS, min(MAX_DEALS, plays // (per_play * tried)))
    return tried, deals


def _view_seed(salt: int, view: PlayerView) -> int:
    """Derive the decision's generator seed from the bot's seed and what the view shows."""
    text = repr((salt, view.seat, view.phase, sorted(view.hand), view.history, view.trick))
    return zlib.crc32(text.encode())


class V3Bot(CardPlayer):
    """The searching bot: v2's judgement checked by playing its candidates out on sampled deals."""

    name = "v3"
    passes_without_options = True

    def __init__(self, rng: random.Random, budget_ms: float | None = None) -> None:
        self.v2 = V2Bot(rng)
        self.salt = rng.getrandbits(32)
        self.budget_ms = read_budget(budget_ms) if budget_ms is not None else current_budget()
        self.buried: tuple[Card, ...] = ()  # the kitty this seat buried last, as it knows it

    def _remembered(self, view: PlayerView) -> PlayerView:
        """Keep in mind the kitty this seat buried (a follow view does not show it again) and
        add it to a banker's follow view, when it still fits the cards seen."""
        if view.phase == LEAD and view.kitty:
            self.buried = tuple(view.kitty)
        if view.phase != FOLLOW or view.kitty or view.seat != view.banker or not self.buried:
            return view
        seen = Counter(view.hand) + Counter(self.buried)
        for trick in (*view.history, view.trick):
            for _, cards in trick:
                seen.update(cards)
        if max(seen.values()) > view.ruleset.decks:
            return view  # another round's kitty
        return view._replace(kitty=self.buried)

    def decide(self, view: PlayerView) -> Decision:
        """Return the decision for the view's phase: searched for a lead or follow."""
        if view.phase in (LEAD, FOLLOW) and view.ctx is not None:
            # The hand in the table's order: the same cards, however dealt, get the same answer.
            view = self._remembered(view._replace(hand=tuple(view.ctx.sort_cards(view.hand))))
        if view.phase == BURY and view.ctx is not None:
            bury = decide_bury(self.name, view, weigh_risk=True)
            self.buried = bury.cards
            return _following(
                bury,
                "bury",
                "按 v2 的规则扣底，但不为扣光一门冒丢底的险：",
                "buries by v2's rules, but empties no suit at the risk of losing the kitty: ",
            )
        base = self.v2.decide(view)
        if view.phase == BURY:
            self.buried = base.cards
        if view.phase not in (LEAD, FOLLOW):
            return _following(base, "v2", "按 v2 的规则：", "by v2's rules: ")
        if view.banker is None or view.ctx is None:
            return _following(
                base,
                "v2",
                "不知道谁坐庄，无从推演，按 v2：",
                "no banker known, nothing to search, v2's: ",
            )
        rng = random.Random(_view_seed(self.salt, view))
        plays = candidate_plays(view, base.cards, rng)
        if len(plays) < 2:
            return _following(
                base, "single", "只有一种合理出法，按 v2：", "has one sensible play, v2's: "
            )
        tried, count = plan(self.budget_ms, len(plays), len(view.hand), view.ruleset.players)
        plays = plays[:tried]
        deals = draw_deals(view, count, rng)
        if not deals:
            return _following(
                base,
                "v2",
                "手外的牌与所见对不上，无从推演，按 v2：",
                "no deal fits what it saw, v2's: ",
            )
        values: list[list[float]] = [[] for _ in plays]
        points = attackers_points(view)
        careless = careless_opponents(view)
        for deal in deals:
            root = round_at(view, deal.hands, deal.kitty, points)
            seed = rng.getrandbits(32)
            for i, play in enumerate(plays):
                values[i].append(self._play_out(root.copy(), play, view, seed, careless))
        return _searched(plays, values, careless)

    def _play_out(
        self,
        state: RoundState,
        play: Sequence[Card],
        view: PlayerView,
        seed: int,
        careless: frozenset[int] = frozenset(),
    ) -> float:
        """Make the play on one deal, let v2 play every seat to the end (slipping at the careless
        opponents' seats); value it for the side."""
        state.apply(Move("cards", tuple(play)))
        players = [
            _Slipping(random.Random(seed + s), SLIPS)
            if s in careless and SLIPS
            else V2Bot(random.Random(seed + s))
            for s in range(view.ruleset.players)
        ]
        res = drive(state, players)
        rs, banker = view.ruleset, view.banker
        assert banker is not None
        return side_value(rs.settles_by_bid, rs.is_banker_side(view.seat, banker), res)

    def cards(self, view: PlayerView) -> list[Card]:
        """Return the cards of decide(view)."""
        return list(self.decide(view).cards)

    def bid(self, view: PlayerView, low: int, high: int, step: int, must: bool) -> int | None:
        """Bid as v2 does."""
        return self.v2.bid(view, low, high, step, must)

    def surrender(self, view: PlayerView) -> bool:
        """Surrender as v2 does."""
        return self.v2.surrender(view)

    def pick_trump(self, view: PlayerView) -> str:
        """Name trump as v2 does."""
        return self.v2.pick_trump(view)


def side_value(by_bid: bool, on_banker: bool, res: RoundResult) -> float:
    """Value a finished round for one side: the attackers' points for or against it, and unless
    the round settles by a bid (not in the view) the outcome: ROUND_WORTH for winning the round
    and LEVEL_WORTH a level risen, both counted against the side when the other side wins."""
    points = -res.attackers_points if on_banker else res.attackers_points
    if by_bid:
        return float(points)
    sign = 1 if (res.winner == "banker") == on_banker else -1
    return float(points + sign * (ROUND_WORTH + LEVEL_WORTH * res.rise))


class _Slipping(V2Bot):
    """v2 that now and then makes any legal play instead: a careless opponent, played out."""

    def __init__(self, rng: random.Random, rate: float) -> None:
        super().__init__(rng)
        self.rate = rate
        self.slips = random.Random(rng.getrandbits(32))

    def cards(self, view: PlayerView) -> list[Card]:
        """Return v2's cards, or at the rate those of any legal play."""
        if view.phase in (LEAD, FOLLOW) and self.slips.random() < self.rate:
            return RandomPlayer(self.slips).cards(view)
        return super().cards(view)


def _following(base: Decision, rule: str, zh: str, en: str) -> Decision:
    """Wrap v2's decision where v3 does not search, saying why (zh, en) before v2's words."""

    def say(lang: Lang) -> str:
        return "v3 " + pick(lang, zh, en) + base.explanation_for(lang)

    return Decision(base.cards, f"v3.{rule}", say)


def better_than_first(values: Sequence[float], first: Sequence[float]) -> bool:
    """Tell whether a play beat the first (v2's) on the same deals by more than the noise: its
    mean gain is positive and at least one standard error (paired over the deals)."""
    diffs = [a - b for a, b in zip(values, first, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    if n < 2:
        return True
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    # One deal alone differing puts the mean exactly one standard error up: the rounding of the
    # sums must not decide it.
    return mean * mean * n >= var * SURE**2 * (1 - 1e-9)


def _searched(
    plays: Sequence[Sequence[Card]],
    values: Sequence[Sequence[float]],
    careless: frozenset[int] = frozenset(),
) -> Decision:
    """Pick the best play by mean value (v2's first play unless another is surely better) and
    explain it: its gain over the worst play tried, the next best's, v2's when it differs, and
    the careless opponents played out as such."""
    deals = len(values[0])
    means = [sum(v) / deals for v in values]
    order = sorted(range(len(plays)), key=lambda i: (-round(means[i], 6), i))
    best = order[0]
    if best != 0 and not better_than_first(values[best], values[0]):
        best = 0
    second = next(i for i in order if i != best)
    worst = min(means)
    gain, next_gain = means[best] - worst, means[second] - worst
    v2_gain = means[0] - worst

    def say(lang: Lang) -> str:
        chosen, other = cards_text(plays[best], lang), cards_text(plays[second], lang)
        text = pick(
            lang,
            f"v3 试了 {deals} 种可能的牌局：{chosen} 平均为本方多得 {gain:.0f} 分"
            f"（次选 {other}：+{next_gain:.0f}）",
            f"v3 tried {deals} possible deals: {chosen} gains our side {gain:.0f} points on "
            f"average (next best {other}: +{next_gain:.0f})",
        )
        if best != 0:
            v2 = cards_text(plays[0], lang)
            text += pick(
                lang, f"；v2 会出 {v2}（+{v2_gain:.0f}）", f"; v2 would play {v2} (+{v2_gain:.0f})"
            )
        elif order[0] != 0:
            text += pick(
                lang,
                "；别的出法多得的分不比随机波动大，仍按 v2",
                "; no other play gained more than the noise, so v2's stands",
            )
        if careless:
            seats = "、".join(str(s) for s in sorted(careless))
            seats_en = ", ".join(str(s) for s in sorted(careless))
            text += pick(
                lang,
                f"；座位 {seats} 曾白白浪费牌，推演时按会失误的对手打",
                f"; seat {seats_en} has thrown a card away, so it is played out as an opponent "
                "who slips",
            )
        return text + pick(
            lang,
            f"（与最差的试法相比；输赢一局按 {ROUND_WORTH} 分、升一级按 {LEVEL_WORTH} 分计）",
            f" (against the worst play tried; winning the round counts as {ROUND_WORTH} points, "
            f"a level as {LEVEL_WORTH})",
        )

    return Decision(tuple(plays[best]), "v3.search", say)
