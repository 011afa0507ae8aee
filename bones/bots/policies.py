"""Move choices that work on any :class:`~bones.engine.hand.Hand` seen from its mover.

They read only the mover's own tiles and the public layout, so the same
function serves a bot (on an observation's scrubbed layout) and a search
rollout (on a sampled world, where it is fast because nothing is copied in
the common case).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bones.engine.bounds import BELOW_ANY_SCORE
from bones.engine.moves import ARM_MASK, ARM_SHIFT, DRAW, PASS, TILE_SHIFT

if TYPE_CHECKING:  # any hand: the Python one, a copy, a native hand's view
    from bones.engine.hand import Hand
    from bones.engine.rules import Rules


def points_if(hand: Hand, move: int) -> int:
    """The points the mover would score by ``move`` (``hand`` is unchanged).

    The count after the move is worked out from the incremental count for
    every placement except a double that becomes a spinner; that one, and
    matching-ends scoring, are played on a copy.  Tests compare the two on
    every move of many games of every built-in variant.
    """
    if move < 0:
        return 0
    rules = hand.rules
    if not rules.scores_plays:
        return 0
    count = _count_after(hand, move) if rules.header_points is None else -1
    if count < 0:
        trial = hand.copy()
        trial.apply(move)
        return trial.last_points
    table = rules.count_points
    points = table[count] if count < len(table) else rules.points(count)
    # the get-in and lead rules as the hand decides them
    worth = hand.play_worth(hand.turn, points, not hand.placed)
    return (worth or 0) + hand.knock_points()


def _count_after(hand: Hand, move: int) -> int:
    """The layout's count after ``move``, or -1 where only playing it tells."""
    rules = hand.rules
    ts = rules.tiles
    tile = move >> TILE_SHIFT
    double = ts.is_double[tile]
    if not hand.placed:
        if not double:
            return ts.pips[tile]
        return rules.lead_double_mult[0] * ts.low[tile]
    arm = (move >> ARM_SHIFT) & ARM_MASK
    pip = hand.arm_open[arm]
    count = hand.count
    hub = hand.arm_hub[arm]
    if hub >= 0:
        vals = hand.hub_vals[hub]
        k = hand.hub_k[hub]
        count += vals[k + 1] - vals[k]
    else:
        count -= hand.arm_end[arm] * hand.arm_weight[arm]
    if not double or hand.arm_stub[arm]:
        return count + ts.other_half[tile][pip]
    if rules.spins_later[hand.first_double_seen]:
        return -1  # becomes a spinner
    return count + pip * rules.double_weight


def greedy_move(hand: Hand, legal: list[int] | None = None) -> int:
    """Most points now; ties to the heaviest tile, then a double; never a
    voluntary draw or pass while a tile can be played."""
    if legal is None:
        legal = hand.legal_moves()
    if len(legal) == 1:
        return legal[0]
    ts = hand.rules.tiles
    pips = ts.pips
    doubles = ts.is_double
    best = -1
    best_key = (BELOW_ANY_SCORE, 0, 0)
    for move in legal:
        if move < 0:
            continue
        tile = move >> TILE_SHIFT
        key = (points_if(hand, move), pips[tile], doubles[tile])
        if key > best_key:
            best_key, best = key, move
    if best >= 0:
        return best
    return DRAW if DRAW in legal else PASS


def margin(rules: Rules, now: Sequence[int], base: Sequence[int], me: int) -> int:
    """Side ``me``'s points since the scores ``base`` less the best other
    side's: what the searches maximise on the points objective.  In a
    penalty match (``match.kind: penalty``, Kozel) and a train layout's
    rounds (``Rules.lowest_wins``) a side's points count against it, so
    every side's are negated.  Both cores judge by it
    (``native/src/bots/mod.rs``'s ``margin``)."""
    sign = -1 if rules.lowest_wins else 1
    gains = [sign * (a - b) for a, b in zip(now, base, strict=True)]
    mine = gains[me]
    gains[me] = BELOW_ANY_SCORE
    return mine - max(gains)


__all__ = ["greedy_move", "margin", "points_if"]
