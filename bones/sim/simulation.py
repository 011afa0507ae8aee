"""Many games between bots, in batches that merge into one small summary.

Every game gets its own seed from the master seed and its index
(:func:`game_seed`), and bots rotate seats by the game index, so a game's
result does not depend on which batch, process or machine played it.  A
batch returns a :class:`Summary`: integer sums and cross-products of a fixed
vector of per-game quantities plus a few histograms.  Integer sums merge
exactly in any order, which is why the totals are identical for any
``--jobs`` and with or without a Dask scheduler, and memory stays flat
however many games are played.  A duplicate run (``duplicate=True``) plays
every deal from every rotation of the lineup and sums its deals too
(:mod:`bones.sim.duplicate`).

>>> config = make_config(["all-fives"], ["greedy", "random"], games=4, seed=1)
>>> summary = simulate(config)
>>> summary.n, summary.partial
(4, False)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bones._version import __version__
from bones.bots import Bot, make_bot, permit_outside, permitted_outside
from bones.engine import core
from bones.engine.flat import Unsupported
from bones.engine.moves import Outcome
from bones.engine.rng import BOTS, derive, mix, stream
from bones.lang.compile import compile_rules
from bones.sim.duplicate import (
    DealLayout,
    add_game,
    paired_difference,
    paired_report,
    result_key,
    rotations,
    seating,
)
from bones.sim.stats import Moments, histogram_stats

if TYPE_CHECKING:  # the models load only when a variant is read (fast start-up)
    from concurrent.futures import Executor, Future  # only with workers (--jobs > 1)

    from bones.engine.match import Match
    from bones.engine.rules import Rules
    from bones.lang import spec

FORMAT = "bones-simulation"
#: 2: version 1 and ``duplicate`` (null unless the run is a duplicate one)
FORMAT_VERSION = 2
_MASK64 = (1 << 64) - 1
# time histograms: bin = round(TIME_BINS * ln(microseconds)), about 5% wide
TIME_BINS = 20


class SimError(ValueError):
    """A simulation that cannot run as asked (one line for people)."""


# ------------------------------------------------------------------ seeds

#: splitmix64's output function (kept under its old name)
splitmix64 = mix


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (docs/random.md)."""
    return derive(seed, index)


# ----------------------------------------------------------------- config

@dataclass(frozen=True)
class Table:
    """One variant at one table size (``label`` is what the user typed)."""

    label: str
    variant: spec.Variant
    players: int
    teams: bool


@dataclass(frozen=True)
class SimConfig:
    """Everything a worker needs; small and picklable."""

    tables: tuple[Table, ...]  # one, or two for a paired comparison
    lineup: tuple[str, ...]  # canonical bot text per seat before rotation
    games: int  # games; in a duplicate run, deals
    seed: int
    hands_only: bool = False
    key: str = ""  # identifies the compiled rules and bots in a worker's cache
    duplicate: bool = False  # every deal from every rotation of the lineup

    @property
    def players(self) -> int:
        return self.tables[0].players

    @property
    def rotations(self) -> int:
        """Games a deal: the lineup's different rotations in a duplicate
        run, else 1."""
        return rotations(self.lineup) if self.duplicate else 1

    @property
    def total_games(self) -> int:
        """The games the run plays when it is not stopped early."""
        return self.games * self.rotations

    @property
    def distinct(self) -> list[str]:
        """The different bots, in lineup order."""
        return list(dict.fromkeys(self.lineup))


def make_config(variants: list[str] | list[Table], bots: list[str], games: int, seed: int,
                players: int | None = None, teams: bool | None = None,
                hands_only: bool = False, duplicate: bool = False) -> SimConfig:
    """Check and build a run: bots are repeated to fill the seats.  With
    ``duplicate``, ``games`` counts deals, each played from every rotation
    of the lineup (and, with two variants, under both: they must deal
    alike, :func:`bones.engine.match.deal_mismatch`)."""
    tables = []
    for ref in variants:
        if isinstance(ref, Table):
            tables.append(ref)
            continue
        # lazy: the YAML reader and the models load only for a name or a path
        # (a Table from the compiled-variant cache needs neither)
        from bones.lang.load import load_variant

        variant = load_variant(ref)
        rules = compile_rules(variant, players, teams)
        tables.append(Table(ref, variant, rules.players, rules.teams))
    counts = {t.players for t in tables}
    if len(counts) > 1:
        raise SimError("the variants are played by different numbers of players here; "
                       "choose one with --players")
    n_players = tables[0].players
    if not bots:
        raise SimError("no bots given")
    if len(bots) > n_players:
        raise SimError(f"{len(bots)} bots for {n_players} seats")
    made = [make_bot(b) for b in bots]
    for bot in made:
        if getattr(bot, "timed", False):
            raise SimError(f"{bot.name}: time budgets are for interactive play; "
                           "give simulations an iteration budget")
    lineup = tuple(made[s % len(made)].name for s in range(n_players))
    if games < 1:
        raise SimError("the number of games must be at least 1")
    if duplicate:
        _check_duplicate(tables, lineup)
    digest = hashlib.sha1()
    for t in tables:
        digest.update(json.dumps(t.variant.model_dump(mode="json"), sort_keys=True).encode())
        digest.update(f"|{t.players}|{t.teams}|".encode())
    digest.update("|".join(lineup).encode())
    digest.update(b"|duplicate" if duplicate else b"")
    return SimConfig(tuple(tables), lineup, games, seed, hands_only, digest.hexdigest(),
                     duplicate)


def _check_duplicate(tables: list[Table], lineup: tuple[str, ...]) -> None:
    """A duplicate run needs two bots to seat in turn and, comparing two
    variants, deals both can share (one line for people otherwise)."""
    if len(set(lineup)) < 2:
        raise SimError("--duplicate needs at least two different bots "
                       "(one bot in every seat has a single seating)")
    if len(tables) > 1:
        from bones.engine.match import deal_mismatch  # lazy: see _play_game

        a, b = (compile_rules(t.variant, t.players, t.teams) for t in tables[:2])
        why = deal_mismatch(a, b)
        if why:
            raise SimError(f"--duplicate needs the same deals under both variants, and "
                           f"{tables[0].label} and {tables[1].label} cannot share one: {why}")


# ---------------------------------------------------------------- layout

_GLOBAL = ("hands", "moves", "blocked", "leader_win", "tie", "margin")
_SIDE = ("win", "play", "settle", "score")


class Layout:
    """Where each per-game quantity sits in the summary's vector."""

    def __init__(self, config: SimConfig) -> None:
        players = config.players
        distinct = config.distinct
        self.names: list[str] = []
        for t in range(len(config.tables)):
            for g in _GLOBAL:
                self.names.append(f"{t}.{g}")
            for s in range(players):
                for q in _SIDE:
                    self.names.append(f"{t}.seat{s}.{q}")
            for d in range(len(distinct)):
                for q in _SIDE:
                    self.names.append(f"{t}.bot{d}.{q}")
            for a in range(len(distinct)):
                for b in range(len(distinct)):
                    if a != b:
                        self.names.append(f"{t}.ahead{a}.{b}")
        self.index = {name: i for i, name in enumerate(self.names)}
        self.block = len(self.names) // len(config.tables)
        hands = [self.index[f"{t}.hands"] for t in range(len(config.tables))]
        pairs: set[tuple[int, int]] = set()
        for i in range(len(self.names)):
            pairs.add((i, i))
            for h in hands:
                pairs.add((min(i, h), max(i, h)))
            if i < self.block:
                for t in range(1, len(config.tables)):
                    pairs.add((i, i + t * self.block))
        self.pairs = sorted(pairs)
        # per quantity: the (position in pairs, partner) products to add
        self._updates = [(p, i, j) for p, (i, j) in enumerate(self.pairs)]

    def __len__(self) -> int:
        return len(self.names)


# ---------------------------------------------------------------- summary

@dataclass(frozen=True)
class Forfeit:
    """A game that ``bot`` lost by failing (:class:`bones.bots.external.BotForfeit`)."""

    bot: str
    seed: int  # the game's seed
    reason: str

    def __str__(self) -> str:
        return f"{self.bot} lost the game with seed {self.seed}: {self.reason}"



@dataclass
class Summary:
    """Mergeable totals of some games.  Never holds a per-game object (but one
    batch's forfeits, until :func:`simulate` hands them on)."""

    n: int
    sums: list[int]
    pairs: list[int]
    hists: dict[str, dict[int, int]] = field(default_factory=dict)
    # run-varying facts (per bot: time histograms); not part of the totals
    timing: dict[str, dict[int, int]] = field(default_factory=dict)
    partial: bool = False
    # why a partial run stopped, when not by Ctrl-C (one line for people)
    stopped_by: str = ""
    # games lost by a failing bot since :func:`simulate` last handed them on
    forfeits: list[Forfeit] = field(default_factory=list)
    # a duplicate run's deals: how many, the sums of their deal vectors and
    # their pair products (bones.sim.duplicate.DealLayout); empty otherwise
    deals: int = 0
    deal_sums: list[int] = field(default_factory=list)
    deal_pairs: list[int] = field(default_factory=list)

    @classmethod
    def empty(cls, layout: Layout, deal_layout: DealLayout | None = None) -> Summary:
        out = cls(0, [0] * len(layout), [0] * len(layout.pairs))
        if deal_layout is not None:
            out.deal_sums = [0] * len(deal_layout)
            out.deal_pairs = [0] * len(deal_layout.pairs)
        return out

    def merge(self, other: Summary) -> None:
        self.n += other.n
        self.sums = [a + b for a, b in zip(self.sums, other.sums)]
        self.pairs = [a + b for a, b in zip(self.pairs, other.pairs)]
        self.deals += other.deals
        if other.deal_sums:
            self.deal_sums = [a + b for a, b in zip(self.deal_sums or [0] * len(other.deal_sums),
                                                    other.deal_sums)]
            self.deal_pairs = [a + b for a, b in
                               zip(self.deal_pairs or [0] * len(other.deal_pairs),
                                   other.deal_pairs)]
        for target, source in ((self.hists, other.hists), (self.timing, other.timing)):
            for name, hist in source.items():
                mine = target.setdefault(name, {})
                for k, v in hist.items():
                    mine[k] = mine.get(k, 0) + v
        self.partial = self.partial or other.partial
        self.forfeits.extend(other.forfeits)
        self.stopped_by = self.stopped_by or other.stopped_by

    def totals(self) -> dict[str, Any]:
        """What must agree between runs with the same seed (timings left out)."""
        return {"n": self.n, "sums": self.sums, "pairs": self.pairs,
                "hists": {k: dict(sorted(v.items())) for k, v in sorted(self.hists.items())},
                "deals": self.deals, "deal_sums": self.deal_sums, "deal_pairs": self.deal_pairs}

    def moments(self, layout: Layout) -> Moments:
        return Moments(self.n, self.sums, dict(zip(layout.pairs, self.pairs)))

    def deal_moments(self, layout: DealLayout) -> Moments:
        """The deals' sums read as estimates: the deal is the unit."""
        sums = self.deal_sums or [0] * len(layout)
        pairs = self.deal_pairs or [0] * len(layout.pairs)
        return Moments(self.deals, sums, dict(zip(layout.pairs, pairs)))


def _add(hist: dict[int, int], key: int, amount: int = 1) -> None:
    hist[key] = hist.get(key, 0) + amount


# ---------------------------------------------------------------- workers

@dataclass
class _Prepared:
    """What a worker compiles once per run: the rules, the bots, the layout."""

    rules: list[Rules]
    bots: list[Bot]  # one per lineup entry
    layout: Layout
    # per lineup entry: its fast ``decide(hand, legal, rng)`` or None (observes)
    decide: list[Any]
    # per lineup entry: whether it draws from its generator at all
    draws: list[bool]
    # per lineup entry: timed on every decision (expensive) or sampled
    expensive: list[bool]
    # per lineup entry: the clock its decisions are timed by (move_clock)
    clocks: list[Callable[[], float]]
    # per table: the vector slots of its quantities (see _Slots)
    slots: list[_Slots]
    # the native core's runner of whole batches (bones_native.Simulation),
    # built on first use; False when this run cannot be played natively
    native: Any = None
    # a duplicate run's deal vector (None otherwise)
    deal_layout: DealLayout | None = None
    # per lineup entry: the index of its bot among the distinct bots
    which: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class _Slots:
    """Where one table's per-game quantities sit in the summary's vector."""

    hands: int
    moves: int
    blocked: int
    leader_win: int
    tie: int
    margin: int
    seat_win: tuple[int, ...]  # per seat; its play, settle, score follow
    bot_win: tuple[int, ...]  # per distinct bot; likewise
    ahead: dict[tuple[int, int], int]  # (bot a, bot b) -> slot

    @classmethod
    def of(cls, layout: Layout, t: int, players: int, distinct: int) -> _Slots:
        ix = layout.index
        return cls(
            ix[f"{t}.hands"], ix[f"{t}.moves"], ix[f"{t}.blocked"], ix[f"{t}.leader_win"],
            ix[f"{t}.tie"], ix[f"{t}.margin"],
            tuple(ix[f"{t}.seat{s}.win"] for s in range(players)),
            tuple(ix[f"{t}.bot{d}.win"] for d in range(distinct)),
            {(a, b): ix[f"{t}.ahead{a}.{b}"]
             for a in range(distinct) for b in range(distinct) if a != b},
        )


# a side's quantities follow its win slot in this order (see _SIDE)
_PLAY, _SETTLE, _SCORE = 1, 2, 3

_CACHE: dict[str, _Prepared] = {}


def move_clock(bot: Bot) -> Callable[[], float]:
    """The clock ``bot``'s decisions are timed by in ``run.move_time``: an
    expensive bot's in CPU time of the playing thread (its cost on one core,
    whatever else the machine runs), unless it spreads a decision over
    threads of its own (``threads`` > 1), whose CPU time that thread does
    not see: then, as for the fast bots, by the wall clock (what a player
    waits)."""
    if getattr(bot, "expensive", False) and getattr(bot, "threads", 1) <= 1:
        return time.thread_time
    return time.perf_counter


def _prepared(config: SimConfig) -> _Prepared:
    got = _CACHE.get(config.key)
    if got is None:
        rules = [compile_rules(t.variant, t.players, t.teams) for t in config.tables]
        bots = [make_bot(text) for text in config.lineup]
        layout = Layout(config)
        got = _Prepared(
            rules, bots, layout,
            decide=[getattr(b, "decide", None) for b in bots],
            draws=[getattr(b, "draws", True) for b in bots],
            expensive=[getattr(b, "expensive", False) for b in bots],
            clocks=[move_clock(b) for b in bots],
            slots=[_Slots.of(layout, t, config.players, len(config.distinct))
                   for t in range(len(config.tables))],
            deal_layout=deal_layout(config),
            which=[config.distinct.index(text) for text in config.lineup],
        )
        _CACHE.clear()
        _CACHE[config.key] = got
    return got


def deal_layout(config: SimConfig) -> DealLayout | None:
    """The deal vector of a duplicate run (None for a plain one)."""
    if not config.duplicate:
        return None
    return DealLayout(len(config.tables), len(config.distinct))


#: Cheap bots are timed on one decision in this many (the clock costs about
#: as much as a random bot's choice); expensive ones on every decision.
TIME_SAMPLE = 16


def native_module(config: SimConfig) -> Any:
    """The native core's module when it plays this run's batches, else None.

    It does when :func:`bones.engine.core.native` returns the module (see
    ``BONES_CORE``) and it plays every bot of the lineup itself
    (``bones_native.SIM_BOTS``: the built-in ``random``, ``greedy``,
    ``heuristic`` and ``blunder``); anything else (outside bots, ``search``...) runs on the
    Python path, with the same results.
    """
    module = core.native()
    if module is None:
        return None
    capable = getattr(module, "SIM_BOTS", ())
    # a bot's name before its parameters (``blunder:rate=0.4``: the core reads them)
    if not all(text.split(":")[0] in capable for text in config.lineup):
        return None
    return module


def _native_runner(config: SimConfig, prep: _Prepared) -> Any:
    """The ``bones_native.Simulation`` of this run, or None (Python plays)."""
    module = native_module(config)
    if module is None:
        return None
    if prep.native is None:
        distinct = config.distinct
        slots = [{"hands": s.hands, "moves": s.moves, "blocked": s.blocked,
                  "leader_win": s.leader_win, "tie": s.tie, "margin": s.margin,
                  "seat_win": list(s.seat_win), "bot_win": list(s.bot_win),
                  "ahead": [(a, b, at) for (a, b), at in s.ahead.items()]}
                 for s in prep.slots]
        dl = prep.deal_layout
        duplicate = None if dl is None else {
            "rotations": config.rotations, "size": len(dl), "pairs": dl.pairs,
            "slots": [{"decided": decided, "win": list(win), "score": list(score)}
                      for decided, win, score in dl.slots]}
        try:
            prep.native = module.Simulation(
                [core.flat_table(r) for r in prep.rules], list(config.lineup),
                {"which": [distinct.index(text) for text in config.lineup],
                 "distinct": len(distinct), "size": len(prep.layout),
                 "pairs": prep.layout.pairs, "slots": slots, "hands_only": config.hands_only,
                 "duplicate": duplicate})
        except (Unsupported, ValueError) as err:
            prep.native = False  # a table the native core cannot play: Python does
            for rules in prep.rules:
                if rules.trains is not None:
                    # BONES_CORE=native: say why, once (a train layout the
                    # native core refuses, docs/trains.md)
                    core.note_python_only(rules, str(err))
    return prep.native or None


def _native_batch(config: SimConfig, runner: Any, start: int, stop: int) -> Summary:
    """Games ``start`` to ``stop - 1`` played in the native core (the GIL is
    released while it plays).  Its time histograms sample one decision in
    :data:`TIME_SAMPLE` by the wall clock, as the Python path does for
    cheap bots, but time only the bot's choice inside the core."""
    n, sums, pairs, hists, timing, deals = runner.run(config.seed & _MASK64, start, stop)
    distinct = config.distinct
    times = {f"{distinct[d]}|choice": bins for d, bins in enumerate(timing) if bins}
    out = Summary(n, sums, pairs, hists, times)
    if deals is not None:
        out.deals, out.deal_sums, out.deal_pairs = deals
    return out


#: Threads of one process share the prepared run (see :func:`thread_executor`).
_PREPARING = threading.Lock()


def plays_natively(config: SimConfig) -> bool:
    """Whether the native core plays every batch of ``config`` (preparing it
    here, so that threads of this process share it)."""
    with _PREPARING:
        return _native_runner(config, _prepared(config)) is not None


def run_batch(config: SimConfig, start: int, stop: int) -> Summary:
    """Play games ``start`` to ``stop - 1`` (in a duplicate run, deals) and
    sum them up (in the native core when :func:`native_module` says it
    can, else in Python)."""
    with _PREPARING:
        prep = _prepared(config)
        runner = _native_runner(config, prep)
    if runner is not None:
        try:
            return _native_batch(config, runner, start, stop)
        except RuntimeError as err:
            if "no lead found" not in str(err):
                raise
            # the Python path raises the same error, in the engine's words
    if config.duplicate:
        return _duplicate_batch(config, prep, start, stop)
    summary = Summary.empty(prep.layout)
    for g in range(start, stop):
        # seat s of game g holds the lineup's entry (s + g) mod players
        _game(config, prep, game_seed(config.seed, g), g % config.players, summary)
    return summary


def _game(config: SimConfig, prep: _Prepared, seed: int, rot: int,
          summary: Summary) -> list[int]:
    """Play one game (under every table) seeded ``seed`` with the lineup
    rotated by ``rot`` seats, add it to ``summary``; its vector."""
    layout = prep.layout
    players = config.players
    which = prep.which
    seated = [(s + rot) % players for s in range(players)]
    vector = [0] * len(layout)
    for t, rules in enumerate(prep.rules):
        _play_game(config, t, rules, prep, seated, [which[i] for i in seated], seed,
                   vector, summary)
    summary.n += 1
    sums = summary.sums
    for i, v in enumerate(vector):
        if v:
            sums[i] += v
    pairs = summary.pairs
    for p, i, j in layout._updates:
        a = vector[i]
        if a:
            b = vector[j]
            if b:
                pairs[p] += a * b
    return vector


def _duplicate_batch(config: SimConfig, prep: _Prepared, start: int, stop: int) -> Summary:
    """Deals ``start`` to ``stop - 1`` of a duplicate run: deal ``d`` is
    played from each rotation of the lineup, every game a match seeded
    ``game_seed(seed, d)`` with its leads apart (docs/random.md); the games
    are summed as games, and each deal's vector as a deal."""
    dl = prep.deal_layout
    assert dl is not None
    summary = Summary.empty(prep.layout, dl)
    games = config.rotations
    bots = range(len(config.distinct))
    for d in range(start, stop):
        seed = game_seed(config.seed, d)
        deal = [0] * len(dl)
        for rot in range(games):
            vector = _game(config, prep, seed, rot, summary)
            for t, slots in enumerate(prep.slots):
                add_game(deal, dl.slots[t], vector[slots.tie],
                         [vector[slots.bot_win[b]] for b in bots],
                         [vector[slots.bot_win[b] + _SCORE] for b in bots])
        summary.deals += 1
        for i, v in enumerate(deal):
            summary.deal_sums[i] += v
        for p, (i, j) in enumerate(dl.pairs):
            summary.deal_pairs[p] += deal[i] * deal[j]
        for t in range(len(prep.rules)):
            _add(summary.hists.setdefault(f"{t}.deal_results", {}),
                 result_key(deal, dl.slots[t], games))
    return summary


def _play_game(config: SimConfig, t: int, rules: Rules, prep: _Prepared, seated: list[int],
               bot_ids: list[int], seed: int, vector: list[int], summary: Summary) -> None:
    """Play game ``seed`` of table ``t`` (a match, or one hand in hands mode)
    and write its quantities into ``vector``; ``seated[s]`` is the lineup
    entry in seat ``s``."""
    # lazy: the Python path's game: a run the native core plays imports no Python hand
    from bones.bots.external import BotForfeit
    from bones.engine.match import Match  # lazy: as above

    owner = rules.owner
    match = Match(rules, seed=seed, leads_apart=config.duplicate)
    bots = [prep.bots[i] for i in seated]
    play = [0] * rules.players
    settle = [0] * rules.owners
    tally = _Tally()
    # outside bots (bones.bots.external) hear of hand and match ends
    listeners = [b.notify for b in bots if hasattr(b, "notify")]
    forfeit = -1
    try:
        result = _play_hands(config, t, match, prep, seated, seed, summary, listeners,
                             play, settle, tally)
    except BotForfeit as err:
        forfeit = match.current.turn if match.current is not None else 0
        summary.forfeits.append(Forfeit(bots[forfeit].name, seed, str(err)))
        result = [0] * rules.owners if config.hands_only else list(match.scores)
    points = result  # what each side scored (a forfeit changes only the placing)
    if rules.trains is not None:
        # a train layout's scores are penalties: the lowest places first
        result = [-r for r in result]
    if forfeit >= 0:
        # the side of the bot that failed loses the game, placed below all
        loser = owner[forfeit]
        standing = list(result)
        standing[loser] = min(result) - 1
        others = [o for o in range(rules.owners) if o != loser]
        top = max(standing[o] for o in others)
        leaders = [o for o in others if standing[o] == top]
        winner = leaders[0] if len(leaders) == 1 else -1
        result = standing
    elif not config.hands_only:
        winner = match.winner
    else:
        top = max(result)
        winner = result.index(top) if result.count(top) == 1 else -1
    for notify in listeners:
        notify({"type": "match_end", "scores": list(match.scores), "winner": winner,
                "forfeit": forfeit})
    _record_game(prep.slots[t], t, owner, result, points, winner, tally, play, settle, bot_ids,
                 vector, summary.hists)


@dataclass
class _Tally:
    """A game's counts as its hands are played."""

    moves: int = 0
    blocked: int = 0
    hands: int = 0
    leader: int = -1  # the first hand's leader


def _play_hands(config: SimConfig, t: int, match: Match, prep: _Prepared, seated: list[int],
                seed: int, summary: Summary, listeners: list[Any], play: list[int],
                settle: list[int], tally: _Tally) -> list[int]:
    """Play the match's hands (one in hands mode); return the result per side."""
    from bones.seat.observation import observe  # lazy: see _play_game

    bots = [prep.bots[i] for i in seated]
    decide = [prep.decide[i] for i in seated]
    # docs/random.md: the bot in seat s draws from stream(game seed, BOTS, s)
    rngs = [stream(seed, BOTS, s) if prep.draws[i] else None for s, i in enumerate(seated)]
    expensive = [prep.expensive[i] for i in seated]
    clocks = [prep.clocks[i] for i in seated]
    hists = summary.hists
    counts_hist = hists.setdefault(f"{t}.scoring_counts", {})
    points_hist = hists.setdefault(f"{t}.play_points", {})
    timing = summary.timing
    time_keys = [f"{b.name}|choice" for b in bots]
    decisions = 0
    while not match.game_over:
        hand = match.new_hand()
        if tally.leader < 0:
            tally.leader = hand.leader
        before = list(match.scores)
        while not hand.state:
            legal = hand.legal_moves()
            if len(legal) == 1:
                # a forced move is made without asking the bot (as in bones play)
                move = legal[0]
            else:
                seat = hand.turn
                decisions += 1
                timed = expensive[seat] or not decisions % TIME_SAMPLE
                if timed:
                    clock = clocks[seat]
                    t0 = clock()
                fast = decide[seat]
                if fast is not None:
                    move = fast(hand, legal, rngs[seat])
                else:
                    # a bot that declares draws = False is given no generator
                    move = bots[seat].choose(observe(hand, seat, legal),
                                             rngs[seat])  # type: ignore[arg-type]
                if timed:
                    _add(timing.setdefault(time_keys[seat], {}),
                         round(TIME_BINS * math.log(max(clock() - t0, 1e-7) * 1e6)))
                if move not in legal and not hand.is_legal(move):
                    raise SimError(f"{bots[seat].name} chose an illegal move")
            hand.apply(move)
            if hand.last_points > 0:
                _add(counts_hist, hand.count)
                _add(points_hist, hand.last_points)
        log = hand.log
        tally.moves += len(log)
        tally.hands += 1
        if hand.state == Outcome.BLOCKED:
            tally.blocked += 1
        if hand.settlement is not None:
            for o, d in enumerate(hand.settlement):
                settle[o] += d
        for s, _, p in log:
            if p:
                play[s] += p
        ended = match.finish_hand(hand)
        for notify in listeners:
            notify({"type": "hand_end", "scores": list(match.scores),
                    "settlement": list(hand.settlement or [])})
        if config.hands_only:
            # the hand's end: a game it wins starts the match's scores again
            return [a - b for a, b in zip(ended.scores, before)]
    return list(match.scores)


def _record_game(slots: _Slots, t: int, owner: tuple[int, ...], result: list[int],
                 points: list[int], winner: int, tally: _Tally, play: list[int],
                 settle: list[int], bot_ids: list[int], vector: list[int],
                 hists: dict[str, dict[int, int]]) -> None:
    """Write one game's quantities into its vector slots and histograms:
    ``result`` places the sides (a side whose bot failed below the others),
    ``points`` is what they scored."""
    _add(hists.setdefault(f"{t}.game_hands", {}), tally.hands)
    ordered = sorted(result, reverse=True)
    margin = ordered[0] - ordered[1] if len(ordered) > 1 else 0
    _add(hists.setdefault(f"{t}.margin", {}), margin)

    vector[slots.hands] = tally.hands
    vector[slots.moves] = tally.moves
    vector[slots.blocked] = tally.blocked
    leader = max(tally.leader, 0)
    vector[slots.leader_win] = int(winner >= 0 and winner == owner[leader])
    vector[slots.tie] = int(winner < 0)
    vector[slots.margin] = margin
    for s, d in enumerate(bot_ids):
        o = owner[s]
        won = int(winner == o)
        at = slots.seat_win[s]
        vector[at] = won
        vector[at + _PLAY] = play[s]
        vector[at + _SETTLE] = settle[o]
        vector[at + _SCORE] = points[o]
        at = slots.bot_win[d]
        # a bot in several seats: it wins when any of its sides wins
        vector[at] = vector[at] or won
        vector[at + _PLAY] += play[s]
        vector[at + _SETTLE] += settle[o]
        vector[at + _SCORE] += points[o]
    if len(slots.bot_win) > 1:
        best: dict[int, int] = {}
        for s, d in enumerate(bot_ids):
            score = result[owner[s]]
            if d not in best or score > best[d]:
                best[d] = score
        for (a, b), at in slots.ahead.items():
            if best[a] > best[b]:
                vector[at] = 1


# ----------------------------------------------------------------- driver

def batches(games: int, size: int) -> Iterator[tuple[int, int]]:
    """The batches ``(start, stop)`` of a run, made one at a time as they are
    played (nothing in proportion to the number of games is built first)."""
    return ((a, min(a + size, games)) for a in range(0, games, size))


def default_batch_size(games: int, workers: int, native: bool = False,
                       hands_only: bool = False, per_unit: int = 1) -> int:
    """Games (or deals of ``per_unit`` games) a batch."""
    # enough batches to balance the workers and show progress, few enough
    # that the per-batch overhead stays small; native batches play games
    # 100 times faster, so they are larger (still well under a second each)
    cap = (4000 if hands_only else 500) if native else 200
    cap = max(1, cap // max(per_unit, 1))
    return max(1, min(cap, math.ceil(games / (8 * max(workers, 1)))))


def _ignore_sigint() -> None:
    # Ctrl-C is handled by the parent, which keeps what finished
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: The kernel's request "signal me when my parent ends" (Linux prctl(2)).
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """End this worker process when its parent ends, however the parent ends
    (Ctrl-C, ``timeout``'s SIGTERM, SIGKILL, the out-of-memory killer).

    On Linux the kernel sends SIGTERM at the parent's death (a worker that
    runs command bots stops them, then dies: see
    :func:`bones.bots.external.stop_all`); everywhere a watcher thread also
    checks twice a second that the parent is still the same process.
    ``parent`` is the pid the worker was started by (default: its parent now).
    """
    if parent is None:
        parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the thread does it
            pass
    if os.getppid() != parent:  # it died before the request was made
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="bones-parent-watch").start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGTERM)  # as the kernel would (command bots are stopped)
    time.sleep(2)
    os._exit(1)


def bots_write_to_stderr() -> None:
    """Send whatever this process writes on standard output to standard error
    instead (a worker's bots print there, never into the report)."""
    try:
        sys.stdout.flush()
        os.dup2(2, 1)
    except (OSError, ValueError, AttributeError):  # no standard error to send it to
        pass


def start_worker(permitted: list[str], parent: int | None = None) -> None:
    """A simulation worker process's set-up: Ctrl-C left to the parent, dying
    with the parent, its bots' output on standard error, and the outside bots
    the command line named permitted."""
    _ignore_sigint()
    die_with_parent(parent)
    bots_write_to_stderr()
    # the outside bots the command line named may load here too (a worker
    # started by spawn or forkserver does not inherit the permission)
    permit_outside(permitted)


def process_executor(jobs: int) -> Executor:
    """Worker processes, for batches the Python path plays (it holds the GIL)."""
    from concurrent.futures import ProcessPoolExecutor  # lazy: a run on one worker starts no pool

    return ProcessPoolExecutor(max_workers=jobs, initializer=start_worker,
                               initargs=(permitted_outside(), os.getpid()))


def stop_processes(executor: Executor, grace: float = 2.0) -> None:
    """Stop a process pool's workers now, running batches and all (a run
    stopped early must not wait for them), and shut the pool down."""
    # the pool's processes are not public (a pool without them is only shut down)
    procs = list((getattr(executor, "_processes", None) or {}).values())
    for proc in procs:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            proc.terminate()  # SIGTERM: a worker stops its command bots, then dies
    deadline = time.monotonic() + grace
    for proc in procs:
        with contextlib.suppress(OSError, ValueError, AttributeError, AssertionError):
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)
    # not cancel_futures: the pool's manager marks every batch left as lost
    # (cancelling one it is about to mark fails in its thread on Python 3.11)
    executor.shutdown(wait=True)


def needs_own_process(config: SimConfig) -> bool:
    """Whether the run has a Python bot from outside bones (``py:``,
    ``file:``, ``ep:``): such code can end the process it runs in
    (``os._exit``), so it plays in a worker process even with one job, and
    its death ends the run with the games finished before it."""
    return any(text.split(":", 1)[0] in ("py", "file", "ep") for text in config.lineup)


#: One line for a worker process that died under a batch.
WORKER_DIED = ("a worker process died while playing (a Python bot that ended its process, "
               "or the system's out-of-memory killer)")


def thread_executor(jobs: int) -> Executor:
    """Worker threads, for batches the native core plays: it releases the GIL
    while it plays, so threads use every core with no process to start and
    one copy of the engine (:func:`plays_natively` says when)."""
    from concurrent.futures import ThreadPoolExecutor  # lazy: a run on one worker starts no pool

    return ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="bones-sim")


def simulate(config: SimConfig, executor: Executor | None = None, workers: int = 1,
             batch_size: int | None = None,
             progress: Callable[[int], None] | None = None,
             forfeit: Callable[[Forfeit], None] | None = None) -> Summary:
    """Run ``config``; with ``executor`` its batches run there.

    ``progress(games_done)`` is called after each batch, and ``forfeit`` with
    each game of the batch that a failing bot lost (in this process, whichever
    worker or cluster machine played it; the summary keeps none of them).
    Ctrl-C stops early: the summary of the finished batches comes back with
    ``partial`` set (and ``stopped_by`` says why when it was not Ctrl-C).
    """
    def batch_done() -> None:
        if forfeit is not None:
            for lost in total.forfeits:
                forfeit(lost)
        total.forfeits.clear()
        if progress:
            progress(total.n)

    layout = Layout(config)
    total = Summary.empty(layout, deal_layout(config))
    size = batch_size or default_batch_size(config.games, workers,
                                            native_module(config) is not None,
                                            config.hands_only, config.rotations)
    todo = batches(config.games, size)
    try:
        if executor is None:
            for start, stop in todo:
                total.merge(run_batch(config, start, stop))
                batch_done()
        else:
            _run_on(executor, config, todo, max(workers, 1), total, batch_done)
    except KeyboardInterrupt:
        total.partial = True
    if (total.deals if config.duplicate else total.n) < config.games:
        total.partial = True
    return total


def _run_on(executor: Executor, config: SimConfig, todo: Iterable[tuple[int, int]],
            workers: int, total: Summary, batch_done: Callable[[], None]) -> None:
    pending = iter(todo)
    in_flight: set[Future[Summary]] = set()
    window = 4 * workers  # bounded: memory stays flat for any number of games
    try:
        with _CtrlCNoted() as ctrl_c:
            _run_window(executor, config, pending, in_flight, window, total, batch_done, ctrl_c)
    except KeyboardInterrupt:
        if not _is_process_pool(executor):
            for fut in in_flight:
                fut.cancel()
        # a process pool's batches are stopped with its workers
        # (stop_processes); cancelling one first would make the pool's
        # manager thread fail on it (InvalidStateError, Python 3.11)
        raise


class _CtrlCNoted:
    """Within the block a Ctrl-C only sets :attr:`seen` (the loop raises
    ``KeyboardInterrupt`` itself, between two waits): raised inside
    ``concurrent.futures.wait``, it could leave a lock of the futures'
    waiter released twice, and a worker thread then fails with "release
    unlocked lock".  Only where Ctrl-C raises ``KeyboardInterrupt`` (Python's
    handler, in the main thread); elsewhere nothing changes."""

    def __init__(self) -> None:
        self.seen = False
        self.previous: Any = None

    def _note(self, signum: int, frame: Any) -> None:
        self.seen = True

    def __enter__(self) -> _CtrlCNoted:
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            self.previous = signal.signal(signal.SIGINT, self._note)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def _run_window(executor: Executor, config: SimConfig, pending: Iterator[tuple[int, int]],
                in_flight: set[Future[Summary]], window: int, total: Summary,
                batch_done: Callable[[], None], ctrl_c: _CtrlCNoted) -> None:
    from concurrent.futures import (  # lazy: a run on one worker starts no pool
        FIRST_COMPLETED,
        BrokenExecutor,
        wait,
    )

    while True:
        while len(in_flight) < window:
            nxt = next(pending, None)
            if nxt is None:
                break
            # the first submit starts the workers and the threads that
            # manage them: they start with Ctrl-C held, so the kernel
            # delivers it to this thread, and none lands in between (a
            # worker nobody tells to stop would keep the exit waiting)
            with sigint_held():
                in_flight.add(executor.submit(run_batch, config, *nxt))
        if not in_flight:
            return
        if ctrl_c.seen:
            raise KeyboardInterrupt
        # woken four times a second at least, so a Ctrl-C is acted on at once
        done, _ = wait(in_flight, timeout=0.25, return_when=FIRST_COMPLETED)
        in_flight -= done  # the caller's set: what is left to cancel
        broken = False
        for fut in done:
            try:
                total.merge(fut.result())
            except BrokenExecutor:
                broken = True  # the others finished: kept
        batch_done()
        if broken:
            # every batch still running or waiting is lost with the pool:
            # the finished games are the result, and the cause is said
            total.partial = True
            total.stopped_by = WORKER_DIED
            return
        if ctrl_c.seen:
            raise KeyboardInterrupt


def _is_process_pool(executor: Executor) -> bool:
    from concurrent.futures import ProcessPoolExecutor  # lazy: a run on one worker starts no pool

    return isinstance(executor, ProcessPoolExecutor)


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """Hold a Ctrl-C that arrives during the block until it ends (then it
    raises ``KeyboardInterrupt`` as usual). Only the main thread on POSIX
    can hold it; elsewhere the block runs as it is."""
    if (not hasattr(signal, "pthread_sigmask")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def time_stats(hist: dict[int, int]) -> dict[str, float]:
    """The median, the 90th and 99th percentiles and the largest
    (milliseconds) of a time histogram, each its bin's time (bins are about
    5% wide: :data:`TIME_BINS`)."""
    total = sum(hist.values())
    out = {"moves": total, "median_ms": 0.0, "p90_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    if not total:
        return out
    seen = 0
    for b in sorted(hist):
        seen += hist[b]
        ms = math.exp(b / TIME_BINS) / 1000
        if not out["median_ms"] and 2 * seen >= total:
            out["median_ms"] = ms
        if not out["p90_ms"] and 10 * seen >= 9 * total:
            out["p90_ms"] = ms
        if not out["p99_ms"] and 100 * seen >= 99 * total:
            out["p99_ms"] = ms
        out["max_ms"] = ms
    return out




# ----------------------------------------------------------------- report

def _est(e: Any, digits: int = 4) -> dict[str, Any]:
    out = {"value": round(e.value, digits), "lo": round(e.lo, digits), "hi": round(e.hi, digits)}
    if e.se is not None:
        out["se"] = round(e.se, digits)
    return out


def table_report(config: SimConfig, summary: Summary, t: int = 0) -> dict[str, Any]:
    """Every statistic of table ``t`` of a run, as plain data (the ``--json`` body)."""
    layout = Layout(config)
    m = summary.moments(layout)
    ix = layout.index
    table = config.tables[t]
    hands = ix[f"{t}.hands"]
    n = summary.n
    owners = 2 if table.teams else table.players
    distinct = config.distinct
    multiplicity = [config.lineup.count(b) for b in distinct]

    def side(prefix: str, seats: int) -> dict[str, Any]:
        return {
            "wins": summary.sums[ix[f"{prefix}.win"]],
            "win_rate": _est(m.proportion(ix[f"{prefix}.win"])),
            "play_points_per_hand": _est(m.ratio(ix[f"{prefix}.play"], hands, 1 / seats)),
            "settlement_points_per_hand": _est(m.ratio(ix[f"{prefix}.settle"], hands, 1 / seats)),
            "points_per_game": _est(m.mean(ix[f"{prefix}.score"]).scaled(1 / seats)),
        }

    per_bot = [{"bot": name, "seats": multiplicity[d], "games": n,
                **side(f"{t}.bot{d}", multiplicity[d])} for d, name in enumerate(distinct)]
    per_seat = [{"seat": s, "games": n, **side(f"{t}.seat{s}", 1)} for s in range(table.players)]
    head = [[None if a == b else _est(m.proportion(ix[f"{t}.ahead{a}.{b}"]))
             for b in range(len(distinct))] for a in range(len(distinct))]
    leader = m.proportion(ix[f"{t}.leader_win"])
    fair = 1 / owners
    margin_hist = summary.hists.get(f"{t}.margin", {})
    length_hist = summary.hists.get(f"{t}.game_hands", {})
    counts_hist = summary.hists.get(f"{t}.scoring_counts", {})
    points_hist = summary.hists.get(f"{t}.play_points", {})
    return {
        "variant": {"name": table.variant.name, "ref": table.label,
                    "players": table.players, "teams": table.teams},
        "games": n,
        "bots": per_bot,
        "seats": per_seat,
        "ahead": {"bots": distinct, "matrix": head},
        "hands_per_game": _est(m.mean(hands)),
        "hands_per_game_distribution": {str(k): v for k, v in sorted(length_hist.items())},
        "moves_per_hand": _est(m.ratio(ix[f"{t}.moves"], hands)),
        "blocked_share": _est(m.ratio(ix[f"{t}.blocked"], hands).clipped()),
        "leader": {"win_rate": _est(leader), "fair_share": round(fair, 4),
                   "advantage": _est(leader.shifted(-fair))},
        "ties": _est(m.proportion(ix[f"{t}.tie"])),
        "margin": {"mean": _est(m.mean(ix[f"{t}.margin"])),
                   **{k: round(v, 4) for k, v in histogram_stats(margin_hist).items()
                      if k in ("sd", "min", "median", "max")}},
        "scoring": {
            "plays": sum(counts_hist.values()),
            "counts": {str(k): v for k, v in sorted(counts_hist.items())},
            "points": {str(k): v for k, v in sorted(points_hist.items())},
        },
        "duplicate": duplicate_report(config, summary, t),
    }


def duplicate_report(config: SimConfig, summary: Summary, t: int = 0) -> dict[str, Any] | None:
    """The paired statistics of table ``t`` of a duplicate run, the deal
    being the unit (:func:`bones.sim.duplicate.paired_report`); None for a
    plain run."""
    dl = deal_layout(config)
    if dl is None:
        return None
    table = config.tables[t]
    players = table.players
    owners = 2 if table.teams else players
    owner = [s % owners for s in range(players)]
    distinct = config.distinct
    # a bot's fair share of the decided games: the sides it sits on
    fair = [len({owner[s] for s in range(players) if config.lineup[s] == b}) / owners
            for b in distinct]
    return paired_report(summary.deal_moments(dl), dl, t, distinct,
                         [config.lineup.count(b) for b in distinct],
                         [seating(config.lineup, r) for r in range(config.rotations)],
                         summary.hists.get(f"{t}.deal_results", {}), fair)


def report(config: SimConfig, summary: Summary) -> dict[str, Any]:
    """The versioned result of a run (``run``, the machine-dependent part, is
    added by the caller)."""
    body: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "mode": "hands" if config.hands_only else "matches",
        "requested": config.total_games,
        "games": summary.n,
        "partial": summary.partial,
        "seed": config.seed,
        "lineup": list(config.lineup),
    }
    body.update(table_report(config, summary, 0))
    if len(config.tables) > 1:
        body["compare"] = {
            "b": table_report(config, summary, 1),
            "difference": difference_report(config, summary),
        }
    return body


def difference_report(config: SimConfig, summary: Summary) -> dict[str, Any]:
    """Each statistic of table 0 minus table 1, paired game by game."""
    layout = Layout(config)
    m = summary.moments(layout)
    ix = layout.index

    def q(t: int, name: str) -> int:
        return ix[f"{t}.{name}"]

    out: dict[str, Any] = {
        "hands_per_game": _est(m.diff_mean(q(0, "hands"), q(1, "hands"))),
        "moves_per_hand": _est(m.diff_ratio(q(0, "moves"), q(0, "hands"),
                                            q(1, "moves"), q(1, "hands"))),
        "blocked_share": _est(m.diff_ratio(q(0, "blocked"), q(0, "hands"),
                                           q(1, "blocked"), q(1, "hands"))),
        "leader_win_rate": _est(m.diff_mean(q(0, "leader_win"), q(1, "leader_win"))),
        "ties": _est(m.diff_mean(q(0, "tie"), q(1, "tie"))),
        "margin": _est(m.diff_mean(q(0, "margin"), q(1, "margin"))),
    }
    bots = []
    for d, name in enumerate(config.distinct):
        k = config.lineup.count(name)
        p = f"bot{d}"
        bots.append({
            "bot": name,
            "win_rate": _est(m.diff_mean(q(0, f"{p}.win"), q(1, f"{p}.win"))),
            "play_points_per_hand": _est(m.diff_ratio(
                q(0, f"{p}.play"), q(0, "hands"), q(1, f"{p}.play"), q(1, "hands")).scaled(1 / k)),
            "settlement_points_per_hand": _est(m.diff_ratio(
                q(0, f"{p}.settle"), q(0, "hands"), q(1, f"{p}.settle"), q(1, "hands")).scaled(1 / k)),
        })
    out["bots"] = bots
    seats = []
    for s in range(config.players):
        p = f"seat{s}"
        seats.append({"seat": s,
                      "win_rate": _est(m.diff_mean(q(0, f"{p}.win"), q(1, f"{p}.win")))})
    out["seats"] = seats
    dl = deal_layout(config)
    if dl is not None:
        out["duplicate"] = paired_difference(
            summary.deal_moments(dl), dl, config.distinct,
            [config.lineup.count(b) for b in config.distinct], config.rotations)
    return out


def timing_report(summary: Summary) -> dict[str, Any]:
    """Per bot: the median, 90th and 99th percentiles and the largest time
    a move (:func:`time_stats`), all moves and moves with a real choice
    (machine-dependent: goes under ``run``)."""
    out: dict[str, Any] = {}
    names = sorted({k.split("|")[0] for k in summary.timing})
    for name in names:
        choice = summary.timing.get(f"{name}|choice", {})
        both: dict[int, int] = dict(choice)
        for k, v in summary.timing.get(f"{name}|forced", {}).items():
            both[k] = both.get(k, 0) + v
        out[name] = {"all_moves": time_stats(both), "choices": time_stats(choice)}
    return out


def run_facts(summaries: Sequence[Summary], seconds: float, *, jobs: int, workers: int,
              scheduler: str | None) -> dict[str, Any]:
    """The machine-dependent part of a report (``run``): versions, the
    machine, workers, time and per-bot move times."""

    games = sum(s.n for s in summaries)
    timing: dict[str, Any] = {}
    for s in summaries:
        timing.update(timing_report(s))
    return {
        "engine_version": __version__,
        "python": sys.version.split()[0],  # platform.python_version()
        "machine": f"{machine()}, {os.cpu_count()} cpus",
        "jobs": jobs,
        "workers": workers,
        "scheduler": scheduler,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
        "move_time": timing,
    }


def machine() -> str:
    """The system and the machine's architecture, as :func:`platform.system`
    and :func:`platform.machine` name them (``Linux x86_64``): read from
    ``os.uname()`` as they read it, so a run's start does not load
    :mod:`platform` (whose import compiles a dozen regular expressions)."""
    if not hasattr(os, "uname"):  # Windows
        import platform  # lazy: only a system without os.uname needs it

        return f"{platform.system()} {platform.machine()}"
    system = os.uname()
    return f"{system.sysname} {system.machine}"


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "Forfeit",
    "Layout",
    "SimConfig",
    "SimError",
    "Summary",
    "Table",
    "deal_layout",
    "difference_report",
    "duplicate_report",
    "game_seed",
    "make_config",
    "native_module",
    "plays_natively",
    "WORKER_DIED",
    "die_with_parent",
    "needs_own_process",
    "process_executor",
    "sigint_held",
    "start_worker",
    "stop_processes",
    "thread_executor",
    "report",
    "run_batch",
    "run_facts",
    "simulate",
    "splitmix64",
    "table_report",
    "time_stats",
    "timing_report",
]
