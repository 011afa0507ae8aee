"""The one-move bots: random, greedy and heuristic."""

from __future__ import annotations

from bones.bots.info import BotInfo, named
from bones.bots.policies import greedy_move, points_if
from bones.engine.hand import DRAW, PASS, Hand
from bones.engine.moves import ARM_SHIFT, TILE_SHIFT
from bones.engine.rng import Rng
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
    rules = hand.rules
    ts = rules.tiles
    seat = hand.turn
    mine = hand.hands[seat]
    opponent = rules.opponent_after[seat]
    n_unseen = unseen.bit_count()
    p_hold = min(1.0, counts[opponent] / n_unseen) if n_unseen else 0.0
    others_min = min((c for s, c in enumerate(counts)
                      if s != seat and rules.owner[s] != rules.owner[seat]), default=0)
    late = drawable == 0 and (others_min <= 2 or counts[seat] <= 3)
    shed = _SHED_LATE if late else _SHED
    avg_pips = ts.pips_of(unseen) / n_unseen if n_unseen else 0.0
    best, best_value = -1, float("-inf")
    for move in legal:
        if move < 0:
            continue
        tile = move >> TILE_SHIFT
        points = points_if(hand, move)
        left = mine & ~(1 << tile)
        value = points + shed * ts.pips[tile]
        if not left:
            # going out: the settlement is roughly the opponents' pips
            value += avg_pips * sum(c for s, c in enumerate(counts)
                                    if rules.owner[s] != rules.owner[seat])
        else:
            variety = 0
            for matching in ts.matching:
                if left & matching:
                    variety += 1
            value += _VARIETY * variety
            if value <= best_value:
                continue  # the reply only lowers it: not worth playing out
            value -= _REPLY * _reply_estimate(hand, move, unseen & ~barred, p_hold)
        if value > best_value:
            best, best_value = move, value
    if best < 0:
        return DRAW if DRAW in legal else PASS
    if DRAW in legal:
        # drawing keeps the ends as they are and adds an unknown tile
        variety = sum(1 for matching in ts.matching if mine & matching)
        stay = (_VARIETY * variety - shed * avg_pips - _DRAW_COST
                - _REPLY * _reply_on(hand, seat, unseen & ~barred, p_hold))
        if stay > best_value:
            return DRAW
    return best


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
            "numbers varied, sheds heavy tiles late, draws instead of a bad play when allowed",
            (), HeuristicBot),
)

__all__ = ["INFOS", "GreedyBot", "HeuristicBot", "RandomBot", "barred_for", "heuristic_move"]
