"""Train a policy on the native vector environment, then play it in bones.

    python examples/train_vector.py --updates 120 --out /tmp/linear.npz
    bones simulate all-fives --games 2000 --seed 1 \\
        --bots file:examples/train_vector.py:LinearBot:weights=/tmp/linear.npz --bots greedy

NumPy only (no deep-learning library): a linear softmax policy over the
legal actions of :class:`bones.adapters.vector.BonesVectorEnv`, trained by
REINFORCE with a running-mean baseline and Adam, from a random seat against
``greedy`` opponents, rewarded by the hand's points scaled
(``reward="scaled"``).  :class:`LinearBot` plays the saved weights as a bones
bot (the argmax of the legal actions), so ``bones simulate`` measures it
with bones' own statistics.  ``--scoring-view`` trains on the observation
with the scoring view appended (``scoring=True``: the points each action
would score now and the count after it, :class:`bones.adapters.scoring.ScoringView`);
the saved weights' shape tells :class:`LinearBot` which it was trained on.
With the view the policy has two more weights, shared by every action: the
view's points and count of an action, times them, are added to its logit
(what a per-action input is for: one weight learns "score now" for all 114
actions at once).
docs/adapters.md has the results and budgets.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np


def train(budget: int, out: str, envs: int = 256, horizon: int = 32, seed: int = 1,
          opponents: str = "greedy", lr: float = 0.01, scoring: bool = False) -> None:
    """``budget`` updates of ``horizon`` steps of ``envs`` tables: the same
    seed gives the same weights (the core's episodes and NumPy's draws are
    both seeded), whatever the machine's speed."""
    from bones.adapters.vector import BonesVectorEnv

    venv = BonesVectorEnv("all-fives", num_envs=envs, seat="random", opponents=opponents,
                          reward="scaled", num_threads=2, scoring=scoring)
    size, actions = venv.single_observation_space.shape[0], venv.space.num_actions
    rng = np.random.default_rng(seed)
    weights = np.zeros((size + 1, actions))
    m, v = np.zeros_like(weights), np.zeros_like(weights)
    # the view's weights shared by every action (points, count), and where
    # the view starts in an observation
    shared, sm, sv = np.zeros(2), np.zeros(2), np.zeros(2)
    base = venv.encoding.size

    def score(x: np.ndarray) -> np.ndarray:
        out = x @ weights
        if scoring:
            view = x[:, base:base + 2 * actions]
            out += view[:, :actions] * shared[0] + view[:, actions:] * shared[1]
        return out

    baseline, updates, steps, t0 = 0.0, 0, 0, time.time()
    obs, info = venv.reset(seed=seed)
    finished: list[float] = []
    # the tables whose episode ended at the last step: their next step
    # starts the next episode, its action ignored (autoreset)
    ended = np.zeros(envs, dtype=bool)
    while updates < budget:
        xs, acts, masks, rewards, ends, live = [], [], [], [], [], []
        for _ in range(horizon):
            mask = info["action_mask"].astype(bool)
            x = np.hstack([obs, np.ones((envs, 1), dtype=np.float32)])
            logits = np.where(mask, score(x), -1e9)
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            a = np.array([rng.choice(actions, p=row) if not done else 0
                          for row, done in zip(p, ended)])
            obs, reward, term, _, info = venv.step(a)
            xs.append(x)
            acts.append(a)
            masks.append(mask)
            rewards.append(reward)
            ends.append(term)
            live.append(~ended)  # an autoreset step takes no action
            ended = term
            finished.extend(reward[term].tolist())
            steps += envs
        # returns of the episodes that ended within the rollout
        ret = np.zeros(envs)
        known = np.zeros(envs, dtype=bool)
        grad = np.zeros_like(weights)
        sgrad = np.zeros(2)
        batch = []
        for t in reversed(range(horizon)):
            ret = np.where(ends[t], rewards[t], ret + rewards[t])
            known = ends[t] | known
            use = known & live[t]
            batch.append((t, use, ret.copy()))
        samples = sum(int(u.sum()) for _, u, _ in batch)
        if samples == 0:
            continue
        mean = sum(float(r[u].sum()) for _, u, r in batch) / samples
        baseline = 0.95 * baseline + 0.05 * mean
        for t, use, r in batch:
            x, mask = xs[t][use], masks[t][use]
            logits = np.where(mask, score(x), -1e9)
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            onehot = np.zeros_like(p)
            onehot[np.arange(len(x)), acts[t][use]] = 1.0
            adv = (r[use] - baseline)[:, None]
            grad += x.T @ ((onehot - p) * adv)
            if scoring:
                view = x[:, base:base + 2 * actions]
                sgrad[0] += float(((onehot - p) * adv * view[:, :actions]).sum())
                sgrad[1] += float(((onehot - p) * adv * view[:, actions:]).sum())
        grad /= samples
        sgrad /= samples
        updates += 1
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        weights += lr * (m / (1 - 0.9 ** updates)) / (np.sqrt(v / (1 - 0.999 ** updates)) + 1e-8)
        sm = 0.9 * sm + 0.1 * sgrad
        sv = 0.999 * sv + 0.001 * sgrad * sgrad
        shared += lr * (sm / (1 - 0.9 ** updates)) / (np.sqrt(sv / (1 - 0.999 ** updates)) + 1e-8)
        if updates % 20 == 0:
            recent = np.mean(finished[-2000:]) if finished else 0.0
            print(f"{time.time() - t0:6.0f}s  {steps:>10,} steps  mean scaled reward "
                  f"{recent:+.4f}" + (f"  shared {shared[0]:+.2f} {shared[1]:+.2f}"
                                      if scoring else ""), flush=True)
    np.savez(out, weights=weights, shared=shared)
    print(f"saved {out}: {steps:,} env steps in {time.time() - t0:.0f}s, {updates} updates")


class LinearBot:
    """The trained policy as a bones bot: the legal action of highest logit."""

    def __init__(self, weights: str) -> None:
        saved = np.load(weights)
        self.weights = saved["weights"]
        self.shared = saved["shared"] if "shared" in saved.files else np.zeros(2)
        self._for: Any = None

    def choose(self, observation: Any, rng: Any) -> int:
        from bones.adapters.scoring import ScoringView
        from bones.seat.actions import ActionSpace
        from bones.seat.encoding import Encoding

        legal = observation.legal_moves()
        if len(legal) == 1:
            return int(legal[0])
        if self._for is not observation.rules:
            self._for = observation.rules
            self._enc = Encoding(observation.rules, scaled=True)
            self._space = ActionSpace(observation.rules)
            # weights trained --scoring-view read the view too
            self._view = (ScoringView(observation.rules, scaled=True, start=self._enc.size)
                          if len(self.weights) != self._enc.size + 1 else None)
        x = self._enc.encode(observation)
        if self._view is not None:
            x = np.concatenate([x, self._view.encode(observation)])
        x = np.append(x, 1.0)
        logits = x @ self.weights
        if self._view is not None:
            n = self._space.num_actions
            view = x[self._enc.size:self._enc.size + 2 * n]
            logits = logits + view[:n] * self.shared[0] + view[n:] * self.shared[1]
        return int(max(legal, key=lambda mv: logits[self._space.index(mv)]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--updates", type=int, default=120, help="policy updates (the budget)")
    ap.add_argument("--out", default="linear.npz")
    ap.add_argument("--opponents", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=0.01, help="Adam's step size")
    ap.add_argument("--scoring-view", action="store_true",
                    help="observe the scoring view too (the points each action scores now)")
    o = ap.parse_args()
    train(o.updates, o.out, seed=o.seed, opponents=o.opponents, lr=o.lr,
          scoring=o.scoring_view)


if __name__ == "__main__":
    main()
