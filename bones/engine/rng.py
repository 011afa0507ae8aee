"""The one random stream every random choice in bones draws from.

The generator is splitmix64 (a 64-bit state advanced by a constant and
scrambled on output), chosen because it is tiny, fast, well known and easy to
implement identically in another language: the native core implements the
same stream, so both cores play the same games from the same seed.
``docs/random.md`` specifies it, how a seed becomes streams
(:func:`derive`), and how every consumer draws from them.

>>> rng = Rng(0)
>>> hex(rng.next_u64())
'0xe220a8397b1dcdaf'
>>> rng = stream(7, DEALS, 1)   # the deal stream of hand 1 of a match seeded 7
>>> 0 <= rng.below(6) < 6
True
>>> tiles = list(range(28)); Rng(1).shuffle(tiles); sorted(tiles) == list(range(28))
True
"""

from __future__ import annotations

import os
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
TWO64 = 1 << 64
GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_SCALE = 1.0 / (1 << 53)

# Stream labels: the first element of a derivation path under a seed
# (docs/random.md, "Who draws what").
#: the deals (shuffle, lead by lot or at random, redeals) of hand ``h``:
#: ``stream(match_seed, DEALS, h)``, ``h`` counted from 1
DEALS = 1
#: a bot's generator for one whole game of a simulation:
#: ``stream(game_seed, BOTS, seat)``
BOTS = 2
#: one decision of a bot in ``bones play``:
#: ``stream(seed, PLAY, hand_number, ply, seat, purpose)``
PLAY = 3
#: a lead by lot or at random of hand ``h`` in a match dealt with its leads
#: apart (the games of one deal in a duplicate simulation):
#: ``stream(match_seed, LEADS, h)``
LEADS = 4

#: ``purpose`` codes of :data:`PLAY` streams
PURPOSE_MOVE = 0
PURPOSE_HINT = 1


def new_seed() -> int:
    """A fresh seed for a run that was given none (shown and recorded)."""
    return int.from_bytes(os.urandom(4), "big")


def mix(x: int) -> int:
    """splitmix64's output for the state ``x`` (one step from ``x - GOLDEN``).

    >>> hex(mix(0))
    '0xe220a8397b1dcdaf'
    """
    z = (x + GOLDEN) & MASK64
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


def derive(seed: int, *path: int) -> int:
    """The 64-bit seed of the stream at ``path`` under ``seed``.

    Any int is reduced mod 2**64 first (negative ones too, as two's
    complement), then each path element is folded in:
    ``h = mix(seed mod 2**64)``, then ``h = mix(h ^ (p mod 2**64))`` for each
    ``p``.  ``derive(seed, g)`` is the seed of game ``g`` of a simulation.

    >>> derive(-1) == derive(2**64 - 1)
    True
    """
    h = mix(seed & MASK64)
    for p in path:
        h = mix(h ^ (p & MASK64))
    return h


class Rng:
    """A splitmix64 stream: what bots receive as ``rng``.

    ``Rng(seed)`` starts at state ``seed mod 2**64``; every method draws from
    the same stream in a documented way, so a bot that uses only these
    methods makes the same choices in either core.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & MASK64

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#x})"

    def next_u64(self) -> int:
        """The next 64-bit output."""
        s = (self.state + GOLDEN) & MASK64
        self.state = s
        s = ((s ^ (s >> 30)) * _M1) & MASK64
        s = ((s ^ (s >> 27)) * _M2) & MASK64
        return s ^ (s >> 31)

    def random(self) -> float:
        """A float in [0, 1): the top 53 bits of one output."""
        s = (self.state + GOLDEN) & MASK64
        self.state = s
        s = ((s ^ (s >> 30)) * _M1) & MASK64
        s = ((s ^ (s >> 27)) * _M2) & MASK64
        return ((s ^ (s >> 31)) >> 11) * _SCALE

    def below(self, n: int) -> int:
        """An int in ``range(n)``, unbiased: outputs under ``2**64 mod n`` are
        rejected and drawn again (for small ``n`` that almost never happens)."""
        if n < 1 or n > MASK64:
            raise ValueError(f"below() needs 1 <= n < 2**64, not {n}")
        t = TWO64 % n
        s = self.state
        while True:
            s = (s + GOLDEN) & MASK64
            x = ((s ^ (s >> 30)) * _M1) & MASK64
            x = ((x ^ (x >> 27)) * _M2) & MASK64
            x ^= x >> 31
            if x >= t:
                self.state = s
                return x % n

    def choice(self, seq: Sequence[T]) -> T:
        """``seq[below(len(seq))]`` (one draw, even for one element)."""
        if not seq:
            raise IndexError("choice() from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, a: MutableSequence[T]) -> None:
        """Fisher-Yates in place, from the back: for ``i`` from ``len(a) - 1``
        down to 1, swap ``a[i]`` with ``a[below(i + 1)]``."""
        self.shuffle_tail(a, len(a))

    def shuffle_tail(self, a: MutableSequence[T], k: int) -> None:
        """The first ``k`` steps of :meth:`shuffle` (``i`` from ``len(a) - 1``
        down to ``len(a) - k``, never below 1): the last ``k`` places end as a
        full shuffle would leave them, at the cost of ``k`` draws, and the
        rest stays a permutation of what was left."""
        n = len(a)
        stop = max(n - k, 1)
        s = self.state
        for i in range(n - 1, stop - 1, -1):
            m = i + 1
            t = TWO64 % m
            while True:
                s = (s + GOLDEN) & MASK64
                x = ((s ^ (s >> 30)) * _M1) & MASK64
                x = ((x ^ (x >> 27)) * _M2) & MASK64
                x ^= x >> 31
                if x >= t:
                    break
            j = x % m
            a[i], a[j] = a[j], a[i]
        self.state = s


def stream(seed: int, *path: int) -> Rng:
    """The stream at ``path`` under ``seed``: ``Rng(derive(seed, *path))``."""
    return Rng(derive(seed, *path))


__all__ = [
    "BOTS", "DEALS", "LEADS", "PLAY", "PURPOSE_HINT", "PURPOSE_MOVE", "Rng", "derive", "mix",
    "new_seed", "stream",
]
