"""Card tokens (issue 9.2): only the contract's spellings, no Unicode case-folding surprises;
arbitrary Unicode in any card field of any view or of the runner is a 4xx or an error row."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.engine.cards import BIG, SMALL, Card, ascii_upper, parse_cards, parse_rank, parse_suit
from checker.engine.errors import CardError, EngineError
from checker.engine.ruleset import ruleset_names
from checker.suite.cases import Case, _validate_case
from checker.suite.fields import CARD_LISTS, CARDS, Named
from checker.suite.registry import KINDS
from checker.suite.runner import run_case

KELVIN, LONG_S, DOTLESS_I = "\u212a", "\u017f", "\u0131"
# Every character a parsed card list may contain besides separators.
SPELLING = set("♠♤♥♡♣♧♦♢SHCDshcd0123456789TJQKAtjqkaBbLl大王小")
PUNCTUATION = set(",，、;；+\ufe0f")  # besides whitespace, which separates too
# Text without surrogates (they cannot be sent in a URL), weighted towards look-alikes.
LOOKALIKES = st.sampled_from([KELVIN, LONG_S, DOTLESS_I, "ﬆ", "Ｓ", "Ａ", "\x00", "\u200b", "♤"])
TEXT = st.text(
    alphabet=st.one_of(
        st.characters(blacklist_categories=("Cs",)), LOOKALIKES, st.sampled_from(list(SPELLING))
    ),
    max_size=16,
)


@pytest.mark.parametrize(
    "token", [f"S{KELVIN}", f"{LONG_S}A", f"{LONG_S}{KELVIN}", f"♠{KELVIN}", f"B{KELVIN}", "ＳＡ"]
)
def test_lookalike_letters_are_a_card_error_naming_them(token: str) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(token)
    odd = next(ch for ch in token if ch not in SPELLING)
    assert odd in info.value.message and odd in info.value.message_en


def test_ascii_spellings_in_either_case_still_parse() -> None:
    assert parse_cards("sa Sa SA ht H10 bj Lj ♠k") == [
        Card("S", 14),
        Card("S", 14),
        Card("S", 14),
        Card("H", 10),
        Card("H", 10),
        BIG,
        SMALL,
        Card("S", 13),
    ]


@pytest.mark.parametrize("text", [KELVIN, LONG_S, DOTLESS_I, "ﬆ"])
def test_ranks_and_suits_are_not_case_mapped(text: str) -> None:
    with pytest.raises(CardError):
        parse_suit(text)
    with pytest.raises(CardError):
        parse_rank(text)
    assert ascii_upper(f"a{text}z") == f"A{text}Z"


@given(TEXT)
@settings(max_examples=400, deadline=None)
def test_any_text_is_cards_of_the_contract_or_a_card_error(text: str) -> None:
    try:
        parse_cards(text)
    except CardError as exc:
        assert exc.value is not None and exc.value in text
        return
    assert all(ch in SPELLING or ch in PUNCTUATION or ch.isspace() for ch in text), text


# -- every card field of every view -----------------------------------------------------------

VIEWS = ("/check/", "/api/check", "/matrix/")
FIELDS = ("lead", "h0", "h1", "p1", "h2", "p2", "h3", "p3", "level", "trump", "options")
BASE = {"lead": "SA SA", "h1": "SK SK S3", "p1": "SK SK", "h2": "H3 H4 H5", "p2": "H3 H4"}


@pytest.mark.django_db
@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("token", [f"S{KELVIN}", f"{LONG_S}A"])
def test_lookalikes_are_a_clear_400_on_every_view(view: str, token: str) -> None:
    response = Client().get(view, {"ruleset": "classic", **BASE, "lead": token})
    assert response.status_code == 400
    body = response.content.decode()
    if view == "/api/check":
        error = json.loads(body)
        assert error["field"] == "lead" and token[1 if token[0] == "S" else 0] in error["error"]
    else:
        assert 'class="message error"' in body


@pytest.mark.django_db
@given(
    view=st.sampled_from(VIEWS),
    ruleset=st.sampled_from(ruleset_names()),
    field=st.sampled_from(FIELDS),
    text=TEXT,
)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_unicode_in_any_field_is_never_a_server_error(
    view: str, ruleset: str, field: str, text: str
) -> None:
    client = Client(raise_request_exception=True)  # a view's exception fails the test
    response = client.get(view, {"ruleset": ruleset, **BASE, field: text})
    assert response.status_code in (200, 400, 404), response.status_code


# -- every card field of every kind in the runner ---------------------------------------------


def _card_fields(kind: str) -> list[str]:
    record = KINDS[kind]
    return [
        name
        for name, t in record.inputs.items()
        if t in (CARDS, CARD_LISTS) or (isinstance(t, Named) and t.name in ("seat_cards",))
    ]


SAMPLES = {
    "cards": "♠A ♠A",
    "lead": "♠A",
    "hand": "♠K ♠Q",
    "play": "♠K",
    "kitty": "♠5 ♠10",
    "others": ["♠Q"],
    "plays": ["♠A", "♠K"],
    "hands": ["♠A", "♠K"],
    "current": [],
    "seat": 1,
    "banker": 0,
    "bids": [40],
    "points": 60,
    "role": "banker",
}


@given(kind=st.sampled_from(sorted(k for k in KINDS if _card_fields(k))), data=st.data())
@settings(max_examples=300, deadline=None)
def test_any_unicode_in_any_card_field_of_the_runner_is_a_result(kind: str, data) -> None:  # type: ignore[no-untyped-def]
    record = KINDS[kind]
    fields = {k: SAMPLES[k] for k in record.required if k in SAMPLES}
    names = _card_fields(kind)
    field = data.draw(st.sampled_from(names))
    text = data.draw(TEXT)
    shape = data.draw(st.sampled_from(["text", "list", "nested"]))
    value: object = {"text": text, "list": [text], "nested": [[text]]}[shape]
    if field == "current":
        value = [{"seat": 0, "cards": text}]
    fields[field] = value
    raw = {"id": "u", "title": "t", "kind": kind, "expect": {}, **fields}
    problem = _validate_case(raw, set(ruleset_names()))
    for name in ruleset_names():
        case = Case("u", kind, "t", "u.yaml", 1, "c", (name,), raw, problem=problem)
        try:
            result = run_case(case, name)
        except EngineError as exc:  # pragma: no cover - a failure is reported below
            pytest.fail(f"run_case raised {exc!r}")
        assert result.status in ("pass", "fail", "error")
