"""Bilingual glossary of the game's terms (中文 / English), grouped by topic.

The terms and their wording live in the engine's vocabulary (`vocab.TERMS`, `vocab.GLOSSES`,
the suit names); this module only groups them. Terms follow the glossary of seed 000
(术语对照表); the grouping headings are ours.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from checker.engine.vocab import glossary_row

GROUPS: list[tuple[object, tuple[str, ...]]] = [
    (
        _("牌的种类"),
        (
            "trump",
            "side_card",
            "level_card",
            "trump_level_card",
            "off_level_card",
            "big_joker",
            "small_joker",
            "suit_word",
            "hand_word",
            "kitty_word",
            "point_cards",
            "fixed_trump",
        ),
    ),
    (_("花色"), ("S", "H", "C", "D", "no_trump")),
    (_("出牌组合"), ("single", "pair", "tractor", "throw", "combination", "throw_unit")),
    (
        _("游戏动作"),
        (
            "declare_trump",
            "counter_declare",
            "lock_trump",
            "lead",
            "follow_card",
            "play_cards",
            "beat_card",
            "ruff_card",
            "discard_card",
            "kitty_dig",
            "bury_card",
            "void_suit",
        ),
    ),
    (_("比赛结构"), ("one_trick", "last_trick", "banker", "attackers")),
    (
        _("计分与升级"),
        (
            "points_word",
            "kitty_multiplier",
            "kitty_by_single",
            "kitty_by_pair",
            "kitty_by_tractor",
            "promote",
            "rise_levels",
            "current_level",
            "swap",
            "hold",
        ),
    ),
    (
        _("亮主类型"),
        ("single_declare", "pair_override", "joker_override", "enhanced_joker_override"),
    ),
]


def glossary_groups() -> list[tuple[object, list[tuple[str, str]]]]:
    """List each heading with its rows (中文, English), worded by the engine's vocabulary."""
    return [(title, [glossary_row(code) for code in codes]) for title, codes in GROUPS]
