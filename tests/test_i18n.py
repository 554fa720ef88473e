"""The committed English catalog: every entry translated, and the .mo matches the .po."""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

LOCALE = Path(__file__).resolve().parent.parent / "locale" / "en" / "LC_MESSAGES"


def _entries() -> list[tuple[str, list[str]]]:
    """(msgid, [msgstr...]) of the .po file, header excluded.

    An entry with a msgctxt is keyed as the .mo keys it: context, EOT, msgid.
    """
    entries: list[tuple[str, list[str]]] = []
    msgid: list[str] | None = None
    context = ""
    strs: list[list[str]] = []
    current: list[str] | None = None
    fuzzy = False

    def flush() -> None:
        if msgid is not None and "".join(msgid) and not fuzzy:
            key = f"{context}\x04" if context else ""
            entries.append((key + "".join(msgid), ["".join(s) for s in strs]))

    for line in (LOCALE / "django.po").read_text(encoding="utf-8").splitlines():
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("msgctxt "):
            flush()
            msgid, strs = None, []
            context = ast.literal_eval(line[8:])
            current = None
        elif line.startswith("msgid "):
            if msgid is not None:
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
            msgid, strs, current, fuzzy, context = None, [], None, False, ""
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


def test_no_fuzzy_entries() -> None:
    """A fuzzy entry is left out of the .mo: its page would show Chinese in English mode."""
    text = (LOCALE / "django.po").read_text(encoding="utf-8")
    fuzzy = [line for line in text.splitlines() if line.startswith("#,") and "fuzzy" in line]
    assert not fuzzy, (
        f"{len(fuzzy)} fuzzy entries in django.po (translate them, then make messages)"
    )
