"""`manage.py purge` also deletes saved workshop rulesets older than RULESETS_KEEP_DAYS that no
stored game, study or simulation run uses, nor a kept saved ruleset derived from them."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from checker.models import HouseRuleset, PlayGame, SimulationRun, Study

pytestmark = pytest.mark.django_db


def ruleset(name: str, days: int, base: str = "classic") -> None:
    created = timezone.now() - timedelta(days=days)
    text = f"extends: {base}\nname: {name}\n"
    HouseRuleset.objects.create(
        name=name, owner="o" * 32, base=base, title=name, text=text, created=created
    )


def game(key: str, rs: str, days: int = 0, finished: bool = False) -> None:
    PlayGame.objects.create(
        key=key,
        owner="o" * 32,
        ruleset=rs,
        seed=1,
        seat=0,
        bots="greedy",
        finished=finished,
        updated=timezone.now() - timedelta(days=days),
    )


def purge(*args: str) -> str:
    out = StringIO()
    with override_settings(RULESETS_KEEP_DAYS=180, PLAY_KEEP_DAYS=30, RUNS_KEEP=200):
        call_command("purge", *args, stdout=out)
    return out.getvalue()


def names() -> list[str]:
    return sorted(HouseRuleset.objects.values_list("name", flat=True))


def test_old_unused_rulesets_go_and_used_ones_stay() -> None:
    ruleset("h-unused00", 200)
    ruleset("h-recent00", 10)
    ruleset("h-played00", 200)
    game("g1", "h-played00")
    ruleset("h-studied0", 200)
    arms = [{"label": "a", "ruleset": "classic"}, {"label": "b", "ruleset": "h-studied0"}]
    Study.objects.create(name="s", spec={"arms": arms}, shards_total=1)
    ruleset("h-simrun00", 200)
    SimulationRun.objects.create(ruleset="h-simrun00", seed=1, rounds=1)
    ruleset("h-parent00", 300)
    ruleset("h-child000", 5, base="h-parent00")  # a recent ruleset keeps its old base
    ruleset("h-grand000", 400)
    ruleset("h-mid00000", 300, base="h-grand000")
    game("g2", "h-mid00000")  # … and a used one its whole line
    ruleset("h-oldbase0", 300)
    ruleset("h-oldkid00", 200, base="h-oldbase0")  # neither used: both go
    kept = [
        "h-child000",
        "h-grand000",
        "h-mid00000",
        "h-parent00",
        "h-played00",
        "h-recent00",
        "h-simrun00",
        "h-studied0",
    ]
    dry = purge("--dry-run")
    assert "would remove: " in dry and "3 saved rulesets older than 180 days" in dry
    assert len(names()) == 11  # a dry run deletes nothing
    out = purge()
    assert "removed: " in out and "3 saved rulesets" in out
    assert "(h-oldbase0, h-oldkid00, h-unused00)" in out  # it says which
    assert names() == kept
    again = purge()
    assert "removed: 0 unfinished games" in again and "0 saved rulesets" in again
    assert names() == kept


def test_a_game_purged_in_the_same_run_no_longer_keeps_its_ruleset() -> None:
    ruleset("h-gamegone", 200)
    game("stale", "h-gamegone", days=31)  # unfinished and untouched for 30+ days: it goes
    dry = purge("--dry-run")
    assert "would remove: 1 unfinished" in dry and "1 saved rulesets" in dry
    out = purge()
    assert "(h-gamegone)" in out
    assert names() == [] and PlayGame.objects.count() == 0


def test_many_stale_rulesets_go_in_chunks() -> None:
    from checker.management.commands.purge import CHUNK

    created = timezone.now() - timedelta(days=400)
    HouseRuleset.objects.bulk_create(
        HouseRuleset(
            name=f"h-{i:08d}", owner="o" * 32, base="classic", title="t", text="", created=created
        )
        for i in range(CHUNK * 2 + 7)
    )
    out = purge()
    assert f"{CHUNK * 2 + 7} saved rulesets" in out and out.rstrip().endswith(", …)")
    assert HouseRuleset.objects.count() == 0
