"""Card order (seed: 牌的种类, 牌面大小关系): trump membership, strength, ladders, deck checks."""

from __future__ import annotations

import pytest
import yaml

from checker.engine.cards import BIG, SMALL, Card, parse_rank
from checker.engine.errors import CardError, HandError
from checker.engine.order import TRUMP, check_copies, make_context, parse_level, parse_trump
from checker.engine.ruleset import RULESET_DIR, Ruleset, load_ruleset, parse_ruleset, ruleset_names

from .util import CLASSIC, c, cs, deal


def test_jokers_are_always_trump() -> None:
    for trump in ("S", "H", None):
        ctx = deal(7, trump)
        assert ctx.is_trump(BIG) and ctx.is_trump(SMALL)


@pytest.mark.parametrize("level", ["2", "3", "5", "9", "10", "J", "Q", "K", "A"])
def test_every_level_card_is_trump_in_every_suit(level: str) -> None:
    ctx = deal(level, "H")
    rank = parse_rank(level)
    assert all(ctx.is_trump(Card(s, rank)) for s in "SHCD")
    other = 3 if rank != 3 else 4
    assert not ctx.is_trump(Card("S", other))


def test_trump_suit_cards_are_trump_and_side_suits_are_not() -> None:
    ctx = deal(2, "H")
    assert all(ctx.is_trump(Card("H", r)) for r in range(2, 15))
    for suit in "SCD":
        assert [r for r in range(3, 15) if ctx.is_trump(Card(suit, r))] == []
        assert {ctx.group(Card(suit, r)) for r in range(3, 15)} == {suit}


def test_no_trump_only_jokers_and_level_cards_are_trump() -> None:
    ctx = deal(2, None)
    trumps = sorted(card for card in ctx.deck if ctx.is_trump(card))
    assert trumps == sorted(cs("♠2 ♥2 ♣2 ♦2 小王 大王"))


def test_trump_order_plain_then_offsuit_level_then_trump_level_then_jokers() -> None:
    # 主花色普通牌 < 非主花色级牌 < 主花色级牌 < 小王 < 大王 (playing 2, hearts trump)
    ctx = deal(2, "H")
    chain = cs("♥3 ♥A ♠2 ♥2 小王 大王")
    positions = [ctx.pos(x) for x in chain]
    assert positions == sorted(positions)
    assert len(set(positions)) == len(positions)


def test_trump_suit_plain_cards_keep_rank_order() -> None:
    ctx = deal(5, "S")
    order = [ctx.pos(x) for x in cs("♠2 ♠3 ♠4 ♠6 ♠7 ♠8 ♠9 ♠10 ♠J ♠Q ♠K ♠A")]
    assert order == sorted(order) and len(set(order)) == 12


@pytest.mark.parametrize("trump", ["S", "H", "C", "D"])
def test_offsuit_level_cards_are_equal(trump: str) -> None:
    ctx = deal(9, trump)
    offsuit = [Card(s, 9) for s in "SHCD" if s != trump]
    assert len({ctx.pos(x) for x in offsuit}) == 1
    assert ctx.pos(Card(trump, 9)) == ctx.pos(offsuit[0]) + 1


def test_no_trump_all_level_cards_are_equal_and_next_to_small_joker() -> None:
    ctx = deal(2, None)
    level = {ctx.pos(x) for x in cs("♠2 ♥2 ♣2 ♦2")}
    assert len(level) == 1
    assert ctx.pos(SMALL) == level.pop() + 1
    assert ctx.pos(BIG) == ctx.pos(SMALL) + 1


@pytest.mark.parametrize(("level", "below", "above"), [(5, "♠4", "♠6"), (10, "♠9", "♠J")])
def test_level_rank_is_removed_from_the_side_suit_sequence(
    level: int, below: str, above: str
) -> None:
    ctx = deal(level, "H")
    assert ctx.pos(c(above)) == ctx.pos(c(below)) + 1


def test_side_suit_order_is_2_to_a_without_the_level() -> None:
    ctx = deal(7, "H")
    seq = cs("♣2 ♣3 ♣4 ♣5 ♣6 ♣8 ♣9 ♣10 ♣J ♣Q ♣K ♣A")
    assert [ctx.pos(x) for x in seq] == list(range(12))


def test_top_plain_trump_is_next_to_offsuit_level_cards() -> None:
    # 打♠2: ♠A♠A ♦2♦2 is a tractor, so ♠A and ♦2 are adjacent.
    ctx = deal(2, "S")
    assert ctx.pos(c("♦2")) == ctx.pos(c("♠A")) + 1


def test_when_level_is_ace_king_is_the_top_plain_trump() -> None:
    ctx = deal("A", "C")
    assert ctx.pos(c("♠A")) == ctx.pos(c("♣K")) + 1
    assert ctx.pos(c("♣A")) == ctx.pos(c("♠A")) + 1


def test_side_suit_cards_are_unrelated_to_other_suits() -> None:
    ctx = deal(2, "H")
    assert ctx.group(c("♠A")) != ctx.group(c("♣3"))


def test_ladder_lists_trump_tiers_strongest_first() -> None:
    ctx = deal(2, "H")
    ladder = ctx.ladder(TRUMP)
    assert ladder[0] == [BIG]
    assert ladder[1] == [SMALL]
    assert ladder[2] == [c("♥2")]
    assert sorted(ladder[3]) == sorted(cs("♠2 ♣2 ♦2"))
    assert ladder[4] == [c("♥A")]
    assert ladder[-1] == [c("♥3")]
    assert len(ladder) == 16
    assert sum(len(tier) for tier in ladder) == 18


def test_ladder_of_a_side_suit_has_twelve_tiers() -> None:
    ctx = deal(2, "H")
    ladder = ctx.ladder("S")
    assert [tier[0] for tier in ladder] == cs("♠A ♠K ♠Q ♠J ♠10 ♠9 ♠8 ♠7 ♠6 ♠5 ♠4 ♠3")


def test_no_trump_has_no_trump_suit_ladder_of_plain_cards() -> None:
    ctx = deal(2, None)
    ladder = ctx.ladder(TRUMP)
    assert [len(t) for t in ladder] == [1, 1, 4]
    assert len(ctx.ladder("H")) == 12


def test_deck_holds_every_face_once() -> None:
    assert len(deal(2, "H").deck) == 54


def test_check_copies_allows_two_of_a_card_with_two_decks() -> None:
    ctx = deal(2, "H")
    check_copies(ctx, {"hand": cs("♠A ♠A 大王 大王")})


def test_check_copies_rejects_a_third_ace_across_fields() -> None:
    ctx = deal(2, "H")
    with pytest.raises(HandError) as info:
        check_copies(ctx, {"lead": cs("♠A"), "hand": cs("♠A ♠A")})
    assert "♠A" in str(info.value)
    assert info.value.value == "♠A"


def test_check_copies_rejects_three_big_jokers() -> None:
    with pytest.raises(HandError) as info:
        check_copies(deal(2, None), {"hand": cs("大王 大王 大王")})
    assert "大王" in str(info.value)


def short_deck() -> Ruleset:
    """Classic without the 3s and 4s, to have faces that are not in the deck."""
    with (RULESET_DIR / "classic.yaml").open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data["name"] = "short"
    data["ranks"] = [r for r in data["ranks"] if r not in (3, 4)]
    return parse_ruleset(data)


def test_check_copies_rejects_cards_outside_the_deck() -> None:
    ctx = make_context(short_deck(), 2, "H")
    assert c("♠3") not in ctx.deck
    with pytest.raises(CardError) as info:
        check_copies(ctx, {"hand": cs("♠A ♠3")})
    assert "♠3" in str(info.value)
    assert info.value.value == "♠3"


def test_deck_without_a_rank_closes_the_gap_in_the_sequence() -> None:
    ctx = make_context(short_deck(), 7, "H")
    assert ctx.pos(c("♠5")) == ctx.pos(c("♠2")) + 1


def test_make_context_accepts_case_spellings() -> None:
    a = make_context(CLASSIC, "10", "♥")
    b = make_context(CLASSIC, 10, "h")
    assert (a.level, a.trump) == (b.level, b.trump) == (10, "H")


@pytest.mark.parametrize("text", ["none", "NT", "无主", "无将", None])
def test_no_trump_spellings(text: object) -> None:
    assert parse_trump(text) is None


def test_bad_trump_is_an_error_on_the_trump_field() -> None:
    with pytest.raises(CardError) as info:
        parse_trump("X")
    assert info.value.field == "trump"


@pytest.mark.parametrize("level", ["1", "Z", None, ""])
def test_bad_or_missing_level_is_an_error_on_the_level_field(level: object) -> None:
    with pytest.raises(CardError) as info:
        parse_level(CLASSIC, level)
    assert info.value.field in ("level", None)


def test_tractors_connect_on_the_strength_ladder_unless_a_ruleset_says_otherwise() -> None:
    for name in ruleset_names():
        rs = load_ruleset(name)
        ctx = make_context(rs, rs.deck.levels[0], "H")
        assert all(ctx.link[c] == p for c, (_, p) in ctx.key.items()), name


def test_natural_tractor_order_chains_the_trump_suit_by_rank_then_the_jokers() -> None:
    # 双升 tractor_order: natural (seed 004 §6): ♥2 … ♥A in rank order, then 小王, 大王;
    # the other suits' level cards and 2s sit next to nothing. Strength is unchanged.
    rs = load_ruleset("shuangsheng")
    ladder = make_context(rs, 7, "H")
    ctx = make_context(rs.with_options({"tractor_order": "natural"}), 7, "H")
    assert ctx.key == ladder.key
    chain = [ctx.link[c] for c in cs("♥2 ♥3 ♥4 ♥5 ♥6 ♥7 ♥8 ♥9 ♥10 ♥J ♥Q ♥K ♥A 小王 大王")]
    assert chain == list(range(chain[0], chain[0] + 15))
    apart = sorted(ctx.link[c] for c in cs("♠7 ♦7 ♣7 ♠2 ♦2 ♣2"))
    taken = set(chain)
    for p in apart:
        assert p not in taken and p - 1 not in taken | set(apart) and p + 1 not in taken
