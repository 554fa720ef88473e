"""House rulesets for jobs and pages: a ruleset named for another process, written back as YAML.

Mappings are merged key by key, lists and single values are replaced; the merged data is then
validated like any ruleset file (contract, third edition: "House rulesets").
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import yaml

from .ruleset import (
    LOADED,
    Ruleset,
    builtin_ruleset_names,
    house_ruleset_names,
    load_ruleset,
    load_ruleset_file,
    merge_data,
    read_ruleset_text,
)

__all__ = [
    "load_ruleset_file",
    "merge_data",
    "read_ruleset_text",
    "resolve_ruleset",
    "ruleset_ref",
    "ruleset_text",
]


def ruleset_text(rs: Ruleset) -> str:
    """Write a ruleset's whole (merged) data as YAML: it reads back into the same ruleset."""
    return yaml.safe_dump(_plain(rs.data), allow_unicode=True, sort_keys=False)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def resolve_ruleset(ref: str | tuple[str, str]) -> Ruleset:
    """Give the ruleset a job names: a name, or (name, YAML text) for one from a file elsewhere
    (a worker process has not loaded that file, so the job carries it)."""
    if isinstance(ref, str):
        return load_ruleset(ref)
    return _from_text(*ref)


@cache
def _from_text(name: str, text: str) -> Ruleset:
    hit = LOADED.get(name)
    if hit is not None and ruleset_ref(hit) == (name, text):
        return hit
    return read_ruleset_text(text, name)


def ruleset_ref(rs: Ruleset) -> str | tuple[str, str]:
    """Name a ruleset for a job: by name when every process can load it, else with its text."""
    if rs.name in builtin_ruleset_names() or rs.name in house_ruleset_names():
        return rs.name
    # Without `extends`: the merged data is whole, and the parent may be unknown to the worker.
    data = {k: v for k, v in rs.data.items() if k != "extends"}
    return (rs.name, yaml.safe_dump(_plain(data), allow_unicode=True, sort_keys=False))
