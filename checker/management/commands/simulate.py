"""python manage.py simulate: play seeded rounds with any registered bot, check invariants."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from checker.dbstatus import explain_db_error
from checker.engine.errors import EngineError
from checker.engine.ruleset import load_ruleset, ruleset_known, ruleset_names
from checker.management.stopping import PendingFile, stoppable
from checker.play.bots.registry import PLAYER_KINDS
from checker.play.bots.search import BudgetError, read_budget, set_budget
from checker.play.simulation import Summary, header, simulate, simulate_matches
from checker.scenarios.scenario import parse_options


def engine_version() -> str:
    """Return the git commit of the checkout, as the footer of the site shows it."""
    try:
        from checker.web.context import engine_version as version

        return str(version())
    except Exception:  # pragma: no cover - the web layer is optional here
        return "unknown"


class Progress:
    """A progress bar on stderr (tqdm): redrawn in place on a terminal, a line now and then in
    a log."""

    def __init__(
        self, total: int, stream: TextIO, enabled: bool = True, unit: str = "rounds"
    ) -> None:
        from tqdm import tqdm

        self.done = 0
        tty = bool(getattr(stream, "isatty", lambda: False)())
        self.bar = tqdm(
            total=max(total, 1),
            unit=unit[:-1] if unit.endswith("s") else unit,
            file=stream,
            disable=not enabled,
            mininterval=0.1 if tty else 5.0,
            dynamic_ncols=tty,
            ascii=not tty,
        )

    def update(self, done: int) -> None:
        """Move the bar to `done`."""
        self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        """Draw the bar's last state and end its line."""
        self.bar.close()


def render(summary: dict[str, Any], engine: str) -> str:
    """Write a run's summary as aligned text lines."""
    s = summary
    tried, failed = s["throws_tried"], s["throws_failed"]
    lines = [
        f"ruleset            {s['ruleset']}{_options_text(s.get('options'))}   "
        f"players {s['players']}   seed {s['seed']}",
        f"engine             {engine}",
        f"rounds             {s['rounds']}",
        f"tricks             {s['tricks']}",
        f"illegal plays      {s['illegal_plays']}",
        f"throws tried       {tried}   failed {failed}",
        f"avg attacker pts   {s['avg_attacker_points']}",
        f"kitty bonus won    {s['kitty_bonus_rounds']} rounds",
        "outcomes           " + "  ".join(f"{k} {v}" for k, v in s["outcomes"].items()),
        "winners            " + "  ".join(f"{k} {v}" for k, v in s["winners"].items()),
        "trump by           " + "  ".join(f"{k} {v}" for k, v in s["trump_by"].items()),
        f"invariant breaks   {s['invariant_breaks']}",
        f"time               {s['elapsed_s']} s   {s['rounds_per_s']} rounds/s"
        f"   (cpu {s['cpu_s']} s, {s['rounds_per_cpu_s']} rounds per cpu-second)",
    ]
    if s["redeals"]:
        lines.insert(5, f"redeals            {s['redeals']}")
    if s.get("chips"):
        lines.insert(-2, f"chips to winners   {s['chips']}   bonus (算奖) {s.get('bonus', 0)}")
    lines += [f"  ! {b}" for b in s["break_examples"]]
    return "\n".join(lines)


def _options_text(options: dict[str, Any] | None) -> str:
    """Write a run's ruleset options after its name, e.g. " (decks:4)"."""
    if not options:
        return ""
    return " (" + ",".join(f"{k}:{v}" for k, v in options.items()) + ")"


def render_matches(summary: dict[str, Any], engine: str) -> str:
    """Write a run of whole matches as aligned text lines."""
    s, m = summary, summary["matches"]
    length = m["rounds_per_match"]
    lines = [
        f"ruleset            {s['ruleset']}   players {s['players']}   seed {s['seed']}",
        f"engine             {engine}",
        f"matches            {m['matches']}   finished {m['finished']}",
        f"rounds per match   mean {length['mean']}   stdev {length['stdev']}   "
        f"min {length['min']}   median {length['median']}   max {length['max']}",
        "length histogram   "
        + "  ".join(f"{b['low']}-{b['high']}: {b['count']}" for b in m["length_histogram"]),
        "wins               " + "  ".join(f"{k}: {v}" for k, v in m["wins"].items()),
    ]
    if m["winner_reaches_level_at_round"]:
        lines.append(
            "winner reaches     "
            + "  ".join(f"{k}@{v}" for k, v in m["winner_reaches_level_at_round"].items())
            + "   (mean round)"
        )
        lines.append(
            "level rises        "
            + "  ".join(f"+{k}: {v}" for k, v in m["level_rises"].items())
            + "   (rounds)"
        )
        lines.append(
            "loser ends at      "
            + "  ".join(f"{k}: {v}" for k, v in m["loser_final_level"].items())
        )
    if any(m["chips_per_seat"]):
        lines.append(
            "chips per seat     "
            + "  ".join(f"{i}: {c:+d}" for i, c in enumerate(m["chips_per_seat"]))
            + "   per match "
            + "  ".join(f"{c:+.2f}" for c in m["chips_per_seat_per_match"])
        )
    lines += [
        f"rounds             {s['rounds']}",
        f"illegal plays      {s['illegal_plays']}",
        f"throws tried       {s['throws_tried']}   failed {s['throws_failed']}",
        f"invariant breaks   {s['invariant_breaks']}",
        f"time               {s['elapsed_s']} s   {s['rounds_per_s']} rounds/s"
        f"   (cpu {s['cpu_s']} s)",
    ]
    lines += [f"  ! {b}" for b in s["break_examples"]]
    return "\n".join(lines)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError("must be at least 1")
    return value


def budget_arg(text: str) -> float:
    """Read --budget MS (bot v3's search budget per decision): a positive number, else a clear
    error naming the value."""
    try:
        return read_budget(text)
    except BudgetError as exc:
        raise argparse.ArgumentTypeError(exc.message_en) from None


def add_budget(parser: CommandParser) -> None:
    """Add --budget MS to a command that plays bots."""
    parser.add_argument(
        "--budget",
        type=budget_arg,
        metavar="MS",
        help="bot v3's search budget per decision in ms (turned into a fixed number of "
        "simulated deals: the same seed gives the same play on any machine)",
    )


def use_budget(opts: dict[str, Any]) -> None:
    """Give the bots made from now on the --budget asked for (if any)."""
    if opts.get("budget") is not None:
        set_budget(opts["budget"])


def _seed(text: str) -> int:
    value = int(text)
    if not 0 <= value < 2**63:
        raise ValueError("seed must be between 0 and 2**63 - 1")
    return value


NOT_STORED = 3  # exit status when the run was played but could not be stored


def _kept(done: list[int], total: int, unit: str, log: str | None) -> Callable[[], str]:
    """Say what an interrupted run leaves: how far it got, nothing stored, no log file."""

    def say() -> str:
        where = f"{done[0]} of {total} {unit} played; nothing stored"
        return where + (f", no log written ({log} not created or left as it was)" if log else "")

    return say


@contextmanager
def _written(pending: PendingFile | None, progress: Progress) -> Iterator[None]:
    """End the progress line; give the log its name if the run completed, else remove it."""
    try:
        yield
    except BaseException:
        progress.close()
        if pending is not None:
            pending.discard()
        raise
    progress.close()
    if pending is not None:
        pending.commit()


class Command(BaseCommand):
    help = "Play seeded rounds with any registered bot, check invariants, store the run."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", default="classic", metavar="R")
        parser.add_argument("--rounds", type=_positive, default=100, metavar="N")
        parser.add_argument("--seed", type=_seed, default=1, metavar="S")
        parser.add_argument("--players", choices=PLAYER_KINDS, default="random")
        parser.add_argument("--log", metavar="FILE", help="write a JSON-lines replay log")
        parser.add_argument("--jobs", type=_positive, default=1, metavar="N")
        add_budget(parser)
        parser.add_argument("--no-store", action="store_true", help="do not save the run")
        parser.add_argument(
            "--matches", type=_positive, metavar="N", help="play N whole matches instead of rounds"
        )
        parser.add_argument("--format", choices=("text", "json"), default="text")
        parser.add_argument("--json", action="store_true", help="the same as --format json")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        parser.add_argument(
            "--options",
            default="",
            metavar="NAME:VALUE,…",
            help="ruleset options, e.g. decks:4,players:6 (as in checker links)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        name = opts["ruleset"]
        if not ruleset_known(name):
            raise CommandError(f"unknown ruleset '{name}' (known: {', '.join(ruleset_names())})")
        try:
            options = parse_options(opts["options"])
            load_ruleset(name).with_options(options)
        except EngineError as exc:
            raise CommandError(f"--options: {exc.message_en}") from exc
        use_budget(opts)
        engine = engine_version()
        rounds, seed, players = opts["rounds"], opts["seed"], opts["players"]
        if opts["json"]:
            opts["format"] = "json"
        if opts["matches"]:
            self._matches(name, engine, opts, options or None)
            return
        pending = PendingFile(opts["log"]) if opts["log"] else None
        log = pending.stream if pending is not None else None
        if log is not None:
            log.write(header(name, players, rounds, seed, engine, options) + "\n")
        stream = opts.get("stderr") or sys.stderr
        progress = Progress(rounds, stream, enabled=not opts["no_progress"])
        done = [0]

        def on_round(index: int, lines: list[str]) -> None:
            if log is not None:
                log.write("\n".join(lines) + "\n")
            done[0] = index + 1
            progress.update(index + 1)

        kept = _kept(done, rounds, "rounds", opts["log"])
        with stoppable("simulate", stream, kept), _written(pending, progress):
            result: Summary = simulate(
                name,
                players,
                rounds,
                seed,
                opts["jobs"],
                on_round,
                options or None,
                log=log is not None,
            )
        summary = result.as_dict()
        summary["jobs"] = opts["jobs"]
        if options:
            summary["options"] = options
        self._finish(summary, engine, opts, render(summary, engine))

    def _finish(
        self, summary: dict[str, Any], engine: str, opts: dict[str, Any], text: str
    ) -> None:
        """Print the summary (text or JSON), store the run, exit 1 on an illegal play or break."""
        if opts["format"] == "json":
            self.stdout.write(json.dumps({**summary, "engine": engine}, ensure_ascii=False))
        else:
            self.stdout.write(text)
            if opts["log"]:
                self.stdout.write(f"replay log         {opts['log']}")
        if not opts["no_store"]:
            self._store(summary, engine, opts["jobs"])
        if summary["illegal_plays"] or summary["invariant_breaks"]:
            sys.exit(1)

    def _matches(
        self, name: str, engine: str, opts: dict[str, Any], options: dict[str, Any] | None
    ) -> None:
        matches, seed, players, jobs = opts["matches"], opts["seed"], opts["players"], opts["jobs"]
        pending = PendingFile(opts["log"]) if opts["log"] else None
        log = pending.stream if pending is not None else None
        if log is not None:
            head = json.loads(header(name, players, 0, seed, engine, options))
            log.write(json.dumps({**head, "matches": matches}, ensure_ascii=False) + "\n")
        stream = opts.get("stderr") or sys.stderr
        progress = Progress(matches, stream, enabled=not opts["no_progress"], unit="matches")
        counter = [0]
        done = [0]

        def on_match(index: int, logs: list[list[dict[str, Any]]]) -> None:
            if log is not None:
                for events in logs:
                    lines = [
                        json.dumps(
                            {"r": counter[0], "m": index, **e},
                            ensure_ascii=False,
                            separators=(",", ":"),
                        )
                        for e in events
                    ]
                    log.write("\n".join(lines) + "\n")
                    counter[0] += 1
            done[0] = index + 1
            progress.update(index + 1)

        kept = _kept(done, matches, "matches", opts["log"])
        with stoppable("simulate", stream, kept), _written(pending, progress):
            rounds, result = simulate_matches(name, players, matches, seed, jobs, on_match, options)
        summary = rounds.as_dict()
        summary["jobs"] = jobs
        summary["matches"] = result.as_dict()
        if options:
            summary["options"] = options
        summary["invariant_breaks"] += result.invariant_breaks
        summary["break_examples"] += result.break_examples[: 10 - len(summary["break_examples"])]
        self._finish(summary, engine, opts, render_matches(summary, engine))

    def _store(self, summary: dict[str, Any], engine: str, jobs: int) -> None:
        from checker.models import SimulationRun

        try:
            run = SimulationRun.objects.create(
                ruleset=summary["ruleset"],
                seed=summary["seed"],
                rounds=summary["rounds"],
                players=summary["players"],
                jobs=jobs,
                engine_version=engine[:40],
                illegal_plays=summary["illegal_plays"],
                invariant_breaks=summary["invariant_breaks"],
                rounds_per_second=summary["rounds_per_s"],
                summary=summary,
            )
        except DatabaseError as exc:
            # The run was played but is lost: say why and fail, so scripts notice.
            self.stderr.write("simulate: " + explain_db_error(exc, "run"))
            sys.exit(NOT_STORED)
        self.stderr.write(f"stored as simulation run #{run.pk}")
