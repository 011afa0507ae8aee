"""Random-play steps per second through each learning-framework adapter.

``python -m bench.adapters [--steps N] [--variant NAME] [--players N] [--core CORE]
[--train NAME]``

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
  information-state tensor of the player to move;
* ``vector`` (native core only): :class:`bones.adapters.vector.BonesVectorEnv`,
  ``--envs`` tables against ``random`` opponents, once on one thread and
  once on two (the environment's worker threads are made with it, before
  the timed steps); a step of every table counts ``--envs`` steps, each
  with its observation and mask filled (a random legal action per table, chosen in
  NumPy as ``argmax(noise * mask)`` from a pool of pregenerated noise,
  which the loop's rate includes; the rate inside ``venv.step`` alone is
  printed beside it); then the same for a train layout (``--train``,
  ``mexican-train`` by default, at ``--players``), the rounds of the
  Rust kernel's train hand;
* peers, in the same run: a PettingZoo classic game (``tictactoe_v3``:
  ``env.last()`` and ``env.step``) and an RLCard game (``leduc-holdem``:
  ``env.step`` with a random legal action), random play likewise.

Each adapter runs once per core (``--core python``, ``native`` or ``both``,
the default): the adapters step hands through
:func:`bones.engine.core.new_hand`, so ``BONES_CORE`` decides which hand
they step.  The median of ``--rounds`` rounds is printed; the results (and
the machine) go to docs/adapters.md.
"""

from __future__ import annotations

import argparse
import os
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


def _vector(variant: str, players: int, steps: int, threads: int,
            envs: int) -> tuple[float, float]:
    """Steps per second of the whole loop, and of ``venv.step`` alone."""
    import numpy as np

    from bones.adapters.vector import BonesVectorEnv

    venv = BonesVectorEnv(variant, num_envs=envs, opponents="random", players=players,
                          num_threads=threads, copy=False)
    _, info = venv.reset(seed=1)
    rng = np.random.default_rng(1)
    pool = [rng.random((envs, venv.space.num_actions), dtype=np.float32) for _ in range(16)]
    calls = max(1, steps // envs)
    inside = 0.0
    start = time.perf_counter()
    for k in range(calls):
        actions = (pool[k % 16] * info["action_mask"]).argmax(axis=1)
        t = time.perf_counter()
        _, _, _, _, info = venv.step(actions)
        inside += time.perf_counter() - t
    rate = calls * envs / (time.perf_counter() - start)
    venv.close()  # joins its worker threads before the next round starts
    return rate, calls * envs / inside


def _pz_classic(steps: int) -> float:
    import numpy as np
    from pettingzoo.classic import tictactoe_v3

    e = tictactoe_v3.env()
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


def _rlcard(steps: int) -> float:
    import rlcard

    e = rlcard.make("leduc-holdem", config={"seed": 1})
    rng = random.Random(1)
    state, _ = e.reset()
    done = 0
    start = time.perf_counter()
    while done < steps:
        state, _ = e.step(rng.choice(list(state["legal_actions"])))
        done += 1
        if e.is_over():
            state, _ = e.reset()
    return steps / (time.perf_counter() - start)


PEERS: dict[str, Callable[[int], float]] = {
    "pettingzoo tictactoe_v3": _pz_classic,
    "rlcard leduc-holdem": _rlcard,
}


ADAPTERS: dict[str, Callable[[str, int, int], float]] = {
    "engine": _engine,
    "pettingzoo": _pettingzoo,
    "gymnasium": _gymnasium,
    "openspiel": _openspiel,
}


def run(variant: str = "all-fives", players: int = 2, steps: int = 5_000,
        rounds: int = 3, core: str = "python") -> dict[str, float]:
    """Median steps per second of each adapter on ``core`` (an adapter whose
    framework is not installed is left out)."""
    from bones.engine.core import ENV, native

    saved = os.environ.get(ENV)
    os.environ[ENV] = core
    try:
        native()  # BONES_CORE=native without the native core: one line, no figures
        out = {}
        for name, fn in ADAPTERS.items():
            try:
                rates = [fn(variant, players, steps) for _ in range(rounds)]
            except ImportError as err:
                print(f"{name}: skipped ({err})")
                continue
            out[name] = statistics.median(rates)
        return out
    finally:
        if saved is None:
            del os.environ[ENV]
        else:
            os.environ[ENV] = saved


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.adapters", description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="all-fives")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--steps", type=int, default=5_000, help="decisions per round")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (the median is reported)")
    ap.add_argument("--core", choices=("python", "native", "both"), default="both",
                    help="the core the adapters step (both: one column each)")
    ap.add_argument("--envs", type=int, default=256, help="tables of the vector environment")
    ap.add_argument("--vector-steps", type=int, default=1_000_000,
                    help="env steps per round of the vector environment")
    ap.add_argument("--only", choices=("all", "vector"), default="all",
                    help="vector: the vector environment and the peers alone")
    ap.add_argument("--train", default="mexican-train",
                    help="the train layout the vector environment is measured on beside "
                         "--variant ('none': not measured)")
    o = ap.parse_args(argv)
    info = machine_info()
    print(f"{o.variant}, {o.players} players, {o.steps} random decisions x {o.rounds} rounds; "
          f"Python {info['python']}, {info['cpu_model']}, load average {info['load_average']}")
    cores = ["python", "native"] if o.core == "both" else [o.core]
    if o.only == "vector":
        cores = []
    from bones.engine.core import CoreError

    results: dict[str, dict[str, float]] = {}
    for core in cores:
        try:
            results[core] = run(o.variant, o.players, o.steps, o.rounds, core)
        except CoreError as err:
            print(f"{core}: skipped ({err})")
    names = [n for n in ADAPTERS if any(n in r for r in results.values())]
    if results:
        print(f"  {'adapter':11}" + "".join(f"{c + ' steps/s':>20}" for c in results))
    for name in names:
        cells = "".join(f"{r[name]:20,.0f}" if name in r else f"{'-':>20}"
                        for r in results.values())
        print(f"  {name:11}{cells}")
    variants = [o.variant] + ([] if o.train == "none" else [o.train])
    _vector_rows(variants, o.players, o.vector_steps, o.rounds, o.envs, o.steps)


def _vector_rows(variants: list[str], players: int, steps: int, rounds: int, envs: int,
                 peer_steps: int) -> None:
    """The vector environment on one and two threads for each variant, and
    the peers."""
    from bones.engine.core import ENV, CoreError, native

    saved = os.environ.get(ENV)
    os.environ[ENV] = "native"
    try:
        native()
        for variant in variants:
            for threads in (1, 2):
                rates = [_vector(variant, players, steps, threads, envs) for _ in range(rounds)]
                print(f"  vector {variant}, {envs} envs, {threads} "
                      f"thread{'s' if threads > 1 else ''}: "
                      f"{statistics.median(r for r, _ in rates):,.0f} steps/s "
                      f"({statistics.median(r for _, r in rates):,.0f} inside step)")
    except (CoreError, ImportError, RuntimeError) as err:
        print(f"  vector: skipped ({err})")
    finally:
        if saved is None:
            del os.environ[ENV]
        else:
            os.environ[ENV] = saved
    for name, fn in PEERS.items():
        try:
            rates = [fn(peer_steps) for _ in range(rounds)]
        except ImportError as err:
            print(f"  {name}: skipped ({err})")
            continue
        print(f"  peer {name}: {statistics.median(rates):,.0f} steps/s")


if __name__ == "__main__":
    main()
