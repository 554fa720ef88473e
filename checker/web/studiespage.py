"""The studies page (/studies/): a bounded balance study started from the browser, played in
shards by the page's own polls (each poll plays shards for about half a second and stores
them, so nothing runs between requests and a restarted server goes on where it stopped), and
its report with charts drawn as SVG on the server.

The spec, the shards and the report are `checker.lab`'s, as `manage.py study` uses them.
"""

from __future__ import annotations

import contextlib
import csv
import io
import time
from typing import Any

from django import forms
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from checker.engine.errors import EngineError
from checker.engine.ruleset import load_ruleset, ruleset_known, ruleset_names
from checker.lab.report import MEANS, RATES
from checker.lab.run import report, timed_shard
from checker.lab.shards import make_tasks
from checker.lab.spec import SpecError, StudySpec, from_dict, parse_spec
from checker.models import HouseRuleset, Study, StudyShard
from checker.play.bots.registry import PLAYER_KINDS
from checker.scenarios.scenario import ScenarioError, parse_options
from checker.web import present
from checker.web.context import engine_version
from checker.web.limits import over_limit

MAX_WEB_ROUNDS = 5000  # per arm: a few minutes of v2 bots on one core
WEB_SHARD = 20  # rounds per shard: about half a second of v2 bots
STEP_SECONDS = 0.5  # the play one poll does
ARMS = 4
HISTORY = 30


class StudyForm(forms.Form):
    """A bounded study: up to four arms (a ruleset and its options), the bots of each side,
    rounds, seed."""

    name = forms.CharField(
        label=gettext_lazy("研究名称"),
        required=False,
        max_length=80,
        help_text=gettext_lazy("留空：按各组的规则名起名。"),
    )
    bots = forms.ChoiceField(
        label=gettext_lazy("机器人（偶数座位 0、2 号一方）"),
        choices=[(k, k) for k in PLAYER_KINDS],
        initial="random",
        help_text=gettext_lazy("这一方的座位由这种机器人来打（random 最快，v2 最强）。"),
    )
    bots_odd = forms.ChoiceField(
        label=gettext_lazy("机器人（奇数座位 1、3 号一方）"),
        choices=[("", gettext_lazy("同上：每个座位都用同一种"))] + [(k, k) for k in PLAYER_KINDS],
        required=False,
        help_text=gettext_lazy(
            "另一方用别的机器人，看强弱之差；只适用于对家固定（偶数座位对奇数座位）的规则。"
        ),
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("每组局数"),
        min_value=1,
        max_value=MAX_WEB_ROUNDS,
        initial=200,
        help_text=gettext_lazy("每组最多 5000 局；更大的研究用命令 manage.py study 在 Dask 上跑。"),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    seed = forms.IntegerField(
        label=gettext_lazy("种子"),
        min_value=0,
        max_value=2**48 - 1,
        initial=1,
        help_text=gettext_lazy("各组打同样的牌：同一个种子，同样的发牌。"),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args: Any, names: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = names or ruleset_names()
        for i in range(ARMS):
            self.fields[f"arm{i}"] = forms.CharField(
                label=_("第 %(n)d 组的规则") % {"n": i + 1},
                required=i < 2,
                max_length=40,
                widget=forms.TextInput(attrs={"list": "ruleset-names", "autocomplete": "off"}),
            )
            self.fields[f"options{i}"] = forms.CharField(
                label=_("第 %(n)d 组的选项") % {"n": i + 1},
                required=False,
                max_length=200,
                help_text=_("如 hold_banker:same（留空：默认）"),
            )
        self.spec: StudySpec | None = None
        self.refused = False  # valid, but this client started its allowance this minute

    def arm_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """Pair each arm's ruleset field with its options field, for the template."""
        return [(self[f"arm{i}"], self[f"options{i}"]) for i in range(ARMS)]

    def clean(self) -> dict[str, Any]:
        """Check every arm's ruleset and options, then the whole spec as `study` checks it."""
        data = super().clean()
        arms = []
        for i in range(ARMS):
            arm = self._arm(i, data)
            if arm is not None:
                arms.append(arm)
        bots = self._bots(data, arms) if arms and not self.errors else None
        if bots is None:
            return data
        spec = {
            "name": data.get("name") or " vs ".join(a["label"] for a in arms)[:80],
            "rounds": data["rounds"],
            "seed": data["seed"],
            "bots": bots,
            "shard": WEB_SHARD,
            "arms": arms,
        }
        try:
            self.spec = parse_spec(spec)
        except SpecError as exc:
            raise forms.ValidationError(str(exc)) from exc
        return data

    def _bots(self, data: dict[str, Any], arms: list[dict[str, Any]]) -> str | None:
        """Write the bots as the spec takes them: one name, or one per seat by side (even seats
        one bot, odd seats the other); None (an error at `bots_odd`) where sides are not fixed."""
        even = data["bots"]
        odd = data.get("bots_odd") or even
        if odd == even:
            return str(even)
        rulesets = [load_ruleset(a["ruleset"]).with_options(a["options"]) for a in arms]
        loose = [
            a["ruleset"] for a, rs in zip(arms, rulesets, strict=True) if not rs.has_fixed_teams
        ]
        if loose:
            text = _(
                "两方用不同的机器人，要各组都是对家固定（偶数座位对奇数座位）的规则；%(names)s 不是。"
            )
            self.add_error("bots_odd", text % {"names": "、".join(dict.fromkeys(loose))})
            return None
        players = {rs.players for rs in rulesets}
        if len(players) > 1:
            self.add_error("bots_odd", _("两方用不同的机器人，要各组的人数相同。"))
            return None
        return ",".join(odd if seat % 2 else even for seat in range(players.pop()))

    def _arm(self, i: int, data: dict[str, Any]) -> dict[str, Any] | None:
        name = (data.get(f"arm{i}") or "").strip()
        if not name:
            return None
        if not ruleset_known(name):
            self.add_error(f"arm{i}", _("没有名为“%(name)s”的规则集。") % {"name": name})
            return None
        try:
            options = parse_options(data.get(f"options{i}") or "")
            load_ruleset(name).with_options(options)
        except (ScenarioError, EngineError) as exc:
            english = present.engine_lang() == "en"
            self.add_error(f"options{i}", exc.message_en if english else exc.message)
            return None
        label = name + "".join(f" {k}={v}" for k, v in sorted(options.items()))
        return {"ruleset": name, "options": options, "label": f"{i + 1}. {label}"[:80]}


def form_names(owner: str) -> list[str]:
    """The ruleset names the form offers: every listed one, then this browser's saved ones."""
    saved = list(HouseRuleset.objects.filter(owner=owner).values_list("name", flat=True)[:50])
    return ruleset_names() + saved if owner else ruleset_names()


def initial_arms(query: Any) -> dict[str, str]:
    """Prefill the arms from `?arm=classic&arm=h-…` (a study started from the workshop)."""
    arms = [a for a in query.getlist("arm") if isinstance(a, str)][:ARMS]
    return {f"arm{i}": a[:40] for i, a in enumerate(arms)}


def create(spec: StudySpec, client: str = "") -> Study:
    """Store a new study (no shard played yet)."""
    return Study.objects.create(
        name=spec.name,
        spec=spec.as_dict(),
        engine_version=engine_version()[:40],
        shards_total=spec.shard_count() * len(spec.arms),
        client=client,
    )


def start(form: StudyForm, client: str) -> Study | None:
    """Store the valid form's study for this client; None (the form says why, `refused` set)
    when the client has started its allowance of studies this minute."""
    limit = settings.STUDY_CREATE_PER_MINUTE
    if form.spec is None:
        return None
    if not over_limit(Study, client, limit):
        return create(form.spec, client)
    form.refused = True
    form.add_error(None, _("开研究太频繁：每分钟最多开 %(n)d 个研究，请稍后再试。") % {"n": limit})
    return None


def step(study: Study, budget: float = STEP_SECONDS) -> None:
    """Play the study's next shards for about `budget` seconds, storing each; finish it (its
    report) once every shard is stored. A shard another poll stored first is dropped."""
    if study.finished:
        return
    spec = from_dict(study.spec)
    done = set(study.shards.values_list("arm", "index"))
    start = time.perf_counter()
    for task in make_tasks(spec, done):
        figures, seconds = timed_shard(task)
        # Another poll may have stored this shard first: its row stays, this one is dropped.
        with contextlib.suppress(IntegrityError), transaction.atomic():
            StudyShard.objects.create(
                study=study, arm=task.arm, index=task.index, figures=figures, seconds=seconds
            )
        if time.perf_counter() - start >= budget:
            break
    if study.shards.count() >= study.shards_total:
        shards = {(s.arm, s.index): s.figures for s in study.shards.all()}
        study.report = report(spec, shards)
        study.finished = timezone.now()
        study.save(update_fields=["report", "finished"])


def progress(study: Study) -> dict[str, Any]:
    """How far a study is: shards stored of all, as a share."""
    done = study.shards.count()
    total = study.shards_total or 1
    return {"done": done, "total": study.shards_total, "percent": round(100 * done / total)}


def history() -> list[Study]:
    """The newest studies, finished or not."""
    return list(Study.objects.all()[:HISTORY])


METRIC_LABELS = {
    "banker_hold_rate": gettext_lazy("庄家保庄率"),
    "kitty_bonus_rate": gettext_lazy("抠底率"),
    "surrender_rate": gettext_lazy("投降率"),
    "attacker_points": gettext_lazy("闲家平均得分"),
    "levels_gained": gettext_lazy("每局升级数"),
    "match_length": gettext_lazy("每场局数"),
}


def metric_label(name: str) -> str:
    """Name a report metric in the page's language."""
    return str(METRIC_LABELS.get(name, name))


def to_csv(study: Study) -> str:
    """Write a finished study's report as CSV: one row per arm and metric, then the differences."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["kind", "arm", "other", "metric", "value", "ci95_low", "ci95_high", "flag"])
    rep = study.report or {"arms": [], "differences": []}
    names = [n for n, *_x in RATES] + [n for n, *_x in MEANS]
    for arm in rep["arms"]:
        writer.writerow(["arm", arm["label"], "", "rounds", arm["rounds"], "", "", ""])
        writer.writerow(
            ["arm", arm["label"], "", "illegal_plays", arm["illegal_plays"], "", "", ""]
        )
        for name in names:
            if name in arm:
                low, high = arm[name]["ci95"]
                writer.writerow(["arm", arm["label"], "", name, arm[name]["value"], low, high, ""])
    for d in rep["differences"]:
        low, high = d["ci95"]
        flag = "significant" if d["significant"] else ""
        writer.writerow(["difference", d["b"], d["a"], d["metric"], d["diff"], low, high, flag])
    return out.getvalue()


def report_context(study: Study) -> dict[str, Any]:
    """A study's page: its spec, its progress, and once finished its report drawn as tables and
    SVG charts (histograms; bars with 95% error bars) with every between-arm difference."""
    from checker.web import studycharts

    spec = from_dict(study.spec)
    rep = study.report
    context: dict[str, Any] = {
        "nav": "studies",
        "study": study,
        "spec": spec,
        "progress": progress(study),
        "report": rep,
    }
    if rep:
        arms = rep["arms"]
        metrics = [n for n, *_x in RATES] + [n for n, *_x in MEANS]
        context["rows"] = [
            {
                "label": metric_label(m),
                "cells": [
                    studycharts.interval_cell(a[m], m.endswith("_rate")) if m in a else None
                    for a in arms
                ],
            }
            for m in metrics
            if any(m in a for a in arms)
        ]
        context["histograms"] = studycharts.histograms(arms)
        context["charts"] = [
            {**chart, "title": metric_label(chart["metric"])}
            for m in ("banker_hold_rate", "attacker_points", "levels_gained", "kitty_bonus_rate")
            if (chart := studycharts.interval_bars(arms, m)) is not None
        ]
        context["differences"] = [
            {**studycharts.difference_words(d), "label": metric_label(d["metric"])}
            for d in rep["differences"]
        ]
    return context
