"""Write every kind of round log the project makes into one folder, to diff two trees' output.

    python -m checker.perf.logcompare OUT [--rounds N]

Each file holds the logs of one source, as the project writes them (the header's engine field
left empty, so two trees compare equal): simulate --log for every ruleset × bot, whole matches,
4-deck multideck, and tables played from move lists (the moves, each position's decision, the
refusal of a wrong move, the game log and the terminal's transcript). Run it on the old tree
and the new one and `diff -r` the folders: logs stay byte-identical.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

RULESETS = ("classic", "erqiwang", "shuangsheng", "multideck")
BOTS = ("random", "greedy", "v1", "v2")
SEED = 20250601
# (ruleset, options, bots, human seat, seed): the tables played from move lists.
TABLES: tuple[tuple[str, dict[str, Any], str, int | None, int], ...] = (
    ("classic", {}, "random", 0, 11),
    ("classic", {}, "v2", 2, 12),
    ("erqiwang", {}, "random", 1, 13),
    ("erqiwang", {}, "greedy", 0, 14),
    ("shuangsheng", {}, "random", 3, 15),
    ("multideck", {"decks": 4}, "random", 0, 16),
    ("multideck", {}, "greedy", 3, 17),
    ("classic", {}, "random", None, 18),
)


def simulated(name: str, bot: str, rounds: int, options: dict[str, Any]) -> Iterator[str]:
    """Yield simulate --log's lines for one ruleset and bot."""
    from checker.play.simulation import header, run_rounds

    yield header(name, bot, rounds, SEED, "", options)
    for _, lines in run_rounds(name, bot, rounds, SEED, options=options):
        yield from lines


def matches(name: str, bot: str, count: int, options: dict[str, Any]) -> Iterator[str]:
    """Yield every round log of whole matches (as simulate --matches --log writes them)."""
    from checker.play.simulation import _dump, simulate_matches

    out: list[str] = []

    def on_match(index: int, logs: list[list[dict[str, Any]]]) -> None:
        for events in logs:
            out.extend(_dump({"m": index, **e}) for e in events)

    rounds, summary = simulate_matches(name, bot, count, SEED, 1, on_match, options)
    yield from out
    yield json.dumps(summary.as_dict(), ensure_ascii=False, sort_keys=True, default=str)


def _human_move(position: Any, step: int) -> Any:
    """Pick the human's move: the hint's cards, else a plain action for the phase."""
    from checker.play.game import Move, hint

    ask = position.ask
    if ask.phase == "bid":
        low, high, by = ask.bid_range
        standing = [b for _, b in ask.view.bids if b is not None]
        if ask.must_bid:
            return Move("bid", value=high)
        lower = min(standing) - by
        return Move("bid", value=lower) if step % 2 == 0 and lower >= low else Move("pass")
    if ask.phase == "surrender":
        return Move("surrender", value=step % 2 == 0)
    if ask.phase == "pick_trump":
        return Move("trump", value="SHCD"[step % 4])
    if ask.phase == "declare" and step % 2:
        return Move("pass")
    if ask.phase == "bury":
        return Move(
            "cards", tuple(ask.view.hand[step % 3 : step % 3 + ask.view.ruleset.kitty_size])
        )
    _, decision = hint(position)
    assert decision is not None
    return Move("cards", tuple(decision.cards)) if decision.cards else Move("pass")


def _wrong_moves(position: Any) -> list[Any]:
    """List moves to try first: the wrong kind, then cards the rules may refuse."""
    from checker.play.game import Move

    ask = position.ask
    hand = ask.view.hand
    if ask.phase in ("lead", "follow", "bury"):
        size = len(ask.view.lead.cards) if ask.view.lead is not None else 2
        return [Move("pass"), Move("cards", (hand[0], hand[-1])), Move("cards", tuple(hand[:size]))]
    return [Move("cards", (hand[0],) if hand else ()), Move("bid", value=5), Move("pass")]


def table(
    name: str, options: dict[str, Any], bots: str, seat: int | None, seed: int
) -> Iterator[str]:
    """Play a table from a growing move list; yield every position's facts and the logs."""
    from checker.play.game import (
        MoveError,
        format_moves,
        game_log,
        make_spec,
        play_move,
        replay_game,
    )

    spec = make_spec(name, seed, seat, bots, None, options)
    position = replay_game(spec, [])
    step = 0
    while position.ask is not None:
        ask = position.ask
        yield f"step {step} {ask.phase} seat {ask.view.seat} events {len(position.events)}"
        yield f"  options {[list(map(str, o)) for o in ask.declarations]} bids {ask.bid_range} {ask.must_bid}"
        for wrong in _wrong_moves(position):
            try:
                tried = play_move(spec, position.moves, wrong)
                yield f"  {wrong.text()} accepted: {len(tried.events)} events"
            except MoveError as exc:
                yield f"  {wrong.text()} refused: {exc.message('zh')} / {exc.message('en')}"
        position = play_move(spec, position.moves, _human_move(position, step))
        step += 1
    moves = format_moves(position.moves)
    yield f"moves {moves}"
    again = replay_game(spec, position.moves)
    yield f"replayed equal {again.events == position.events}"
    yield from game_log(position, "")
    yield from (
        f"reason {i} {d.rule} {d.explanation_for('en')}"
        for i, d in sorted(position.reasons.items())
    )
    yield from terminal(name, options, bots, seat, seed, moves)


def terminal(
    name: str, options: dict[str, Any], bots: str, seat: int | None, seed: int, moves: str
) -> Iterator[str]:
    """Yield the terminal game's transcript resumed at every third of the moves."""
    from django.core.management import CommandError, call_command

    parts = moves.split(".") if moves else []
    opts = ",".join(f"{k}:{v}" for k, v in options.items())
    for cut in sorted({0, len(parts) // 3, 2 * len(parts) // 3, len(parts)}):
        out = io.StringIO()
        stdin, sys.stdin = sys.stdin, io.StringIO("")
        try:
            call_command(
                "play",
                ruleset=name,
                seed=seed,
                human_seat=seat if seat is not None else 0,
                autoplay=seat is None,
                bots=bots,
                options=opts,
                moves=".".join(parts[:cut]),
                no_color=True,
                stdout=out,
            )
        except CommandError as exc:  # a link the command refuses (kept: it must stay refused)
            out.write(f"refused: {exc}")
        finally:
            sys.stdin = stdin
        yield f"terminal at {cut}"
        yield out.getvalue()


def sources(rounds: int) -> Iterator[tuple[str, Callable[[], Iterator[str]]]]:
    """List every log source by file name."""
    for name in RULESETS:
        for bot in BOTS:
            n = rounds if bot in ("random", "greedy") else max(2, rounds // 4)
            yield f"sim-{name}-{bot}.jsonl", partial(simulated, name, bot, n, {})
        yield f"match-{name}.jsonl", partial(matches, name, "random", 2, {})
    for bot in BOTS:
        n = rounds if bot in ("random", "greedy") else max(2, rounds // 4)
        yield f"sim-multideck4-{bot}.jsonl", partial(simulated, "multideck", bot, n, {"decks": 4})
    yield "match-multideck4.jsonl", partial(matches, "multideck", "random", 1, {"decks": 4})
    for i, (name, options, bots, seat, seed) in enumerate(TABLES):
        yield f"table-{i}-{name}.txt", partial(table, name, options, bots, seat, seed)


def main(argv: list[str] | None = None) -> None:
    """Write every source's log into the folder named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--only", default="", help="write only the files whose name has this")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "checker.settings")
    import django

    django.setup()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for file, make in sources(args.rounds):
        if args.only and args.only not in file:
            continue
        (out / file).write_text("\n".join(make()) + "\n", encoding="utf-8")
        print(file, flush=True)


if __name__ == "__main__":
    main()
