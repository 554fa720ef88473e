"""The JSON Schema of case files (cases/case.schema.json), written from the case-kind records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .cases import CASES_DIR
from .fields import RULESET_NAMES, TEXT, Schema
from .registry import KINDS

SCHEMA_PATH = CASES_DIR / "case.schema.json"
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def generate_schema() -> Schema:
    """Write the JSON Schema of a case file: its top-level keys and one branch per case kind."""
    defs: dict[str, Any] = {}
    branches = []
    for name, record in KINDS.items():
        case = record.case.schema(defs)
        case["anyOf"] = [{"required": ["expect"]}, {"required": ["expect_by_ruleset"]}]
        case["properties"]["kind"] = {"const": name}
        if record.label:
            case["title"] = f"{name}: {record.label} / {record.label_en}"
        defs[name] = case
        branches.append(
            {"if": {"properties": {"kind": {"const": name}}}, "then": {"$ref": f"#/$defs/{name}"}}
        )
    defs["case"] = {
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"enum": list(KINDS)}},
        "allOf": branches,
    }
    cases = {"type": "array", "items": {"$ref": "#/$defs/case"}}
    return {
        "$schema": DIALECT,
        "$id": "case.schema.json",
        "title": "升级 / 拖拉机 case file",
        "description": "Generated from the case-kind records in checker/suite/kinds.py by "
        "`python manage.py caseschema`; do not edit by hand.",
        "type": "object",
        "required": ["cases"],
        "additionalProperties": False,
        "properties": {
            "rulesets": RULESET_NAMES.schema(defs),
            "category": TEXT.schema(defs),
            "category_en": TEXT.schema(defs),
            "cases": cases,
        },
        "$defs": defs,
    }


def schema_text() -> str:
    """Write the schema as the committed file holds it (sorted keys aside, stable text)."""
    return json.dumps(generate_schema(), ensure_ascii=False, indent=2) + "\n"


def write_schema(path: Path = SCHEMA_PATH) -> bool:
    """Write the schema file; tell whether its text changed."""
    text = schema_text()
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old != text:
        path.write_text(text, encoding="utf-8")
    return old != text
