"""The optional compiled engine (make compiled): with a build in the tree, the listed modules are
its extension files, fresh, and judge a seeded slice exactly as the pure-Python engine does;
with or without it, the list names real modules written in what mypyc compiles as they run."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from checker.perf.compiled import ENGINE_DIR, GROUP, MODULES, PACKAGE, ROOT, built_files, stale
from checker.perf.compiledbench import pure_tree, ratios
from checker.perf.enginecheck import generate_records

BUILT = bool(built_files())
SLICE = 1_500  # judgements: about a hundred records, every ruleset variant at least once
PURE_SLICE = f"""
import json, sys
from checker.perf.enginecheck import generate_records
records = list(generate_records(7, {SLICE}))
files = [sys.modules["{PACKAGE}." + name].__file__ for name in {list(MODULES)!r}]
print(json.dumps({{"files": files, "records": records}}))
"""


def _tree(name: str) -> ast.Module:
    return ast.parse((ENGINE_DIR / f"{name}.py").read_text(), filename=f"{name}.py")


def _plain_classes(tree: ast.Module) -> list[ast.ClassDef]:
    return [
        node
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        and any("native_class=False" in ast.unparse(d) for d in node.decorator_list)
    ]


@pytest.mark.skipif(not BUILT, reason="no compiled build in the tree (make compiled)")
def test_the_compiled_modules_are_loaded_from_their_fresh_extension_files() -> None:
    assert stale() == [], "the engine changed since the build: run `make compiled`"
    for name in MODULES:
        module = importlib.import_module(f"{PACKAGE}.{name}")
        assert str(module.__file__).endswith(".so"), name
    assert any(p.name.startswith(GROUP.rsplit(".", 1)[1] + "__mypyc.") for p in built_files())


@pytest.mark.skipif(not BUILT, reason="no compiled build in the tree (make compiled)")
def test_the_compiled_engine_judges_a_seeded_slice_as_the_pure_python_one() -> None:
    compiled = json.loads(json.dumps(list(generate_records(7, SLICE))))
    with pure_tree() as pure:
        assert not list(pure.glob("checker/engine/*.so"))
        run = subprocess.run(
            [sys.executable, "-c", PURE_SLICE], cwd=pure, capture_output=True, text=True, check=True
        )
        pure_run = json.loads(run.stdout)
        assert all(Path(f).is_relative_to(pure) and f.endswith(".py") for f in pure_run["files"])
    assert pure_run["records"] == compiled


def test_the_compiled_list_names_engine_modules_once_and_leaves_the_shim_pure() -> None:
    assert list(MODULES) == sorted(set(MODULES))
    assert all((ENGINE_DIR / f"{name}.py").is_file() for name in MODULES)
    # The shim must run as Python (it chooses its decorator at run time); records uses exec.
    assert {"native", "records"}.isdisjoint(MODULES)
    assert "checker.perf.compiled build" in (ROOT / "Makefile").read_text()


@pytest.mark.parametrize("name", MODULES)
def test_a_compiled_module_keeps_no_run_time_code_in_a_type_checking_else(name: str) -> None:
    # mypyc leaves out the `else` of `if TYPE_CHECKING:` (mypy deems it unreachable), so
    # whatever it defines would be missing from the compiled module.
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            assert not node.orelse, f"{name}.py:{node.lineno}"


@pytest.mark.parametrize("name", MODULES)
def test_a_compiled_module_marks_its_builtin_subclasses_plain(name: str) -> None:
    # mypyc compiles no native class on int or on a named tuple: such a class is marked with
    # `mypyc_attr(native_class=False)`, and has no closure in its methods (mypyc fails on those).
    tree = _tree(name)
    tuples = {
        n.name
        for n in tree.body
        if isinstance(n, ast.ClassDef) and any(ast.unparse(b) == "NamedTuple" for b in n.bases)
    }
    plain = _plain_classes(tree)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = {ast.unparse(b) for b in node.bases}
            if bases & ({"int", "str", "tuple"} | tuples):
                assert node in plain, f"{name}.{node.name} needs mypyc_attr(native_class=False)"
    for cls in plain:
        for method in cls.body:
            inner = [n for n in ast.walk(method) if n is not method]
            assert not any(isinstance(n, ast.FunctionDef | ast.Lambda) for n in inner), (
                f"{name}.{cls.name}: a closure in a method"
            )


@pytest.mark.parametrize("name", MODULES)
def test_a_compiled_module_memoises_no_read_with_cached_property(name: str) -> None:
    # mypyc compiles `@cached_property` into a plain property that computes again at every
    # read: a memoised read is filled by the class itself (as `Combo.__getattr__` does).
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.FunctionDef):
            decorators = {ast.unparse(d) for d in node.decorator_list}
            assert not decorators & {"cached_property", "functools.cached_property"}, (
                f"{name}.py:{node.lineno} {node.name}"
            )


def test_a_lead_keeps_what_follows_read_of_it_after_the_first_read() -> None:
    from checker.engine.cards import parse_cards
    from checker.engine.combos import classify
    from checker.engine.order import make_context
    from checker.engine.ruleset import load_ruleset

    ctx = make_context(load_ruleset("classic"), 2, "H")
    lead = classify(ctx, parse_cards("S5 S5 S6 S6 SA"))  # a tractor and a single: a throw
    assert "pair_slots" not in vars(lead)
    assert (lead.width, lead.has_pairs, lead.pair_slots) == (2, True, ((2,), 0))
    assert {"width", "has_pairs", "pair_slots"} <= set(vars(lead))  # kept, in either build
    fresh = classify(make_context(load_ruleset("classic"), 2, "H"), lead.cards)
    assert "pair_slots" not in repr(lead) and lead == fresh
    with pytest.raises(AttributeError, match="no attribute 'slots'"):
        lead.slots  # noqa: B018 - only the fields named are filled on first read


def test_the_module_list_path_is_the_engine_package() -> None:
    assert Path(str(importlib.import_module(PACKAGE).__file__)).parent == ENGINE_DIR


def test_compiledbench_pairs_its_batches_and_reads_times_the_other_way_round() -> None:
    rows = ratios(
        {
            "pure": {"trick_resolutions_per_s": [100, 200, 300], "worst_throw_check_ms": [2, 2, 2]},
            "compiled": {
                "trick_resolutions_per_s": [150, 200, 600],
                "worst_throw_check_ms": [1, 4, 1],
            },
        }
    )
    assert rows["trick_resolutions_per_s"]["ratio"] == 1.5  # median of 1.5, 1, 2
    assert rows["worst_throw_check_ms"]["ratio"] == 2  # median of 2, 0.5, 2: lower is better
    assert rows["worst_throw_check_ms"]["higher_is_better"] is False
