"""List the functions of checker/ longer than a limit (60 lines by default), longest first.

    python -m checker.perf.longfuncs [--limit 60] [--root checker]

A function's length is its lines from the `def` (decorators left out) to its last line, nested
functions included in their parent; the count of those over the limit closes the list.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 60


class LongFunction(NamedTuple):
    """One function over the limit: where it is and how many lines it has."""

    path: str
    line: int
    name: str
    lines: int


def long_functions(root: Path = ROOT, limit: int = LIMIT) -> list[LongFunction]:
    """List the functions (methods included) under root longer than limit lines, longest first."""
    found: list[LongFunction] = []
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    where = path.relative_to(root.parent).as_posix()
                    found.append(LongFunction(where, node.lineno, node.name, lines))
    return sorted(found, key=lambda f: (-f.lines, f.path, f.line))


def main(argv: list[str] | None = None) -> int:
    """Print the long functions and their count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=LIMIT)
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    found = long_functions(args.root, args.limit)
    for f in found:
        print(f"{f.lines:4d}  {f.path}:{f.line}  {f.name}")
    print(f"{len(found)} functions over {args.limit} lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
