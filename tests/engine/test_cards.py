"""Card notation (case-format.md, "Cards"): every accepted spelling, formatting, bad tokens."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from checker.engine.cards import (
    BIG,
    SMALL,
    Card,
    ascii_card,
    copies,
    count_play_points,
    count_points,
    format_card,
    format_cards,
    is_subset,
    parse_card,
    parse_cards,
    parse_rank,
    parse_suit,
)
from checker.engine.errors import CardError

ALL_FACES = [Card(s, r) for s in "SHCD" for r in range(2, 15)] + [SMALL, BIG]


@pytest.mark.parametrize("token", ["♠A", "SA", "sa", "Sa", "sA"])
def test_ace_of_spades_spellings(token: str) -> None:
    assert parse_cards(token) == [Card("S", 14)]


@pytest.mark.parametrize("token", ["♥10", "H10", "HT", "ht", "h10"])
def test_ten_is_written_10_or_t(token: str) -> None:
    assert parse_cards(token) == [Card("H", 10)]


@pytest.mark.parametrize("token", ["♣J", "CJ", "cj"])
def test_jack_of_clubs_spellings(token: str) -> None:
    assert parse_cards(token) == [Card("C", 11)]


@pytest.mark.parametrize("token", ["大王", "BJ"])
def test_big_joker_spellings(token: str) -> None:
    assert parse_cards(token) == [BIG]


@pytest.mark.parametrize("token", ["小王", "LJ"])
def test_small_joker_spellings(token: str) -> None:
    assert parse_cards(token) == [SMALL]


def test_sj_is_the_jack_of_spades_never_a_joker() -> None:
    (card,) = parse_cards("SJ")
    assert card == Card("S", 11)
    assert not card.is_joker
    assert card not in (BIG, SMALL)


@pytest.mark.parametrize(("suit", "letter"), [("♠", "S"), ("♥", "H"), ("♣", "C"), ("♦", "D")])
def test_suit_symbol_and_letter_are_the_same_suit(suit: str, letter: str) -> None:
    for rank in ("2", "9", "10", "Q", "K"):
        assert parse_cards(suit + rank) == parse_cards(letter + rank)
    assert parse_suit(suit) == parse_suit(letter) == letter


@pytest.mark.parametrize(
    ("text", "rank"),
    [("2", 2), ("9", 9), ("10", 10), ("T", 10), ("J", 11), ("Q", 12), ("K", 13), ("A", 14)],
)
def test_ranks_two_to_ace(text: str, rank: int) -> None:
    assert parse_rank(text) == rank
    assert parse_cards("D" + text) == [Card("D", rank)]


def test_symbol_tokens_may_run_together() -> None:
    spade9, spade_j = Card("S", 9), Card("S", 11)
    assert parse_cards("♠9♠9♠J♠J") == [spade9, spade9, spade_j, spade_j]


def test_joker_tokens_may_run_together() -> None:
    assert parse_cards("小王小王") == [SMALL, SMALL]
    assert parse_cards("小王小王大王大王") == [SMALL, SMALL, BIG, BIG]


def test_run_together_ten_is_not_split_into_one_and_zero() -> None:
    assert parse_cards("♥10♥10♠9") == [Card("H", 10), Card("H", 10), Card("S", 9)]


@pytest.mark.parametrize("text", ["SA,HT", "SA, HT", "SA ,HT", "SA  HT", "SA\tHT", "SA\nHT"])
def test_tokens_separated_by_spaces_or_commas(text: str) -> None:
    assert parse_cards(text) == [Card("S", 14), Card("H", 10)]


def test_a_list_of_tokens_parses_like_the_joined_string() -> None:
    assert parse_cards(["♠A", "HT", "小王", "BJ"]) == parse_cards("♠A HT 小王 BJ")


def test_empty_text_is_no_cards() -> None:
    assert parse_cards("") == []
    assert parse_cards(" , ") == []


def test_parse_card_rejects_two_cards() -> None:
    with pytest.raises(CardError):
        parse_card("SA SK")


def test_output_uses_suit_symbols_and_chinese_jokers() -> None:
    assert format_cards(parse_cards("SA HT cj d2 BJ LJ")) == "♠A ♥10 ♣J ♦2 大王 小王"


@pytest.mark.parametrize("card", ALL_FACES, ids=format_card)
def test_every_face_round_trips_through_symbol_and_ascii_spellings(card: Card) -> None:
    assert parse_card(format_card(card)) == card
    assert parse_card(ascii_card(card)) == card
    assert str(card) == format_card(card)


@given(st.lists(st.sampled_from(ALL_FACES), max_size=30))
def test_any_card_list_round_trips(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards("".join(format_card(c) for c in cards)) == cards
    assert parse_cards(",".join(ascii_card(c) for c in cards)) == cards


@pytest.mark.parametrize(
    "token", ["S1", "X5", "♠11", "H0", "♥1", "Z", "10", "大大王", "JOKER", "S", "♠"]
)
def test_bad_token_raises_card_error_quoting_it(token: str) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(f"♠A {token} ♥K")
    assert f"“{token}”" in str(info.value)
    assert info.value.value == token


def test_bad_token_inside_a_run_of_symbol_tokens_is_quoted() -> None:
    with pytest.raises(CardError) as info:
        parse_cards("♠9♠9♠X♠J")
    assert "♠X" in str(info.value)


def test_bad_token_with_valid_prefix_is_quoted_whole() -> None:
    with pytest.raises(CardError) as info:
        parse_cards("♠K SAX ♥K")
    assert "“SAX”" in str(info.value)


def test_emoji_variation_selector_is_accepted_in_list_form_as_in_string_form() -> None:
    assert parse_cards("♠\ufe0fA") == [Card("S", 14)]
    assert parse_cards(["♠\ufe0fA"]) == [Card("S", 14)]


@pytest.mark.parametrize("text", ["1", "11", "B", "0", ""])
def test_bad_rank_raises(text: str) -> None:
    with pytest.raises(CardError):
        parse_rank(text)


def test_point_cards_are_five_ten_and_king() -> None:
    assert count_points(parse_cards("♠5 ♥10 ♣K ♦A ♠Q ♠J 大王 小王 ♦9")) == 25
    assert [c.points for c in parse_cards("S5 S10 SK")] == [5, 10, 10]


@given(st.lists(st.lists(st.sampled_from(ALL_FACES), max_size=8), max_size=6))
def test_the_points_of_several_plays_are_the_points_of_all_their_cards(
    plays: list[list[Card]],
) -> None:
    assert count_play_points(plays) == count_points([c for p in plays for c in p])
    assert count_play_points(plays) == sum(c.points for p in plays for c in p)


@given(st.lists(st.sampled_from(ALL_FACES), max_size=40))
def test_copies_counts_each_card_in_the_order_cards_first_appear(cards: list[Card]) -> None:
    counts = copies(cards)
    assert counts == {c: cards.count(c) for c in cards}
    assert list(counts) == list(dict.fromkeys(cards))


# The card model: a card is its face's small integer (the engine's card codes).


@given(st.sampled_from(ALL_FACES), st.sampled_from(ALL_FACES))
def test_cards_order_as_their_suit_and_rank_pairs_do(a: Card, b: Card) -> None:
    assert (a < b) == ((a.suit, a.rank) < (b.suit, b.rank))
    assert (a == b) == ((a.suit, a.rank) == (b.suit, b.rank))


def test_each_face_is_one_shared_object_with_a_byte_code() -> None:
    for card in ALL_FACES:
        assert Card(card.suit, card.rank) is card
        assert 1 <= card <= 255 and card  # never 0: a card is always true
    assert len(set(ALL_FACES)) == 54
    assert bytes(ALL_FACES) == bytes(int(c) for c in ALL_FACES)


def test_a_card_unpacks_indexes_and_prints_as_suit_and_rank() -> None:
    card = parse_card("♥10")
    suit, rank = card
    assert (suit, rank) == (card[0], card[1]) == ("H", 10)
    assert repr(card) == "Card(suit='H', rank=10)" and str(card) == "♥10"
    assert SMALL.is_joker and BIG.is_joker and not card.is_joker


def test_a_card_survives_pickling_and_copying_as_the_same_object() -> None:
    import copy
    import pickle

    for card in (parse_card("♠A"), SMALL, BIG):
        assert pickle.loads(pickle.dumps(card)) is card
        assert copy.deepcopy(card) is card


def test_a_face_outside_every_deck_gets_a_code_of_its_own() -> None:
    odd = Card("X", 3)
    assert odd.suit == "X" and odd.rank == 3 and odd not in ALL_FACES
    assert Card("X", 3) is odd and odd > max(ALL_FACES)


def test_faces_beyond_the_byte_codes_are_a_card_error_naming_the_face() -> None:
    # In a process of its own: the faces it makes stay registered for the process's life.
    import subprocess
    import sys

    script = (
        "from checker.engine.cards import Card, CardError\n"
        "try:\n"
        "    for r in range(1000, 1300): Card('Z', r)\n"
        "except CardError as e: print(e.message_for('en'), e.value)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.strip() == "too many card faces for byte codes: 'Z' 1201 Z1201", done.stderr


_SHAPES = {"tuple": tuple, "list": list, "iterator": iter, "set": set}


@given(
    st.lists(st.sampled_from(ALL_FACES[:6]), max_size=6),
    st.lists(st.sampled_from(ALL_FACES[:6]), max_size=12),
    st.sampled_from(["tuple", "list", "iterator"]),
    st.sampled_from(["tuple", "list", "iterator", "set"]),
)
def test_a_subset_holds_every_card_as_often_in_any_container(
    part: list[Card], whole: list[Card], part_shape: str, whole_shape: str
) -> None:
    container = _SHAPES[whole_shape](whole)
    counted = Counter(set(whole) if whole_shape == "set" else whole)
    expected = not Counter(part) - counted
    assert is_subset(_SHAPES[part_shape](part), container) is expected
