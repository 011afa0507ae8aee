"""Train a policy that scores each legal action, then play it in bones.

    python examples/train_actions.py --out /tmp/actions.npz
    PYTHONPATH=examples bones simulate all-fives -n 1000 --seed 1 \\
        --bots py:train_actions:ActionBot:weights=/tmp/actions.npz --bots greedy

NumPy only.  The policy is a softmax over the seat's legal actions, each
action scored ``w . phi(action)`` where ``phi`` is a handful of features
bones' engine computes for that action from the seat's observation alone
(:data:`FEATURES`: the points the play scores now, what the next opponent
may score on the ends it leaves, the pips it sheds, ...).  Starting from
``w = 0`` (uniform play) it is trained by REINFORCE with a batch baseline and
Adam on whole hands of 2-player All Fives through the Gymnasium adapter
(``bones.adapters.gymnasium``), from a random seat against ``greedy``,
rewarded by the hand's point difference.  The same seed gives the same
weights.  :class:`ActionBot` plays the saved weights as a bones bot (the
legal action of highest score), so ``bones simulate`` measures it with
bones' own statistics.  With the defaults (150 updates of 200 hands, seed 1:
about 4 minutes on a loaded 2-core host, one minute of CPU) it won 85.3% of
1,000 matches to 250 against ``greedy`` and 63.1% against ``heuristic``;
docs/adapters.md has the figures, their intervals and the commands.

Why per-action features rather than the encoding: ``greedy`` plays the move
that scores most now, a function of the layout a linear policy over the
observation encoding cannot compute (``train_vector.py`` learns one and
beats ``random`` but not ``greedy``).  Scoring each action by what it does
makes the points a play scores an input, so a few parameters suffice and
a few minutes of play learn them.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

#: What :func:`features` measures for each legal action, in column order.
FEATURES = (
    "points",     # the points the play scores now (/ 10)
    "reply",      # the next opponent's expected best score on the ends left (/ 10)
    "follow",     # the mover's best score with its own tiles on the ends left (/ 10)
    "shed",       # the tile's pips (/ 10)
    "shed_late",  # the same, when nothing is left to draw and a hand is nearly out
    "double",     # 1 for a double
    "variety",    # distinct numbers kept in hand (/ the numbers of the set: 7)
    "draw",       # 1 for a draw
    "pass",       # 1 for a pass
)


def features(obs: Any) -> tuple[list[int], np.ndarray]:
    """The seat's legal moves and one row of :data:`FEATURES` for each,
    from its observation alone (its tiles, the public layout, the tile counts
    and what the history proves)."""
    from bones.bots.policies import points_if
    from bones.engine.hand import DRAW, PASS
    from bones.engine.moves import ARM_SHIFT, TILE_SHIFT

    legal = obs.legal_moves()
    rules, layout, seat = obs.rules, obs.layout, obs.seat
    ts = rules.tiles
    rows = np.zeros((len(legal), len(FEATURES)))
    opponent = rules.opponent_after[seat]
    barred = 0
    for mask, cap in obs.limits()[opponent]:
        if cap == 0:
            barred |= mask
    candidates = obs.unseen & ~barred
    n_unseen = obs.unseen.bit_count()
    p_hold = min(1.0, obs.counts[opponent] / n_unseen) if n_unseen else 0.0
    others = [c for s, c in enumerate(obs.counts) if rules.owner[s] != rules.owner[seat]]
    late = obs.drawable == 0 and (min(others, default=0) <= 2 or obs.counts[seat] <= 3)

    def best_on(after: Any, tiles: int) -> list[int]:
        """Points each of ``tiles`` would score on the ends of ``after``."""
        found = []
        for arm, pip in enumerate(after.arm_open):
            if pip < 0:
                continue
            fits = tiles & ts.matching[pip]
            while fits:
                low = fits & -fits
                fits ^= low
                move = (low.bit_length() - 1) << TILE_SHIFT | arm << ARM_SHIFT
                found.append(points_if(after, move))
        return found

    for i, move in enumerate(legal):
        row = rows[i]
        if move == DRAW:
            row[7] = 1.0
            continue
        if move == PASS:
            row[8] = 1.0
            continue
        tile = move >> TILE_SHIFT
        left = obs.hand & ~(1 << tile)
        row[0] = points_if(layout, move) / 10
        row[3] = ts.pips[tile] / 10
        row[4] = row[3] if late else 0.0
        row[5] = float(ts.is_double[tile])
        row[6] = sum(1 for m in ts.matching if left & m) / len(ts.matching)
        if not left or not rules.scores_plays:
            continue
        after = layout.copy()
        after.apply(move)
        if after.state:
            continue
        if rules.owner[after.turn] != rules.owner[seat]:
            # the next opponent replies: its best unseen tile that scores,
            # each held with probability p_hold (the heuristic's estimate)
            expected, none_higher = 0.0, 1.0
            for points in sorted((p for p in best_on(after, candidates) if p), reverse=True):
                expected += points * p_hold * none_higher
                none_higher *= 1.0 - p_hold
            row[1] = expected / 10
        after.turn = seat
        row[2] = max(best_on(after, left), default=0) / 10
    return legal, rows


def softmax(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits - logits.max())
    return p / p.sum()


def train(updates: int, out: str, hands: int = 200, seed: int = 1,
          opponents: str = "greedy", lr: float = 0.1, log: int = 5) -> np.ndarray:
    """``updates`` policy updates of ``hands`` hands each; returns the weights.

    The environment's episodes are seeded from ``seed`` and the policy's
    choices from NumPy's generator seeded with ``seed``: the same seed gives
    the same weights on any machine.
    """
    import bones.adapters.gymnasium as bg

    env = bg.env("all-fives", seat="random", opponents=opponents, reward="points")
    space = env.space
    rng = np.random.default_rng(seed)
    w = np.zeros(len(FEATURES))
    m, v = np.zeros_like(w), np.zeros_like(w)
    t0, steps, decisions = time.time(), 0, 0
    env.reset(seed=seed)
    history: list[float] = []
    for update in range(1, updates + 1):
        batch: list[tuple[np.ndarray, int, int]] = []  # (rows, chosen, episode)
        returns = np.zeros(hands)
        for episode in range(hands):
            done = False
            while not done:
                assert env.game is not None
                legal, rows = features(env.game.observe(env.seat))
                if len(legal) == 1:
                    k = 0
                else:
                    k = int(rng.choice(len(legal), p=softmax(rows @ w)))
                    batch.append((rows, k, episode))
                action = space.index(legal[k])
                _, reward, done, _, _ = env.step(action)
                returns[episode] += reward
                steps += 1
            env.reset()
        history.extend(returns.tolist())
        # REINFORCE: every choice of a hand is credited with the hand's
        # result, less the batch's mean, in units of the batch's spread
        adv = (returns - returns.mean()) / (returns.std() + 1e-8)
        grad = np.zeros_like(w)
        for rows, k, episode in batch:
            p = softmax(rows @ w)
            grad += (rows[k] - p @ rows) * adv[episode]
        grad /= max(len(batch), 1)
        decisions += len(batch)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w += lr * (m / (1 - 0.9 ** update)) / (np.sqrt(v / (1 - 0.999 ** update)) + 1e-8)
        if update % log == 0 or update == updates:
            recent = np.mean(history[-log * hands:])
            print(f"{time.time() - t0:6.0f}s  update {update:4d}  {len(history):>7,} hands  "
                  f"mean points a hand v {opponents} {recent:+6.2f}  "
                  + " ".join(f"{n}={x:+.2f}" for n, x in zip(FEATURES, w)), flush=True)
    np.savez(out, weights=w, features=np.array(FEATURES))
    print(f"saved {out}: {len(history):,} hands, {steps:,} env steps, {decisions:,} "
          f"decisions with a choice, {time.time() - t0:.0f}s")
    return w


class ActionBot:
    """The trained policy as a bones bot: the legal action of highest score."""

    def __init__(self, weights: str) -> None:
        saved = np.load(weights)
        if tuple(saved["features"]) != FEATURES:
            raise ValueError(f"{weights} was trained on other features: "
                             f"{', '.join(saved['features'])}")
        self.weights = saved["weights"]

    def choose(self, observation: Any, rng: Any) -> int:
        legal = observation.legal_moves()
        if len(legal) == 1:
            return int(legal[0])
        legal, rows = features(observation)
        return int(legal[int(np.argmax(rows @ self.weights))])


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--updates", type=int, default=150, help="policy updates (the budget)")
    ap.add_argument("--hands", type=int, default=200, help="hands played per update")
    ap.add_argument("--out", default="actions.npz")
    ap.add_argument("--opponents", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--log", type=int, default=5, help="print progress every LOG updates")
    o = ap.parse_args()
    train(o.updates, o.out, hands=o.hands, seed=o.seed, opponents=o.opponents, lr=o.lr,
          log=o.log)


if __name__ == "__main__":
    main()
