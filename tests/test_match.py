"""Whole matches: state carried between rounds, the invariants of issue 12 in every match,
determinism, replay, and the small API a table uses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checker.engine.errors import EngineError
from checker.engine.ruleset import load_ruleset, ruleset_names
from checker.play.match import (
    MatchState,
    RoundRecord,
    apply_result,
    apply_round,
    check_step,
    play_match,
    round_setup_for,
    start_match,
)
from checker.play.replay import replay
from checker.play.simulation import header, match_seeds, run_match_job, simulate_matches

RULESETS = ruleset_names()


@pytest.mark.parametrize("name", RULESETS)
def test_seeded_matches_end_cleanly(name: str) -> None:
    rs = load_ruleset(name)
    for seed in range(3):
        match = play_match(rs, seed, "random")
        assert match.finished and not match.breaks, match.breaks
        assert all(r.illegal == 0 and not r.breaks for r in match.rounds)
        assert match.state.winner
        assert sum(match.state.chips) == 0
        numbers = [r.round_no for r in match.records]
        assert numbers == list(range(1, len(numbers) + 1))


@pytest.mark.parametrize("name", RULESETS)
def test_same_seed_gives_the_same_match_log(name: str) -> None:
    job = (name, "random", 0, match_seeds(7, 1)[0])
    assert run_match_job(job) == run_match_job(job)


def test_each_round_starts_where_the_last_one_left_the_state() -> None:
    rs = load_ruleset("shuangsheng")
    match = play_match(rs, 3, "random")
    for before, after in zip(match.records, match.records[1:], strict=False):
        assert after.levels_before == before.levels_after
        assert after.banker == before.next_banker or rs.teams == "banker_alone"
    # the round log's setup is the state the match layer gave it
    first = [e for e in match.rounds[1].events if e["t"] == "round"][0]
    assert first["banker"] == match.records[0].next_banker


def test_erqiwang_match_is_six_rounds_or_twelve() -> None:
    rs = load_ruleset("erqiwang")
    assert len(play_match(rs, 1, "random").records) == 6
    assert len(play_match(rs.with_options({"match_rounds": 12}), 1, "random").records) == 12


def test_erqiwang_chips_follow_the_payment_lines_every_round() -> None:
    rs = load_ruleset("erqiwang")
    match = play_match(rs, 2, "random")
    total = [0, 0, 0]
    for record in match.records:
        assert sum(record.net) == 0
        assert record.x is not None and record.x > 0
        total = [t + d for t, d in zip(total, record.net, strict=True)]
        assert list(record.chips_after) == total
    # the deal passes on when the banker loses, stays when the banker wins
    for record in match.records:
        won = record.result in ("big_sweep", "small_sweep", "hold")
        assert record.next_banker == (record.banker if won else (record.banker + 1) % 3)


def test_table_api_start_setup_apply() -> None:
    rs = load_ruleset("classic")
    state = start_match(rs)
    assert state == MatchState(1, None, (2, 2), (0, 0, 0, 0))
    setup = round_setup_for(rs, state)
    assert (setup.level, setup.attacker_level, setup.banker) == (2, 2, None)
    state, record, _ = apply_round(rs, state, banker=1, result="small_sweep", rise=2)
    assert (state.banker, state.levels, state.round_no) == (3, (2, 4), 2)
    setup = round_setup_for(rs, state)
    assert (setup.level, setup.attacker_level, setup.banker) == (4, 2, 3)
    assert record.rule == "hold_partner"
    over = MatchState(9, 0, (14, 5), (0, 0, 0, 0))
    done, _, _ = apply_round(rs, over, banker=0, result="hold", rise=1)
    assert done.over and done.winner == (0, 2)
    with pytest.raises(EngineError):
        round_setup_for(rs, done)
    with pytest.raises(EngineError):
        apply_round(rs, done, banker=0, result="hold", rise=1)


def test_apply_result_takes_a_played_round() -> None:
    from checker.play.bots.registry import make_players
    from checker.play.round import play_round

    rs = load_ruleset("shuangsheng")
    state = start_match(rs)
    res = play_round(rs, 11, make_players("random", 11, 4), round_setup_for(rs, state))
    new, record = apply_result(rs, state, res)
    assert record.banker == res.banker and record.result == res.result
    assert new.round_no == 2 and new.banker is not None


def _record(
    rs_name: str, before: tuple[int, int], after: tuple[int, int], result: str, rise: int
) -> RoundRecord:
    return RoundRecord(1, 0, 0, result, rise, before, after, (0,) * 4, (0,) * 4, None, (), "", 2)


def test_level_invariant_catches_skips_and_wrong_steps() -> None:
    rs = load_ruleset("classic")
    assert check_step(rs, _record("classic", (8, 2), (10, 2), "big_sweep", 3)) == []
    assert check_step(rs, _record("classic", (8, 2), (11, 2), "big_sweep", 3))  # skipped 10
    assert check_step(rs, _record("classic", (5, 2), (9, 2), "big_sweep", 3))  # too far
    assert check_step(rs, _record("classic", (5, 2), (6, 3), "hold", 1))  # loser moved
    assert check_step(rs, _record("classic", (5, 2), (6, 2), "small_sweep", 2))  # stopped short


def _match_log(name: str, tmp_path: Path) -> list[str]:
    lines = [json.dumps({**json.loads(header(name, "random", 0, 5, "test")), "matches": 2})]
    counter = [0]

    def on_match(index: int, logs: list[list[dict[str, object]]]) -> None:
        for events in logs:
            lines.extend(
                json.dumps({"r": counter[0], "m": index, **e}, ensure_ascii=False) for e in events
            )
            counter[0] += 1

    rounds, matches = simulate_matches(name, "random", 2, 5, 1, on_match)
    assert matches.matches == 2 and rounds.rounds == counter[0]
    return lines


@pytest.mark.parametrize("name", RULESETS)
def test_replay_rejudges_a_match_log(name: str, tmp_path: Path) -> None:
    lines = _match_log(name, tmp_path)
    assert replay(lines).ok
    assert replay(lines, resimulate=True).ok


def test_replay_finds_a_tampered_rotation() -> None:
    lines = _match_log("shuangsheng", Path("."))
    for i, line in enumerate(lines):
        event = json.loads(line)
        if event.get("t") == "next":
            event["next_banker"] = (event["next_banker"] + 1) % 4
            lines[i] = json.dumps(event, ensure_ascii=False)
            break
    report = replay(lines)
    assert not report.ok
    assert any(d.what == "next_banker" for d in report.diffs)
