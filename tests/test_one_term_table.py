"""One term table (issue 25.5): every term's 中文 / English wording lives in the engine's
vocabulary (`vocab.TERMS`); the rules page's glossary only groups term codes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.test import Client

from checker.engine.vocab import GLOSSES, SUIT_SYMBOLS, TERMS, glossary_row, term
from checker.web.glossary import GROUPS, glossary_groups

ROOT = Path(__file__).resolve().parent.parent
HAN = re.compile(r"[\u3400-\u9fff]")


def test_the_glossary_holds_codes_of_the_vocabulary_only() -> None:
    for _title, codes in GROUPS:
        for code in codes:
            assert code in TERMS or code in SUIT_SYMBOLS, code
    assert set(GLOSSES) <= set(TERMS)


def test_the_glossary_module_keeps_no_wording_of_its_own() -> None:
    """Its only Chinese text is the headings (gettext); no (中文, English) pairs."""
    tree = ast.parse((ROOT / "checker/web/glossary.py").read_text(encoding="utf-8"))
    headings = {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_"
        if isinstance(node.args[0], ast.Constant)
    }
    docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    han = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if HAN.search(node.value) and id(node) not in docs
    }
    assert han == headings


def test_each_terms_wording_is_written_once() -> None:
    zh = [words[0] for words in TERMS.values()]
    en = [words[1].lower() for words in TERMS.values()]
    assert len(set(zh)) == len(zh)
    assert len(set(en)) == len(en)


def test_a_glossary_row_uses_the_terms_words() -> None:
    assert glossary_row("tractor") == (f"{term('tractor')} / 连对", "Tractor (consecutive pairs)")
    assert glossary_row("big_joker") == ("大王", "Big Joker")
    assert glossary_row("S") == ("黑桃 ♠", "Spades ♠")


@pytest.mark.django_db
def test_the_rules_page_shows_every_glossary_row() -> None:
    html = Client().get("/rulesets/classic/").content.decode()
    for _title, rows in glossary_groups():
        for zh, en in rows:
            assert f'<td lang="zh-Hans">{zh}</td><td lang="en">{en}</td>' in html, (zh, en)
