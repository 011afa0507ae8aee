"""Random-play steps per second through each learning-framework adapter.

``python -m bench.adapters [--steps N] [--variant NAME] [--players N]``

A *step* is one player decision: a legal action chosen uniformly at random
and applied (OpenSpiel's chance outcomes are applied too, but not counted
as steps).  Episodes are single hands, restarted as they end; observations
are built the way a learner would ask for them:

* ``engine``: :class:`bones.adapters.common.Game` alone, no observation (the
  ceiling);
* ``pettingzoo``: ``env.last()`` (encoding and action mask) then ``env.step``;
* ``gymnasium``: ``env.step`` against ``random`` opponents (their moves are
  inside the step and not counted);
* ``openspiel``: ``state.legal_actions()``, ``state.apply_action`` and the
  information-state tensor of the player to move.

The median of ``--rounds`` rounds is printed; the results (and the machine)
go to docs/adapters.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bench.common import machine_info


def _engine(variant: str, players: int, steps: int) -> float:
    from bones.adapters.common import Game, compile_table

    rules = compile_table(variant, players, None)
    rng = random.Random(1)
    game = Game(rules, rng)
    done = 0
    start = time.perf_counter()
    while done < steps:
        if game.over:
            game = Game(rules, rng)
        game.step(rng.choice(game.hand.legal_moves()))
        done += 1
    return steps / (time.perf_counter() - start)


def _pettingzoo(variant: str, players: int, steps: int) -> float:
    import numpy as np

    from bones.adapters.pettingzoo import env

    e = env(variant, players)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    done = 0
    start = time.perf_counter()
    while done < steps:
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.reset()
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done += 1
    return steps / (time.perf_counter() - start)


def _gymnasium(variant: str, players: int, steps: int) -> float:
    import numpy as np

    from bones.adapters.gymnasium import env

    e = env(variant, seat=0, opponents="random", players=players)
    _, info = e.reset(seed=1)
    rng = np.random.default_rng(1)
    done = 0
    start = time.perf_counter()
    while done < steps:
        _, _, terminated, truncated, info = e.step(
            int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done += 1
        if terminated or truncated:
            _, info = e.reset()
    return steps / (time.perf_counter() - start)


def _openspiel(variant: str, players: int, steps: int) -> float:
    import pyspiel

    import bones.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game("python_bones", {"variant": variant, "players": players})
    rng = random.Random(1)
    state = game.new_initial_state()
    done = 0
    start = time.perf_counter()
    while done < steps:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        else:
            state.information_state_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return steps / (time.perf_counter() - start)


ADAPTERS: dict[str, Callable[[str, int, int], float]] = {
    "engine": _engine,
    "pettingzoo": _pettingzoo,
    "gymnasium": _gymnasium,
    "openspiel": _openspiel,
}


def run(variant: str = "all-fives", players: int = 2, steps: int = 5_000,
        rounds: int = 3) -> dict[str, float]:
    """Median steps per second of each adapter (an adapter whose framework is
    not installed is left out)."""
    out = {}
    for name, fn in ADAPTERS.items():
        try:
            rates = [fn(variant, players, steps) for _ in range(rounds)]
        except ImportError as err:
            print(f"{name}: skipped ({err})")
            continue
        out[name] = statistics.median(rates)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.adapters", description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="all-fives")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--steps", type=int, default=5_000, help="decisions per round")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (the median is reported)")
    o = ap.parse_args(argv)
    info = machine_info()
    print(f"{o.variant}, {o.players} players, {o.steps} random decisions x {o.rounds} rounds; "
          f"Python {info['python']}, {info['cpu_model']}, load average {info['load_average']}")
    for name, rate in run(o.variant, o.players, o.steps, o.rounds).items():
        print(f"  {name:11} {rate:10,.0f} steps/s")


if __name__ == "__main__":
    main()
