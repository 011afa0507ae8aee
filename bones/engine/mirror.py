"""Placements that are one move: the same tile on twin arms.

Two legal plays of the same tile lead to the same position up to symmetry
when the arms they go on are *twins*: arms the rules cannot tell apart,
because everything the rules read of an arm is the same for both (the pip
open on it, its far pip, what its end counts, the hub it still touches and
the one it grew from, whether it is a long side or a cross arm of its hub,
a one-tile stub, the pip it waits for before it opens, and whether it is
the double that gives the player to move an extra play).  Swapping two
twins maps the table onto itself, so laying the tile on either gives mirror
images: the same ends and count, the same spinner edges covered, the same
arms open; what the rules do next cannot differ.  A 6-5 on either side of
an opening 6-6, or on either cross arm of a spinner no tile covers yet, or
a 4-1 on either end of a line that shows a 4 at both, are one move.

Leads, draws and passes are never one with another move (a lead's flip is
a way of writing it down, not a legal move of its own), and neither is any
move of a train layout (its arms are trains that belong to seats, carry
markers and owe covers: fields of their own, not grouped yet).

This is the one definition: the Python hand is read here, the native
kernel's ``Hand::mirror_of`` reads the same fields (:data:`ARM_FIELDS`; the
differential test ``tests/test_mirror.py`` checks that both cores group
the same moves), and the search, the analysis, the ``?`` hint and the moves
listed to a person all group moves by it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bones.engine.moves import ARM_MASK, ARM_SHIFT, TILE_SHIFT

if TYPE_CHECKING:  # pragma: no cover
    from bones.engine.handlike import HandLike

#: The per-arm fields of :data:`bones.engine.handstate.HAND_STATE` the rules
#: read of an arm: two arms equal in all of them (and in being a cross arm
#: and the extra-play double) are twins.
ARM_FIELDS: tuple[str, ...] = (
    "arm_open", "arm_end", "arm_weight", "arm_hub", "arm_root", "arm_side", "arm_stub",
    "arm_frozen",
)


def _keys(hand: Any, legal: list[int]) -> list[tuple[int, ...]]:
    if not hand.placed or hand.rules.trains is not None:
        # leads, and train layouts (docs/trains.md: a train belongs to a
        # seat, is marked, owes covers; the native core does not play them):
        # every move its own
        return [(i,) for i in range(len(legal))]
    columns = [getattr(hand, name) for name in ARM_FIELDS]
    cross = {arm for arms in hand.hub_cross for arm in arms}
    extra = hand.extra
    keys: list[tuple[int, ...]] = []
    for i, move in enumerate(legal):
        if move < 0:
            keys.append((i,))
            continue
        arm = (move >> ARM_SHIFT) & ARM_MASK
        keys.append((-1, move >> TILE_SHIFT, *(int(c[arm]) for c in columns),
                     arm in cross, arm == extra))
    return keys


def mirror_of(hand: HandLike, legal: list[int]) -> list[int]:
    """For each move of ``legal`` (moves of the player to move in ``hand``),
    the index in ``legal`` of the first move that is one with it (its own
    index when none before it is).  A native hand answers from the kernel; in
    a train layout every move is its own (whichever core steps it)."""
    native = getattr(hand, "native", None)
    if native is not None and hand.rules.trains is None:
        return list(native.mirror_of(legal))
    first: dict[tuple[int, ...], int] = {}
    return [first.setdefault(key, i) for i, key in enumerate(_keys(hand, legal))]


def distinct_moves(hand: HandLike, legal: list[int]) -> list[int]:
    """``legal`` with every move that is one with an earlier one left out:
    one representative (the first) of each move, in ``legal``'s order."""
    return [move for i, (move, j) in enumerate(zip(legal, mirror_of(hand, legal))) if i == j]


def mirror_groups(hand: HandLike, legal: list[int]) -> list[list[int]]:
    """The moves of ``legal`` grouped into the moves they are: each group
    its representative first, then the others, in ``legal``'s order."""
    groups: dict[int, list[int]] = {}
    for move, j in zip(legal, mirror_of(hand, legal)):
        groups.setdefault(j, []).append(move)
    return list(groups.values())


__all__ = ["ARM_FIELDS", "distinct_moves", "mirror_groups", "mirror_of"]
