"""Follow hints by shape: what a follow from a hand must contain, in a few words.

"须出：一对♠ + 任意 2 张♠" says the same as the contract's `forced` list, but by structure
rather than by card, the way table players say it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .combos import Answer, Combo
from .follow import generate_example, judge_follow
from .order import TRUMP, Context
from .texts import ZH, Lang, count_en, pick
from .vocab import SUIT_SYMBOLS

PREFIX = {"zh": "须出：", "en": "Must play: "}


def _group_label(group: str, lang: Lang) -> str:
    if group == TRUMP:
        return pick(lang, "主", "trump")
    return SUIT_SYMBOLS[group]


def _answer_words(answer: Answer, g: str, lang: Lang) -> list[str]:
    parts = [
        pick(lang, f"{length}连对拖拉机（{g}）", f"a {length}-pair {g} tractor")
        for length in answer.tractors
    ]
    if answer.pairs == 1:
        parts.append(pick(lang, f"一对{g}", f"a {g} pair"))
    elif answer.pairs:
        parts.append(pick(lang, f"{answer.pairs} 对{g}", f"{answer.pairs} {g} pairs"))
    return parts


def requirement_words(ctx: Context, lead: Combo, hand: Sequence[Card], lang: Lang = ZH) -> str:
    """Say by shape what every legal follow from this hand must hold, e.g. 须出：一对♠ + 任意 2 张♠."""
    n = len(lead.cards)
    group = lead.group or ""
    g = _group_label(group, lang)
    suit = [c for c in hand if ctx.key[c][0] == group]
    k = len(suit)
    if k == 0:
        if group == TRUMP:
            tail = pick(lang, f"任意 {n} 张（没有主牌，只能垫牌）", f"any {n} (no trumps: discard)")
        else:
            tail = pick(
                lang,
                f"任意 {n} 张（缺{g}：可垫牌，也可用主牌杀）",
                f"any {n} (void in {g}: discard, or ruff with trumps)",
            )
        return PREFIX[lang] + tail
    if k <= n:
        text = pick(lang, f"全部 {k} 张{g}", f"all {count_en(k, g + ' card')}")
        if k < n:
            text += pick(lang, f" + 任意 {n - k} 张其他牌", f" + any {n - k} other")
        return PREFIX[lang] + text
    if not lead.has_pairs:
        return PREFIX[lang] + pick(lang, f"任意 {n} 张{g}", f"any {n} {g}")
    required = judge_follow(ctx, lead, hand, generate_example(ctx, lead, hand)).required
    parts = _answer_words(required, g, lang) if required is not None else []
    used = 2 * (sum(required.tractors) + required.pairs) if required is not None else 0
    rest = n - used
    if rest:
        parts.append(pick(lang, f"任意 {rest} 张{g}", f"any {rest} {g}"))
    return PREFIX[lang] + " + ".join(parts)
