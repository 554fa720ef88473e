"""English all the way (issue 8.6): every page rendered with the English switch shows no
Chinese outside the places marked `lang="zh-Hans"` — the language switch's own label, the
bilingual glossary, and what is quoted from the files as written (case titles, categories,
sources, YAML)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client

from checker.engine.ruleset import ruleset_names

pytestmark = pytest.mark.django_db

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
# Attributes a reader sees or hears (values of options and hidden inputs are parameters).
SHOWN = ("title", "aria-label", "placeholder", "alt")


class ChineseOutsideMarks(HTMLParser):
    """Collect the Chinese a reader of the page meets outside elements marked lang="zh…"."""

    def __init__(self, pattern: re.Pattern[str] = CJK) -> None:
        super().__init__(convert_charrefs=True)
        self.pattern = pattern
        self.open: list[tuple[str, bool]] = []
        self.found: list[str] = []

    def _marked(self) -> bool:
        return any(zh for _, zh in self.open)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        zh = values.get("lang", "").lower().startswith("zh")
        if not (zh or self._marked()):
            shown = [values.get(k, "") for k in SHOWN]
            if tag == "input" and values.get("type") in (None, "", "text", "submit", "button"):
                shown.append(values.get("value", ""))
            self.found += [f"<{tag} {v[:80]}>" for v in shown if self.pattern.search(v)]
        if tag not in VOID:
            self.open.append((tag, zh))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                del self.open[i:]
                return

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1][0] in ("script", "style"):
            return
        if self.pattern.search(data) and not self._marked():
            self.found.append(" ".join(data.split())[:120])


def chinese_outside_marks(html: str, pattern: re.Pattern[str] = CJK) -> list[str]:
    """List the Chinese texts of a page that are not inside an element marked lang="zh…"."""
    parser = ChineseOutsideMarks(pattern)
    parser.feed(html)
    return list(dict.fromkeys(parser.found))


FIRST_CASE = {
    "classic": "classic-classify-pair-same-suit",
    "erqiwang": "erqiwang-classify-trump-7-pair",
    "multideck": "md-classify-triple-k3",
    "shuangsheng": "shuangsheng-classify-main-off-level-pairs-tractor",
}


def _pages() -> list[str]:
    pages = [
        "/",
        "/?status=pass&category=%E7%89%8C%E5%9E%8B%E8%AF%86%E5%88%AB",
        "/check/",
        "/check/?ruleset=classic&level=2&trump=H&lead=SA+SQ+SQ&h1=SK+SK+S3+S4&p1=SK+SK",
        "/check/?ruleset=classic&level=2&trump=H&lead=SK+SK&h1=SQ+SQ+S10+S5&p1=SQ+S5",
        "/check/?ruleset=classic&lead=ZZ",
        "/matrix/",
        "/matrix/?lead=SA+SA&h1=SK+SK+S3&p1=SK+SK",
        "/simulation/",
        "/play/",
    ]
    for name in ruleset_names():
        pages += [
            f"/rulesets/{name}/",
            f"/rulesets/{name}/selfcheck/",
            f"/cases/{name}/{FIRST_CASE[name]}/" if name in FIRST_CASE else f"/rulesets/{name}/",
            f"/check/?ruleset={name}&trump=S&lead=SA+SA&h1=SK+SK+S5&p1=SK+S5",
        ]
    return pages


def test_the_audit_finds_chinese_outside_marks() -> None:
    html = '<p lang="zh-Hans">中文 <b>好</b></p><p title="标题">ok</p><p>漏了</p><input value="值">'
    assert chinese_outside_marks(html) == ["<p 标题>", "漏了", "<input 值>"]


@pytest.mark.parametrize("path", _pages())
def test_english_page_has_no_chinese_outside_marked_places(path: str) -> None:
    client = Client()
    client.cookies["lang"] = "en"
    response: Any = client.get(path)
    assert response.status_code in (200, 400), path
    found = chinese_outside_marks(response.content.decode())
    assert found == [], (path, found[:20])
