"""What the adapters share: the tables a variant can be played at, and a
hand or match stepped one move at a time with chance resolved from a seed."""

from __future__ import annotations

import functools
import os
from typing import NamedTuple

from bones.engine.handlike import HandLike
from bones.engine.match import Match
from bones.engine.rng import Rng
from bones.engine.rules import Rules
from bones.lang.compile import compile_rules
from bones.lang.load import builtin_names, load_variant
from bones.seat.actions import ActionSpace
from bones.seat.chance import RandomChooser, deal, hand_rewards, lead_rule, match_rewards
from bones.seat.encoding import Encoding
from bones.seat.observation import Observation, observe

#: What an episode is: one hand (the default) or a whole match.
EPISODES = ("hand", "match")


class Table(NamedTuple):
    """A variant with its player count and partnership choice."""

    variant: str
    players: int
    teams: bool

    def __str__(self) -> str:
        return f"{self.variant}-{self.players}p{'-teams' if self.teams else ''}"


def tables(variants: list[str] | None = None) -> list[Table]:
    """Every (variant, players, teams) the variants can be played at
    (by default every built-in variant)."""
    out = []
    for name in variants or builtin_names():
        variant = load_variant(name)
        partner = variant.players.partnerships
        for players in variant.players.counts:
            choices = [False]
            if partner.kind != "none" and players in partner.player_counts:
                choices = [True] if partner.kind == "required" else [False, True]
            for teams in choices:
                out.append(Table(name, players, teams))
    return out


def compile_table(variant: str, players: int | None, teams: bool | None) -> Rules:
    """The compiled rules of a table, cached: frameworks build games often
    (OpenSpiel builds one for every state it deserialises).  A variant file
    is read again when it changes."""
    try:
        stamp = os.stat(variant).st_mtime_ns
    except OSError:
        stamp = 0
    return _compile_table(variant, players, teams, stamp)


@functools.lru_cache(maxsize=64)
def _compile_table(variant: str, players: int | None, teams: bool | None,
                   stamp: int) -> Rules:
    return compile_rules(load_variant(variant), players, teams)


class Game:
    """One hand or match, stepped move by move; chance comes from ``rng``.

    ``rewards`` after each move holds what every seat earned by it, zero
    until the episode ends: under ``episode="hand"`` the hand's zero-sum
    point rewards (:func:`bones.seat.chance.hand_rewards`); under
    ``episode="match"`` the match's win or loss
    (:func:`bones.seat.chance.match_rewards`).
    """

    def __init__(self, rules: Rules, rng: Rng, episode: str = "hand") -> None:
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {', '.join(EPISODES)}, not '{episode}'")
        self.rules = rules
        self.rng = rng
        self.episode = episode
        self.space = ActionSpace(rules)
        self.encoding = Encoding(rules)
        self.match = Match(rules, seed=0, stepwise_core=True)
        self.rewards = [0.0] * rules.players
        self.over = False
        self.hand = self._start()

    def _start(self) -> HandLike:
        found = deal(self.rules, lead_rule(self.match), RandomChooser(self.rng))
        self._before = list(self.match.scores)
        return self.match.start_hand(found)

    @property
    def turn(self) -> int:
        return self.hand.turn

    def observe(self, seat: int) -> Observation:
        return observe(self.hand, seat)

    def step(self, move: int) -> None:
        """Make the legal ``move`` for the seat to move."""
        hand = self.hand
        hand.apply(move)
        rules = self.rules
        self.rewards = [0.0] * rules.players
        if not hand.over:
            return
        gained = hand_rewards(rules, self._before, self.match.scores)
        self.match.finish_hand(hand)
        if self.episode == "hand":
            self.over = True
            self.rewards = gained
            return
        if self.match.game_over:
            self.over = True
            self.rewards = match_rewards(rules, self.match.winner)
            return
        self.hand = self._start()


__all__ = ["EPISODES", "Game", "Table", "compile_table", "tables"]
