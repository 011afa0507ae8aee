"""Why a move is good or bad, as facts the engine can check on the table.

The analysis (:mod:`bones.games.analysis`) ranks moves by what the search
expects of them; these facts are what a player can see of that on the table
after the move, from the mover's view only (their tiles, the layout, what
the history proves about the others' hands): the points the play scores
now, the best score an unseen tile would then make for the next opponent,
a double of the mover's left with no end of its number, the numbers on the
ends that only the mover still holds (nobody else can follow them: a block
in the making) and those nobody holds, the numbers on the ends the next
opponent is proven not to hold, whether the play goes out, whether the
mover can still follow an end, how many numbers its tiles keep and the
pips it lays down.

No words here: the front ends phrase the facts (:mod:`bones.games.why`), so
`bones analyse`, the ``?`` hint and the browser say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bones.bots.basic import barred_for
from bones.bots.policies import points_if
from bones.engine.moves import ARM_SHIFT, TILE_SHIFT

if TYPE_CHECKING:  # pragma: no cover
    from bones.seat.observation import Observation


@dataclass(frozen=True)
class Reply:
    """The best play an unseen tile makes for the next opponent on the ends
    a move leaves: ``tile`` (named from the half laid on the end: ``5-0``
    for the 0-5 on a 5) scores ``points``."""

    tile: str
    points: int


@dataclass(frozen=True)
class Reasons:
    """What a move does on the table, as the mover sees it."""

    # the points the play scores now (0: a play that scores nothing, a draw, a pass)
    scores: int = 0
    # the layout's count after the play (what the ends add to) where plays
    # score by the count, else None
    count: int | None = None
    # the best score the next opponent could make with a tile the mover
    # cannot see (one the history does not rule out) on the ends left, or None
    reply: Reply | None = None
    # the mover's doubles that an end of their number could take before the
    # play and none can after it (by name)
    stranded: tuple[str, ...] = ()
    # numbers on the ends after the play of which every tile not on the
    # table is the mover's, who holds one: only the mover can follow them
    shut: tuple[int, ...] = ()
    # numbers on the ends after the play the next opponent is proven not to hold
    voids: tuple[int, ...] = ()
    # the play empties the mover's hand
    out: bool = False
    # numbers on the ends after the play of which every tile is on the
    # table: nobody can follow them
    dead: tuple[int, ...] = ()
    # the mover holds a tile for an end after the play (or goes out)
    follows: bool = True
    # how many different numbers the mover's tiles show after the play
    numbers: int = 0
    # the pips laid down (the tile's)
    pips: int = 0


def move_reasons(obs: Observation, move: int) -> Reasons:
    """The facts of ``move`` (a legal move of ``obs.seat``, to move) as the
    seat sees them: :class:`Reasons`."""
    if move < 0:  # a draw or a pass: nothing changes on the table
        ts = obs.rules.tiles
        return Reasons(numbers=sum(1 for matching in ts.matching if obs.hand & matching))
    rules = obs.rules
    ts = rules.tiles
    layout = obs.layout
    seat = obs.seat
    tile = move >> TILE_SHIFT
    scores = points_if(layout, move)
    after = layout.copy()  # the public copy shows the mover's tiles and the layout
    after.apply(move)
    left = obs.hand & ~(1 << tile)
    count = after.count if rules.scores_plays and rules.header_points is None else None
    before_pips = {p for p in layout.arm_open if p >= 0}
    after_pips = sorted({p for p in after.arm_open if p >= 0})
    stranded = tuple(
        ts.names[d] for d in ts.tiles_of(left & ts.doubles)
        if ts.low[d] in before_pips and ts.low[d] not in after_pips)
    unseen = obs.unseen
    shut = tuple(p for p in after_pips if not unseen & ts.matching[p] and left & ts.matching[p])
    dead = tuple(p for p in after_pips
                 if not unseen & ts.matching[p] and not left & ts.matching[p])
    opponent = rules.opponent_after[seat]
    barred = barred_for(obs, opponent)
    voids = tuple(p for p in after_pips if unseen & ts.matching[p]
                  and not unseen & ts.matching[p] & ~barred)
    reply = None
    if not after.state and rules.scores_plays and obs.counts[opponent]:
        reply = _best_reply(after, opponent, unseen & ~barred)
    follows = not left or any(left & ts.matching[p] for p in after_pips)
    numbers = sum(1 for matching in ts.matching if left & matching)
    return Reasons(scores, count, reply, stranded, shut, voids, not left, dead, follows,
                   numbers, ts.pips[tile])


def _best_reply(after: Any, opponent: int, candidates: int) -> Reply | None:
    """The highest-scoring play of one of ``candidates`` by ``opponent`` on
    the ends of ``after`` (the first such in arm and tile order), None when
    none scores."""
    ts = after.rules.tiles
    trial = after.copy()
    trial.turn = opponent
    best: Reply | None = None
    for arm, pip in enumerate(trial.arm_open):
        if pip < 0:
            continue
        fits = candidates & ts.matching[pip]
        while fits:
            low = fits & -fits
            fits ^= low
            t = low.bit_length() - 1
            points = points_if(trial, t << TILE_SHIFT | arm << ARM_SHIFT)
            if points > 0 and (best is None or points > best.points):
                best = Reply(f"{pip}-{ts.other_half[t][pip]}", points)
    return best


def reasons_json(r: Reasons) -> dict[str, Any]:
    """The facts as the analysis's JSON gives them (docs/play.md)."""
    out: dict[str, Any] = {"scores": r.scores}
    if r.count is not None:
        out["count"] = r.count
    if r.reply is not None:
        out["reply"] = {"tile": r.reply.tile, "points": r.reply.points}
    out["stranded"] = list(r.stranded)
    out["shut"] = list(r.shut)
    out["voids"] = list(r.voids)
    out["out"] = r.out
    out["dead"] = list(r.dead)
    out["follows"] = r.follows
    out["numbers"] = r.numbers
    out["pips"] = r.pips
    return out


__all__ = ["Reasons", "Reply", "move_reasons", "reasons_json"]
