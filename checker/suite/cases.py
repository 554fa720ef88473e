"""Loading and validating case files (the public contract in shared/docs/case-format.md)."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .fields import ID_PATTERN as CASE_ID_PATTERN
from .fields import RULESET_NAMES, TEXT, Fault, english, shown
from .registry import KINDS

PROJECT_DIR = Path(__file__).resolve().parents[2]
CASES_DIR = PROJECT_DIR / "cases"

ID_PATTERN = re.compile(f"^{CASE_ID_PATTERN}$")
FILE_KEYS = {"rulesets", "cases", "category", "category_en"}
DEFAULT_RULESET = "classic"

# Limits that keep a hostile or broken case file from hurting a run or a page. The largest
# file of the suite is about 72 KB with 15,000 YAML nodes and 400 cases.
MAX_FILE_BYTES = 1 << 20  # 1 MiB per file
MAX_NODES = 200_000  # YAML nodes per file once aliases are expanded (an alias bomb: billions)
MAX_DEPTH = 40  # nesting of lists and mappings
MAX_CASES = 2_000  # cases per file


class CaseFileError(ValueError):
    """A case file or case that breaks the contract; names the file and case id."""

    def __init__(self, message: str, file: str, case_id: str | None = None, line: int = 0) -> None:
        where = f"{file}" + (f" · {case_id}" if case_id else "")
        super().__init__(f"{where}: {message}")
        self.message = message
        self.message_en = f"{where}: {english(message)}"
        self.file = file
        self.case_id = case_id
        self.line = line


@dataclass(frozen=True)
class Case:
    """One case as written in a file, with where it stands."""

    id: str
    kind: str
    title: str
    file: str
    line: int
    category: str
    rulesets: tuple[str, ...]
    data: Mapping[str, Any]
    problem: str | None = None  # a Fault (Chinese and English words) where it is known
    order: int = 0
    source_text: str = field(default="", compare=False)
    title_en: str = ""  # the English row label (third edition), "" when the case has none
    category_en: str = ""  # the file's category in English, "" when the file has none

    @property
    def inputs(self) -> dict[str, Any]:
        """The case's input fields (everything but id, titles, kind, expect and notes)."""
        skip = {
            "id",
            "title",
            "title_en",
            "kind",
            "expect",
            "expect_by_ruleset",
            "note",
            "source",
            "rulesets",
        }
        return {k: v for k, v in self.data.items() if k not in skip}

    def expected_for(self, ruleset: str) -> dict[str, Any]:
        """Merge expect with expect_by_ruleset for one ruleset, key by key."""
        expected = dict(self.data.get("expect") or {})
        override = (self.data.get("expect_by_ruleset") or {}).get(ruleset) or {}
        expected.update(override)
        return expected


@dataclass
class LoadResult:
    """The cases found, and the file-level errors met while loading."""

    cases: list[Case] = field(default_factory=list)
    errors: list[CaseFileError] = field(default_factory=list)


def find_case_files(paths: Iterable[str | Path] | None = None) -> list[Path]:
    """Expand files and folders (recursively, *.yaml / *.yml) into a sorted file list."""
    roots = [Path(p) for p in paths] if paths else [CASES_DIR]
    files: list[Path] = []
    for root in roots:
        if root.is_dir():
            files.extend(sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml")))
        else:
            files.append(root)
    return files


def display_path(path: Path) -> str:
    """Write a case file's path relative to the project when it lies inside it."""
    try:
        return str(path.resolve().relative_to(PROJECT_DIR))
    except ValueError:
        return str(path)


# libyaml's safe loader when PyYAML was built with it: the same safe constructor, in C.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_case_file(path: Path) -> str:
    """Read a case file's text: a regular file (or a link to one) of at most MAX_FILE_BYTES.

    Raises OSError with a message for anything else: a FIFO, a device, a socket, a file too
    big. The file is opened without blocking, so a FIFO with no writer cannot hang the run.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            if stat.S_ISFIFO(info.st_mode):
                what, what_en = "FIFO（命名管道）", "a FIFO (named pipe)"
            elif stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode):
                what, what_en = "设备文件", "a device"
            else:
                what, what_en = "特殊文件", "a special file"
            raise OSError(
                Fault(
                    f"不是普通文件，而是{what}：只读取普通的 YAML 文件",
                    f"not a regular file but {what_en}: only regular YAML files are read",
                )
            )
        if info.st_size > MAX_FILE_BYTES:
            raise OSError(
                Fault(
                    f"文件有 {info.st_size} 字节，超过上限 {MAX_FILE_BYTES} 字节",
                    f"the file has {info.st_size} bytes, over the limit of {MAX_FILE_BYTES}",
                )
            )
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_FILE_BYTES:
            raise OSError(
                Fault(
                    f"文件超过上限 {MAX_FILE_BYTES} 字节",
                    f"the file is over the limit of {MAX_FILE_BYTES} bytes",
                )
            )
    finally:
        os.close(fd)
    return b"".join(chunks).decode("utf-8")


class YamlLimitError(ValueError):
    """A YAML document beyond the limits: too many nodes once aliases expand, too deep, a cycle."""


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def check_node_graph(root: yaml.Node) -> None:
    """Measure a composed document before building it: expanded size, depth and alias cycles.

    Aliases make the composed graph share nodes; the built data (and every walk over it)
    is as big as the graph expanded, so that is what is bounded, in time linear in the graph.
    """
    size: dict[int, int] = {}
    entered: set[int] = set()
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 0, False)]
    while stack:
        node, depth, leaving = stack.pop()
        key = id(node)
        if leaving:
            total = 1 + sum(size[id(c)] for c in _children(node))
            if total > MAX_NODES:
                raise YamlLimitError(
                    Fault(
                        f"展开别名后超过 {MAX_NODES} 个节点（别名炸弹？），不予读取",
                        f"more than {MAX_NODES} nodes once aliases are expanded (an alias "
                        "bomb?): not read",
                    )
                )
            size[key] = total
            entered.discard(key)
            continue
        if key in size:
            continue
        if depth > MAX_DEPTH:
            raise YamlLimitError(
                Fault(
                    f"嵌套超过 {MAX_DEPTH} 层，不予读取",
                    f"nested more than {MAX_DEPTH} levels deep: not read",
                )
            )
        entered.add(key)
        stack.append((node, depth, True))
        for child in _children(node):
            if id(child) in entered:
                raise YamlLimitError(
                    Fault(
                        "YAML 别名引用了自身（递归结构），不予读取",
                        "a YAML alias refers to itself (a recursive structure): not read",
                    )
                )
            if id(child) not in size:
                stack.append((child, depth + 1, False))


def fits_as_tree(root: yaml.Node) -> bool:
    """Tell whether a document composed without aliases is within the limits (node count and
    depth), level by level; False means `check_node_graph` must decide (and name the limit)."""
    count = depth = 0
    level = [root]
    while level:
        count += len(level)
        if depth > MAX_DEPTH or count > MAX_NODES:
            return False
        below: list[yaml.Node] = []
        for node in level:
            if isinstance(node, yaml.SequenceNode):
                below += node.value
            elif isinstance(node, yaml.MappingNode):
                for pair in node.value:
                    below += pair
        level = below
        depth += 1
    return True


def parse_yaml(text: str) -> tuple[Any, list[int]]:
    """Parse a case file once, safely and within the limits, returning its data and the line
    of each case. Raises yaml.YAMLError for bad syntax, YamlLimitError beyond the limits."""
    loader = SAFE_LOADER(text)
    try:
        node = loader.get_single_node()
        # Without a "*" there is no alias, so no node is shared: the graph is a tree, and
        # counting it level by level is all the check needs.
        if node is not None and ("*" in text or not fits_as_tree(node)):
            check_node_graph(node)
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    lines: list[int] = []
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if key.value == "cases" and isinstance(value, yaml.SequenceNode):
                lines = [item.start_mark.line + 1 for item in value.value]
    return data, lines


def _validate_case(raw: Any, known_rulesets: set[str]) -> Fault | None:
    """Check one case against its kind's record: fields, their types, expect; None when fine."""
    if not isinstance(raw, dict):
        return Fault("每个用例必须是一个映射", "every case must be a mapping")
    if "kind" not in raw:
        return Fault("缺少 kind", "kind is missing")
    kind = raw["kind"]
    if not isinstance(kind, str) or kind not in KINDS:
        known = ", ".join(KINDS)
        return Fault(
            f"未知的 kind“{shown(kind)}”（可用：{known}）",
            f"unknown kind “{shown(kind, 'en')}” (known: {known})",
        )
    record = KINDS[kind]
    problem = record.case.problem(raw, "")
    if problem is not None:
        return problem
    if not raw.get("title"):
        return Fault("缺少 title", "title is missing")
    by_rs = raw.get("expect_by_ruleset") or {}
    if raw.get("expect") is None and not by_rs:
        return Fault("缺少 expect", "expect is missing")
    for name in by_rs:
        if name not in known_rulesets:
            return Fault(
                f"expect_by_ruleset 中的规则集“{name}”不存在",
                f"expect_by_ruleset names a ruleset “{name}” that does not exist",
            )
    return None


def _read_file(path: Path, file: str) -> tuple[str, Any, list[int]] | CaseFileError:
    """Read and parse one case file: its text, its data and each case's line, or the error."""
    try:
        text = read_case_file(path)
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.args[0] if isinstance(exc, OSError) and len(exc.args) == 1 else str(exc)
        return CaseFileError(
            Fault(f"无法读取：{reason}", f"cannot be read: {english(reason)}"), file
        )
    try:
        data, lines = parse_yaml(text)
    except (YamlLimitError, RecursionError) as exc:
        reason = (
            exc.args[0] if isinstance(exc, YamlLimitError) else Fault("嵌套太深", "nested too deep")
        )
        return CaseFileError(reason, file)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        return CaseFileError(
            Fault(
                f"YAML 语法错误（第 {line} 行）：{exc}",
                f"YAML syntax error (line {line}): {exc}",
            ),
            file,
            line=line,
        )
    return text, data, lines


def _file_fault(data: Any, path: Path) -> Fault | None:
    """Say what is wrong with a parsed case file as a whole (None when nothing is)."""
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        return Fault(
            "文件必须是含 cases 列表的映射", "a case file must be a mapping with a cases list"
        )
    extra = sorted(shown(k) for k in data if k not in FILE_KEYS)
    if extra:
        names = ", ".join(extra)
        return Fault(f"文件顶层的未知字段 {names}", f"unknown top-level fields {names}")
    problem = RULESET_NAMES.problem(data.get("rulesets") or [DEFAULT_RULESET], "rulesets")
    if problem is not None:
        return problem
    problem = TEXT.problem(data.get("category") or path.stem, "category") or TEXT.problem(
        data.get("category_en") or "", "category_en"
    )
    if problem is not None:
        return problem
    if len(data["cases"]) > MAX_CASES:
        return Fault(
            f"有 {len(data['cases'])} 个用例，超过每个文件 {MAX_CASES} 个的上限",
            f"{len(data['cases'])} cases, over the limit of {MAX_CASES} per file",
        )
    return None


def _case_fault(
    raw: Any, case_id: str, rulesets: Any, known: set[str], seen: Mapping[str, str]
) -> Fault | None:
    """Say what is wrong with one case in its file (None when nothing is)."""
    try:
        problem = _validate_case(raw, known)
    except (TypeError, ValueError, AttributeError) as exc:
        problem = Fault(f"无法解析的用例：{exc}", f"a case that cannot be read: {exc}")
    if problem is not None:
        return problem
    if not isinstance(rulesets, list) or not rulesets:
        return Fault("没有指定规则集（rulesets）", "no ruleset given (rulesets)")
    missing = [r for r in rulesets if r not in known]
    if missing:
        names = ", ".join(sorted(known))
        return Fault(
            f"规则集“{missing[0]}”不存在（可用：{names}）",
            f"no ruleset “{missing[0]}” (known: {names})",
        )
    if not ID_PATTERN.match(case_id):
        return Fault(
            f"id“{case_id}”必须是 kebab-case（小写字母、数字和连字符）",
            f"id “{case_id}” must be kebab-case (lower-case letters, digits and hyphens)",
        )
    if case_id in seen:
        return Fault(
            f"id“{case_id}”重复（已在 {seen[case_id]} 中出现）",
            f"id “{case_id}” is used twice (already in {seen[case_id]})",
        )
    return None


def load_cases(
    paths: Iterable[str | Path] | None = None, known_rulesets: Iterable[str] = ()
) -> LoadResult:
    """Load every case from the given files and folders, collecting errors instead of raising."""
    known = set(known_rulesets)
    result = LoadResult()
    seen: dict[str, str] = {}
    for path in find_case_files(paths):
        file = display_path(path)
        read = _read_file(path, file)
        if isinstance(read, CaseFileError):
            result.errors.append(read)
            continue
        text, data, lines = read
        fault = _file_fault(data, path)
        if fault is not None:
            result.errors.append(CaseFileError(fault, file))
            continue
        # A file that names no ruleset at all is about the base rules.
        default_rs = data.get("rulesets") or [DEFAULT_RULESET]
        if isinstance(default_rs, str):
            default_rs = [default_rs]
        category = str(data.get("category") or path.stem)
        category_en = str(data.get("category_en") or "")
        text_lines = text.splitlines()
        for i, raw in enumerate(data["cases"]):
            case_id = str(raw.get("id")) if isinstance(raw, dict) and raw.get("id") else f"#{i + 1}"
            raw_map = raw if isinstance(raw, dict) else {}
            rulesets = raw_map.get("rulesets", default_rs)
            if isinstance(rulesets, str):
                rulesets = [rulesets]
            problem = _case_fault(raw, case_id, rulesets, known, seen)
            if problem is None:
                seen[case_id] = file
            else:
                # A broken case is still shown: under the rulesets it names that exist, or
                # the file's own when it names none that does.
                named = rulesets if isinstance(rulesets, list) else []
                rulesets = [r for r in named if isinstance(r, str) and r in known] or default_rs
            result.cases.append(
                Case(
                    id=case_id,
                    kind=str(raw_map.get("kind", "")),
                    title=str(raw_map.get("title", case_id)),
                    file=file,
                    line=lines[i] if i < len(lines) else 0,
                    category=category,
                    rulesets=tuple(str(r) for r in rulesets)
                    if isinstance(rulesets, list) and rulesets
                    else ("?",),
                    data=raw_map,
                    problem=problem,
                    order=len(result.cases) + 1,
                    source_text=_source_text(text_lines, lines, i),
                    title_en=_title_en(raw_map),
                    category_en=category_en,
                )
            )
    return result


def _title_en(raw: Mapping[str, Any]) -> str:
    """A case's English title when it has one written as text, else ""."""
    value = raw.get("title_en")
    return value if isinstance(value, str) else ""


def _source_text(all_lines: list[str], lines: list[int], i: int) -> str:
    if i >= len(lines):
        return ""
    start = lines[i] - 1
    end = lines[i + 1] - 1 if i + 1 < len(lines) else len(all_lines)
    chunk = all_lines[start:end]
    while chunk and not chunk[-1].strip():
        chunk.pop()
    return "\n".join(chunk)


def iter_cases(result: LoadResult) -> Iterator[Case]:
    """Iterate over the loaded cases in file order."""
    yield from result.cases
