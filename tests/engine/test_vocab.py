"""The vocabulary: one place for every spelling and term, in both languages."""

from __future__ import annotations

import pytest

from checker.engine import vocab
from checker.engine.cards import parse_cards
from checker.engine.combos import type_name
from checker.engine.errors import CardError
from checker.engine.follow import reason_text
from checker.engine.order import parse_trump


def test_term_names_a_code_in_either_language() -> None:
    assert vocab.term("pair") == "对子"
    assert vocab.term("pair", "en") == "pair"
    assert vocab.term("big_sweep", "en-us") == "big sweep"
    assert vocab.term("not-a-code") == "not-a-code"


def test_engine_names_come_from_the_vocabulary() -> None:
    assert type_name("tractor") == vocab.term("tractor")
    assert reason_text("wrong_count", "en") == vocab.term("wrong_count", "en")


@pytest.mark.parametrize("text", ["none", "NT", "无主", "无将", "no-trump", "notrump"])
def test_every_no_trump_spelling_means_no_trump(text: str) -> None:
    assert vocab.is_no_trump(text)
    assert parse_trump(text) is None


def test_code_of_reads_words_back_into_codes() -> None:
    assert vocab.code_of("对子") == "pair"
    assert vocab.code_of("Tractor") == "tractor"
    assert vocab.code_of("nonsense") is None


def test_engine_errors_speak_both_languages() -> None:
    with pytest.raises(CardError) as info:
        parse_cards("♠Z")
    assert "无法识别" in info.value.message
    assert info.value.message_en.startswith("unknown card “♠Z”")
    assert info.value.message_for("en") == info.value.message_en
