"""python manage.py duel: two bots on duplicate deals, the margin in rounds won with its 95% CI."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from checker.engine.ruleset import ruleset_known, ruleset_names
from checker.management.stopping import stoppable
from checker.play.bots.registry import UnknownBotError
from checker.play.duel import DuelSummary, check_bot, duel

from .simulate import _positive, _seed, add_budget, use_budget


def render(s: dict[str, Any]) -> str:
    """Write a duel's summary as aligned text lines."""
    names = list(s["bots"])
    gain_key = next(k for k in s["bots"][names[0]] if k.startswith("mean_") and "gained" in k)
    gain_label = "mean chips" if "chips" in gain_key else "mean levels"
    lines = [
        f"ruleset          {s['ruleset']}   seed {s['seed']}   {names[0]} vs {names[1]}",
        f"deals            {s['deals']}   (each played twice, seats swapped)",
        f"rounds           {s['rounds']}",
        f"illegal plays    {s['illegal_plays']}",
        "",
        f"{'bot':<16} {'rounds won':>10} {'attack pts':>11} {gain_label:>12}",
    ]
    for name in names:
        b = s["bots"][name]
        lines.append(
            f"{name:<16} {b['rounds_won']:>10} {b['mean_attack_points']:>11.2f}"
            f" {b[gain_key]:>+12.3f}"
        )
    m = s["margin"]
    lo, hi = m["ci95"]
    lines += [
        "",
        f"margin           {m['rounds_won']:+d} rounds ({names[0]} − {names[1]})"
        f"   95% CI [{lo:+.1f}, {hi:+.1f}]",
        f"time             {s['elapsed_s']} s",
    ]
    return "\n".join(lines)


class Command(BaseCommand):
    help = "Play two bots against each other on duplicate deals and report the margin."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", default="classic", metavar="R")
        parser.add_argument("--bots", nargs=2, required=True, metavar=("A", "B"))
        parser.add_argument("--deals", type=_positive, default=100, metavar="N")
        parser.add_argument("--seed", type=_seed, default=1, metavar="S")
        parser.add_argument("--jobs", type=_positive, default=1, metavar="J")
        parser.add_argument("--format", choices=["table", "json"], default="table")
        add_budget(parser)

    def _usage_error(self, message: str) -> None:
        self.stderr.write(f"duel: error: {message}")
        sys.exit(2)

    def handle(self, *args: Any, **opts: Any) -> None:
        name = opts["ruleset"]
        if not ruleset_known(name):
            self._usage_error(f"unknown ruleset '{name}' (known: {', '.join(ruleset_names())})")
        bot_a, bot_b = opts["bots"]
        try:
            check_bot(bot_a)
            check_bot(bot_b)
        except UnknownBotError as exc:
            self._usage_error(exc.message_en)
        use_budget(opts)
        kept = "nothing kept (a duel reports its figures only once every deal is played)"
        with stoppable("duel", sys.stderr, lambda: kept):
            result: DuelSummary = duel(
                name, bot_a, bot_b, opts["deals"], opts["seed"], opts["jobs"]
            )
        summary = result.as_dict()
        if opts["format"] == "json":
            self.stdout.write(json.dumps(summary, ensure_ascii=False))
        else:
            self.stdout.write(render(summary))
        if summary["illegal_plays"]:
            sys.exit(1)
