"""Tournaments: what many simulation runs add up to, as plain data.

A tournament plays every seating of every group of bots (2 players: every
pair in both seat orders; 3 or 4 players: every group, each order of the
seats after the first, since rotation covers the cyclic shifts) as separate
simulation runs from one seed, and adds the runs up: a win count per bot, and
for every ordered pair of bots how often the first finished ahead of the
second.  In a duplicate tournament every seating plays the same deals, each
from every rotation, and the report adds each seating's paired statistics.
:class:`Tournament` does the adding; :meth:`Tournament.report` is
the versioned JSON body of ``bones tournament --json``, which the command line
only formats.

>>> from bones.sim.simulation import simulate
>>> t = Tournament.plan("all-fives", ["greedy", "random"], matches=2, seed=3)
>>> [c.lineup for c in t.configs]
[('greedy', 'random')]
>>> for config in t.configs:
...     t.add(config, simulate(config))
>>> body = t.report()
>>> body["format"], [r["games"] for r in body["ranking"]]
('bones-tournament', [2, 2])
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bones.sim.ratings import ratings_report
from bones.sim.simulation import (
    FORMAT_VERSION,
    Layout,
    SimConfig,
    Summary,
    Table,
    duplicate_report,
    make_config,
)
from bones.sim.stats import wilson

TOURNAMENT_FORMAT = "bones-tournament"


class TournamentError(ValueError):
    """A tournament that cannot be played as asked (one line for people)."""


def seatings(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every seating a tournament plays: for each group of ``players`` bots,
    the first bot in seat 0 and every order of the others (seat rotation
    inside a run covers the cyclic shifts).

    >>> seatings(["a", "b", "c"], 2)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    >>> len(seatings(["a", "b", "c", "d"], 3))
    8
    """
    out: list[tuple[str, ...]] = []
    for group in itertools.combinations(bots, players):
        first, rest = group[0], group[1:]
        for order in itertools.permutations(rest):
            out.append((first, *order))
    return out


def _estimate(k: int, n: int) -> dict[str, float]:
    e = wilson(k, n)
    return {"value": round(e.value, 4), "lo": round(e.lo, 4), "hi": round(e.hi, 4)}


@dataclass
class Tournament:
    """The runs of a tournament and their running totals."""

    table: Table
    bots: list[str]
    matches: int
    seed: int
    configs: list[SimConfig]
    wins: dict[str, int] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    ahead: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    summaries: list[Summary] = field(default_factory=list)
    partial: bool = False
    duplicate: bool = False
    # each seating's run as it was added (for the paired statistics)
    runs: list[tuple[SimConfig, Summary]] = field(default_factory=list)

    @classmethod
    def plan(cls, table: Table | str, bots: Sequence[str], matches: int,
             seed: int, duplicate: bool = False) -> Tournament:
        """Check the bots and build one run per seating.

        ``table`` is a :class:`~bones.sim.simulation.Table` (or a variant
        reference, played by its smallest table); ``bots`` are canonical bot
        names (``bones.bots.parse_bots``).  With ``duplicate``, ``matches``
        counts deals, each played from every rotation of a seating.
        """
        if matches < 1:
            raise TournamentError("the number of matches must be at least 1")
        names = list(bots)
        if len(set(names)) != len(names):
            raise TournamentError("each bot may be named once in a tournament")
        if len(names) < 2:
            raise TournamentError("a tournament needs at least two bots")
        if isinstance(table, str):
            table = make_config([table], names[:1], 1, seed).tables[0]
        if len(names) < table.players:
            raise TournamentError(
                f"{table.players} players need at least {table.players} different bots")
        configs = [make_config([table], list(lineup), matches, seed, duplicate=duplicate)
                   for lineup in seatings(names, table.players)]
        return cls(table, names, matches, seed, configs,
                   wins={b: 0 for b in names}, games={b: 0 for b in names},
                   ahead={(a, b): [0, 0] for a in names for b in names if a != b},
                   duplicate=duplicate)

    @property
    def total_matches(self) -> int:
        return sum(c.total_games for c in self.configs)

    def add(self, config: SimConfig, summary: Summary) -> None:
        """Add one seating's run to the totals."""
        self.summaries.append(summary)
        self.runs.append((config, summary))
        index = Layout(config).index
        distinct = config.distinct
        sums = summary.sums
        for d, name in enumerate(distinct):
            self.wins[name] += sums[index[f"0.bot{d}.win"]]
            self.games[name] += summary.n
            for e, other in enumerate(distinct):
                if d != e:
                    cell = self.ahead[(name, other)]
                    cell[0] += sums[index[f"0.ahead{d}.{e}"]]
                    cell[1] += summary.n
        if summary.partial:
            self.partial = True

    def ranking(self) -> list[str]:
        """The bots by win rate, best first (ties in the order given)."""
        return sorted(self.bots,
                      key=lambda b: -(self.wins[b] / self.games[b] if self.games[b] else 0))

    def report(self) -> dict[str, Any]:
        """The versioned result (``run``, the machine-dependent part, is added
        by the caller: see :func:`run_facts`)."""
        names = self.bots
        return {
            "format": TOURNAMENT_FORMAT,
            "version": FORMAT_VERSION,
            "variant": {"name": self.table.variant.name, "ref": self.table.label,
                        "players": self.table.players, "teams": self.table.teams},
            "seed": self.seed,
            "matches_per_seating": self.matches,
            "seatings": [list(c.lineup) for c in self.configs],
            "partial": self.partial,
            "bots": names,
            "matrix": [[None if a == b else {**_estimate(*self.ahead[(a, b)]),
                                             "games": self.ahead[(a, b)][1]}
                        for b in names] for a in names],
            "ranking": [{"bot": b, "games": self.games[b], "wins": self.wins[b],
                         "win_rate": _estimate(self.wins[b], self.games[b])}
                        for b in self.ranking()],
            "ratings": ratings_report(names, self.ahead),
            "duplicate": None if not self.duplicate else {
                "deals_per_seating": self.matches,
                "seatings": [{"seating": list(config.lineup),
                              **(duplicate_report(config, summary) or {})}
                             for config, summary in self.runs],
            },
        }


__all__ = ["TOURNAMENT_FORMAT", "Tournament", "TournamentError", "seatings"]
