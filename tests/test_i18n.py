"""The committed English catalog: every entry translated, and the .mo matches the .po."""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

LOCALE = Path(__file__).resolve().parent.parent / "locale" / "en" / "LC_MESSAGES"


def _entries() -> list[tuple[str, list[str]]]:
    """(msgid, [msgstr...]) of the .po file, header excluded."""
    entries: list[tuple[str, list[str]]] = []
    msgid: list[str] | None = None
    strs: list[list[str]] = []
    current: list[str] | None = None
    fuzzy = False

    def flush() -> None:
        if msgid is not None and "".join(msgid) and not fuzzy:
            entries.append(("".join(msgid), ["".join(s) for s in strs]))

    for line in (LOCALE / "django.po").read_text(encoding="utf-8").splitlines():
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("msgid "):
            flush()
            msgid, strs, current = [ast.literal_eval(line[6:])], [], None
            current = msgid
        elif line.startswith("msgid_plural "):
            current = []
        elif line.startswith("msgstr"):
            current = [ast.literal_eval(line.split(" ", 1)[1])]
            strs.append(current)
        elif line.startswith('"') and current is not None:
            current.append(ast.literal_eval(line))
        elif not line.strip():
            flush()
            msgid, strs, current, fuzzy = None, [], None, False
    flush()
    return entries


def test_every_entry_is_translated() -> None:
    missing = [msgid for msgid, strs in _entries() if not all(strs)]
    assert not missing, f"untranslated: {missing}"


def test_compiled_catalog_matches_the_po() -> None:
    with (LOCALE / "django.mo").open("rb") as fh:
        catalog = gettext.GNUTranslations(fh)
    stale = [
        msgid for msgid, strs in _entries() if len(strs) == 1 and catalog.gettext(msgid) != strs[0]
    ]
    assert not stale, f"django.mo is out of date (make messages): {stale[:5]}"
