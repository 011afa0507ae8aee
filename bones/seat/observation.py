"""What one player may know, and worlds consistent with it.

A bot never sees the real :class:`~bones.engine.hand.Hand`: it gets an
:class:`Observation` (its own tiles, the layout, how many tiles every seat
holds, the boneyard's size, the scores and the public history) and, when it
wants to look ahead, samples complete hands with :func:`sample_world`.

What the history proves: a player who passes, or is forced to draw, holds no
tile matching the open ends at that moment (the engine records this in
``Hand.voids`` as ``(seat, mask, draws_then, log_then)``).  Since then the
player can only have picked up such tiles by drawing, and every such tile it
has played since was one of those draws, so its current hand holds at most
``draws_now - draws_then - played_since`` tiles of ``mask``: none at all when
it has not drawn since.  Every world :func:`sample_world` returns respects
every such bound.

>>> from bones.engine.rng import Rng
>>> from bones.engine.match import Match
>>> from bones.lang.compile import compile_rules
>>> from bones.lang.load import load_variant
>>> hand = Match(compile_rules(load_variant("all-fives")), seed=3).new_hand()
>>> obs = observe(hand, hand.turn)
>>> world = sample_world(obs, Rng(1))
>>> world.hands[obs.seat] == hand.hands[obs.seat]
True
>>> [bin(h).count("1") for h in world.hands] == list(obs.counts)
True
"""

from __future__ import annotations

from typing import NamedTuple

from bones.engine.hand import Hand
from bones.engine.handlike import HandLike
from bones.engine.moves import TILE_SHIFT
from bones.engine.rng import Rng
from bones.engine.rules import Rules

#: Randomised constrained deals tried before the exhaustive search.
_ATTEMPTS = 20
#: The boneyard's index among destinations in the sampler.
_BONEYARD = -1


class NoWorldError(ValueError):
    """No deal of the unseen tiles agrees with the observation."""


class Observation(NamedTuple):
    """One seat's view of a hand (immutable: a named tuple, quick to build).

    ``layout`` is a copy of the hand with every hidden tile scrubbed (other
    hands empty, boneyard entries -1): read its ``arm_open``, ``count``,
    ``open_ends()``, ``placed``... but never apply moves to it; play on a
    world from :func:`sample_world` instead.
    """

    rules: Rules
    seat: int
    hand: int  # own tiles (mask)
    turn: int
    layout: Hand
    counts: tuple[int, ...]  # tiles held by each seat
    drawn: tuple[int, ...]  # tiles each seat has drawn this hand
    drawable: int  # tiles that can still be drawn (reserve excluded)
    boneyard_left: int  # tiles left in the boneyard (reserve included)
    scores: tuple[int, ...]  # per owner (seat, or team when partnered)
    voids: tuple[tuple[int, int, int, int], ...]  # (seat, mask, draws_then, log_then)
    unseen: int  # tiles this seat cannot see: other hands and the boneyard
    out_of_play: int
    # the legal moves, when the caller has them already (else computed)
    legal: tuple[int, ...] | None = None

    @property
    def history(self) -> tuple[tuple[int, int], ...]:
        """The public history: ``(seat, move)`` for every move, in order.

        Built when asked for: most bots never read it, and rebuilding it on
        every move made observing a hand quadratic in its length.
        """
        return tuple((seat, move) for seat, move, _ in self.layout.log)

    def legal_moves(self) -> list[int]:
        """This seat's legal moves (empty when it is not its turn)."""
        if self.turn != self.seat:
            return []
        if self.legal is not None:
            return list(self.legal)
        return self.layout.legal_moves()

    def open_ends(self) -> dict[int, int]:
        return self.layout.open_ends()

    def limits(self) -> list[list[tuple[int, int]]]:
        """Per seat, ``(mask, most tiles of it the seat can hold now)``.

        Only bounds that bind are kept: masks are restricted to unseen tiles
        and a bound at least the seat's tile count is dropped.
        """
        out: list[list[tuple[int, int]]] = [[] for _ in self.counts]
        best: list[dict[int, int]] = [{} for _ in self.counts]
        log = self.layout.log
        for seat, mask, then, at in self.voids:
            if seat == self.seat:
                continue
            # a tile of the mask it has played since must have been drawn
            # since, so it is one fewer that it can hold now
            played = 0
            for s, move, _ in log[at:]:
                if s == seat and move >= 0 and mask >> (move >> TILE_SHIFT) & 1:
                    played += 1
            mask &= self.unseen
            cap = self.drawn[seat] - then - played
            if not mask or cap >= self.counts[seat]:
                continue
            old = best[seat].get(mask)
            if old is None or cap < old:
                best[seat][mask] = cap
        for seat, caps in enumerate(best):
            out[seat] = sorted(caps.items(), key=lambda mc: (mc[1], mc[0]))
        return out


def observe(hand: HandLike, seat: int, legal: list[int] | None = None) -> Observation:
    """``seat``'s view of ``hand``; ``legal``, the legal moves of the seat to
    move if the caller has computed them, saves computing them again."""
    rules = hand.rules
    public = hand.public_copy(seat)
    # the public copy is a Python hand whatever the core: read it, and the
    # live hand only for what it hides (the other seats' tile counts)
    hands = hand.hands
    own = hands[seat]
    counts = tuple(map(int.bit_count, hands))
    unseen = rules.tiles.full & ~(own | public.on_table | public.out_of_play)
    # positional: a named tuple builds fastest so, and bots observe every move
    return Observation(
        rules, seat, own, public.turn, public, counts, tuple(public.drawn), public.drawable,
        public.boneyard_left, tuple(public.scores), tuple(public.voids), unseen,
        public.out_of_play, None if legal is None or public.turn != seat else tuple(legal),
    )


def consistent(obs: Observation, hands: list[int]) -> bool:
    """Whether other seats holding ``hands`` agrees with ``obs``.

    ``hands`` has one mask per seat (``obs.seat``'s own entry is ignored):
    the counts must match, the tiles must be unseen and disjoint, and every
    void bound must hold.
    """
    seen = 0
    for seat, h in enumerate(hands):
        if seat == obs.seat:
            continue
        if h.bit_count() != obs.counts[seat] or h & ~obs.unseen or h & seen:
            return False
        seen |= h
    for seat, caps in enumerate(obs.limits()):
        if seat == obs.seat:
            continue
        for mask, cap in caps:
            if (hands[seat] & mask).bit_count() > cap:
                return False
    return True


def sample_world(obs: Observation, rng: Rng) -> Hand:
    """A complete hand agreeing with ``obs``: the unseen tiles dealt at random.

    Other seats get their known tile counts, the rest goes to the boneyard in
    random order; void bounds are respected.  Raises :class:`NoWorldError`
    only when no consistent deal exists (a corrupt observation).
    """
    hands = deal_unseen(obs, rng)
    world = obs.layout.copy()
    world.hands = hands
    rest = obs.unseen
    for seat, h in enumerate(hands):
        if seat != obs.seat:
            rest &= ~h
    # the boneyard's true order, given only by bench.ceiling_draw's cheat
    # (native/src/bots/world.rs: ``View::stock``): no draw
    stock = getattr(obs, "_stock", None)
    if stock is not None and sorted(stock) == obs.rules.tiles.tiles_of(rest):
        pile = list(stock)
    else:
        pile = obs.rules.tiles.tiles_of(rest)
        rng.shuffle(pile)
    start = len(world.boneyard) - obs.boneyard_left
    world.boneyard[start:] = pile
    return world


def deal_unseen(obs: Observation, rng: Rng) -> list[int]:
    """Masks for every seat (own hand included) consistent with ``obs``."""
    limits = obs.limits()
    others = [s for s in range(len(obs.counts)) if s != obs.seat and obs.counts[s]]
    tiles = obs.rules.tiles.tiles_of(obs.unseen)
    hands = [0] * len(obs.counts)
    hands[obs.seat] = obs.hand
    if not any(limits[s] for s in others):
        # nothing proven: a plain shuffle is an exactly uniform deal
        rng.shuffle(tiles)
        pos = 0
        for s in others:
            n = obs.counts[s]
            for t in tiles[pos:pos + n]:
                hands[s] |= 1 << t
            pos += n
        return hands
    sampler = _Constrained(obs, limits, others, tiles)
    for _ in range(_ATTEMPTS):
        got = sampler.greedy(rng)
        if got is not None:
            for s, h in got.items():
                hands[s] = h
            return hands
    got = sampler.exhaustive(rng)
    if got is None:
        raise NoWorldError("no deal of the unseen tiles agrees with what the history proves")
    for s, h in got.items():
        hands[s] = h
    return hands


class _Constrained:
    """Deals under void bounds: most-constrained tile first, with retries.

    Each tile goes to a destination (a seat or the boneyard) chosen in
    proportion to its free places, which is the uniform deal when nothing is
    constrained; the tiles most seats must refuse are placed first so the
    greedy pass rarely paints itself into a corner.  :meth:`exhaustive` is the
    backtracking search that finds a deal whenever one exists.
    """

    def __init__(self, obs: Observation, limits: list[list[tuple[int, int]]],
                 others: list[int], tiles: list[int]) -> None:
        self.dests = others + [_BONEYARD]
        self.need = [obs.counts[s] for s in others]
        self.need.append(len(tiles) - sum(self.need))
        # per destination: the bounds (mask, cap) that can still bind
        self.caps = [list(limits[s]) for s in others] + [[]]
        self.tiles = tiles
        # how many destinations could ever take each tile (cap 0 excludes)
        self.refusals = {}
        for t in tiles:
            bit = 1 << t
            self.refusals[t] = sum(
                1 for caps in self.caps if any(cap == 0 and mask & bit for mask, cap in caps)
            )

    def _order(self, rng: Rng) -> list[int]:
        keyed = [(-self.refusals[t], rng.next_u64(), t) for t in self.tiles]
        keyed.sort()
        return [t for _, _, t in keyed]

    def greedy(self, rng: Rng) -> dict[int, int] | None:
        need = list(self.need)
        left = [[cap for _, cap in caps] for caps in self.caps]
        got = [0] * len(self.dests)
        for t in self._order(rng):
            bit = 1 << t
            options = []
            weights = 0
            for d, caps in enumerate(self.caps):
                if not need[d]:
                    continue
                if any(mask & bit and left[d][i] == 0 for i, (mask, _) in enumerate(caps)):
                    continue
                options.append(d)
                weights += need[d]
            if not options:
                return None
            pick = rng.below(weights)
            for d in options:
                pick -= need[d]
                if pick < 0:
                    break
            need[d] -= 1
            got[d] |= bit
            for i, (mask, _) in enumerate(self.caps[d]):
                if mask & bit:
                    left[d][i] -= 1
        return {s: got[d] for d, s in enumerate(self.dests) if s != _BONEYARD}

    def exhaustive(self, rng: Rng) -> dict[int, int] | None:
        order = self._order(rng)
        need = list(self.need)
        left = [[cap for _, cap in caps] for caps in self.caps]
        got = [0] * len(self.dests)
        n_dest = len(self.dests)

        def fits(d: int, bit: int) -> bool:
            return bool(need[d]) and not any(
                mask & bit and left[d][i] == 0 for i, (mask, _) in enumerate(self.caps[d])
            )

        def place(i: int) -> bool:
            if i == len(order):
                return True
            bit = 1 << order[i]
            # each destination must still be able to fill its places
            for d in range(n_dest):
                if need[d] and sum(1 for t in order[i:] if fits(d, 1 << t)) < need[d]:
                    return False
            dests = list(range(n_dest))
            rng.shuffle(dests)
            for d in dests:
                if not fits(d, bit):
                    continue
                need[d] -= 1
                got[d] |= bit
                touched = [j for j, (mask, _) in enumerate(self.caps[d]) if mask & bit]
                for j in touched:
                    left[d][j] -= 1
                if place(i + 1):
                    return True
                for j in touched:
                    left[d][j] += 1
                got[d] ^= bit
                need[d] += 1
            return False

        if not place(0):
            return None
        return {s: got[d] for d, s in enumerate(self.dests) if s != _BONEYARD}


__all__ = ["NoWorldError", "Observation", "consistent", "deal_unseen", "observe", "sample_world"]
