"""Immutable records built on the hot path: a frozen dataclass whose instances get their whole
`__dict__` in one step instead of one `object.__setattr__` per field (same fields, order and
defaults), which halves the cost of building a verdict."""

from __future__ import annotations

import dataclasses
from typing import Any


def fast_init[T](cls: type[T]) -> type[T]:
    """Give a frozen dataclass (with a `__dict__`) an `__init__` that fills it at once.

    The record stays frozen: assigning an attribute afterwards still raises. Only plain
    defaults are supported (no default factories), which is all the engine's verdicts use.
    A field with `init=False` and no default is left out: the class fills it when first read
    (its `__getattr__`), as `combos.Combo` does.
    """
    params: list[str] = []
    names: list[str] = []
    defaults: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if not f.init:
            if f.default is not dataclasses.MISSING:
                raise TypeError(f"{cls.__name__}.{f.name}: fast_init needs its default in __init__")
            continue
        if f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: fast_init takes no default factories")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        names.append(f.name)
    fill = ", ".join(f"{n!r}: {n}" for n in names)
    source = f"def __init__(self, {', '.join(params)}):\n    _set(self, '__dict__', {{{fill}}})\n"
    defaults["_set"] = object.__setattr__
    scope: dict[str, Any] = {}
    exec(source, defaults, scope)  # noqa: S102 - built from the dataclass's own field names
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = f"Fill a {cls.__name__} from its fields."
    setattr(cls, "__init__", init)  # noqa: B010 - replaces the generated one
    return cls
