"""cases/case.schema.json: generated from the case-kind records, and true of every case file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from checker.suite.cases import _validate_case, find_case_files
from checker.suite.registry import KINDS
from checker.suite.runner import run_suite
from checker.suite.schema import SCHEMA_PATH, generate_schema, schema_text

PROJECT = Path(__file__).resolve().parents[2]
# The contract sits in shared/ beside the checkout (CI lays a copy there too).
CONTRACT = (
    next(
        (
            p
            for p in (
                PROJECT.parent / "shared",
                PROJECT.parents[1] / "shared",
                Path("/work/shared"),
            )
            if (p / "docs" / "case-format.md").is_file()
        ),
        PROJECT,
    )
    / "docs"
    / "case-format.md"
)


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_committed_schema_is_the_generated_one() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), "run `make schema`"


def test_schema_has_one_branch_per_kind() -> None:
    schema = generate_schema()
    assert schema["$defs"]["case"]["properties"]["kind"]["enum"] == list(KINDS)
    for name, record in KINDS.items():
        branch = schema["$defs"][name]
        assert set(branch["properties"]) >= set(record.inputs) | {"expect", "id", "title"}
        assert set(branch["required"]) == {"id", "title", "kind", *record.required}


@pytest.mark.parametrize("path", find_case_files(), ids=lambda p: p.name)
def test_every_case_file_validates_against_the_schema(
    path: Path, validator: jsonschema.Draft202012Validator
) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(data)]
    assert not errors, "\n".join(errors[:5])


def test_every_record_is_complete() -> None:
    documented = (PROJECT / "docs" / "case-kinds.md").read_text(encoding="utf-8")
    contract = CONTRACT.read_text(encoding="utf-8") if CONTRACT.exists() else ""
    for name, record in KINDS.items():
        assert record.name == name and record.label and record.label_en
        assert record.required <= set(record.inputs), name
        assert record.outputs and callable(record.runner)
        assert f"### {name} " in documented + contract, f"kind {name} is not documented"


# Wrong types: the loader makes each an error row naming the field, and the schema rejects it.
WRONG: dict[str, tuple[dict[str, Any], str]] = {
    "seat-null": ({"kind": "declare", "cards": "♥2", "seat": None}, "seat"),
    "seat-negative": ({"kind": "declare", "cards": "♥2", "seat": -1}, "seat"),
    "seat-bool": ({"kind": "throw", "cards": "♠A ♠K", "others": ["♠Q"], "seat": True}, "seat"),
    "rulesets-nested": ({"kind": "classify", "cards": "♠A", "rulesets": [["classic"]]}, "rulesets"),
    "expect-cards-number": (
        {"kind": "follow", "lead": "♠A", "hand": "♠K", "expect": {"forced": 5}},
        "expect.forced",
    ),
    "cards-number": ({"kind": "classify", "cards": 10}, "cards"),
    "cards-list-of-numbers": ({"kind": "classify", "cards": [10, 10]}, "cards[0]"),
    "current-seat-missing": (
        {"kind": "declare", "cards": "♥2", "seat": 1, "current": [{"cards": "♥2"}]},
        "current[0].seat",
    ),
    "bids-mapping": ({"kind": "bid", "bids": [{"a": 1}]}, "bids[0]"),
    "options-value-list": ({"kind": "classify", "cards": "♠A", "options": {"x": [1]}}, "options.x"),
    "title-list": ({"kind": "classify", "cards": "♠A", "title": ["t"]}, "title"),
    "points-text": ({"kind": "score", "points": "abc"}, "points"),
    "legal-text": (
        {"kind": "follow", "lead": "♠A", "hand": "♠K", "expect": {"legal": "yes"}},
        "expect.legal",
    ),
    "by-ruleset-wrong": (
        {"kind": "classify", "cards": "♠A", "expect_by_ruleset": {"classic": {"pairs": [1]}}},
        "expect_by_ruleset.classic.pairs[0]",
    ),
}


def _case(name: str, fields: dict[str, Any]) -> dict[str, Any]:
    case: dict[str, Any] = {"id": name, "title": "t", "expect": {}}
    case.update(fields)
    return case


@pytest.mark.parametrize("name", sorted(WRONG))
def test_wrong_type_is_an_error_row_naming_file_id_and_field_and_the_schema_agrees(
    name: str, tmp_path: Path, validator: jsonschema.Draft202012Validator
) -> None:
    fields, where = WRONG[name]
    data = {"cases": [_case(name, fields)]}
    assert not validator.is_valid(data)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    (result,) = run_suite([path]).results
    assert result.status == "error"
    assert path.name in result.message and name in result.message
    assert where in result.message, result.message


@pytest.mark.parametrize("name", sorted(KINDS))
def test_a_minimal_case_of_every_kind_fits_both_the_loader_and_the_schema(
    name: str, validator: jsonschema.Draft202012Validator
) -> None:
    record = KINDS[name]
    samples = {
        **{"cards": "♠A", "seat": 0, "bids": [40], "points": 60, "role": "banker"},
        **{"banker": 0, "x": 6, "bonus": [0, 0, 0], "result": "hold"},
    }
    fields = {k: samples.get(k, "♠A") for k in record.required}
    if name in ("trick", "compare", "throw"):
        fields.update({"plays": ["♠A", "♠K"], "others": ["♠Q"]})
        fields = {k: v for k, v in fields.items() if k in record.inputs}
    data = {"cases": [_case(f"min-{name.replace('_', '-')}", {"kind": name, **fields})]}
    assert validator.is_valid(data), list(validator.iter_errors(data))[:1]
    assert _validate_case(data["cases"][0], {"classic"}) is None
