"""The layers import one way: web and suite may use play, play uses the engine, the engine uses
nothing of the project above it and never Django."""

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
