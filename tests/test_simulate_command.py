"""manage.py simulate / replay and the 模拟 page."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from checker.engine.ruleset import load_ruleset, ruleset_names
from checker.models import SimulationRun


def _simulate(*args: str) -> str:
    out, err = StringIO(), StringIO()
    call_command("simulate", *args, "--no-progress", stdout=out, stderr=err)
    return out.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ruleset_names())
def test_simulate_stores_a_clean_run_and_replays(name: str, tmp_path: Path) -> None:
    log = tmp_path / f"{name}.jsonl"
    text = _simulate("--ruleset", name, "--rounds", "20", "--seed", "4", "--log", str(log))
    assert "illegal plays      0" in text
    assert "invariant breaks   0" in text
    assert "rounds/s" in text
    run = SimulationRun.objects.get(ruleset=name)
    assert run.rounds == 20 and run.seed == 4 and run.illegal_plays == 0 and run.clean
    assert run.summary["rounds"] == 20 and sum(run.summary["outcomes"].values()) == 20
    assert run.engine_version
    lines = log.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["t"] == "header"
    assert all(json.loads(line) for line in lines)
    out = StringIO()
    call_command("replay", str(log), stdout=out)
    assert "diffs      0" in out.getvalue()
    out = StringIO()
    call_command("replay", str(log), "--resimulate", stdout=out)
    assert "diffs      0" in out.getvalue()


@pytest.mark.django_db
def test_no_store_and_json_summary() -> None:
    text = _simulate("--rounds", "5", "--seed", "2", "--no-store", "--json", "--players", "greedy")
    summary = json.loads(text)
    assert summary["rounds"] == 5 and summary["illegal_plays"] == 0
    assert summary["players"] == "greedy"
    assert {
        "throws_tried",
        "throws_failed",
        "avg_attacker_points",
        "outcomes",
        "rounds_per_s",
    } <= set(summary)
    assert not SimulationRun.objects.exists()


def test_same_seed_same_log_file_and_jobs_do_not_matter(tmp_path: Path) -> None:
    logs = []
    for i, jobs in enumerate(("1", "1", "2")):
        path = tmp_path / f"{i}.jsonl"
        _simulate("--rounds", "8", "--seed", "9", "--log", str(path), "--jobs", jobs, "--no-store")
        logs.append(path.read_bytes())
    assert logs[0] == logs[1] == logs[2]


def test_replay_exits_1_on_a_difference(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    _simulate("--rounds", "3", "--seed", "6", "--log", str(path), "--no-store")
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        event = json.loads(line)
        if event["t"] == "end":
            event["result"] = "nonsense"
            lines[i] = json.dumps(event, ensure_ascii=False)
            break
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("replay", str(path), stdout=out)
    assert exc.value.code == 1
    assert "result logged 'nonsense'" in out.getvalue()


def test_bad_arguments() -> None:
    with pytest.raises(CommandError):
        _simulate("--ruleset", "nope", "--no-store")
    with pytest.raises(CommandError):
        call_command("replay", "/nonexistent/log.jsonl")


@pytest.mark.django_db
def test_simulation_page_shows_latest_run_per_ruleset_and_history() -> None:
    _simulate("--ruleset", "classic", "--rounds", "3", "--seed", "1")
    _simulate("--ruleset", "classic", "--rounds", "4", "--seed", "2")
    client = Client(HTTP_HOST="127.0.0.1")
    response = client.get("/simulation/")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('data-testid="sim-ruleset"') == len(ruleset_names())
    assert 'data-testid="sim-chart"' in html
    assert html.count('data-testid="sim-none"') == len(ruleset_names()) - 1
    # the latest classic run (4 rounds) is the one shown; the history lists both
    assert '<dd data-testid="sim-rounds">4</dd>' in html
    assert html.count("<tr>") == 1 + 2
    assert client.post("/simulation/").status_code == 405


def test_progress_goes_to_stderr_and_ends_at_the_total() -> None:
    out, err = StringIO(), StringIO()
    call_command("simulate", "--rounds", "20", "--seed", "1", "--no-store", stdout=out, stderr=err)
    last = err.getvalue().replace("\r", "\n").strip().splitlines()[-1]
    assert "100%" in last and "20/20" in last and "round" in last
    assert "rounds/s" in out.getvalue() and "20/20" not in out.getvalue()


@pytest.mark.django_db
def test_dashboard_shows_the_latest_simulation_run_of_its_ruleset(client) -> None:  # type: ignore[no-untyped-def]
    call_command(
        "simulate",
        "--ruleset",
        "classic",
        "--rounds",
        "3",
        "--seed",
        "7",
        "--no-progress",
        stdout=StringIO(),
        stderr=StringIO(),
    )
    page = client.get("/").content.decode()
    assert 'data-testid="dashboard-sim"' in page
    assert "最近一次 3 局，非法出牌 0，不变量违例 0" in page
    assert "/simulation/" in page


@pytest.mark.django_db
@pytest.mark.parametrize("name", ruleset_names())
def test_simulate_matches_summary_and_json(name: str) -> None:
    text = _simulate("--ruleset", name, "--matches", "3", "--seed", "2", "--no-store")
    assert "matches            3   finished 3" in text
    assert "rounds per match" in text and "wins" in text
    assert "illegal plays      0" in text and "invariant breaks   0" in text
    data = json.loads(
        _simulate(
            "--ruleset", name, "--matches", "3", "--seed", "2", "--no-store", "--format", "json"
        )
    )
    assert {"rounds", "matches", "illegal_plays", "invariant_breaks"} <= set(data)
    assert data["matches"]["matches"] == 3 and len(data["matches"]["lengths"]) == 3
    assert sum(data["matches"]["lengths"]) == data["rounds"]
    assert data["illegal_plays"] == 0 and data["invariant_breaks"] == 0
    assert len(data["matches"]["chips_per_seat"]) == load_ruleset(name).players


@pytest.mark.django_db
def test_simulate_rounds_json_has_the_top_level_fields() -> None:
    data = json.loads(_simulate("--rounds", "3", "--seed", "2", "--no-store", "--format", "json"))
    assert {"rounds", "illegal_plays", "invariant_breaks"} <= set(data) and "matches" not in data


@pytest.mark.django_db
def test_simulate_matches_log_replays(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    _simulate(
        "--ruleset", "erqiwang", "--matches", "2", "--seed", "3", "--no-store", "--log", str(log)
    )
    head = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert head["matches"] == 2
    out = StringIO()
    call_command("replay", str(log), stdout=out)
    assert "diffs      0" in out.getvalue()


@pytest.mark.django_db
def test_simulation_page_shows_match_runs_with_a_length_chart() -> None:
    client = Client(HTTP_HOST="127.0.0.1")
    assert 'data-testid="sim-matches-none"' in client.get("/simulation/").content.decode()
    _simulate("--ruleset", "shuangsheng", "--matches", "3", "--seed", "5")
    _simulate("--ruleset", "erqiwang", "--matches", "2", "--seed", "5")
    page = client.get("/simulation/").content.decode()
    assert page.count('data-testid="sim-match-ruleset"') == 2
    run = SimulationRun.objects.get(ruleset="shuangsheng")
    lengths = run.summary["matches"]["lengths"]
    assert f"{min(lengths)}–{max(lengths)}" in page
    card = page.split('data-testid="sim-match-ruleset" data-ruleset="shuangsheng"')[1]
    chart = card.split('data-testid="sim-match-chart"')[1].split("</svg>")[0]
    bars = run.summary["matches"]["length_histogram"]
    assert chart.count("<rect") == len(bars)
    assert "<script" not in page.split('data-testid="sim-matches"')[1].split("</section>")[0]
    client.post("/i18n/setlang/", {"language": "en", "next": "/simulation/"})
    english = client.get("/simulation/").content.decode()
    assert "Whole matches" in english and "Rounds per match" in english
    assert "整场模拟" not in english
