"""The OpenSpiel game ``python_bones`` (``pip install 'bones[rl]'``, Linux).

Importing this module registers it:

>>> import pyspiel
>>> import bones.adapters.openspiel
>>> game = pyspiel.load_game("python_bones", {"variant": "sniff", "players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions()
(True, 114)

Parameters: ``variant`` (a built-in name or a variant file), ``players`` (0:
the variant's smallest count), ``teams`` (partnerships where the variant
makes them optional; where it requires them they are always played) and
``episode`` (``"hand"`` or ``"match"``) and ``tensor`` (``"full"``, the
default, or ``"compact"``: see below).

Every random event is a chance node and the game keeps no generator of its
own: each tile dealt (seat 0's tiles first), each tile drawn by lot or for
the lead rule, a lead at random (outcome: the seat), every draw from the
boneyard (outcome: the tile), a redeal (the deal simply starts again), and
in a train layout (up to 8 players) each tile drawn for the round's hub
while nobody holds it.  A player's actions are the indices of
:class:`bones.seat.actions.ActionSpace` (a train layout's: tile x target);
chance outcomes are tile ids (or seats).

Information: the information-state string of a seat is its seat, the
match's scores, the tiles it was dealt and every move of the hand, with the
tiles it drew itself; the observation string is what it sees now.  The
tensors are the seat's :class:`bones.seat.encoding.Encoding`, and for the
information state also its dealt tiles and the hand's moves in order.  In
match episodes the information state covers the current hand and the scores,
not the moves of earlier hands.

The full information-state tensor is the encoding, the dealt tiles and one
slot per possible move of the hand (the seat, the tile, the arm, draw,
pass): 4,294 floats for all-fives.  ``tensor="compact"`` keeps the encoding
and the dealt tiles and replaces the move slots by two blocks, for
networks: ``played_by`` (per tile, one-hot, the relative seat that laid it)
and ``order`` (per tile, its rank among the tiles laid divided by the set's
size; 0 while in hand or boneyard): 274 floats for all-fives with two
players.  Passes and draws are not in it (the encoding's counts,
``tiles_drawn`` and ``proven_void`` carry what they reveal); the
information-state *string* stays complete, so tabular algorithms (CFR) are
unaffected.

``state.resample_from_infostate(player, sampler)`` deals the tiles the
player cannot see with bones' world sampler
(:func:`bones.seat.observation.sample_world`), seeded from the sampler, so
OpenSpiel's ISMCTS can play the game.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pyspiel

from bones.adapters.common import EPISODES, compile_table
from bones.engine.hand import DRAW, PASS
from bones.engine.handlike import HandLike
from bones.engine.match import MAX_HANDS, Match
from bones.engine.moves import arm_of, tile_of
from bones.engine.rng import Rng
from bones.engine.rules import Rules
from bones.seat.actions import ActionSpace
from bones.seat.chance import (
    ChanceRequest,
    DealProcess,
    deal_process,
    draw_options,
    draw_tile,
    hand_rewards,
    match_rewards,
)
from bones.seat.encoding import Encoding
from bones.seat.observation import observe, sample_world

SHORT_NAME = "python_bones"

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_DEFAULTS = {"variant": "all-fives", "players": 0, "teams": False, "episode": "hand",
             "tensor": "full"}

#: the information-state tensor's forms (the ``tensor`` parameter)
TENSORS = ("full", "compact")

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python bones (any point-domino variant)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,  # a train layout seats up to 8 (a line game: its variant's players)
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _max_moves(rules: Rules) -> int:
    """Most player moves in one hand: each play or draw can be followed by
    fewer passes than there are players (all passing in turn blocks it); in
    a train layout by fewer than twice as many (a first round of passes
    marks the trains, the second finds the round blocked)."""
    if rules.trains is not None:
        return (2 * rules.tiles.size + 1) * 2 * rules.players
    return (2 * rules.tiles.size + 1) * rules.players


def _hand_bound(rules: Rules) -> float:
    """A bound on any side's points from one hand, plays and settlement."""
    trains = rules.trains
    if trains is not None:  # no play scores; every hand charged, markers too
        return float(rules.players * (sum(trains.values) + trains.marker_penalty))
    variant = rules.variant
    per_play = max(rules.count_points) + max(rules.header_points or (0,))
    per_play += rules.knock_bonus * rules.players
    flat = 0
    for rule in (variant.settlement.domino, variant.settlement.blocked):
        flat = max(flat, getattr(rule, "points", 0))
    pips = sum(rules.tiles.pips)
    return float(rules.tiles.size * per_play * 2 + rules.players * pips + flat)


class BonesGame(pyspiel.Game):
    """A bones variant at one table; see the module docstring."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        episode = str(merged["episode"])
        self.tensor = str(merged["tensor"])
        if self.tensor not in TENSORS:
            raise ValueError(f"tensor must be one of {', '.join(TENSORS)}, not '{self.tensor}'")
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {', '.join(EPISODES)}, not '{episode}'")
        players = int(merged["players"]) or None
        teams = True if merged["teams"] else None
        rules = compile_table(str(merged["variant"]), players, teams)
        self.rules = rules
        self.episode = episode
        self.space = ActionSpace(rules)
        self.encoding = Encoding(rules)
        self.max_moves = _max_moves(rules)
        # a tile move's name, by its code without the flip bit (built as met)
        self.move_names: dict[int, str] = {}
        # per-game tables for the hot paths: each action's move code, each
        # move code's action (built as met)
        self.moves: list[int] = [self.space.move(a) for a in range(self.space.num_actions)]
        self.action_of: dict[int, int] = {}
        if episode == "hand":
            bound = 2 * _hand_bound(rules)
            low, high = -bound, bound
        else:
            low, high = -1.0, 1.0
        deal_events = rules.tiles.size * 4 + 50  # deals, draws, lots (generous)
        length = self.max_moves + deal_events
        if episode == "match":
            length *= MAX_HANDS
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.num_actions,
            max_chance_outcomes=max(rules.tiles.size, rules.players),
            num_players=rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=length,
        )
        super().__init__(_GAME_TYPE, info, {**merged, "players": rules.players,
                                            "teams": rules.teams})

    def new_initial_state(self) -> BonesState:
        return BonesState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> BonesObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return BonesObserver(self, iig_obs_type or pyspiel.IIGObservationType(
            perfect_recall=False))


class _Table:
    """The Python side of a state: everything its copies must copy.

    Copy-on-write: pyspiel clones a state by ``copy.deepcopy`` of its
    attributes, and a tree walk clones every state it visits (once to keep
    it, once more for each child); a clone only shares the table and marks
    it ``shared``, and the first state to change a shared table changes a
    copy of its own (:meth:`BonesState._writable`).  A table read but never
    changed (a stored state, an information set's representative) is never
    copied."""

    # slots: no per-table attribute dict for the collector to traverse
    __slots__ = ("match", "process", "hand", "pending_draw", "over", "returns", "before",
                 "draws", "dealt", "player", "shared", "legal", "outcomes")

    def __init__(self, game: BonesGame) -> None:
        rules = game.rules
        self.match = Match(rules, seed=0, stepwise_core=True)
        self.process: DealProcess | None = deal_process(self.match)
        self.hand: HandLike | None = None
        self.pending_draw = False
        self.over = False
        # tuples: replaced, never changed in place, so copies share them
        self.returns: tuple[float, ...] = (0.0,) * rules.players
        self.before: tuple[int, ...] = tuple(self.match.scores)
        # per seat: (log index, tile) for each tile it drew; -1 when unknown
        self.draws: tuple[tuple[tuple[int, int], ...], ...] = ((),) * rules.players
        self.dealt: tuple[int, ...] = (0,) * rules.players
        #: the player to move (pyspiel asks very often): kept by update()
        self.player = _CHANCE
        #: another state holds this table too: change a copy
        self.shared = False
        #: the legal actions or chance outcomes, computed when first asked
        self.legal: list[int] | None = None
        self.outcomes: list[tuple[int, float]] | None = None

    def update(self) -> None:
        """Set ``player`` after the table changed (and forget the legal
        actions)."""
        self.legal = self.outcomes = None
        if self.over:
            self.player = _TERMINAL
        elif self.process is not None or self.pending_draw:
            self.player = _CHANCE
        else:
            assert self.hand is not None
            self.player = self.hand.turn

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        """A clone's table: this one, shared until either state changes."""
        self.shared = True
        return self

    def copy(self) -> _Table:
        """A copy the caller may change (the rules and the immutable pieces
        shared)."""
        new = _Table.__new__(_Table)
        new.process = self.process
        new.hand = self.hand
        new.pending_draw = self.pending_draw
        new.over = self.over
        new.returns = self.returns
        new.before = self.before
        new.draws = self.draws
        new.dealt = self.dealt
        new.player = self.player
        new.legal = self.legal
        new.outcomes = self.outcomes
        # the match shares its rules and past hands' summaries (the list is
        # replaced before a hand is added to it: _after_move), without
        # copy.copy's generic reconstruction
        match = new.match = Match.__new__(Match)
        match.__dict__.update(self.match.__dict__)
        match.scores = list(self.match.scores)
        if self.hand is not None:
            new.hand = self.hand.copy()
            new.hand.scores = match.scores
            if self.match.current is self.hand:
                match.current = new.hand
        if self.process is not None:
            new.process = copy.copy(self.process)
            new.process.outcomes = list(self.process.outcomes)
        new.shared = False
        return new


class BonesState(pyspiel.State):
    """A position of ``python_bones``: dealing, a move, a draw or the end."""

    def __init__(self, game: BonesGame) -> None:
        super().__init__(game)
        # pyspiel clones a state by asking the game for an initial state and
        # then deep-copying the attributes into it: the table is built only
        # when it is first read (__getattr__), so a clone never builds one to
        # throw away, and reading it is a plain attribute read

    table: _Table

    def __getattr__(self, name: str) -> Any:
        if name != "table":
            raise AttributeError(name)
        table = _Table(self.get_game())
        self.table = table
        return table

    def _writable(self) -> _Table:
        """The table, this state's own (copied first if a clone shares it)."""
        table = self.table
        if table.shared:
            table = self.table = table.copy()
        return table

    # the game's pieces, reached through the game (a state holds only _Table:
    # pyspiel may hand a deserialised state another wrapper of its game)
    @property
    def _game(self) -> BonesGame:
        return self.get_game()

    def _request(self) -> ChanceRequest | None:
        process = self.table.process
        return process.request() if process is not None else None

    def current_player(self) -> int:
        return self.table.player

    def _legal_actions(self, player: int) -> list[int]:
        t = self.table
        if t.legal is None:
            hand = t.hand
            assert hand is not None and player == hand.turn
            # ActionSpace.legal, through the game's table of move codes
            game = self._game
            action_of = game.action_of
            legal = []
            for move in hand.legal_moves():
                action = action_of.get(move)
                if action is None:
                    action = action_of[move] = game.space.index(move)
                legal.append(action)
            legal.sort()
            t.legal = legal
        return t.legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        t = self.table
        if t.outcomes is not None:
            return t.outcomes
        if t.pending_draw:
            assert t.hand is not None
            options: tuple[int, ...] = draw_options(t.hand)
        else:
            request = self._request()
            assert request is not None
            options = request.options
        p = 1.0 / len(options)
        t.outcomes = [(o, p) for o in options]
        return t.outcomes

    def _apply_action(self, action: int) -> None:
        self._apply(self._writable(), self._game, action)
        self.table.update()

    def _apply(self, t: _Table, game: BonesGame, action: int) -> None:
        if t.pending_draw:
            hand = t.hand
            assert hand is not None
            seat = hand.turn
            draws = list(t.draws)
            draws[seat] += ((len(hand.log), action),)
            t.draws = tuple(draws)
            t.pending_draw = False
            draw_tile(hand, action)
            self._after_move(t, game)
            return
        if t.process is not None:
            t.process.apply(action)
            if t.process.request() is None:
                deal = t.process.deal
                t.process = None
                t.hand = t.match.start_hand(deal)
                t.dealt = tuple(deal.hands)
                t.draws = ((),) * game.rules.players
                t.before = tuple(t.match.scores)
            return
        hand = t.hand
        assert hand is not None
        # the game's table; ActionSpace.move refuses an action outside it
        moves = game.moves
        move = moves[action] if 0 <= action < len(moves) else game.space.move(action)
        if move == DRAW:
            t.pending_draw = True
            return
        hand.apply(move)
        self._after_move(t, game)

    def _after_move(self, t: _Table, game: BonesGame) -> None:
        hand = t.hand
        assert hand is not None
        if not hand.over:
            return
        rules = game.rules
        if game.episode == "hand":
            # one hand: the match's summary of it is never read
            t.over, t.returns = True, tuple(hand_rewards(rules, t.before, hand.scores))
            t.match.scores = list(hand.scores)
            return
        gained = hand_rewards(rules, t.before, t.match.scores)
        t.match.history = list(t.match.history)  # copies share the old list
        t.match.finish_hand(hand)
        if game.episode == "hand":
            t.over, t.returns = True, tuple(gained)
        elif t.match.game_over:
            t.over, t.returns = True, tuple(match_rewards(rules, t.match.winner))
        else:
            t.process = deal_process(t.match)

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._game
        if player == pyspiel.PlayerId.CHANCE:
            name = game.rules.tiles.names
            if self.table.pending_draw:
                return f"draw {name[action]}"
            request = self._request()
            if request is not None and request.kind == "seat":
                return f"{request.what}: seat {action}"
            what = request.what if request is not None else "chance"
            return f"{what}: {name[action]}"
        return f"p{player} {game.space.name(action)}"

    def is_terminal(self) -> bool:
        return self.table.over

    def returns(self) -> list[float]:
        return list(self.table.returns)

    def __str__(self) -> str:
        t = self.table
        rules = self._game.rules
        lines = [f"scores {list(t.match.scores)} hand {len(t.match.history) + 1}"]
        if t.hand is not None:
            for s, held in enumerate(t.hand.hands):
                lines.append(f"seat {s}: {rules.tiles.name_mask(held)}")
            lines.append("moves: " + " ".join(_move_text(self._game, s, m, t, s)
                                                for s, m, _ in t.hand.log))
        return "\n".join(lines)

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> BonesState:
        """A state ``player`` cannot tell from this one: the tiles it cannot
        see dealt anew by bones' world sampler (seeded from the sampler)."""
        t = self.table
        clone = self.clone()
        if t.hand is None or t.process is not None:
            return clone  # dealing: nothing has been seen yet that binds
        rng = Rng(int(probability_sampler() * 2**53))
        world = sample_world(observe(t.hand, player), rng)
        ct = clone._writable()
        # the clone's hand (on the core that steps this game) takes the
        # world's tiles: only the hidden tiles differ, and the boneyard's
        # drawn part stays scrubbed as the world has it
        assert ct.hand is not None
        ct.hand.hands = world.hands
        ct.hand.boneyard = world.boneyard
        world = ct.hand
        played_by = [0] * len(world.hands)
        for s, move, _ in world.log:
            if move >= 0:
                played_by[s] |= 1 << tile_of(move)
        # what the others drew is unknown: their dealt tiles are summarised
        # by what they hold and have played
        ct.dealt = tuple(d if s == player else world.hands[s] | played_by[s]
                         for s, d in enumerate(ct.dealt))
        ct.draws = tuple(d if s == player else tuple((at, -1) for at, _ in d)
                         for s, d in enumerate(ct.draws))
        ct.legal = ct.outcomes = None
        return clone


def _move_text(game: BonesGame, seat: int, move: int, table: _Table, viewer: int,
               at: int = -1) -> str:
    if move == DRAW:
        if seat == viewer and at >= 0:
            for where, tile in table.draws[seat]:
                if where == at and tile >= 0:
                    return f"{seat}:draw {game.rules.tiles.names[tile]}"
        return f"{seat}:draw"
    if move == PASS:
        return f"{seat}:pass"
    code = move & ~1
    name = game.move_names.get(code)
    if name is None:
        name = game.move_names[code] = game.space.name(game.space.index(code))
    return f"{seat}:{name}"


class BonesObserver:
    """Observation and information-state strings and tensors (PyObserver)."""

    def __init__(self, game: BonesGame, iig_obs_type: Any) -> None:
        rules = game.rules
        self.game = game
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = iig_obs_type.public_info
        enc = game.encoding
        pieces = [("observation", enc.size)]
        # per move: the relative seat, the tile, the arm (a train layout: the
        # action space's target slot), draw, pass
        self.slot = rules.players + rules.tiles.size + game.space.arms + 2
        self.arm_slot = game.space.slot_of_arm if game.space.targets else None
        self.compact = game.tensor == "compact"
        if self.perfect_recall and self.compact:
            tiles = rules.tiles.size
            pieces += [("dealt", tiles), ("played_by", tiles * rules.players),
                       ("order", tiles)]
        elif self.perfect_recall:
            pieces += [("dealt", rules.tiles.size), ("moves", game.max_moves * self.slot)]
        size = sum(n for _, n in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, n in pieces:
            self.dict[name] = self.tensor[at:at + n]
            at += n
        enc_blocks = {b.name: b for b in enc.blocks}
        self._own = enc_blocks["own"]

    def set_from(self, state: BonesState, player: int) -> None:
        self.tensor.fill(0)
        t = state.table
        game = self.game
        if t.hand is None:
            return
        values = game.encoding.values(observe(t.hand, player))
        if not self.private:
            for i in range(self._own.start, self._own.start + self._own.size):
                values[i] = 0.0
        if not self.public:
            values = [values[i] if self._own.start <= i < self._own.start + self._own.size
                      else 0.0 for i in range(len(values))]
        self.dict["observation"][:] = values
        if not self.perfect_recall:
            return
        rules = game.rules
        if self.private:
            for tile in rules.tiles.tiles_of(t.dealt[player]):
                self.dict["dealt"][tile] = 1.0
        if not self.public:
            return
        if self.compact:
            self._compact_moves(t.hand, player)
            return
        moves = self.dict["moves"]
        players, tiles, arms = rules.players, rules.tiles.size, self.game.space.arms
        arm_slot = self.arm_slot
        own_draws = {at: tile for at, tile in t.draws[player]} if self.private else {}
        for i, (seat, move, _) in enumerate(t.hand.log[:game.max_moves]):
            base = i * self.slot
            moves[base + (seat - player) % players] = 1.0
            base += players
            if move == DRAW:
                tile = own_draws.get(i, -1) if seat == player else -1
                if tile >= 0:
                    moves[base + tile] = 1.0
                moves[base + tiles + arms] = 1.0
            elif move == PASS:
                moves[base + tiles + arms + 1] = 1.0
            else:
                moves[base + tile_of(move)] = 1.0
                arm = arm_of(move)
                moves[base + tiles + (arm if arm_slot is None else arm_slot(arm))] = 1.0

    def _compact_moves(self, hand: HandLike, player: int) -> None:
        """Per tile on the table: who laid it (relative seat, one-hot) and
        when (its rank among the tiles laid, divided by the set's size)."""
        rules = self.game.rules
        tiles, players = rules.tiles.size, rules.players
        played_by, order = self.dict["played_by"], self.dict["order"]
        laid = 0
        for seat, move, _ in hand.log:
            if move < 0:
                continue
            laid += 1
            tile = tile_of(move)
            played_by[tile * players + (seat - player) % players] = 1.0
            order[tile] = laid / tiles

    def string_from(self, state: BonesState, player: int) -> str:
        t = state.table
        game = self.game
        rules = game.rules
        names = rules.tiles.name_mask
        head = f"p{player} hand {len(t.match.history) + 1} scores {list(t.match.scores)}"
        if t.hand is None:
            return head + " dealing"
        hand = t.hand
        if self.perfect_recall:
            parts = [head]
            if self.private:
                parts.append(f"dealt {names(t.dealt[player])}")
            if self.public:
                viewer = player if self.private else -1
                parts.append("moves " + " ".join(
                    _move_text(game, s, m, t, viewer, i) for i, (s, m, _) in enumerate(hand.log)))
            return "\n".join(parts)
        parts = [head]
        if self.private:
            parts.append(f"holds {names(hand.hands[player])}")
        if self.public:
            ends = " ".join(f"{a}:{p}" for a, p in hand.open_ends().items())
            counts = [h.bit_count() for h in hand.hands]
            parts.append(f"turn {hand.turn} ends {ends or '-'} count {hand.count} "
                         f"tiles {counts} boneyard {hand.boneyard_left} "
                         f"drawn-this-turn {hand.drawn_turn} placed {hand.placed}")
            parts.append(f"played {names(hand.on_table)}")
        return "\n".join(parts)


pyspiel.register_game(_GAME_TYPE, BonesGame)

__all__ = ["BonesGame", "BonesObserver", "BonesState", "SHORT_NAME"]
