"""Inference: how likely a sampled world makes the plays the other seats
were seen to make (the Python reference of ``native/src/bots/infer.rs``, the same
numbers to the last bit).

The model of how a seat plays is a softmax, at temperature ``tau``, of the
``heuristic`` bot's values of its legal moves (the values the bot
maximises, without its pruning, the opponent's proven voids left out of its
reply estimate), at each of the other seats' plays, replayed from the hand's
start.  Passes and draws are not judged: a pass without a draw is forced and
says no more than the void bounds the sampler honours already.  A train
layout's plays are not weighed (every world weighs 1): the model is the line
heuristic's, whose replay of the history on a line hand does not play a
train round.

While nobody has drawn, a world's hands at the start of the hand are its
hands now with the tiles each seat has played put back, and every choice is
judged.  Once the history holds draws (``draws``; without it every world
weighs 1 then), the tiles drawn are unknown, but a seat's hand at any time
after its own last draw is exact: its hand now and the tiles it played
since.  So the replay judges only the choices made after the mover's last
draw (every choice of a seat that never drew), whatever the others drew, and
starts from a start of the hand consistent with the world
(:func:`drawn_tiles`): each draw is given one tile of the drawer's own, held
now or played after it, and the replay's boneyard draws exactly those, then
the world's.  A replay that turns out inconsistent (a judged play not legal,
the turn not the history's) stops judging there.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from bones.bots.basic import _REPLY, _Judge, _reply_estimate
from bones.engine.hand import DRAW, PLAYING, Hand
from bones.engine.moves import TILE_SHIFT

#: Whether ``search``'s inference judges the plays made after draws
#: (``idraw``), and the tree's and ``epimc``'s inference alike: level in
#: strength, and never less informed (bench/results/strength-34-9.md).
DEFAULT_DRAWS = True
#: The least effective share of a pool of weighed worlds (the tree's, with
#: ``search``'s ``tinfer``): its weights ``exp(log_likelihood)`` are tempered
#: (:func:`tempered`) until their effective sample size ``(Σw)² / Σw²`` is at
#: least this share of the pool, so the tree never searches a handful of
#: worlds (bench/results/strength-34-11.md).
POOL_ESS = 0.25
#: The halvings of :func:`tempered`'s search for its exponent (a fixed
#: count: both cores find the same exponent to the last bit).
TEMPER_STEPS = 16

#: The fewest of a tree's iterations for each world of its pool: a tree of
#: ``iterations`` pools at most ``iterations // POOL_DRAWS`` worlds
#: (:func:`pool_size`), so a small budget (``search:iterations=5``) weighs a
#: few worlds, not the default's thousand; the default tree (3,960
#: iterations, ``tworlds=1000``) keeps its whole pool.
POOL_DRAWS = 3
#: With a time budget (``search:seconds``), the most of it a tree spends
#: dealing and weighing its pool (at least one world; it grows in the rest):
#: the default pool of a thousand worlds would otherwise outlast a short
#: budget many times over (2.4 s for ``seconds=0.001`` in the Python core).
POOL_SHARE = 0.5


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


def open_at_draws(world: Hand, history: Sequence[tuple[int, int, int]]) -> list[int]:
    """The tiles that fit the layout's open ends at each draw of
    ``history``, in order: the history's plays laid on a scratch hand whose
    every seat holds every tile (the layout depends on the plays alone)."""
    rules = world.rules
    full = rules.tiles.full
    h = Hand(rules, [full] * rules.players, [], world.leader, [0] * rules.owners,
             number=world.number)
    out: list[int] = []
    for s, move, _ in history:
        if move == DRAW:
            out.append(h.open_mask)
        elif move >= 0:
            h.turn = s
            h.apply(move)
    return out


def drawn_tiles(world: Hand, history: Sequence[tuple[int, int, int]]) -> list[int] | None:
    """A tile for each draw of ``history`` (in order) that makes a start of
    the hand consistent with ``world``: each draw by a seat takes one of that
    seat's tiles held now or played after the draw (so every play finds its
    tile in hand).  A forced draw (the drawer keeps the turn) must find no
    tile of the drawer's fitting the ends, a voluntary one (the turn passes,
    under ``draw_while_able``) some.  The draws are given their tiles from
    the last to the first: of the drawer's tiles still free, those fitting
    the ends at this draw if it is forced; else, leaving out the last free
    tile fitting the ends of a voluntary draw (this one or an earlier one)
    if others are free, those fitting the ends at its latest earlier forced
    draw where some fit (they must be drawn here at the latest, not held
    before), else any; among them the one played soonest (held now: last),
    the lowest on ties.  So a forced draw immediately followed by the
    drawer's play gets the tile played.  None when some draw finds no tile
    (the world's counts disagree with the history)."""
    rules = world.rules
    opens = open_at_draws(world, history)
    n = len(history)
    free = list(world.hands[:rules.players])
    due = [n] * rules.tiles.size
    # each seat's draws: the ends' tiles at each forced one (0: voluntary),
    # and at each voluntary one (0: forced)
    ends: list[list[int]] = [[] for _ in free]
    able: list[list[int]] = [[] for _ in free]
    forced: list[bool] = []
    for i, (s, move, _) in enumerate(history):
        if move == DRAW:
            keeps = (history[i + 1][0] if i + 1 < n else world.turn) == s
            ends[s].append(opens[len(forced)] if keeps else 0)
            able[s].append(0 if keeps else opens[len(forced)])
            forced.append(keeps)
    k = len(forced)
    drawn = [0] * k
    for i in range(n - 1, -1, -1):
        s, move, _ = history[i]
        if move >= 0:
            tile = move >> TILE_SHIFT
            free[s] |= 1 << tile
            due[tile] = i
            continue
        if move != DRAW:
            continue
        k -= 1
        mine = ends[s]
        here = mine.pop()
        able[s].pop()
        cands = free[s]
        if not cands:
            return None
        pick = cands & here
        if not pick:
            # the last free tile fitting the ends of an earlier voluntary
            # draw (or this one) stays in hand, if others are free
            keep = 0
            for fits in (*able[s], 0 if forced[k] else opens[k]):
                last = cands & fits
                if last and not last & (last - 1):
                    keep |= last
            if cands & ~keep:
                cands &= ~keep
            j = len(mine)
            while not pick and j:
                j -= 1
                pick = cands & mine[j]
            if not pick:
                pick = cands
        best = -1
        while pick:
            low = pick & -pick
            t = low.bit_length() - 1
            if best < 0 or due[t] < due[best]:
                best = t
            pick ^= low
        free[s] &= ~(1 << best)
        drawn[k] = best
    return drawn


def last_draws(players: int, history: Sequence[tuple[int, int, int]]) -> list[int]:
    """The index in ``history`` of each seat's last draw (-1: none)."""
    last = [-1] * players
    for i, (s, move, _) in enumerate(history):
        if move == DRAW:
            last[s] = i
    return last


def replay_start(world: Hand, history: Sequence[tuple[int, int, int]]) -> Hand | None:
    """The hand at the start of ``history`` (``(seat, move, points)`` of
    every move of the hand so far) that ``world`` implies: its hands with the
    tiles played put back and the tiles drawn (:func:`drawn_tiles`) taken
    out, its boneyard drawing those first, its scores less the points
    scored.  None when the history holds a seat beyond the table or the
    draws cannot be given tiles."""
    rules = world.rules
    players = rules.players
    if any(s >= players for s, _, _ in history):
        return None
    hands = list(world.hands[:players])
    scores = list(world.scores)
    for s, move, points in history:
        if move >= 0:
            hands[s] |= 1 << (move >> TILE_SHIFT)
        scores[rules.owner[s]] -= points
    boneyard = list(world.boneyard)
    if any(move == DRAW for _, move, _ in history):
        got = drawn_tiles(world, history)
        if got is None or len(got) != world.bone_pos:
            return None
        boneyard[:len(got)] = got
        for (s, _, _), t in zip((e for e in history if e[1] == DRAW), got, strict=True):
            hands[s] &= ~(1 << t)
    h = Hand(rules, hands, boneyard, world.leader, scores, world.lead_tile,
             world.lead_doubles_only, world.out_of_play, number=world.number)
    h.bone_end = world.bone_end
    return h


def other_choices(world: Hand, seat: int, history: Sequence[tuple[int, int, int]],
                  draws: bool = DEFAULT_DRAWS) -> Iterator[tuple[int, list[float]]]:
    """Each choice the seats other than ``seat`` made in ``history`` (``(seat,
    move, points)`` of every move of the hand so far), replayed in ``world``
    from the hand's start (:func:`replay_start`): the index of the move
    played among the legal ones and the heuristic's values of those
    (:func:`heuristic_values`).  Nothing when the history holds a seat
    beyond the table, or a draw without ``draws``; with it, the choices made
    after the mover's last draw."""
    rules = world.rules
    if any(s >= rules.players for s, _, _ in history):
        return
    last = last_draws(rules.players, history)
    if max(last, default=-1) >= 0 and not draws:
        return
    h = replay_start(world, history)
    if h is None:
        return
    full = rules.tiles.full
    for i, (s, move, _) in enumerate(history):
        if h.state != PLAYING or h.turn != s:
            break
        if s != seat and move >= 0 and i > last[s]:
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
                   tau: float, draws: bool = DEFAULT_DRAWS) -> float:
    """The log-likelihood of the other seats' plays of ``history`` (``(seat,
    move, points)`` of every move of the hand so far) in ``world``, for the
    observer ``seat``, each a softmax of the heuristic's values at
    temperature ``tau`` (:func:`other_choices`; ``draws``: past the first
    draw); 0 on a train layout."""
    if tau <= 0 or world.rules.trains is not None:
        return 0.0
    ll = 0.0
    for at, values in other_choices(world, seat, history, draws):
        top = max(values)
        total = 0.0
        for v in values:
            total += math.exp((v - top) / tau)
        ll += (values[at] - top) / tau - math.log(total)
    return ll


def pool_ess(lls: Sequence[float], lam: float = 1.0) -> float:
    """The effective sample size ``(Σw)² / Σw²`` of the weights
    ``w = exp(lam * (ll - max))`` of the log-likelihoods ``lls``."""
    top = max(lls)
    total = squares = 0.0
    for ll in lls:
        w = math.exp(lam * (ll - top))
        total += w
        squares += w * w
    return total * total / squares


def tempered(lls: Sequence[float], floor: float = POOL_ESS) -> float:
    """The exponent ``lam`` in [0, 1] that tempers a pool's weights
    ``exp(lam * ll)`` (``lls``: the worlds' log-likelihoods): 1 where their
    effective sample size is already at least ``floor`` times the pool's
    size, else the largest ``lam`` with that size found by
    :data:`TEMPER_STEPS` halvings of [0, 1] (the size grows as ``lam``
    shrinks, to the whole pool at 0).  The same sums in the same order as
    native/src/bots/infer.rs's ``tempered``: the same exponent to the last
    bit."""
    top = max(lls)
    need = floor * len(lls)

    def enough(lam: float) -> bool:
        total = squares = 0.0
        for ll in lls:
            w = math.exp(lam * (ll - top))
            total += w
            squares += w * w
        return total * total >= need * squares

    if enough(1.0):
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(TEMPER_STEPS):
        mid = 0.5 * (lo + hi)
        if enough(mid):
            lo = mid
        else:
            hi = mid
    return lo


def pool_size(worlds: int, iterations: int) -> int:
    """The worlds a tree of ``iterations`` pools for its inference: ``worlds``,
    at most one for every :data:`POOL_DRAWS` of its iterations, at least one."""
    return max(1, min(worlds, iterations // POOL_DRAWS))


__all__ = ["DEFAULT_DRAWS", "POOL_DRAWS", "POOL_ESS", "POOL_SHARE", "TEMPER_STEPS", "drawn_tiles",
           "heuristic_values", "last_draws", "log_likelihood", "open_at_draws", "other_choices",
           "pool_ess", "pool_size", "replay_start", "tempered"]
