"""Replaying a duel's rounds in two strata: the same tree loses the same rounds again, and the
estimate adds the won stratum's share of new losses to the lost rounds still lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checker.perf import duelreplay, duelrun


def _args(path: Path, *extra: str) -> list[str]:
    return [str(path), "--ruleset", "classic", "--bots", "random", "random",
            "--deals", "6", "--seed", "5", *extra]  # fmt: skip


def test_the_same_tree_loses_the_same_rounds_again(tmp_path: Path) -> None:
    out = tmp_path / "duel.jsonl"
    duelrun.main(_args(out))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    lost = sum(not a["won"] for row in rows for a, _ in row["rounds"])
    won_sampled = sum(a["won"] for row in rows if row["deal"] % 3 == 0 for a, _ in row["rounds"])
    got = duelreplay.replay(duelreplay.parse(_args(out, "--every", "3")))
    assert 0 < lost < 12  # random against random: some rounds of each
    assert (got.rounds, got.lost, got.still_lost) == (12, lost, lost)
    assert (got.sampled, got.newly_lost) == (won_sampled, 0)


def test_the_estimate_adds_the_won_strata_share_of_new_losses() -> None:
    est = duelreplay.Estimate(rounds=2000, lost=60, still_lost=20, sampled=200, newly_lost=4)
    data = est.as_dict()
    assert data["estimated_losses"] == pytest.approx(20 + 1940 * 0.02)
    assert data["estimated_win_rate"] == pytest.approx(1 - (20 + 38.8) / 2000, abs=1e-4)
    low, high = data["win_rate_95"]
    assert low < data["estimated_win_rate"] < high


def test_strata_take_every_lost_round_and_the_won_rounds_of_every_kth_deal() -> None:
    won, lost = {"won": True}, {"won": False}
    rows = [
        {"deal": 0, "rounds": [[won, lost], [lost, won]]},
        {"deal": 1, "rounds": [[won, lost], [won, lost]]},
        {"deal": 2, "rounds": [[lost, won], [won, lost]]},
    ]
    assert list(duelreplay.strata(rows, 2)) == [
        (0, 0, False),
        (0, 1, True),
        (2, 0, True),
        (2, 1, False),
    ]


def test_sure_holds_v3_to_another_bar_while_the_replay_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from checker.play.bots import search

    seen: list[float] = []
    monkeypatch.setattr(duelreplay, "_replay", lambda args: seen.append(search.SURE))
    kept = search.SURE
    duelreplay.replay(duelreplay.parse(_args(tmp_path / "none.jsonl", "--sure", "2.5")))
    assert seen == [2.5] and kept == search.SURE
