"""Tiles as small ints, hands as int bitmasks, and the tables that name them.

A double-N set has (N+1)(N+2)/2 tiles. Tile ids run in the order 0-0, 0-1, ...,
0-N, 1-1, 1-2, ..., N-N, so a hand or a boneyard is an int whose bit ``t`` says
whether tile ``t`` is in it, and ``hand & set.matching[p]`` are the tiles of
the hand that show the pip ``p``.  Ints never reach a user: names come from
``TileSet.names``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

Tile = int
Mask = int

_TILE_TEXT = re.compile(r"^\s*(\d{1,2})\s*[-|]\s*(\d{1,2})\s*$")


class TileError(ValueError):
    """A tile written in a form that does not name a tile of the set."""


def parse_halves(text: str) -> tuple[int, int]:
    """Read ``"4-6"`` (or ``"4|6"``) as its two halves, in the order written.

    >>> parse_halves("6-4")
    (6, 4)
    """
    match = _TILE_TEXT.match(text)
    if not match:
        raise TileError(f"'{text}' is not a tile (write it as two numbers, like 4-6)")
    return int(match.group(1)), int(match.group(2))


@dataclass(frozen=True)
class TileSet:
    """The tiles of a double-N set and the per-tile tables the engine uses."""

    highest: int
    size: int = field(init=False)
    low: tuple[int, ...] = field(init=False, repr=False)
    high: tuple[int, ...] = field(init=False, repr=False)
    pips: tuple[int, ...] = field(init=False, repr=False)
    is_double: tuple[bool, ...] = field(init=False, repr=False)
    names: tuple[str, ...] = field(init=False, repr=False)
    matching: tuple[Mask, ...] = field(init=False, repr=False)
    doubles: Mask = field(init=False, repr=False)
    full: Mask = field(init=False, repr=False)
    ids: dict[tuple[int, int], Tile] = field(init=False, repr=False, compare=False)
    other_half: tuple[tuple[int, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        n = self.highest
        low, high = [], []
        for a in range(n + 1):
            for b in range(a, n + 1):
                low.append(a)
                high.append(b)
        size = len(low)
        ids: dict[tuple[int, int], Tile] = {}
        for t in range(size):
            ids[(low[t], high[t])] = t
            ids[(high[t], low[t])] = t
        matching = [0] * (n + 1)
        for t in range(size):
            matching[low[t]] |= 1 << t
            matching[high[t]] |= 1 << t
        # other_half[t][p]: the half of tile t facing away when its p half is
        # laid against an open p; -1 where the tile does not show p.
        other = tuple(
            tuple(
                high[t] if p == low[t] else low[t] if p == high[t] else -1
                for p in range(n + 1)
            )
            for t in range(size)
        )
        setter = object.__setattr__
        setter(self, "size", size)
        setter(self, "low", tuple(low))
        setter(self, "high", tuple(high))
        setter(self, "pips", tuple(a + b for a, b in zip(low, high)))
        setter(self, "is_double", tuple(a == b for a, b in zip(low, high)))
        setter(self, "names", tuple(f"{a}-{b}" for a, b in zip(low, high)))
        setter(self, "matching", tuple(matching))
        setter(
            self,
            "doubles",
            sum(1 << t for t in range(size) if low[t] == high[t]),
        )
        setter(self, "full", (1 << size) - 1)
        setter(self, "ids", ids)
        setter(self, "other_half", other)

    def tile(self, a: int, b: int) -> Tile:
        """The id of the tile with halves ``a`` and ``b`` (either order)."""
        try:
            return self.ids[(a, b)]
        except KeyError:
            raise TileError(
                f"{a}-{b} is not in the double-{self.highest} set"
            ) from None

    def parse(self, text: str) -> Tile:
        """The id of a tile written as ``"a-b"``.

        >>> tile_set(6).names[tile_set(6).parse("6-4")]
        '4-6'
        """
        a, b = parse_halves(text)
        return self.tile(a, b)

    def double(self, d: int) -> Tile:
        return self.ids[(d, d)]

    def tiles_of(self, mask: Mask) -> list[Tile]:
        """The tile ids in a mask, lowest id first."""
        out = []
        while mask:
            low_bit = mask & -mask
            out.append(low_bit.bit_length() - 1)
            mask ^= low_bit
        return out

    def mask_of(self, tiles: list[Tile] | tuple[Tile, ...]) -> Mask:
        mask = 0
        for t in tiles:
            mask |= 1 << t
        return mask

    def pips_of(self, mask: Mask) -> int:
        pips = self.pips
        total = 0
        while mask:
            low_bit = mask & -mask
            total += pips[low_bit.bit_length() - 1]
            mask ^= low_bit
        return total

    def name_mask(self, mask: Mask) -> str:
        return " ".join(self.names[t] for t in self.tiles_of(mask))


@cache
def tile_set(highest: int) -> TileSet:
    """The shared, immutable table of the double-``highest`` set."""
    return TileSet(highest)
