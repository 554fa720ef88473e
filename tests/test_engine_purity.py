"""checker/engine is pure Python: it never imports Django or the web/suite layers."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "checker" / "engine"
FORBIDDEN = ("django", "django_htmx", "checker.web", "checker.suite", "checker.settings")


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


def test_engine_never_imports_django() -> None:
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        for lineno, module in _imports(path):
            if any(module == bad or module.startswith(bad + ".") for bad in FORBIDDEN):
                where = path.relative_to(ENGINE.parent.parent)
                offenders.append(f"{where}:{lineno} imports {module}")
    assert not offenders, "\n".join(offenders)
