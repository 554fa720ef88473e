"""A study report's charts as the template draws them in SVG: each arm's histogram of the
attackers' points, and one bar per arm with its 95% interval as an error bar."""

from __future__ import annotations

from typing import Any

from checker.lab.shards import POINTS_BIN

HIST_W, HIST_H = 320, 110
BAR_W, BAR_H = 320, 120
TOP = 14  # room above the plot for the value labels
AXIS = 18  # room below it for the axis labels


def histogram(arm: dict[str, Any], top_points: int) -> dict[str, Any]:
    """One arm's histogram of attackers' points (bins of 10, shares of its rounds)."""
    counts = {int(k): v for k, v in arm["attacker_points_histogram"].items()}
    bins = list(range(0, top_points + POINTS_BIN, POINTS_BIN))
    total = sum(counts.values()) or 1
    tallest = max(counts.values(), default=1) or 1
    width = HIST_W / len(bins)
    bars = []
    for i, low in enumerate(bins):
        n = counts.get(low, 0)
        height = round(HIST_H * n / tallest, 1)
        bars.append(
            {
                "x": round(i * width, 1),
                "w": round(max(width - 1, 1), 1),
                "y": round(TOP + HIST_H - height, 1),
                "h": height,
                "low": low,
                "n": n,
                "share": round(100 * n / total, 1),
            }
        )
    ticks = [
        {"x": round(i * width, 1), "label": low}
        for i, low in enumerate(bins)
        if low % (POINTS_BIN * 4) == 0
    ]
    return {
        "label": arm["label"],
        "bars": bars,
        "ticks": ticks,
        "w": HIST_W,
        "h": TOP + HIST_H + AXIS,
        "axis_y": TOP + HIST_H,
        "tick_y": TOP + HIST_H + 14,
    }


def histograms(arms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every arm's histogram on the same point axis."""
    top = max(
        (int(k) for arm in arms for k in arm["attacker_points_histogram"]), default=POINTS_BIN
    )
    return [histogram(arm, top) for arm in arms]


def interval_bars(arms: list[dict[str, Any]], metric: str) -> dict[str, Any] | None:
    """One bar per arm for a metric, with its 95% interval drawn as an error bar (a rate on
    0–100%, a mean from 0 to the largest interval's top)."""
    shown = [a for a in arms if metric in a]
    if not shown:
        return None
    rate = metric.endswith("_rate")
    scale_top = 1.0 if rate else max(a[metric]["ci95"][1] for a in shown) or 1.0
    slot = BAR_W / len(shown)
    bars = []
    for i, arm in enumerate(shown):
        f = arm[metric]
        low, high = (max(0.0, min(v, scale_top)) for v in f["ci95"])

        def y(v: float) -> float:
            return round(TOP + BAR_H * (1 - v / scale_top), 1)

        mid = round(i * slot + slot / 2, 1)
        bars.append(
            {
                "x": round(i * slot + slot * 0.2, 1),
                "w": round(slot * 0.6, 1),
                "y": y(max(f["value"], 0.0)),
                "h": round(TOP + BAR_H - y(max(f["value"], 0.0)), 1),
                "mid": mid,
                "cap_l": round(mid - 6, 1),
                "cap_r": round(mid + 6, 1),
                "low_y": y(low),
                "high_y": y(high),
                "value": f"{100 * f['value']:.1f}%" if rate else f"{f['value']:.2f}",
                "ci": _ci_words(f["ci95"], rate),
                "label": arm["label"],
            }
        )
    return {
        "metric": metric,
        "bars": bars,
        "w": BAR_W,
        "h": TOP + BAR_H + AXIS,
        "axis_y": TOP + BAR_H,
        "label_y": TOP + BAR_H + 14,
    }


def _ci_words(ci: list[float], rate: bool) -> str:
    low, high = ci
    return f"{100 * low:.1f}–{100 * high:.1f}%" if rate else f"{low:.2f}–{high:.2f}"


def difference_words(d: dict[str, Any]) -> dict[str, Any]:
    """A difference between two arms as the report table writes it."""
    rate = d["metric"].endswith("_rate")
    value = f"{100 * d['diff']:+.1f}%" if rate else f"{d['diff']:+.2f}"
    low, high = d["ci95"]
    ci = f"[{100 * low:+.1f}%, {100 * high:+.1f}%]" if rate else f"[{low:+.2f}, {high:+.2f}]"
    return {**d, "value": value, "ci": ci}


def interval_cell(figure: dict[str, Any], rate: bool) -> dict[str, str]:
    """A figure and its 95% interval as a report table's cell."""
    value = f"{100 * figure['value']:.1f}%" if rate else f"{figure['value']:.2f}"
    return {"value": value, "ci": _ci_words(figure["ci95"], rate)}
