"""The project's vocabulary: every spelling (suits, ranks, jokers, no-trump) and every term
(combination types, follow reasons, declaration tiers, round results, sides) in one place.

Everything above the engine (the suite, the play layer, the web pages) names things through
`term(code, lang)` and the spelling tables here instead of keeping its own copies.
"""

from __future__ import annotations

from typing import Literal

Lang = Literal["zh", "en"]

SUITS = "SHCD"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
SUIT_NAMES_ZH = {"S": "黑桃", "H": "红桃", "C": "梅花", "D": "方块"}
SUIT_NAMES_EN = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
RED_SUITS = frozenset({"H", "D"})
SMALL_JOKER = 15
BIG_JOKER = 16
RANK_LABELS = {r: str(r) for r in range(2, 11)} | {11: "J", 12: "Q", 13: "K", 14: "A"}

# Accepted spellings, upper-cased where letters are concerned.
SUIT_ALIASES = {
    "♠": "S",
    "♤": "S",
    "S": "S",
    "♥": "H",
    "♡": "H",
    "H": "H",
    "♣": "C",
    "♧": "C",
    "C": "C",
    "♦": "D",
    "♢": "D",
    "D": "D",
}
RANK_ALIASES = {label: rank for rank, label in RANK_LABELS.items()} | {"T": 10}
BIG_JOKER_SPELLINGS = ("大王", "BJ")
SMALL_JOKER_SPELLINGS = ("小王", "LJ")
# What may stand between card tokens besides white space.
CARD_SEPARATORS = ",，、;；+"


def card_notation() -> dict[str, object]:
    """Return the card spellings as plain data for a client that reads card text (check.js)."""
    return {
        "suits": SUIT_ALIASES,
        "symbols": SUIT_SYMBOLS,
        "suit_order": SUITS,
        "red": sorted(RED_SUITS),
        "ranks": RANK_ALIASES,
        "labels": {str(rank): label for rank, label in RANK_LABELS.items()},
        "big": BIG_JOKER_SPELLINGS,
        "small": SMALL_JOKER_SPELLINGS,
        "separators": CARD_SEPARATORS,
    }


# Ways to write "no trump" (lower-cased); the empty string counts where a field may be blank.
NO_TRUMP_ALIASES = frozenset({"none", "nt", "n", "无主", "无将", "no-trump", "notrump", "null"})

# Every term a reader may meet, as (zh-Hans, English).
TERMS: dict[str, tuple[str, str]] = {
    # combination types and units
    "single": ("单张", "single"),
    "pair": ("对子", "pair"),
    "tractor": ("拖拉机", "tractor"),
    "throw": ("甩牌", "throw"),
    "tuple": ("多张", "set"),
    "invalid": ("非法牌型", "invalid combination"),
    # follow reasons
    "wrong_count": ("张数不符", "wrong number of cards"),
    "not_in_hand": ("牌不在手中", "cards not in hand"),
    "must_follow_suit": ("没有跟花色", "did not follow suit"),
    "must_play_pair": ("有对子没出对子", "held a pair but did not play it"),
    "must_play_tractor": ("有拖拉机没出拖拉机", "held a tractor but did not play it"),
    # declaration tiers and refusals
    "level_single": ("单张级牌", "single level card"),
    "level_pair": ("一对级牌", "pair of level cards"),
    "small_joker_pair": ("一对小王", "pair of small jokers"),
    "big_joker_pair": ("一对大王", "pair of big jokers"),
    "single_joker": ("单王不能亮主", "a single joker cannot declare"),
    "not_stronger": ("不比已亮的主大", "not stronger than the declaration on the table"),
    "not_level_card": ("不是级牌", "not a level card"),
    "not_a_pair": ("不成对", "not a pair"),
    "not_identical": ("亮出的牌不是同一张牌", "not copies of one card"),
    "two_locked": ("已有人亮 2，不能再亮级牌", "2s were declared: level cards no longer declare"),
    "not_own": ("只能加固自己亮的主", "only the declarer may reinforce"),
    # round results
    "big_sweep": ("大光", "big sweep"),
    "small_sweep": ("小光", "small sweep"),
    "hold": ("过庄", "banker holds"),
    "swap": ("上台", "attackers take the bank"),
    "promote": ("升级", "level up"),
    "surrender": ("投降", "surrender"),
    # sides, groups and plain words
    "banker": ("庄家", "banker"),
    "attackers": ("闲家", "attackers"),
    "defender": ("守方", "defender"),
    "trump": ("主牌", "trumps"),
    "no_trump": ("无主", "no-trump"),
    "none": ("无", "none"),
    "lead": ("领牌", "lead"),
    # the rest of the glossary (seed 000's 术语对照表): the rules pages list every term here
    "side_card": ("副牌", "side-suit card"),
    "level_card": ("级牌", "level card"),
    "trump_level_card": ("主花色级牌", "trump-suit level card"),
    "off_level_card": ("非主花色级牌", "off-suit level card"),
    "big_joker": ("大王", "Big Joker"),
    "small_joker": ("小王", "Small Joker"),
    "suit_word": ("花色", "suit"),
    "hand_word": ("手牌", "hand"),
    "kitty_word": ("底牌", "kitty"),
    "point_cards": ("分数牌", "point cards"),
    "fixed_trump": ("常主", "permanent trumps"),
    "combination": ("牌型", "combination"),
    "throw_unit": ("分量", "unit"),
    "declare_trump": ("亮主", "declare trump"),
    "counter_declare": ("反主", "counter-declare"),
    "lock_trump": ("定主", "lock the trump declaration"),
    "follow_card": ("跟牌", "follow"),
    "play_cards": ("出牌", "play cards"),
    "beat_card": ("压牌", "beat"),
    "ruff_card": ("杀牌", "ruff"),
    "discard_card": ("垫牌", "discard"),
    "kitty_dig": ("抠底", "win the kitty on the last trick"),
    "bury_card": ("埋牌", "bury cards into the kitty"),
    "void_suit": ("缺门", "void in a suit"),
    "one_trick": ("一墩", "one trick"),
    "last_trick": ("最后一轮", "final trick"),
    "points_word": ("分数", "points"),
    "kitty_multiplier": ("底牌分数翻倍", "kitty multiplier"),
    "kitty_by_single": ("单张抠底", "kitty won by a single (×2)"),
    "kitty_by_pair": ("对子抠底", "kitty won by a pair (×4)"),
    "kitty_by_tractor": ("拖拉机抠底", "kitty won by a tractor (×8)"),
    "rise_levels": ("升 X 级", "rise X levels"),
    "current_level": ("当前级", "current level"),
    "single_declare": ("单张亮主", "single-card declaration"),
    "pair_override": ("对子反主", "pair override"),
    "joker_override": ("对王反主", "joker-pair override"),
    "enhanced_joker_override": ("增强对王反主", "enhanced joker override"),
}

# What the glossary adds to a term: other Chinese names, and an English note in brackets.
GLOSSES: dict[str, tuple[str, str]] = {
    "side_card": ("", "non-trump"),
    "level_card": ("", "rank being played"),
    "kitty_word": ("", "buried cards"),
    "point_cards": ("", "5, 10, K"),
    "no_trump": ("无将", ""),
    "tractor": ("连对", "consecutive pairs"),
    "throw": ("", "flop, a multi-unit lead"),
    "combination": ("", "play type"),
    "throw_unit": ("", "component of a throw"),
    "counter_declare": ("", "override trump"),
    "lead": ("", "a trick"),
    "beat_card": ("", "cover"),
    "ruff_card": ("毙牌", "over-trump"),
    "discard_card": ("", "sluff"),
    "kitty_dig": ("扣底", ""),
    "one_trick": ("一轮", ""),
    "banker": ("", "declarer side"),
    "attackers": ("", "defenders of points"),
    "points_word": ("分", "score"),
    "current_level": ("打几", "rank being played"),
    "hold": ("守住", ""),
    "pair_override": ("定主", "lock"),
}

JOKER_NAMES_ZH = {BIG_JOKER: TERMS["big_joker"][0], SMALL_JOKER: TERMS["small_joker"][0]}
JOKER_NAMES_EN = {BIG_JOKER: TERMS["big_joker"][1], SMALL_JOKER: TERMS["small_joker"][1]}


def glossary_row(code: str) -> tuple[str, str]:
    """Write a glossary row (中文, English) for a term code or a suit letter, e.g.
    拖拉机 / 连对 · Tractor (consecutive pairs), or 黑桃 ♠ · Spades ♠."""
    if code in SUIT_SYMBOLS:
        symbol = SUIT_SYMBOLS[code]
        return f"{SUIT_NAMES_ZH[code]} {symbol}", f"{SUIT_NAMES_EN[code].capitalize()} {symbol}"
    zh, en = TERMS[code]
    alias, note = GLOSSES.get(code, ("", ""))
    return (
        f"{zh} / {alias}" if alias else zh,
        en[:1].upper() + en[1:] + (f" ({note})" if note else ""),
    )


def as_lang(code: str | None) -> Lang:
    """Map a language code (zh, zh-hans, en, en-us …) onto one of the two languages."""
    return "en" if (code or "").lower().startswith("en") else "zh"


def term(code: str, lang: str = "zh") -> str:
    """Name a code (a type, reason, tier, result or side) in words; unknown codes come back as is."""
    words = TERMS.get(code)
    if words is None:
        return code
    return words[1] if as_lang(lang) == "en" else words[0]


def has_term(code: str) -> bool:
    """Tell whether a code has words in the vocabulary."""
    return code in TERMS


def code_of(words: str) -> str | None:
    """Find the code a term is written for, in either language (对子 → pair); None if none."""
    text = words.strip().lower()
    for code, (zh, en) in TERMS.items():
        if text in (zh, en.lower(), code):
            return code
    return None


def is_no_trump(text: object) -> bool:
    """Tell whether a trump value means no trump (none, NT, 无主, 无将 …); blank is not."""
    return text is not None and str(text).strip().lower() in NO_TRUMP_ALIASES


def suit_symbol(suit: str) -> str:
    """Write a suit letter as its symbol (S → ♠)."""
    return SUIT_SYMBOLS[suit]


def suit_name(suit: str, lang: str = "zh") -> str:
    """Name a suit with its symbol: ♠黑桃 or ♠ spades."""
    if as_lang(lang) == "en":
        return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES_EN[suit]}"
    return SUIT_SYMBOLS[suit] + SUIT_NAMES_ZH[suit]


def rank_label(rank: int) -> str:
    """Write a rank as 2..10, J, Q, K, A, or a joker's Chinese name."""
    return JOKER_NAMES_ZH.get(rank) or RANK_LABELS[rank]
