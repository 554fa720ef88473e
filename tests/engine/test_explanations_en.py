"""English explanations: every verdict kind and reason code says why in English, without CJK.

The Chinese explanations are the contract and are pinned by the other engine tests and the
case suite; here each verdict is also asked for English, and `explanation_for` is checked to
give the same words as the two properties.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from checker.engine import trick as trick_module
from checker.engine.bidding import judge_auction, settle_chips
from checker.engine.bonus import count_bonus, reveal_duty
from checker.engine.combos import classify
from checker.engine.declare import flip_trump, judge_declaration
from checker.engine.follow import (
    MUST_FOLLOW_SUIT,
    MUST_PLAY_PAIR,
    MUST_PLAY_TRACTOR,
    NOT_IN_HAND,
    WRONG_COUNT,
    explain_requirement,
    generate_example,
    judge_follow,
)
from checker.engine.order import Context, make_context
from checker.engine.ruleset import Ruleset, load_ruleset
from checker.engine.scoring import kitty_bonus, score_round
from checker.engine.texts import as_lang, cards_text
from checker.engine.throws import judge_throw
from checker.engine.trick import resolve_trick

from .util import CLASSIC, cs, deal

CJK = re.compile(
    r"[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]"
)
ERQIWANG: Ruleset = load_ruleset("erqiwang")
SHUANGSHENG: Ruleset = load_ruleset("shuangsheng")


def english(verdict: Any) -> str:
    """The verdict's English words, checked: non-empty, no CJK, and the same by either API."""
    text: str = verdict.explanation_en
    assert text.strip(), "empty English explanation"
    assert not CJK.search(text), f"CJK in English explanation: {text!r}"
    assert verdict.explanation_for("en") == text
    assert verdict.explanation_for("zh-hans") == verdict.explanation
    assert CJK.search(verdict.explanation), "the Chinese explanation should stay Chinese"
    return text


def plain(text: str) -> str:
    assert text.strip() and not CJK.search(text), text
    return text


def erqiwang(trump: str = "H", **options: Any) -> Context:
    rs = ERQIWANG.with_options(options) if options else ERQIWANG
    return make_context(rs, None, trump)


# --- the helpers ------------------------------------------------------------------------------


def test_language_codes() -> None:
    assert as_lang("en") == as_lang("en-us") == "en"
    assert as_lang("zh-hans") == as_lang("zh") == as_lang("fr") == "zh"


def test_cards_and_deal_in_english() -> None:
    assert cards_text(cs("大王 小王 ♠A"), "en") == "Big Joker Small Joker ♠A"
    assert cards_text(cs("大王 小王 ♠A"), "zh") == "大王 小王 ♠A"
    ctx = deal(2, "H")
    assert ctx.describe("en") == "level 2, ♥ trump"
    assert ctx.describe() == "打2，主♥"
    assert deal(10, None).describe("en") == "level 10, no-trump"
    assert ctx.group_name("T", "en") == "trumps"
    assert ctx.group_name("S", "en") == "♠ spades"


def test_units_shapes_and_invalid_reasons() -> None:
    ctx = deal(2, "H")
    combo = classify(ctx, cs("♠A ♠A ♠K ♠K ♠5 ♠5 ♠3"))
    assert combo.shape("en") == "2-pair tractor + 1 pair + 1 single"
    assert [u.describe("en") for u in combo.units] == [
        "2-pair tractor ♠A ♠A ♠K ♠K",
        "pair ♠5 ♠5",
        "single ♠3",
    ]
    mixed = classify(ctx, cs("大王 ♠3"))
    assert "trumps" in plain(mixed.reason_for(ctx, "en"))
    assert mixed.reason_for(ctx) == mixed.reason
    side = erqiwang()
    forbidden = classify(side, cs("♠A ♠K"))
    assert "only trumps" in plain(forbidden.reason_for(side, "en"))
    assert classify(ctx, []).reason_for(ctx, "en") == "no cards played"
    assert classify(ctx, cs("♠A")).reason_for(ctx, "en") == ""


# --- follow: every reason code and every legal case --------------------------------------------

FOLLOWS = [
    # (lead, hand, play, reason, legal)
    ("♠A ♠A", "♠3 ♠4 ♦5", "♠3", WRONG_COUNT, False),
    ("♠A ♠A", "♠3 ♠4 ♦5", "♠3 ♠9", NOT_IN_HAND, False),
    ("♠A ♠A", "♠3 ♦4 ♦5", "♦4 ♦5", MUST_FOLLOW_SUIT, False),  # short in the suit
    ("♠A", "♠3 ♠4 ♦5", "♦5", MUST_FOLLOW_SUIT, False),  # enough of the suit
    ("♠A ♠A", "♠3 ♠3 ♠4 ♠6", "♠3 ♠4", MUST_PLAY_PAIR, False),
    ("♠A ♠A", "♠3 ♠3 ♠4 ♠6", "♠4 ♠6", MUST_PLAY_PAIR, False),  # shows no pairs at all
    ("♠A ♠A ♠K ♠K", "♣3 ♣3 ♣4 ♣4 ♣6", "♣3 ♣3 ♣6 ♣4", "", True),  # void
    ("♣A ♣A ♣K ♣K", "♣3 ♣3 ♣4 ♣4 ♣6 ♣6", "♣3 ♣3 ♣6 ♣6", MUST_PLAY_TRACTOR, False),
    ("♠A ♠A ♠K ♠K", "♣3 ♣4", "♣3 ♣4 ♣3 ♣4", NOT_IN_HAND, False),
    ("♠A", "♦3 ♦4", "♦3", "", True),  # void
    ("♠A ♠K", "♠3 ♦4", "♠3 ♦4", "", True),  # short, all played
    ("♠A ♠A", "♠3 ♠3 ♠4", "♠3 ♠3", "", True),  # structure met
    ("♠A", "♠3 ♠4", "♠4", "", True),  # plain follow
    ("大王", "♥3 ♦4", "♥3", "", True),  # trump lead, one trump in hand
]


@pytest.mark.parametrize(("lead", "hand", "play", "reason", "legal"), FOLLOWS)
def test_follow_explains_every_reason_in_english(
    lead: str, hand: str, play: str, reason: str, legal: bool
) -> None:
    ctx = deal(2, "H")
    verdict = judge_follow(ctx, classify(ctx, cs(lead)), cs(hand), cs(play))
    assert (verdict.legal, verdict.reason) == (legal, reason)
    text = english(verdict)
    if legal:
        assert text.startswith("Legal: ")
    if reason == MUST_PLAY_TRACTOR:
        assert "tractor" in text


def test_follow_reasons_are_all_covered() -> None:
    seen = {reason for _lead, _hand, _play, reason, _legal in FOLLOWS if reason}
    assert seen == {WRONG_COUNT, NOT_IN_HAND, MUST_FOLLOW_SUIT, MUST_PLAY_PAIR, MUST_PLAY_TRACTOR}


def test_follow_counts_read_naturally() -> None:
    ctx = deal(2, "H")
    verdict = judge_follow(ctx, classify(ctx, cs("♠A ♠K")), cs("♠3 ♦4 ♦5"), cs("♠3 ♦4"))
    assert "only 1 ♠ spade in hand (♠3)" in verdict.explanation_en
    pair = judge_follow(ctx, classify(ctx, cs("♠A ♠A")), cs("♠3 ♠3 ♠4"), cs("♠3 ♠4"))
    assert "the lead is a pair" in pair.explanation_en


def test_follow_requirement_hint() -> None:
    ctx = deal(2, "H")
    lead = classify(ctx, cs("♠A ♠A"))
    hand = cs("♠3 ♠3 ♠4 ♦9")
    example = generate_example(ctx, lead, hand)
    en = plain(explain_requirement(ctx, lead, hand, example, "en"))
    assert en.startswith("Follow: ")
    assert explain_requirement(ctx, lead, hand, example).startswith("跟牌要求：")


# --- trick: every note code ------------------------------------------------------------------

TRICKS: list[tuple[object, object, list[str], list[str | None] | None]] = [
    # (level, trump, plays, hands)
    (2, "H", ["♠5 ♠5", "♠3 ♠3", "♠K ♠K", "♠K ♠K"], None),  # lower, higher, equal
    (2, "H", ["♠A ♠A", "♠3 ♠4", "♥3 ♥4", "♥5 ♥5"], None),  # shape, ruff shape, ruff
    (2, "H", ["♠A", "♥3", "♥5", "♥4"], None),  # ruff, over-ruff, not higher
    (2, "H", ["♠A ♠K", "♠3 ♠4", "♠3 ♦4", "♦3 ♦4"], None),  # vs throw, mixed, discard
    (2, "H", ["♠9", "♥3", "♠A", "♠3 ♠4"], None),  # after ruff, wrong size
    (2, "H", ["♠A", "♦3", "♠3"], [None, "♠4 ♦3", "♠3"]),  # illegal
    (2, None, ["大王 大王", "小王 小王"], None),  # trump lead, no-trump deal
]


@pytest.mark.parametrize(("level", "trump", "plays", "hands"), TRICKS)
def test_trick_explains_every_play_in_english(
    level: object, trump: object, plays: list[str], hands: list[str | None] | None
) -> None:
    ctx = deal(level, trump)
    hand_cards = [cs(h) if h is not None else None for h in hands] if hands else None
    result = resolve_trick(ctx, [cs(p) for p in plays], hand_cards)
    text = english(result)
    lines = text.splitlines()
    assert lines[0].startswith("Lead: ")
    assert [line.split(":")[0] for line in lines[1:-1]] == [
        f"Play {i}" for i in range(1, len(plays))
    ]
    assert "wins the trick" in lines[-1]


def test_trick_note_codes_are_all_covered() -> None:
    seen: set[str] = set()
    for level, trump, plays, hands in TRICKS:
        ctx = deal(level, trump)
        hand_cards = [cs(h) if h is not None else None for h in hands] if hands else None
        seen |= {
            code for code, _r, _x in resolve_trick(ctx, [cs(p) for p in plays], hand_cards).notes
        }
    codes = {
        getattr(trick_module, name)
        for name in (
            "ILLEGAL",
            "WRONG_SIZE",
            "SAME_SUIT_VS_THROW",
            "SAME_SUIT_AFTER_RUFF",
            "SAME_SUIT_SHAPE",
            "SAME_SUIT_HIGHER",
            "SAME_SUIT_EQUAL",
            "SAME_SUIT_LOWER",
            "RUFF_SHAPE",
            "RUFF",
            "OVERRUFF",
            "RUFF_NOT_HIGHER",
            "MIXED",
            "DISCARD",
        )
    }
    assert seen == codes


def test_trick_names_jokers_in_english() -> None:
    result = resolve_trick(deal(2, None), [cs("大王"), cs("小王")])
    assert "Big Joker" in result.explanation_en and "Small Joker" in result.explanation_en


# --- throws: allowed, not a throw, invalid, failed under each policy -----------------------------


def test_throw_stands_and_single_combination() -> None:
    ctx = deal(2, "H")
    assert english(judge_throw(ctx, cs("♠A ♠Q ♠Q"), [cs("♠K ♦3")])).startswith("The throw stands")
    assert "not a throw" in english(judge_throw(ctx, cs("♠Q ♠Q"), [cs("♠K ♦3")]))


def test_throw_forbidden_side_suit() -> None:
    verdict = judge_throw(erqiwang(), cs("♠A ♠K"), [cs("♠Q")])
    assert verdict.combo.type == "invalid"
    assert english(verdict).startswith("Cannot throw")


@pytest.mark.parametrize(
    ("ctx", "cards", "other", "seat", "banker", "words"),
    [
        (deal(2, "H"), "♠K ♠Q ♠Q", "♠A ♦3", None, None, "The beaten unit is forced"),
        (erqiwang("H"), "大王 小王 ♥A", "大王 ♥5", None, None, "smallest card"),
        (
            make_context(SHUANGSHENG, 5, "H"),
            "♠K ♠Q ♠Q ♠9",
            "♠A ♦3",
            0,
            0,
            "smallest unit of the beaten kind",
        ),
        (make_context(SHUANGSHENG, 5, "H"), "♠K ♠Q ♠Q ♠9", "♠A ♦3", 1, 0, "deducted"),
    ],
)
def test_failed_throw_per_policy(
    ctx: Context, cards: str, other: str, seat: int | None, banker: int | None, words: str
) -> None:
    verdict = judge_throw(ctx, cs(cards), [cs(other)], seat, banker)
    assert not verdict.allowed
    text = english(verdict)
    assert text.startswith("The throw fails") and words in text
    if verdict.penalty:
        assert "Penalty" in text


# --- kitty: every policy -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ctx", "play", "kitty", "mult"),
    [
        (deal(2, "H"), "♠A ♠A ♠K ♠K", "♠5 ♦10", 8),  # by_unit, a tractor
        (deal(2, "H"), "♠A", "", 2),  # by_unit, a single, empty kitty
        (make_context(SHUANGSHENG, 5, "H"), "♠A ♠A ♠K ♠K ♠Q ♠Q ♠J ♠J", "♠5", 64),  # capped
        (erqiwang("H"), "♥A ♥A ♥K ♥K", "♠5", 4),  # per_pair
        (erqiwang("H"), "♠A", "♠5", 0),  # requires trump
    ],
)
def test_kitty_in_english(ctx: Context, play: str, kitty: str, mult: int) -> None:
    result = kitty_bonus(ctx, cs(play), cs(kitty))
    assert result.multiplier == mult
    text = english(result)
    assert ("not won with trumps" in text) == (mult == 0)


# --- score: every band, the level table's stops, and chips ------------------------------------


@pytest.mark.parametrize(
    ("points", "banker", "attackers", "words"),
    [
        (0, None, None, "big sweep"),
        (20, None, None, "small sweep"),
        (50, 3, None, "banker holds"),
        (90, None, 4, "take over as banker, no level rise"),
        (130, None, 4, "rise 1 level"),
        (170, 2, 9, "cannot be skipped, so they stop at 10"),
        (90, 2, 10, "play 10 first"),
        (0, 13, 2, "already at A"),
    ],
)
def test_score_in_english(
    points: int, banker: int | None, attackers: int | None, words: str
) -> None:
    text = english(score_round(CLASSIC, points, banker, attackers))
    assert words in text


@pytest.mark.parametrize(
    ("points", "bid", "surrender", "climb", "result"),
    [
        (0, 70, True, False, "surrender"),
        (60, 40, False, False, "promote"),
        (0, 40, False, False, "big_sweep"),
        (10, 40, False, True, "small_sweep"),
        (45, 50, False, False, "hold"),
    ],
)
def test_chips_in_english(points: int, bid: int, surrender: bool, climb: bool, result: str) -> None:
    rs = ERQIWANG.with_options({"climb": climb})
    chips = settle_chips(rs, points, bid, surrender)
    assert chips.result == result
    text = english(chips)
    assert "chips" in text
    assert ("Climb" in text) == (climb and not surrender)


# --- declaring, flipping, bidding ------------------------------------------------------------


@pytest.mark.parametrize(
    ("current", "seat", "cards", "hand", "reason", "options"),
    [
        ([], 0, "♥2", None, "", {}),
        ([(1, "♥2")], 0, "♠2 ♠2", None, "", {}),
        ([], 0, "♥2", "♠3", "not_in_hand", {}),
        ([], 0, "大王", None, "single_joker", {}),
        ([], 0, "♥9", None, "not_level_card", {}),
        ([], 0, "♥9 ♥9", None, "not_level_card", {}),
        ([], 0, "♥2 ♠2", None, "not_a_pair", {}),
        ([], 0, "♥2 ♥2 ♥2", None, "wrong_count", {}),
        ([(1, "♥2 ♥2")], 0, "♠2", None, "not_stronger", {}),
        ([(1, "小王 小王")], 0, "♠2 ♠2", None, "not_stronger", {}),
        ([(0, "♥2")], 0, "♠2 ♠2", None, "self_override", {}),
    ],
)
def test_declarations_in_english(
    current: list[tuple[int, str]],
    seat: int,
    cards: str,
    hand: str | None,
    reason: str,
    options: dict[str, Any],
) -> None:
    rs = CLASSIC.with_options(options) if options else CLASSIC
    table = [(s, cs(c)) for s, c in current]
    verdict = judge_declaration(rs, 2, table, seat, cs(cards), cs(hand) if hand else None)
    assert verdict.reason == reason
    text = english(verdict)
    assert text.startswith(
        "Declaration refused: " if reason else ("Override" if current else "Declaration")
    )


def test_declaring_with_a_tier_the_ruleset_lacks() -> None:
    verdict = judge_declaration(ERQIWANG, None, [], 0, cs("大王 大王"))
    if verdict.reason == "not_allowed":
        assert "do not allow" in english(verdict)
    else:
        english(verdict)


@pytest.mark.parametrize(
    ("kitty", "words"),
    [
        ("♠3 ♠4 ♠5 大王", "a joker"),
        ("♠3 ♠4 ♠6 ♣5", "a level card"),
        ("♠3 ♠4 ♠6 ♣9", "an ordinary card"),
    ],
)
def test_flip_in_english(kitty: str, words: str) -> None:
    assert words in english(flip_trump(SHUANGSHENG, 5, cs(kitty)))


@pytest.mark.parametrize(
    ("bids", "reason"),
    [
        ([40, "pass", "pass"], ""),
        ([40, 5], ""),
        ([5, 30], "after_end"),
        (["pass"], "first_must_bid"),
        ([40, "forty"], "not_a_bid"),
        ([80], "out_of_range"),
        ([33], "bad_step"),
        ([40, 45], "not_lower"),
        ([40], "incomplete"),
    ],
)
def test_bids_in_english(bids: list[int | str], reason: str) -> None:
    result = judge_auction(ERQIWANG, bids)
    assert result.reason == reason
    text = english(result)
    assert ("becomes banker" in text) == (reason == "")


# --- bonus and reveal --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "role", "options"),
    [
        ("大王 大王 小王 ♥7 ♥7 ♠7 ♠7 ♥2 ♥2", "banker", {}),  # jokers and the chain
        ("♥7 ♥7 ♠7 ♠7 ♣7 ♣7", "banker", {}),  # six 7s
        ("♠5", "banker", {}),  # nothing
        ("大王 ♠A", "defender", {"bangwang": True}),
        ("大王 小王", "banker", {"bangwang": True}),
    ],
)
def test_bonus_in_english(hand: str, role: str, options: dict[str, Any]) -> None:
    ctx = erqiwang("H", **options)
    text = english(count_bonus(ctx, cs(hand), role))
    assert text.startswith("Banker" if role == "banker" else "Defender")
    assert "total bonus" in text


@pytest.mark.parametrize(
    ("hand", "required"),
    [
        ("大王 大王 小王 ♥7 ♥7 ♠7 ♠7 ♥2 ♥2 ♣2 ♣2 ♦7", True),
        ("♥7 ♠7 ♣7 ♦7 ♥7 ♠7", True),
        ("♠5 ♠6", False),
    ],
)
def test_reveal_in_english(hand: str, required: bool) -> None:
    result = reveal_duty(erqiwang("H"), cs(hand))
    assert result.required is required
    text = english(result)
    assert text.startswith("The banker must show") == required
