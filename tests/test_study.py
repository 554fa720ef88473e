"""Balance studies (issue 27): specs checked before anything runs, seeded shards whose sums do
not depend on the workers, shards stored as they finish, --resume, and a real `dask scheduler`
with two `dask worker` processes on loopback giving the embedded run's figures."""

from __future__ import annotations

import json
import socket
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from checker.lab.report import differences, mean, rate
from checker.lab.run import report, run_study
from checker.lab.shards import add, empty, make_tasks, run_shard
from checker.lab.spec import SpecError, parse_spec, read_spec
from checker.models import Study, StudyShard
from checker.perf.studybench import dask_processes
from checker.play.cluster import open_client
from checker.play.simulation import simulate

ROOT = Path(__file__).resolve().parent.parent
SPEC = {
    "name": "tiny",
    "rounds": 24,
    "seed": 5,
    "bots": "random",
    "shard": 5,
    "arms": [{"ruleset": "classic"}, {"ruleset_file": "rulesets/house/terminal-003.yaml"}],
}


def threads_client() -> Any:
    """A Dask client on worker threads in this process: quick to start, for the lab's tests."""
    return open_client(2, processes=False)


def _write_spec(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")  # JSON is YAML
    return path


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"rounds": -5}, "rounds: -5 must be a whole number from 1"),
        ({"rounds": 10**12}, "rounds: 1000000000000 must be a whole number"),
        ({"matches": 3}, "either rounds or matches"),
        ({"bots": "nobot"}, "unknown bot 'nobot'"),
        ({"arms": [{"ruleset": "nosuch"}]}, "arms[0].ruleset: unknown ruleset “nosuch”"),
        (
            {"arms": [{"ruleset": "classic", "options": {"bogus": 1}}]},
            "arms[0].options: ruleset classic has no option “bogus”",
        ),
        ({"arms": [{"ruleset": "classic"}, {"ruleset": "classic"}]}, "same label"),
        ({"arms": []}, "arms: must be a list"),
        ({"colour": "red"}, "unknown keys colour"),
        ({"seed": -1}, "seed: -1"),
    ],
)
def test_a_bad_spec_names_what_and_where(change: dict[str, Any], words: str) -> None:
    with pytest.raises(SpecError) as caught:
        parse_spec({**SPEC, **change}, base=ROOT)
    assert words in str(caught.value)


def test_an_invalid_ruleset_file_is_named_with_its_key_path(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: classic\nname: bad-x\ntitle: x\nscore: {step: zero}\n", "utf-8")
    with pytest.raises(SpecError) as caught:
        read_spec(_write_spec(tmp_path, {**SPEC, "arms": [{"ruleset_file": str(bad)}]}))
    assert "arms[0].ruleset_file" in str(caught.value) and "score.step" in str(caught.value)


@pytest.mark.django_db
def test_bad_input_exits_2_and_stores_nothing(tmp_path: Path) -> None:
    path = _write_spec(tmp_path, {**SPEC, "bots": "nobot"})
    err = StringIO()
    with pytest.raises(SystemExit) as stop:
        call_command("study", str(path), "--no-progress", stdout=StringIO(), stderr=err)
    assert stop.value.code == 2 and "unknown bot 'nobot'" in err.getvalue()
    with pytest.raises(SystemExit) as stop:
        call_command(
            "study",
            str(_write_spec(tmp_path, SPEC)),
            "--scheduler",
            f"tcp://127.0.0.1:{_free_port()}",
            "--no-progress",
            stdout=StringIO(),
            stderr=err,
        )
    assert stop.value.code == 2 and "cannot reach the Dask scheduler" in err.getvalue()
    assert not Study.objects.exists()


def test_shards_add_up_to_one_run_whatever_the_cut() -> None:
    spec = parse_spec(SPEC, base=ROOT)
    whole = parse_spec({**SPEC, "shard": 24}, base=ROOT)
    cut = [run_shard(t) for t in make_tasks(spec) if t.arm == 0]
    one = run_shard(make_tasks(whole)[0])
    total = empty()
    for part in reversed(cut):  # any order
        add(total, part)
    assert total == one and total["rounds"] == 24
    # the same deals as `simulate` with the same seed
    plain = simulate("classic", "random", 24, 5, log=False).as_dict()
    assert total["illegal_plays"] == plain["illegal_plays"] == 0
    assert total["banker_wins"] == plain["winners"].get("banker", 0)
    assert total["points"] == round(plain["avg_attacker_points"] * 24)


def test_intervals_and_differences() -> None:
    assert rate(50, 100)["ci95"] == [0.402, 0.598]
    assert mean(10, 50, 2)["value"] == 5.0 and mean(10, 50, 2)["ci95"] == [5.0, 5.0]
    arms = [
        {"label": "a", "banker_hold_rate": rate(30, 1000)},
        {"label": "b", "banker_hold_rate": rate(60, 1000)},
        {"label": "c", "banker_hold_rate": rate(31, 1000)},
    ]
    found = {(d["a"], d["b"]): d for d in differences(arms)}
    assert found[("a", "b")]["significant"] and found[("a", "b")]["diff"] == 0.03
    assert not found[("a", "c")]["significant"]
    low, high = found[("a", "c")]["ci95"]
    assert low < 0 < high


@pytest.mark.django_db
def test_a_stopped_study_resumes_and_loses_only_unfinished_shards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from checker.management.commands import study as command

    monkeypatch.setattr(command, "open_client", lambda workers, scheduler: threads_client())
    spec = parse_spec(SPEC, base=ROOT)
    path = _write_spec(tmp_path, SPEC)
    real_store = command.Command._store
    stored = []

    def stopping_store(self: Any, study: Any) -> Any:
        store = real_store(self, study)

        def once(task: Any, figures: Any, seconds: float) -> None:
            if len(stored) == 3:
                raise KeyboardInterrupt  # as if the study were killed here
            store(task, figures, seconds)
            stored.append(task)

        return once

    monkeypatch.setattr(command.Command, "_store", stopping_store)
    err = StringIO()
    with pytest.raises(SystemExit) as stop:
        call_command("study", str(path), "--no-progress", stdout=StringIO(), stderr=err)
    study = Study.objects.get()
    assert stop.value.code == 130
    assert f"3 of 10 shards stored; go on with --resume {study.pk}" in err.getvalue()
    assert study.shards.count() == 3 and study.finished is None
    monkeypatch.setattr(command.Command, "_store", real_store)
    out = StringIO()
    call_command(
        "study",
        "--resume",
        str(study.pk),
        "--format",
        "json",
        "--no-progress",
        stdout=out,
        stderr=StringIO(),
    )
    resumed = json.loads(out.getvalue())
    assert StudyShard.objects.filter(study=study).count() == 10
    with threads_client() as client:
        fresh = report(spec, run_study(spec, client, lambda *a: None))
    assert resumed["arms"] == fresh["arms"] and resumed["differences"] == fresh["differences"]
    assert resumed["arms"][0]["illegal_plays"] == 0
    assert {"value", "ci95"} <= set(resumed["arms"][1]["banker_hold_rate"])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.django_db
def test_a_dask_scheduler_with_two_workers_gives_the_embedded_figures(tmp_path: Path) -> None:
    path = _write_spec(tmp_path, {**SPEC, "rounds": 120, "shard": 20})
    runs = []
    with dask_processes() as address:
        out = StringIO()
        call_command(
            "study",
            str(path),
            "--scheduler",
            address,
            "--format",
            "json",
            "--no-progress",
            stdout=out,
            stderr=StringIO(),
        )
        runs.append(json.loads(out.getvalue()))
    out = StringIO()
    call_command(
        "study",
        str(path),
        "--workers",
        "1",
        "--format",
        "json",
        "--no-progress",
        stdout=out,
        stderr=StringIO(),
    )
    runs.append(json.loads(out.getvalue()))
    cluster, embedded = runs
    assert cluster["arms"] == embedded["arms"] and cluster["differences"] == embedded["differences"]
    assert cluster["arms"][0]["rounds"] == 120 and cluster["arms"][0]["illegal_plays"] == 0
    assert Study.objects.count() == 2 and StudyShard.objects.count() == 2 * 12
