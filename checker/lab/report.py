"""A study's report: per-arm figures with 95% intervals, and every between-arm difference.

Rates use the normal approximation p ± 1.96·√(p(1−p)/n); means use the sample variance from
the sums of squares. A difference b − a has the interval (b − a) ± 1.96·√(se_a² + se_b²) and is
flagged significant when that interval excludes 0.
"""

from __future__ import annotations

import math
from typing import Any

Z95 = 1.959964
# (metric, what counts, what it is counted over) in report order; rates are counts over n.
RATES = (
    ("banker_hold_rate", "banker_wins", "rounds"),
    ("kitty_bonus_rate", "kitty_bonus", "rounds"),
    ("surrender_rate", "surrender", "rounds"),
)
MEANS = (
    ("attacker_points", "points", "points_sq", "rounds"),
    ("levels_gained", "rise", "rise_sq", "rounds"),
    ("match_length", "match_rounds", "match_rounds_sq", "matches"),
)


def _figure(value: float, se: float) -> dict[str, Any]:
    return {
        "value": round(value, 4),
        "ci95": [round(value - Z95 * se, 4), round(value + Z95 * se, 4)],
        "se": round(se, 6),
    }


def rate(count: int, n: int) -> dict[str, Any]:
    """Give a proportion with its 95% interval."""
    p = count / n if n else 0.0
    return _figure(p, math.sqrt(p * (1 - p) / n) if n else 0.0)


def mean(total: int, squares: int, n: int) -> dict[str, Any]:
    """Give a mean from its sum and sum of squares, with its 95% interval."""
    if not n:
        return _figure(0.0, 0.0)
    m = total / n
    var = max(0.0, (squares - total * total / n) / (n - 1)) if n > 1 else 0.0
    return _figure(m, math.sqrt(var / n))


def arm_report(
    label: str, ruleset: str, options: dict[str, Any], t: dict[str, Any], surrender: bool
) -> dict[str, Any]:
    """Write one arm's figures: counts, rates and means with intervals, the points histogram."""
    out: dict[str, Any] = {
        "label": label,
        "ruleset": ruleset,
        "options": options,
        "rounds": t["rounds"],
        "illegal_plays": t["illegal_plays"],
        "invariant_breaks": t["invariant_breaks"],
    }
    for name, count, over in RATES:
        if name != "surrender_rate" or surrender:
            out[name] = rate(t[count], t[over])
    for name, total, squares, over in MEANS:
        if name != "match_length" or t["matches"]:
            out[name] = mean(t[total], t[squares], t[over])
    if t["matches"]:
        out["matches"] = t["matches"]
    out["attacker_points_histogram"] = dict(t["histogram"])
    return out


def differences(arms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Compare every pair of arms on every metric both have: b − a with its 95% interval."""
    names = [n for n, *_ in RATES] + [n for n, *_ in MEANS]
    out = []
    for i, a in enumerate(arms):
        for b in arms[i + 1 :]:
            for name in names:
                if name not in a or name not in b:
                    continue
                diff = b[name]["value"] - a[name]["value"]
                half = Z95 * math.hypot(a[name]["se"], b[name]["se"])
                low, high = diff - half, diff + half
                out.append(
                    {
                        "a": a["label"],
                        "b": b["label"],
                        "metric": name,
                        "diff": round(diff, 4),
                        "ci95": [round(low, 4), round(high, 4)],
                        "significant": low > 0 or high < 0,
                    }
                )
    return out


def study_report(study: str, arms: list[dict[str, Any]]) -> dict[str, Any]:
    """Put a study's report together: its name, the arms, the differences."""
    return {"study": study, "arms": arms, "differences": differences(arms)}


def render_table(report: dict[str, Any]) -> str:
    """Write a study's report as aligned text: one block per arm, then the differences."""
    lines = [f"study {report['study']}"]
    for arm in report["arms"]:
        lines.append("")
        lines.append(f"{arm['label']}   ({arm['ruleset']})")
        lines.append(f"  rounds             {arm['rounds']}")
        if "matches" in arm:
            lines.append(f"  matches            {arm['matches']}")
        lines.append(f"  illegal plays      {arm['illegal_plays']}")
        for key in (
            "banker_hold_rate",
            "attacker_points",
            "levels_gained",
            "kitty_bonus_rate",
            "surrender_rate",
            "match_length",
        ):
            if key in arm:
                f = arm[key]
                lo, hi = f["ci95"]
                lines.append(f"  {key:<18} {f['value']:>9.4f}   95% CI [{lo:.4f}, {hi:.4f}]")
        hist = arm["attacker_points_histogram"]
        lines.append("  points histogram   " + "  ".join(f"{k}:{v}" for k, v in hist.items()))
    if report["differences"]:
        lines += ["", "differences (b − a)"]
        for d in report["differences"]:
            lo, hi = d["ci95"]
            mark = "  *" if d["significant"] else ""
            lines.append(
                f"  {d['metric']:<18} {d['b']} − {d['a']}: {d['diff']:+.4f}"
                f"   95% CI [{lo:+.4f}, {hi:+.4f}]{mark}"
            )
        lines.append("  (* the interval excludes 0)")
    return "\n".join(lines)
