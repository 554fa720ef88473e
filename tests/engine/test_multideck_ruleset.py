"""The multideck ruleset: deck-count options, derived sizes and thresholds, typed sections."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from checker.engine.errors import RulesetError
from checker.engine.ruleset import RULESET_DIR, load_ruleset, parse_ruleset, ruleset_names
from checker.suite.cases import load_cases
from checker.suite.runner import run_case

MULTI = load_ruleset("multideck")


@pytest.mark.parametrize(
    ("decks", "players", "hand", "kitty"),
    [(3, 4, 40, 2), (4, 4, 54, 0), (3, 6, 27, 0), (8, 8, 54, 0), (1, 4, 13, 2), (2, 6, 18, 0)],
)
def test_hand_and_kitty_follow_from_decks_and_players(
    decks: int, players: int, hand: int, kitty: int
) -> None:
    rs = MULTI.with_options({"decks": decks, "players": players})
    assert (rs.decks, rs.players, rs.hand_size, rs.kitty_size) == (decks, players, hand, kitty)
    assert rs.hand_size * rs.players + rs.kitty_size == 54 * decks
    assert rs.total_points == 100 * decks


@pytest.mark.parametrize(
    ("decks", "small", "promote", "jump", "zero"),
    [(1, 5, 40, 20, 2), (2, 15, 80, 40, 3), (3, 45, 120, 60, 3), (4, 135, 160, 80, 3)],
)
def test_score_lines_by_deck_count(
    decks: int, small: int, promote: int, jump: int, zero: int
) -> None:
    score = MULTI.with_options({"decks": decks}).score
    assert (score.small_below, score.swap_at, score.step, score.zero_rise) == (
        small,
        promote,
        jump,
        zero,
    )


def test_small_sweep_formula_option_reads_k_factorial() -> None:
    assert MULTI.with_options({"decks": 3, "small_sweep": "factorial"}).score.small_below == 30
    assert MULTI.with_options({"decks": 4, "small_sweep": "factorial"}).score.small_below == 120


def test_levels_start_at_three_and_two_is_a_permanent_trump() -> None:
    assert MULTI.levels[0] == 3 and 2 not in MULTI.levels
    assert MULTI.trump_ranks == ("level", 2)


def test_flat_names_read_the_typed_sections() -> None:
    rs = load_ruleset("classic")
    assert rs.kitty_size == rs.deck.kitty_size and rs.players == rs.deck.players
    assert rs.throw_suits == rs.throw.suits and rs.failed_throw == rs.throw.failed
    assert rs.kitty_policy == rs.kitty.policy and rs.score_step == rs.score.step
    assert rs.declare_tiers == rs.declare.tiers and rs.has_flip is False
    assert load_ruleset("shuangsheng").has_flip is True


@pytest.mark.parametrize("value", [0, 9, "x", 2.5, True])
def test_bad_deck_counts_are_refused_naming_the_value(value: object) -> None:
    with pytest.raises(RulesetError) as err:
        MULTI.with_options({"decks": value})
    assert "decks" in err.value.message and str(value) in err.value.message


@pytest.mark.parametrize("value", [3, 5, 7, 2, 10, "six"])
def test_odd_or_out_of_range_players_are_refused(value: object) -> None:
    with pytest.raises(RulesetError) as err:
        MULTI.with_options({"players": value})
    assert "players" in err.value.message and str(value) in err.value.message


def test_deck_counts_written_as_text_are_read_as_numbers() -> None:
    assert MULTI.with_options({"decks": "4"}).decks == 4


def test_a_fixed_kitty_that_leaves_unequal_hands_is_refused_on_load() -> None:
    data = yaml.safe_load((RULESET_DIR / "multideck.yaml").read_text(encoding="utf-8"))
    data["kitty_size"] = 3
    with pytest.raises(RulesetError, match="平分"):
        parse_ruleset(data, "multideck.yaml")


def _one_case(tmp_path: Path, body: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.yaml"
    path.write_text("rulesets: [multideck]\ncases:\n" + body, encoding="utf-8")
    (case,) = load_cases([path], ruleset_names()).cases
    return run_case(case, "multideck")


@pytest.mark.parametrize(
    ("options", "value"), [("{decks: 0}", "0"), ('{decks: "x"}', "x"), ("{players: 5}", "5")]
)
def test_bad_options_in_a_case_name_the_case_and_the_value(
    tmp_path: Path, options: str, value: str
) -> None:
    result = _one_case(
        tmp_path,
        f"  - {{id: md-bad, title: t, kind: classify, options: {options}, cards: ♠5,"
        " expect: {type: single}}\n",
    )
    assert result.status == "error"
    assert "md-bad" in result.message and f"“{value}”" in result.message


def test_more_copies_than_decks_name_the_case_and_the_card(tmp_path: Path) -> None:
    result = _one_case(
        tmp_path,
        "  - {id: md-four, title: t, kind: classify, level: 3, trump: H,"
        " cards: ♠5 ♠5 ♠5 ♠5, expect: {type: tuple}}\n",
    )
    assert result.status == "error"
    assert "md-four" in result.message and "♠5" in result.message and "4" in result.message


def test_a_width_the_deck_cannot_hold_is_an_error(tmp_path: Path) -> None:
    result = _one_case(
        tmp_path,
        "  - {id: md-wide, title: t, kind: follow, options: {decks: 4}, level: 3, trump: H,"
        " lead: ♠5 ♠5 ♠5 ♠5 ♠5, hand: ♠9 ♠9 ♠9 ♠9 ♠9 ♠8, expect: {legal: true}}\n",
    )
    assert result.status == "error" and "md-wide" in result.message


def test_hidden_declarations_show_only_their_number_until_the_deal_ends() -> None:
    from checker.engine.cards import parse_cards
    from checker.engine.declare import shown_declaration

    cards = parse_cards("♥2 ♥2")
    hidden = MULTI.with_options({"declare_view": "hidden"})
    assert shown_declaration(hidden, cards, own=False, deal_over=False) == 2
    assert shown_declaration(hidden, cards, own=True, deal_over=False) == tuple(cards)
    assert shown_declaration(hidden, cards, own=False, deal_over=True) == tuple(cards)
    assert shown_declaration(MULTI, cards, own=False, deal_over=False) == tuple(cards)
