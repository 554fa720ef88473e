"""House rulesets: a ruleset file that `extends` another one and overrides some of its keys.

Mappings are merged key by key, lists and single values are replaced; the merged data is then
validated like any ruleset file (contract, third edition: "House rulesets").
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from .errors import RulesetError
from .ruleset import (
    LOADED,
    Ruleset,
    _is_name,
    builtin_ruleset_names,
    house_ruleset_names,
    load_ruleset,
    parse_ruleset,
)

# Names whose files are being read right now, parent after child: `extends` in a loop stops here.
_LOADING: list[str] = []
# Where each ruleset loaded from a file came from (a file loaded again replaces its own ruleset).
_SOURCES: dict[str, Path] = {}


def merge_data(parent: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    """Return the parent's keys overridden by the child's: mappings merged, the rest replaced."""
    out = dict(parent)
    for key, value in child.items():
        below = out.get(key)
        if isinstance(value, Mapping) and isinstance(below, Mapping):
            out[key] = merge_data(below, value)
        else:
            out[key] = value
    return out


def _error(where: str, zh: str, en: str, field: str) -> RulesetError:
    return RulesetError(f"{where}: {zh}", en=f"{where}: {en}", field=field)


def parse_house(data: Any, where: str) -> Ruleset:
    """Validate a ruleset file's data, merged over its parent's when it names one in `extends`."""
    if not isinstance(data, dict):
        return parse_ruleset(data, where)
    name = data.get("name")
    if not isinstance(name, str) or not _is_name(name):
        raise _error(
            where,
            f"name 必须是由字母、数字、- 或 _ 组成的名字，而不是“{name}”",
            f"name must be a name of letters, digits, - or _, not “{name}”",
            "name",
        )
    parent_name = data.get("extends")
    if parent_name is None:
        return parse_ruleset(data, where)
    if not isinstance(parent_name, str) or not _is_name(parent_name):
        raise _error(
            where,
            f"extends 的值“{parent_name}”无效",
            f"extends: “{parent_name}” is not valid",
            "extends",
        )
    if parent_name == name:
        raise _error(
            where,
            f"规则集 {name} 不能 extends 自己",
            f"ruleset {name} cannot extend itself",
            "extends",
        )
    if parent_name in _LOADING:
        loop = " → ".join([*_LOADING[_LOADING.index(parent_name) :], name, parent_name])
        raise _error(
            where, f"extends 成环：{loop}", f"extends goes round in a loop: {loop}", "extends"
        )
    _LOADING.append(name)
    try:
        parent = load_ruleset(parent_name)
    except RulesetError as exc:
        if exc.field != "ruleset":
            raise  # the parent's own file is broken: its error names that file
        raise _error(
            where,
            f"extends 的父规则集“{parent_name}”不存在（{exc.message}）",
            f"extends names a parent “{parent_name}” that does not exist ({exc.message_en})",
            "extends",
        ) from exc
    finally:
        _LOADING.pop()
    merged = merge_data(parent.data, data)
    # The parent's title would name the wrong ruleset: without its own, it is called by its name.
    merged["title"] = data.get("title", name)
    merged["title_en"] = data.get("title_en", data.get("title", name))
    return parse_ruleset(merged, where)


def read_ruleset_text(text: str, where: str) -> Ruleset:
    """Parse a ruleset file's text (YAML) into a validated, not yet registered, Ruleset."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise _error(where, f"YAML 有误：{exc}", f"the YAML is broken: {exc}", "yaml") from exc
    try:
        return parse_house(data, where)
    except RulesetError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        # A value of a shape no check above expected: still the file's fault, said plainly.
        raise _error(
            where, f"无效的值（{exc!r}）", f"a value is not valid ({exc!r})", "file"
        ) from exc


def load_ruleset_file(path: str | Path) -> Ruleset:
    """Read, validate and register a ruleset file; its name then works like a built-in one."""
    path = Path(path)
    where = str(path) if path.parent != Path(".") else path.name
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _error(
            where, f"读不了文件（{exc}）", f"cannot read the file ({exc})", "file"
        ) from exc
    in_house = path.parent.resolve() == _house_dir()
    if in_house:
        where = f"rulesets/house/{path.name}"
    rs = read_ruleset_text(text, where)
    if in_house and rs.name != path.stem:
        raise _error(
            where,
            f"house 规则集的 name（{rs.name}）必须与文件名 {path.stem} 相同",
            f"a house ruleset's name ({rs.name}) must be its file name {path.stem}",
            "name",
        )
    owner = _SOURCES.get(rs.name)
    clashes = rs.name in builtin_ruleset_names() or (
        not in_house and rs.name in house_ruleset_names()
    )
    if clashes or (owner is not None and owner != path.resolve()):
        raise _error(
            where,
            f"name“{rs.name}”与已有的规则集重名",
            f"name “{rs.name}” clashes with a ruleset already loaded",
            "name",
        )
    if in_house:
        return rs  # found again by name in rulesets/house/, never listed among the loaded files
    _SOURCES[rs.name] = path.resolve()
    LOADED[rs.name] = rs
    return rs


def _house_dir() -> Path:
    from . import ruleset

    return ruleset.HOUSE_DIR.resolve()


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
