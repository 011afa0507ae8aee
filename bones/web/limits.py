"""Rate limits of the table's requests (chat, names, rematch answers), per game and key."""

from __future__ import annotations

import time
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


__all__ = ["BURST", "WINDOW", "limit"]
