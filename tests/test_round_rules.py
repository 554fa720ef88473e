"""Round rules of 二七王 in whole rounds: the 暗牌 shown at a 70 bid (§4.3), 报无主 (§5.4.2) and
no second throw after a failed one (§5.4.5)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from checker.engine.cards import Card, parse_cards
from checker.engine.order import Context
from checker.engine.roundrules import must_announce_no_trump
from checker.engine.ruleset import load_ruleset
from checker.play.players import FOLLOW, LEAD, CardPlayer, PlayerView, RandomPlayer
from checker.play.round import RoundResult, play_round


@dataclass
class Recorder(CardPlayer):
    """A random player that keeps every view it was shown."""

    inner: RandomPlayer
    views: list[PlayerView] = field(default_factory=list)
    name: str = "recorder"

    def cards(self, view: PlayerView) -> list[Card]:
        self.views.append(view)
        return self.inner.cards(view)

    def bid(self, view: PlayerView, low: int, high: int, step: int, must: bool) -> int | None:
        return high if must else None  # the first bidder takes 70, the others pass

    def surrender(self, view: PlayerView) -> bool:
        return False

    def pick_trump(self, view: PlayerView) -> str:
        return "S"


def _players(seed: int, throw_rate: float = 0.15) -> list[Recorder]:
    return [Recorder(RandomPlayer(random.Random(seed * 8 + s), throw_rate)) for s in range(3)]


def _events(res: RoundResult, kind: str) -> list[dict[str, object]]:
    return [e for e in res.events if e["t"] == kind]


def test_70_bid_shows_the_kitty_to_every_player_before_the_banker_takes_it() -> None:
    rs = load_ruleset("erqiwang")
    players = _players(5)
    res = play_round(rs, 5, players)
    assert res.bid == 70
    (shown,) = _events(res, "show_kitty")
    deal = _events(res, "deal")[-1]
    assert shown["cards"] == deal["kitty"]
    kinds = [e["t"] for e in res.events]
    assert kinds.index("show_kitty") < kinds.index("trump") < kinds.index("bury")
    kitty = sorted(parse_cards(str(deal["kitty"])))
    for seat in (1, 2):  # the defenders see the 8 cards at every later decision
        seen = [v for v in players[seat].views if v.phase in (LEAD, FOLLOW)]
        assert seen and all(sorted(v.shown_kitty) == kitty for v in seen)


def test_lower_bids_show_nothing() -> None:
    rs = load_ruleset("erqiwang")

    class Low(Recorder):
        def bid(self, view: PlayerView, low: int, high: int, step: int, must: bool) -> int | None:
            return 50 if must else None

    players = [Low(RandomPlayer(random.Random(s))) for s in range(3)]
    res = play_round(rs, 9, players)
    assert res.bid == 50 and not _events(res, "show_kitty")
    assert all(not v.shown_kitty for p in players for v in p.views)


def test_no_trump_is_announced_once_by_a_seat_without_trumps() -> None:
    rs = load_ruleset("erqiwang")
    announced = 0
    for seed in range(6):
        players = _players(seed)
        res = play_round(rs, seed, players)
        events = _events(res, "no_trump")
        seats = [e["seat"] for e in events]
        assert len(seats) == len(set(seats))
        announced += len(events)
        for e in events:  # later views of every seat list the announcement
            later = [
                v
                for p in players
                for v in p.views
                if v.phase in (LEAD, FOLLOW) and len(v.history) > int(str(e["trick"]))
            ]
            assert all(e["seat"] in v.no_trump for v in later)
    assert announced > 0


def test_no_trump_rule_is_hand_based() -> None:
    rs = load_ruleset("erqiwang")
    ctx = Context(rs, None, "S")
    assert must_announce_no_trump(ctx, parse_cards("♥A ♦K"))
    assert not must_announce_no_trump(ctx, parse_cards("♥A ♦7"))  # every 7 is trump
    assert not must_announce_no_trump(ctx, [])


def test_classic_has_no_no_trump_announcement() -> None:
    rs = load_ruleset("classic")
    res = play_round(rs, 3, [RandomPlayer(random.Random(s)) for s in range(4)])
    assert not _events(res, "no_trump")


def _throws_after_failure(res: RoundResult) -> int:
    failed: set[object] = set()
    again = 0
    for e in _events(res, "play"):
        if e["role"] != "lead":
            continue
        if e.get("throw") and e["seat"] in failed:
            again += 1
        if e.get("throw") == "failed":
            failed.add(e["seat"])
    return again


def test_failed_throw_bars_throwing_for_the_rest_of_the_round() -> None:
    rs = load_ruleset("erqiwang")
    failed = 0
    for seed in range(8):
        res = play_round(rs, seed, _players(seed, throw_rate=1.0))
        failed += res.throws_failed
        assert res.illegal == 0
        assert _throws_after_failure(res) == 0
    assert failed > 0


def test_rethrow_allowed_option_reads_it_as_one_trick() -> None:
    rs = load_ruleset("erqiwang").with_options({"rethrow": "allowed"})
    again = sum(
        _throws_after_failure(play_round(rs, seed, _players(seed, throw_rate=1.0)))
        for seed in range(8)
    )
    assert again > 0
