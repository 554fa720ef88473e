"""The workshop (/rulesets/new/): a ruleset derived from a base in a typed form, previewed live,
saved under a key-like name that then works wherever a ruleset name does (issue 27.2)."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from django.test import Client

from checker.engine.errors import RulesetError
from checker.engine.ruleset import add_ruleset_lookup, load_ruleset, ruleset_known
from checker.engine.scoring import score_round
from checker.models import HouseRuleset
from checker.web.workshopform import BAND_ROWS, Draft

pytestmark = pytest.mark.django_db

# Seed 003's LEVEL_UP_RULES [(0, 3), (40, 2), (80, 1), (120, 0)] as rows (terminal-003.yaml).
SEED_003_BANDS = [
    (0, "banker", 3, "big_sweep"),
    (40, "banker", 2, "small_sweep"),
    (80, "banker", 1, "hold"),
    (120, "attackers", 0, "swap"),
]
# A level case of classic whose verdict seed 003's table changes (5 points: banker rises 2 in
# classic's table, 3 in seed 003's).
CHANGED_CASE = "classic-score-5pts-banker2-att3"


def workshop_data(
    base: str = "classic", bands: list[tuple[Any, ...]] | None = None, **changes: Any
) -> dict[str, Any]:
    """The workshop form as a browser posts it: the base's values, the rows, some changes."""
    rs = load_ruleset(base)
    draft = Draft(rs, rs, None)
    data: dict[str, Any] = {}
    for name, field in draft.form.fields.items():
        value = field.initial
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, list):
            data[name] = value
        else:
            data[name] = "" if value is None else str(value)
    data.update(
        {
            "bands-TOTAL_FORMS": str(BAND_ROWS),
            "bands-INITIAL_FORMS": "0",
            "bands-MIN_NUM_FORMS": str(BAND_ROWS),
            "bands-MAX_NUM_FORMS": str(BAND_ROWS),
        }
    )
    rows = bands if bands is not None else [tuple(r.values()) for r in draft.bands.initial or []]
    for i, row in enumerate(rows):
        for key, value in zip(("low", "winner", "rise", "result"), row, strict=True):
            data[f"bands-{i}-{key}"] = "" if value is None else str(value)
    data.update(changes)
    return data


def seed_003_data(bands: list[tuple[Any, ...]] | None = None, **changes: Any) -> dict[str, Any]:
    """Classic with seed 003's level table, nobody declares → no-trump, no mandatory levels."""
    return workshop_data(
        bands=bands or SEED_003_BANDS,
        declare__nobody="no_trump",
        score__mandatory_levels=[],
        title="终端版升级（工坊）",
        title_en="Terminal Tractor (workshop)",
        **changes,
    )


def save(client: Client, data: dict[str, Any]) -> str:
    """Save a draft; return the new ruleset's name."""
    response = client.post("/rulesets/new/?base=classic", {**data, "action": "save"})
    assert response.status_code == 302, response.content.decode()[:2000]
    found = re.search(r"saved=(h-[a-z0-9]{8})", response["Location"])
    assert found is not None
    return found.group(1)


def field_errors(html: str) -> list[str]:
    return re.findall(r'data-testid="field-error">([^<]*)<', html)


def test_the_form_offers_every_field_with_help_and_six_band_rows() -> None:
    html = Client().get("/rulesets/new/?base=classic").content.decode()
    for name in (
        "decks",
        "kitty_size",
        "throw__suits",
        "throw__failed",
        "kitty__policy",
        "kitty__values__pair",
        "kitty__requires_trump",
        "score__step",
        "score__swap_at",
        "score__mandatory_levels",
        "declare__nobody",
        "option__hold_banker",
        "option__ruff_tiebreak",
    ):
        assert f'name="{name}"' in html, name
    assert 'type="number"' in html and 'type="checkbox"' in html and "<select" in html
    assert html.count('data-testid="band-row"') == BAND_ROWS
    assert "上台线" in html and "闲家拿到这么多分就上台" in html
    assert 'action="/rulesets/new/?base=classic"' in html  # the real form action
    assert 'hx-post="/rulesets/new/?base=classic"' in html


def test_english_help_and_a_base_with_its_own_bands() -> None:
    client = Client()
    client.cookies["lang"] = "en"
    html = client.get("/rulesets/new/?base=terminal-003").content.decode()
    assert "Takeover line" in html and "Attackers&#x27; points from" in html
    assert 'name="bands-3-low" value="120"' in html  # the base's table, prefilled


def test_an_unknown_base_is_a_clear_404() -> None:
    response = Client().get("/rulesets/new/?base=nosuch")
    assert response.status_code == 404
    assert "nosuch" in response.content.decode()


def test_the_live_preview_shows_rules_yaml_diff_and_changed_cases() -> None:
    response = Client().post(
        "/rulesets/new/?base=classic", seed_003_data(), headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="ws-preview"')  # the partial only
    assert CHANGED_CASE in html
    changed = int(re.search(r"判定改变的用例：(\d+)", html).group(1))  # type: ignore[union-attr]
    assert changed >= 10
    assert "extends: classic" in html and "bands:" in html and "nobody: no_trump" in html
    assert '<span class="add">+  nobody: no_trump</span>' in html
    assert 'data-testid="score-bands"' in html  # the derived rules page draws the table
    assert HouseRuleset.objects.count() == 0


def test_the_yaml_writes_only_what_changes() -> None:
    rs = load_ruleset("classic")
    draft = Draft(rs, rs, workshop_data(option__hold_banker="same", score__mandatory_levels=[]))
    assert draft.is_valid()
    data = yaml.safe_load(draft.text)
    assert data["extends"] == "classic"
    assert data["options"] == {"hold_banker": {"default": "same"}}
    assert data["score"] == {"mandatory_levels": []}
    assert set(data) == {"extends", "name", "title", "title_en", "options", "score"}
    assert draft.ruleset is not None and draft.ruleset.option("hold_banker") == "same"


def test_a_band_out_of_order_shows_the_engines_key_path_at_its_row() -> None:
    bands = [*SEED_003_BANDS]
    bands[1] = (0, "banker", 2, "small_sweep")
    response = Client().post(
        "/rulesets/new/?base=classic", seed_003_data(bands=bands, action="save")
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert any("score.bands[1].from" in e for e in field_errors(html)), field_errors(html)
    assert HouseRuleset.objects.count() == 0


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"decks": "99"}, "decks", "4"),
        ({"kitty_size": "7"}, "kitty_size", "不能平分"),
        ({"score__step": "zero"}, "score__step", "整数"),
        ({"throw__suits": "hearts"}, "throw__suits", "hearts"),
        ({"title": ""}, "title", "必填"),
        ({"bands-0-low": "0", "bands-0-winner": "banker"}, "bands", "四格"),
        (
            {
                "bands-0-rise": "-2",
                "bands-0-low": "0",
                "bands-0-winner": "banker",
                "bands-0-result": "hold",
            },
            "bands",
            "0",
        ),
        (
            {
                "bands-0-low": "0",
                "bands-0-winner": "banker",
                "bands-0-rise": "1",
                "bands-0-result": "swap",
            },
            "bands",
            "swap",
        ),
    ],
)
def test_bad_input_is_a_message_per_field_and_nothing_is_stored(
    changes: dict[str, str], field: str, words: str
) -> None:
    response = Client().post(
        "/rulesets/new/?base=classic", {**workshop_data(), **changes, "action": "save"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    errors = field_errors(html)
    assert any(words in e for e in errors), errors
    if field != "bands":
        assert re.search(rf'data-field="{field}"[^>]*>|has-error" data-field="{field}"', html)
    assert HouseRuleset.objects.count() == 0


def test_the_htmx_preview_lists_the_errors_instead_of_a_preview() -> None:
    data = {**workshop_data(), "kitty_size": "7"}
    html = Client().post("/rulesets/new/?base=classic", data, headers={"HX-Request": "true"})
    text = html.content.decode()
    assert 'data-testid="preview-errors"' in text and "底牌张数" in text
    assert 'data-testid="changed-cases"' not in text


def test_saving_stores_the_ruleset_for_the_owner_cookie() -> None:
    client = Client()
    name = save(client, seed_003_data())
    stored = HouseRuleset.objects.get(name=name)
    assert stored.owner == client.cookies["table"].value
    assert stored.base == "classic" and "extends: classic" in stored.text
    rs = load_ruleset(name)
    assert rs.extends == "classic" and [b.low for b in rs.score.bands] == [0, 40, 80, 120]
    page = client.get(f"/rulesets/new/?base=classic&saved={name}").content.decode()
    assert 'data-testid="saved"' in page and CHANGED_CASE in page
    assert f"/cases/{name}/{CHANGED_CASE}/" in page  # the new column's cells link now
    assert f"arm=classic&amp;arm={name}" in page  # a study of it starts from here
    assert name in client.get("/rulesets/new/?base=classic").content.decode()  # "your rulesets"


def test_a_saved_name_works_wherever_a_ruleset_name_does() -> None:
    client = Client()
    name = save(client, seed_003_data())
    scenario = "level=2&trump=H&lead=SA+SA&h1=SK+SK+S3&p1=SK+S3"
    assert client.get(f"/rulesets/{name}/").status_code == 200
    check = client.get(f"/check/?ruleset={name}&{scenario}").content.decode()
    assert f'value="{name}" selected' in check or f'"{name}"' in check
    api = client.get(f"/api/check?ruleset={name}&{scenario}")
    assert api.status_code == 200 and api.json()["follows"][0]["legal"] is False
    selfcheck = client.get(f"/rulesets/{name}/selfcheck/").content.decode()
    assert CHANGED_CASE in selfcheck
    case = client.get(f"/cases/{name}/{CHANGED_CASE}/")
    assert case.status_code == 200
    matrix = client.get(f"/matrix/?ruleset={name}&{scenario}").content.decode()
    assert f'data-ruleset="{name}"' in matrix
    lobby = client.get(f"/play/?seat=0&ruleset={name}")
    assert lobby.status_code == 200 and f'value="{name}" selected' in lobby.content.decode()
    game = client.post("/play/", {"ruleset": name, "seat": "0", "seed": "3", "bots": "random"})
    assert game.status_code == 303, game.content.decode()[:500]


def test_a_ruleset_derived_from_a_saved_one_is_judged_by_the_root_cases() -> None:
    client = Client()
    first = save(client, seed_003_data())
    data = workshop_data(base=first, option__hold_banker="same", title="再改", title_en="Again")
    response = client.post(f"/rulesets/new/?base={first}", {**data, "action": "save"})
    assert response.status_code == 302
    second = re.search(r"saved=(h-[a-z0-9]{8})", response["Location"]).group(1)  # type: ignore[union-attr]
    assert load_ruleset(second).extends == first
    assert CHANGED_CASE in client.get(f"/rulesets/{second}/selfcheck/").content.decode()


def test_the_engine_finds_saved_rulesets_only_through_the_injected_lookup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from checker.engine import ruleset as module

    monkeypatch.setattr(module, "_LOOKUPS", list(module._LOOKUPS))
    assert not ruleset_known("h-zzzzzzzz")
    with pytest.raises(RulesetError):
        load_ruleset("h-zzzzzzzz")
    text = "extends: classic\nname: x-lookup\nscore: {mandatory_levels: []}\n"
    add_ruleset_lookup(lambda name: text if name == "x-lookup" else None)
    assert load_ruleset("x-lookup").score.mandatory_levels == ()
    assert ruleset_known("x-lookup")


def test_changed_trick_cases_open_in_the_checker_under_either_ruleset() -> None:
    client = Client()
    data = workshop_data(throw__suits="trump_only", title="只甩主", title_en="Trump-only throws")
    preview = client.post("/rulesets/new/?base=classic", data, headers={"HX-Request": "true"})
    html = preview.content.decode()
    assert "/check/?ruleset=classic&amp;" in html
    assert "保存后，新规则一列也能在检查器中打开" in html
    name = save(client, data)
    page = client.get(f"/rulesets/new/?base=classic&saved={name}").content.decode()
    link = re.search(rf'href="(/check/\?ruleset={name}&amp;[^"]+)"', page)
    assert link is not None
    checker = client.get(link.group(1).replace("&amp;", "&"))
    assert checker.status_code == 200 and "甩" in checker.content.decode()


def test_a_base_with_a_level_table_offers_to_drop_it_and_classic_does_not() -> None:
    client = Client()
    assert 'name="drop_bands"' not in client.get("/rulesets/new/?base=classic").content.decode()
    html = client.get("/rulesets/new/?base=terminal-003").content.decode()
    assert 'name="drop_bands"' in html and "不用升级表" in html
    client.cookies["lang"] = "en"
    english = client.get("/rulesets/new/?base=terminal-003").content.decode()
    assert "No level table" in english


@pytest.mark.parametrize(
    "how",
    [
        {"drop_bands": "on"},  # the switch, the rows left as the base has them
        {f"bands-{i}-{k}": "" for i in range(4) for k in ("low", "winner", "rise", "result")},
    ],
)
def test_dropping_the_table_falls_back_to_the_step_rules_the_form_shows(
    how: dict[str, str],
) -> None:
    base = load_ruleset("terminal-003")
    draft = Draft(base, base, {**workshop_data("terminal-003"), **how})
    assert draft.is_valid(), (draft.form.errors, [f.errors for f in draft.bands.forms])
    data = yaml.safe_load(draft.text)
    # The takeover line and big-sweep rise the form showed were the table's (120, 3).
    assert data["score"] == {"bands": [], "step": 40, "swap_at": 120, "zero_rise": 3}
    rs = draft.ruleset
    assert rs is not None and rs.score.bands == () and rs.score.swap_at == 120
    assert score_round(rs, 5).rise == 2 and score_round(base, 5).rise == 3
    assert score_round(rs, 200).result == "promote" and score_round(rs, 200).rise == 2


def test_dropping_the_table_while_changing_its_rows_is_a_clear_error() -> None:
    data = {**workshop_data("terminal-003"), "drop_bands": "on", "bands-1-rise": "1"}
    response = Client().post("/rulesets/new/?base=terminal-003", {**data, "action": "save"})
    html = response.content.decode()
    assert any("不用升级表" in e for e in field_errors(html)), field_errors(html)
    assert 'has-error" data-field="drop_bands"' in html
    assert HouseRuleset.objects.count() == 0


def test_a_saved_ruleset_without_its_bases_table_shows_the_switch_ticked() -> None:
    client = Client()
    data = {**workshop_data("terminal-003"), "drop_bands": "on", "action": "save"}
    response = client.post("/rulesets/new/?base=terminal-003", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    name = re.search(r"saved=(h-[a-z0-9]{8})", response["Location"]).group(1)  # type: ignore[union-attr]
    assert load_ruleset(name).score.bands == ()
    page = client.get(f"/rulesets/new/?base=terminal-003&saved={name}").content.decode()
    assert re.search(r'name="drop_bands"[^>]*checked', page)
    assert 'name="bands-0-low" value' not in page  # no rows of its own


def test_a_base_that_flips_by_its_top_level_key_says_nobody_cannot_change() -> None:
    client = Client()
    html = client.get("/rulesets/new/?base=shuangsheng").content.decode()
    assert "flip: true" in html and "工坊改不了这一条" in html  # said in the help up front
    data = {**workshop_data("shuangsheng"), "declare__nobody": "no_trump", "action": "save"}
    response = client.post("/rulesets/new/?base=shuangsheng", data)
    errors = field_errors(response.content.decode())
    assert any("选 no_trump 不会生效" in e and "flip: true" in e for e in errors), errors
    assert HouseRuleset.objects.count() == 0
    client.cookies["lang"] = "en"
    english = client.post("/rulesets/new/?base=shuangsheng", data).content.decode()
    assert "no_trump would have no effect" in english
    kept = {**workshop_data("shuangsheng"), "declare__nobody": "flip", "action": "save"}
    assert client.post("/rulesets/new/?base=shuangsheng", kept).status_code == 302


def test_only_a_base_flipping_by_its_top_level_key_is_restricted() -> None:
    from checker.web.workshopform import flips_by_key

    assert flips_by_key(load_ruleset("shuangsheng"))
    assert not any(flips_by_key(load_ruleset(n)) for n in ("classic", "terminal-003"))
    classic = load_ruleset("classic")
    draft = Draft(classic, classic, {**workshop_data(), "declare__nobody": "no_trump"})
    assert draft.is_valid() and "flip: true" not in str(
        draft.form.fields["declare__nobody"].help_text
    )


def test_a_bases_own_table_left_as_it_is_is_not_written_again() -> None:
    base = load_ruleset("terminal-003")
    draft = Draft(base, base, workshop_data("terminal-003", option__hold_banker="same"))
    assert draft.is_valid()
    assert "score" not in yaml.safe_load(draft.text)  # only the option changes
