"""Seed self-check tables: the categories and row counts of a seed's own self-check, and the
case results mapped onto them through each case's `source` ("<seed>, <category> #<k>")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

# The self-check each seed ships, category by category in the seed's order, with its row
# count. Seeds without a table (001–004) are absent.
SEED_SELF_CHECKS: dict[str, tuple[tuple[str, int], ...]] = {
    "000_5d8e95ec3e6da488.txt": (
        ("牌型识别", 25),
        ("亮主规则", 4),
        ("甩牌合法性与是否可出", 5),
        ("跟牌规则", 16),
        ("比牌与杀牌", 23),
        ("机器人跟牌合规", 10),
        ("机器人v2跟牌合规", 6),
        ("机器人v2策略优化", 26),
        ("机器人v2记牌", 3),
        ("机器人v2埋牌", 10),
        ("机器人v2反主门槛", 19),
        ("抠底倍率", 10),
        ("不可跳过级别", 4),
        ("机器人领牌", 6),
    ),
}

# A case transcribing a seed row names it exactly so: "000_5d8e95ec3e6da488.txt, 跟牌规则 #3".
SEED_ROW = re.compile(r"(?P<seed>\d{3}_[0-9a-f]{16}\.txt), (?P<category>[^,;#]+?) #(?P<k>\d+)")


class HasStatus(Protocol):
    """A case result as far as the seed table needs it."""

    @property
    def source(self) -> str | None: ...

    @property
    def status(self) -> str: ...


def parse_seed_row(source: object) -> tuple[str, str, int] | None:
    """Read (seed, category, row number) from a case's source, or None for any other source."""
    if not isinstance(source, str):
        return None
    match = SEED_ROW.fullmatch(source.strip())
    if match is None:
        return None
    return match["seed"], match["category"], int(match["k"])


@dataclass
class SeedCategory:
    """One category of a seed's self-check: its rows passed, failing and not transcribed."""

    name: str
    rows: int
    passed: int = 0
    failing: int = 0

    @property
    def missing(self) -> int:
        """Rows with no case yet: counted apart, never as passed."""
        return self.rows - self.passed - self.failing


@dataclass
class SeedReport:
    """A run split into the seed's own rows and the project's supplementary cases."""

    seed: str
    categories: list[SeedCategory]
    extra_passed: int = 0
    extra_total: int = 0
    stray: list[str] = field(default_factory=list)  # sources naming rows the seed lacks

    @property
    def rows(self) -> int:
        return sum(c.rows for c in self.categories)

    @property
    def passed(self) -> int:
        return sum(c.passed for c in self.categories)

    @property
    def missing(self) -> int:
        return sum(c.missing for c in self.categories)

    @property
    def ok(self) -> bool:
        """Every seed row has cases that pass, and every supplementary case passes."""
        return self.passed == self.rows and self.extra_passed == self.extra_total


def has_seed_table(seed: str) -> bool:
    """Tell whether a seed ships a self-check table."""
    return seed in SEED_SELF_CHECKS


def seed_report(seed: str, results: Iterable[HasStatus]) -> SeedReport | None:
    """Map results onto the seed's self-check rows (a row passes when all its cases pass);
    every other result is a supplementary case. None when the seed has no table."""
    table = SEED_SELF_CHECKS.get(seed)
    if table is None:
        return None
    sizes = dict(table)
    rows: dict[tuple[str, int], list[str]] = {}
    report = SeedReport(seed, [SeedCategory(name, n) for name, n in table])
    for r in results:
        row = parse_seed_row(r.source)
        if row is not None and row[0] == seed and 1 <= row[2] <= sizes.get(row[1], 0):
            rows.setdefault((row[1], row[2]), []).append(r.status)
            continue
        if row is not None and row[0] == seed and r.source not in report.stray:
            report.stray.append(str(r.source))
        report.extra_total += 1
        report.extra_passed += r.status == "pass"
    by_name = {c.name: c for c in report.categories}
    for (category, _k), statuses in rows.items():
        if all(s == "pass" for s in statuses):
            by_name[category].passed += 1
        else:
            by_name[category].failing += 1
    return report
