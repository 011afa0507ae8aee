"""``blunder``: a weaker player made from a stronger one.

It plays its base bot's move (``heuristic`` by default, or ``greedy``),
except that at each decision with a choice, with chance ``rate``, it plays
a legal move uniformly at random instead: ``rate=1`` plays like ``random``,
``rate=0`` like its base.  Its randomness comes from the seat's own
generator, two draws at most a decision: ``random()`` once, and below
``rate`` ``below(n)`` for the move among the ``n`` legal ones.  The native
core (native/src/bots/blunder.rs) draws the same numbers in the same
order, so both cores blunder on the same moves.

It is the levels' knob (:mod:`bones.bots.levels`): the strength between
``random`` and its base is set by one number, the same in every game.

>>> from bones.bots import make_bot
>>> make_bot("blunder").name
'blunder'
>>> make_bot("blunder:rate=0.25:base=greedy").name
'blunder:base=greedy:rate=0.25'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bones.bots.basic import GreedyBot, HeuristicBot
from bones.bots.info import BotInfo, Param, named

if TYPE_CHECKING:
    from bones.engine.rng import Rng
    from bones.seat.observation import Observation

#: the base bots a blunder can play, by name
BASES: dict[str, type[HeuristicBot] | type[GreedyBot]] = {"heuristic": HeuristicBot,
                                                         "greedy": GreedyBot}
DEFAULT_BASE = "heuristic"
DEFAULT_RATE = 0.55

PARAMS = (
    Param("base", str, DEFAULT_BASE, "the bot whose move it plays when it does not blunder",
          tuple(BASES)),
    Param("rate", float, DEFAULT_RATE, "the chance of a uniformly random legal move instead, "
          "each decision (0: the base bot; 1: random)", minimum=0.0, maximum=1.0),
)


class BlunderBot:
    """Its base bot's move, or with chance ``rate`` a random legal one."""

    def __init__(self, base: str = DEFAULT_BASE, rate: float = DEFAULT_RATE) -> None:
        self.base: HeuristicBot | GreedyBot = BASES[base]()
        self.rate = rate
        self.name = named("blunder", PARAMS, {"base": base, "rate": rate})

    def choose(self, obs: Observation, rng: Rng) -> int:
        legal = obs.legal_moves()
        if len(legal) == 1:
            return legal[0]
        if rng.random() < self.rate:
            return legal[rng.below(len(legal))]
        return self.base.choose(obs, rng)


INFOS = (
    BotInfo("blunder", "its base bot's move (heuristic), but with chance rate (0.55) a uniformly "
            "random legal one: a weaker player set by one number", PARAMS, BlunderBot),
)

__all__ = ["BASES", "INFOS", "PARAMS", "BlunderBot"]
