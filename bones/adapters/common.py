"""What the adapters share: the tables a variant can be played at, and a
hand or match stepped one move at a time with chance resolved from a seed."""

from __future__ import annotations

import functools
import math
import numbers
import os
from typing import Any, NamedTuple

from bones.engine.handlike import HandLike
from bones.engine.match import Match
from bones.engine.rng import Rng
from bones.engine.rules import Rules
from bones.lang.compile import compile_rules
from bones.lang.load import builtin_names, load_variant
from bones.seat.actions import ActionSpace
from bones.seat.chance import RandomChooser, deal, lead_rule, match_rewards, side_gains, zero_sum
from bones.seat.encoding import Encoding, score_scale
from bones.seat.observation import Observation, observe

#: What an episode is: one hand (the default) or a whole match.
EPISODES = ("hand", "match")

#: What a reward is (docs/adapters.md, "Rewards"):
#:
#: * ``points``: at each hand's end, the side's points in it less the mean of
#:   the other sides' (zero-sum); the default for ``episode="hand"``;
#: * ``scaled``: ``points`` divided by :func:`bones.seat.encoding.score_scale`
#:   (the variant's target, 100 for a variant played for a number of hands);
#: * ``win``: 1 for the winning side, -1/(sides-1) for the others, 0 on a tie,
#:   at the end of the hand (the side that gained most in it) or, with
#:   ``episode="match"``, of the match; the default for ``episode="match"``;
#: * ``difference``: at each hand's end, the side's points in it less the best
#:   other side's.
REWARDS = ("points", "scaled", "win", "difference")

#: Stream labels under the seed an environment is reset with: episode ``k``
#: is the match seeded ``derive(seed, EPISODE_STREAM, k)``; the bots draw from
#: ``derive(seed, BOT_STREAM)``, a random seat from ``derive(seed, SEAT_STREAM)``.
EPISODE_STREAM = 1
BOT_STREAM = 2
SEAT_STREAM = 3

#: How a hand ended, as ``info["outcome"]`` names it (None while it plays).
OUTCOMES = {1: "domino", 2: "blocked", 3: "target"}


def default_reward(episode: str) -> str:
    """The reward an episode kind has when none is named."""
    return "win" if episode == "match" else "points"


def check_reward(reward: str | None, episode: str) -> str:
    if reward is None:
        return default_reward(episode)
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not '{reward}'")
    return reward


def check_illegal_reward(value: Any) -> float:
    """``illegal_reward`` as a float: a finite real number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`illegal_reward` must be a number, got {type(value)}")
    if not math.isfinite(value):
        raise ValueError(f"`illegal_reward` must be a finite number, got {value}")
    return float(value)


def hand_end_rewards(rules: Rules, reward: str, whole_match: bool, gains: list[int],
                     match: Match) -> list[float]:
    """Each seat's reward when a hand ends with the sides' ``gains``
    (:func:`bones.seat.chance.side_gains`: a penalty match's charges count
    against a side; the match already told of the hand: ``match.game_over``
    is up to date)."""
    players = rules.players
    if reward == "points":
        return zero_sum(rules, gains)
    if reward == "scaled":
        scale = score_scale(rules)
        return [r / scale for r in zero_sum(rules, gains)]
    if reward == "difference":
        out = []
        for seat in range(players):
            mine = rules.owner[seat]
            best = max(g for o, g in enumerate(gains) if o != mine)
            out.append(float(gains[mine] - best))
        return out
    if whole_match:
        return match_rewards(rules, match.winner) if match.game_over else [0.0] * players
    top = max(gains)
    leaders = [o for o, g in enumerate(gains) if g == top]
    return match_rewards(rules, leaders[0] if len(leaders) == 1 else -1)


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
    (:func:`bones.seat.chance.match_rewards`); ``reward`` names another
    kind (:data:`REWARDS`).

    With ``seed`` the hands are the match's own deals (``Match(rules,
    seed)``, as the native vector environment deals them) and ``rng`` is not
    read; the outcome of the last hand is ``outcome`` (:data:`OUTCOMES`)
    and its settlement ``settlement``.  A train layout (docs/trains.md) is
    always dealt by its match (the round's hub double comes with the deal):
    without ``seed``, the match's seed is drawn from ``rng`` once.
    """

    def __init__(self, rules: Rules, rng: Rng | None, episode: str = "hand",
                 reward: str | None = None, seed: int | None = None,
                 scaled: bool = False) -> None:
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {', '.join(EPISODES)}, not '{episode}'")
        if rng is None and seed is None:
            raise ValueError("a chance stream (rng) or a match seed is needed")
        self.rules = rules
        self.rng = rng
        self.episode = episode
        self.reward = check_reward(reward, episode)
        self.space = ActionSpace(rules)
        self.encoding = Encoding(rules, scaled=scaled)
        if seed is None and rules.trains is not None:
            assert rng is not None
            seed = rng.next_u64()
        self.seeded = seed is not None
        self.match = Match(rules, seed=seed or 0, stepwise_core=True)
        self.rewards = [0.0] * rules.players
        self.over = False
        self.outcome: str | None = None
        self.settlement = [0] * rules.owners
        self.hand = self._start()

    def _start(self) -> HandLike:
        self._before = list(self.match.scores)
        if self.seeded:
            return self.match.new_hand()
        assert self.rng is not None
        found = deal(self.rules, lead_rule(self.match), RandomChooser(self.rng))
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
        self.outcome = OUTCOMES.get(hand.state)
        self.settlement = list(hand.settlement or [0] * rules.owners)
        ended = self.match.finish_hand(hand)
        # the hand's end: a game it wins starts the match's scores again
        gains = side_gains(rules, self._before, ended.scores)
        whole = self.episode == "match"
        self.rewards = hand_end_rewards(rules, self.reward, whole, gains, self.match)
        if not whole or self.match.game_over:
            self.over = True
            return
        self.hand = self._start()


__all__ = [
    "BOT_STREAM", "EPISODES", "EPISODE_STREAM", "OUTCOMES", "REWARDS", "SEAT_STREAM", "Game",
    "Table", "check_illegal_reward", "check_reward", "compile_table", "default_reward",
    "hand_end_rewards", "tables",
]
