"""Train sb3-contrib's MaskablePPO on the native vector environment, then play it in bones.

    pip install 'bones[ppo]'         # sb3-contrib: stable-baselines3 and torch (the CPU is enough)
    python examples/train_ppo.py --steps 4000000 --scoring-view --out /tmp/ppo.zip
    bones simulate all-fives -n 300 --seed 1 \\
        --bots file:examples/train_ppo.py:PPOBot:model=/tmp/ppo.zip --bots greedy

The tables are :func:`bones.adapters.sb3.vec_env`: the native vector
environment behind Stable-Baselines3's own ``VecEnv`` API (the step that ends
an episode returns the next one's first observation, the last in
``info["terminal_observation"]``; ``action_masks()`` for MaskablePPO).
Without PyTorch and sb3-contrib the script says which extra to install, in
one line, and exits 1.

:class:`PPOBot` plays the saved policy as a bones bot: it encodes the seat's
observation as the vector environment does (:class:`bones.seat.encoding.Encoding`,
scaled; :class:`bones.seat.actions.ActionSpace`) and takes the legal action
the policy ranks highest, so ``bones simulate`` measures it with bones' own
statistics.  ``--scoring-view`` trains on the observation with the scoring
view appended (``scoring=True``: the points each action would score now and
the count after it, :class:`bones.adapters.scoring.ScoringView`); the saved
model's observation size tells :class:`PPOBot` which it was trained on.
``--points-head`` (with ``--scoring-view``) adds to each action's logit a
learned weight, shared by every action, times that action's points in the
view (:func:`points_policy`).
docs/adapters.md has the results and their budgets.  Everything is
seeded by ``--seed``: the deals and bot moves (the environment), the network's
initial weights and its sampled actions (torch, on one thread).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from bones.adapters.sb3 import BonesVecEnv, vec_env

#: what the training needs, and the extra that installs it
EXTRA = "pip install 'bones[ppo]'"


def _requires(*modules: str) -> None:
    """Import ``modules``, or raise an ImportError that names the extra."""
    import importlib

    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as err:
            raise ImportError(f"{err.name or name} is not installed: {EXTRA} "
                              f"(PyTorch, Stable-Baselines3 and sb3-contrib)") from err


def make_env(opponents: str, envs: int, reward: str, scoring: bool = False) -> BonesVecEnv:
    return vec_env("all-fives", num_envs=envs, seat="random", opponents=opponents, reward=reward,
                   scoring=scoring)


def train(steps: int, out: str, seed: int = 1, envs: int = 64, opponents: str = "greedy",
          warmup: float = 0.0, reward: str = "scaled", n_steps: int = 128,
          net: tuple[int, ...] = (256, 256), lr: float = 3e-4, scoring: bool = False,
          points_head: bool = False) -> None:
    """``steps`` environment steps of MaskablePPO; the first ``warmup``
    fraction against ``random`` (a curriculum), the rest against ``opponents``."""
    _requires("torch", "sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    stages = [("random", int(steps * warmup)), (opponents, steps - int(steps * warmup))]
    model: Any = None
    t0, cpu0 = time.time(), time.process_time()
    for k, (against, budget) in enumerate(s for s in stages if s[1] > 0):
        env = VecMonitor(make_env(against, envs, reward, scoring))
        env.seed(seed + 1_000_000 * k)
        if model is None:
            policy: Any = "MlpPolicy"
            kwargs: dict[str, Any] = {"net_arch": list(net)}
            if points_head:  # the scoring view's points block, at the end but one
                policy = points_policy()
                n = int(env.action_space.n)
                size = int(env.observation_space.shape[0])
                kwargs["points_at"] = (size - 2 * n, size - n)
            model = MaskablePPO(policy, env, n_steps=n_steps, batch_size=n_steps * envs // 8,
                                n_epochs=4, learning_rate=lr, gamma=1.0, gae_lambda=0.95,
                                ent_coef=0.01, policy_kwargs=kwargs,
                                seed=seed, device="cpu", verbose=0)
        else:
            model.set_env(env)
        model.learn(budget, reset_num_timesteps=False, callback=_progress(against, t0))
        env.close()
    model.save(out)
    print(f"saved {out}: {model.num_timesteps:,} env steps in {time.time() - t0:.0f}s "
          f"({time.process_time() - cpu0:.0f}s of CPU)", flush=True)


#: The points head's weight at the start: logits per scaled point (a play of
#: 10 points, 0.25 scaled in All Fives, starts 2.5 logits above a play of none).
POINTS_WEIGHT = 10.0


def points_policy() -> Any:
    """MaskablePPO's MLP policy with a *points head* (``--points-head``): each
    action's logit is the MLP's plus a learned weight times that action's
    points in the scoring view (``action_points``, the entries ``points_at``
    of the observation), one weight shared by every action.  An MLP head has
    a separate weight for each action's input and logit and must find the
    diagonal for itself; the shared weight starts the policy where `greedy`
    plays and lets PPO learn what to change."""
    import torch as th
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.torch_layers import MlpExtractor

    class PointsExtractor(MlpExtractor):
        def __init__(self, feature_dim: int, net_arch: Any, activation_fn: Any, device: Any,
                     points_at: tuple[int, int]) -> None:
            super().__init__(feature_dim, net_arch, activation_fn, device)
            self.points_at = points_at

        def forward_actor(self, features: th.Tensor) -> th.Tensor:
            lo, hi = self.points_at
            return th.cat([self.policy_net(features), features[:, lo:hi]], dim=1)

        def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
            return self.forward_actor(features), self.forward_critic(features)

    class PointsPolicy(MaskableActorCriticPolicy):
        def __init__(self, *args: Any, points_at: tuple[int, int], **kwargs: Any) -> None:
            self.points_at = points_at
            super().__init__(*args, **kwargs)

        def _build_mlp_extractor(self) -> None:
            self.mlp_extractor = PointsExtractor(self.features_dim, self.net_arch,
                                                 self.activation_fn, self.device, self.points_at)
            # a parameter before the optimizer is made (ActorCriticPolicy._build)
            self.points_weight = th.nn.Parameter(th.tensor(POINTS_WEIGHT))

        def _get_action_dist_from_latent(self, latent_pi: th.Tensor) -> Any:
            lo, hi = self.points_at
            hidden, points = latent_pi[:, :-(hi - lo)], latent_pi[:, -(hi - lo):]
            logits = self.action_net(hidden) + self.points_weight * points
            return self.action_dist.proba_distribution(action_logits=logits)

        def _get_constructor_parameters(self) -> dict[str, Any]:
            data = super()._get_constructor_parameters()
            data["points_at"] = self.points_at
            return data

    return PointsPolicy


def _progress(against: str, t0: float, every: int = 50) -> Any:
    """A callback printing the mean reward of the last hands every ``every`` rollouts."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):
        rollouts = 0

        def _on_step(self) -> bool:
            return True

        def _on_rollout_end(self) -> None:
            self.rollouts += 1
            hands = self.model.ep_info_buffer
            if self.rollouts % every == 0 and hands:
                mean = np.mean([h["r"] for h in hands])
                print(f"{time.time() - t0:6.0f}s {self.model.num_timesteps:>11,} steps  "
                      f"v {against}: mean reward of the last {len(hands)} hands {mean:+.4f}",
                      flush=True)

    return Progress()


def observation_input(observation: Any, encoding: Any, space: Any,
                      scoring: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """What the vector environment gives the learner for ``observation``:
    the scaled encoding (and the scoring view, when ``scoring`` is one) and
    the legal-action mask."""
    mask = np.zeros(space.num_actions, dtype=bool)
    mask[[space.index(mv) for mv in observation.legal_moves()]] = True
    x = encoding.encode(observation)
    if scoring is not None:
        x = np.concatenate([x, scoring.encode(observation)])
    return x, mask


class PPOBot:
    """The trained policy as a bones bot: the legal action of highest probability."""

    def __init__(self, model: str) -> None:
        _requires("torch", "sb3_contrib")
        import torch
        from sb3_contrib import MaskablePPO

        torch.set_num_threads(1)
        # a model saved with --points-head names its policy class by value
        self.model = MaskablePPO.load(model, device="cpu")
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
            # a model trained with --scoring-view observes the view too
            size = self.model.observation_space.shape[0]
            self._view = (ScoringView(observation.rules, scaled=True, start=self._enc.size)
                          if size != self._enc.size else None)
        x, mask = observation_input(observation, self._enc, self._space, self._view)
        action, _ = self.model.predict(x, action_masks=mask, deterministic=True)
        return int(self._space.move(int(action)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=4_000_000, help="environment steps (the budget)")
    ap.add_argument("--out", default="ppo.zip")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--envs", type=int, default=64, help="tables stepped together")
    ap.add_argument("--opponents", default="greedy")
    ap.add_argument("--warmup", type=float, default=0.0,
                    help="the fraction of the steps played against random first")
    ap.add_argument("--reward", default="scaled", choices=["scaled", "win", "points", "difference"])
    ap.add_argument("--n-steps", type=int, default=128, help="steps per table per rollout")
    ap.add_argument("--net", default="256,256", help="hidden layer sizes")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--scoring-view", action="store_true",
                    help="observe the scoring view too (the points each action scores now)")
    ap.add_argument("--points-head", action="store_true",
                    help="with --scoring-view: add a learned weight times each action's points "
                         "to its logit (one weight shared by every action)")
    o = ap.parse_args()
    if o.points_head and not o.scoring_view:
        ap.error("--points-head reads the scoring view: give --scoring-view too")
    try:
        _requires("torch", "sb3_contrib")
    except ImportError as err:
        print(f"{Path(sys.argv[0]).name}: {err}", file=sys.stderr)
        sys.exit(1)
    train(o.steps, o.out, seed=o.seed, envs=o.envs, opponents=o.opponents, warmup=o.warmup,
          reward=o.reward, n_steps=o.n_steps, net=tuple(int(n) for n in o.net.split(",")),
          lr=o.lr, scoring=o.scoring_view, points_head=o.points_head)


if __name__ == "__main__":
    main()
