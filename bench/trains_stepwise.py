"""The stepwise train hand on each core: plies per CPU second.

``python -m bench.trains_stepwise [--variant NAME] [--players N]
[--rounds R] [--read]``

Plays ``--rounds`` rounds (the deals of ``Match(rules, seed=k)``, k = 0..R-1)
with random legal moves (seed 1) on the hand ``bones.engine.core.new_hand``
gives under ``BONES_CORE=python`` (the Python ``TrainHand``) and under
``BONES_CORE=native`` (the ``NativeTrainHand``: the kernel steps, the Python
hand of its state is read for everything else); ``--read`` also reads
``hand.ends()`` before every move, as a caller that looks at the layout
does (it makes the native hand build its Python twin each state).  Both
play the same plies.  Results go to bench/results/trains-stepwise-35.md with
the command.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from bones.engine import core
from bones.engine.match import Match
from bones.engine.nativetrains import NativeTrainHand
from bones.engine.trains import TrainHand
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant


def run(variant: str, players: int, rounds: int, read: bool) -> tuple[str, int, float]:
    """(the hand's class, plies, CPU seconds) on the core ``BONES_CORE`` names."""
    rules = compile_rules(load_variant(variant), players)
    deals = [Match(rules, seed=s).next_deal() for s in range(rounds)]
    rng = random.Random(1)
    plies = 0
    kind = ""
    start = time.process_time()
    for deal in deals:
        hand = core.new_hand(rules, deal)
        kind = type(hand).__name__
        while not hand.over:
            if read:
                assert isinstance(hand, (TrainHand, NativeTrainHand))
                hand.ends()
            hand.apply(rng.choice(hand.legal_moves()))
            plies += 1
    return kind, plies, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="mexican-train")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--read", action="store_true")
    o = parser.parse_args()
    for choice in ("python", "native"):
        os.environ[core.ENV] = choice
        kind, plies, cpu = run(o.variant, o.players, o.rounds, o.read)
        print(f"{choice:6} {kind:15} {o.variant} {o.players}p {o.rounds} rounds: {plies} plies, "
              f"{cpu:.2f} CPU s, {plies / cpu:,.0f} plies per CPU s")


if __name__ == "__main__":
    main()
