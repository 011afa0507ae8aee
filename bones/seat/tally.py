"""What each part of the layout adds to the count, so the numbers add up on screen.

The count is the sum of the arms that end in a tile (the far pip, or both
halves of a crosswise double) and of each hub (a spinner, the in-line sniff,
a led double), which counts once, as a whole, however many of its edges are
still free; a free edge adds nothing of its own.  This is
:meth:`bones.engine.hand.Hand.recount` spelled out part by part, for the
terminal's count line and the page's.

>>> from bones.lang.load import load_variant
>>> from bones.engine.match import Match
>>> from bones.lang.compile import compile_rules
>>> hand = Match(compile_rules(load_variant("sniff")), seed=4).new_hand()
>>> while hand.placed < 4:
...     hand.apply(hand.legal_moves()[0])
>>> sum(part.points for part in count_parts(hand)) == hand.count
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bones.engine.handlike import HandLike
from bones.engine.notation import arm_name

#: ``"end"``: an arm ending in a tile, its far pip; ``"double"``: an arm ending
#: in a crosswise double, both halves; ``"free"``: an arm still at its hub
#: (it adds nothing: the hub counts for it); ``"hub"``: a spinner, a sniff or a
#: led double counted whole, once.
PartKind = Literal["end", "double", "free", "hub"]


@dataclass(frozen=True)
class CountPart:
    """One term of the count: an arm's end, or a hub counted once."""

    kind: PartKind
    arm: int  # the arm (-1 for a hub)
    hub: int  # the hub (-1 for an arm)
    pip: int  # the pip showing (an arm's far pip, a hub's double)
    points: int  # what it adds (0 for a free arm)
    label: str  # "E 5", "E 3-3 (double)", "N (free)", "spinner 6-6"


def count_parts(hand: HandLike) -> list[CountPart]:
    """The terms of ``hand.count``: every arm (by arm), then every hub; zeros kept.

    Their points always add up to the count.  A train layout counts nothing
    during play (its count is always 0): no parts.
    """
    parts: list[CountPart] = []
    if getattr(hand.rules, "trains", None) is not None:
        return parts
    for a in range(len(hand.arm_end)):
        pip, weight, name = hand.arm_end[a], hand.arm_weight[a], arm_name(a)
        if hand.arm_hub[a] >= 0:  # still at its hub: the hub counts for it
            parts.append(CountPart("free", a, -1, pip, 0, f"{name} (free)"))
        elif weight > 1:
            parts.append(CountPart("double", a, -1, pip, pip * weight, f"{name} {pip}-{pip} (double)"))
        else:
            parts.append(CountPart("end", a, -1, pip, pip * weight, f"{name} {pip}"))
    for h in range(len(hand.hub_pip)):
        pip = hand.hub_pip[h]
        what = "spinner" if hand.hub_spins[h] else ("sniff" if hand.hub_cross[h] else "double")
        parts.append(CountPart("hub", -1, h, pip, hand.hub_vals[h][hand.hub_k[h]],
                               f"{what} {pip}-{pip}"))
    return parts


__all__ = ["CountPart", "PartKind", "count_parts"]
