"""Declaring trump during the deal and overriding an earlier declaration."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import BIG_JOKER, SUIT_SYMBOLS, Card, format_rank, is_subset
from .records import fast_init
from .ruleset import DeclarePolicy, Ruleset
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


@fast_init
@dataclass(frozen=True)
class Declaration:
    """One declaration on the table: who, with which cards, its tier and the suit it names."""

    seat: int
    cards: tuple[Card, ...]
    tier: str
    trump: str | None


@fast_init
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
    if rs.declare.policy == DeclarePolicy.COPIES:
        return _judge_copies(rs, level, current, seat, cards, hand)
    tiers = (
        rs.declare_tiers_enhanced
        if (rs.has_option("enhanced_joker_override") and rs.option("enhanced_joker_override"))
        else rs.declare_tiers
    )
    standing: Declaration | None = None
    for s, cs in reversed(current):  # the last declaration that has a tier stands
        tier, trump, why = _tier_of(level, cs)
        if tier is not None:
            standing = Declaration(s, tuple(cs), tier, trump)
            break
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
        if standing.seat == seat and rs.overrides_own_in_same_suit_only and trump != standing.trump:
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


def shown_declaration(
    rs: Ruleset, cards: Sequence[Card], *, own: bool, deal_over: bool
) -> tuple[Card, ...] | int:
    """Return what the table sees of a declaration: its cards (明牌) or only their number (暗牌).

    Under `declare_view: hidden` the other players see how many cards were shown, and the
    suit only once the deal is over; the declarer always sees their own cards.
    """
    if rs.declarations_are_hidden and not own and not deal_over:
        return len(cards)
    return tuple(cards)


def declaring_ranks(rs: Ruleset, level: int | None) -> tuple[int, ...]:
    """List the ranks that may declare in this deal: the level and any fixed ranks (亮2)."""
    out: list[int] = []
    for r in rs.declare.ranks:
        rank = level if r == "level" else r
        if isinstance(rank, int) and rank not in out:
            out.append(rank)
    return tuple(out)


def _copies_of(rs: Ruleset, level: int | None, cards: Sequence[Card]) -> str:
    """Return why cards cannot declare under the copies policy ("" when they can)."""
    if not cards:
        return "wrong_count"
    if any(c.is_joker for c in cards):
        return "not_level_card"
    if len(set(cards)) > 1:
        return "not_identical"
    if cards[0].rank not in declaring_ranks(rs, level):
        return "not_level_card"
    return ""


def _judge_copies(
    rs: Ruleset,
    level: int | None,
    current: Sequence[tuple[int, Sequence[Card]]],
    seat: int,
    cards: tuple[Card, ...],
    hand: Sequence[Card] | None,
) -> DeclareVerdict:
    """Judge a declaration where n identical level cards or 2s declare and more copies win."""
    standing: tuple[int, tuple[Card, ...]] | None = None
    for s, cs in current:
        if not _copies_of(rs, level, tuple(cs)):
            standing = (s, tuple(cs))
    keep_trump = standing[1][0].suit if standing else None
    keep_seat = standing[0] if standing else None
    fixed = [r for r in declaring_ranks(rs, level) if r != level]
    two_used = rs.declare.two_locks and any(
        not _copies_of(rs, level, tuple(cs)) and cs[0].rank in fixed for _, cs in current
    )
    shown = cards_text(cards, ZH)
    shown_en = cards_text(cards, EN)

    def refuse(reason: str, zh: str, en: str) -> DeclareVerdict:
        def explain(lang: Lang) -> str:
            return pick(lang, "拒绝亮主：", "Declaration refused: ") + pick(lang, zh, en)

        return DeclareVerdict(False, keep_trump, keep_seat, reason, explain)

    ranks = "、".join(format_rank(r) for r in declaring_ranks(rs, level))
    ranks_en = ", ".join(format_rank(r) for r in declaring_ranks(rs, level))
    if hand is not None and not is_subset(cards, hand):
        return refuse(
            "not_in_hand",
            f"{shown} 不在亮主者的手牌中。",
            f"{shown_en} is not in the declarer's hand.",
        )
    why = _copies_of(rs, level, cards)
    if why:
        zh, en = {
            "wrong_count": ("没有亮出牌。", "no cards were shown."),
            "not_level_card": (
                f"{shown} 不能亮主：只有级牌或 2（{ranks}）可以亮，王不能亮。",
                f"{shown_en} cannot declare: only level cards or 2s ({ranks_en}) can, never jokers.",
            ),
            "not_identical": (
                f"{shown} 不是同一张牌的几张：亮主必须是同点同花色的牌。",
                f"{shown_en} are not copies of one card: a declaration shows identical cards.",
            ),
        }[why]
        return refuse(why, zh, en)
    card = cards[0]
    if two_used and card.rank not in fixed:
        return refuse(
            "two_locked",
            "桌上已有人亮 2，此后不能再亮级牌，只能用更多张的 2 加固或反。",
            "2s have been declared, so level cards can no longer declare; only more 2s can "
            "reinforce or override.",
        )
    n = len(cards)
    if standing is not None:
        on_seat, on_cards = standing
        m = len(on_cards)
        same_suit = on_cards[0].suit == card.suit
        if n <= m:
            return refuse(
                "not_stronger",
                f"桌上已有第{on_seat}位亮的 {m} 张，{n} 张不比它多，不能再亮。",
                f"seat {on_seat} has shown {m} on the table; {n} is not more, so it cannot declare.",
            )
        if same_suit and on_seat != seat:
            return refuse(
                "not_own",
                "同花色更多张是加固，只能加固自己亮的主，不能加固别人的。",
                "more cards of the same suit reinforce, and only the declarer may reinforce.",
            )
        if not same_suit and on_seat == seat and rs.overrides_own_in_same_suit_only:
            return refuse(
                "self_override",
                "不能反自己亮的主，只能用同花色更多张加固。",
                "a player cannot override their own declaration, only reinforce it with more "
                "cards of the same suit.",
            )
    action = (
        "亮主" if standing is None else ("加固" if standing[1][0].suit == card.suit else "反主")
    )
    action_en = {"亮主": "declares", "加固": "reinforces", "反主": "overrides"}[action]

    def accept(lang: Lang) -> str:
        name = _name(card.suit, lang)
        what = cards_text(cards, lang)
        two = card.rank in fixed
        by_two = pick(
            lang,
            f"（亮{format_rank(card.rank)}：定花色，与级牌多少无关）" if two else "",
            f" (a {format_rank(card.rank)} fixes the suit, whatever the level cards)"
            if two
            else "",
        )
        return pick(
            lang,
            f"接受{action}：第{seat}位亮出 {n} 张 {what}{by_two}，{name}。",
            f"Accepted: seat {seat} {action_en} with {n} × {what}{by_two}: {name}.",
        )

    return DeclareVerdict(True, card.suit, seat, "", accept)


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
