"""Inference: how likely a sampled world makes the plays the other seats
were seen to make (the Python reference of ``native/src/bots/infer.rs``, the same
numbers to the last bit).

The model of how a seat plays is a softmax, at temperature ``tau``, of the
``heuristic`` bot's values of its legal moves (the values the bot
maximises, without its pruning, the opponent's proven voids left out of its
reply estimate).  A world's hands at the start of the hand are its hands now
with the tiles each seat has played put back, exact while nobody has drawn:
a world is judged only while the history holds no draw (after a draw every
world weighs 1).  Passes without a draw are forced: they say no more than the
void bounds the sampler honours already.  A train layout's plays are not
weighed (every world weighs 1): the model is the line heuristic's, whose
replay of the history on a line hand does not play a train round.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from bones.bots.basic import _REPLY, _Judge, _reply_estimate
from bones.engine.hand import DRAW, PLAYING, Hand
from bones.engine.moves import TILE_SHIFT


def heuristic_values(hand: Hand, unseen: int, counts: Sequence[int], drawable: int,
                     legal: Sequence[int]) -> list[float]:
    """The heuristic's value of every move of ``legal`` for the mover of the
    full-information ``hand`` (a pass: ``-inf``), as the heuristic judges it
    (:class:`bones.bots.basic._Judge`), each play's reply included."""
    judge = _Judge(hand, unseen, counts, drawable)
    out: list[float] = []
    for move in legal:
        if move < 0:
            out.append(judge.draw(unseen) if move == DRAW else -math.inf)
            continue
        value, keeps = judge.play(move)
        if keeps:
            value -= _REPLY * _reply_estimate(hand, move, unseen, judge.p_hold)
        out.append(value)
    return out


def other_choices(world: Hand, seat: int, history: Sequence[tuple[int, int, int]]
                  ) -> Iterator[tuple[int, list[float]]]:
    """Each choice the seats other than ``seat`` made in ``history`` (``(seat,
    move, points)`` of every move of the hand so far), replayed in ``world``
    from the hand's start: the index of the move played among the legal ones
    and the heuristic's values of those (:func:`heuristic_values`).  Nothing
    when the history holds a draw or a seat beyond the table."""
    rules = world.rules
    players = rules.players
    if any(move == DRAW for _, move, _ in history) or any(s >= players for s, _, _ in history):
        return
    hands = list(world.hands[:players])
    scores = list(world.scores)
    for s, move, points in history:
        if move >= 0:
            hands[s] |= 1 << (move >> TILE_SHIFT)
        scores[rules.owner[s]] -= points
    h = Hand(rules, hands, list(world.boneyard), world.leader, scores, world.lead_tile,
             world.lead_doubles_only, world.out_of_play, number=world.number)
    h.bone_end = world.bone_end
    full = rules.tiles.full
    for s, move, _ in history:
        if h.state != PLAYING or h.turn != s:
            break
        if s != seat and move >= 0:
            legal = h.legal_moves()
            played = move & ~1 if not h.placed else move
            if len(legal) > 1:
                if played not in legal:
                    break
                unseen = full & ~(h.hands[s] | h.on_table | h.out_of_play)
                counts = [x.bit_count() for x in h.hands]
                yield legal.index(played), heuristic_values(h, unseen, counts, h.drawable, legal)
        h.apply(move)


def log_likelihood(world: Hand, seat: int, history: Sequence[tuple[int, int, int]],
                   tau: float) -> float:
    """The log-likelihood of the other seats' plays of ``history`` (``(seat,
    move, points)`` of every move of the hand so far) in ``world``, for the
    observer ``seat``, each a softmax of the heuristic's values at
    temperature ``tau``; 0 when the history holds a draw, and on a train
    layout."""
    if tau <= 0 or world.rules.trains is not None:
        return 0.0
    ll = 0.0
    for at, values in other_choices(world, seat, history):
        top = max(values)
        total = 0.0
        for v in values:
            total += math.exp((v - top) / tau)
        ll += (values[at] - top) / tau - math.log(total)
    return ll


__all__ = ["heuristic_values", "log_likelihood", "other_choices"]
