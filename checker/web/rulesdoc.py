"""A ruleset's parameters as readable rules (our own wording), for the rules page."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from checker.engine.bidding import settle_chips
from checker.engine.cards import BIG, SMALL, Card, format_rank, parse_rank
from checker.engine.combos import classify
from checker.engine.errors import EngineError
from checker.engine.order import TRUMP
from checker.engine.ruleset import FailedThrow, KittyPolicy, NobodyDeclares, Ruleset
from checker.engine.scoring import score_round
from checker.engine.texts import card_text
from checker.engine.vocab import term
from checker.suite.cases import load_cases
from checker.suite.registry import run_kind
from checker.web import present
from checker.web.glossary import glossary_groups


def _card(card: Card) -> str:
    """Write a card in the page's language (jokers by name)."""
    return card_text(card, present.engine_lang())


def _ranks(ranks: Any) -> str:
    return " ".join(present.rank_label(r) for r in ranks)


def ladder(ctx: Any, group: str = TRUMP) -> list[dict[str, Any]]:
    """The tiers of a group, strongest first, each drawn as chips."""
    tiers = ctx.ladder(group)
    out = []
    for i, tier in enumerate(tiers):
        out.append({"no": len(tiers) - i, "html": present.chips(tier, ctx), "size": len(tier)})
    return out


def score_rows(rs: Ruleset) -> list[dict[str, Any]]:
    """The level table as bands of attacker points, computed by the engine itself."""
    step, swap, small = rs.score_step, rs.score_swap_at, min(rs.score.small_below, rs.score_swap_at)
    total = rs.total_points
    bands: list[tuple[int, int]] = [(0, 0)]
    if rs.score.bands:
        lows = [b.low for b in rs.score.bands]
        bands = [(lo, hi - 5) for lo, hi in zip(lows, lows[1:], strict=False)]
        bands.append((lows[-1], max(total, lows[-1])))
    else:
        if small > 5:
            bands.append((5, small - 5))
        if swap > small:
            bands.append((small, swap - 5))
        low = swap
        while low <= total:
            bands.append((low, min(low + step - 5, total)))
            low += step
    rows = []
    for lo, hi in bands:
        try:
            res = score_round(rs, lo)
        except Exception:  # the table is illustrative; never break the page
            continue
        side = present.term_label(res.winner)
        name = present.code_label(res.result)
        if res.winner == "banker":
            effect = _("庄家升 %(n)d 级") % {"n": res.rise}
        elif res.rise == 0:
            effect = _("闲家上台（换庄）")
        else:
            effect = _("闲家上台并升 %(n)d 级") % {"n": res.rise}
        points = str(lo) if lo == hi else f"{lo}–{hi}"
        rows.append(
            {"points": points, "side": side, "result": name, "code": res.result, "effect": effect}
        )
    return rows


def describe(rs: Ruleset, ctx: Any) -> dict[str, Any]:
    """Everything the rules page says about one ruleset."""
    per_deck = len(rs.ranks) * 4 + (2 if rs.jokers else 0)
    fixed = [r for r in rs.trump_ranks if r != "level"]
    side_suit = next(s for s in "SHCD" if s != ctx.trump)
    level_word = present.rank_label(ctx.level) if ctx.level is not None else ""
    doc: dict[str, Any] = {
        "per_deck": per_deck,
        "deck_size": rs.deck_size,
        "ranks": _ranks(sorted(rs.ranks)),
        "fixed_trumps": _ranks(r for r in fixed if isinstance(r, int)),
        "has_fixed": bool(fixed),
        "ladder": ladder(ctx, TRUMP),
        "side_ladder": ladder(ctx, side_suit),
        "side_symbol": present.SUIT_SYMBOLS[side_suit],
        "deal": ctx.describe(present.engine_lang()) if hasattr(ctx, "describe") else "",
        "level_word": level_word,
        "points_total": rs.total_points,
        "score_rows": score_rows(rs) if not rs.settles_by_bid else [],
        "mandatory": _ranks(rs.mandatory_levels),
        "options": [
            {
                "name": s.name,
                "default": _fmt(s.default),
                "choices": " / ".join(_fmt(c) for c in s.choices),
                "description": option_description(rs, s.name),
            }
            for s in rs.option_specs.values()
        ],
        "conflicts": conflict_notes(rs),
        "summary": rs.description_en
        if rs.description_en and present.engine_lang() == "en"
        else rs.description,
        "tiers": _tiers(rs),
        "kitty": _kitty(rs),
        "throw_policy": _throw_policy(rs),
        "joker_chips": present.chips([BIG, SMALL], ctx) if rs.jokers else "",
        "examples": _examples(rs, ctx),
        "permanent_trumps": _permanent_words(rs),
        "tiers_differ": dict(rs.declare_tiers) != dict(rs.declare_tiers_enhanced),
        "flip": _flip(rs),
        "undeclared_no_trump": rs.declare.nobody == NobodyDeclares.NO_TRUMP,
        "bidding": _bidding(rs),
        "bonus": _bonus(rs),
        "wide": _wide(rs),
    }
    return doc


# The follow ladder of 先同再降 for an eight-card lead, as the seed writes it.
FOLLOW_LADDER = "8 → 7+1 → 6+2 → 5+3 → {t4} → 4+4 → {t3} → 3+3 → {t2} → 2+2 → 1"


def follow_ladder() -> str:
    """The seed's stepping-down order of follows (seed 002 §9), in the page's language."""
    english = present.engine_lang() == "en"
    name = "tractor of {}s" if english else "{}的拖拉机"
    return FOLLOW_LADDER.format(**{f"t{n}": name.format(n) for n in (4, 3, 2)})


def _wide(rs: Ruleset) -> dict[str, Any] | None:
    """Units wider than a pair (three or more decks): the ladder and the seed's examples.

    The examples are the ruleset's own cases whose source is the seed's 举例说明, each
    judged again by the engine here, so the page shows the verdict the suite checks.
    """
    if rs.decks < 3:
        return None
    examples: list[dict[str, Any]] = []
    try:
        cases = load_cases(known_rulesets=[rs.name]).cases
    except Exception:  # the examples illustrate; never break the page
        cases = []
    lang = present.engine_lang()
    for case in cases:
        source = str(case.data.get("source", ""))
        if case.kind != "follow" or rs.name not in case.rulesets or "举例说明" not in source:
            continue
        try:
            variant = rs.with_options(case.data.get("options"))
            actual, say = run_kind(variant, case.kind, case.data)
        except Exception:
            continue
        examples.append(
            {
                "lead": present.chips(present.to_cards(case.data.get("lead")) or []),
                "hand": present.chips(present.to_cards(case.data.get("hand")) or []),
                "play": present.chips(present.to_cards(case.data.get("play")) or []),
                "legal": bool(actual.get("legal")),
                "why": say(lang),
                "id": case.id,
            }
        )
    return {"ladder": follow_ladder(), "examples": examples, "decks": rs.decks}


def option_description(rs: Ruleset, name: str) -> str:
    """Describe a ruleset option in the page's language (its file's description_en in English)."""
    spec = rs.option_specs[name]
    english = spec.description_en
    return english if english and present.engine_lang() == "en" else spec.description


def conflict_notes(rs: Ruleset) -> list[str]:
    """The ruleset's seed conflicts in the page's language (conflicts_en in English)."""
    lang = present.engine_lang()
    return [rs.conflict_in(note, lang) for note in rs.conflicts]


def _permanent_words(rs: Ruleset) -> str:
    """The ranks that are trump in every suit, in words: 级牌 / 级牌、2 / 7、2."""
    parts = []
    for rank in rs.trump_ranks:
        if rank == "level":
            parts.append(pgettext("permanent trump rank", "级牌"))
        elif isinstance(rank, int):
            parts.append(present.rank_label(rank))
    return _("、").join(parts)


def _flip(rs: Ruleset) -> dict[str, Any] | None:
    """The kitty flip when nobody declares (rulesets with `flip`)."""
    if not rs.has_flip:
        return None
    card = rs.option("flip_card") if rs.has_option("flip_card") else 1
    return {"card": card, "option": "flip_card" if rs.has_option("flip_card") else ""}


def _bidding(rs: Ruleset) -> dict[str, Any] | None:
    """The auction and the chip settlement of bidding rulesets, from the ruleset's tables."""
    if rs.bidding is None or rs.chips is None:
        return None
    low, high, step = int(rs.bidding["min"]), int(rs.bidding["max"]), int(rs.bidding["step"])
    chips = rs.chips
    climb_rs = rs.with_options({"climb": True}) if rs.has_option("climb") else None
    q_climb = sorted(((int(k), int(v)) for k, v in (chips.get("q_climb") or {}).items()))
    rows = []
    for bid in range(high, low - 1, -step):
        try:
            base = settle_chips(rs, 0, bid).base_chips
            climb = settle_chips(climb_rs, 0, bid).base_chips if climb_rs else None
        except Exception:  # the table is illustrative; never break the page
            continue
        q = next((v for lowest, v in reversed(q_climb) if bid >= lowest), None)
        rows.append({"bid": bid, "base": base, "climb": climb, "q_climb": q})
    return {
        "min": low,
        "max": high,
        "step": step,
        "surrender_bid": rs.bidding.get("surrender_bid"),
        "surrender_chips": chips.get("surrender"),
        "sweep": chips.get("sweep_multiplier"),
        "small_sweep": chips.get("small_sweep_multiplier"),
        "q": chips.get("q"),
        "rows": rows,
        "has_climb": climb_rs is not None,
    }


def _bonus(rs: Ruleset) -> dict[str, Any] | None:
    """The 算奖 tables and the banker's reveal duty, from the ruleset."""
    rules = rs.bonus_rules
    if rules is None:
        return None
    rows = []
    tables: list[tuple[Any, Any]] = [(_("王"), rules.get("jokers") or {})]
    tables += [(format_rank(parse_rank(str(k))), v) for k, v in (rules.get("ranks") or {}).items()]
    for label, table in tables:
        for need, value in sorted((int(k), int(v)) for k, v in table.items()):
            rows.append(
                {
                    "what": _("%(n)d 张%(what)s") % {"n": need, "what": label},
                    "value": value,
                }
            )
    reveal = []
    if rs.reveal_rules:
        reveal.append(
            {
                "what": _("常主（王和所有 %(r)s）") % {"r": _permanent_words(rs)},
                "need": rs.reveal_rules["fixed_trumps"],
            }
        )
        reveal.append({"what": _("王"), "need": rs.reveal_rules["jokers"]})
        for k, need in (rs.reveal_rules.get("ranks") or {}).items():
            reveal.append({"what": format_rank(parse_rank(str(k))), "need": need})
    return {
        "rows": rows,
        "chain_needs": rules.get("chain_needs_jokers"),
        "reveal": reveal,
    }


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _tiers(rs: Ruleset) -> list[dict[str, Any]]:
    names = list(rs.declare_tiers) or list(rs.declare_tiers_enhanced)
    rows = []
    for key in names:
        rows.append(
            {
                "name": term(key, present.engine_lang()),
                "code": key,
                "normal": rs.declare_tiers.get(key, "—"),
                "enhanced": rs.declare_tiers_enhanced.get(key, "—"),
            }
        )
    return rows


def _kitty(rs: Ruleset) -> dict[str, Any]:
    values = dict(rs.kitty_values)
    rows = []
    if rs.kitty_policy == KittyPolicy.BY_UNIT:
        for key in ("single", "pair", "tractor"):
            if key in values:
                rows.append({"unit": present.term_label(key), "multiplier": values[key]})
        text = _("最后一墩由闲家赢下时，底牌里的分数归闲家，并按赢下最后一墩的牌中最大的分量翻倍：")
    elif rs.kitty_policy == KittyPolicy.POWER_OF_TWO:
        text = _("最后一墩由闲家赢下时，底牌分按 2 的 n 次方翻倍，n 由赢牌的结构决定。")
    elif rs.kitty_policy == KittyPolicy.BY_CARDS:
        for label, n in ((present.term_label("single"), 1), (present.term_label("pair"), 2)):
            rows.append({"unit": label, "multiplier": n})
        rows.append({"unit": _("三条"), "multiplier": 3})
        rows.append({"unit": _("N 张（甩牌、拖拉机……）"), "multiplier": "N"})
        text = _(
            "扣底按最后一轮所出的张数翻倍：抓分方赢下最后一轮，底牌分 × 张数归抓分方；"
            "庄家方赢下时，底牌分 × 张数从抓分方的得分里扣除（至少 ×2 才扣，单张不扣）。"
            "没有底牌时，用最后一轮的分数来翻倍。"
        )
    else:
        single, per_pair = values.get("single", 1), values.get("per_pair", 2)
        rows = [
            {"unit": present.term_label("single"), "multiplier": single},
            {"unit": present.term_label("pair"), "multiplier": per_pair},
            {"unit": _("N 连对拖拉机"), "multiplier": f"{per_pair}N"},
        ]
        text = _("最后一墩由闲家赢下时，底牌分按赢牌中最大的分量翻倍，对子越多倍数越高：")
    if rs.kitty_policy == KittyPolicy.POWER_OF_TWO:
        units = (("single", 1), ("pair", 2))
        for label, cards in [(present.term_label(k), n) for k, n in units] + [
            (_("两连对拖拉机"), 4)
        ]:
            mult = 2**cards
            if rs.kitty_cap is not None:
                mult = min(mult, int(rs.kitty_cap))
            rows.append({"unit": label, "multiplier": mult})
        text = _(
            "最后一墩由闲家赢下时，底牌分按 2 的 n 次方翻倍，n 是赢牌中最大分量的张数"
            "（单张 1 张、对子 2 张、两连对 4 张……）："
        )
    return {
        "rows": rows,
        "text": text,
        "cap": rs.kitty_cap,
        "requires_trump": rs.kitty_requires_trump,
    }


def _throw_policy(rs: Ruleset) -> dict[str, Any]:
    failed = {
        FailedThrow.FIRST_BEATEN_UNIT: _(
            "服务器按“单张 → 对子 → 拖拉机”的顺序检查各个分量，找到第一个能被别人压住的分量，"
            "只强制打出这个分量，其余的牌收回手中。"
        ),
        FailedThrow.SMALLEST_OF_BEATEN_KIND: _("强制打出被压牌型中最小的一组，其余收回。"),
        FailedThrow.SMALLEST_CARD: _("只强制打出甩牌中最小的一张，其余收回。"),
    }.get(rs.failed_throw, rs.failed_throw)
    penalty = None
    if rs.throw_penalty:
        single, pair, per_pair = rs.throw_penalty
        penalty = {"single": single, "pair": pair, "per_pair": per_pair}
    return {"failed": failed, "penalty": penalty, "trump_only": rs.throws_trump_only}


def _is_tractor(ctx: Any, cards: list[Card]) -> bool:
    try:
        return classify(ctx, cards).type == "tractor"
    except EngineError:
        return False


def _example(ctx: Any, a: Card, b: Card, yes: str, no: str) -> dict[str, SafeString | str]:
    """Two pairs drawn as cards, with the sentence that matches the engine's own verdict."""
    cards = [a, a, b, b]
    return {"html": present.chips(cards, ctx), "text": yes if _is_tractor(ctx, cards) else no}


def _examples(rs: Ruleset, ctx: Any) -> list[dict[str, SafeString | str]]:
    """A few pairs of pairs that show how adjacency works in this deal.

    Every sentence is chosen by asking the engine whether the four cards form a
    tractor, so the page cannot contradict the engine whatever the ruleset.
    """
    side = next(s for s in "SHCD" if s != ctx.trump)
    side_ranks = {c.rank for tier in ctx.ladder(side) for c in tier}
    return [*_side_examples(rs, ctx, side, side_ranks), *_trump_examples(ctx, side_ranks)]


def _side_examples(
    rs: Ruleset, ctx: Any, side: str, side_ranks: set[int]
) -> list[dict[str, SafeString | str]]:
    """A side-suit pair of pairs around a rank that is trump in every suit (if there is one)."""
    out: list[dict[str, SafeString | str]] = []
    plain = sorted(side_ranks)
    removed = [r for r in sorted(rs.ranks, reverse=True) if r not in side_ranks]
    # A side-suit tractor that skips a rank which is trump in every suit.
    for rank in removed:
        below = [r for r in plain if r < rank]
        above = [r for r in plain if r > rank]
        if below and above:
            words = {
                "r": present.rank_label(rank),
                "a": present.rank_label(above[0]),
                "b": present.rank_label(below[-1]),
            }
            out.append(
                _example(
                    ctx,
                    Card(side, above[0]),
                    Card(side, below[-1]),
                    _(
                        "是拖拉机：%(r)s 是主牌，不在副牌的点数序列里，%(a)s 和 %(b)s 在这门花色里相邻。"
                    )
                    % words,
                    _("不是拖拉机：%(a)s 和 %(b)s 在这门花色里不相邻。") % words,
                )
            )
            break
    return out


def _trump_examples(ctx: Any, side_ranks: set[int]) -> list[dict[str, SafeString | str]]:
    """Pairs of pairs along the trump ladder: a shared tier, each step up, one tier skipped."""
    out: list[dict[str, SafeString | str]] = []
    ladder = ctx.ladder(TRUMP)
    # Two off-suit cards of the same trump rank share a tier.
    shared = next((tier for tier in ladder if len(tier) >= 2), None)
    if shared is not None:
        a, b = shared[0], shared[1]
        words = {"a": _card(a), "b": _card(b)}
        out.append(
            _example(
                ctx,
                a,
                b,
                _("是拖拉机：%(a)s 和 %(b)s 在主牌梯子里相邻。") % words,
                _("不是拖拉机：%(a)s 和 %(b)s 一样大，处在同一层，不能首尾相连。") % words,
            )
        )
    # Upward from the top plain trump-suit card (or the lowest tier at no-trump): each step.
    start = len(ladder) - 1
    if ctx.trump is not None:
        for i, tier in enumerate(ladder):
            card = tier[0]
            if not card.is_joker and card.suit == ctx.trump and card.rank in side_ranks:
                start = i
                break
    for i in range(start, 0, -1):
        a, b = ladder[i][0], ladder[i - 1][0]
        words = {"a": _card(a), "b": _card(b)}
        out.append(
            _example(
                ctx,
                a,
                b,
                _("是拖拉机：%(a)s 和 %(b)s 在主牌梯子里相邻。") % words,
                _("不是拖拉机：%(a)s 和 %(b)s 虽在梯子里相邻，本规则不让它们相连。") % words,
            )
        )
    if start >= 2:
        a, b, between = ladder[start][0], ladder[start - 2][0], ladder[start - 1][0]
        words = {"a": _card(a), "b": _card(b), "c": _card(between)}
        out.append(
            _example(
                ctx,
                a,
                b,
                _("是拖拉机：%(a)s 和 %(b)s 相邻。") % words,
                _("不是拖拉机：%(a)s 和 %(b)s 之间隔着 %(c)s 那一层。") % words,
            )
        )
    return out


def glossary() -> list[dict[str, Any]]:
    """List the glossary's groups for the rules page: each heading and its (中文, English) rows."""
    return [{"title": str(title), "rows": rows} for title, rows in glossary_groups()]
