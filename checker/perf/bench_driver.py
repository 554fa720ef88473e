"""Run one tree's benchmark in this process and print its figures as JSON (bench --against).

Usage: python bench_driver.py TREE SECONDS SEED
       python bench_driver.py --cases TREE FOLDER   (one run of the case files in FOLDER)
       python bench_driver.py --serve TREE SEED   (timed batches of any workload, from stdin)
       python bench_driver.py --profile TREE WORKLOAD TOP   (cProfile of one workload)

TREE goes first on sys.path, so `checker` is imported from it: the current tree or an older
revision checked out elsewhere. Every figure is taken in CPU time of this process
(`time.perf_counter` is pointed at `time.process_time` before the tree's bench is imported),
so that other work on a shared machine counts less. Revisions whose `run_bench` does not yet
measure whole rounds, single-card tricks or a standing throw get them measured here, with the
same functions the current bench uses (they call only engine functions the baseline has);
their tricks, follows and worst example "with memos cleared" are their ordinary figures (they
have no memos).

`--cases` runs the case files of one folder once with TREE's runner, in a process of its own
so that no memo of the benchmark is warm: `bench --against` gives both sides REV's own case
files, which makes the suite time comparable when the suite has grown since REV.
"""

from __future__ import annotations

import importlib
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any


def round_player(seed: int, rounds: int) -> Callable[..., None]:
    """Return a function playing the next of `rounds` seeded whole random classic rounds
    (checker.play.simulation). With `log=False` it plays as `simulate` does when no log is asked
    for: a tree whose `run_job` cannot leave the log out (the older ones) writes it, as its
    simulate does."""
    import inspect

    from checker.play.simulation import round_seeds, run_job

    can_skip_log = "log" in inspect.signature(run_job).parameters
    seeds = round_seeds(seed, rounds)
    done = 0

    def play(*, log: bool = True) -> None:
        nonlocal done
        quiet = {} if log or not can_skip_log else {"log": False}
        run_job(("classic", "random", done, seeds[done % len(seeds)]), **quiet)
        done += 1

    return play


def round_rate(seconds: float, seed: int, *, log: bool = True) -> float:
    """Play whole random classic rounds for `seconds` (see `round_player`); rounds per second."""
    play = round_player(seed, 10_000)
    done = 0
    start = time.perf_counter()
    while True:
        play(log=log)
        done += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def ordinary_follows(
    ctx: Any, deck: list[Any], rng: random.Random, tricks: list[list[list[Any]]]
) -> list[tuple[Any, list[Any], list[Any]]]:
    """Build two follows to each trick's lead from a fresh 25-card hand: a legal example and
    the hand's first cards (often wrong)."""
    from checker.engine.combos import classify
    from checker.engine.follow import generate_example

    follows = []
    for plays in tricks:
        lead = classify(ctx, plays[0])
        cards = list(deck)
        rng.shuffle(cards)
        hand = [c for c in cards if c not in plays[0]][:25]
        follows.append((lead, hand, generate_example(ctx, lead, hand)))
        follows.append((lead, hand, hand[: len(lead.cards)]))
    return follows


def _full_deck(ctx: Any) -> list[Any]:
    return sorted(ctx.deck) * ctx.ruleset.decks


def _classic_deck() -> tuple[Any, list[Any]]:
    from checker.engine.order import make_context
    from checker.engine.ruleset import load_ruleset

    ctx = make_context(load_ruleset("classic"), 2, "H")
    return ctx, _full_deck(ctx)


def _single_tricks(seed: int) -> Callable[[], int]:
    """A batch of 400 4-play tricks led by one card (random deals, legal follows), resolved;
    returns how many."""
    from checker.engine.combos import classify
    from checker.engine.follow import generate_example
    from checker.engine.trick import resolve_trick

    ctx, deck = _classic_deck()
    rng = random.Random(seed)
    tricks = []
    for _ in range(400):
        rng.shuffle(deck)
        hands = [deck[i * 25 : (i + 1) * 25] for i in range(4)]
        lead_cards = [rng.choice(hands[0])]
        lead = classify(ctx, lead_cards)
        tricks.append([lead_cards] + [generate_example(ctx, lead, h) for h in hands[1:]])

    def batch() -> int:
        for plays in tricks:
            resolve_trick(ctx, plays)
        return len(tricks)

    return batch


def rate(batch: Callable[[], int], seconds: float) -> float:
    """Run a batch (which returns how many items it handled) repeatedly for about `seconds`;
    items per second."""
    done = 0
    start = time.perf_counter()
    while True:
        done += batch()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def ordinary_deals(
    ctx: Any, rng: random.Random, count: int
) -> list[tuple[list[list[Any]], list[list[Any]]]]:
    """Build legal 4-play tricks of every lead shape from random deals: (plays, the four
    25-card hands they were played from)."""
    from checker.engine.combos import classify
    from checker.engine.follow import generate_example

    deals: list[tuple[list[list[Any]], list[list[Any]]]] = []
    while len(deals) < count:
        deck = _full_deck(ctx)
        rng.shuffle(deck)
        hands = [deck[i * 25 : (i + 1) * 25] for i in range(4)]
        combo_cards = _pick_lead(ctx, hands[0], rng)
        lead = classify(ctx, combo_cards)
        if not lead.is_valid:
            continue
        plays = [combo_cards] + [generate_example(ctx, lead, h) for h in hands[1:]]
        deals.append((plays, hands))
    return deals


def ordinary_tricks(ctx: Any, rng: random.Random, count: int) -> list[list[list[Any]]]:
    """Build legal 4-play tricks of every lead shape from random deals (`ordinary_deals`)."""
    return [plays for plays, _ in ordinary_deals(ctx, rng, count)]


def _pick_lead(ctx: Any, hand: list[Any], rng: random.Random) -> list[Any]:
    group = ctx.key[rng.choice(hand)][0]
    mine = sorted((c for c in hand if ctx.key[c][0] == group), key=lambda c: ctx.key[c][1])
    shape = rng.random()
    if shape < 0.4 or len(mine) < 3:
        return [mine[-1]]
    pairs = [c for c in set(mine) if mine.count(c) == 2]
    if shape < 0.7 and pairs:
        card = rng.choice(pairs)
        return [card, card]
    return mine[-min(len(mine), rng.randint(2, 5)) :]


def big_hand_follows(
    ctx: Any, deck: list[Any], rng: random.Random, tricks: list[list[list[Any]]]
) -> list[tuple[Any, list[Any], list[Any]]]:
    """Build two follows to each trick's lead from a fresh 33-card hand (a banker's, kitty
    included), as `ordinary_follows` does from 25 cards."""
    from checker.engine.combos import classify
    from checker.engine.follow import generate_example

    follows = []
    for plays in tricks:
        lead = classify(ctx, plays[0])
        rest = list((Counter(deck) - Counter(plays[0])).elements())
        rng.shuffle(rest)
        hand = rest[:33]
        follows.append((lead, hand, generate_example(ctx, lead, hand)))
        follows.append((lead, hand, hand[: len(lead.cards)]))
    return follows


# Throw sizes of the throw workloads, and of the throws whose follows are judged.
THROW_SIZES = (2, 4, 8, 12)
THROW_FOLLOW_SIZES = (8, 12)
THROWS_PER_SIDE = 60  # throws that stand, and as many that fail, per size


def _top_throw(ctx: Any, group: str, size: int, rng: random.Random) -> list[Any] | None:
    """Pick `size` cards of a group from its strongest down, each rank's copies taken or
    skipped at random (so that some throws stand and some fail); None unless a throw."""
    from checker.engine.combos import THROW, classify

    picked: list[Any] = []
    for tier in reversed(ctx.tiers[group]):
        for card in tier:
            take = rng.choice((0, 1, 2, 2)) if rng.random() < 0.8 else 0
            picked += [card] * min(take, size - len(picked))
        if len(picked) >= size:
            break
    if len(picked) < size:
        return None
    return picked if classify(ctx, picked).type == THROW else None


def throw_deals(
    ctx: Any, seed: int, size: int, per_side: int = THROWS_PER_SIDE
) -> list[tuple[list[Any], list[list[Any]]]]:
    """Build throws of `size` cards of one group (any group of the deal), each against three
    25-card hands dealt from the other cards: `per_side` that stand and as many that fail,
    alternating."""
    from checker.engine.throws import judge_throw

    rng = random.Random(seed * 1000 + size)
    deck = _full_deck(ctx)
    kept: dict[bool, list[tuple[list[Any], list[list[Any]]]]] = {True: [], False: []}
    groups = sorted(ctx.tiers)
    while min(len(v) for v in kept.values()) < per_side:
        throw = _top_throw(ctx, rng.choice(groups), size, rng)
        if throw is None:
            continue
        rest = list((Counter(deck) - Counter(throw)).elements())
        rng.shuffle(rest)
        others = [rest[i * 25 : (i + 1) * 25] for i in range(3)]
        stands = judge_throw(ctx, throw, others).allowed
        if len(kept[stands]) < per_side:
            kept[stands].append((throw, others))
    return [deal for pair in zip(kept[True], kept[False], strict=True) for deal in pair]


def throw_follows(
    ctx: Any, seed: int, size: int, count: int = 140
) -> list[tuple[Any, list[Any], list[Any]]]:
    """Build follows to throws of `size` cards from 25-card hands holding `size` to `size + 6`
    cards of the thrown group (in turn): a legal example, and the hand's first `size` cards
    of the group (often of the wrong structure). The group is any with enough cards."""
    from checker.engine.combos import classify
    from checker.engine.follow import generate_example

    rng = random.Random(seed * 1000 + 500 + size)
    deck = _full_deck(ctx)
    groups = sorted(g for g in ctx.tiers if sum(ctx.key[c][0] == g for c in deck) >= 2 * size + 6)
    follows: list[tuple[Any, list[Any], list[Any]]] = []
    while len(follows) < count:
        throw = _top_throw(ctx, rng.choice(groups), size, rng)
        if throw is None:
            continue
        lead = classify(ctx, throw)
        rest = list((Counter(deck) - Counter(throw)).elements())
        rng.shuffle(rest)
        same = [c for c in rest if ctx.key[c][0] == lead.group]
        other = [c for c in rest if ctx.key[c][0] != lead.group]
        held = size + (len(follows) // 2) % 7
        hand = same[:held] + other[: 25 - held]
        rng.shuffle(hand)
        first = [c for c in hand if ctx.key[c][0] == lead.group][:size]
        follows.append((lead, hand, generate_example(ctx, lead, hand)))
        follows.append((lead, hand, first))
    return follows


# The rate workloads: figure key and whether its batch starts with the memos cleared.
RATES = {
    "trick_resolutions_per_s": False,
    "trick_resolutions_cold_per_s": True,
    "hand_trick_resolutions_per_s": False,
    "hand_trick_resolutions_cold_per_s": True,
    "follow_judgements_per_s": False,
    "follow_judgements_cold_per_s": True,
    "classifications_per_s": True,  # each lead classified afresh, as the baseline did
    "single_trick_resolutions_per_s": False,
    "big_hand_follows_per_s": False,
    "big_hand_follows_cold_per_s": True,
    **{f"throw{n}_checks{cold}_per_s": bool(cold) for n in THROW_SIZES for cold in ("", "_cold")},
    **{
        f"throw{n}_follows{cold}_per_s": bool(cold)
        for n in THROW_FOLLOW_SIZES
        for cold in ("", "_cold")
    },
}


def workloads(
    seed: int,
) -> tuple[Any, dict[str, Callable[[], int]], dict[str, Callable[[], object]]]:
    """Build the bench's workloads with the tree's engine, on one classic context (level 2, ♥):
    (context, the rate batches by figure key, each returning how many items it handled, the
    worst cases by name). Cold batches clear the memos first (`clear_memos`)."""
    import inspect

    from checker.engine.combos import classify
    from checker.engine.follow import judge_follow
    from checker.engine.throws import judge_throw
    from checker.engine.trick import resolve_trick

    ctx, deck = _classic_deck()
    rng = random.Random(seed)
    deals = ordinary_deals(ctx, rng, 400)
    tricks = [plays for plays, _ in deals]
    follows = ordinary_follows(ctx, deck, rng, tricks)
    leads = [plays[0] for plays in tricks]

    def tricks_batch() -> int:
        for plays in tricks:
            resolve_trick(ctx, plays)
        return len(tricks)

    def hand_tricks_batch() -> int:  # every follow judged against its hand first
        for plays, hands in deals:
            resolve_trick(ctx, plays, hands)
        return len(deals)

    # A warm batch judges the same follows again and again: it asks for them to be kept
    # (`keep=True`, where the tree's judge_follow takes it; before, it kept them anyway). A
    # cold batch judges each as a one-off check does.
    again = {"keep": True} if "keep" in inspect.signature(judge_follow).parameters else {}

    def judged(items: list[tuple[Any, list[Any], list[Any]]], *, warm: bool) -> Callable[[], int]:
        asked = again if warm else {}

        def batch() -> int:
            for lead, hand, play in items:
                judge_follow(ctx, lead, hand, play, **asked)
            return len(items)

        return batch

    def thrown(deals: list[tuple[list[Any], list[list[Any]]]]) -> Callable[[], int]:
        def batch() -> int:
            for throw, others in deals:
                judge_throw(ctx, throw, others)
            return len(deals)

        return batch

    def leads_batch() -> int:
        for cards in leads:
            classify(ctx, cards)
        return len(leads)

    batches = {
        "trick_resolutions_per_s": tricks_batch,
        "trick_resolutions_cold_per_s": tricks_batch,
        "hand_trick_resolutions_per_s": hand_tricks_batch,
        "hand_trick_resolutions_cold_per_s": hand_tricks_batch,
        "follow_judgements_per_s": judged(follows, warm=True),
        "follow_judgements_cold_per_s": judged(follows, warm=False),
        "classifications_per_s": leads_batch,
        "single_trick_resolutions_per_s": _single_tricks(seed),
    }
    big = big_hand_follows(ctx, deck, random.Random(seed + 33), tricks[:200])
    batches["big_hand_follows_per_s"] = judged(big, warm=True)
    batches["big_hand_follows_cold_per_s"] = judged(big, warm=False)
    for n in THROW_SIZES:
        batches[f"throw{n}_checks_per_s"] = thrown(throw_deals(ctx, seed, n))
        batches[f"throw{n}_checks_cold_per_s"] = batches[f"throw{n}_checks_per_s"]
    for n in THROW_FOLLOW_SIZES:
        items = throw_follows(ctx, seed, n)
        batches[f"throw{n}_follows_per_s"] = judged(items, warm=True)
        batches[f"throw{n}_follows_cold_per_s"] = judged(items, warm=False)
    rates = {key: _cold(batch, ctx) if RATES[key] else batch for key, batch in batches.items()}
    return ctx, rates, worst_cases(ctx, rng)


def _cold(batch: Callable[[], int], ctx: Any) -> Callable[[], int]:
    def cold() -> int:
        clear_memos(ctx)
        return batch()

    return cold


def _standing_throw(seed: int) -> tuple[Any, Callable[[], object]]:
    """A 9-card spade throw that stands against three 25-card hands: (context, its judgement).

    The throw (♠AAKK, ♠JJ1010, ♠Q) cannot be beaten, so every unit is checked against every hand.
    """
    from checker.engine.cards import Card
    from checker.engine.throws import judge_throw

    ctx, deck = _classic_deck()
    throw = [Card("S", r) for r in (14, 14, 13, 13, 12, 11, 11, 10, 10)]
    rest = list((Counter(deck) - Counter(throw)).elements())
    random.Random(seed).shuffle(rest)
    others = [rest[i * 25 : (i + 1) * 25] for i in range(3)]
    assert judge_throw(ctx, throw, others).allowed
    return ctx, lambda: judge_throw(ctx, throw, others)


def throw_stands_ms(seed: int, repeat: int = 200, *, cold: bool = False) -> float:
    """Median ms to judge a throw that stands against three 25-card hands (`_standing_throw`);
    with cold=True the context's memos are cleared before each judgement."""
    ctx, judge = _standing_throw(seed)
    before = (lambda: clear_memos(ctx)) if cold else None
    return median_ms(judge, repeat, before=before)


def worst_cases(ctx: Any, rng: random.Random) -> dict[str, Callable[[], object]]:
    """The worst cases on one context: a 33-card hand following a 10-card throw (judged,
    forced cards, a legal example), and a throw checked against three 25-card hands dealt
    with `rng`. Keys as the figures' names without "_ms"."""
    import inspect

    from checker.engine.cards import Card
    from checker.engine.combos import classify
    from checker.engine.follow import generate_example, generate_forced, judge_follow
    from checker.engine.throws import judge_throw

    deck = _full_deck(ctx)
    # Judged again and again (warm) or after the memos are cleared (cold): kept where asked.
    again = {"keep": True} if "keep" in inspect.signature(judge_follow).parameters else {}
    throw = [Card("S", r) for r in (14, 14, 13, 13, 12, 11, 11, 9, 8, 7)]
    rest = sorted((Counter(deck) - Counter(throw)).elements())
    spades = [c for c in rest if ctx.key[c][0] == "S"]
    big_hand = spades + [c for c in rest if ctx.key[c][0] != "S"][: 33 - len(spades)]
    lead = classify(ctx, throw)
    worst_play = generate_example(ctx, lead, big_hand)
    dealt = [c for c in deck if c not in throw]
    rng.shuffle(dealt)
    others = [dealt[i * 25 : (i + 1) * 25] for i in range(3)]
    return {
        "worst_follow_judge": lambda: judge_follow(ctx, lead, big_hand, worst_play, **again),
        "worst_follow_forced": lambda: generate_forced(ctx, lead, big_hand),
        "worst_follow_example": lambda: generate_example(ctx, lead, big_hand),
        "worst_throw_check": lambda: judge_throw(ctx, throw, others),
    }


def median_ms(
    fn: Callable[[], object], repeat: int = 200, *, before: Callable[[], object] | None = None
) -> float:
    """Time fn `repeat` times (`before`, e.g. clearing memos, runs untimed ahead of each call);
    median ms."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def use_tree(tree: str) -> None:
    """Import `checker` from `tree` only: put it first on sys.path and drop the editable
    install's finder, which would otherwise answer for modules the tree lacks (an older
    revision without `checker.perf`) from the current checkout."""
    sys.path[0:1] = [tree]
    sys.meta_path[:] = [
        finder
        for finder in sys.meta_path
        if not getattr(finder, "__module__", "").startswith("__editable__")
        and not type(finder).__module__.startswith("__editable__")
    ]


def tree_bench() -> Any:
    """Import the tree's bench module: `checker.perf.bench`, or `checker.suite.bench` in
    revisions older than the perf package."""
    try:
        return importlib.import_module("checker.perf.bench")
    except ModuleNotFoundError as missing:
        if missing.name not in ("checker.perf", "checker.perf.bench"):
            raise
        return importlib.import_module("checker.suite.bench")


def clear_memos(ctx: Any) -> None:
    """Clear a context's memos and the engine's with the tree's own `bench.forget_all` (trees
    without memos: none)."""
    bench = tree_bench()
    forget = getattr(bench, "forget_all", None) or getattr(bench, "forget", None)
    if forget is not None:
        forget(ctx)


def per_case_ms(seconds: float, cases: int) -> float:
    """Return a suite run's time per case in ms (0 for an empty suite)."""
    return seconds * 1000 / cases if cases else 0.0


def run_case_files(tree: str, folder: str) -> dict[str, Any]:
    """Run the case files in `folder` once with the tree's runner (CPU time); seconds and counts."""
    use_tree(tree)
    from checker.suite.runner import run_suite

    start = time.process_time()
    report = run_suite([folder])
    return {
        "rev_cases_seconds": time.process_time() - start,
        "rev_cases_total": report.total,
        "rev_cases_passed": report.passed,
    }


# The worst-case figures (key without "_ms"), each also measured with the memos cleared.
WORST_CASES = (
    "worst_follow_judge",
    "worst_follow_forced",
    "worst_follow_example",
    "worst_throw_check",
    "throw_stands",
)


def measure(tree: str, seconds: float, seed: int) -> dict[str, Any]:
    """Import the tree's bench (CPU time) and return its figures, whole rounds included."""
    use_tree(tree)
    time.perf_counter = time.process_time
    figures: dict[str, Any] = tree_bench().run_bench(seconds, seed)
    if "rounds_per_s" not in figures:
        figures["rounds_per_s"] = round_rate(seconds, seed)
    if "rounds_quiet_per_s" not in figures:
        figures["rounds_quiet_per_s"] = round_rate(seconds, seed, log=False)
    missing = [key for key in RATES if key not in figures]
    if missing:  # rate workloads newer than the tree's bench: built here (`workloads`)
        rates = workloads(seed)[1]
        for key in missing:
            figures[key] = rate(rates[key], seconds)
    if "throw_stands_ms" not in figures:
        figures["throw_stands_ms"] = throw_stands_ms(seed)
    for worst in WORST_CASES:
        # A tree without memos has its worst cases cold already.
        figures.setdefault(f"{worst}_cold_ms", figures[f"{worst}_ms"])
    if "suite_ms_per_case" not in figures:
        figures["suite_ms_per_case"] = per_case_ms(figures["suite_seconds"], figures["suite_cases"])
    return figures


# Profiled workloads (bench --profile): what each runs, cold (memos cleared per batch).
PROFILES = {
    "trick": "10 cold batches of 400 ordinary 4-play tricks",
    "follow": "10 cold batches of 800 follows (a legal example and a wrong play per hand)",
    "round": "150 seeded whole random classic rounds",
    "big-follow": "10 cold batches of 400 follows from 33-card hands",
    **{f"throw{n}": f"10 cold batches of 120 {n}-card throws (half stand)" for n in THROW_SIZES},
    **{
        f"throw-follow{n}": f"10 cold batches of 140 follows of {n}-card throws"
        for n in THROW_FOLLOW_SIZES
    },
}
# The profiles of rate workloads (`workloads`): profile name -> rate figure key.
PROFILED_RATES = {
    "big-follow": "big_hand_follows_cold_per_s",
    **{f"throw{n}": f"throw{n}_checks_cold_per_s" for n in THROW_SIZES},
    **{f"throw-follow{n}": f"throw{n}_follows_cold_per_s" for n in THROW_FOLLOW_SIZES},
}


def profile(tree: str, workload: str, top: int, seed: int = 1) -> dict[str, Any]:
    """Run one workload under cProfile with TREE's engine; the entries with most own time."""
    import cProfile
    import pstats

    use_tree(tree)
    from checker.engine.follow import judge_follow
    from checker.engine.order import make_context
    from checker.engine.ruleset import load_ruleset
    from checker.engine.trick import resolve_trick
    from checker.play.simulation import round_seeds, run_job

    ctx = make_context(load_ruleset("classic"), 2, "H")
    rng = random.Random(seed)
    tricks = ordinary_tricks(ctx, rng, 400)
    follows = ordinary_follows(ctx, _full_deck(ctx), rng, tricks)
    seeds = round_seeds(seed, 150)
    clear_memos(ctx)  # its first call imports the tree's bench module: outside the profile
    if workload in PROFILED_RATES:  # a cold rate batch, built on a context of its own
        batch = workloads(seed)[1][PROFILED_RATES[workload]]
        batch()  # imports and tables made outside the profile

    def run() -> None:
        if workload in PROFILED_RATES:
            for _ in range(10):
                batch()
            return
        for _ in range(10 if workload != "round" else 1):
            clear_memos(ctx)
            if workload == "trick":
                for plays in tricks:
                    resolve_trick(ctx, plays)
            elif workload == "follow":
                for lead, hand, play in follows:
                    judge_follow(ctx, lead, hand, play)
            else:
                for i, s in enumerate(seeds):
                    run_job(("classic", "random", i, s))

    prof = cProfile.Profile()
    prof.runcall(run)
    stats = pstats.Stats(prof)
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)  # type: ignore[attr-defined]
    where = tree.rstrip("/") + "/"
    entries = [
        {
            "function": f"{file.replace(where, '')}:{line}({name})",
            "calls": calls,
            "own_s": round(own, 4),
            "cumulative_s": round(cum, 4),
        }
        for (file, line, name), (_, calls, own, cum, _callers) in rows[:top]
    ]
    return {
        "workload": workload,
        "what": PROFILES[workload],
        "total_s": round(stats.total_tt, 4),  # type: ignore[attr-defined]
        "calls": stats.total_calls,  # type: ignore[attr-defined]
        "top": entries,
    }


def serve(tree: str, seed: int) -> None:
    """Answer timing requests with TREE's engine, for side-by-side batches. Each line read:
    `log N` or `quiet N` plays N more whole random classic rounds (with their log, or as
    simulate plays them without --log) and prints their CPU seconds; `rate KEY SECONDS` runs
    one rate workload (`RATES`) for about SECONDS of CPU and prints its items per second;
    `warm NAME N` or `cold NAME N` times N calls of one worst case (`WORST_CASES`; cold: the
    memos cleared before each) and prints their median CPU milliseconds."""
    use_tree(tree)
    time.perf_counter = time.process_time
    play = round_player(seed, 100_000)
    for _ in range(10):  # imports, contexts and memos made before the first timed batch
        play()
    ctx, rates, worst = workloads(seed)
    cases = {name: (ctx, fn) for name, fn in worst.items()}
    cases["throw_stands"] = _standing_throw(seed)
    for batch in rates.values():
        batch()
    print("ready", flush=True)
    for line in sys.stdin:
        kind, *what = line.split()
        if kind == "rate":
            key, seconds = what
            print(rate(rates[key], float(seconds)), flush=True)
            continue
        if kind in ("warm", "cold"):
            name, count = what
            case_ctx, fn = cases[name]
            before = partial(clear_memos, case_ctx) if kind == "cold" else None
            print(median_ms(fn, int(count), before=before), flush=True)
            continue
        start = time.process_time()
        for _ in range(int(what[0])):
            play(log=kind == "log")
        print(time.process_time() - start, flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "--serve":
        serve(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "--cases":
        print(json.dumps(run_case_files(sys.argv[2], sys.argv[3])))
    elif sys.argv[1] == "--profile":
        print(json.dumps(profile(sys.argv[2], sys.argv[3], int(sys.argv[4]))))
    else:
        tree, seconds, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
        print(json.dumps(measure(tree, seconds, seed)))
