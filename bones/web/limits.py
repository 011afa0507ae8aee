"""Rate limits: the table's requests (chat, names, rematch answers), per game and key,
and :class:`RateLimit`, a sliding window per name (spectators, analyses)."""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING

from bones.web.errors import ApiError

if TYPE_CHECKING:  # pragma: no cover
    from bones.web.games import WebGame

#: At most this many requests of one kind (a message, a name, a rematch answer)
#: from one key in :data:`WINDOW` seconds; more are refused with 429.
BURST, WINDOW = 5, 10.0


def limit(game: WebGame, kind: str, seat: int, now: float | None = None) -> None:
    """Count one request of ``kind`` by ``seat``'s key in ``game``, or refuse it
    with 429 and ``Retry-After`` when the key has made :data:`BURST` in the
    last :data:`WINDOW` seconds.  The counts are the game's own: a flood on one
    game changes nothing for any other."""
    now = time.monotonic() if now is None else now
    times = [t for t in game.recent.get((kind, seat), []) if now - t < WINDOW]
    if len(times) >= BURST:
        wait = max(1, int(WINDOW - (now - times[0])) + 1)
        game.recent[(kind, seat)] = times
        raise ApiError(429, f"too many requests ({BURST} {kind} requests in {WINDOW:g} s "
                            f"from one seat): wait {wait} s", retry_after=wait)
    times.append(now)
    game.recent[(kind, seat)] = times


class RateLimit:
    """At most ``limit`` events per ``seconds`` for each name (a sliding window)."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self.seen: dict[str, deque[float]] = {}

    def allow(self, name: str, now: float | None = None) -> bool:
        """Count one event of ``name``, or False (and count nothing) at the limit."""
        now = time.monotonic() if now is None else now
        times = self.seen.setdefault(name, deque())
        while times and times[0] <= now - self.seconds:
            times.popleft()
        if len(times) >= self.limit:
            return False
        times.append(now)
        if len(self.seen) > 10_000:  # forget the idle names
            for key in [k for k, v in self.seen.items() if not v or v[-1] <= now - self.seconds]:
                del self.seen[key]
        return True

    def retry_after(self, name: str, now: float | None = None) -> int:
        """Whole seconds until ``name`` may have another event (at least 1)."""
        now = time.monotonic() if now is None else now
        times = self.seen.get(name)
        if not times:
            return 1
        return max(1, int(self.seconds - (now - times[0])) + 1)


__all__ = ["BURST", "WINDOW", "RateLimit", "limit"]
