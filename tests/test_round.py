"""Whole simulated rounds: the invariants of issue 5 over every ruleset, determinism, replay."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from checker.engine.cards import Card, count_points, parse_cards
from checker.engine.declare import flip_trump
from checker.engine.errors import EngineError
from checker.engine.order import context_for
from checker.engine.ruleset import load_ruleset, ruleset_names
from checker.play.bots.registry import make_players
from checker.play.moves import Move
from checker.play.players import (
    BID,
    BURY,
    DECLARE,
    FOLLOW,
    LEAD,
    PICK_TRUMP,
    PlayerView,
    RandomPlayer,
    seen_declaration_options,
)
from checker.play.records import TrickWon
from checker.play.replay import replay
from checker.play.round import (
    MAX_REDEALS,
    RoundResult,
    RoundSetup,
    build_deck,
    play_round,
    round_setup,
)
from checker.play.simulation import header, round_seeds, run_job, simulate
from checker.play.state import RoundState

RULESETS = ruleset_names()
ROUNDS = 20


def _log(name: str, kind: str, rounds: int, seed: int, jobs: int = 1) -> list[str]:
    lines = [header(name, kind, rounds, seed, "test")]
    simulate(name, kind, rounds, seed, jobs, lambda i, ls: lines.extend(ls))
    return lines


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_rounds_keep_every_invariant(name: str, kind: str) -> None:
    rs = load_ruleset(name)
    deck = Counter(build_deck(rs))
    for seed in round_seeds(11, ROUNDS):
        res = play_round(rs, seed, make_players(kind, seed, rs.players))
        assert res.breaks == [], (seed, res.breaks)
        assert res.illegal == 0, seed
        if res.surrendered:
            continue
        tricks = [e for e in res.events if e["t"] == "trick"]
        plays = [e for e in res.events if e["t"] == "play"]
        assert len(tricks) == res.tricks > 0
        # one winner per trick, and it is one of the seats that played in it
        for t in tricks:
            seats = [p["seat"] for p in plays if p["trick"] == t["trick"]]
            assert sorted(seats) == list(range(rs.players))
            assert t["winner"] in seats
        # every card exactly once: the plays plus the buried kitty are the deck
        played: Counter[Card] = Counter()
        for p in plays:
            played.update(parse_cards(p["cards"]))
        end = res.events[-1]
        kitty = parse_cards(end["kitty"])
        assert played + Counter(kitty) == deck
        # the points in all tricks plus the kitty are the deck's total
        assert sum(t["points"] for t in tricks) + count_points(kitty) == rs.total_points


def test_deck_sizes_and_points() -> None:
    classic, erqiwang = load_ruleset("classic"), load_ruleset("erqiwang")
    assert len(build_deck(classic)) == 108 and classic.total_points == 200
    # 二七王: 2 decks without 3s and 4s: 11 ranks × 4 suits × 2 + 4 jokers = 92 cards,
    # still eight 5s, eight 10s and eight Ks: 200 points.
    deck = build_deck(erqiwang)
    assert len(deck) == 92 and count_points(deck) == erqiwang.total_points == 200
    assert not any(c.rank in (3, 4) for c in deck)


@pytest.mark.parametrize("name", RULESETS)
def test_deal_comes_from_random_of_the_seed(name: str) -> None:
    rs = load_ruleset(name)
    res = play_round(rs, 1234, make_players("random", 1234, rs.players))
    deal = next(e for e in res.events if e["t"] == "deal")
    deck = build_deck(rs)
    random.Random(1234).shuffle(deck)
    dealt = len(deck) - rs.kitty_size
    for seat, text in enumerate(deal["hands"]):
        mine = [deck[i] for i in range(dealt) if (deal["first"] + i) % rs.players == seat]
        assert parse_cards(text) == mine
        assert len(mine) == rs.hand_size
    assert parse_cards(deal["kitty"]) == deck[dealt:]


@pytest.mark.parametrize("name", RULESETS)
def test_same_seed_same_log(name: str) -> None:
    first = run_job((name, "random", 0, 99))
    again = run_job((name, "random", 0, 99))
    assert first == again
    assert run_job((name, "random", 0, 100))[1] != first[1]


def test_a_run_without_a_log_plays_the_same_rounds() -> None:
    figures, lines = run_job(("classic", "random", 3, 77))
    assert lines
    assert run_job(("classic", "random", 3, 77), log=False) == (figures, [])
    seen: list[list[str]] = []
    quiet = simulate("classic", "random", 6, 4, on_round=lambda i, ls: seen.append(ls), log=False)
    assert seen == [[]] * 6
    assert quiet.as_dict() | _TIMES == simulate("classic", "random", 6, 4).as_dict() | _TIMES


_TIMES = {"elapsed_s": 0, "rounds_per_s": 0, "cpu_s": 0, "rounds_per_cpu_s": 0}


@pytest.mark.parametrize("kind", ["random", "v2"])
def test_a_round_leaves_no_hand_kept_once_its_tricks_are_over(kind: str) -> None:
    rs = load_ruleset("classic")
    setup = round_setup(rs, 21)
    res = play_round(rs, 21, make_players(kind, 21, rs.players), setup)
    assert not res.surrendered
    # The deal's context (shared by every round of that level and trump): the follows were
    # judged and kept during each trick, and let go once it was over.
    assert context_for(rs, setup.level, res.trump).hands == {}


def _unrecorded(res: RoundResult) -> dict[str, object]:
    return {**vars(res), "events": []}


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("kind", ["random", "v2"])
def test_a_round_kept_without_its_log_plays_the_same(name: str, kind: str) -> None:
    rs = load_ruleset(name)
    for seed in (4, 12):
        kept = play_round(rs, seed, make_players(kind, seed, rs.players))
        bare = play_round(rs, seed, make_players(kind, seed, rs.players), record=False)
        assert kept.events and bare.events == []
        assert _unrecorded(bare) == _unrecorded(kept)


@pytest.mark.parametrize("name", ["classic", "shuangsheng"])
def test_a_round_kept_without_its_log_counts_illegal_choices_the_same(name: str) -> None:
    rs = load_ruleset(name)  # shuangsheng: failed throws cost a penalty
    seen = Counter[str]()
    for seed in range(21, 31):
        rounds = [
            play_round(
                rs,
                seed,
                [RandomPlayer(random.Random(1)), Sloppy(random.Random(2))] * 2,
                RoundSetup(2, 2, 0),
                record=record,
            )
            for record in (True, False)
        ]
        assert _unrecorded(rounds[1]) == _unrecorded(rounds[0])
        seen.update(illegal=rounds[0].illegal, failed=rounds[0].throws_failed)
        seen.update(penalty=rounds[0].penalty, ok=rounds[0].throws_tried - rounds[0].throws_failed)
    wanted = ("illegal", "failed", "ok") + (("penalty",) if rs.throw.penalty else ())
    assert min(seen[k] for k in wanted) > 0, seen


def test_parallel_run_writes_the_same_log() -> None:
    assert _log("classic", "random", 12, 5, jobs=2) == _log("classic", "random", 12, 5, jobs=1)


@pytest.mark.parametrize("name", RULESETS)
def test_replay_of_a_log_finds_no_difference(name: str) -> None:
    lines = _log(name, "random", 10, 3)
    report = replay(lines)
    assert report.rounds == 10 and report.diffs == []
    assert replay(lines, resimulate=True).diffs == []


def test_replay_reports_a_changed_trick_winner() -> None:
    lines = _log("classic", "random", 3, 8)
    for i, line in enumerate(lines):
        event = json.loads(line)
        if event["t"] == "trick" and event["r"] == 1 and event["trick"] == 4:
            event["winner"] = (event["winner"] + 1) % 4
            lines[i] = json.dumps(event, ensure_ascii=False)
            break
    report = replay(lines)
    assert any(d.round == 1 and d.what == "winner" for d in report.diffs)
    assert {d.round for d in report.diffs} == {1}
    again = replay(lines, resimulate=True)
    assert [d.round for d in again.diffs] == [1]


def test_replay_reports_a_changed_deal() -> None:
    lines = _log("shuangsheng", "random", 2, 8)
    lines = [
        line.replace('"seed":', '"seed":1', 1) if '"t":"round"' in line else line for line in lines
    ]
    report = replay(lines)
    assert any(d.where.startswith("deal") for d in report.diffs)


class Mute(RandomPlayer):
    """Never declares; otherwise random."""

    def cards(self, view: PlayerView) -> list[Card]:
        if view.phase == DECLARE:
            return []
        return super().cards(view)


def test_nobody_declares_flips_the_kitty() -> None:
    rs = load_ruleset("shuangsheng")
    players = [Mute(random.Random(i)) for i in range(4)]
    res = play_round(rs, 77, players)
    assert res.trump_by == "flip" and res.breaks == [] and res.illegal == 0
    deal = next(e for e in res.events if e["t"] == "deal")
    assert res.trump == flip_trump(rs, res.setup.level, parse_cards(deal["kitty"])).trump


def test_nobody_declares_in_classic_redeals() -> None:
    rs = load_ruleset("classic")
    with pytest.raises(EngineError):
        play_round(rs, 5, [Mute(random.Random(i)) for i in range(4)])
    assert MAX_REDEALS >= 10


class Sloppy(RandomPlayer):
    """Makes illegal choices: declares a non-level card, buries too few, plays its first cards."""

    def cards(self, view: PlayerView) -> list[Card]:
        if view.phase == DECLARE:
            return [c for c in view.hand if not c.is_joker and c.rank != view.level][:1]
        if view.phase == BURY:
            return list(view.hand[:1])
        if view.phase == LEAD:
            return list(view.hand[:3])
        assert view.phase == FOLLOW and view.lead is not None
        return list(view.hand[: len(view.lead.cards)])


def test_illegal_choices_are_counted_and_replaced() -> None:
    rs = load_ruleset("classic")
    players = [RandomPlayer(random.Random(1)), Sloppy(random.Random(2))] * 2
    res = play_round(rs, 21, players, RoundSetup(2, 2, 0))
    assert res.illegal > 0
    assert res.breaks == []
    assert any(e["t"] == "play" and e.get("legal") is False for e in res.events)


class Spy(RandomPlayer):
    """Records every view it is shown."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.views: list[PlayerView] = []

    def cards(self, view: PlayerView) -> list[Card]:
        self.views.append(view)
        return super().cards(view)


@pytest.mark.parametrize("name", RULESETS)
def test_players_see_only_their_own_cards(name: str) -> None:
    rs = load_ruleset(name)
    spies = [Spy(random.Random(s)) for s in range(rs.players)]
    res = play_round(rs, 4242, spies)
    deal = next(e for e in res.events if e["t"] == "deal")
    for seat, spy in enumerate(spies):
        own = Counter(parse_cards(deal["hands"][seat]))
        if seat == res.banker:
            own += Counter(parse_cards(deal["kitty"]))
        for view in spy.views:
            assert view.seat == seat
            assert not Counter(view.hand) - own
            if view.phase in (BURY, PICK_TRUMP):
                assert seat == res.banker
            if view.kitty:
                assert seat == res.banker
            assert view.phase in (DECLARE, BURY, LEAD, FOLLOW, BID, PICK_TRUMP)


class Quitter(RandomPlayer):
    """Bids the maximum and surrenders at once."""

    def bid(self, view: PlayerView, low: int, high: int, step: int, must: bool) -> int | None:
        return high if must else None

    def surrender(self, view: PlayerView) -> bool:
        return True


def test_surrender_at_the_surrender_bid_ends_the_round() -> None:
    rs = load_ruleset("erqiwang")
    res = play_round(rs, 3, [Quitter(random.Random(i)) for i in range(3)])
    assert res.surrendered and res.tricks == 0 and res.result == "surrender"
    assert res.winner == "attackers" and res.breaks == []


def test_first_round_declarer_becomes_banker() -> None:
    rs = load_ruleset("classic")
    res = play_round(rs, 8, make_players("random", 8, 4), RoundSetup(2, 2, None))
    assert res.declarer is not None and res.banker == res.declarer


def test_replay_survives_a_log_the_engine_cannot_follow() -> None:
    lines = _log("classic", "random", 2, 13)
    for i, line in enumerate(lines):
        event = json.loads(line)
        if event["t"] == "play" and event["r"] == 0 and event["role"] == "lead":
            event["cards"] = "♠A ♥A 大王"
            event.pop("tried", None)
            lines[i] = json.dumps(event, ensure_ascii=False)
            break
    report = replay(lines)
    assert report.rounds == 2
    assert report.diffs and {d.round for d in report.diffs} == {0}
    first = report.diffs[0]  # the refused lead was replaced: the round is compared no further
    assert first.where.startswith("trick 0 seat") and first.what in ("cards", "legal")
    assert first.logged == "♠A ♥A 大王" or first.logged is True


@pytest.mark.parametrize("seed", [5, 6, 7])
@pytest.mark.parametrize("swap", [False, True])
def test_the_end_check_finds_a_card_the_deck_does_not_hold(swap: bool, seed: int) -> None:
    rs = load_ruleset("classic")
    players = make_players("random", seed, 4)
    state = RoundState(rs, seed, round_setup(rs, seed), referee=True)
    while sum(map(len, state.hands)) > 1:  # up to the round's last card
        assert state.turn is not None
        seat = state.turn.seat
        state.apply(players[seat].choose(state.view(seat)), replace_illegal=True)
    if swap:  # a ♠4 played as a ♠3: the counts no longer match the deck's
        fours = [i for i, c in enumerate(state.played) if c == Card("S", 4)]
        state.played[fours[0]] = Card("S", 3)
    assert state.turn is not None
    state.apply(Move("cards", tuple(state.hands[state.turn.seat])))
    assert state.is_over
    broken = [b for b in state.res.breaks if b.startswith("cards:")]
    assert ("cards: played + kitty differ from the deck" in broken) is swap
    assert broken or not swap
    # The swapped-in ♠3 is played more often than the decks hold when no ♠3 was in the kitty.
    too_many = Counter(state.played)[Card("S", 3)] > rs.decks
    assert ("cards: a card was played more often than the decks hold" in broken) is too_many


class AlwaysAsked(Spy):
    """A random player the round must ask after every card (it does not pass unasked)."""

    passes_without_options = False


@pytest.mark.parametrize("name", RULESETS)
def test_a_seat_that_passes_without_options_is_asked_only_when_it_has_one(name: str) -> None:
    rs = load_ruleset(name)
    quiet = [Spy(random.Random(s)) for s in range(rs.players)]
    asked = [AlwaysAsked(random.Random(s)) for s in range(rs.players)]
    # The same round either way: the asks left out are passes that draw nothing.
    assert play_round(rs, 99, quiet).events == play_round(rs, 99, asked).events
    for spy, every in zip(quiet, asked, strict=True):
        declares = [v for v in spy.views if v.phase == DECLARE]
        assert all(seen_declaration_options(v) for v in declares)
        with_options = [
            v for v in every.views if v.phase == DECLARE and seen_declaration_options(v)
        ]
        assert [v.hand for v in declares] == [v.hand for v in with_options]
        if rs.bidding is None:  # classic deals ask after every card: most asks hold no option
            assert len(declares) < len([v for v in every.views if v.phase == DECLARE])


@pytest.mark.parametrize(
    ("winner", "beats", "legal", "broken"),
    [
        (2, (True, False, True, False), (None, True, True, True), []),
        (0, (True, False, False, False), (None, None, None, None), []),
        (1, (True, False, True, False), (None, True, True, True), ["winner"]),  # beaten later
        (1, (True, False, False, False), (None, True, True, True), ["winner"]),  # never beat
        (4, (True, False, False, False), (None, True, True, True), ["winner"]),  # no such play
        (2, (True, False, True, True), (None, True, True, True), ["winner"]),
        (0, (True, False, False, False), (None, True, False, True), ["illegal"]),
    ],
)
def test_the_referee_notes_a_trick_whose_figures_disagree(
    winner: int, beats: tuple[bool, ...], legal: tuple[bool | None, ...], broken: list[str]
) -> None:
    rs = load_ruleset("classic")
    state = RoundState(rs, 5, round_setup(rs, 5), referee=True)
    state._check_trick(3, winner, beats, legal)
    words = {"winner": "does not match beats", "illegal": "judged a follow illegal"}
    kinds = [[k for k, w in words.items() if w in b] for b in state.res.breaks]
    assert kinds == [[k] for k in broken]
    assert all(b.startswith("trick 3: ") for b in state.res.breaks)


@pytest.mark.parametrize("seed", [5, 6, 7, 8])
def test_the_referee_catches_a_follow_the_hand_did_not_hold(seed: int) -> None:
    rs = load_ruleset("classic")
    players = make_players("random", seed, 4)
    state = RoundState(rs, seed, round_setup(rs, seed), referee=True)
    # Up to the first trick's last follow: the second seat's cards are taken out of the hand it
    # held as the trick started, so the referee finds a follow that hand could not make.
    while state.turn is None or state.turn.phase != FOLLOW or state._follower != 3:
        assert state.turn is not None
        seat = state.turn.seat
        state.apply(players[seat].choose(state.view(seat)), replace_illegal=True)
    played = state._plays[1]
    state._before[1] = tuple(c for c in state._before[1] if c not in played)
    seat, order = state.turn.seat, state._order
    state.apply(players[seat].choose(state.view(seat)), replace_illegal=True)
    won = next(r for r in state.log if isinstance(r, TrickWon))
    breaks = state.res.breaks
    assert [b for b in breaks if "judged a follow illegal" in b] == [
        "trick 0: the referee judged a follow illegal: [True, False, True, True]"
    ]
    # Without hands that follow may have won the trick; with hands it cannot.
    other = [b for b in breaks if "without hands" in b]
    assert bool(other) == (won.winner == order[1])
