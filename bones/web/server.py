"""The state behind `bones serve`'s routes: its configuration, the games and
their bots, the simulations and the worker pool, the host key."""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from starlette.requests import Request

from bones.web import tokens
from bones.web.analyses import Analyses
from bones.web.games import ApiError, GameStore, WebGame
from bones.web.sims import Simulations
from bones.web.watch import Spectators
from bones.web.workers import Workers

log = logging.getLogger("bones.serve")


@dataclass
class ServeConfig:
    saves: Path
    host: str = "127.0.0.1"
    port: int = 8765
    jobs: int = 1
    pace: float = 0.7  # seconds between bot moves, so people see each one
    max_games: int = 50
    max_simulations: int = 2
    allow_hosts: list[str] = field(default_factory=list)
    host_key: str = ""  # generated when empty
    processes: bool = True  # simulations in worker processes (tests may use threads)
    public_host: str | None = None  # the address seat links use
    public_url: str | None = None  # --public-url: the base of every link (bones.web.links)


class Server:
    """The state behind the routes: games, simulations, workers, the host key."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.host_key = config.host_key or tokens.new_key()
        self.host_hash = tokens.key_hash(self.host_key)
        self.store = GameStore(config.saves, config.max_games, config.jobs)
        self.workers = Workers(config.jobs, config.processes)
        self.sims = Simulations(self.workers, config.max_simulations)
        self.changed: dict[str, asyncio.Event] = {}
        self.bot_tasks: dict[str, asyncio.Task[None]] = {}
        self.closing = False
        self.spectators = Spectators()
        self.analyses = Analyses()

    def scrub(self, text: str) -> str:
        """``text`` without this machine's paths: a save is named by its file name
        alone (``sniff-1.json``), the save folder as "the save folder", so no
        response tells a client where the server keeps its files."""
        folders = {str(self.config.saves), str(self.config.saves.resolve()),
                   str(self.config.saves.absolute())}
        for folder in sorted(folders, key=len, reverse=True):
            text = text.replace(folder + os.sep, "").replace(folder, "the save folder")
        return text

    # ------------------------------------------------------------- keys

    def require_host(self, request: Request) -> None:
        key = tokens.bearer(request.headers.get("authorization"))
        if key is None:
            raise ApiError(401, "this needs the host key that `bones serve` printed in its link "
                                "(after #host=); send it as 'Authorization: Bearer KEY'")
        if not tokens.matches(key, self.host_hash):
            raise ApiError(403, "that is not this server's host key (it changes each time the "
                                "server starts: use the link it printed)")

    def seat(self, request: Request, game: WebGame) -> int:
        return game.seat_of(tokens.bearer(request.headers.get("authorization")))

    # ------------------------------------------------------------ bots

    def event(self, gid: str) -> asyncio.Event:
        ev = self.changed.get(gid)
        if ev is None:
            ev = self.changed[gid] = asyncio.Event()
        return ev

    def wake(self, gid: str) -> None:
        """Answer the long polls waiting on game ``gid`` now."""
        ev = self.changed.pop(gid, None)
        if ev is not None:
            ev.set()

    def notify(self, game: WebGame) -> None:
        self.wake(game.id)
        if game.over:
            self.store.note_over(game)
        self.kick(game)

    def kick(self, game: WebGame) -> None:
        """Let the bot to move answer, if one is to move and none is thinking already."""
        if self.closing or not self._held(game) or not game.bot_to_move():
            return
        task = self.bot_tasks.get(game.id)
        if task is not None and not task.done():
            return
        self.bot_tasks[game.id] = asyncio.get_running_loop().create_task(self._bot(game))

    def _unwanted(self, game: WebGame) -> bool:
        """Whether nobody wants ``game``'s bot to finish its move: the server
        is stopping, or the game was deleted or is abandoned (no person asked
        about it for a while, no spectator watching)."""
        return (self.closing or not self._held(game)
                or (game.abandoned() and not self.spectators.watching.get(game.id)))

    def _held(self, game: WebGame) -> bool:
        """``game`` is still one of this server's games (not deleted)."""
        return self.store.games.get(game.id) is game

    async def _bot(self, game: WebGame) -> None:
        while not self.closing and self._held(game) and game.bot_to_move():
            expected = game.version
            await asyncio.sleep(self.config.pace)
            if self.closing or not self._held(game):
                return  # a deleted game's bots stop: its save may be opened as a new game
            game.busy = True
            try:
                moved = await self.workers.thread(game.bot_step, expected,
                                                  weight=game.bot_threads(),
                                                  gone=lambda: self._unwanted(game))
            except ApiError as err:
                log.warning("game %s: %s", game.id, err.message)
                moved = False
            except RuntimeError:  # the pool is shut down: the server is stopping
                return
            finally:
                game.busy = False
            ev = self.changed.pop(game.id, None)
            if ev is not None:
                ev.set()
            if game.over:
                self.store.note_over(game)
            if not moved:
                return

    def stopping(self) -> None:
        """The server begins to stop (Ctrl-C): no bot starts another move, and
        every long poll waiting on a game is answered now with the table as it
        is, before the server closes its connections (a waiting poll would
        otherwise be cancelled after the grace period: an error, not a view)."""
        self.closing = True
        for ev in self.changed.values():
            ev.set()
        self.changed.clear()

    async def close(self) -> None:
        self.closing = True
        for task in list(self.bot_tasks.values()):
            task.cancel()
        for sim in self.sims.runs.values():
            sim.cancelled = True
        await asyncio.get_running_loop().run_in_executor(None, self.workers.close)


def server_of(request: Request) -> Server:
    """The server behind ``request``'s application."""
    server: Server = request.app.state.server
    return server
