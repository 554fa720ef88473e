"""Declaring and overriding trump during the deal (亮主 / 反主): when a bot shows its level
cards or jokers, measured by the suit strength of its hand against the declaration standing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from checker.engine.cards import SUIT_SYMBOLS, Card
from checker.engine.texts import cards_text

from ..players import Decision, PlayerView, seen_declaration_options
from .strength import (
    NT_SCORE,
    PAIR_SCORE,
    below_half,
    below_quarter,
    nt_strength,
    suit_strength,
)
from .words import decided

# Gates of the v2 override rule (seed 000, 机器人v2反主门槛): an opponent's suit is overridden
# with a gap of OPPONENT_GAP in suit strength outside the first round, any gap in it; a
# partner's only with PARTNER_GAP. A joker pair overrides an opponent when the hand's no-trump
# strength exceeds NT_OPPONENT (or the standing suit is weak for the hand), a partner when it
# exceeds NT_PARTNER.
OPPONENT_GAP = 4
PARTNER_GAP = 8
NT_OPPONENT = 5
NT_PARTNER = 6


@dataclass(frozen=True)
class Option:
    """One declaration the rules accept now, with what it would name and score."""

    cards: tuple[Card, ...]
    suit: str | None
    strength: int
    score: int

    @property
    def is_pair(self) -> bool:
        return len(self.cards) == 2


def _options(view: PlayerView) -> list[Option]:
    rs, level, hand = view.ruleset, view.level, view.hand
    out: list[Option] = []
    for cards in seen_declaration_options(view):
        if cards[0].is_joker:
            out.append(Option(tuple(cards), None, nt_strength(rs, level, hand), NT_SCORE))
            continue
        s = suit_strength(rs, level, hand, cards[0].suit)
        out.append(
            Option(tuple(cards), cards[0].suit, s, s + (PAIR_SCORE if len(cards) == 2 else 0))
        )
    return out


def _standing(view: PlayerView) -> tuple[int, str | None] | None:
    if not view.declarations:
        return None
    seat, cards = view.declarations[-1]
    return seat, (None if cards[0].is_joker else cards[0].suit)


def _name(suit: str | None) -> tuple[str, str]:
    if suit is None:
        return "无主", "no-trump"
    return SUIT_SYMBOLS[suit], SUIT_SYMBOLS[suit]


def _none(bot: str, rule: str, zh: str, en: str) -> Decision:
    return decided(bot, rule, (), zh, en)


def _take(bot: str, rule: str, opt: Option, zh: str, en: str) -> Decision:
    tail_zh = f"：亮 {{cards}}（强度 {opt.strength}，分值 {opt.score}）"
    tail_en = f": declare {{cards}} (strength {opt.strength}, score {opt.score})"
    return decided(bot, rule, opt.cards, zh + tail_zh, en + tail_en)


def _first(bot: str, view: PlayerView, options: list[Option]) -> Decision:
    """Nothing on the table: a natural pair at once, a single when its suit is long enough."""
    rs = view.ruleset
    pairs = [o for o in options if o.is_pair and o.suit is not None]
    if pairs:
        best = max(pairs, key=lambda o: (o.strength, o.cards))
        return _take(
            bot,
            "declare.first_pair",
            best,
            "首次亮主用级牌对子",
            "first declaration with a level pair",
        )
    jokers = [o for o in options if o.is_pair]
    full = len(view.hand) >= rs.hand_size
    if jokers and (jokers[0].strength > NT_OPPONENT or full):
        return _take(
            bot,
            "declare.first_nt",
            jokers[0],
            "首次亮主用对王（无主）",
            "first declaration with a joker pair (no-trump)",
        )
    singles = [o for o in options if not o.is_pair]
    if singles:
        best = max(singles, key=lambda o: (o.strength, o.cards))
        # Early in the deal a single shows a suit only when it is already a fair share of the hand.
        if full or (best.strength >= 3 and 10 * best.strength >= 3 * len(view.hand)):
            return _take(
                bot,
                "declare.first_single",
                best,
                "首次亮主：该花色已占手牌约三成",
                "first declaration: the suit is about a third of the hand",
            )
    return _none(
        bot, "declare.wait", "暂不亮主：没有足够强的花色", "waits: no suit strong enough yet"
    )


def decide_declare(bot: str, view: PlayerView, *, weak_overrides: bool) -> Decision:
    """Decide a declaration (v2 gates; weak_overrides=True keeps v1's override-whenever-legal)."""
    options = _options(view)
    if not options:
        return _none(
            bot,
            "declare.none",
            "不亮主：没有可亮的牌",
            "does not declare: nothing that may be declared",
        )
    standing = _standing(view)
    if standing is None:
        return _first(bot, view, options)
    seat, current = standing
    rs, level, hand = view.ruleset, view.level, view.hand
    cur_strength = suit_strength(rs, level, hand, current) if current is not None else 0
    first_round = view.first_round
    mine = seat == view.seat
    partner = not mine and rs.is_same_side(seat, view.seat, view.seat)
    cur_zh, cur_en = _name(current)
    same = [o for o in options if o.suit == current and current is not None]
    if same:
        opt = same[0]
        who_zh = "自己" if mine else ("队友" if partner else "对手")
        who_en = "own" if mine else ("partner's" if partner else "opponent's")
        return _take(
            bot,
            "declare.reinforce",
            opt,
            f"同花色追加（宽松）：{who_zh}亮的{cur_zh}用对子加固",
            f"same-suit reinforcing (lenient): the {who_en} {cur_en} declaration becomes a pair",
        )
    if mine:
        return _none(bot, "declare.keep_own", "保持自己亮的主", "keeps its own declaration")
    suits = [o for o in options if o.suit is not None and o.is_pair]
    nts = [o for o in options if o.suit is None]
    if weak_overrides and not partner:
        pick_from = suits or nts
        if pick_from:
            best = max(pick_from, key=lambda o: (o.score, o.cards))
            return _take(
                bot,
                "declare.v1_override",
                best,
                f"v1 旧行为：能反就反（对手亮{cur_zh}）",
                f"v1 legacy: overrides whenever allowed (opponent declared {cur_en})",
            )
    for opt in sorted(nts, key=lambda o: o.cards):
        n = opt.strength
        if partner:
            if n > NT_PARTNER:
                return _take(
                    bot,
                    "declare.nt_over_partner",
                    opt,
                    f"无主门槛 {n} > {NT_PARTNER}，队友让步阈值放行",
                    f"no-trump strength {n} > {NT_PARTNER} clears the partner gate",
                )
            continue
        if current is None:
            if first_round:
                return _take(
                    bot,
                    "declare.nt_first_round",
                    opt,
                    "首局争庄：更高的对王反无主",
                    "first round, contesting the bank: a higher joker pair over no-trump",
                )
            continue
        if first_round and not below_half(rs, level, cur_strength):
            continue  # the hand is already strong in the standing suit
        if below_quarter(rs, level, cur_strength):
            return _take(
                bot,
                "declare.nt_weak_current",
                opt,
                f"现主{cur_zh}门强度 {cur_strength} 不足四分之一，对手照抢，以无主反主",
                f"the standing {cur_en} is weak for this hand ({cur_strength}, under a quarter): override with no-trump",
            )
        if n > NT_OPPONENT:
            return _take(
                bot,
                "declare.nt_strength",
                opt,
                f"无主门槛 {n} > {NT_OPPONENT}，对手照抢",
                f"no-trump strength {n} > {NT_OPPONENT}: override the opponent",
            )
    best_suit = max(suits, key=lambda o: (o.strength, o.cards), default=None)
    if best_suit is not None:
        gap = best_suit.strength - cur_strength
        if partner:
            if gap >= PARTNER_GAP:
                return _take(
                    bot,
                    "declare.over_partner",
                    best_suit,
                    f"强度差 {gap} ≥ {PARTNER_GAP}，才反队友的{cur_zh}",
                    f"gap {gap} ≥ {PARTNER_GAP}: only then override the partner's {cur_en}",
                )
        elif first_round and gap >= 0:
            return _take(
                bot,
                "declare.first_round_override",
                best_suit,
                f"首局争庄更激进：无需差距即反对手的{cur_zh}（{best_suit.strength} 对 {cur_strength}）",
                f"first round, more aggressive: overrides the opponent's {cur_en} without a gap ({best_suit.strength} vs {cur_strength})",
            )
        elif gap >= OPPONENT_GAP:
            return _take(
                bot,
                "declare.override",
                best_suit,
                f"强度差 {gap} ≥ {OPPONENT_GAP}，反对手的{cur_zh}",
                f"gap {gap} ≥ {OPPONENT_GAP}: override the opponent's {cur_en}",
            )
    if partner:
        return _none(
            bot,
            "declare.yield_partner",
            f"队友已亮{cur_zh}：让步不反主",
            f"the partner declared {cur_en}: yields, no override",
        )
    shown = cards_text(best_suit.cards, "zh") if best_suit else ""
    return _none(
        bot,
        "declare.weak_override",
        f"拒绝弱反主{('（' + shown + '）') if shown else ''}：对手的{cur_zh}不值得抢",
        f"refuses a weak override: the opponent's {cur_en} is not worth contesting",
    )


def declare_cards(view: PlayerView, bot: str, *, weak_overrides: bool) -> Sequence[Card]:
    """Return only the cards of a declaration decision."""
    return decide_declare(bot, view, weak_overrides=weak_overrides).cards
