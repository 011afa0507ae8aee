"""Live games of `bones serve`: sessions, their save files, seat keys and bots.

A web game is a :class:`bones.games.game.GameSession` whose save file lives
in the server's save folder, the same file `bones play` writes (a game begun
in the browser resumes with ``bones play --resume`` and the other way round).
It is saved after every move.  Beside the saves, ``web/ID.json`` (readable by
its owner only) names the save and holds the SHA-256 of each human seat's key,
never a key: a restarted server finds every game again and the same seat
links keep working.

Every operation on a game runs in a worker thread under the game's lock and
the save's lock (:func:`bones.games.saves.save_lock`, held only while one
request is served, so `bones play` and the server never write one save at
once), re-reads the save first when another program changed it, and touches
nothing of any other game: a failure is reported for that game alone.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bones.web import tokens
from bones.web.errors import ApiError as ApiError  # re-exported: every route raises it
from bones.web.limits import limit

if TYPE_CHECKING:  # pragma: no cover
    from contextlib import AbstractContextManager

    from bones.engine.rules import Rules
    from bones.games.game import GameSession
    from bones.lang.spec import Variant

# The engine is imported at a game's first use, not when the server starts
# (pydantic alone takes most of a second): see :func:`warm`.
HUMAN = "human"

log = logging.getLogger("bones.serve")


def warm() -> None:
    """Import the engine and read the built-in variants (the server does this
    in the background right after it starts listening)."""
    from bones.seat import observation  # noqa: F401
    from bones.web.variants import builtin_index

    builtin_index()

#: The revoked watch links a game remembers, to tell their spectators so.
MAX_REVOKED = 200
#: What a save's file name must look like to be opened by name.
SAVE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,150}\.json$")
INDEX_DIR = "web"


#: A game none of whose people has asked about it for this long (seconds;
#: an open page long-polls every 20) is abandoned: a bot thinking in it is
#: stopped, and the next look at the game starts it again.
ABANDONED_AFTER = 60.0

#: Worlds per decision of the page's analyses, by default and at most (a
#: hundred worlds take about 2 ms a decision in the native core, 0.3 s in Python).
ANALYSIS_BUDGET, MAX_ANALYSIS_BUDGET = 100, 1000


def check_bot(text: Any, jobs: int | None = None) -> str:
    """A client's bot text if it is a built-in bot within :data:`bones.bots.BOT_LIMITS`
    (read by :func:`bones.bots.parse_bot`, the reader of every front end; a client
    may give only the parameters with a limit) and, on a server of ``jobs``
    workers, with at most ``jobs`` threads; else :class:`ApiError`.  Returns the
    bot's name as it writes itself (``search:iterations=200``)."""
    from bones.bots import BOT_LIMITS, BotError, make_bot, parse_bot

    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, "a bot seat needs a bot: one of " + ", ".join(BOT_LIMITS))
    raw = text.strip()
    name = raw.split(":")[0].strip().lower()
    if name not in BOT_LIMITS:
        shown = name if len(name) <= 24 else name[:20] + "..."
        raise ApiError(400, f"bot '{shown}' is not a built-in bot the server runs "
                            f"(bots: {', '.join(BOT_LIMITS)})")
    try:
        name, values = parse_bot(raw)
    except BotError as err:
        raise ApiError(400, str(err)) from None
    limits = BOT_LIMITS[name]
    for key in values:
        if key not in limits:
            allowed = ", ".join(limits) or "none"
            raise ApiError(400, f"{name}: parameter '{key}' is not allowed here (allowed: {allowed})")
    threads = values.get("threads", 1)
    if jobs is not None and threads > jobs:
        raise ApiError(400, f"{name}: threads may be at most {jobs} on this server (its --jobs)")
    try:
        return make_bot(raw).name
    except BotError as err:
        raise ApiError(400, str(err)) from None


def _save_lock(path: Path) -> AbstractContextManager[Path]:
    """The save's inter-process lock, held only while one request is served on it."""
    from bones.games.saves import save_lock

    return save_lock(path, "bones serve")


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _write_private(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON, readable by its owner only, atomically (the
    save writer's temporary file is created 0600 and renamed over ``path``)."""
    from bones.games.saves import replace_save

    replace_save(path, json.dumps(data, indent=1))


@dataclass
class WebGame:
    """One game the server holds."""

    id: str
    path: Path  # the save file
    seat_hashes: dict[int, str]
    created: float
    session: GameSession | None = None
    stat: tuple[int, int] | None = None  # the save as we last wrote or read it
    lock: threading.Lock = field(default_factory=threading.Lock)
    thinking: threading.Lock = field(default_factory=threading.Lock)  # one bot thinks at a time
    version: int = -1
    over: bool = False
    error: str | None = None  # why this game stopped (a bot failure), shown to its seats
    busy: bool = False  # a bot is thinking
    watch_hashes: list[str] = field(default_factory=list)  # the watch links' keys (bones.web.watch)
    revoked_hashes: list[str] = field(default_factory=list)  # stopped watch links, newest last
    left_hashes: list[str] = field(default_factory=list)  # the keys of people who left (etiquette)
    # the people at the table (bones.web.people, bones.web.chat, bones.web.series)
    stamp: int = 0  # grows with every name, message, hand-over and rematch answer
    seen: dict[int, float] = field(default_factory=dict)  # seat -> when its key last asked
    accepted: set[int] = field(default_factory=set)  # seats that asked for a rematch
    recent: dict[tuple[str, int], list[float]] = field(default_factory=dict)  # rate limits

    # -- under the lock ------------------------------------------------

    @contextlib.contextmanager
    def held(self) -> Iterator[GameSession]:
        """The session, fresh from the save, with the game's and the save's locks held."""
        from bones.games.game import GameError
        from bones.games.saves import SaveError, SaveInUse

        with self.lock:
            try:
                with _save_lock(self.path):
                    yield self._fresh()
            except ApiError:
                raise
            except SaveInUse as err:
                raise ApiError(423, f"game {self.id}: {str(err).splitlines()[0]}") from None
            except SaveError as err:
                raise ApiError(500, f"game {self.id}: {str(err).splitlines()[0]}") from None
            except GameError as err:
                raise ApiError(500, f"game {self.id}: {str(err).splitlines()[0]}") from None

    def _fresh(self) -> GameSession:
        from bones.games.game import GameError, GameSession

        now = _stat(self.path)
        if now is None:
            raise ApiError(410, f"the save of game {self.id} is gone ({self.path.name})")
        if self.session is None or now != self.stat:
            try:
                self.session = GameSession.resume(self.path)
            except GameError as err:
                raise ApiError(500, f"game {self.id}: {err}") from None
            self.stat = now
            # a person's seat (it has a key) that a bot plays was handed to it, even
            # if an older server did not record that in the save: the next save does
            session = self.session
            handed = {s for s in self.seat_hashes if not session.is_human(s)}
            if not handed <= set(session.handed):
                session.handed = sorted(handed | set(session.handed))
        self._note()
        return self.session

    def _note(self) -> None:
        from bones.web.view import version_of

        assert self.session is not None
        self.version = version_of(self.session)
        self.over = self.session.over

    def saved(self) -> None:
        """Remember the save as just written by us."""
        self.stat = _stat(self.path)
        self._note()

    def seat_of(self, key: str | None) -> int:
        """The seat whose key ``key`` is; 401 without a key, 403 for a wrong one."""
        if key is None:
            raise ApiError(401, "this needs a seat's key: send it as 'Authorization: Bearer KEY'")
        for seat, stored in self.seat_hashes.items():
            if tokens.matches(key, stored):
                self.seen[seat] = time.time()
                return seat
        if any(tokens.matches(key, stored) for stored in self.watch_hashes):
            raise ApiError(403, "this is a watch link: a spectator watches the game but cannot "
                                "play, chat or take a seat")
        if any(tokens.matches(key, stored) for stored in self.left_hashes):
            raise ApiError(403, "you left this table: a bot plays your seat now")
        if any(tokens.matches(key, stored) for stored in self.revoked_hashes):
            raise ApiError(403, "this watch link was revoked: the host stopped every watch link "
                                "of this game (ask for a new one)")
        raise ApiError(403, "that key is not a seat of this game")

    def view(self, seat: int) -> dict[str, Any]:
        with self.held() as session:
            return self.seat_view(session, seat)

    def view_of(self, key: str | None) -> dict[str, Any]:
        """The view of the seat ``key`` holds, looked up under the same hold of
        the lock as the view is built: a rematch moves every key one seat on
        and starts the next match at once, and a view must never show the new
        match from the seat the key held in the last."""
        with self.held() as session:
            return self.seat_view(session, self.seat_of(key))

    def seat_view(self, session: GameSession, seat: int) -> dict[str, Any]:
        """What ``seat`` sees (:func:`bones.web.view.seat_view`) and, under ``social``,
        the names, chat, series and rematch of the table (:mod:`bones.web.people`)."""
        from bones.web.people import social_json
        from bones.web.view import seat_view

        out = seat_view(session, seat, version=self.version, game_id=self.id,
                        busy=self.busy, error=self.error)
        out["social"] = social_json(self, session, seat)
        return out

    def abandoned(self, now: float | None = None) -> bool:
        """Whether none of the game's people (its seats' keys) has asked
        about it for :data:`ABANDONED_AFTER` seconds."""
        last = max(self.seen.values(), default=self.created)
        return (time.time() if now is None else now) - last > ABANDONED_AFTER

    def bot_to_move(self) -> bool:
        session = self.session
        if session is None or session.over or self.error:
            return False
        hand = session.hand
        return hand is not None and not hand.over and not session.is_human(hand.turn)

    def bot_threads(self) -> int:
        """The threads the bot to move thinks with (its ``threads`` parameter; 1
        for most bots): the worker slots its move takes (:mod:`bones.web.workers`)."""
        from bones.bots import BotError, parse_bot

        session = self.session
        hand = session.hand if session is not None else None
        if session is None or hand is None or session.is_human(hand.turn):
            return 1
        try:
            return int(parse_bot(session.config.seats[hand.turn])[1].get("threads", 1))
        except BotError:
            return 1

    def move(self, seat: int, text: Any, claim: Any, version: Any) -> dict[str, Any]:
        """Make ``text`` (notation) for ``seat`` if ``version`` is the game's current one."""
        from bones.games.game import GameError

        if not isinstance(text, str) or not text.strip() or len(text) > 40:
            raise ApiError(400, "move must be a move in notation, like 6-4@E, draw or pass")
        if text.strip().isdigit():
            raise ApiError(422, f"'{text.strip()}' is not a move: write it in notation "
                                "(6-4@E, draw or pass)")
        with self.held() as session:
            self._check_turn(session, seat, version)
            try:
                move = session.parse(text)
            except GameError as err:
                raise ApiError(422, str(err)) from None
            if session.muggins and move >= 0:
                if isinstance(claim, bool) or not isinstance(claim, int) or not 0 <= claim <= 10_000:
                    raise ApiError(422, "this variant has the muggins rule: give claim, the points "
                                        "you claim for this play (0 for none)")
            elif claim is not None:
                raise ApiError(422, "claim is only for plays under the muggins rule")
            session.play(move, claim if session.muggins and move >= 0 else None)
            self.saved()
            return self.seat_view(session, seat)

    def take_back(self, seat: int, version: Any) -> dict[str, Any]:
        """Undo ``seat``'s last move of the hand and the bots' replies (games against bots)."""
        from bones.games.game import GameError

        with self.held() as session:
            self._check_version(version)
            if not session.is_human(seat):  # pragma: no cover - keys are only for human seats
                raise ApiError(403, "only a player takes back")
            try:
                session.take_back()
            except GameError as err:
                raise ApiError(409, str(err)) from None
            self.saved()
            return self.seat_view(session, seat)

    def analysis(self, seat: int, hand: Any) -> dict[str, Any]:
        """`bones analyse --json` of ``seat``'s decisions in the finished hand
        number ``hand`` (from 1): each judged from the seat's own view, so
        nothing hidden from it is shown.  Run in one of the server's workers;
        a seat asks at most :data:`bones.web.limits.BURST` times in
        :data:`~bones.web.limits.WINDOW` seconds."""
        from bones.games.analysis import analyse, analysis_json

        if isinstance(hand, bool) or not isinstance(hand, int) or hand < 1:
            raise ApiError(400, "hand must be a hand's number, from 1")

        with self.held() as session:
            limit(self, "analysis", seat)  # counted as the seat's chat is (429 on a flood)
            record = session.to_record()
        if hand > len(record.hands) or record.hands[hand - 1].end is None:
            raise ApiError(409, f"hand {hand} is not over")
        from bones.games.record import RecordError

        try:
            done = analyse(record, [seat], ANALYSIS_BUDGET, record.seed, only_hands=[hand])
        except RecordError as err:  # a layout the analysis does not judge yet (trains)
            raise ApiError(409, str(err).splitlines()[0]) from None
        return analysis_json(done, self.path.name)

    def _check_version(self, version: Any) -> None:
        if isinstance(version, bool) or not isinstance(version, int):
            raise ApiError(400, "version must be the version of the state the move was chosen in")
        if version != self.version:
            raise ApiError(409, f"the game has moved on since version {version} (it is at "
                                f"{self.version}): look again and choose again")

    def _check_turn(self, session: GameSession, seat: int, version: Any) -> None:
        self._check_version(version)
        if self.error:
            raise ApiError(409, f"this game has stopped: {self.error}")
        if session.over:
            raise ApiError(409, "the game is over")
        if not session.is_human(seat):
            raise ApiError(409, f"the host has handed your seat to the bot "
                                f"{session.config.seats[seat]}: ask the host to hand it back")
        hand = session.hand
        assert hand is not None
        if hand.turn != seat:
            raise ApiError(409, f"it is not your turn: seat {hand.turn} is to move")

    def bot_step(self, expected: int) -> bool:
        """The bot to move plays, if the game is still at ``expected``.

        It thinks without the game's lock or the save's (its thinking reads
        its own copy of the seat's view: :meth:`GameSession.bot_thinking`), so
        the table's reads, chat and names are answered meanwhile; its move is
        made under both locks, if nothing moved in between (a take-back, a
        seat handed over, the save changed by the terminal: it then thinks
        again; a match resigned meanwhile: no move at all).  One bot thinks
        at a time for a game.  True while the bots should go on, False when
        no bot is to move, a bot failed, or its search was stopped (the game
        deleted or abandoned, the server stopping: :mod:`bones.web.workers`):
        a stopped bot makes no move, nothing is saved, and the game is as it
        was.
        """
        from bones.bots.stop import Stopped

        with self.thinking:
            with self.held() as session:
                if self.version != expected or not self.bot_to_move():
                    return False
                hand = session.hand
                assert hand is not None
                seat = hand.turn
                spec = session.config.seats[seat]
                try:
                    think = session.bot_thinking()
                except Exception as err:  # noqa: BLE001 - one game's failure stays in that game
                    return self._bot_failed(err)
            try:
                move = think()
            except Stopped:
                return False
            except Exception as err:  # noqa: BLE001
                with self.lock:
                    return self._bot_failed(err)
            with self.held() as now:
                if now.over:  # a resignation while it thought (bones.web.etiquette)
                    return False
                if (now is not session or now.hand is not hand or self.version != expected
                        or hand.turn != seat or now.config.seats[seat] != spec):
                    return True  # the table changed while the bot thought: look again
                try:
                    session.bot_play(move)
                except Exception as err:  # noqa: BLE001
                    return self._bot_failed(err)
                self.saved()
                return True

    def _bot_failed(self, err: Exception) -> bool:
        """Stop this game (held under its lock) with the reason a bot failed."""
        first = str(err).splitlines()[0] if str(err) else ""
        self.error = f"a bot failed: {type(err).__name__}: {first}"
        log.error("game %s: %s", self.id, self.error)
        self.session = None  # re-read the last good save next time
        return False

    def index_data(self) -> dict[str, Any]:
        return {"format": "bones-serve-game", "version": 1, "id": self.id,
                "save": self.path.name, "created": self.created,
                "seats": {str(s): h for s, h in sorted(self.seat_hashes.items())},
                "over": self.over, "watch": list(self.watch_hashes),
                "revoked": list(self.revoked_hashes), "rematch": sorted(self.accepted),
                **({"left": list(self.left_hashes)} if self.left_hashes else {})}


class GameStore:
    """The games of one server, indexed beside the saves in ``SAVES/web/``."""

    def __init__(self, saves: Path, max_games: int = 50, jobs: int | None = None) -> None:
        self.saves = saves
        self.jobs = jobs  # the server's --jobs: the most threads a bot may use
        self.index_dir = saves / INDEX_DIR
        self.max_games = max_games
        self.games: dict[str, WebGame] = {}
        self._lock = threading.Lock()

    # -------------------------------------------------------------- set-up

    def open(self) -> None:
        """Create the folders (owner only) and read the index of earlier games."""
        self.index_dir.mkdir(parents=True, exist_ok=True)
        for folder in (self.saves, self.index_dir):
            with contextlib.suppress(OSError):
                os.chmod(folder, 0o700)
        for entry in sorted(self.index_dir.glob("*.json")):
            try:
                data = json.loads(entry.read_text(encoding="utf-8"))
                gid = str(data["id"])
                save = str(data["save"])
                if not re.match(r"^[0-9a-f]{16}$", gid) or not SAVE_NAME.match(save) \
                        or entry.stem != gid:
                    raise ValueError("bad id or save name")
                hashes = {int(s): str(h) for s, h in data["seats"].items()}
                game = WebGame(gid, self.saves / save, hashes, float(data.get("created", 0)))
                game.over = bool(data.get("over", False))
                watch = data.get("watch", [])
                if not isinstance(watch, list):
                    raise ValueError("watch is not a list")
                game.watch_hashes = [str(h) for h in watch]
                revoked = data.get("revoked", [])
                if not isinstance(revoked, list):
                    raise ValueError("revoked is not a list")
                game.revoked_hashes = [str(h) for h in revoked][-MAX_REVOKED:]
                game.accepted = {int(s) for s in data.get("rematch", []) if int(s) in hashes}
                left = data.get("left", [])
                if not isinstance(left, list):
                    raise ValueError("left is not a list")
                game.left_hashes = [str(h) for h in left]
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
                log.warning("ignoring %s: %s", entry.name, str(err).splitlines()[0] if str(err) else "")
                continue
            self.games[gid] = game

    def live(self) -> int:
        return sum(1 for g in self.games.values() if not g.over)

    def get(self, gid: str) -> WebGame:
        game = self.games.get(gid)
        if game is None:
            raise ApiError(404, f"no game '{gid[:20]}' on this server")
        return game

    # ----------------------------------------------------------- new games

    def _admit(self) -> None:
        if self.live() >= self.max_games:
            raise ApiError(503, f"the server already holds {self.max_games} unfinished games "
                                "(its --max-games): finish or delete one first")

    def _register(self, path: Path, session: GameSession) -> tuple[WebGame, dict[int, str]]:
        keys = {seat: tokens.new_key() for seat in session.people_seats}
        game = WebGame(tokens.new_id(), path, {s: tokens.key_hash(k) for s, k in keys.items()},
                       time.time(), session)
        game.saved()
        _write_private(self.index_dir / f"{game.id}.json", game.index_data())
        self.games[game.id] = game
        return game, keys

    def create(self, variant: Variant, source: str, players: int | None, teams: bool | None,
               seats: list[str] | None, seed: int | None) -> tuple[WebGame, dict[int, str]]:
        """A new game; every human seat gets a fresh key (returned once, stored as a hash)."""
        from bones.engine.match import new_seed
        from bones.engine.rules import RulesError
        from bones.lang.compile import compile_rules

        with self._lock:
            self._admit()
            try:
                rules = compile_rules(variant, players, teams)
            except RulesError as err:
                raise ApiError(400, str(err).splitlines()[0]) from None
            if seats is None:
                seats = [HUMAN] + ["search"] * (rules.players - 1)
            if len(seats) != rules.players:
                raise ApiError(400, f"seats lists {len(seats)} seats for {rules.players} players")
            seed = new_seed() if seed is None else seed
            session = self.new_session(variant, rules, source, seats, seed)
            return self._register(session.save_path, session)

    def new_session(self, variant: Variant, rules: Rules, source: str, seats: list[str],
                    seed: int, prepare: Callable[[GameSession], None] | None = None
                    ) -> GameSession:
        """A new match dealt and saved under a fresh name (``prepare`` sets it up first)."""
        from bones.games.game import GameError, GameSession, SeatConfig
        from bones.games.saves import default_save_stem, new_save_path

        stem = default_save_stem(variant.name, seed)
        session = GameSession(variant, rules, SeatConfig(tuple(seats)), seed,
                              new_save_path(self.saves, stem, 1), source)
        session._default_stem = stem  # a taken name passes to the next (-2, -3...)
        if prepare is not None:
            prepare(session)
        session._deal()
        try:
            session.save()  # creates the file; never replaces one
        except GameError as err:
            raise ApiError(500, str(err)) from None
        return session

    def open_save(self, name: Any) -> tuple[WebGame, dict[int, str] | None]:
        """A game from a listed save, by its file name; new keys for its people's seats
        (its human seats and those handed to a bot, which the bot keeps playing).

        A save that is already a game of this server is that game, reopened
        as it is: its seat links keep working, and no new keys are made (the
        keys are ``None``).
        """
        from bones.games.game import GameError, GameSession
        from bones.games.saves import SaveInUse

        path = self.save_path(name)
        with self._lock:
            for game in self.games.values():
                if game.path == path:
                    return game, None
            self._admit()
            try:
                with _save_lock(path):
                    session = GameSession.resume(path)
            except GameError as err:
                raise ApiError(400, str(err).splitlines()[0]) from None
            except SaveInUse as err:
                raise ApiError(423, str(err).splitlines()[0]) from None
            for k, spec in enumerate(session.config.seats):
                if spec != HUMAN:
                    try:
                        check_bot(spec, self.jobs)
                    except ApiError as err:
                        raise ApiError(400, f"seat {k}: {err.message}") from None
            if not session.people_seats:
                raise ApiError(400, f"{name} has no human seat to play")
            return self._register(path, session)

    def save_path(self, name: Any) -> Path:
        """The save called ``name`` in the save folder; never any other path."""
        if not isinstance(name, str) or not SAVE_NAME.match(name):
            raise ApiError(400, "a save is named by its file name as GET /api/saves lists it")
        if name not in self._save_names():
            raise ApiError(404, f"no save named '{name}'")
        return self.saves / name

    def _save_names(self) -> set[str]:
        try:
            return {e.name for e in os.scandir(self.saves)
                    if e.is_file(follow_symlinks=False) and SAVE_NAME.match(e.name)}
        except OSError:
            return set()

    def list_saves(self) -> list[dict[str, Any]]:
        """The saves in the folder, newest first, with what each holds
        (:func:`bones.games.savelist.list_saves`: read, size-capped, not replayed)."""
        from bones.games.savelist import list_saves

        names = self._save_names()
        web = {g.path.name: g.id for g in self.games.values()}
        out = []
        for save in list_saves(self.saves):
            name = save.path.name
            if name not in names:  # not a regular file, or a name the API refuses
                continue
            entry: dict[str, Any] = {"name": name, "modified": save.modified, "game": web.get(name)}
            if save.problem is None:
                entry.update({
                    "variant": save.variant, "players": save.players, "seats": list(save.seats),
                    "hands": save.hands, "scores": list(save.scores), "finished": save.finished,
                    "names": list(save.names),
                    # people's seats a bot plays for now (their bot: seats[k])
                    "handed": list(save.handed),
                    "series": ({"id": save.series[0], "match": save.series[1]}
                               if save.series is not None else None),
                })
            else:
                entry.update({"unreadable": True, "problem": save.problem})
            out.append(entry)
        return out

    def delete(self, gid: str) -> None:
        """Forget a game (its save stays in the folder)."""
        game = self.get(gid)
        with self._lock:
            self.games.pop(gid, None)
            with contextlib.suppress(OSError):
                (self.index_dir / f"{game.id}.json").unlink()

    def write_index(self, game: WebGame) -> None:
        """Write ``game``'s index file again (its keys' hashes changed)."""
        _write_private(self.index_dir / f"{game.id}.json", game.index_data())

    def note_over(self, game: WebGame) -> None:
        """Record in the index that a game has ended (it no longer counts as live)."""
        with contextlib.suppress(OSError):
            _write_private(self.index_dir / f"{game.id}.json", game.index_data())
