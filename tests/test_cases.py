"""Every YAML case × ruleset is one test item; a failure shows input, expected, actual and why."""

from __future__ import annotations

import pytest
import yaml

from checker.engine.ruleset import ruleset_names
from checker.suite.cases import load_cases
from checker.suite.runner import run_case

LOADED = load_cases(None, ruleset_names())
ITEMS = [(case, name) for case in LOADED.cases for name in case.rulesets]


def test_case_files_load_without_file_errors() -> None:
    assert [str(e) for e in LOADED.errors] == []


@pytest.mark.parametrize(
    ("case", "ruleset"), ITEMS, ids=[f"{name}::{case.id}" for case, name in ITEMS]
)
def test_case(case, ruleset) -> None:  # type: ignore[no-untyped-def]
    result = run_case(case, ruleset)
    if result.status != "pass":
        detail = yaml.safe_dump(
            {
                "file": f"{result.file}:{result.line}",
                "input": result.input,
                "expected": result.expected,
                "actual": result.actual,
                "message": result.message,
                "explanation": result.explanation,
            },
            allow_unicode=True,
            sort_keys=False,
        )
        pytest.fail(f"{result.status}: {case.title}\n{detail}", pytrace=False)
