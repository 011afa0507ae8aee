"""A game of `bones play`: seats, the match, the hand in progress, take-backs and saves.

Nothing here reads a keyboard or draws a screen.  :class:`GameSession` holds the
state of one game (who sits where, the match, the current hand, the moves made
in it with their notation and claims, the take-backs) and writes it as a game
record after every move, so a closed terminal loses nothing.  The keyboard's
turn loop is :mod:`bones.cli.turns`; the web server drives a session by
requests.

Determinism (docs/random.md): each hand is dealt from the stream of the seed
and the hand number; every bot decision gets its own stream from
``(seed, hand number, ply, seat)``, so a resumed game, or a game replayed after
a take-back, makes exactly the decisions the uninterrupted one would have.
"""

from __future__ import annotations

import random
import re
import shlex
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bones.bots import BOTS, make_bot
from bones.engine.hand import pass_bonuses
from bones.engine.handlike import HandLike
from bones.engine.match import Deal, HandSummary, Match, new_seed
from bones.engine.mirror import distinct_moves
from bones.engine.moves import DRAW, PASS, tile_of
from bones.engine.notation import (
    AmbiguousMoveError,
    NotationError,
    format_move,
    parse_move,
)
from bones.engine.rng import PLAY, PURPOSE_HINT, PURPOSE_MOVE, Rng, stream
from bones.engine.rules import MUGGINS_OFF, Rules, RulesError
from bones.games.analysis import (
    BY_WIN,
    DEFAULT_BUDGET,
    MoveValue,
    analyse,
    judge_decision,
    ranked,
    ranked_by,
)
from bones.games.numbers import ascii_number
from bones.games.people import MAX_CHAT, Series
from bones.games.playmeta import read_play
from bones.games.record import (
    BLOCK_AT_DRAW,
    Record,
    Recorder,
    RecordError,
    deal_from_record,
    legacy_pass,
    load_record,
    replay,
    write_record,
)
from bones.games.saves import (
    SaveError,
    SaveExists,
    SaveInUse,
    default_save_dir,
    default_save_stem,
    make_save_dir,
    new_save_path,
    save_lock,
)
from bones.games.why import because
from bones.lang.compile import compile_rules
from bones.lang.spec import Variant
from bones.seat.observation import observe

if TYPE_CHECKING:  # pragma: no cover - the bots are imported when a bot plays
    from bones.bots import Bot
    from bones.games.analysis import Analysis, MoveValue

HUMAN = "human"
#: ``--level`` names the bot that plays every seat not taken by a human.
LEVELS = {"easy": "greedy", "medium": "heuristic", "hard": "search"}
DEFAULT_LEVEL = "hard"
#: The bot that gives hints: the strongest one, at its default budget.
HINT_BOT = "search"
SAVE_FORMAT_KEY = "play"  # our fields live under record["meta"]["play"]
_MAX_NAMES = 1000  # NAME.json, NAME-2.json, ... NAME-999.json
#: a tile as the table prints it, ``[2|1]``, possibly followed by ``@E``
_TILE_AS_PRINTED = re.compile(r"^\[\s*(\d+)\s*\|\s*(\d+)\s*\]")


class GameError(ValueError):
    """A game that cannot be set up, resumed or saved; the message is one line."""


# ----------------------------------------------------------------- seats


@dataclass(frozen=True)
class SeatConfig:
    """Who sits where: ``seats[k]`` is ``"human"`` or a bot spec (``search:iterations=200``)."""

    seats: tuple[str, ...]
    level: str = DEFAULT_LEVEL

    @property
    def humans(self) -> list[int]:
        return [k for k, s in enumerate(self.seats) if s == HUMAN]


def seat_config(players: int, *, seat: int = 0, humans: int = 1,
                bots: Sequence[str] | None = None, level: str = DEFAULT_LEVEL) -> SeatConfig:
    """Humans in seats ``seat``, ``seat+1``, ... (wrapping); bots in the others.

    ``bots`` gives the bots in seat order for the seats left to bots (a
    shorter list repeats); without it every bot is the ``level``'s bot.
    """
    if level not in LEVELS:
        raise GameError(f"--level must be one of {', '.join(LEVELS)}, not '{level}'")
    if not 0 <= humans <= players:
        raise GameError(f"--humans must be between 0 and {players} for {players} players")
    if not 0 <= seat < players:
        raise GameError(f"--seat must be between 0 and {players - 1} for {players} players")
    human_seats = {(seat + i) % players for i in range(humans)}
    bot_seats = players - len(human_seats)
    if bots and len(bots) > bot_seats:  # the message of `bones simulate --bots`
        raise GameError(f"{len(bots)} bots for {bot_seats} seat{'s' * (bot_seats != 1)}")
    bot_list = list(bots) if bots else [LEVELS[level]]
    seats: list[str] = []
    b = 0
    for k in range(players):
        if k in human_seats:
            seats.append(HUMAN)
        else:
            seats.append(bot_list[b % len(bot_list)])
            b += 1
    return SeatConfig(tuple(seats), level)


def bot_rng(seed: int, hand_number: int, ply: int, seat: int, salt: str = "bot") -> Rng:
    """The generator of one decision: a pure function of where it is made,
    ``stream(seed, PLAY, hand_number, ply, seat, purpose)`` (docs/random.md)."""
    purpose = PURPOSE_HINT if salt == "hint" else PURPOSE_MOVE
    return stream(seed, PLAY, hand_number, ply, seat, purpose)


# ---------------------------------------------------------------- events


@dataclass
class Event:
    """One move as the players should hear about it."""

    seat: int
    move: int
    text: str  # the move's notation
    count: int  # the count after the move
    points: int  # what the play was worth (the true points of its count)
    claim: int | None  # what the mover claimed, under the muggins rule
    gains: list[int]  # each owner's score change from this move, settlement excluded
    hand_over: bool = False
    drawn: int = -1  # the tile a draw took (only its drawer may be shown it)
    #: the pass bonuses this pass earned: (side, points, which), which being
    #: bones.engine.hand.OPENING_PASS or ROUND_PASS
    bonuses: list[tuple[int, int, str]] = field(default_factory=list)


@dataclass
class Option:
    """A legal move as offered to a human."""

    move: int
    text: str
    points: int  # points the mover would score (under muggins: the true points)
    count: int  # the count after it


# --------------------------------------------------------------- session


@dataclass
class _HandLog:
    deal: Deal
    start_scores: list[int]
    moves: list[str] = field(default_factory=list)
    codes: list[int] = field(default_factory=list)
    claims: list[int | None] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


class GameSession:
    """One game of `bones play` from its first deal to the match's end."""

    def __init__(self, variant: Variant, rules: Rules, config: SeatConfig, seed: int,
                 save_path: Path, source: str) -> None:
        self.variant = variant
        self.rules = rules
        self.config = config
        self.seed = seed
        self.save_path = save_path
        self.source = source  # what the player named: a built-in or a file
        self.match = Match(rules, seed)
        self.recorder = Recorder(self.match)
        self.hands: list[_HandLog] = []
        self.hand: HandLike | None = None
        #: the hand that ended last and its summary, for the hand-end table
        self.finished: tuple[HandLike, HandSummary] | None = None
        self.takebacks: list[dict[str, Any]] = []
        #: who sits where by name, the table's chat and the series this match
        #: belongs to (`bones serve`; :mod:`bones.games.people`)
        self.names: list[str | None] = [None] * rules.players
        self.chat: list[dict[str, Any]] = []
        self.series: Series | None = None
        #: the seats of people handed to a bot by the host of `bones serve`
        #: (their bot is in ``config.seats``): still people's seats
        self.handed: list[int] = []
        #: a resignation that ended the match, and the people who left the
        #: table (`bones serve`): :meth:`resign`, :meth:`leave`
        self.resigned: dict[str, Any] | None = None
        self.left: list[dict[str, Any]] = []
        self._bots: dict[str, Bot] = {}
        #: the file exists (it was resumed, or its first version was created):
        #: later saves replace it; before that, a save creates it and never
        #: replaces another file
        self._on_disk = False
        #: without ``--save``: the name to number (``-2``, ``-3``...) if taken
        self._default_stem: str | None = None

    # ------------------------------------------------------------ set-up

    @classmethod
    def new(cls, variant: Variant, *, players: int | None = None, teams: bool | None = None,
            seat: int = 0, humans: int = 1, bots: Sequence[str] | None = None,
            level: str = DEFAULT_LEVEL, seed: int | None = None,
            save_path: Path | None = None, source: str | None = None) -> GameSession:
        try:
            rules = compile_rules(variant, players, teams)
        except RulesError as err:
            raise GameError(str(err)) from None
        config = seat_config(rules.players, seat=seat, humans=humans, bots=bots, level=level)
        for spec_text in set(config.seats) - {HUMAN}:
            _make_bot(spec_text)  # an unknown bot fails now, not at its first turn
        seed = new_seed() if seed is None else seed
        stem = None
        if save_path is None:
            stem = default_save_stem(variant.name, seed)
            save_path = new_save_path(default_save_dir(), stem, 1)
        session = cls(variant, rules, config, seed, save_path, source or variant.name)
        session._default_stem = stem
        session._deal()
        return session

    @classmethod
    def resume(cls, path: Path, trusted_bots: Sequence[str] = ()) -> GameSession:
        """The game saved in ``path``, exactly where it stopped.

        Refuses (:class:`GameError`, file untouched) a file that is not a
        bones play save, or whose moves do not replay.  A save is data: its
        seats are started only if each bot is a built-in one that reads no
        file and starts nothing (every parameter a number or one of fixed
        choices); any other bot must be named, exactly as saved, in
        ``trusted_bots`` by the person resuming (``--bots`` on their command
        line).  Hold :func:`bones.games.saves.save_lock` on ``path`` around
        the resume and the play that follows.
        """
        record, variant, rules = _read_save(path)
        play = read_play(record.meta, rules.players)  # checked as the record was read
        if play is None:
            raise GameError(f"{path}: a game record but not a `bones play` save (no meta.play)")
        try:
            config = _saved_seats(path, play.seats, play.level, trusted_bots)
            if record.seed is None:
                raise GameError(f"{path}: the save has no seed")
            session = cls(variant, rules, config, record.seed, path,
                          play.source if play.source is not None else variant.name)
            session.takebacks = list(play.takebacks)
            session.names = list(play.names)
            session.handed = list(play.handed)
            session.chat = list(play.chat)
            session.series = play.series
            session.left = [dict(x) for x in play.left]
            session._replay_saved(path, record)
            if play.resigned is not None and not session.over:
                session._end_by_resignation(dict(play.resigned))
            if record.version == 1 and play.rng is not None and not session.match.game_over:
                # a save from before the specified stream: the next hands are
                # dealt by the generator it was made with (docs/random.md)
                legacy = random.Random()
                legacy.setstate(play.rng)
                session.match.legacy = session.match.rng = legacy
            for spec_text in set(config.seats) - {HUMAN}:
                _make_bot(spec_text)
        except GameError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as err:
            raise GameError(f"{path}: not a valid bones play save ({_one_line(err)})") from None
        session.finished = None
        session._on_disk = True
        return session

    def _replay_saved(self, path: Path, record: Record) -> None:
        """Play a save's hands again, move by move, checking that they hold together."""
        hands = record.hands
        if not hands:
            raise GameError(f"{path}: the save holds no hand")
        for number, entry in enumerate(hands, 1):
            hand = self._start(deal_from_record(self.rules, entry.deal, f"hand {number}"))
            claims = entry.claims or [None] * len(entry.moves)
            for ply, (text, claim) in enumerate(zip(entry.moves, claims, strict=True), 1):
                if legacy_pass(hand, entry.moves, ply - 1, record.version):
                    break  # an older save's pass after the draw that now blocks the hand
                if hand.over:
                    raise GameError(f"{path}: hand {number} goes on after it ended (move {ply})")
                self._apply_text(text, claim, where=f"hand {number} move {ply}")
            if number < len(hands) and not hand.over:
                raise GameError(f"{path}: hand {number} is unfinished but another follows")
        if self.hand is not None and self.hand.over and not self.over:
            if record.version >= BLOCK_AT_DRAW or hands[-1].end is not None:
                raise GameError(f"{path}: the last hand ended but the match goes on and no "
                                "hand follows")
            # saved one pass before the hand's end under the older rule: the
            # hand ended at its last draw, and the next one is dealt
            self._deal()

    # ---------------------------------------------------------- reading

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def hand_number(self) -> int:
        return len(self.hands)

    @property
    def over(self) -> bool:
        return self.match.game_over

    @property
    def current(self) -> _HandLog:
        return self.hands[-1]

    @property
    def muggins(self) -> bool:
        return self.rules.muggins != MUGGINS_OFF

    def is_human(self, seat: int) -> bool:
        return self.config.seats[seat] == HUMAN

    @property
    def people_seats(self) -> list[int]:
        """The seats of people: the human seats and those handed to a bot for a while."""
        return sorted(set(self.human_seats) | set(self.handed))

    def hand_back_all(self) -> list[int]:
        """Give every seat handed to a bot back to its person (``human``); the seats given back."""
        back = list(self.handed)
        if back:
            seats = list(self.config.seats)
            for seat in back:
                seats[seat] = HUMAN
            self.config = SeatConfig(tuple(seats), self.config.level)
            self.handed = []
        return back

    @property
    def human_seats(self) -> list[int]:
        return self.config.humans

    def seat_name(self, seat: int) -> str:
        humans = self.human_seats
        if humans == [seat]:
            return "You"
        return self.names[seat] or f"Seat {seat}"

    def owner_name(self, owner: int) -> str:
        if self.rules.teams:
            seats = [s for s in range(self.players) if self.rules.owner[s] == owner]
            return f"Team {'AB'[owner]} ({'+'.join(str(s) for s in seats)})"
        return self.seat_name(owner)

    def options(self) -> list[Option]:
        """The legal moves of the player to move, with what each would score."""
        hand = self.hand
        assert hand is not None
        out = []
        for move in self.listed_moves():
            trial = hand.copy()
            trial.apply(move)
            out.append(Option(move, move_text(hand, move), trial.last_points, trial.count))
        return out

    def listed_moves(self) -> list[int]:
        """The legal moves as offered (numbered) to a human: moves that are
        one, the same tile on twin arms (:mod:`bones.engine.mirror`: a tile
        on either side of a led double, on either cross arm of a spinner, on
        either end of a line showing the same pip at both), are listed once,
        the first of them (the others are still accepted when typed)."""
        hand = self.hand
        assert hand is not None
        return distinct_moves(hand, hand.legal_moves())

    def history(self) -> list[Event]:
        return list(self.current.events)

    # ------------------------------------------------------------ moves

    def parse(self, text: str) -> int:
        """The legal move ``text`` names (a number from the list, or notation).

        Raises :class:`GameError` with a one-line reason otherwise.
        """
        hand = self.hand
        assert hand is not None
        raw = _TILE_AS_PRINTED.sub(r"\1-\2", text.strip())  # [2|1] as the screen prints it
        legal = self.listed_moves()
        if raw.isascii() and raw.isdigit():  # a number from the list (never ² or ٣)
            n = ascii_number(raw)
            if n is not None and 1 <= n <= len(legal):
                return legal[n - 1]
            shown = raw if len(raw) <= 20 else raw[:17] + "..."
            raise GameError(f"there is no move {shown}: choose 1 to {len(legal)}")
        try:
            move = parse_move(hand, raw)
        except AmbiguousMoveError as err:
            raise GameError(str(err)) from None
        except NotationError as err:
            if not raw:
                raise GameError("empty line: type a move's number, a move like 6-4@E, "
                                "draw or pass (? hint, h history, r rules, u take back, q quit)") from None
            reason = str(err)
            doubled = f"'{raw}': '{raw}'"
            if reason.startswith(doubled):  # the notation quotes the text once already
                reason = reason[len(f"'{raw}': "):]
            raise GameError(f"{reason} (type a number from the list, or ? for a hint)") from None
        if move >= 0 and not hand.hands[hand.turn] >> tile_of(move) & 1:
            name = self.rules.tiles.names[tile_of(move)]
            who = "you don't" if self.seat_name(hand.turn) == "You" else f"seat {hand.turn} doesn't"
            raise GameError(f"{who} hold {name}")
        if not hand.is_legal(move):
            names = ", ".join(move_text(hand, m) for m in legal)
            shown = raw if move >= 0 else raw.lower()
            raise GameError(f"{shown} is not legal now; legal: {names}")
        return move

    def play(self, move: int, claim: int | None = None) -> Event:
        """Make ``move`` for the player to move (a legal one) and save."""
        event = self._apply(move, claim)
        self._after_move()
        return event

    def bot_move(self) -> Event:
        """Let the bot whose turn it is choose and make its move, and save."""
        return self.bot_play(self.bot_thinking()())

    def bot_thinking(self) -> Callable[[], int]:
        """The thinking of the bot whose turn it is: a function that gives its
        move.  It reads only its own copy of what the bot may see (the seat's
        observation and the decision's stream), never the session, so it may
        run while the session serves others (`bones serve` answers reads and
        chat while a bot thinks); :meth:`bot_play` then makes the move, if the
        game is still where it was."""
        hand = self.hand
        assert hand is not None
        seat = hand.turn
        legal = hand.legal_moves()
        if len(legal) == 1:
            forced = legal[0]  # a forced move needs no thought
            return lambda: forced
        spec = self.config.seats[seat]
        bot = self._bots.get(spec)
        if bot is None:
            bot = self._bots[spec] = _make_bot(spec)
        rng = bot_rng(self.seed, self.hand_number, len(hand.log), seat, "bot")
        obs = observe(hand, seat)
        return lambda: int(bot.choose(obs, rng))

    def bot_play(self, move: int) -> Event:
        """Make ``move``, the choice of the bot whose turn it is, and save."""
        hand = self.hand
        assert hand is not None
        if not hand.is_legal(move):  # pragma: no cover - a bot bug must not corrupt a game
            raise GameError(f"bot {self.config.seats[hand.turn]} chose an illegal move "
                            f"({format_move(hand, move)})")
        return self.play(move)

    def hint(self) -> str:
        """The search's best move for the player to move, and how much better
        it is than the next best: ``6-4@E (+3.2 expected; 1.5 better than
        5-5)``.  The values are those `bones analyse` gives this decision
        (:meth:`hint_values`)."""
        return self.hint_thinking()()

    def hint_thinking(self) -> Callable[[], str]:
        """The thinking of :meth:`hint`: a function that gives its text.  Like
        :meth:`bot_thinking`, it reads only its own copy of what the player to
        move may see (their observation, the decision's stream and the
        notation of each legal move), never the session, so `bones serve`
        serves the table while it thinks."""

        hand = self.hand
        assert hand is not None
        legal = hand.legal_moves()
        if len(legal) == 1:
            only = f"{move_text(hand, legal[0])} (the only move)"
            return lambda: only
        names = {m: move_text(hand, m) for m in legal}
        rules, obs, seed, number = self.rules, observe(hand, hand.turn, legal), self.seed, self.hand_number

        def think() -> str:
            values = judge_decision(rules, obs, DEFAULT_BUDGET, seed, number)
            return _hint_text([replace(v, notation=names[v.move],
                                       same=tuple((m, names[m]) for m, _ in v.same))
                               for v in values])

        return think

    def hint_values(self) -> list[MoveValue]:
        """The search's value of every legal move of the player to move (and
        the match-win probability where the match is at stake), from their
        view only, by :func:`bones.games.analysis.judge_decision` with the
        hint's stream at the analysis's default budget: exactly what `bones
        analyse` says of this decision."""

        hand = self.hand
        assert hand is not None
        legal = hand.legal_moves()
        if len(legal) == 1:
            return [MoveValue(legal[0], format_move(hand, legal[0]), 0.0)]
        values = judge_decision(self.rules, observe(hand, hand.turn, legal), DEFAULT_BUDGET,
                                self.seed, self.hand_number)
        return [replace(v, notation=format_move(hand, v.move),
                        same=tuple((m, format_move(hand, m)) for m, _ in v.same))
                for v in values]

    def analyse_hand(self, number: int) -> Analysis:
        """The analysis of hand ``number`` (from 1) for the people's seats,
        handed ones included (every seat when there are none), as `bones
        analyse` gives it."""
        return analyse(self.to_record(), self.people_seats or None, DEFAULT_BUDGET, self.seed,
                       only_hands=[number])

    def can_take_back(self) -> str | None:
        """Why a take-back is impossible now, or ``None`` when it is possible."""
        if len(self.human_seats) != 1:
            return "take-backs are for games against bots only"
        hand = self.hand
        if hand is None or self.over:
            return "the game is over"
        seat = self.human_seats[0]
        if not any(s == seat for s, _, _ in hand.log):
            return "you have not moved yet in this hand"
        # A drawn tile cannot go back into the stock: the player would know
        # the next tile (their own draw) or something of it (a bot's draw,
        # then its play), and could play instead of drawing it.
        ply = self._last_move_of(seat)
        if hand.log[ply][1] == DRAW:
            return ("your last move was a draw, and a draw cannot be taken back "
                    "(you would know the next tile of the stock)")
        drawer = next((s for s, m, _ in hand.log[ply + 1:] if m == DRAW), None)
        if drawer is not None:
            return (f"{self.seat_name(drawer)} drew since your last move, and a draw cannot be "
                    "taken back (you would know a tile of the stock)")
        return None

    # ------------------------------------------------ resigning and leaving

    def resign_winner(self, seat: int) -> int:
        """The side that wins when ``seat`` resigns: the other side of two; of
        more, the one with the most points (-1, a draw, when several share it)."""
        rules = self.rules
        mine = rules.owner[seat]
        others = [o for o in range(rules.owners) if o != mine]
        best = max(self.match.scores[o] for o in others)
        leaders = [o for o in others if self.match.scores[o] == best]
        return leaders[0] if len(leaders) == 1 else -1

    def resign(self, seat: int, at: float | None = None) -> dict[str, Any]:
        """``seat`` resigns the match: it ends now, won by :meth:`resign_winner`,
        the hand in play left unfinished (as an interrupted hand in the record).
        Saved; the resignation is in ``meta.play.resigned``."""
        if self.over:
            raise GameError("the match is over already")
        if not 0 <= seat < self.players:
            raise GameError(f"no seat {seat}")
        entry: dict[str, Any] = {"seat": seat, "hand": self.hand_number,
                                 "ply": len(self.current.moves),
                                 "winner": self.resign_winner(seat), "name": self.names[seat]}
        if at is not None:
            entry["at"] = round(at, 3)
        self._end_by_resignation(entry)
        self.save()
        return entry

    def _end_by_resignation(self, entry: dict[str, Any]) -> None:
        self.resigned = entry
        self.match.game_over = True
        self.match.winner = int(entry["winner"])

    def leave(self, seat: int, bot: str, at: float | None = None) -> dict[str, Any]:
        """The person of ``seat`` leaves the table for good: ``bot`` plays the seat
        from now on (it is no longer a person's, so it is not in ``handed``).
        Saved; the departure is in ``meta.play.left``."""
        if not 0 <= seat < self.players:
            raise GameError(f"no seat {seat}")
        _make_bot(bot)
        entry: dict[str, Any] = {"seat": seat, "hand": self.hand_number,
                                 "ply": len(self.current.moves), "bot": bot,
                                 "name": self.names[seat]}
        if at is not None:
            entry["at"] = round(at, 3)
        seats = list(self.config.seats)
        seats[seat] = bot
        self.config = SeatConfig(tuple(seats), self.config.level)
        self.handed = [s for s in self.handed if s != seat]
        self.left.append(entry)
        self.save()
        return entry

    def _last_move_of(self, seat: int) -> int:
        hand = self.hand
        assert hand is not None
        return max(i for i, (s, _, _) in enumerate(hand.log) if s == seat)

    def take_back(self) -> int:
        """Undo the human's last move of this hand and the bots' replies.

        Never a draw, the human's or a bot's (:meth:`can_take_back`): a tile
        drawn stays drawn, so no take-back shows a tile of the stock that
        playing on would not have shown.  The hand is rebuilt from its deal
        and the moves before it (the count, the scores and the log all come
        back exactly); the save keeps a note of what was taken back.
        Returns how many moves were undone.
        """
        reason = self.can_take_back()
        if reason:
            raise GameError(reason)
        hand = self.hand
        assert hand is not None
        ply = self._last_move_of(self.human_seats[0])
        log = self.current
        undone = log.moves[ply:]
        self.takebacks.append({"hand": self.hand_number, "ply": ply, "undone": list(undone)})
        keep = list(zip(log.moves[:ply], log.claims[:ply]))
        self._restart_current()
        for text, claim in keep:
            self._apply_text(text, claim, where="take-back")
        self.save()
        return len(undone)

    # ------------------------------------------------------------ saving

    def to_record(self) -> Record:
        """The game as a :class:`bones.games.record.Record`, our own fields under meta.play.

        Built by the session's :class:`bones.games.record.Recorder`: finished
        hands carry their end, settlement and scores; the hand in progress is
        stored as interrupted, so a finished game's save is an ordinary record
        for `bones replay`.
        """
        match = self.match
        self.recorder.meta = {
            "command": "play",
            SAVE_FORMAT_KEY: {
                "source": self.source,
                "seats": list(self.config.seats),
                "level": self.config.level,
                "takebacks": list(self.takebacks),
                # what people added in the browser (bones.games.people), when there is any
                **({"names": list(self.names)} if any(self.names) else {}),
                **({"chat": list(self.chat[-MAX_CHAT:])} if self.chat else {}),
                **({"series": self.series.to_json()} if self.series is not None else {}),
                **({"handed": sorted(self.handed)} if self.handed else {}),
                # a match ended by a resignation, the people who left the table
                # (read by newer code; older code ignores them and loads the save)
                **({"resigned": dict(self.resigned)} if self.resigned is not None else {}),
                **({"left": [dict(x) for x in self.left]} if self.left else {}),
                # an old save's generator that deals the next hand, so a
                # resumed game deals exactly what the uninterrupted one would
                # (the specified stream needs no state: docs/random.md)
                "rng": (None if self.over or match.legacy is None
                        else _rng_state_to_json(match.legacy.getstate())),
            },
        }
        record = self.recorder.record()
        if self.resigned is not None:
            # the moves alone do not end the match: the record says what a
            # replay finds (the resignation is meta.play's), so every reader
            # of records, older ones included, takes the save as it is
            record.result = record.result.model_copy(update={"finished": False, "winner": None})
        if match.legacy is not None:
            # format 1: the deals come from Python's random, saved above
            record = record.model_copy(update={"version": 1})
        return record

    def save(self) -> None:
        """Write the game to its save: replace it atomically, or create it.

        The first save of a new game creates the file and never replaces one:
        without ``--save`` the next free name is taken (``…-2.json``...), with
        it an existing file is a :class:`GameError`.
        """
        if self._on_disk:
            self._write(new=False)
            return
        self._make_default_dir()
        for attempt in range(1, _MAX_NAMES):
            if self._default_stem is not None:
                self.save_path = new_save_path(self.save_path.parent, self._default_stem, attempt)
            if self._write(new=True):
                return
        raise GameError(f"no free save name for {self._default_stem} in {self.save_path.parent}")

    def _make_default_dir(self) -> None:
        """The default save folder is made when missing (0700); a folder named
        with ``--save`` must exist already."""
        if self._default_stem is None:
            return
        try:
            make_save_dir(self.save_path.parent)
        except SaveError as err:
            raise GameError(str(err)) from None

    def _write(self, new: bool) -> bool:
        """Write the save; with ``new``, only as a new file (False: the name is taken)."""
        try:
            write_record(self.to_record(), self.save_path, new=new)
        except SaveExists:
            if self._default_stem is None:
                raise GameError(f"{self.save_path} already exists: resume it with --resume, "
                                "or choose another --save file") from None
            return False
        except SaveError as err:
            raise GameError(str(err)) from None
        except OSError as err:
            raise GameError(f"cannot save the game to {self.save_path}: "
                            f"{err.strerror or err}") from None
        self._on_disk = True
        return True

    @contextmanager
    def new_save(self) -> Iterator[Path]:
        """Create the save of a new game and hold its lock for the ``with`` block.

        The name is locked before the file is created, so no other session
        can open the new save until this one lets go of it; without
        ``--save`` a name that is locked or taken is passed over for the next
        one.  Yields the save's path.
        """
        if self._on_disk:
            raise GameError("the game is saved already; lock it with save_lock()")
        self._make_default_dir()
        stack = ExitStack()
        for attempt in range(1, _MAX_NAMES):
            if self._default_stem is not None:
                self.save_path = new_save_path(self.save_path.parent, self._default_stem, attempt)
            try:
                stack.enter_context(save_lock(self.save_path))
            except SaveInUse as err:
                if self._default_stem is None:
                    raise GameError(str(err)) from None
                continue
            except SaveError as err:
                raise GameError(str(err)) from None
            try:
                created = self._write(new=True)
            except BaseException:
                stack.close()
                raise
            if created:
                break
            stack.close()
        else:
            raise GameError(f"no free save name for {self._default_stem} in {self.save_path.parent}")
        with stack:
            yield self.save_path

    # ---------------------------------------------------------- internal

    def _deal(self) -> HandLike:
        return self._start(self.match.next_deal())

    def _start(self, deal: Deal) -> HandLike:
        self.hands.append(_HandLog(deal, list(self.match.scores)))
        self.recorder.start_hand(deal)
        self.hand = self.match.start_hand(deal)
        return self.hand

    def _restart_current(self) -> None:
        log = self.current
        self.match.scores[:] = log.start_scores
        self.hands.pop()
        self.recorder.discard_hand()
        self._start(log.deal)

    def _apply_text(self, text: str, claim: int | None, where: str) -> Event:
        hand = self.hand
        assert hand is not None
        try:
            move = parse_move(hand, str(text))
        except NotationError as err:
            raise GameError(f"{self.save_path}: {where}: {err}") from None
        if not hand.is_legal(move):
            raise GameError(f"{self.save_path}: {where}: {text} is not legal there")
        if claim is not None and (not isinstance(claim, int) or claim < 0):
            raise GameError(f"{self.save_path}: {where}: bad claim {claim!r}")
        return self._apply(move, claim)

    def _apply(self, move: int, claim: int | None) -> Event:
        hand = self.hand
        assert hand is not None
        seat = hand.turn
        text = move_text(hand, move)
        points = 0
        if claim is not None and move >= 0:
            trial = hand.copy()
            trial.apply(move)
            points = trial.last_points
        before = list(hand.scores)
        bonuses = (pass_bonuses(hand.rules, hand, seat, hand.passes + 1)
                   if move == PASS and hand.extra < 0 else [])
        hand.apply(move, claim if move >= 0 else None)
        if claim is None:
            points = hand.last_points
        gains = [a - b for a, b in zip(hand.scores, before)]
        if hand.over and hand.settlement is not None:
            gains = [g - s for g, s in zip(gains, hand.settlement)]
        log = self.current
        log.moves.append(text)
        log.codes.append(move)
        log.claims.append(claim if move >= 0 else None)
        self.recorder.move(seat, move, text, claim if move >= 0 else None)
        drawn = hand.boneyard[hand.bone_pos - 1] if move == DRAW else -1
        event = Event(seat, move, text, hand.count, points, claim, gains, hand.over, drawn, bonuses)
        log.events.append(event)
        if hand.over:
            self._close_hand()
        return event

    def _close_hand(self) -> None:
        hand = self.hand
        assert hand is not None and hand.over
        summary = self.match.finish_hand(hand)
        self.recorder.end_hand(hand)
        self.finished = (hand, summary)

    def _after_move(self) -> None:
        if self.hand is not None and self.hand.over and not self.over:
            self._deal()
        self.save()


def move_text(hand: HandLike, move: int) -> str:
    """A move's notation as the table shows and saves it: a train layout's play
    always names its train (``12-5@T0``: which train is the decision), others
    are bare when the tile fits one place (:func:`format_move`)."""
    if hand.rules.trains is not None and move >= 0 and hand.placed:
        return format_move(hand, move, bare=False)
    return format_move(hand, move)


# ------------------------------------------------------------------ bots


def _hint_text(values: list[Any]) -> str:
    """The hint of the search's values of the moves (one entry for twins,
    :mod:`bones.engine.mirror`), ranked by the analysis's key
    (:func:`bones.games.analysis.ranked_by`): ``6-4@E (+3.2 expected; 1.5
    better than 5-5): 6-4@E scores 10 (the ends add to 10)``, or where the
    match-win probability ranks, ``6-4@E (58% to win the match, 2.1% more
    than 5-5; +3.2 expected): ...``; the words say why the best beats the
    next best (:func:`bones.games.why.because`).  The best move's twins are
    named with it and never ranked against it (``6-4@W = 6-4@E (...)``)."""
    order = ranked(values)
    best = order[0]
    name = " = ".join([best.notation, *(n for _, n in best.same)])
    if len(values) == 1:  # every legal move is one move
        return f"{name} (the only move)"
    second = order[1]
    if ranked_by(values) == BY_WIN and best.win is not None and second.win is not None:
        gap = best.win - second.win
        ahead = round(gap * 100, 1) > 0
        better = (f"{gap:.1%} more than {second.notation}" if ahead
                  else f"as good as {second.notation}")
        text = f"{name} ({best.win:.0%} to win the match, {better}; {best.value:+.1f} expected)"
    else:
        gap = best.value - second.value
        ahead = round(gap, 1) > 0
        better = (f"{gap:.1f} better than {second.notation}" if ahead
                  else f"as good as {second.notation}")
        # where the match is at stake: the side's chance after the best move
        chance = "" if best.win is None else f"; {best.win:.0%} to win the match"
        text = f"{name} ({best.value:+.1f} expected; {better}{chance})"
    if ahead and best.reasons is not None:
        text += f": {because(best, second)}"
    return text


def _make_bot(spec_text: str) -> Bot:
    try:
        return make_bot(spec_text)
    except (ValueError, KeyError) as err:
        raise GameError(f"--bots: {_one_line(err)}") from None


def _saved_seats(path: Path, seats: tuple[str, ...], level: str,
                 trusted_bots: Sequence[str]) -> SeatConfig:
    """A save's seats (read by :func:`bones.games.playmeta.read_play`), each a human,
    a trusted bot or a built-in bot that reads nothing."""
    config = SeatConfig(seats, level)
    for k, spec_text in enumerate(seats):
        if spec_text == HUMAN or spec_text in trusted_bots:
            continue
        if not _known_bot(spec_text):
            raise GameError(f"{path}: seat {k} names no bot bones knows ({spec_text[:40]!r})")
        if not bot_is_data(spec_text):
            raise GameError(
                f"{path}: seat {k} is the bot {spec_text!r}, which is not a built-in bot "
                "that reads nothing; a save cannot start it: if you trust it, resume "
                f"with --bots {shlex.quote(spec_text)}")
        try:
            _make_bot(spec_text)  # its parameters within the limits of every front end
        except GameError as err:
            raise GameError(f"{path}: seat {k}: {str(err).removeprefix('--bots: ')}") from None
    return config


def _known_bot(spec_text: str) -> bool:
    return spec_text.split(":", 1)[0].strip().lower() in BOTS


def bot_is_data(spec_text: str) -> bool:
    """Whether a saved bot may be started without its player naming it.

    True for a bot of bones' own registry that can only compute: defined in
    :mod:`bones.bots`, every parameter a number or one of fixed
    choices (a free text parameter could name a file or a program).
    """
    info = BOTS.get(spec_text.split(":", 1)[0].strip().lower())
    if info is None:
        return False
    module = getattr(info.factory, "__module__", "") or ""
    if not module.startswith("bones.bots"):
        return False
    return all(p.kind in (int, float) or p.choices for p in info.params)


# ------------------------------------------------------------ save files


def _read_save(path: Path) -> tuple[Record, Variant, Rules]:
    """The record in ``path`` with its variant and rules, checked by a full replay."""
    try:
        record = load_record(path)
        # a save whose recorded ends, settlements or scores disagree with its
        # moves has been edited or damaged: refuse it rather than "repair" it
        result = replay(record)
    except RecordError as err:
        message = _one_line(err)
        raise GameError(message if message.startswith(str(path)) else f"{path}: {message}") from None
    return record, result.variant, result.rules


def _rng_state_to_json(state: tuple[Any, ...]) -> list[Any]:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def _one_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__


__all__ = [
    "HUMAN",
    "LEVELS",
    "Event",
    "GameError",
    "GameSession",
    "Option",
    "SeatConfig",
    "bot_is_data",
    "bot_rng",
    "seat_config",
]
