"""A seat's moves: what it decides (cards or an action), their link notation, and the refusal
of a move the rules do not allow, with the reason in both languages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from checker.engine.cards import SUITS, Card, ascii_card, parse_cards
from checker.engine.errors import CardError
from checker.engine.texts import Lang, Say, cards_text, pick

# The decisions of a round, in the order a round asks them.
DECLARE = "declare"
BID = "bid"
SURRENDER = "surrender"
PICK_TRUMP = "pick_trump"
BURY = "bury"
LEAD = "lead"
FOLLOW = "follow"
SIGNAL_MARK = "~"
# The move notation of a game link: moves joined by ".", cards of one move by "-" in the
# link-friendly ASCII spelling (SA-SA-H10); actions are lower case: p (pass: no declaration
# now, or no bid), b70 (bid 70), y / n (surrender or not), tS (name ♠ trump), ~cai (an
# attacker's signal to its partner, 二七王 §11).
MOVE_SEP = "."
CARD_SEP = "-"
TAKEBACK = "u"  # the person took its last move back (a casual table against bots)
MAX_MOVES = 400


class MoveError(ValueError):
    """A move the game refuses, with the reason in both languages."""

    def __init__(self, say: Say, *, step: int | None = None) -> None:
        self.say = say
        self.step = step
        super().__init__(say("zh"))

    def message(self, lang: Lang) -> str:
        """Say what was wrong, naming the step of the game link when the link was bad."""
        text = self.say(lang)
        if self.step is None:
            return text
        n = self.step + 1
        return pick(lang, f"棋谱第 {n} 步无效：{text}", f"Move {n} of the game is invalid: {text}")


class Move(NamedTuple):
    """One decision of a seat: cards (declare, bury, lead, follow) or an action."""

    kind: str  # "cards", "pass", "bid", "surrender", "trump", "signal", "takeback"
    cards: tuple[Card, ...] = ()
    value: int | str | bool | None = None

    def text(self) -> str:
        """Write the move in the link notation."""
        if self.kind == "cards":
            return CARD_SEP.join(ascii_card(c) for c in self.cards)
        if self.kind == "pass":
            return "p"
        if self.kind == "bid":
            return f"b{self.value}"
        if self.kind == "surrender":
            return "y" if self.value else "n"
        if self.kind == "signal":
            return f"{SIGNAL_MARK}{self.value}"
        if self.kind == "takeback":
            return TAKEBACK
        return f"t{self.value}"


def parse_move(text: str) -> Move:
    """Parse one move of the link notation (cards or an action)."""
    token = text.strip()
    if token == "p":
        return Move("pass")
    if token == TAKEBACK:
        return Move("takeback")
    if token in ("y", "n"):
        return Move("surrender", value=token == "y")
    if token[:1] == "b" and token[1:].isdigit() and len(token) <= 5:
        return Move("bid", value=int(token[1:]))
    if token[:1] == "t" and len(token) == 2 and token[1] in SUITS:
        return Move("trump", value=token[1])
    if token[:1] == SIGNAL_MARK and token[1:].replace("_", "").isalpha() and len(token) <= 20:
        return Move("signal", value=token[1:])
    try:
        cards = parse_cards(token.replace(CARD_SEP, " "))
    except CardError as exc:
        why = str(exc)
        raise MoveError(
            lambda lang: pick(
                lang, f"看不懂“{token[:30]}”：{why}", f"cannot read “{token[:30]}”: {why}"
            )
        ) from None
    if not cards:
        raise MoveError(lambda lang: pick(lang, "空的一步", "an empty move"))
    return Move("cards", tuple(cards))


def parse_moves(text: str) -> list[Move]:
    """Parse a game link's move list ("" is no move yet)."""
    parts = [p for p in text.strip().split(MOVE_SEP)] if text.strip() else []
    if len(parts) > MAX_MOVES:
        raise MoveError(lambda lang: pick(lang, "棋谱太长", "the move list is too long"))
    out: list[Move] = []
    for i, part in enumerate(parts):
        try:
            out.append(parse_move(part))
        except MoveError as exc:
            raise MoveError(exc.say, step=i) from None
    return out


def format_moves(moves: Sequence[Move]) -> str:
    """Write a move list in the link notation."""
    return MOVE_SEP.join(m.text() for m in moves)


def not_in_hand(cards: Sequence[Card]) -> Say:
    """Say that the cards are not all in the seat's hand."""
    return lambda lang: pick(
        lang,
        f"手里没有 {cards_text(cards, lang)}",
        f"{cards_text(cards, lang)} is not in your hand",
    )


def wrong_kind(phase: str) -> Say:
    """Say which kind of move the decision wants."""
    zh = {
        DECLARE: "现在是亮主：选要亮的牌，或者不亮",
        BID: "现在是叫分：叫一个分数或者不叫",
        SURRENDER: "现在要决定投降与否",
        PICK_TRUMP: "现在要定主花色",
        BURY: "现在要扣底牌",
        LEAD: "现在该你首出：选牌",
        FOLLOW: "现在该你跟牌：选牌",
    }[phase]
    en = {
        DECLARE: "this is the declaring: pick the cards to declare, or pass",
        BID: "this is the auction: bid a number or pass",
        SURRENDER: "decide whether to surrender",
        PICK_TRUMP: "name the trump suit",
        BURY: "bury the kitty",
        LEAD: "you lead: pick cards",
        FOLLOW: "you follow: pick cards",
    }[phase]
    return lambda lang: pick(lang, zh, en)


def signal_refused(why: str, code: str = "", known: Sequence[str] = ()) -> Say:
    """Say why a signal is refused: the ruleset has none, an unknown one, not at a play, the
    banker's side, or a second one in the trick."""
    names = " / ".join(known)
    zh = {
        "none": "这个规则没有闲家提示（踩 / 没分 / 有分）",
        "unknown": f"没有“{code}”这种提示（可用：{names}）",
        "phase": "只有出牌时才能发提示",
        "banker": "只有闲家能给对家发提示，庄家不能",
        "again": "这一墩你已经发过提示了",
    }[why]
    en = {
        "none": "this ruleset has no attackers' signals (trump it / no points / points)",
        "unknown": f"there is no signal “{code}” (known: {names})",
        "phase": "signals are sent only while playing a trick",
        "banker": "only an attacker may signal the partner, not the banker",
        "again": "you have already signalled in this trick",
    }[why]
    return lambda lang: pick(lang, zh, en)
