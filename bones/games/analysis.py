"""The analysis of a game: how much each decision of a seat cost it, by the search.

For every decision of the analysed seats (a move with a choice; a forced
move is no decision), the position is rebuilt from the record and the seat's
view of it is taken (:func:`bones.seat.observation.observe`): the analysis
sees what the player saw when they moved, never the other hands nor the
boneyard.  The search (:func:`evaluate_moves`) then values every legal move
from that view as the default ``search`` would judge it (over worlds sampled
from the view where it can solve them, by its information-set tree
elsewhere), and the decision's *loss* is the value of the best move less the
value of the move played.

A value is in points: the mover's side's expected points from that moment
to the end of the hand (plays and settlement) less the best opposing side's,
as the search judges it.  Where the match is at stake (a variant with a
target) each move also gets its *match-win probability*: the side's
expected probability of winning the match after the hand, judged by the
search's match objective (``search:value=match``,
:mod:`bones.bots.matchvalue`) in the very same worlds.

One key ranks the moves of a decision (:func:`ranked_by`): the match-win
probability where the match is at stake and the moves change it, the
points otherwise, ties broken by the other.  The best move, the order and
the verdict (a mistake or not, :class:`Decision`) all use it, so the best
move never has the lower figure in the column that ranked.  Each move also
carries the facts of what it does on the table
(:mod:`bones.games.reasons`), which the front ends phrase
(:mod:`bones.games.why`).

Deterministic: each decision draws from its own stream,
``stream(seed, PLAY, hand number, ply, seat, PURPOSE_HINT)`` (docs/random.md),
the stream `bones play` gives its ``?`` hint, so the analysis of a decision
and the hint at that decision value the moves the same at the same budget,
whatever the core and in whatever order the decisions are analysed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from bones.bots.matchvalue import WIN, match_table
from bones.bots.search import SearchBot
from bones.engine.match import Match
from bones.engine.mirror import distinct_moves, mirror_groups
from bones.engine.notation import format_move, parse_move
from bones.engine.rng import PLAY, PURPOSE_HINT, Rng, stream
from bones.engine.rules import CHECK_PENALTY
from bones.games.playmeta import PlayMetaError, read_play
from bones.games.reasons import Reasons, move_reasons, reasons_json
from bones.games.record import RecordError, deal_from_record, legacy_pass, replay
from bones.games.why import because
from bones.seat.observation import Observation, observe

if TYPE_CHECKING:  # pragma: no cover
    from bones.bots.search import SearchBot
    from bones.engine.handlike import HandLike
    from bones.engine.rules import Rules
    from bones.games.record import HandRecord, Record

#: Worlds sampled per decision by default: about 5 ms a decision in the
#: native core, a second in Python.
DEFAULT_BUDGET = 200
#: The fewest and the most worlds per decision.
MIN_BUDGET, MAX_BUDGET = 1, 100_000
#: A decision that loses at least this many points (expected) is a mistake
#: where plays score nothing (block games): elsewhere, the smallest score a
#: play can make (5 in All Fives, 1 in Fives and Threes, 2 in Bergen), about the least a
#: real slip costs and more than the search's noise at the default budget.
MISTAKE = 5.0
#: The floor of the least match-win probability given away that is a
#: mistake where the chance ranks; the threshold itself is what the smallest
#: score is worth at the start of the match (:func:`win_mistake_threshold`).
WIN_MISTAKE = 0.01


class Key(StrEnum):
    """What ranks a decision's moves (:func:`ranked_by`), named as the JSON's
    move field it reads."""

    WIN = "win"  # the match-win probability, then the points
    VALUE = "value"  # the points, then the chance


BY_WIN, BY_VALUE = Key.WIN, Key.VALUE
#: How many of the biggest mistakes the summary lists.
BIGGEST = 5
#: The JSON output's format name and version (docs/play.md describes it).
FORMAT = "bones-analysis"
VERSION = 1


@dataclass(frozen=True)
class MoveValue:
    """One move and what the search expects it to be worth (points).

    A move is one position: the legal moves that lay the same tile on twin
    arms (:mod:`bones.engine.mirror`) lead to the same position up to
    symmetry, so they are one move, valued once; ``move`` and ``notation``
    are one of them, ``same`` the others (code and notation)."""

    move: int  # the move's code
    notation: str
    value: float
    # the side's probability of winning the match after the hand, where the
    # match is at stake (a variant with a target), else None
    win: float | None = None
    # the other legal moves to the same position: (code, notation)
    same: tuple[tuple[int, str], ...] = ()
    # what the move does on the table, as the mover sees it (None: not known,
    # as for a train layout)
    reasons: Reasons | None = None

    def covers(self, move: int) -> bool:
        """Whether ``move`` is this move (it, or one of :attr:`same`)."""
        return move == self.move or any(code == move for code, _ in self.same)

    def as_played(self, move: int, notation: str) -> MoveValue:
        """This move named as ``move`` (one it :meth:`covers`), the others in
        :attr:`same`."""
        if move == self.move:
            return replace(self, notation=notation)
        others = ((self.move, self.notation),) + tuple(o for o in self.same if o[0] != move)
        return replace(self, move=move, notation=notation, same=others)


def evaluate_moves(rules: Rules, observation: Observation, budget: int = DEFAULT_BUDGET,
                   seed: int | Rng = 0) -> list[MoveValue]:
    """The search's value of every move of ``observation``'s seat, in the
    order of ``observation.legal_moves()``: legal moves that are one (the
    same tile on twin arms, :func:`bones.engine.mirror.mirror_groups`) are
    one entry, valued once, the first of them named and the others in
    :attr:`MoveValue.same`; they are never valued against each other.

    ``budget`` is the number of worlds sampled (the search's ``iterations``);
    ``seed`` an integer or the generator to draw from (it is advanced).  The
    value of a move is the seat's side's expected points from now to the end
    of the hand less the best opposing side's.  Where ``search`` would solve
    its worlds it is averaged over the worlds as the inference weights them
    (:func:`bones.bots.search.evaluate_moves` is the same judgement from a
    seed); all moves are judged in the same worlds, so their differences are
    much sharper than the values themselves.  Where ``search`` grows its
    tree instead, the tree judges (:func:`tree_values`).  The native core
    gives exactly the numbers of the Python reference.
    """
    if not MIN_BUDGET <= budget <= MAX_BUDGET:
        raise ValueError(f"the budget must be {MIN_BUDGET} to {MAX_BUDGET} worlds, not {budget}")
    if observation.rules is not rules:
        raise ValueError("the observation is of other rules")
    layout = observation.layout
    groups = mirror_groups(layout, observation.legal_moves())
    if not groups:
        raise ValueError(f"seat {observation.seat} has no move to make")
    legal = [group[0] for group in groups]
    rng = seed if isinstance(seed, Rng) else Rng(seed)
    searcher = SearchBot(iterations=budget)

    def value(group: list[int], v: float) -> MoveValue:
        return MoveValue(group[0], format_move(layout, group[0]), v,
                         same=tuple((m, format_move(layout, m)) for m in group[1:]))

    if searcher.grows_tree(observation):
        values = tree_values(searcher, observation, rng, legal)
        if values is not None:
            return [value(group, v) for group, v in zip(groups, values)]
    # the worlds' totals, weighted by the inference: their weights' sum is
    # what an average divides by
    _, totals, weights = searcher.search(observation, rng, legal)
    scale = weights * searcher.rollouts
    return [value(group, total / scale if scale else 0.0)
            for group, total in zip(groups, totals)]


def tree_values(searcher: SearchBot, observation: Observation, rng: Rng,
                legal: list[int]) -> list[float] | None:
    """Every move's value by the information-set tree ``searcher`` chooses
    with where it cannot solve its worlds, grown with the root's moves in
    turn (:meth:`bones.bots.ismcts.IsmctsBot.search` with ``even``) so that
    every move gets the same share of the iterations: the move's mean
    margin in points over its iterations, the side's points from now to the
    end of the hand less the best other side's, with the later moves chosen
    by the tree (the searcher's by its bound, the others' as the tree makes
    them play) and the rest played out by its policy.  None when
    the budget leaves a move untried (fewer iterations than moves): the
    worlds judge that decision instead.  Draws from ``rng``."""
    tree = searcher.tree_bot(observation.rules)
    _, visits, totals = tree.search(observation, rng, legal, even=True)
    if not all(visits):
        return None
    return [total / n for n, total in zip(visits, totals)]


def win_probabilities(rules: Rules, observation: Observation, budget: int = DEFAULT_BUDGET,
                      seed: int | Rng = 0) -> list[float] | None:
    """The side's expected probability of winning the match after the
    hand for every move of ``observation``'s seat (one entry for moves that
    are one, as :func:`evaluate_moves` lists them), by the search's match objective
    (:mod:`bones.bots.matchvalue`) over ``budget`` worlds drawn from
    ``seed``; None when the variant has no target (nothing but the hand is
    at stake).  From the same seed as :func:`evaluate_moves` it judges the
    same worlds."""

    if match_table(rules) is None:
        return None
    legal = distinct_moves(observation.layout, observation.legal_moves())
    if not legal:
        raise ValueError(f"seat {observation.seat} has no move to make")
    rng = seed if isinstance(seed, Rng) else Rng(seed)
    searcher = SearchBot(iterations=budget, value="match")
    _, totals, weights = searcher.search(observation, rng, legal)
    scale = weights * searcher.rollouts * WIN
    return [total / scale if scale else 0.0 for total in totals]


def hint_rng(seed: int, hand_number: int, ply: int, seat: int) -> Rng:
    """The stream of the decision at ``ply`` moves into hand ``hand_number``
    (from 1): the one `bones play` gives its hint there
    (:func:`bones.games.game.bot_rng` with ``"hint"``; docs/random.md)."""
    return stream(seed, PLAY, hand_number, ply, seat, PURPOSE_HINT)


def judge_decision(rules: Rules, observation: Observation, budget: int,
                   seed: int, hand_number: int) -> list[MoveValue]:
    """Every legal move of ``observation``'s seat valued as `bones analyse`
    and the ``?`` hint value it: :func:`evaluate_moves` and, where the match
    is at stake, :func:`win_probabilities` over the same worlds (the
    decision's stream, :func:`hint_rng`, drawn afresh for each)."""
    ply = len(observation.layout.log)

    def rng() -> Rng:
        return hint_rng(seed, hand_number, ply, observation.seat)

    values = evaluate_moves(rules, observation, budget, rng())
    wins: Sequence[float | None] = (
        win_probabilities(rules, observation, budget, rng()) or [None] * len(values))
    if rules.trains is not None:  # the facts read a line layout's ends
        return [replace(v, win=w) for v, w in zip(values, wins, strict=True)]
    return [replace(v, win=w, reasons=move_reasons(observation, v.move))
            for v, w in zip(values, wins, strict=True)]


def ranked_by(values: Sequence[MoveValue]) -> Key:
    """The key that ranks ``values`` (one decision's moves): :data:`BY_WIN`,
    the match-win probability, where the match is at stake and the moves
    do not all leave the same chance; else :data:`BY_VALUE`, the points."""
    wins = {v.win for v in values}
    return BY_WIN if None not in wins and len(wins) > 1 else BY_VALUE


def rank_key(key: Key) -> Callable[[MoveValue], tuple[float, float]]:
    """The sort key of ``key`` (:func:`ranked_by`): that figure, then the other."""
    if key == BY_WIN:
        return lambda v: (v.win if v.win is not None else 0.0, v.value)
    return lambda v: (v.value, v.win if v.win is not None else 0.0)


def ranked(values: Sequence[MoveValue]) -> list[MoveValue]:
    """``values`` best first by their key (:func:`ranked_by`), in the
    engine's order on a tie."""
    return sorted(values, key=rank_key(ranked_by(values)), reverse=True)


def best_of(values: Sequence[MoveValue]) -> MoveValue:
    """The best of ``values`` by their key (:func:`ranked_by`): the highest
    match-win probability where the match is at stake (then the highest
    value), else the highest value (then the chance); the first such on a
    tie."""
    return max(values, key=rank_key(ranked_by(values)))


# ------------------------------------------------------------- a game


@dataclass(frozen=True)
class Decision:
    """One decision of an analysed seat."""

    hand: int  # from 1
    ply: int  # the move's number in its hand, from 1
    seat: int
    played: MoveValue
    best: MoveValue
    moves: tuple[MoveValue, ...]  # every legal move, in the engine's order
    threshold: float = MISTAKE  # the least loss that is a mistake
    win_threshold: float = WIN_MISTAKE  # the least win_loss that is one (ranked by win)

    @property
    def ranked_by(self) -> Key:
        """The key that ranked this decision's moves (:func:`ranked_by`)."""
        return ranked_by(self.moves)

    @property
    def loss(self) -> float:
        """Expected points given away by not playing the best move (0 when it
        was, or when the move played has more points than the best move
        ranked by the match-win probability)."""
        if self.best_played:
            return 0.0
        return max(0.0, self.best.value - self.played.value)

    @property
    def win_loss(self) -> float | None:
        """The match-win probability given away by not playing the best
        move (0 when it was), None where the match is not at stake."""
        if self.best.win is None or self.played.win is None:
            return None
        if self.best_played:
            return 0.0
        return max(0.0, self.best.win - self.played.win)

    @property
    def best_played(self) -> bool:
        """Whether the move played is the best move (or one with it)."""
        return self.best.covers(self.played.move)

    @property
    def mistake(self) -> bool:
        """A loss by the decision's key of at least its threshold."""
        if self.ranked_by == BY_WIN:
            return (self.win_loss or 0.0) >= self.win_threshold
        return self.loss >= self.threshold

    @property
    def cost(self) -> tuple[float, float]:
        """What the decision gave away, by its key first (the order of
        :meth:`Analysis.biggest`)."""
        if self.ranked_by == BY_WIN:
            return (self.win_loss or 0.0, self.loss)
        return (0.0, self.loss)


def mistake_threshold(rules: Rules) -> float:
    """The least expected loss that is a mistake under ``rules``: the smallest
    score a play can make, or :data:`MISTAKE` where plays score nothing."""
    scores = [p for p in rules.count_points if p > 0]
    if rules.headers and rules.header_points:  # Bergen: the headers score
        scores += [p for p in rules.header_points if p > 0]
    return float(min(scores)) if scores else MISTAKE


def win_mistake_threshold(rules: Rules) -> float:
    """The least match-win probability given away that is a mistake under
    ``rules`` (where moves are ranked by it): what the smallest score
    (:func:`mistake_threshold`) is worth to a side at the start of the match,
    by the search's match table, and at least :data:`WIN_MISTAKE` (2.4
    percentage points in All Fives)."""
    table = match_table(rules)
    if table is None:
        return WIN_MISTAKE
    points = int(mistake_threshold(rules))
    zero = [0] * rules.owners
    ahead = [points] + [0] * (rules.owners - 1)
    penalty = rules.check == CHECK_PENALTY
    worth = (table.value(ahead, 0, False, -1, penalty)
             - table.value(zero, 0, False, -1, penalty)) / WIN
    return max(WIN_MISTAKE, round(worth, 3))


@dataclass
class HandAnalysis:
    number: int
    decisions: list[Decision] = field(default_factory=list)
    end: str | None = None

    def loss(self, seat: int) -> float:
        return sum(d.loss for d in self.decisions if d.seat == seat)


@dataclass
class Analysis:
    """A game's analysis for some seats."""

    variant: str
    players: int
    teams: bool
    seats: list[int]
    seed: int
    budget: int
    threshold: float  # the least loss that is a mistake
    hands: list[HandAnalysis] = field(default_factory=list)
    # the least match-win probability given away that is a mistake (ranked by win)
    win_threshold: float = WIN_MISTAKE

    @property
    def decisions(self) -> list[Decision]:
        return [d for h in self.hands for d in h.decisions]

    def biggest(self, n: int = BIGGEST) -> list[Decision]:
        """The ``n`` costliest mistakes, the costliest first (then in game order)."""
        mistakes = [d for d in self.decisions if d.mistake]
        mistakes.sort(key=lambda d: tuple(-c for c in d.cost))
        return mistakes[:n]

    def loss(self, seat: int) -> float:
        return sum(h.loss(seat) for h in self.hands)

    def win_loss(self, seat: int) -> float:
        """The match-win probability ``seat``'s decisions gave away (0 where
        the match is not at stake)."""
        return sum(d.win_loss or 0.0 for d in self.decisions if d.seat == seat)


def human_seats(record: Record) -> list[int] | None:
    """The seats a `bones play` record or save says people held (None: it
    does not say): the human seats and those a person handed to a bot in
    `bones serve` (``meta.play.handed``), whose moves are the person's until
    then.  A ``handed`` that is not the seats of bots is a
    :class:`bones.games.record.RecordError`."""

    try:
        play = read_play(record.meta, record.players)
    except PlayMetaError as err:  # a record made in code, not read from a file
        raise RecordError(str(err)) from None
    return None if play is None else play.people


def default_seats(record: Record) -> list[int]:
    """The seats analysed by default: the people's (:func:`human_seats`), or
    every seat when the record names none (a game of bots, or a record from
    the library)."""
    humans = human_seats(record)
    return humans if humans else list(range(record.players))


def _walk(record: Record, rules: Rules,
          seats: set[int]) -> Iterator[tuple[int, HandLike, HandRecord, int]]:
    """``(hand number, hand, hand record, index)`` before each move of ``seats``,
    which is made when the loop asks for the next; ``record`` must replay
    (:func:`bones.games.record.replay` it first)."""

    start = record.start_scores if record.start_scores is not None else [0] * rules.owners
    match = Match(rules, seed=record.seed if record.seed is not None else 0, scores=start)
    for number, entry in enumerate(record.hands, 1):
        hand = match.start_hand(deal_from_record(rules, entry.deal, f"hand {number}"))
        claims = entry.claims
        for index, text in enumerate(entry.moves):
            if legacy_pass(hand, entry.moves, index, record.version):
                break  # an older record's pass after the draw that blocked the hand
            if hand.turn in seats:
                yield number, hand, entry, index
            move = parse_move(hand, text)
            hand.play(move, claims[index] if claims is not None else None)
        if hand.over:
            match.finish_hand(hand)
        else:
            match.current = None


def analyse(record: Record, seats: Sequence[int] | None = None, budget: int = DEFAULT_BUDGET,
            seed: int | None = None,
            progress: Callable[[int, int], None] | None = None,
            only_hands: Sequence[int] | None = None) -> Analysis:
    """The analysis of ``record`` (a record or a save) for ``seats`` (default:
    :func:`default_seats`).

    ``seed`` defaults to the record's seed; ``budget`` is the worlds sampled
    per decision.  ``progress(done, total)`` is called after each move of the
    analysed seats.  ``only_hands`` (numbers from 1) analyses those hands
    alone.  A record that does not replay raises
    :class:`bones.games.record.RecordError`; a seat that is not one, a
    ``ValueError``.
    """
    result = replay(record)  # every problem of the record, before any work
    rules = result.rules
    chosen = default_seats(record) if seats is None else sorted(set(seats))
    for seat in chosen:
        if not 0 <= seat < rules.players:
            raise ValueError(f"seat {seat} is not a seat of this game "
                             f"(seats 0 to {rules.players - 1})")
    if not MIN_BUDGET <= budget <= MAX_BUDGET:
        raise ValueError(f"the budget must be {MIN_BUDGET} to {MAX_BUDGET} worlds, not {budget}")
    base = seed if seed is not None else (record.seed if record.seed is not None else 0)
    hands = [h for h in result.hands if only_hands is None or h.number in only_hands]
    out = Analysis(rules.name, rules.players, rules.teams, chosen, base, budget,
                   mistake_threshold(rules), [HandAnalysis(h.number, end=h.end) for h in hands],
                   win_mistake_threshold(rules))
    slot = {h.number: i for i, h in enumerate(out.hands)}
    wanted = set(chosen)
    total = sum(1 for h in hands for m in h.moves if m.seat in wanted)
    done = 0
    for number, hand, entry, index in _walk(record, rules, wanted):
        if number not in slot:
            continue
        decision = _decide(rules, hand, number, entry.moves[index], base, budget,
                           out.threshold, out.win_threshold)
        if decision is not None:
            out.hands[slot[number]].decisions.append(decision)
        done += 1
        if progress is not None:
            progress(done, total)
    return out


def _decide(rules: Rules, hand: HandLike, number: int, text: str, seed: int,
            budget: int, threshold: float, win_threshold: float) -> Decision | None:
    legal = hand.legal_moves()
    if len(legal) < 2:
        return None
    seat = hand.turn
    ply = len(hand.log)
    played_code = parse_move(hand, text)
    obs = observe(hand, seat, legal)
    # the notation as the record has it (the layout's may differ in form)
    values = [replace(v, notation=format_move(hand, v.move),
                      same=tuple((m, format_move(hand, m)) for m, _ in v.same))
              for v in judge_decision(rules, obs, budget, seed, number)]
    played = next(v for v in values if v.covers(played_code))
    played = played.as_played(played_code, format_move(hand, played_code))
    return Decision(number, ply + 1, seat, played, best_of(values), tuple(values), threshold,
                    win_threshold)


# ------------------------------------------------------------- output


def _num(value: float) -> float:
    return round(value, 3) + 0.0  # no -0.0


def _move_json(v: MoveValue) -> dict[str, Any]:
    out: dict[str, Any] = {"move": v.notation, "value": _num(v.value)}
    if v.win is not None:
        out["win"] = _num(v.win)
    if v.same:  # the other legal moves to the same position
        out["same"] = [notation for _, notation in v.same]
    if v.reasons is not None:  # what it does on the table (bones.games.reasons)
        out["reasons"] = reasons_json(v.reasons)
    return out


def decision_json(d: Decision) -> dict[str, Any]:
    out: dict[str, Any] = {
        "hand": d.hand, "ply": d.ply, "seat": d.seat, "played": _move_json(d.played),
        "best": _move_json(d.best), "loss": _num(d.loss), "mistake": d.mistake,
        "moves": [_move_json(v) for v in d.moves],
        # the key that ranked the moves: the move field "win" or "value"
        "ranked_by": str(d.ranked_by)}
    win_loss = d.win_loss
    if win_loss is not None:
        out["win_loss"] = _num(win_loss)
    gap = (d.win_loss or 0.0) * 100 if d.ranked_by == BY_WIN else d.loss
    if not d.best_played and round(gap, 1) > 0 and d.best.reasons is not None:
        # why the best move is better than the move played, in words
        out["why"] = because(d.best, d.played)
    return out


def analysis_json(analysis: Analysis, source: str | None = None) -> dict[str, Any]:
    """The analysis as JSON (the stable ``--json`` output; docs/play.md)."""
    seats = analysis.seats
    return {
        "format": FORMAT,
        "version": VERSION,
        "file": source,
        "variant": analysis.variant,
        "players": analysis.players,
        "teams": analysis.teams,
        "seats": list(seats),
        "seed": analysis.seed,
        "budget": analysis.budget,
        "unit": "points",
        # each move's "win": the match-win probability (variants with a target)
        "match": any(d.played.win is not None for d in analysis.decisions),
        "mistake": analysis.threshold,
        # where moves are ranked by "win": the least "win_loss" that is a mistake
        "win_mistake": analysis.win_threshold,
        "hands": [{
            "number": h.number,
            "end": h.end,
            "loss": {str(s): _num(h.loss(s)) for s in seats},
            "decisions": [decision_json(d) for d in h.decisions],
        } for h in analysis.hands],
        "summary": {
            "decisions": {str(s): sum(1 for d in analysis.decisions if d.seat == s)
                          for s in seats},
            "mistakes": {str(s): sum(1 for d in analysis.decisions if d.seat == s and d.mistake)
                         for s in seats},
            "loss": {str(s): _num(analysis.loss(s)) for s in seats},
            "win_loss": {str(s): _num(analysis.win_loss(s)) for s in seats},
            "biggest": [{k: v for k, v in decision_json(d).items() if k != "moves"}
                        for d in analysis.biggest()],
        },
    }


__all__ = [
    "BIGGEST", "BY_VALUE", "BY_WIN", "DEFAULT_BUDGET", "FORMAT", "MAX_BUDGET", "MIN_BUDGET",
    "MISTAKE", "VERSION", "WIN_MISTAKE", "Analysis", "Decision", "HandAnalysis", "Key",
    "MoveValue",
    "analyse", "analysis_json", "best_of", "decision_json", "default_seats", "evaluate_moves",
    "hint_rng", "human_seats", "judge_decision", "mistake_threshold", "rank_key", "ranked",
    "ranked_by", "win_mistake_threshold", "win_probabilities",
]
