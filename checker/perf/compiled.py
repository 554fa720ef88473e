"""The optional compiled engine: which modules mypyc compiles, building them in place, and
telling whether the running process loaded them.

`make compiled` runs `python -m checker.perf.compiled build` from the repository root: mypyc
(from the dev extras, with setuptools and a C compiler) turns each module of `MODULES` into an
extension, `checker/engine/<name>.cpython-….so`, beside the shared library they call into,
`checker/engine/hot__mypyc.cpython-….so`; Python imports an extension in preference to the
`.py` next to it. Without those files (`make clean-compiled` removes them) the same modules run
as pure Python. The modules left out are cold (rulesets, scoring, bidding) or need what mypyc
does not compile (`records.fast_init`'s `exec`, the `mypyc_attr` shim itself).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

PACKAGE = "checker.engine"
ENGINE_DIR = Path(__file__).resolve().parent.parent / "engine"
ROOT = ENGINE_DIR.parent.parent
# The shared library, inside the package: found wherever `checker` is imported from.
GROUP = f"{PACKAGE}.hot"
# Where the build records the engine sources it compiled against (every module: the compiled
# ones read the others' types), to tell a stale build from a fresh one.
STAMP = ENGINE_DIR / ".compiled.json"

# The hot modules: cards, the play order and its tables, classification, follows, throws and
# tricks, and what they call on every judgement.
MODULES = (
    "cards",
    "combos",
    "compare",
    "follow",
    "held",
    "jokers",
    "ladder",
    "order",
    "ruffs",
    "structure",
    "throws",
    "trick",
    "units",
)


def source(name: str) -> Path:
    """Return the path of an engine module's source."""
    return ENGINE_DIR / f"{name}.py"


def digests() -> dict[str, str]:
    """Hash every engine source (what a build must match)."""
    paths = sorted(ENGINE_DIR.glob("*.py"))
    return {p.stem: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def built_files() -> list[Path]:
    """List the extension files of a build (the modules' and the shared library's)."""
    return sorted(p for p in ENGINE_DIR.iterdir() if p.name.endswith(tuple(EXTENSION_SUFFIXES)))


def is_built() -> bool:
    """Tell whether a compiled build is present in the tree."""
    return STAMP.exists() or bool(built_files())


def stale() -> list[str]:
    """Name the engine modules whose source changed since the build (empty when fresh)."""
    recorded = json.loads(STAMP.read_text()) if STAMP.exists() else {}
    now = digests()
    return sorted(n for n in now.keys() | recorded.keys() if recorded.get(n) != now.get(n))


def loaded() -> dict[str, bool]:
    """Import each compiled module and tell whether it came from an extension file."""
    out = {}
    for name in MODULES:
        module = importlib.import_module(f"{PACKAGE}.{name}")
        out[name] = not str(module.__file__).endswith(".py")
    return out


def build() -> None:
    """Compile `MODULES` with mypyc in place and record the sources compiled."""
    from mypyc.build import mypycify  # the dev extras; imported only to build
    from setuptools import setup

    paths = [str(source(n).relative_to(ROOT)) for n in MODULES]
    extensions = mypycify(["--no-warn-unused-configs", *paths], opt_level="3", group_name=GROUP)
    setup(
        name="tractor-checker-compiled",
        ext_modules=extensions,
        script_args=["build_ext", "--inplace", "--build-temp", "build/mypyc-temp"],
    )
    STAMP.write_text(json.dumps(digests(), indent=1, sort_keys=True) + "\n")


def main(argv: list[str]) -> int:
    """Build or report the compiled engine (`build`, `status`); `make clean-compiled` removes it."""
    if argv == ["build"]:
        build()
    elif argv == ["status"]:
        for name, native in loaded().items():
            print(f"{name:10} {'compiled' if native else 'pure Python'}")
        if is_built() and stale():
            print("stale: rebuild with `make compiled`:", " ".join(stale()))
    else:
        print("usage: python -m checker.perf.compiled build|status", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
