"""python manage.py play: a round against the bots in the terminal (seed 003's 人机对战)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser

from checker.engine.cards import (
    SUIT_SYMBOLS,
    Card,
    ascii_card,
    format_card,
    format_cards,
    parse_cards,
)
from checker.engine.declare import shown_declaration
from checker.engine.errors import CardError
from checker.engine.roundrules import announces_no_trump
from checker.engine.tablerules import signal_code, signal_meaning, signal_name
from checker.engine.texts import Lang, as_lang, pick
from checker.management.stopping import stoppable
from checker.play.bots.registry import PLAYER_KINDS
from checker.play.game import (
    SURRENDER,
    Ask,
    LiveTables,
    Move,
    MoveError,
    Position,
    format_moves,
    hint,
    make_spec,
    parse_moves,
    replay_game,
)
from checker.play.players import BID, BURY, DECLARE, FOLLOW, LEAD, PICK_TRUMP
from checker.play.seats import describe_bots
from checker.play.table import Table, banker_reveal, fold_events, review_seats
from checker.scenarios.scenario import ScenarioError, parse_options
from checker.web.links import options_param

from .simulate import add_budget, use_budget

# Words that ask for 查牌 (after 报无主), and whether they also show the others' trumps (明牌).
REVIEW_WORDS = {"review": False, "r": False, "查牌": False, "review all": True, "明牌": True}
RED = "\033[31m"
BOLD = "\033[1m"
DIM = "\033[2m"
RESET = "\033[0m"


class Screen:
    """Writes cards and lines for the terminal: suit symbols (colour optional) or ASCII."""

    def __init__(self, out: TextIO, *, color: bool, lang: Lang) -> None:
        self.out = out
        self.color = color
        self.lang = lang

    def card(self, card: Card, *, trump: bool = False) -> str:
        if not self.color:
            return ascii_card(card) + ("*" if trump else "")
        # Suit symbols either way; jokers as 大王/小王 in zh-Hans and BJ/LJ in English.
        text = ascii_card(card) if card.rank >= 15 and self.lang == "en" else format_card(card)
        if card.suit in ("H", "D") or card.rank == 16:
            text = RED + text + RESET
        return (BOLD + text + RESET) if trump else text

    def cards(self, cards: Sequence[Card], table: Table | None = None) -> str:
        ctx = table.ctx if table is not None else None
        return " ".join(self.card(c, trump=bool(ctx and ctx.is_trump(c))) for c in cards) or "—"

    def hand(self, cards: Sequence[Card], table: Table) -> str:
        """Write a hand grouped: trumps first (labelled 主), then each suit, strongest first."""
        ctx = table.ctx
        if ctx is None:
            return self.cards(cards, table)
        groups: dict[str, list[Card]] = {}
        for c in ctx.sort_cards(cards):
            groups.setdefault(ctx.group(c), []).append(c)
        parts = []
        for group, members in groups.items():
            label = pick(self.lang, "主", "T") + ": " if group == "T" else ""
            parts.append(label + self.cards(members, table))
        return " | ".join(parts)

    def say(self, zh: str, en: str) -> None:
        self.out.write(pick(self.lang, zh, en) + "\n")

    def seat(self, seat: int, human: int | None) -> str:
        if seat == human:
            return pick(self.lang, f"你(座{seat})", f"you (seat {seat})")
        return pick(self.lang, f"座{seat}", f"seat {seat}")


class Command(BaseCommand):
    help = "Play a round of a ruleset against the bots in the terminal (hint, last, quit)."
    tables = LiveTables(size=1)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ruleset", default="classic")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--human-seat", type=int, default=0)
        parser.add_argument("--level", default=None, help="starting level rank (2–A)")
        parser.add_argument(
            "--bots",
            default=None,
            help=f"one bot for every seat, or a comma list per seat ({', '.join(PLAYER_KINDS)}; "
            "'-' or nothing at your seat; default the strongest)",
        )
        parser.add_argument(
            "--options", default="", help="ruleset options, name:value,... (e.g. decks:2)"
        )
        parser.add_argument(
            "--moves", default="", help="resume a game from its move list (a play link's moves=)"
        )
        parser.add_argument("--autoplay", action="store_true", help="bots take every seat")
        parser.add_argument("--lang", default="zh", help="zh (default) or en")
        add_budget(parser)

    def handle(self, *args: Any, **opts: Any) -> None:
        with stoppable(
            "play",
            sys.stderr,
            lambda: (
                "nothing kept (a game in the terminal is not saved; --moves resumes one from its move list)"
            ),
        ):
            self._handle(*args, **opts)

    def _handle(self, *args: Any, **opts: Any) -> None:
        use_budget(opts)
        seat = None if opts["autoplay"] else opts["human_seat"]
        try:
            options = parse_options(opts["options"])
        except ScenarioError as exc:
            raise CommandError(f"--options: {exc.message_en}") from None
        try:
            spec = make_spec(
                opts["ruleset"], opts["seed"], seat, opts["bots"], opts["level"], options
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        screen = Screen(self.stdout, color=not opts["no_color"], lang=as_lang(opts["lang"]))
        try:
            position = replay_game(spec, parse_moves(opts["moves"]))
        except MoveError as exc:
            raise CommandError(f"--moves: {exc.message('en')}") from None
        shown = 0
        stdin: TextIO = sys.stdin
        rs = position.ruleset
        bots = describe_bots(spec.bots, seat, rs.players)
        chosen = options_param(dict(spec.options))
        screen.say(
            f"{rs.title} · 种子 {spec.seed} · 机器人 {bots} · "
            + ("全部托管" if seat is None else f"你坐 {seat} 号位")
            + (f" · 选项 {chosen}" if chosen else ""),
            f"{rs.title_en} · seed {spec.seed} · bots {bots} · "
            + ("autoplay" if seat is None else f"you sit at seat {seat}")
            + (f" · options {chosen}" if chosen else ""),
        )
        while True:
            table = fold_events(rs, position.events, position.reasons)
            shown = self.narrate(screen, table, position, shown, seat)
            if position.ask is None:
                break
            moved = self.ask(screen, stdin, table, position)
            if moved is None:
                screen.say("已退出。", "Left the table.")
                return
            position = moved
        screen.say(
            f"棋谱：{format_moves(position.moves) or '—'}",
            f"Moves: {format_moves(position.moves) or '—'}",
        )

    # -- output -------------------------------------------------------------------------------

    def narrate(
        self, s: Screen, table: Table, position: Position, shown: int, human: int | None
    ) -> int:
        """Print the log's events from `shown` on; return how many are shown now."""
        lang = s.lang
        events = position.events
        for i in range(shown, len(events)):
            e = events[i]
            t = e["t"]
            who = s.seat(int(e["seat"]), human) if "seat" in e else ""
            reason = position.reasons.get(i)
            why = (
                f"  {DIM if s.color else ''}（{reason.explanation_for(lang)}）{RESET if s.color else ''}"
                if reason and int(e.get("seat", -1)) != human
                else ""
            )
            if t in ("play", "no_trump", "signal", "trick", "end"):
                self.tell_trick_event(s, table, e, who, why, human)
            else:
                self.tell_deal_event(s, table, e, who, why, human)
        return len(events)

    def tell_deal_event(
        self, s: Screen, table: Table, e: dict[str, Any], who: str, why: str, human: int | None
    ) -> None:
        """Print one event of the deal: a redeal, a declaration, a bid, the trump, the burial."""
        t = e["t"]
        if t == "deal" and e["redeal"]:
            s.say(
                f"无人亮主，重新发牌（第 {e['redeal']} 次）",
                f"Nobody declared: redeal {e['redeal']}",
            )
        elif t == "declare" and e["accepted"]:
            seen = shown_declaration(
                table.ruleset,
                parse_cards(e["cards"]),
                own=int(e["seat"]) == human,
                deal_over=False,
            )
            if isinstance(seen, int):
                s.say(f"{who} 暗亮 {seen} 张", f"{who} declares {seen} hidden cards")
            else:
                s.say(
                    f"{who} 亮主 {s.cards(seen)}{why}",
                    f"{who} declares {s.cards(seen)}{why}",
                )
        elif t == "bid":
            bid = e["bid"]
            s.say(
                f"{who} {'不叫' if bid == 'pass' else f'叫 {bid}'}",
                f"{who} {'passes' if bid == 'pass' else f'bids {bid}'}",
            )
        elif t == "surrender":
            s.say(f"{who} 投降", f"{who} surrenders")
        elif t == "trump":
            trump = "无主" if e["trump"] == "none" else "主" + SUIT_SYMBOLS[e["trump"]]
            trump_en = "no-trump" if e["trump"] == "none" else SUIT_SYMBOLS[e["trump"]] + " trump"
            banker = s.seat(int(e["banker"]), human)
            s.say(f"定主：{trump}，庄家 {banker}", f"Trump: {trump_en}, banker {banker}")
        elif t == "bury":
            if int(e["seat"]) == human:
                s.say(
                    f"你扣底：{s.cards(parse_cards(e['cards']), table)}",
                    f"You buried {s.cards(parse_cards(e['cards']), table)}",
                )
            else:
                s.say(
                    f"{who} 扣底 {table.ruleset.kitty_size} 张",
                    f"{who} buried {table.ruleset.kitty_size} cards",
                )

    def tell_trick_event(
        self, s: Screen, table: Table, e: dict[str, Any], who: str, why: str, human: int | None
    ) -> None:
        """Print one event of the tricks: a play, 报无主, a signal, a trick won, the round's end."""
        t, lang = e["t"], s.lang
        if t == "play":
            cards = s.cards(parse_cards(e["cards"]), table)
            if e.get("throw") == "failed":
                tried = s.cards(parse_cards(e["tried"]), table)
                s.say(
                    f"{who} 甩 {tried} 失败，只能出 {cards}",
                    f"{who} tried to throw {tried}: failed, plays {cards}",
                )
            else:
                verb = pick(
                    lang,
                    "首出" if e["role"] == "lead" else "跟",
                    "leads" if e["role"] == "lead" else "plays",
                )
                s.out.write(f"{who} {verb} {cards}{why}\n")
        elif t == "no_trump":
            s.say(f"{who} 报无主：没有主牌了", f"{who} announces: no trumps left")
        elif t == "signal":
            code = str(e["signal"])
            s.say(
                f"{who} 提示：{signal_name(code, 'zh')}（{signal_meaning(code, 'zh')}）",
                f"{who} signals: {signal_name(code, 'en')} ({signal_meaning(code, 'en')})",
            )
        elif t == "trick":
            s.say(
                f"—— 第 {e['trick'] + 1} 墩 {s.seat(int(e['winner']), human)} 赢，{e['points']} 分；闲家共 {e['attackers']} 分",
                f"—— trick {e['trick'] + 1} to {s.seat(int(e['winner']), human)}, {e['points']} points; attackers {e['attackers']}",
            )
        elif t == "end":
            self.summary(s, table, e)

    def summary(self, s: Screen, table: Table, e: dict[str, Any]) -> None:
        kitty = s.cards(parse_cards(e["kitty"]), table)
        s.say(
            f"底牌：{kitty}（{e['kitty_points']} 分）",
            f"Kitty: {kitty} ({e['kitty_points']} points)",
        )
        if e["kitty_bonus"]:
            s.say(
                f"抠底 ×{e['multiplier']}：闲家加 {e['kitty_bonus']} 分",
                f"Kitty bonus ×{e['multiplier']}: attackers +{e['kitty_bonus']}",
            )
        s.say(f"闲家得分：{e['attackers_points']}", f"Attackers' points: {e['attackers_points']}")
        result = f"{e['result']} · {e['winner']} +{e['rise']}"
        if e.get("chips") is not None:
            result += pick(s.lang, f" · 筹码 {e['chips']}", f" · chips {e['chips']}")
        if e.get("next_level"):
            result += pick(
                s.lang, f" · 下一局打 {e['next_level']}", f" · next level {e['next_level']}"
            )
        s.say(f"结果：{result}", f"Result: {result}")

    def review(self, s: Screen, table: Table, human: int, *, show_cards: bool) -> None:
        """可查牌 (seed 001 §9): after 报无主, the others' trump and pair counts (with `review
        all` / 明牌 their trumps too) and the banker's 亮牌; 不查牌 shows none of it."""
        rs = table.ruleset
        if not announces_no_trump(rs) or table.ctx is None:
            s.say(
                "这个规则没有报无主和查牌。",
                "This ruleset has no announcing of no trumps and no review.",
            )
            return
        if not rs.review_is_open:
            s.say("不查牌：本局不能看别人的主牌。", "No review: others' trumps stay hidden.")
            return
        duty = banker_reveal(table, human)
        if duty is not None and human != table.banker:
            text = duty.explanation_for(s.lang)
            s.say(f"庄家亮牌：{text}", f"The banker's reveal: {text}")
        shown = review_seats(table, human)
        if shown is None:
            s.say("还没有人报无主。", "Nobody has announced no trumps yet.")
            return
        names = "、".join(s.seat(x, human) for x in table.no_trump)
        names_en = ", ".join(s.seat(x, human) for x in table.no_trump)
        s.say(f"已报无主：{names}", f"Out of trumps: {names_en}")
        for r in shown:
            cards = s.cards(r.cards, table) if show_cards and r.cards else ""
            who = s.seat(r.seat, human)
            s.say(
                f"{who} 主牌 {r.trumps} 张，{r.pairs} 对" + (f"：{cards}" if cards else ""),
                f"{who}: {r.trumps} trumps, {r.pairs} pairs" + (f": {cards}" if cards else ""),
            )

    # -- input --------------------------------------------------------------------------------

    def ask(self, s: Screen, stdin: TextIO, table: Table, position: Position) -> Position | None:
        """Read the human's decision until the rules accept one; None when they quit."""
        ask = position.ask
        assert ask is not None
        view = ask.view
        lang = s.lang
        ctx = view.ctx or table.ctx
        hand = ctx.sort_cards(view.hand) if ctx else list(view.hand)
        while True:
            if ask.phase in (BURY, LEAD, FOLLOW, DECLARE):
                s.say(f"你的牌：{s.hand(hand, table)}", f"Your hand: {s.hand(hand, table)}")
            if ask.phase == FOLLOW and table.current is not None:
                shown = "  ".join(
                    f"{s.seat(p.seat, view.seat)}: {s.cards(p.cards, table)}"
                    for p in table.current.plays
                )
                s.say(f"桌上：{shown}", f"On the table: {shown}")
            s.out.write(_prompt(lang, ask) + _commands(lang, table, ask.phase))
            s.out.flush()
            line = stdin.readline()
            if not line:
                return None
            text = line.strip()
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit", "q"):
                return None
            if word in ("hint", "h", "?"):
                self.show_hint(s, table, position)
                continue
            if word in REVIEW_WORDS:
                self.review(s, table, view.seat, show_cards=REVIEW_WORDS[word])
                continue
            if word in ("last", "l"):
                self.show_last(s, table, view.seat)
                continue
            if word in ("help", "帮助"):
                self.show_help(s, table)
                continue
            try:
                move = read_move(ask.phase, text)
                # The round is kept at the decision: a move costs only the bots' replies.
                return self.tables.play(position.spec, format_moves(position.moves), move)
            except MoveError as exc:
                s.say(f"不行：{exc.message(lang)}", f"Refused: {exc.message(lang)}")

    def show_hint(self, s: Screen, table: Table, position: Position) -> None:
        """Print the forced cards and a suggested decision with its reason."""
        lang, ask = s.lang, position.ask
        assert ask is not None
        forced, decision = hint(position)
        if forced:
            s.say(f"必出：{s.cards(forced, table)}", f"Forced: {s.cards(forced, table)}")
        if decision is not None:
            s.say(
                f"建议：{s.cards(decision.cards, table)}（{decision.explanation_for(lang)}）",
                f"Try: {s.cards(decision.cards, table)} ({decision.explanation_for(lang)})",
            )
        elif ask.phase == BID:
            s.say(
                "叫分越低越难：叫你有把握拿到的分。",
                "A lower bid is harder: bid what you are sure to keep.",
            )

    def show_help(self, s: Screen, table: Table) -> None:
        """Print the words the prompt takes: moves, the tools and the attackers' signals."""
        s.say(
            "出牌：输入牌，如 SA SA H10（S♠ H♥ C♣ D♦，BJ 大王，LJ 小王）；hint 提示 · last 上把 · quit 退出",
            "Cards: type them, e.g. SA SA H10 (S♠ H♥ C♣ D♦, BJ big joker, LJ small joker); "
            "hint · last trick · quit",
        )
        if announces_no_trump(table.ruleset):
            s.say(
                "review 查牌（报无主后看别人的主牌张数），明牌 连牌一起看",
                "review: the others' trump counts after 报无主; review all: their trumps too",
            )
        for code in table.ruleset.table.signals:
            s.say(
                f"{signal_name(code, 'zh')}（或 ~{code}）：{signal_meaning(code, 'zh')}。"
                "闲家在自己出牌前给队友的信号，每墩一次，全桌都看得到，不占出牌",
                f"{code} (or {signal_name(code, 'en').lower()}): “{signal_meaning(code, 'en')}”. "
                "An attacker's signal to the partner before its play, once a trick, seen by "
                "everyone, not a move of cards",
            )

    def show_last(self, s: Screen, table: Table, seat: int) -> None:
        """Print the last finished trick (only when the room allows reviewing)."""
        done = table.finished
        if not table.ruleset.review_is_open:
            s.say(
                "不查牌：本局结束前不能看已出的牌。",
                "No review: the cards played stay hidden until the round ends.",
            )
        elif not done:
            s.say("还没有上一墩。", "No trick yet.")
        else:
            t = done[-1]
            plays = "  ".join(f"{s.seat(p.seat, seat)}: {s.cards(p.cards, table)}" for p in t.plays)
            s.say(
                f"上把（第 {t.number + 1} 墩）：{plays} → {s.seat(t.winner or 0, seat)}",
                f"Last trick ({t.number + 1}): {plays} → {s.seat(t.winner or 0, seat)}",
            )


def _prompt(lang: Lang, ask: Ask) -> str:
    """Ask for the decision the round waits on, in words."""
    view = ask.view
    prompts = {
        DECLARE: pick(lang, "可以亮主：", "You may declare: ")
        + " / ".join(format_cards(o) for o in ask.declarations)
        + pick(lang, "（输入牌或 pass）", " (type the cards or pass)"),
        BID: pick(lang, "叫分", "Your bid")
        + f" {ask.bid_range[0]}–{ask.bid_range[1]}"
        + (
            pick(lang, "（必须叫）", " (you must bid)")
            if ask.must_bid
            else pick(lang, " 或 pass", " or pass")
        ),
        SURRENDER: pick(lang, "投降吗？(y/n)", "Surrender? (y/n)"),
        PICK_TRUMP: pick(lang, "定主花色（S H C D）", "Name trump (S H C D)"),
        BURY: pick(
            lang,
            f"扣 {view.ruleset.kitty_size} 张底牌",
            f"Bury {view.ruleset.kitty_size} cards",
        ),
        LEAD: pick(lang, "你首出", "Your lead"),
        FOLLOW: pick(lang, "你跟牌", "Your follow"),
    }
    return prompts[ask.phase]


def _commands(lang: Lang, table: Table, phase: str) -> str:
    """Name the words the prompt takes besides a move (the signals while playing a trick)."""
    zh, en = ["hint 提示", "last 上把"], ["hint", "last"]
    if announces_no_trump(table.ruleset):
        zh, en = [*zh, "review 查牌"], [*en, "review"]
    signals = table.ruleset.table.signals
    if signals and phase in (LEAD, FOLLOW):
        zh.append("/".join(signal_name(c, "zh") for c in signals) + " 信号")
        en.append("/".join(signals) + " signal")
    zh, en = [*zh, "help 帮助", "quit 退出"], [*en, "help", "quit"]
    return pick(lang, f"（{' · '.join(zh)}）> ", f" ({' · '.join(en)}) > ")


def read_move(phase: str, text: str) -> Move:
    """Read a typed decision for the phase (cards in the contract's notation, an action, or
    an attacker's signal while playing a trick)."""
    word = text.strip().lower()
    if word in ("pass", "p", "不亮", "不叫", "pass."):
        return Move("pass")
    signal = signal_code(word) if phase in (LEAD, FOLLOW) else None
    if signal is not None:
        return Move("signal", value=signal)
    if phase == BID:
        if word.isdigit():
            return Move("bid", value=int(word))
    elif phase == SURRENDER:
        if word in ("y", "n", "yes", "no"):
            return Move("surrender", value=word.startswith("y"))
    elif phase == PICK_TRUMP:
        suit = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}.get(text.strip(), text.strip().upper())
        if suit in SUIT_SYMBOLS:
            return Move("trump", value=suit)
    else:
        try:
            cards = parse_cards(text)
        except CardError as exc:
            raise MoveError(exc.message_for) from None
        if cards:
            return Move("cards", tuple(cards))
    raise MoveError(lambda lang: pick(lang, f"看不懂“{text[:30]}”", f"cannot read “{text[:30]}”"))
