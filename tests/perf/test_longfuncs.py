"""checker/perf/longfuncs lists the functions over 60 lines; at most 11 are left in checker/."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.perf.longfuncs import LIMIT, long_functions, main

MOST = 11


def test_the_lister_measures_a_function_from_def_to_its_last_line(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    (pkg / "m.py").write_text(f"def long():\n{body}\n\n\ndef short():\n    return 1\n")
    found = long_functions(pkg, LIMIT)
    assert [(f.name, f.lines, f.line) for f in found] == [("long", LIMIT + 1, 1)]


def test_at_most_twelve_functions_of_checker_are_over_sixty_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    found = long_functions()
    assert len(found) <= MOST, "\n".join(f"{f.lines} {f.path}:{f.line} {f.name}" for f in found)
    assert main([]) == 0
    assert f"{len(found)} functions over {LIMIT} lines" in capsys.readouterr().out
