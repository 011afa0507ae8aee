"""A cooperative stop for the searches, honoured by both cores.

A :class:`Stop` is a flag any thread may set.  A search started while one
is watched (:func:`watching`, per thread) looks at it as it goes: between
worlds (``search``, ``pimc``, ``epimc``), between iterations (``ismcts``, the
tree ``search`` grows) and every :data:`EVERY` positions of the exact
solver, in the Python reference and in the native core alike (there it
polls ``bones_native.Stop``, an atomic flag, with the GIL released), and
ends soon after by raising :class:`Stopped`: no move, nothing saved.  A
search never stopped takes the same decisions as without a stop.

The bot protocol is untouched (``choose(observation, rng)``): whoever runs
a bot decides when to stop it.  ``bones serve`` stops a game's bot when the
game is deleted or abandoned and an analysis when its client goes away
(:mod:`bones.web.workers`); within :func:`ctrl_c_stops` (``bones play``),
a native search on the main thread runs on a helper thread the main one
waits for in short steps, so Ctrl-C stops it at once (:func:`native_call`).
Elsewhere a search runs on its caller's thread (a simulation times a bot by
its thread's CPU time), and Ctrl-C is acted on when it ends: within a
second at the search's default budget.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

#: The solver looks at the stop once in this many positions (the native
#: solver's ``Stop::EVERY``): a few milliseconds of work at the most natively.
EVERY = 4096


class Stopped(Exception):
    """A search was stopped before it finished (its :class:`Stop` was set)."""


class Stop:
    """A flag that asks the searches watching it to end."""

    def __init__(self) -> None:
        self._set = threading.Event()
        self._native: Any = None
        self._lock = threading.Lock()

    def set(self) -> None:
        """Ask every search watching this stop to end (from any thread)."""
        with self._lock:
            self._set.set()
            if self._native is not None:
                self._native.set()

    def is_set(self) -> bool:
        return self._set.is_set()

    def check(self) -> None:
        """Raise :class:`Stopped` if the stop is set."""
        if self._set.is_set():
            raise Stopped("the search was stopped")

    def native(self) -> Any:
        """The native core's flag for this stop (``bones_native.Stop``),
        made once, set whenever this stop is."""
        with self._lock:
            if self._native is None:
                import bones_native

                self._native = bones_native.Stop()
                if self._set.is_set():
                    self._native.set()
            return self._native


_WATCHED: ContextVar[Stop | None] = ContextVar("bones_stop", default=None)
_CTRL_C_STOPS: ContextVar[bool] = ContextVar("bones_ctrl_c_stops", default=False)


def current() -> Stop | None:
    """The stop the searches of this thread watch (None: none)."""
    return _WATCHED.get()


@contextmanager
def watching(stop: Stop) -> Iterator[Stop]:
    """Within the block, the searches of this thread watch ``stop``."""
    token = _WATCHED.set(stop)
    try:
        yield stop
    finally:
        _WATCHED.reset(token)


@contextmanager
def ctrl_c_stops() -> Iterator[None]:
    """Within the block, Ctrl-C stops a native search of the main thread at
    once (for interactive play: :func:`native_call`)."""
    token = _CTRL_C_STOPS.set(True)
    try:
        yield
    finally:
        _CTRL_C_STOPS.reset(token)


def _ctrl_c_stops_here() -> bool:
    """Whether Ctrl-C is to stop a native search here: within
    :func:`ctrl_c_stops`, on the main thread, where Ctrl-C raises
    ``KeyboardInterrupt``."""
    return (_CTRL_C_STOPS.get() and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler)


def native_call(call: Callable[[Any], T]) -> T:
    """``call(native_stop)``: a native search (which releases the GIL) given
    the native flag of the stop watched here (None: none).

    Python runs its Ctrl-C handler only between its own instructions, not
    while the native core works.  Within :func:`ctrl_c_stops`, on the main
    thread where Ctrl-C raises ``KeyboardInterrupt``, the call therefore runs
    on a helper thread while this one waits for it in short steps, and a
    Ctrl-C sets the stop, waits the moment the search takes to end, and goes
    on as ``KeyboardInterrupt``.
    """
    stop = current()
    if not _ctrl_c_stops_here():
        return call(None if stop is None else stop.native())
    stop = stop or Stop()
    flag = stop.native()
    got: list[Any] = []
    failed: list[BaseException] = []
    done = threading.Event()

    def work() -> None:
        try:
            got.append(call(flag))
        except BaseException as err:  # noqa: BLE001 - handed to the waiting thread
            failed.append(err)
        finally:
            done.set()

    threading.Thread(target=work, name="bones-search", daemon=True).start()
    try:
        # an event's wait, which a signal interrupts cleanly (a Thread.join
        # interrupted leaves the thread's state lock behind, and the
        # interpreter aborts at exit)
        while not done.wait(0.05):
            pass
    except KeyboardInterrupt:
        stop.set()
        done.wait()
        raise
    if failed:
        raise failed[0]
    return got[0]  # type: ignore[no-any-return]


__all__ = ["EVERY", "Stop", "Stopped", "ctrl_c_stops", "current", "native_call", "watching"]
