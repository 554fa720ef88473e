"""mypyc's `mypyc_attr` class decorator for the optional compiled build, a no-op without mypy.

This module is never compiled: at run time it hands out the real decorator when
`mypy_extensions` is installed (the dev extras) and an identity decorator otherwise, while
mypy and mypyc always see `mypy_extensions.mypyc_attr`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # the pure-Python engine needs no mypy at run time

        def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[Any], Any]:
            """Return a decorator that leaves its class as it is."""
            return lambda cls: cls
