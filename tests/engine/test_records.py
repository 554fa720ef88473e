"""fast_init: a frozen dataclass built in one step keeps its fields, defaults, equality and
immutability; one it cannot build that way is refused at class creation."""

from __future__ import annotations

import dataclasses

import pytest

from checker.engine.combos import Combo
from checker.engine.records import fast_init


@fast_init
@dataclasses.dataclass(frozen=True)
class _Point:
    x: int
    y: int = 7
    tags: tuple[str, ...] = ()


def test_fields_defaults_keywords_and_equality_are_those_of_the_dataclass() -> None:
    p = _Point(1)
    assert (p.x, p.y, p.tags) == (1, 7, ())
    assert _Point(1, tags=("a",)) == _Point(x=1, y=7, tags=("a",))
    assert dataclasses.replace(p, y=2) == _Point(1, 2)
    assert hash(p) == hash(_Point(1))
    assert repr(p) == "_Point(x=1, y=7, tags=())"


def test_the_record_stays_frozen() -> None:
    p = _Point(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 2  # type: ignore[misc]


def test_a_missing_argument_is_the_usual_type_error() -> None:
    with pytest.raises(TypeError):
        _Point()  # type: ignore[call-arg]


def test_default_factories_are_refused() -> None:
    with pytest.raises(TypeError, match="default factories"):

        @fast_init
        @dataclasses.dataclass(frozen=True)
        class _Bad:
            items: list[int] = dataclasses.field(default_factory=list)


def test_the_engine_records_use_it() -> None:
    # A FollowVerdict and a Unit are named tuples instead (test_follow_fast, test_combos).
    assert Combo.__init__.__qualname__ == "Combo.__init__"
    assert "_set" in Combo.__init__.__globals__
