"""The one-move bots: random, greedy and heuristic."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from bones.bots.info import BotInfo, named
from bones.bots.policies import greedy_move, points_if
from bones.engine.moves import ARM_MASK, ARM_SHIFT, DRAW, FOOT_ARM, HUB_ARM, PASS, TILE_SHIFT, Outcome
from bones.engine.settle import AMOUNT_FLAT, SETTLE_NOBODY, Seats, Settle, decide

if TYPE_CHECKING:  # the bots play the hand they are given (a run on the native core builds none)
    from bones.engine.hand import Hand
    from bones.engine.rng import Rng
    from bones.engine.rules import Rules
    from bones.engine.trains import TrainHand
    from bones.seat.observation import Observation


class RandomBot:
    """Any legal move, uniformly."""

    def __init__(self) -> None:
        self.name = named("random", (), {})

    def choose(self, obs: Observation, rng: Rng) -> int:
        return self.decide(obs.layout, obs.legal_moves(), rng)

    def decide(self, hand: Hand, legal: list[int], rng: Rng) -> int:
        """The move, from the legal moves alone (docs/random.md)."""
        return legal[0] if len(legal) == 1 else legal[rng.below(len(legal))]


class GreedyBot:
    """Most points now; ties to the heaviest tile, then doubles first."""

    draws = False  # never draws from its generator

    def __init__(self) -> None:
        self.name = named("greedy", (), {})

    def choose(self, obs: Observation, rng: Rng) -> int:
        return greedy_move(obs.layout, obs.legal_moves())

    def decide(self, hand: Hand, legal: list[int], rng: Rng) -> int:
        """The move, reading only the mover's tiles and the layout of ``hand``."""
        return greedy_move(hand, legal)


# Weights of the heuristic's terms (points are the unit), chosen by matches
# against greedy (see docs/simulate.md).
_REPLY = 0.7  # what the next opponent is expected to score on the ends left
_VARIETY = 1.5  # per distinct number kept in hand
_SHED = 0.25  # per pip shed while the hand is far from its end
_SHED_LATE = 1.0  # per pip shed when someone may go out soon
_DRAW_COST = 2.0  # a voluntary draw gives up the turn's tempo
# the share of a finish's bonuses (capicúa, a last tile, a bonus by hand) that
# a last tile left fitting the ends keeps when other seats can still play
# before the mover's next turn (a capicúa set up; issue 31)
_READY = 0.25


class _Judge:
    """What the heuristic weighs a move of ``hand.turn`` with: how much a pip
    shed is worth now, the unseen tiles' average pips, the chance that the
    next opponent holds a given unseen tile, and, when nothing can be drawn,
    what the ends a play leaves earn (passes forced, a lock, a capicúa set
    up).  The heuristic's move and the search's inference
    (:func:`bones.bots.infer.heuristic_values`) value moves through this one
    judge."""

    __slots__ = ("avg_pips", "counts", "ends", "hand", "p_hold", "seat", "shed", "unseen")

    def __init__(self, hand: Hand, unseen: int, counts: Sequence[int], drawable: int) -> None:
        rules = hand.rules
        seat = hand.turn
        opponent = rules.opponent_after[seat]
        n_unseen = unseen.bit_count()
        self.hand = hand
        self.seat = seat
        self.counts = counts
        self.p_hold = min(1.0, counts[opponent] / n_unseen) if n_unseen else 0.0
        others_min = min((c for s, c in enumerate(counts)
                          if s != seat and rules.owner[s] != rules.owner[seat]), default=0)
        late = drawable == 0 and (others_min <= 2 or counts[seat] <= 3)
        self.shed = (_SHED_LATE if late else _SHED) * pip_worth(rules, rules.settle_domino)
        self.avg_pips = rules.tiles.pips_of(unseen) / n_unseen if n_unseen else 0.0
        self.unseen = unseen
        # nothing can be drawn: who can follow the ends a play leaves is
        # decided by the tiles in the hands alone (``ends_pay``: and the
        # rules pay for what follows, compiled once in bones.lang.compile)
        self.ends = (drawable == 0 or not rules.max_draws) and rules.ends_pay

    def play(self, move: int) -> tuple[float, bool]:
        """A play's value before the next opponent's reply, and whether the
        mover keeps tiles after it (else it goes out: no reply to fear)."""
        hand, rules = self.hand, self.hand.rules
        ts = rules.tiles
        tile = move >> TILE_SHIFT
        points = points_if(hand, move)
        left = hand.hands[self.seat] & ~(1 << tile)
        value = points + self.shed * ts.pips[tile]
        if not left:
            # going out: the settlement is roughly the opponents' pips, and
            # the bonuses of going out with this tile are certain
            value += settled(rules, rules.settle_domino, self.avg_pips * sum(
                c for s, c in enumerate(self.counts) if rules.owner[s] != rules.owner[self.seat]))
            bonus = finish_bonus(hand, self.seat, tile)
            if bonus:
                value += bonus
            return value, False
        variety = 0
        for matching in ts.matching:
            if left & matching:
                variety += 1
        value += _VARIETY * variety
        if self.ends:
            value += self.after(move, left)
        return value, True

    def after(self, move: int, left: int) -> float:
        """What the ends ``move`` leaves earn when nothing can be drawn, the
        mover keeping ``left``: with the chance that no other seat holds a
        tile fitting them (the seats' tiles dealt at random from the unseen
        ones, hypergeometrically), a lock when the mover cannot follow either
        (nobody can play: :meth:`lock`), else every other player passes (the
        round pass, and a last tile that fits goes out next with its
        bonuses; with the chance that some seat can follow, that last tile
        keeps ``_READY`` of its finish's bonuses: a capicúa set up); with
        the chance that the next player holds none (and, when the mover
        cannot follow, somebody else can), the pass on the opening tile.
        Under ``stuck: block`` the next player who cannot play blocks the
        hand, and nobody passes."""
        hand, rules = self.hand, self.hand.rules
        after = hand.copy()  # only its layout is read
        after.apply(move)
        fits = after.open_mask
        n = self.unseen.bit_count()
        f = (self.unseen & fits).bit_count()
        seat, counts = self.seat, self.counts
        if rules.stuck_blocks:
            p_next = none_held(n, f, counts[next_holding(rules, counts, seat)])
            return p_next * self.lock(fits, left) if p_next else 0.0
        p_all = none_held(n, f, sum(counts) - counts[seat])
        follows = bool(left & fits)
        gain = 0.0
        if p_all and not follows:
            gain += p_all * self.lock(fits, left)
        if not hand.placed:
            tile = move >> TILE_SHIFT
            opening = (rules.opening_pass_double if rules.is_double[tile]
                       else rules.opening_pass_other)
            if opening:
                p_pass = none_held(n, f, counts[rules.next_seat[seat]])
                if not follows:
                    p_pass -= p_all  # nobody can play: a lock, not a pass
                gain += p_pass * opening
        if p_all and follows and all(c for s, c in enumerate(counts) if s != seat):
            # (a seat already out, under partners_both_out, never passes)
            points = rules.round_pass
            if not left & (left - 1):
                # one tile left, and it fits: it goes out at the next turn
                points += finish_bonus(after, seat, left.bit_length() - 1)
            if points:
                gain += p_all * points
        if follows and not left & (left - 1) and p_all < 1.0:
            # the last tile fits the ends left (a capicúa set up) but some
            # other seat may follow first: a share of the finish's bonuses
            bonus = finish_bonus(after, seat, left.bit_length() - 1)
            if bonus:
                gain += _READY * (1.0 - p_all) * bonus
        return gain

    def lock(self, fits: int, left: int) -> float:
        """A block's worth to the mover's side, by the blocked settlement's
        verdict (:func:`bones.engine.settle.decide`) on the seats' pips: the
        mover's ``left`` exactly, every other seat's its share of the pips
        of the unseen tiles that do not fit the ``fits`` ends (rounded); the
        opponents' pips and the bonuses of a block won when the verdict is
        the mover's side's, its own pips and those bonuses lost when it is
        another side's, 0 when nobody wins."""
        hand, rules = self.hand, self.hand.rules
        ts = rules.tiles
        pool = self.unseen & ~fits
        pool_n = pool.bit_count()
        pool_pips = ts.pips_of(pool)
        seat, owner = self.seat, rules.owner
        me = owner[seat]
        seat_pips = [ts.pips_of(left) if s == seat else share_of(c, pool_pips, pool_n)
                     for s, c in enumerate(self.counts)]
        pips = [0] * rules.owners
        for s, p in enumerate(seat_pips):
            pips[owner[s]] += p
        doubles = [False] * rules.owners  # the others' doubles unknown: none
        doubles[me] = bool(left & ts.doubles)
        verdict = decide(rules.settle_blocked, pips, doubles, me,
                         Seats(tuple(seat_pips), owner, seat))
        if not verdict.winners:
            return 0.0
        bonus = hand.won_bonus(Outcome.BLOCKED)
        rule = rules.settle_blocked
        if me in verdict.winners:
            return settled(rules, rule, sum(pips) - pips[me]) + bonus
        return -(settled(rules, rule, pips[me]) + bonus)

    def draw(self, unseen: int) -> float:
        """The value of drawing: the ends kept as they are, an unknown tile
        added (``unseen``: the tiles the reply may be made with)."""
        hand = self.hand
        mine = hand.hands[self.seat]
        variety = sum(1 for matching in hand.rules.tiles.matching if mine & matching)
        return (_VARIETY * variety - self.shed * self.avg_pips - _DRAW_COST
                - _REPLY * _reply_on(hand, self.seat, unseen, self.p_hold))


def settled(rules: Rules, rule: Settle, pips: float) -> float:
    """What a settlement ``rule`` of ``pips`` pips is worth to the side it
    pays, weighed against the points plays score (issue 34): its flat
    points, or the pips divided by its divisor (its rounding aside).  Where
    no play scores the settlement is all there is to win, and the pips
    themselves judge it (a flat point would weigh less than a number kept
    in hand)."""
    if not rules.scores_plays:
        return pips
    if rule.kind == SETTLE_NOBODY:
        return 0.0
    if rule.amount == AMOUNT_FLAT:
        return float(rule.flat)
    return pips / rule.divisor


def pip_worth(rules: Rules, rule: Settle) -> float:
    """What a pip in hand is worth under ``rule``, as :func:`settled` counts
    it (a flat settlement where plays score: nothing)."""
    if not rules.scores_plays:
        return 1.0
    if rule.amount == AMOUNT_FLAT:
        return 0.0
    return 1.0 / rule.divisor


def finish_bonus(hand: Hand, seat: int, tile: int) -> int:
    """The bonuses ``seat`` earns by going out with ``tile`` on the ends of
    ``hand`` (:meth:`Hand.out_bonus` and the winner's :meth:`Hand.won_bonus`),
    0 when going out does not end the hand (a partner is still in)."""
    if hand.rules.partners_both_out and not hand.mates_out(seat):
        return 0
    return hand.out_bonus(tile) + hand.won_bonus(Outcome.DOMINO)


def none_held(unseen: int, fitting: int, held: int) -> float:
    """The chance that ``held`` tiles dealt at random from ``unseen`` tiles
    include none of ``fitting`` of them (hypergeometric), multiplied out in
    this order (the native core's is the same)."""
    p = 1.0
    for i in range(held):
        free = unseen - fitting - i
        if free <= 0:
            return 0.0
        p *= free / (unseen - i)
    return p


def next_holding(rules: Rules, counts: Sequence[int], seat: int) -> int:
    """The next seat after ``seat`` that holds tiles (one that is out is skipped)."""
    nxt = rules.next_seat[seat]
    while not counts[nxt] and nxt != seat:
        nxt = rules.next_seat[nxt]
    return nxt


def share_of(count: int, pips: int, tiles: int) -> int:
    """The pips of ``count`` tiles at the average of ``tiles`` tiles of
    ``pips`` pips, rounded half up (integers, so both cores agree)."""
    return (2 * count * pips + tiles) // (2 * tiles) if tiles else 0


def heuristic_move(hand: Hand, unseen: int, counts: list[int] | tuple[int, ...],
                   drawable: int, barred: int = 0,
                   legal: list[int] | None = None) -> int:
    """The heuristic's move for ``hand.turn``.

    ``hand`` need only show the mover's tiles and the layout; ``unseen`` is the
    mask of tiles the mover cannot see, ``counts`` the tiles each seat holds,
    ``barred`` the unseen tiles the next opponent is proven not to hold.
    """
    if legal is None:
        legal = hand.legal_moves()
    if len(legal) == 1:
        return legal[0]
    if hand.rules.trains is not None:
        return train_heuristic_move(cast("TrainHand", hand), unseen, counts, drawable, legal)
    judge = _Judge(hand, unseen, counts, drawable)
    best, best_value = -1, float("-inf")
    for move in legal:
        if move < 0:
            continue
        value, keeps = judge.play(move)
        if keeps:
            if value <= best_value:
                continue  # the reply only lowers it: not worth playing out
            value -= _REPLY * _reply_estimate(hand, move, unseen & ~barred, judge.p_hold)
        if value > best_value:
            best, best_value = move, value
    if best < 0:
        return DRAW if DRAW in legal else PASS
    if DRAW in legal and judge.draw(unseen & ~barred) > best_value:
        # drawing keeps the ends as they are and adds an unknown tile
        return DRAW
    return best


def train_heuristic_move(hand: TrainHand, unseen: int, counts: Sequence[int], drawable: int,
                         legal: list[int]) -> int:
    """The heuristic's move on a train layout (``hand`` a
    :class:`~bones.engine.trains.TrainHand`, issue 34).  No play scores
    there and every hand is charged its tiles' values (``trains.values``:
    [0-0] 50 in both built-ins), so a play is worth the charge it sheds
    (more once someone may go out), the numbers it keeps and, a finish, the
    unseen tiles' average charge over the others' tiles.  And by where it
    goes, read from the compiled rules and the layout: who may follow the
    ends it leaves (:func:`_train_ends`: an owed double or the hub binds
    everybody to its number; else each seat's own train, the public ones,
    the marked ones and the open arms, a marker coming off as the rules
    take it off), the next seat's chance to hold nothing that fits (it
    draws, or passes, and is marked) counted for the mover, and the
    mover's own next turn with nothing that fits counted against him.
    The native core (``kernel::trains::heuristic_move``) makes the same
    float operations in the same order."""
    rules = hand.rules
    trains = rules.trains
    values = trains.values
    ts = rules.tiles
    seat = hand.turn
    own = hand.hands[seat]
    n_unseen = unseen.bit_count()
    others_min = min((c for s, c in enumerate(counts)
                      if s != seat and rules.owner[s] != rules.owner[seat]), default=0)
    late = drawable == 0 and (others_min <= 2 or counts[seat] <= 3)
    shed = _SHED_LATE if late else _SHED
    avg = sum(values[t] for t in ts.tiles_of(unseen)) / n_unseen if n_unseen else 0.0
    # a seat with nothing to lay draws a tile (if any is left) and loses the turn
    stuck = _DRAW_COST + (avg if drawable else 0.0)
    nxt = rules.next_seat[seat]
    # the turn passes on after a play (else the mover's next decision judges it)
    passes_on = not (hand.in_first_turn() or trains.many_per_turn or hand.must_cover >= 0
                     or hand.extra)
    best, best_value = -1, float("-inf")
    for move in legal:
        if move < 0:
            continue
        tile = move >> TILE_SHIFT
        left = own & ~(1 << tile)
        value = 0.0 + shed * values[tile]
        if not left:
            others = sum(c for s, c in enumerate(counts) if rules.owner[s] != rules.owner[seat])
            value += avg * others
            bonus = hand.out_bonus(tile) + hand.won_bonus(Outcome.DOMINO)
            if bonus:
                value += bonus
        else:
            variety = 0
            for matching in ts.matching:
                if left & matching:
                    variety += 1
            value += _VARIETY * variety
            # the ends add at most ``stuck``: judged only where that could win
            ends = (_train_ends(hand, move, seat, nxt)
                    if passes_on and value + stuck > best_value else None)
            if ends is not None:
                theirs, mine = ends
                fit = (unseen & theirs).bit_count()
                value += stuck * none_held(n_unseen, fit, counts[nxt])
                if not left & mine:
                    value -= stuck
        if value > best_value:
            best, best_value = move, value
    if best < 0:
        return DRAW if DRAW in legal else PASS
    if DRAW in legal:
        variety = sum(1 for matching in ts.matching if own & matching)
        if _VARIETY * variety - shed * avg - _DRAW_COST > best_value:
            return DRAW
    return best


def _train_ends(hand: TrainHand, move: int, seat: int, nxt: int) -> tuple[int, int] | None:
    """The tiles the next seat ``nxt`` and the mover ``seat`` could lay at
    their next turns after ``move`` (a play that ends the mover's turn), as
    masks: the number of an owed double or of the hub while it binds, else
    the ends of the trains each may play on (``TrainHand.targets`` with the
    play's arm at its new end and the mover's marker as the play leaves
    it).  None when the mover goes on (he covers his own double, lays one
    more tile, or his double spins)."""
    rules = hand.rules
    trains = rules.trains
    ts = rules.tiles
    matching = ts.matching
    tile = move >> TILE_SHIFT
    arm = (move >> ARM_SHIFT) & ARM_MASK
    if arm == HUB_ARM:
        if hand.hub_left > 1:
            return matching[hand.hub_number], matching[hand.hub_number]
        pip = hand.hub_number
    elif arm == FOOT_ARM:
        pip = hand.binding()[1]  # type: ignore[index]
    else:
        pip = hand.arm_open[arm]
    far = ts.other_half[tile][pip]
    # a double laid at an arm's end (not against the hub or as a toe) is owed covers
    double = bool(ts.is_double[tile] and trains.cover and arm < HUB_ARM)
    spins = double and trains.first_spinner and not hand.spun
    if double and not spins:
        if trains.cover_self or trains.one_more_anywhere:
            return None
        if not trains.cover_self_only:
            return matching[far], matching[far]  # the double binds the next players
    owed = hand.binding()
    if owed is not None and not trains.cover_self_only:
        served = arm == FOOT_ARM if owed[0] < 0 else arm == owed[0]
        if not served or owed[2] > 1:
            return matching[owed[1]], matching[owed[1]]
    owner = hand.arm_owner[arm] if arm < len(hand.arm_owner) else -2
    marked = hand.marked
    unmark = trains.seat_trains and (owner == seat or trains.marker_off_anywhere)
    masks = [0, 0]
    for i, who in enumerate((nxt, seat)):
        mask = 0
        if arm >= HUB_ARM or spins:
            mask |= matching[far]  # a new arm (or a spinner's: its sides too)
        own_started = not trains.seat_trains or hand.arm_end[who] >= 0 or arm == who
        for a, o in enumerate(hand.arm_owner):
            end = far if a == arm else hand.arm_open[a]
            if end < 0:
                continue
            if o >= 0 and o != who and not (marked[o] and not (o == seat and unmark)):
                continue
            if o == -1 and trains.public_needs_own and not own_started:
                continue
            mask |= matching[end]
        masks[i] = mask
    return masks[0], masks[1]


def _reply_estimate(hand: Hand, move: int, candidates: int, p_hold: float) -> float:
    """Expected best score of the next player on the ends ``move`` leaves,
    each unseen tile held independently with probability ``p_hold``."""
    if not p_hold or not hand.rules.scores_plays:
        return 0.0
    after = hand.copy()
    after.apply(move)
    if after.state:
        return 0.0
    return _reply_on(after, hand.turn, candidates, p_hold)


def _reply_on(after: Hand, mover: int, candidates: int, p_hold: float) -> float:
    """Expected best score of ``after.turn`` on the ends of ``after``."""
    if not p_hold or not after.rules.scores_plays:
        return 0.0
    if after.turn == mover:  # judging the ends as they are, before a draw
        after = after.copy()
        after.turn = after.rules.opponent_after[mover]
    if after.rules.owner[after.turn] == after.rules.owner[mover]:
        return 0.0  # a partner moves next
    matching = after.rules.tiles.matching
    replies: list[int] = []
    arm = 0
    for pip in after.arm_open:
        if pip >= 0:
            fits = candidates & matching[pip]
            while fits:
                low = fits & -fits
                points = points_if(after, (low.bit_length() - 1) << TILE_SHIFT | arm << ARM_SHIFT)
                if points:
                    replies.append(points)
                fits ^= low
        arm += 1
    if not replies:
        return 0.0
    replies.sort(reverse=True)
    expected, none_higher = 0.0, 1.0
    for points in replies:
        expected += points * p_hold * none_higher
        none_higher *= 1.0 - p_hold
    return expected


def barred_for(obs: Observation, seat: int) -> int:
    """Unseen tiles ``seat`` is proven not to hold (bounds of zero)."""
    barred = 0
    for mask, cap in obs.limits()[seat]:
        if cap == 0:
            barred |= mask
    return barred


class HeuristicBot:
    """Points now, minus what the next opponent may score, plus hand shape."""

    draws = False  # never draws from its generator

    def __init__(self) -> None:
        self.name = named("heuristic", (), {})

    def choose(self, obs: Observation, rng: Rng) -> int:
        legal = obs.legal_moves()
        if len(legal) == 1:
            return legal[0]
        opponent = obs.rules.opponent_after[obs.seat]
        return heuristic_move(obs.layout, obs.unseen, obs.counts, obs.drawable,
                              barred_for(obs, opponent), legal)


INFOS = (
    BotInfo("random", "any legal move, uniformly at random", (), RandomBot),
    BotInfo("greedy",
            "most points now; ties to the heaviest tile, then doubles; never draws by choice",
            (), GreedyBot),
    BotInfo("heuristic",
            "greedy, less what the next opponent could score on the ends left; keeps "
            "numbers varied, sheds heavy tiles late, draws instead of a bad play when allowed; "
            "once nothing can be drawn, values the passes, locks and finishes the rules pay for",
            (), HeuristicBot),
)

__all__ = ["INFOS", "GreedyBot", "HeuristicBot", "RandomBot", "barred_for", "heuristic_move"]
