"""Spectators: watch links, what a watch key may see and do, and their limits.

The host creates a *watch link* for a game (``POST /api/games/{id}/watch``,
:mod:`bones.web.watch_routes`):
a fresh key, 256 random bits like a seat's, shown once and stored only as its
SHA-256 in the game's index file (``SAVES/web/ID.json``), so a restarted
server keeps every watch link working.  A watch key reads the game's state
(``GET /api/games/{id}``, long poll included) as the viewer
:data:`bones.web.tokens.SPECTATOR`: the layout, the count, the scores, the log, every seat's
tile count and, once a hand has ended, the hands as the players turn them up
to settle; never a seat's tiles during a hand, a drawn tile or the boneyard.
Everything else is refused: a seat's endpoints answer 403 (the key is no
seat's), the host's 403 (it is not the host key).

Limits: at most :data:`MAX_WATCH_LINKS` watch links a game (429 for one
more); at most :data:`MAX_SPECTATORS` spectators' requests served at once
for one game (a page holds one long poll: 429 beyond), of which one watch
key holds at most :data:`MAX_PER_KEY` (a link opened in a few tabs; 429
beyond, so one link cannot take every place); at most :data:`RATE_REQUESTS`
requests by one watch key in :data:`RATE_SECONDS` seconds, every request
counted, long polls included (429).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from starlette.requests import Request

from bones.web import tokens
from bones.web.games import ApiError
from bones.web.limits import RateLimit

if TYPE_CHECKING:  # pragma: no cover
    from bones.web.games import WebGame

#: Watch links a game may have (the host may revoke them all and start again).
MAX_WATCH_LINKS = 20
#: Spectators' requests served at once for one game.
MAX_SPECTATORS = 20
#: Of those, the most one watch key may hold (a watch link open in a few tabs).
MAX_PER_KEY = 4
#: At most this many requests by one watch key in :data:`RATE_SECONDS` seconds
#: (a page following a game makes about one a move).
RATE_REQUESTS, RATE_SECONDS = 60, 10.0


class Spectators:
    """The spectators of one server: who is watching what now, and their rate."""

    def __init__(self) -> None:
        self.watching: dict[str, int] = {}  # game id -> its spectators' requests in progress
        self.holding: dict[str, int] = {}  # game id and key hash -> that key's requests in progress
        self.rate = RateLimit(RATE_REQUESTS, RATE_SECONDS)

    def key_of(self, request: Request, game: WebGame) -> str | None:
        """The watch key of ``request`` if it is one of ``game``'s watch links."""
        key = tokens.bearer(request.headers.get("authorization"))
        if key is None or not any(tokens.matches(key, h) for h in game.watch_hashes):
            return None
        return key

    @contextlib.asynccontextmanager
    async def admitted(self, game: WebGame, key: str) -> AsyncIterator[None]:
        """One spectator's request on ``game``, within the rate and the caps.

        Every request counts towards the key's rate, a long poll as any other
        (whatever its ``wait`` and ``stamp``: a long poll answered at once is a
        request answered at once).  The places are the game's, at most
        :data:`MAX_PER_KEY` of them one key's.
        """
        name = f"{game.id}:{tokens.key_hash(key)}"
        if not self.rate.allow(name):
            wait = self.rate.retry_after(name)
            raise ApiError(429, f"too many requests by this watch link (at most {RATE_REQUESTS} "
                                f"in {RATE_SECONDS:g} s): wait a moment", retry_after=wait)
        if self.watching.get(game.id, 0) >= MAX_SPECTATORS:
            raise ApiError(429, f"this game already has {MAX_SPECTATORS} spectators watching "
                                "(the most a game takes): try again later")
        if self.holding.get(name, 0) >= MAX_PER_KEY:
            raise ApiError(429, f"this watch link already follows the game {MAX_PER_KEY} times at "
                                "once (the most one link may): close a page of it")
        self.watching[game.id] = self.watching.get(game.id, 0) + 1
        self.holding[name] = self.holding.get(name, 0) + 1
        try:
            yield
        finally:
            left = self.watching[game.id] - 1
            if left:
                self.watching[game.id] = left
            else:
                del self.watching[game.id]
            held = self.holding[name] - 1
            if held:
                self.holding[name] = held
            else:
                del self.holding[name]
