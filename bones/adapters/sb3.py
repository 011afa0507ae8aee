"""Stable-Baselines3's ``VecEnv`` over the native vector environment
(``pip install 'bones[ppo]'`` for Stable-Baselines3, sb3-contrib and PyTorch).

>>> from bones.adapters.sb3 import vec_env
>>> envs = vec_env("all-fives", num_envs=4, seat="random", opponents="random")
>>> _ = envs.seed(1)
>>> obs = envs.reset()
>>> obs.shape, envs.action_masks().shape
((4, 162), (4, 114))
>>> envs.step_async(envs.action_masks().argmax(axis=1))
>>> obs, reward, done, infos = envs.step_wait()
>>> reward.dtype, done.dtype, len(infos)
(dtype('float32'), dtype('bool'), 4)

:class:`BonesVecEnv` puts a :class:`bones.adapters.vector.BonesVectorEnv`
(Gymnasium's ``VectorEnv``, stepped in Rust) behind SB3's own ``VecEnv`` API,
for SB3's algorithms and sb3-contrib's ``MaskablePPO``.  The two APIs differ
in how an episode ends: the Gymnasium environment resets a finished table on
its *next* step (that step's action is ignored), while SB3 wants the first
observation of the next episode on the step that ended one, the last
observation in ``info["terminal_observation"]``.  So on every step that ends
episodes the finished tables are reset at once (``reset(options=
{"reset_mask": done})``: the same new episodes the next step would have
started) and their final observations go into ``infos``.  ``action_masks()``
gives MaskablePPO the legal actions (never an empty row: every table is
always in an episode).

The class subclasses SB3's ``VecEnv`` where Stable-Baselines3 is installed,
and is a plain class with the same methods where it is not: it imports, and
steps, without SB3 or PyTorch.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from bones.adapters.vector import BonesVectorEnv


def _vec_env_base() -> Any:
    """SB3's ``VecEnv`` where Stable-Baselines3 is installed, else ``object``."""
    try:
        return importlib.import_module("stable_baselines3.common.vec_env").VecEnv
    except ImportError:
        return object


_Base: Any = _vec_env_base()


class BonesVecEnv(_Base):
    """``venv``, a :class:`~bones.adapters.vector.BonesVectorEnv`, as an SB3 ``VecEnv``."""

    def __init__(self, venv: BonesVectorEnv) -> None:
        self.venv = venv
        self.num_envs = venv.num_envs
        self.observation_space = venv.single_observation_space
        self.action_space = venv.single_action_space
        self._masks = np.zeros((venv.num_envs, venv.space.num_actions), dtype=np.bool_)
        self._actions: Any = None
        if _Base is not object:
            super().__init__(venv.num_envs, venv.single_observation_space,
                             venv.single_action_space)
        self._seeds: list[int | None] = [None] * venv.num_envs

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Seed table ``i`` with ``seed + i`` at the next ``reset()``, as SB3
        seeds its environments (None: the tables keep their streams)."""
        self._seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        return self._seeds

    def reset(self) -> np.ndarray:
        """A new episode on every table: their first observations."""
        seeds, self._seeds = self._seeds, [None] * self.num_envs
        obs, info = self.venv.reset(seed=None if seeds[0] is None else seeds)
        self._masks = info["action_mask"].astype(bool)
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, reward, terminated, truncated, info = self.venv.step(self._actions)
        done = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if done.any():
            for i in np.flatnonzero(done):
                infos[i]["terminal_observation"] = obs[i].copy()
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            # start the finished tables' next episodes now, not on the next step
            obs, info = self.venv.reset(options={"reset_mask": done})
        self._masks = info["action_mask"].astype(bool)
        return obs, reward.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every table (bool, ``(num_envs, actions)``)."""
        return self._masks.copy()

    def close(self) -> None:
        self.venv.close()

    # SB3 reaches the environments through these; MaskablePPO calls
    # env_method("action_masks") and get_attr("action_masks")
    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "action_masks":
            return [self.action_masks] * len(self._indices(indices))
        if attr_name == "render_mode":
            return [None] * len(self._indices(indices))
        raise AttributeError(attr_name)

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"{attr_name} cannot be set on the tables")

    def env_method(self, method_name: str, *args: Any, indices: Any = None,
                   **kwargs: Any) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(method_name)
        return list(self._masks[self._indices(indices)])

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        return [indices] if isinstance(indices, int) else list(indices)


def vec_env(variant: str = "all-fives", num_envs: int = 8, **kwargs: Any) -> BonesVecEnv:
    """``num_envs`` tables of ``variant`` as an SB3 ``VecEnv``; ``kwargs`` are
    :class:`~bones.adapters.vector.BonesVectorEnv`'s (``seat``, ``opponents``,
    ``reward``, ``num_threads``, ...)."""
    return BonesVecEnv(BonesVectorEnv(variant, num_envs, **kwargs))


__all__ = ["BonesVecEnv", "vec_env"]
