"""Environments for learning frameworks over any bones variant.

Install the frameworks with ``pip install 'bones[rl]'``; then

* :mod:`bones.adapters.pettingzoo`: ``env(variant, players, ...)``, a
  PettingZoo AEC environment (every seat an agent);
* :mod:`bones.adapters.gymnasium`: ``env(variant, seat, opponents, ...)``, a
  Gymnasium environment for one seat against built-in bots;
* :mod:`bones.adapters.vector`: ``BonesVectorEnv(variant, num_envs, ...)``,
  Gymnasium's vector environment stepped in the native core, and
  :mod:`bones.adapters.sb3`: ``vec_env(...)``, the same as Stable-Baselines3's
  ``VecEnv`` (``pip install 'bones[ppo]'`` for SB3 itself);
* :mod:`bones.adapters.openspiel`: importing it registers the OpenSpiel game
  ``python_bones``.

Their ``render()`` draws one seat's view (:mod:`bones.adapters.render`).

All three rest on the engine's framework-neutral pieces: the fixed action
space (:mod:`bones.seat.actions`), the observation encoding
(:mod:`bones.seat.encoding`) and explicit chance
(:mod:`bones.seat.chance`).  See docs/adapters.md.
"""

from __future__ import annotations

from bones.adapters.common import Table, tables

__all__ = ["Table", "tables"]
