"""Hostile case files, written on demand: what the loader must turn into error rows quickly
(used by the tests and by `manage.py hostilecases`, which times each one)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from checker.suite.cases import MAX_DEPTH, MAX_FILE_BYTES

GOOD_CASE = """\
  - id: {id}
    title: 对子
    kind: classify
    cards: ♠Q ♠Q
    expect: {{type: pair}}
"""


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """Write a billion-laughs document: each level lists the previous one `width` times."""
    lines = ['l0: &l0 ["lol"]']
    for i in range(1, levels + 1):
        lines.append(f"l{i}: &l{i} [{', '.join(f'*l{i - 1}' for _ in range(width))}]")
    lines.append("cases:")
    lines.append(f"  - {{id: bomb, title: t, kind: classify, cards: *l{levels}, expect: {{}}}}")
    return "\n".join(lines) + "\n"


def recursive_alias() -> str:
    """Write a document whose alias refers to itself."""
    return "cases: &c\n  - {id: loop, title: t, kind: classify, cards: *c, expect: {}}\n"


def deep_nesting() -> str:
    """Write a document nested deeper than the loader reads."""
    depth = MAX_DEPTH + 10
    return (
        "cases:\n  - {id: deep, title: t, kind: classify, cards: "
        + "[" * depth
        + "]" * depth
        + ", expect: {}}\n"
    )


def too_big() -> str:
    """Write a valid case file padded with a comment past the size limit."""
    return "cases:\n" + GOOD_CASE.format(id="big") + "#" + "x" * MAX_FILE_BYTES + "\n"


TEXT_FILES: dict[str, Callable[[], str]] = {
    "alias-bomb": alias_bomb,
    "recursive-alias": recursive_alias,
    "deep-nesting": deep_nesting,
    "too-big": too_big,
}


def write_hostile_files(folder: Path, *, special: bool = True) -> dict[str, Path]:
    """Write every hostile file into folder (and, with special, a FIFO and links to devices)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, make in TEXT_FILES.items():
        path = folder / f"{name}.yaml"
        path.write_text(make(), encoding="utf-8")
        out[name] = path
    if special:
        fifo = folder / "fifo.yaml"
        os.mkfifo(fifo)
        out["fifo"] = fifo
        for device in ("/dev/zero", "/dev/urandom"):
            if Path(device).exists():
                link = folder / f"link-to-{Path(device).name}.yaml"
                link.symlink_to(device)
                out[link.stem] = link
        fifo_link = folder / "link-to-fifo.yaml"
        fifo_link.symlink_to(fifo)
        out["link-to-fifo"] = fifo_link
    return out
