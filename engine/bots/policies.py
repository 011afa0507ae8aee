"""Move choices that work on any :class:`~engine.hand.Hand` seen from its mover.

They read only the mover's own tiles and the public layout, so the same
function serves a bot (on an observation's scrubbed layout) and a search
rollout (on a sampled world, where it is fast because nothing is copied in
the common case).
"""

from __future__ import annotations

from engine.hand import DRAW, PASS, Hand


def points_if(hand: Hand, move: int) -> int:
    """The points the mover would score by ``move`` (``hand`` is unchanged).

    Plain plays on a plain arm are computed from the incremental count; doubles,
    hub edges, the lead and matching-ends scoring are played on a copy.
    """
    if move < 0:
        return 0
    rules = hand.rules
    if not rules.scores_plays:
        return 0
    tile = move >> 7
    if hand.placed and rules.header_points is None:
        arm = (move >> 1) & 63
        ts = rules.tiles
        if hand.arm_hub[arm] < 0 and not ts.is_double[tile]:
            far = ts.other_half[tile][hand.arm_open[arm]]
            count = hand.count - hand.arm_end[arm] * hand.arm_weight[arm] + far
            table = rules.count_points
            points = table[count] if count < len(table) else rules.points(count)
            owner = rules.owner[hand.turn]
            if points and not hand.got_in[owner] and points < rules.get_in:
                points = 0
            if hand.passes and rules.knock_bonus:
                points += hand.passes * rules.knock_bonus
            return points
    trial = hand.copy()
    trial.apply(move)
    return trial.last_points


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
    best_key = (-1 << 30, 0, 0)
    for move in legal:
        if move < 0:
            continue
        tile = move >> 7
        key = (points_if(hand, move), pips[tile], doubles[tile])
        if key > best_key:
            best_key, best = key, move
    if best >= 0:
        return best
    return DRAW if DRAW in legal else PASS


__all__ = ["points_if", "greedy_move"]
