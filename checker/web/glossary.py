"""Bilingual glossary of the game's terms (中文 / English), grouped by topic.

Terms follow the glossary of seed 000 (术语对照表); the grouping headings are ours.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

GLOSSARY: list[tuple[object, list[tuple[str, str]]]] = [
    (
        _("牌的种类"),
        [
            ("主牌", "Trump cards"),
            ("副牌", "Non-trump / side-suit cards"),
            ("级牌", "Level card (rank being played)"),
            ("主花色级牌", "Trump-suit level card"),
            ("非主花色级牌", "Off-suit level card"),
            ("大王", "Big Joker"),
            ("小王", "Small Joker"),
            ("花色", "Suit"),
            ("手牌", "Hand"),
            ("底牌", "Kitty / buried cards"),
            ("分数牌", "Point cards (5, 10, K)"),
            ("常主", "Permanent trumps"),
        ],
    ),
    (
        _("花色"),
        [
            ("黑桃 ♠", "Spades ♠"),
            ("红桃 ♥", "Hearts ♥"),
            ("梅花 ♣", "Clubs ♣"),
            ("方块 ♦", "Diamonds ♦"),
            ("无主 / 无将", "No-trump"),
        ],
    ),
    (
        _("出牌组合"),
        [
            ("单张", "Single"),
            ("对子", "Pair"),
            ("拖拉机 / 连对", "Tractor (consecutive pairs)"),
            ("甩牌", "Throw / flop (multi-unit lead)"),
            ("牌型", "Combination / play type"),
            ("分量", "Unit (component of a throw)"),
        ],
    ),
    (
        _("游戏动作"),
        [
            ("亮主", "Declare trump"),
            ("反主", "Counter-declare / override trump"),
            ("定主", "Lock the trump declaration"),
            ("领牌", "Lead a trick"),
            ("跟牌", "Follow"),
            ("出牌", "Play cards"),
            ("压牌", "Beat / cover"),
            ("杀牌 / 毙牌", "Ruff / over-trump"),
            ("垫牌", "Discard / sluff"),
            ("抠底 / 扣底", "Win the kitty on the last trick"),
            ("埋牌", "Bury cards into the kitty"),
            ("缺门", "Void in a suit"),
        ],
    ),
    (
        _("比赛结构"),
        [
            ("一墩 / 一轮", "One trick"),
            ("最后一轮", "Final trick"),
            ("庄家", "Banker / declarer side"),
            ("闲家", "Attackers / defenders of points"),
        ],
    ),
    (
        _("计分与升级"),
        [
            ("分数 / 分", "Points / score"),
            ("底牌分数翻倍", "Kitty multiplier"),
            ("单张抠底", "Kitty won by a single (×2)"),
            ("对子抠底", "Kitty won by a pair (×4)"),
            ("拖拉机抠底", "Kitty won by a tractor (×8)"),
            ("升级", "Level up"),
            ("升 X 级", "Rise X levels"),
            ("当前级 / 打几", "Current level (rank being played)"),
            ("上台", "Attackers take the bank"),
            ("守住 / 过庄", "Banker holds"),
        ],
    ),
    (
        _("亮主类型"),
        [
            ("单张亮主", "Single-card declaration"),
            ("对子反主 / 定主", "Pair override / lock"),
            ("对王反主", "Joker-pair override"),
            ("增强对王反主", "Enhanced joker override"),
        ],
    ),
]
