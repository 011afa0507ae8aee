"""Simulations of `bones serve`: `bones simulate` (and `compare`) in the background.

A simulation is split into batches (:func:`bones.sim.simulation.batches`) that run
in the server's worker processes, one worker slot per batch, so a simulation
never holds more than its share of ``--jobs`` and bots keep answering.  Its
progress is the games done; when it ends its report is exactly the body of
``bones simulate --json`` (or ``bones compare --json`` for two variants).  It
is capped (:data:`MAX_GAMES` games, :data:`MAX_SECONDS` seconds: a run that
reaches the time cap stops with a partial report) and can be cancelled.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bones.web import tokens
from bones.web.games import ApiError

if TYPE_CHECKING:  # pragma: no cover
    from bones.sim.simulation import SimConfig, Summary, Table
    from bones.web.workers import Workers

#: The most games (matches or hands) one simulation may ask for.
MAX_GAMES = 20_000
#: A simulation still running after this many seconds stops with what it has.
MAX_SECONDS = 300.0
#: Simulations kept (running or finished); the oldest finished one is forgotten first.
MAX_KEPT = 20


@dataclass
class Simulation:
    id: str
    config: SimConfig
    requested: int
    started: float = field(default_factory=time.monotonic)
    done: int = 0
    state: str = "running"  # running, done, cancelled, failed
    report: dict[str, Any] | None = None
    error: str | None = None
    task: asyncio.Task[None] | None = None
    cancelled: bool = False

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "state": self.state, "games": self.requested, "done": self.done,
            "progress": round(self.done / self.requested, 4) if self.requested else 1.0,
            "seconds": round(time.monotonic() - self.started, 2),
            "compare": len(self.config.tables) > 1,
            "variants": [t.variant.name for t in self.config.tables],
        }
        if self.report is not None:
            out["report"] = self.report
        if self.error:
            out["error"] = self.error
        return out


def make_config(tables: list[Table], bots: list[str], games: int, seed: int | None,
                hands_only: bool) -> SimConfig:
    from bones.engine.match import new_seed
    from bones.sim.simulation import SimError
    from bones.sim.simulation import make_config as engine_config

    if not 1 <= games <= MAX_GAMES:
        raise ApiError(400, f"games must be between 1 and {MAX_GAMES:,}".replace(",", " "))
    try:
        return engine_config(tables, bots, games, new_seed() if seed is None else seed,
                             hands_only=hands_only)
    except SimError as err:
        raise ApiError(400, str(err)) from None


class Simulations:
    """The simulations of one server."""

    def __init__(self, workers: Workers, max_running: int = 2) -> None:
        self.workers = workers
        self.max_running = max_running
        self.runs: dict[str, Simulation] = {}

    def running(self) -> int:
        return sum(1 for s in self.runs.values() if s.state == "running")

    def start(self, config: SimConfig) -> Simulation:
        if self.running() >= self.max_running:
            raise ApiError(503, f"{self.max_running} simulations are already running "
                                "(the server's cap): wait for one or cancel it")
        finished = [s for s in self.runs.values() if s.state != "running"]
        while len(self.runs) >= MAX_KEPT and finished:
            self.runs.pop(finished.pop(0).id, None)
        sim = Simulation(tokens.new_id(), config, config.games)
        self.runs[sim.id] = sim
        sim.task = asyncio.get_running_loop().create_task(self._run(sim))
        return sim

    def get(self, sid: str) -> Simulation:
        sim = self.runs.get(sid)
        if sim is None:
            raise ApiError(404, f"no simulation '{sid[:20]}'")
        return sim

    def cancel(self, sid: str) -> Simulation:
        sim = self.get(sid)
        if sim.state == "running":
            sim.cancelled = True
        return sim

    async def _run(self, sim: Simulation) -> None:
        from bones.sim.simulation import Layout, Summary, batches, default_batch_size, report, run_batch

        config = sim.config
        total = Summary.empty(Layout(config))
        size = max(1, min(default_batch_size(config.games, self.workers.jobs),
                          50 if config.hands_only else 5))
        todo = batches(config.games, size)
        window = max(1, self.workers.jobs)
        weight = _threads(list(config.lineup))  # a batch of bots of N threads takes N slots
        pending: set[asyncio.Future[Summary]] = set()
        try:
            for start, stop in todo:
                if sim.cancelled or time.monotonic() - sim.started > MAX_SECONDS:
                    break
                while len(pending) >= window:
                    done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                    for fut in done:
                        total.merge(fut.result())
                    sim.done = total.n
                pending.add(asyncio.ensure_future(
                    self.workers.process(run_batch, config, start, stop, weight=weight)))
            if pending:
                for fut in asyncio.as_completed(pending):
                    total.merge(await fut)
                    sim.done = total.n
        except asyncio.CancelledError:
            sim.state = "cancelled"
            raise
        except Exception as err:  # noqa: BLE001 - a failed run is reported, the server goes on
            sim.state = "failed"
            sim.error = f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"
            return
        if total.n < config.games:
            total.partial = True
        body = report(config, total)
        body["run"] = {"seconds": round(time.monotonic() - sim.started, 3), "jobs": self.workers.jobs,
                       "server": True}
        sim.report = body
        sim.done = total.n
        sim.state = "cancelled" if sim.cancelled else "done"


def _threads(bots: list[str]) -> int:
    """The most threads any of ``bots`` thinks with."""
    from bones.bots import BotError, parse_bot

    most = 1
    for text in bots:
        try:
            most = max(most, int(parse_bot(text)[1].get("threads", 1)))
        except BotError:
            continue
    return most
