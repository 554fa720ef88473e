"""Database models: stored simulation runs (manage.py simulate), shown on the 模拟 page."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils import timezone

from checker.engine.vocab import term

OUTCOME_ORDER = ("big_sweep", "small_sweep", "hold", "swap", "promote", "surrender")
OUTCOME_LABELS = {code: term(code) for code in OUTCOME_ORDER}


class SimulationRun(models.Model):
    """One `manage.py simulate` run: what was played, by which engine, and its summary figures."""

    ruleset = models.CharField(max_length=40, db_index=True)
    seed = models.BigIntegerField()
    rounds = models.PositiveIntegerField()
    players = models.CharField(max_length=20, default="random")
    jobs = models.PositiveSmallIntegerField(default=1)
    engine_version = models.CharField(max_length=40, blank=True)
    created = models.DateTimeField(default=timezone.now, db_index=True)
    illegal_plays = models.PositiveIntegerField(default=0)
    invariant_breaks = models.PositiveIntegerField(default=0)
    rounds_per_second = models.FloatField(default=0.0)
    summary = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        get_latest_by = "created"

    def __str__(self) -> str:
        return f"{self.ruleset} seed {self.seed} × {self.rounds} ({self.players})"

    @property
    def clean(self) -> bool:
        """Tell whether the run had no illegal play and no broken invariant."""
        return self.illegal_plays == 0 and self.invariant_breaks == 0

    def outcome_bars(self) -> list[dict[str, Any]]:
        """List the outcome counts with their share of the rounds, for the histogram."""
        outcomes = dict(self.summary.get("outcomes") or {})
        total = sum(outcomes.values()) or 1
        names = [n for n in OUTCOME_ORDER if n in outcomes]
        names += sorted(n for n in outcomes if n not in OUTCOME_ORDER)
        return [
            {
                "name": name,
                "label": OUTCOME_LABELS.get(name, name),
                "count": outcomes[name],
                "share": round(100 * outcomes[name] / total, 1),
            }
            for name in names
        ]


class PlayGame(models.Model):
    """A game at the /play/ table: its spec and the human's moves (the position is replayed)."""

    key = models.CharField(max_length=16, unique=True)
    owner = models.CharField(max_length=40)
    ruleset = models.CharField(max_length=40)
    seed = models.BigIntegerField()
    seat = models.PositiveSmallIntegerField(null=True)
    bots = models.CharField(max_length=100)  # one bot name, or one per seat (checker.play.seats)
    level = models.CharField(max_length=4, blank=True)
    options = models.JSONField(default=dict, blank=True)
    moves = models.TextField(blank=True)
    ply = models.PositiveIntegerField(default=0)
    match = models.JSONField(null=True, blank=True)  # a match's later round: the state before it
    # The game of the match's round before this one ("" for a first round or a copy): one
    # next round per game, however many "next round" requests race (the constraint below).
    previous = models.CharField(max_length=16, blank=True, db_index=True)
    # Drawn at random, the seed is the deal's secret until the round is over (a chosen seed
    # is a shared puzzle).
    secret_seed = models.BooleanField(default=False)
    finished = models.BooleanField(default=False)  # the round is over
    # Who created it (a keyed hash of the client's address): game creation is rate-limited.
    client = models.CharField(max_length=16, blank=True, db_index=True)
    created = models.DateTimeField(default=timezone.now, db_index=True)
    # The last move (or the creation): `manage.py purge` deletes games untouched for long.
    updated = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["previous"], condition=~models.Q(previous=""), name="one_next_round"
            )
        ]

    def __str__(self) -> str:
        return f"{self.key}: {self.ruleset} seed {self.seed} seat {self.seat} ({self.ply} moves)"


class Study(models.Model):
    """A balance study (`manage.py study`): its checked spec and, once finished, its report."""

    name = models.CharField(max_length=80)
    spec = models.JSONField()  # checker.lab.spec.StudySpec.as_dict(): arms with file texts
    engine_version = models.CharField(max_length=40, blank=True)
    shards_total = models.PositiveIntegerField()
    created = models.DateTimeField(default=timezone.now, db_index=True)
    finished = models.DateTimeField(null=True, blank=True)
    report = models.JSONField(null=True, blank=True)
    # Who started it from the page (checker.web.limits.client_of; empty from the command).
    client = models.CharField(max_length=16, blank=True, db_index=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"study #{self.pk} {self.name}"


class StudyShard(models.Model):
    """One finished shard of a study: its arm, its index, its figures (sums and a histogram)."""

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="shards")
    arm = models.PositiveSmallIntegerField()
    index = models.PositiveIntegerField()
    figures = models.JSONField()
    seconds = models.FloatField(default=0.0)  # time the shard took in its worker
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["study", "arm", "index"]
        constraints = [
            models.UniqueConstraint(fields=["study", "arm", "index"], name="one_row_per_shard")
        ]

    def __str__(self) -> str:
        return f"study #{self.study_id} arm {self.arm} shard {self.index}"


class HouseRuleset(models.Model):
    """A ruleset saved from the workshop (/rulesets/new/): its YAML, which `extends` its base.

    Saved rulesets never change (a new version is a new ruleset), so a process may keep what
    it read; the name is a key like a game's (`h-` and 8 letters or digits)."""

    name = models.CharField(max_length=16, unique=True)
    owner = models.CharField(max_length=40, db_index=True)
    base = models.CharField(max_length=40)
    title = models.CharField(max_length=80)
    text = models.TextField()
    client = models.CharField(max_length=16, blank=True, db_index=True)
    created = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.name}: {self.title} (extends {self.base})"
