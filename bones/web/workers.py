"""The server's workers: at most ``--jobs`` pieces of thinking at once, off the request loop.

Bots think in a thread pool, simulation batches run in a process pool; both
take slots from one semaphore of ``jobs`` slots first, so at most ``jobs``
threads of thinking run at any moment, and requests (which only read or make
one move) are never queued behind them.  A piece of thinking takes a slot for
each thread it uses (a bot ``search:threads=2`` takes two; a client may seat
no bot of more threads than ``jobs``).  A batch is small, so a long simulation
gives its slots back often and a bot never waits long.

Thinking in a thread can be stopped (:func:`watched`): it runs watching a
:class:`bones.bots.stop.Stop`, which is set when the task awaiting it is
cancelled (the server stops) or when ``gone()``, asked every :data:`POLL`
seconds, says nobody wants the answer any more (the game was deleted or
abandoned, the client of an analysis went away); the search then ends
within moments, raising :class:`bones.bots.stop.Stopped`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import inspect
import multiprocessing
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from bones.bots.stop import Stop

#: How often a thinking thread's ``gone()`` is asked (seconds).
POLL = 0.1

#: Whether the answer of a thinking thread is still wanted: True when it is
#: not (a plain function, or a coroutine function such as
#: ``Request.is_disconnected``).
Gone = Callable[[], "bool | Awaitable[bool]"]


def _watching(stop: Stop, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    from bones.bots.stop import watching

    with watching(stop):
        return fn(*args)


async def watched(executor: concurrent.futures.Executor | None, fn: Callable[..., Any],
                  *args: Any, gone: Gone | None = None) -> Any:
    """``fn(*args)`` in ``executor`` (None: the loop's default), its searches
    watching a new stop, set when the awaiting task is cancelled or when
    ``gone()`` says so; a stopped search raises
    :class:`bones.bots.stop.Stopped` here."""
    # the bots (and the engine) load at the first thinking, not at start-up
    from bones.bots.stop import Stop

    stop = Stop()
    loop = asyncio.get_running_loop()
    future = loop.run_in_executor(executor, _watching, stop, fn, args)
    try:
        while True:
            done, _ = await asyncio.wait({future}, timeout=POLL)
            if done:
                return future.result()
            if gone is not None and not stop.is_set():
                answer = gone()
                if inspect.isawaitable(answer):
                    answer = await answer
                if answer:
                    stop.set()
    except asyncio.CancelledError:
        stop.set()
        raise


class Workers:
    def __init__(self, jobs: int = 1, processes: bool = True) -> None:
        self.jobs = max(1, jobs)
        self.use_processes = processes
        self._slots: asyncio.Semaphore | None = None
        self._gather: asyncio.Lock | None = None
        self.threads = concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs,
                                                             thread_name_prefix="bones-bot")
        self._procs: concurrent.futures.Executor | None = None

    @property
    def slots(self) -> asyncio.Semaphore:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.jobs)
        return self._slots

    @property
    def _taking(self) -> asyncio.Lock:
        if self._gather is None:
            self._gather = asyncio.Lock()
        return self._gather

    @contextlib.asynccontextmanager
    async def _held(self, weight: int) -> AsyncIterator[None]:
        """``weight`` slots (1 to ``jobs``), taken one at a time by one taker at
        a time, so two takers of several slots never hold part of them each."""
        weight = min(max(1, weight), self.jobs)
        taken = 0
        try:
            async with self._taking:
                while taken < weight:
                    await self.slots.acquire()
                    taken += 1
            yield
        finally:
            for _ in range(taken):
                self.slots.release()

    def _process_pool(self) -> concurrent.futures.Executor:
        if self._procs is None:
            if self.use_processes:
                from bones.sim.simulation import start_worker

                method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() \
                    else "spawn"
                self._procs = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.jobs, mp_context=multiprocessing.get_context(method),
                    initializer=start_worker, initargs=([], None))
            else:
                self._procs = concurrent.futures.ThreadPoolExecutor(
                    max_workers=self.jobs, thread_name_prefix="bones-sim")
        return self._procs

    async def thread(self, fn: Callable[..., Any], *args: Any, weight: int = 1,
                     gone: Gone | None = None) -> Any:
        """``fn(*args)`` in a bot thread, when ``weight`` slots are free (the
        threads it uses), its searches stopped when the awaiting task is
        cancelled or ``gone()`` says so (:func:`watched`)."""
        async with self._held(weight):
            return await watched(self.threads, fn, *args, gone=gone)

    async def process(self, fn: Callable[..., Any], *args: Any, weight: int = 1) -> Any:
        """``fn(*args)`` in a worker process (picklable arguments), when ``weight`` slots are free."""
        async with self._held(weight):
            return await asyncio.get_running_loop().run_in_executor(self._process_pool(), fn, *args)

    def close(self) -> None:
        """Finish what is running (a bot's move is saved), drop what waits."""
        self.threads.shutdown(wait=True, cancel_futures=True)
        if self._procs is not None:
            if self.use_processes:
                # a simulation's batch is dropped, never waited for
                from bones.sim.simulation import stop_processes

                stop_processes(self._procs)
            else:
                self._procs.shutdown(wait=False, cancel_futures=True)
