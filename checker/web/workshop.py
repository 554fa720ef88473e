"""The workshop page (/rulesets/new/?base=classic): a ruleset derived from a base, previewed
live (its rules page, its YAML, the diff against the base, the cases whose verdict changes)
and saved under a key-like name that then works wherever a ruleset name does."""

from __future__ import annotations

import difflib
import secrets
from collections.abc import Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from checker.engine.house import read_ruleset_text, ruleset_text
from checker.engine.order import make_context
from checker.engine.ruleset import Ruleset, load_ruleset, ruleset_known, ruleset_names
from checker.models import HouseRuleset
from checker.scenarios.matrix import MatrixRow, derived_rows
from checker.web import present, rulesdoc, saved, selfcheck, variants
from checker.web.limits import client_of, over_limit
from checker.web.play import owner_token, with_owner
from checker.web.workshopform import Draft

SAVE_TRIES = 4


def read_base(query: Mapping[str, str]) -> tuple[Ruleset | None, Ruleset | None, str]:
    """Read `base` (and `saved`, a ruleset saved from it) from the query: the base, the ruleset
    the form starts from, or a message naming what is unknown."""
    name = (query.get("base") or "classic").strip()[:40]
    if not ruleset_known(name):
        return None, None, _("没有名为“%(name)s”的规则集，不能以它为底。") % {"name": name}
    base = load_ruleset(name)
    shown_name = (query.get("saved") or "").strip()[:40]
    if not shown_name:
        return base, base, ""
    shown = load_ruleset(shown_name) if saved.saved_text(shown_name) else None
    if shown is None or shown.extends != base.name:
        return (
            None,
            None,
            _("没有以 %(base)s 为底、名为“%(name)s”的已存规则集。")
            % {
                "base": name,
                "name": shown_name,
            },
        )
    return base, shown, ""


@lru_cache(maxsize=16)
def _changed(base: str, text: str, name: str) -> list[MatrixRow]:
    """The base's cases whose verdict changes under the ruleset this YAML writes (cached: the
    same draft is previewed again on every change that changes nothing)."""
    rs = load_ruleset(name) if saved.saved_text(name) == text else read_ruleset_text(text, name)
    results = selfcheck.get_run(base).results
    return derived_rows(base, rs, results, saved.case_root(base))


def _diff(base: Ruleset, rs: Ruleset) -> list[dict[str, str]]:
    """The merged ruleset against its base, line by line (unified diff, one line of context)."""
    before, after = ruleset_text(base).splitlines(), ruleset_text(rs).splitlines()
    lines = list(difflib.unified_diff(before, after, base.name, rs.name, n=1, lineterm=""))
    kinds = {"+": "add", "-": "del", "@": "hunk"}
    return [{"text": line, "kind": kinds.get(line[:1], "same")} for line in lines[2:]]


def _case_rows(base: Ruleset, rs: Ruleset, rows: list[MatrixRow], linked: bool) -> list[Any]:
    """The changed cases as the matrix draws them; an unsaved draft's cells have no links."""
    drawn = variants.case_rows(rows, [base, rs])
    if not linked:
        for item in drawn:
            for cell in item["cells"][1:]:
                cell["case_url"] = cell["checker_url"] = ""
    return drawn


def preview(base: Ruleset, rs: Ruleset, text: str, is_saved: bool) -> dict[str, Any]:
    """Everything beside the form: the derived rules page, the YAML, the diff against the base
    and the base's cases whose verdict changes (each opening in the checker once saved)."""
    ctx = make_context(rs, present.default_level(rs) or None, rs.default_trump)
    rows = _changed(base.name, text, rs.name) if rs is not base else []
    drawn = _case_rows(base, rs, rows, is_saved)
    return {
        "ruleset": rs,
        "saved": is_saved,
        "doc": rulesdoc.describe(rs, ctx),
        "yaml": text,
        "diff": _diff(base, rs) if rs is not base else [],
        "rows": drawn,
        "columns": [base, rs],
        "changed": len(rows),
        "checkable": any(item["cells"][0]["checker_url"] for item in drawn),
        "links": _links(base, rs) if is_saved else {},
    }


def _links(base: Ruleset, rs: Ruleset) -> dict[str, str]:
    """Where a saved ruleset's name now works: rules, checker, matrix, play, a study."""
    name = rs.name
    return {
        "rules": reverse("rules", args=[name]),
        "check": reverse("check") + "?ruleset=" + name,
        "matrix": reverse("matrix") + "?ruleset=" + name,
        "play": reverse("play") + "?seat=0&ruleset=" + name,
        "study": reverse("studies") + "?" + urlencode({"arm": [base.name, name]}, doseq=True),
    }


def page_context(
    request: HttpRequest, draft: Draft, shown: Ruleset, posted: bool
) -> dict[str, Any]:
    """The workshop page: the form and level-table rows beside the preview (a posted draft's
    when it is valid; the saved ruleset's or the base's when the page is opened)."""
    base = draft.base
    view: dict[str, Any] = {}
    if posted and draft.ruleset is not None:
        view = preview(base, draft.ruleset, draft.text, False)
    elif not posted:
        text = saved.saved_text(shown.name) or f"extends: {base.name}\n"
        view = preview(base, shown, text, shown is not base)
    return {
        "nav": "rules",
        "base": base,
        "base_title": present.ruleset_title(base),
        "bases": [(n, present.ruleset_title(load_ruleset(n))) for n in ruleset_names()],
        "form": draft.form,
        "bands": draft.bands,
        "posted": posted,
        "preview": view,
        "mine": mine(request),
        "action": reverse("workshop") + "?" + urlencode({"base": base.name}),
    }


def save(request: HttpRequest, draft: Draft) -> HttpResponse | None:
    """Store a valid draft under a new name, for this browser's owner cookie; redirect to it.
    None when the draft is not valid (its errors are on its fields) or the limit is reached."""
    client = client_of(request)
    if over_limit(HouseRuleset, client, settings.PLAY_CREATE_PER_MINUTE):
        draft.form.add_error(None, _("保存太频繁，请稍后再试。"))
        return None
    token = owner_token(request) or secrets.token_hex(16)
    for _try in range(SAVE_TRIES):
        name = saved.new_name()
        if not draft.is_valid(name):
            return None
        try:
            with transaction.atomic():
                HouseRuleset.objects.create(
                    name=name,
                    owner=token,
                    base=draft.base.name,
                    title=draft.form.cleaned_data["title"][:80],
                    text=draft.text,
                    client=client,
                )
        except IntegrityError:
            continue  # the name was drawn twice: draw again
        query = urlencode({"base": draft.base.name, "saved": name})
        return with_owner(redirect(reverse("workshop") + "?" + query), token)
    draft.form.add_error(None, _("没能保存，请再试一次。"))
    return None


def mine(request: HttpRequest) -> list[HouseRuleset]:
    """The rulesets this browser saved (its owner cookie), newest first."""
    token = owner_token(request)
    return list(HouseRuleset.objects.filter(owner=token)[:50]) if token else []
