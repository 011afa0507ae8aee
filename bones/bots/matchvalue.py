"""The match objective of the search: what the end of a hand is worth to a
side as its probability of winning the match.

In a game played to a target the same points are worth more or less by the
scores: 10 points that take a side from 240 to 250 win the match, 10 points
at 0-0 barely move it.  :func:`match_table` compiles, once per rule table,
a table of ``P(side wins the match | its score, the best other side's
score)`` at the start of a hand (the best other side: the highest other
score, in a penalty match the lowest), by dynamic programming over whole hands:

* the distribution of a hand's points ``(mine, the best other side's)`` is
  measured by self-play: :data:`HANDS` first hands of matches seeded 0, 1,
  ... played by the full-information heuristic (the search's rollout
  policy) in the Python reference, so both cores get the same table;
* scores are read in cells of ``step`` points (the greatest common divisor
  of the points seen, coarser when the target needs more than
  :data:`MAX_CELLS` cells), a cell's scores as its lowest, and the next
  hand's scores are those plus the hand's points; a side reaching the target wins (at the exact target
  where the variant asks for it, an overshoot scoring nothing), both
  reaching it the higher, and a hand that scores nothing is dealt again;
  in a penalty match (``match.kind: penalty``) a side reaching the target
  loses, both reaching it the lower winning.

The model ignores who leads the next hand, a tied hand's pot and the
"get in" rules between hands; a hand the target ends (``game_over``) is
worth exactly 1 to its winner, 0 to the others, 1/2 each for a drawn
match.  Values are integers in parts of :data:`WIN` so the native search
(native/src/bots/matchvalue.rs) reads the very same numbers.  A variant without
a target (a fixed number of hands) has no table: its search keeps the
points objective.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from bones.bots.basic import heuristic_move
from bones.engine.hand import Hand
from bones.engine.match import Match
from bones.engine.rules import CHECK_EXACT, CHECK_NONE, CHECK_PENALTY, Rules

#: a certain win in the table's units (``matchvalue::WIN`` in Rust)
WIN = 1_000_000
#: first hands of self-play measured for the distribution of a hand's points
HANDS = 300
#: the most score cells a table has on each axis
MAX_CELLS = 64


@dataclass(frozen=True)
class MatchTable:
    """``P(win the match | my score, the best other side's score)``, in
    parts of :data:`WIN`, by cells of ``step`` points."""

    step: int
    cells: int
    values: tuple[int, ...]

    def _cell(self, score: int) -> int:
        return min(max(score, 0) // self.step, self.cells - 1)

    def value(self, scores: list[int], me: int, game_over: bool, winner: int,
              penalty: bool) -> int:
        """The value for side ``me`` of a hand that ended with the match's
        ``scores``, ``game_over`` and ``winner`` (-1: a drawn match), read
        against the best other side's score: the highest, in a ``penalty``
        match (the lowest score wins) the lowest."""
        if game_over:
            return WIN if winner == me else WIN // 2 if winner < 0 else 0
        theirs = best_other(scores, me, penalty)
        return self.values[self._cell(scores[me]) * self.cells + self._cell(theirs)]

    def native(self) -> tuple[int, int, tuple[int, ...]]:
        """The table as the native search takes it."""
        return self.step, self.cells, self.values


def best_other(scores: list[int], me: int, penalty: bool) -> int:
    """The score of the side that threatens side ``me``: the highest other
    score, in a ``penalty`` match (the lowest score wins) the lowest (0
    without another side)."""
    others = [s for o, s in enumerate(scores) if o != me]
    if not others:
        return 0
    return min(others) if penalty else max(others)


def _self_play_points(rules: Rules, hands: int) -> list[tuple[int, int]]:
    """``(a side's points, the best other side's: :func:`best_other`)`` of each side in the
    first hand of ``hands`` matches seeded 0, 1, ..., played with every
    tile in sight by the heuristic."""
    got: list[tuple[int, int]] = []
    for seed in range(hands):
        match = Match(rules, seed=seed)
        hand = match.new_hand()
        assert isinstance(hand, Hand)
        while not hand.state:
            legal = hand.legal_moves()
            if len(legal) == 1:
                hand.apply(legal[0])
                continue
            seat = hand.turn
            unseen = rules.tiles.full & ~(hand.hands[seat] | hand.on_table | hand.out_of_play)
            counts = [h.bit_count() for h in hand.hands]
            hand.apply(heuristic_move(hand, unseen, counts, hand.drawable, 0, legal))
        points = [max(s, 0) for s in hand.scores]
        penalty = rules.check == CHECK_PENALTY
        for o, p in enumerate(points):
            got.append((p, best_other(points, o, penalty)))
    return got


def compile_table(rules: Rules, hands: int = HANDS) -> MatchTable | None:
    """The match table of ``rules`` (None: the variant has no target)."""
    if rules.check == CHECK_NONE or rules.target <= 0 or rules.hands_in_match:
        return None
    target = rules.target
    samples = _self_play_points(rules, hands)
    step = 0
    for x, y in samples:
        step = math.gcd(step, x, y)
    step = max(step, 1, -(-target // MAX_CELLS))
    cells = -(-target // step)  # the cells of the scores below the target
    counts: dict[tuple[int, int], int] = {}
    for sample in samples:
        counts[sample] = counts.get(sample, 0) + 1
    support = [(x, y, n / len(samples)) for (x, y), n in sorted(counts.items())]
    exact = rules.check == CHECK_EXACT
    penalty = rules.check == CHECK_PENALTY
    p = [[0.5] * cells for _ in range(cells)]
    for a in range(cells - 1, -1, -1):
        row = p[a]
        for b in range(cells - 1, -1, -1):
            stay = acc = 0.0
            for x, y, q in support:
                # a cell's scores are read as its lowest
                a2, b2 = a * step + x, b * step + y
                if exact:
                    a2 = a * step if a2 > target else a2
                    b2 = b * step if b2 > target else b2
                mine, theirs = a2 >= target, b2 >= target
                if mine and theirs:
                    v = 1.0 if a2 > b2 else 0.0 if a2 < b2 else 0.5
                    if penalty:
                        v = 1.0 - v
                elif mine:
                    v = 0.0 if penalty else 1.0
                elif theirs:
                    v = 1.0 if penalty else 0.0
                elif a2 // step == a and b2 // step == b:
                    stay += q
                    continue
                else:
                    v = p[a2 // step][b2 // step]
                acc += q * v
            row[b] = acc / (1.0 - stay) if stay < 1.0 else 0.5
    values = tuple(min(WIN, max(0, round(v * WIN))) for r in p for v in r)
    return MatchTable(step, cells, values)


#: compiled tables per rule table (rules kept alive beside their table)
_TABLES: dict[int, tuple[Rules, MatchTable | None]] = {}


def _same_game(a: Rules, b: Rules) -> bool:
    """Whether ``a`` and ``b`` are the same tables (what they were compiled
    from aside: the engine never reads it, and a cached built-in's stand-in
    is another object at each load)."""
    return all(getattr(a, f.name) == getattr(b, f.name) for f in fields(Rules) if f.name != "variant")


def match_table(rules: Rules) -> MatchTable | None:
    """:func:`compile_table` of ``rules``, compiled once per process (and
    once for equal rules compiled again: a record replayed, a variant
    loaded anew, each command of a test run in-process)."""
    got = _TABLES.get(id(rules))
    if got is not None and got[0] is rules:
        return got[1]
    equal = next((kept for kept in _TABLES.values() if _same_game(kept[0], rules)), None)
    table = compile_table(rules) if equal is None else equal[1]
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[id(rules)] = (rules, table)
    return table


def win_probability(total: float, weight: float) -> float:
    """A search's weighted total of match values as a probability."""
    return total / (weight * WIN) if weight else 0.0


__all__ = ["HANDS", "MAX_CELLS", "WIN", "MatchTable", "best_other", "compile_table",
           "match_table", "win_probability"]
