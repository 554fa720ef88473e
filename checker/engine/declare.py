"""Declaring trump during the deal and overriding an earlier declaration."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import BIG_JOKER, SUIT_SYMBOLS, Card, is_subset
from .ruleset import Ruleset
from .texts import EN, ZH, Lang, Say, Spoken, cards_text, pick
from .vocab import term

TIER_NAMES = {
    "level_single": "单张级牌",
    "level_pair": "级牌对子",
    "small_joker_pair": "对小王",
    "big_joker_pair": "对大王",
}
TIER_NAMES_EN = {
    "level_single": "a single level card",
    "level_pair": "a pair of level cards",
    "small_joker_pair": "a pair of Small Jokers",
    "big_joker_pair": "a pair of Big Jokers",
}


def tier_name(tier: str, lang: Lang = ZH) -> str:
    """Name a declaring tier, e.g. 对小王 or a pair of Small Jokers."""
    return (TIER_NAMES_EN if lang == EN else TIER_NAMES)[tier]


@dataclass(frozen=True)
class Declaration:
    """One declaration on the table: who, with which cards, its tier and the suit it names."""

    seat: int
    cards: tuple[Card, ...]
    tier: str
    trump: str | None


@dataclass(frozen=True)
class DeclareVerdict(Spoken):
    """Whether an attempted declaration is accepted, the trump and declarer that result, and why."""

    accepted: bool
    trump: str | None
    declarer: int | None
    reason: str
    say: Say = field(repr=False, compare=False)


def _tier_of(level: int | None, cards: Sequence[Card]) -> tuple[str | None, str | None, str]:
    """Return (tier, trump suit, refusal reason) for a set of declared cards."""
    if len(cards) == 1:
        card = cards[0]
        if card.is_joker:
            return None, None, "single_joker"
        if card.rank != level:
            return None, None, "not_level_card"
        return "level_single", card.suit, ""
    if len(cards) == 2:
        a, b = cards
        if a.is_joker or b.is_joker:
            if a != b:
                return None, None, "not_a_pair"
            return ("big_joker_pair" if a.rank == BIG_JOKER else "small_joker_pair"), None, ""
        if a.rank != level or b.rank != level:
            return None, None, "not_level_card"
        if a != b:
            return None, None, "not_a_pair"
        return "level_pair", a.suit, ""
    return None, None, "wrong_count"


def _name(trump: str | None, lang: Lang = ZH) -> str:
    if trump is None:
        return term("no_trump", lang)
    return pick(lang, f"{SUIT_SYMBOLS[trump]}为主", f"{SUIT_SYMBOLS[trump]} trump")


def judge_declaration(
    rs: Ruleset,
    level: int | None,
    current: Sequence[tuple[int, Sequence[Card]]],
    seat: int,
    cards: Sequence[Card],
    hand: Sequence[Card] | None = None,
) -> DeclareVerdict:
    """Judge a declaration attempt against the declarations already on the table."""
    cards = tuple(cards)  # the words are rendered later: keep the cards as judged
    tiers = (
        rs.declare_tiers_enhanced
        if (rs.has_option("enhanced_joker_override") and rs.option("enhanced_joker_override"))
        else rs.declare_tiers
    )
    standing: Declaration | None = None
    for s, cs in current:
        tier, trump, why = _tier_of(level, cs)
        if tier is None:
            continue
        standing = Declaration(s, tuple(cs), tier, trump)
    keep_trump = standing.trump if standing else None
    keep_seat = standing.seat if standing else None

    def refuse(reason: str, text: Say) -> DeclareVerdict:
        def explain(lang: Lang) -> str:
            return pick(lang, "拒绝亮主：", "Declaration refused: ") + text(lang)

        return DeclareVerdict(False, keep_trump, keep_seat, reason, explain)

    def on_table(lang: Lang) -> str:
        assert standing is not None
        name = _name(standing.trump, lang)
        return pick(lang, f"第{standing.seat}位，{name}", f"seat {standing.seat}, {name}")

    if hand is not None and not is_subset(cards, hand):
        return refuse(
            "not_in_hand",
            lambda lang: pick(
                lang,
                f"{cards_text(cards, lang)} 不在亮主者的手牌中。",
                f"{cards_text(cards, lang)} is not in the declarer's hand.",
            ),
        )
    tier, trump, why = _tier_of(level, cards)
    if standing is not None and len(cards) == 1:
        held = standing.tier
        return refuse(
            "not_stronger",
            lambda lang: pick(
                lang,
                f"已有{tier_name(held)}亮主（{on_table(lang)}），"
                "单张不能再亮，反主必须用更高等级的对子。",
                f"{tier_name(held, lang)} has already been declared ({on_table(lang)}); "
                "a single card cannot declare again, overriding needs a higher-ranked pair.",
            ),
        )
    if tier is None:

        def invalid(lang: Lang) -> str:
            shown = cards_text(cards, lang)
            if lang == EN:
                return {
                    "single_joker": f"{shown} is a single joker: jokers declare (no-trump) "
                    "only as a pair.",
                    "not_level_card": f"{shown} {'is not a level card' if len(cards) == 1 else 'are not level cards'}; "
                    "only level cards or a pair of jokers can declare.",
                    "not_a_pair": f"{shown} is not a pair: a pair is two identical cards.",
                    "wrong_count": f"{shown} is the wrong number of cards: declare with one "
                    "level card or a pair.",
                }[why]
            return {
                "single_joker": f"{shown} 是单张王：王必须成对才能亮（无主）。",
                "not_level_card": f"{shown} 不是级牌，只有级牌或对王可以亮主。",
                "not_a_pair": f"{shown} 不是对子：对子必须是两张完全相同的牌。",
                "wrong_count": f"{shown} 张数不对：亮主用一张级牌或一对。",
            }[why]

        return refuse(why, invalid)
    if tier not in tiers:
        return refuse(
            "not_allowed",
            lambda lang: pick(
                lang,
                f"本规则不能用{tier_name(tier)}亮主。",
                f"these rules do not allow declaring with {tier_name(tier, lang)}.",
            ),
        )
    if standing is not None:
        held = standing.tier
        if tiers[tier] <= tiers[held]:
            return refuse(
                "not_stronger",
                lambda lang: pick(
                    lang,
                    f"{tier_name(tier)}不比桌上的{tier_name(held)}（{on_table(lang)}）等级高，不能反主。",
                    f"{tier_name(tier, lang)} does not outrank {tier_name(held, lang)} "
                    f"on the table ({on_table(lang)}), so it cannot override.",
                ),
            )
        if (
            standing.seat == seat
            and rs.declare_self_override == "same_suit_only"
            and trump != standing.trump
        ):
            return refuse(
                "self_override",
                lambda lang: pick(
                    lang,
                    "自己亮的主只能用同花色的对子加固，不能自己反自己。",
                    "a player's own declaration can only be reinforced with a pair of "
                    "the same suit, never overridden by that player.",
                ),
            )
    override = standing is not None

    def accept(lang: Lang) -> str:
        shown, name = cards_text(cards, lang), _name(trump, lang)
        if lang == EN:
            what, verb = ("Override", "overrides") if override else ("Declaration", "declares")
            return (
                f"{what} accepted: seat {seat} {verb} with {tier_name(tier, lang)} {shown}: {name}."
            )
        action = "反主" if override else "亮主"
        return f"接受{action}：第{seat}位用{tier_name(tier)} {shown} {action}，{name}。"

    return DeclareVerdict(True, trump, seat, "", accept)


@dataclass(frozen=True)
class FlipResult(Spoken):
    """Trump decided by turning a kitty card when nobody declared."""

    trump: str | None
    card: Card
    say: Say = field(repr=False, compare=False)


def flip_trump(rs: Ruleset, level: int | None, kitty: Sequence[Card]) -> FlipResult:
    """Turn the configured kitty card and name the trump it decides."""
    from .errors import PlayError

    if not rs.has_flip:
        raise PlayError(
            f"{rs.title}没有翻底牌定主",
            en=f"{rs.name} has no trump flip from the kitty",
            field="kind",
        )
    index = int(rs.option("flip_card")) if rs.has_option("flip_card") else 1
    if len(kitty) < index:
        raise PlayError(
            f"底牌只有 {len(kitty)} 张，翻不到第 {index} 张",
            en=f"the kitty holds only {len(kitty)} cards, card {index} cannot be turned",
            field="kitty",
        )
    card = kitty[index - 1]
    trump = None if card.is_joker else card.suit

    def explain(lang: Lang) -> str:
        if card.is_joker:
            what = pick(lang, "王，打无主", "a joker, so the round is played at no-trump")
        else:
            symbol = SUIT_SYMBOLS[card.suit]
            kind = (
                pick(lang, "级牌", "a level card")
                if card.rank == level
                else pick(lang, "普通牌", "an ordinary card")
            )
            what = pick(
                lang, f"{kind}，以其花色{symbol}为主", f"{kind}, so its suit {symbol} is trump"
            )
        shown = cards_text([card], lang)
        return pick(
            lang,
            f"无人亮主：翻底牌第 {index} 张 {shown}，是{what}。",
            f"Nobody declared: kitty card {index} is turned over, {shown}: {what}.",
        )

    return FlipResult(trump, card, explain)
