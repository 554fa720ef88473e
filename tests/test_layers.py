"""The layers import one way: web and suite may use play, play uses the engine, the engine uses
nothing of the project above it and never Django. Each room of checker/ opens only the doors
`DOORS` lists (docs/architecture.md draws them)."""

from __future__ import annotations

import ast
from pathlib import Path

CHECKER = Path(__file__).resolve().parent.parent / "checker"
ENGINE = CHECKER / "engine"
PLAY = CHECKER / "play"
ABOVE_PLAY = ("django", "django_htmx", "checker.web", "checker.suite", "checker.settings")
FORBIDDEN = (*ABOVE_PLAY, "checker.play")


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", "") == "__import__"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.append((node.lineno, str(node.args[0].value)))
    return found


def test_engine_exists() -> None:
    assert (ENGINE / "__init__.py").is_file()


def _offenders(package: Path, forbidden: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted(package.rglob("*.py")):
        for lineno, module in _imports(path):
            if any(module == bad or module.startswith(bad + ".") for bad in forbidden):
                where = path.relative_to(CHECKER.parent)
                found.append(f"{where}:{lineno} imports {module}")
        if package == ENGINE and "from .." in path.read_text(encoding="utf-8"):
            found.append(f"{path.relative_to(CHECKER.parent)} imports from above the engine")
    return found


def test_engine_never_imports_django_or_the_layers_above() -> None:
    offenders = _offenders(ENGINE, FORBIDDEN)
    assert not offenders, "\n".join(offenders)


def test_play_layer_imports_only_the_engine() -> None:
    assert (PLAY / "__init__.py").is_file()
    offenders = _offenders(PLAY, ABOVE_PLAY)
    assert not offenders, "\n".join(offenders)


# Each room and the rooms it may import; Django (and checker's own Django modules: models,
# settings, dbstatus, ...) only where DJANGO_ROOMS says. Management commands and migrations may
# use any room.
DOORS: dict[str, tuple[str, ...]] = {
    "engine": (),
    "play": ("engine",),
    "suite": ("engine", "play"),
    "lab": ("engine", "play"),
    "scenarios": ("engine", "play", "suite"),
    "web": ("engine", "play", "suite", "scenarios", "lab"),
    "perf": ("engine", "play", "suite", "scenarios", "lab", "web"),
}
DJANGO_ROOMS = ("web", "perf")
ROOMS = (*DOORS, "management", "migrations")


def _door_offenders(room: str) -> list[str]:
    found = []
    for path in sorted((CHECKER / room).rglob("*.py")):
        for lineno, module in _imports(path):
            parts = module.split(".")
            if parts[0] == "django" and room not in DJANGO_ROOMS:
                found.append(f"{path.relative_to(CHECKER.parent)}:{lineno} imports {module}")
            if parts[0] != "checker" or len(parts) < 2 or parts[1] == room:
                continue
            target = parts[1]
            allowed = target in DOORS[room] or (target not in ROOMS and room in DJANGO_ROOMS)
            if not allowed:
                found.append(f"{path.relative_to(CHECKER.parent)}:{lineno} imports {module}")
    return found


def test_every_room_imports_only_through_its_doors() -> None:
    rooms = sorted(p.name for p in CHECKER.iterdir() if (p / "__init__.py").is_file())
    assert rooms == sorted(ROOMS)
    offenders = [line for room in DOORS for line in _door_offenders(room)]
    assert not offenders, "\n".join(offenders)


def test_the_web_never_runs_a_management_command() -> None:
    offenders = [
        f"{path.relative_to(CHECKER.parent)}:{lineno} imports {module}"
        for path in sorted((CHECKER / "web").rglob("*.py"))
        for lineno, module in _imports(path)
        if module.startswith("django.core.management")
    ]
    assert not offenders, "\n".join(offenders)


def test_the_suite_holds_cases_only() -> None:
    """Benchmarks and hostile-input drivers live in checker/perf, the checker pages' scenarios in
    checker/scenarios: no module of the suite is named for either."""
    names = sorted(p.stem for p in (CHECKER / "suite").glob("*.py"))
    strays = [n for n in names if n.startswith(("bench", "enginecheck", "hostile", "scenario"))]
    assert not strays, strays


# Type names one module reads from a module above it, under `if TYPE_CHECKING:` only (never run):
# the memos a deal's context and a hand keep for the modules that fill them. Any other edge of
# the graph below, at module level, inside a function or type-only, counts.
TYPE_ONLY = {
    ("checker.engine.order", "checker.engine.combos"): "Context keeps its deal's plays (Combo)",
    ("checker.engine.held", "checker.engine.follow"): "a hand keeps its follows' verdicts",
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(CHECKER.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph() -> dict[str, set[str]]:
    """Map each module of checker/ to the modules of checker/ it imports anywhere in it."""
    modules = {_module_name(p): p for p in CHECKER.rglob("*.py")}

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(filter(None, (known(a.name) for a in node.names)))
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")
                base = base[: len(base) - node.level + 1] if node.level else []
                module = ".".join([*base, *([node.module] if node.module else [])])
                for alias in node.names:
                    full = f"{module}.{alias.name}"
                    target = known(full if full in modules else module)
                    if target:
                        targets.add(target)
        graph[name] = {t for t in targets if t != name and (name, t) not in TYPE_ONLY}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_type_only_edges_are_type_only() -> None:
    """Each TYPE_ONLY edge is an import under `if TYPE_CHECKING:` and nowhere else."""
    for source, target in TYPE_ONLY:
        path = CHECKER.parent / (source.replace(".", "/") + ".py")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        ]
        inside = {id(n) for g in guarded for n in ast.walk(g)}
        module = "." + target.rpartition(".")[2]
        hits = [
            id(node)
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and "." * node.level + (node.module or "") == module
        ]
        assert hits and all(hit in inside for hit in hits), (source, target)


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycle_in_checker() -> None:
    """Imports inside functions and under TYPE_CHECKING count too: hiding one does not help."""
    graph = _import_graph()
    assert graph["checker.suite.registry"] >= {"checker.suite.kinds", "checker.suite.botcase"}
    assert not _cycles(graph), _cycles(graph)


# Operands that hold a record's kind or a mapping's key, never a ruleset policy: a comparison of
# one of them with a word that is also a policy value ("no_trump", "flip", "levels", "rounds")
# is not a policy question.
NOT_POLICIES = {"t", "kind", "key", "data"}


def _policy_values() -> dict[str, str]:
    from enum import StrEnum

    from checker.engine import ruleset

    kinds = [
        v
        for v in vars(ruleset).values()
        if isinstance(v, type) and issubclass(v, StrEnum) and v.__module__ == ruleset.__name__
    ]
    return {m.value: kind.__name__ for kind in kinds for m in kind}


def _policy_comparisons(source: str, values: dict[str, str]) -> list[tuple[int, str, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for a, b in zip(operands, operands[1:], strict=False):
            for word, other in ((a, b), (b, a)):
                elts = word.elts if isinstance(word, (ast.Tuple, ast.List, ast.Set)) else [word]
                for c in elts:
                    if (
                        isinstance(c, ast.Constant)
                        and isinstance(c.value, str)
                        and c.value in values
                        and ast.unparse(other) not in NOT_POLICIES
                    ):
                        found.append((node.lineno, ast.unparse(other), c.value))
    return found


def test_the_policy_scan_finds_a_policy_string() -> None:
    values = _policy_values()
    assert {"banker_alone", "trump_only", "open", "next_seat"} <= set(values)
    source = 'a = rs.teams == "banker_alone"\nb = x in ("open", "y")\nc = t == "no_trump"\n'
    assert [v for _, _, v in _policy_comparisons(source, values)] == ["banker_alone", "open"]


def test_no_policy_string_is_compared_outside_the_ruleset() -> None:
    """Every policy is an enum read through `Ruleset`: nobody else compares its spellings."""
    values = _policy_values()
    offenders = [
        f"{path.relative_to(CHECKER.parent)}:{line}: {other} vs “{value}” ({values[value]})"
        for path in sorted(CHECKER.rglob("*.py"))
        if path != ENGINE / "ruleset.py"
        for line, other, value in _policy_comparisons(path.read_text(encoding="utf-8"), values)
    ]
    assert not offenders, "\n".join(offenders)


def test_no_template_compares_a_ruleset_policy() -> None:
    """Templates ask `Ruleset` too (`ruleset.has_fixed_teams`), never compare a policy spelling."""
    import re

    values = _policy_values()
    compare = re.compile(r"\{%\s*(?:el)?if\s+([\w.]+)\s*[!=]=\s*['\"](\w+)['\"]")
    offenders = [
        f"{path.relative_to(CHECKER.parent)}: {what} == “{value}”"
        for path in sorted((CHECKER.parent / "templates").rglob("*.html"))
        for what, value in compare.findall(path.read_text(encoding="utf-8"))
        if value in values and ("ruleset" in what or what.startswith("rs."))
    ]
    assert not offenders, "\n".join(offenders)
