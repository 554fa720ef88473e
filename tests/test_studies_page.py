"""The studies page (/studies/): a bounded study started from the browser, played in shards by
htmx polls and stored as it goes, its report with SVG charts, CSV and JSON (issue 27.4)."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from checker.lab.run import report
from checker.lab.shards import make_tasks, run_shard
from checker.lab.spec import from_dict
from checker.models import Study, StudyShard
from checker.web import studiespage

pytestmark = pytest.mark.django_db

GOOD = {"arm0": "classic", "arm1": "terminal-003", "bots": "random", "rounds": "40", "seed": "3"}


def start(client: Client, **changes: str) -> Study:
    response = client.post("/studies/", {**GOOD, **changes})
    assert response.status_code == 302, response.content.decode()[:2000]
    pk = int(re.search(r"/studies/(\d+)/", response["Location"]).group(1))  # type: ignore[union-attr]
    return Study.objects.get(pk=pk)


def run_to_the_end(client: Client, study: Study) -> int:
    """Poll as the page does until the study is finished; return the number of polls."""
    for polls in range(1, 200):
        response = client.post(f"/studies/{study.pk}/run", headers={"HX-Request": "true"})
        if response.status_code == 204:
            assert response["HX-Redirect"] == f"/studies/{study.pk}/"
            return polls
        assert response.status_code == 200
        assert 'data-testid="progress"' in response.content.decode()
    raise AssertionError("the study did not finish")


def test_the_form_and_a_prefilled_study_from_the_workshop() -> None:
    html = Client().get("/studies/?arm=classic&arm=terminal-003").content.decode()
    assert 'name="arm0"' in html and 'value="classic"' in html and 'value="terminal-003"' in html
    assert 'name="rounds"' in html and 'max="5000"' in html and 'name="seed"' in html
    assert '<datalist id="ruleset-names">' in html


def test_a_study_plays_in_polls_and_reports_what_the_lab_reports() -> None:
    client = Client()
    study = start(client)
    assert study.shards_total == 4 and study.spec["shard"] == studiespage.WEB_SHARD
    page = client.get(f"/studies/{study.pk}/").content.decode()
    assert f'hx-post="/studies/{study.pk}/run"' in page and 'data-testid="progress"' in page
    assert run_to_the_end(client, study) >= 1
    study.refresh_from_db()
    assert study.finished is not None and StudyShard.objects.filter(study=study).count() == 4
    spec = from_dict(study.spec)
    shards = {(t.arm, t.index): run_shard(t) for t in make_tasks(spec)}
    assert study.report == report(spec, shards)  # the command's figures, played here
    html = client.get(f"/studies/{study.pk}/").content.decode()
    assert 'data-testid="report"' in html and "hx-post" not in html
    assert html.count('data-testid="histogram"') == 2
    assert 'data-metric="banker_hold_rate"' in html and "<line" in html  # error bars
    hold = re.search(
        r'data-metric="banker_hold_rate">.*?diff-value">([^<]+)<.*?diff-ci">([^<]+)<', html, re.S
    )
    assert hold is not None and hold.group(1).endswith("%") and hold.group(2).startswith("[")


def test_csv_and_json_downloads() -> None:
    client = Client()
    study = start(client)
    assert client.get(f"/studies/{study.pk}/report.json").status_code == 404  # not finished
    run_to_the_end(client, study)
    data = client.get(f"/studies/{study.pk}/report.json").json()
    assert set(data) == {"study", "arms", "differences", "id"}
    arm = data["arms"][0]
    assert arm["rounds"] == 40 and arm["illegal_plays"] == 0
    assert set(arm["banker_hold_rate"]) >= {"value", "ci95"}
    assert {"a", "b", "metric", "diff", "ci95", "significant"} <= set(data["differences"][0])
    text = client.get(f"/studies/{study.pk}/report.csv").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:4] == ["kind", "arm", "other", "metric"]
    assert any(r[0] == "difference" and r[3] == "banker_hold_rate" for r in rows)


def test_a_poll_plays_only_what_is_not_stored_so_a_restart_goes_on() -> None:
    study = start(Client())
    studiespage.step(study, budget=0.0)  # one shard, as a server that stops after it
    assert study.shards.count() == 1
    again = Study.objects.get(pk=study.pk)  # a fresh process reads the study back
    studiespage.step(again, budget=0.0)
    assert again.shards.count() == 2
    assert again.finished is None


def test_without_javascript_a_button_plays_on_and_comes_back() -> None:
    client = Client()
    study = start(client)
    response = client.post(f"/studies/{study.pk}/run")
    assert response.status_code == 302 and response["Location"] == f"/studies/{study.pk}/"
    assert study.shards.count() >= 1


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"arm1": "nosuch"}, "nosuch"),
        ({"rounds": "1000000"}, "5000"),
        ({"rounds": "0"}, "1"),
        ({"seed": "-4"}, "0"),
        ({"bots": "wizard"}, "wizard"),
        ({"options0": "hold_banker:sometimes"}, "hold_banker"),
        ({"options0": "nonsense"}, "nonsense"),
        ({"arm0": "", "arm1": ""}, "必填"),
    ],
)
def test_bad_input_is_a_message_and_nothing_is_stored(changes: dict[str, str], words: str) -> None:
    response = Client().post("/studies/", {**GOOD, **changes})
    html = response.content.decode()
    assert response.status_code == 200
    errors = re.findall(r'data-testid="(?:field|form)-error">([^<]*)<', html)
    assert any(words in e for e in errors), errors
    assert Study.objects.count() == 0


def test_a_study_of_a_saved_workshop_ruleset() -> None:
    from tests.test_workshop import save, seed_003_data

    client = Client()
    name = save(client, seed_003_data())
    saved_page = client.get(f"/rulesets/new/?base=classic&saved={name}").content.decode()
    assert f"/studies/?arm=classic&amp;arm={name}" in saved_page
    assert f'value="{name}"' in client.get(f"/studies/?arm=classic&arm={name}").content.decode()
    study = start(client, arm1=name)
    assert study.spec["arms"][1]["ruleset_text"]  # the study keeps the ruleset's text
    run_to_the_end(client, study)
    study.refresh_from_db()
    assert study.report is not None and study.report["arms"][1]["ruleset"] == name


def test_the_simulation_page_stays_and_leads_to_the_studies() -> None:
    html = Client().get("/simulation/").content.decode()
    assert 'href="/studies/"' in html


def test_unknown_studies_are_404() -> None:
    client = Client()
    assert client.get("/studies/999/").status_code == 404
    assert client.post("/studies/999/run").status_code == 404
    assert client.get("/studies/999/report.csv").status_code == 404


def test_a_study_spec_names_a_saved_ruleset_and_carries_its_text() -> None:
    from checker.lab.spec import parse_spec
    from tests.test_workshop import save, seed_003_data

    name = save(Client(), seed_003_data())
    spec = parse_spec({"rounds": 20, "bots": "random", "arms": [{"ruleset": name}]})
    ruleset = spec.arms[0].ruleset
    assert isinstance(ruleset, tuple) and ruleset[0] == name  # workers need no database
    assert "bands:" in ruleset[1] and "extends" not in ruleset[1]


@override_settings(STUDY_CREATE_PER_MINUTE=2)
def test_starting_studies_is_limited_per_client_with_a_429_in_both_languages() -> None:
    client = Client()
    for _ in range(2):
        start(client)
    refused = client.post("/studies/", GOOD)
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    html = refused.content.decode()
    assert "每分钟最多开 2 个研究" in html and 'value="terminal-003"' in html  # the form stays
    client.cookies["lang"] = "en"
    english = client.post("/studies/", GOOD)
    assert english.status_code == 429 and "at most 2 studies a minute" in english.content.decode()
    assert Study.objects.count() == 2
    start(Client(REMOTE_ADDR="10.1.2.3"))  # another client may
    Study.objects.update(created=timezone.now() - timedelta(minutes=2))
    start(client)  # a minute later this one may again
    assert Study.objects.count() == 4


@override_settings(STUDY_CREATE_PER_MINUTE=1)
def test_a_refused_study_form_is_still_checked_first() -> None:
    client = Client()
    start(client)
    bad = client.post("/studies/", {**GOOD, "rounds": "5001"})
    assert bad.status_code == 200 and "5000" in bad.content.decode()  # the field error, not 429


def test_the_page_bounds_the_study_size() -> None:
    """At most 5,000 rounds per arm and 4 arms: a fifth arm posted by hand is not read."""
    extra = {"arm2": "classic", "arm3": "terminal-003", "arm4": "classic", "arm5": "classic"}
    study = start(Client(), rounds=str(studiespage.MAX_WEB_ROUNDS), **extra)
    assert len(study.spec["arms"]) == studiespage.ARMS == 4
    assert study.spec["rounds"] == 5000


def test_each_side_may_play_its_own_bot() -> None:
    client = Client()
    html = client.get("/studies/").content.decode()
    assert 'name="bots"' in html and 'name="bots_odd"' in html
    study = start(client, bots="greedy", bots_odd="random")
    assert study.spec["bots"] == "greedy,random,greedy,random"
    task = make_tasks(from_dict(study.spec))[0]
    assert task.bots == "greedy,random,greedy,random"  # the shards play it seat by seat
    run_to_the_end(client, study)
    study.refresh_from_db()
    assert study.report is not None and study.report["arms"][0]["illegal_plays"] == 0
    same = start(client, bots="greedy", bots_odd="greedy")
    assert same.spec["bots"] == "greedy"  # the same bot on both sides is one name
    left_out = start(client, bots="greedy")
    assert left_out.spec["bots"] == "greedy"  # no second side: every seat the same


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"bots_odd": "wizard"}, "wizard"),
        ({"arm1": "erqiwang", "bots_odd": "greedy"}, "erqiwang"),  # the banker plays alone
    ],
)
def test_a_side_bot_is_checked(changes: dict[str, str], words: str) -> None:
    response = Client().post("/studies/", {**GOOD, **changes})
    errors = re.findall(r'data-testid="field-error">([^<]*)<', response.content.decode())
    assert any(words in e for e in errors), errors
    assert Study.objects.count() == 0


def test_the_side_bot_error_in_english() -> None:
    client = Client()
    client.cookies["lang"] = "en"
    response = client.post("/studies/", {**GOOD, "arm1": "erqiwang", "bots_odd": "greedy"})
    html = response.content.decode()
    assert "fixed partners" in html and "erqiwang" in html
