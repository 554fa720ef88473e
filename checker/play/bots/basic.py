"""The simple bots: random (any legal move) and greedy (win cheaply, feed a partner), each
with a short reason for every decision."""

from __future__ import annotations

from ..players import BURY, DECLARE, LEAD, Decision, GreedyPlayer, PlayerView, RandomPlayer
from .words import decided

_PHASE_WORDS = {
    DECLARE: ("亮主", "declares"),
    BURY: ("埋牌", "buries"),
    LEAD: ("领牌", "leads"),
}


def _words(view: PlayerView, zh: str, en: str) -> tuple[str, str]:
    phase_zh, phase_en = _PHASE_WORDS.get(view.phase, ("跟牌", "follows"))
    return f"{zh}{phase_zh} {{cards}}", f"{en} {phase_en} {{cards}}"


class RandomBot(RandomPlayer):
    """Random legal moves, explained as such."""

    def decide(self, view: PlayerView) -> Decision:
        """Return a random legal choice with its reason."""
        zh, en = _words(view, "随机选择合法的牌：", "picks at random among legal moves and")
        return decided(self.name, f"random.{view.phase}", self.cards(view), zh, en)


class GreedyBot(GreedyPlayer):
    """Greedy play, explained by its one rule."""

    def decide(self, view: PlayerView) -> Decision:
        """Return the greedy choice with its reason."""
        zh, en = _words(
            view,
            "贪心：对手领先时用最小的能赢的牌，伙伴领先时喂分；",
            "greedy (win cheaply against an opponent, feed a partner)",
        )
        return decided(self.name, f"greedy.{view.phase}", self.cards(view), zh, en)
