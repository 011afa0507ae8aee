"""bones' bot against OpenSpiel's ISMCTS on ``block-2p``, through the
OpenSpiel adapter (``python_bones``).

    python -m bench.versus_openspiel --deals 200 --jobs 2

Each game is one hand of ``pyspiel.load_game("python_bones", {"variant":
"block-2p"})``: the deal's chance outcomes come from a generator seeded by
the deal's seed, so both games of a pair get the same tiles in the same
seats (seat 0 leads), bones' bot in seat 0 the first time and in seat 1 the
second.  ISMCTS is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with a
random-rollout evaluator, ``uct_c=2``, 1,000 simulations a move (the
defaults of docs/adapters.md), and the adapter's
``resample_from_infostate`` (bones' world sampler) as its resampler; its
generators, the resampler's included, are seeded from the deal and the side.  bones' bot chooses from
its seat's :class:`~bones.seat.observation.Observation` of the adapter's
hand and its move is applied as the adapter's action; every action is
checked against the state's legal actions.  A game's result is the sign of
the returns (the lighter hand wins the other's pips; equal hands tie).

``--rewards`` tunes the peer: by default ISMCTS backs up the game's raw
returns (pips, tens of points a hand) against ``uct_c=2``, a constant made
for returns in [-1, 1], so it explores too little; ``--rewards sign`` backs
up the result alone (+1, 0, -1: what the match is scored by) and
``--rewards scaled`` the pips divided by the set's pips, both in [-1, 1],
where ``uct_c`` (``--uct-c``) is on the scale it was made for.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import Any

from bench.versus import (
    Game,
    common_args,
    pairs_of,
    partial_file,
    play_all,
    progress_printer,
    report,
)

PEER = "ISMCTS"
SIMULATIONS = 1000
UCT_C = 2.0
#: how the peer's rollouts and terminal states are valued (``--rewards``)
REWARDS = ("points", "sign", "scaled")


class OutOfStep(AssertionError):
    """A move one side chose is not a legal action of the game."""


@dataclass(frozen=True)
class Setup:
    bot: str = "search"
    simulations: int = SIMULATIONS
    variant: str = "block-2p"
    rewards: str = "points"
    uct_c: float = UCT_C


_GAMES: dict[str, Any] = {}


def load(variant: str) -> Any:
    if variant not in _GAMES:
        import pyspiel

        import bones.adapters.openspiel  # noqa: F401  (registers python_bones)

        _GAMES[variant] = pyspiel.load_game("python_bones", {"variant": variant})
    return _GAMES[variant]


def _rescaler(game: Any, rewards: str) -> Any:
    """The map from the game's returns to the values ISMCTS backs up."""
    import numpy as np

    if rewards == "sign":
        return np.sign
    if rewards == "scaled":
        total = float(sum(game.rules.tiles.pips))
        return lambda returns: np.asarray(returns, dtype=float) / total
    return lambda returns: returns


def ismcts_bot(game: Any, simulations: int, seed: int, rewards: str = "points",
               uct_c: float = UCT_C) -> Any:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    rescale = _rescaler(game, rewards)

    class Evaluator(mcts.RandomRolloutEvaluator):
        def evaluate(self, state: Any) -> Any:
            return rescale(super().evaluate(state))

    class Bot(ismcts.ISMCTSBot):
        def run_simulation(self, state: Any) -> Any:
            if state.is_terminal():  # the tree's own terminal values, rescaled too
                return rescale(state.returns())
            return super().run_simulation(state)

    evaluator = Evaluator(1, np.random.RandomState(seed))
    bot = Bot(game, evaluator, uct_c=uct_c, max_simulations=simulations,
              random_state=np.random.RandomState(seed + 1))
    # ISMCTS resamples with an unseeded C++ sampler unless given a resampler:
    # the same resampler (the adapter's, bones' world sampler) with a seeded one
    worlds = np.random.RandomState(seed + 2)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.uniform))
    return bot


def play(deal: int, bones_seat: int, setup: Setup = Setup()) -> Game:
    """One game from deal ``deal`` with bones' bot in seat ``bones_seat``."""
    import numpy as np

    from bones.bots import make_bot
    from bones.engine.rng import Rng
    from bones.seat.observation import observe

    game = load(setup.variant)
    space = game.space
    bot = make_bot(setup.bot)
    peer = ismcts_bot(game, setup.simulations, 3 * (2 * deal + bones_seat), setup.rewards,
                      setup.uct_c)
    rng = Rng(2 * deal + bones_seat)
    chance = np.random.RandomState(deal)  # the deal: the same in both games of the pair
    state = game.new_initial_state()
    bones_ms: list[float] = []
    peer_ms: list[float] = []
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(int(outcomes[chance.randint(len(outcomes))]))
            continue
        legal = state.legal_actions()
        seat = state.current_player()
        if len(legal) == 1:
            action = legal[0]
        elif seat == bones_seat:
            hand = state.table.hand
            start = time.perf_counter()
            move = bot.choose(observe(hand, seat), rng)
            bones_ms.append((time.perf_counter() - start) * 1000)
            action = space.index(move)
        else:
            start = time.perf_counter()
            action = peer.step(state)
            peer_ms.append((time.perf_counter() - start) * 1000)
        if action not in legal:
            raise OutOfStep(f"deal {deal}: seat {seat}'s action {action} is not legal")
        state.apply_action(action)
        moves += 1
    returns = state.returns()
    points = int(returns[bones_seat] - returns[1 - bones_seat])
    outcome = (points > 0) - (points < 0)
    return Game(deal, bones_seat, outcome, points, moves, bones_ms, peer_ms)


_SETUP: list[Setup] = []


def _init(setup: Setup) -> None:
    _SETUP[:] = [setup]


def _task(game: tuple[int, int]) -> Game:
    return play(game[0], game[1], _SETUP[0] if _SETUP else Setup())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.versus_openspiel",
                                 description=__doc__.split("\n\n")[0])
    common_args(ap)
    ap.add_argument("--simulations", type=int, default=SIMULATIONS,
                    help=f"ISMCTS simulations a move ({SIMULATIONS})")
    ap.add_argument("--rewards", choices=REWARDS, default="points",
                    help="what ISMCTS backs up: the raw pips (points, the default), the "
                         "result (sign) or the pips over the set's (scaled)")
    ap.add_argument("--uct-c", type=float, default=UCT_C,
                    help=f"ISMCTS's exploration constant ({UCT_C:g})")
    opts = ap.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError as err:
        print(f"open_spiel is not importable ({err}); pip install 'bones[rl]'", file=sys.stderr)
        return 2
    setup = Setup(opts.bot, opts.simulations, rewards=opts.rewards, uct_c=opts.uct_c)
    started = time.time()
    results = play_all(_task, pairs_of(opts.deals, opts.seed), opts.jobs,
                       progress_printer(opts.quiet, partial_file(opts)), _init, (setup,))
    settings = {"variant": setup.variant,
                "peer_bot": f"ISMCTSBot(RandomRolloutEvaluator(1), uct_c={setup.uct_c:g}, "
                            f"max_simulations={setup.simulations}), bones' resampler, "
                            f"rewards={setup.rewards}"}
    name = f"{PEER}:{setup.simulations}" + ("" if setup.rewards == "points" else f":{setup.rewards}")
    report(opts, results, name, settings, started, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
