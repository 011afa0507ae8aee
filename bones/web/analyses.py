"""The analyses of `bones serve`: the search's judgement of a record's moves,
the costliest thing a request can ask for, and its limits.

``POST /api/analyse`` needs the host key (a seat analyses its own finished
hands with ``GET /api/games/{id}/analysis``), and runs:

* in the server's ``--jobs`` workers, as bots and simulations do
  (:mod:`bones.web.workers`), never beside them;
* on a record of at most :data:`MAX_MOVES` moves (the replay's cap: 413), at
  a budget of at most :data:`bones.web.games.MAX_ANALYSIS_BUDGET` worlds a
  decision (400), and at most :data:`MAX_WORK` moves × budget in all (413,
  naming the budget that fits);
* one at a time for each client (429), and at most :data:`RATE_REQUESTS`
  in :data:`RATE_SECONDS` seconds for each client (429 with ``Retry-After``).

A seat's analysis of one finished hand (at the page's budget) takes a worker
too, and counts against the seat's rate (:func:`bones.web.limits.limit`).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from bones.web.errors import ApiError
from bones.web.limits import RateLimit
from bones.web.replay import MAX_FRAMES

if TYPE_CHECKING:  # pragma: no cover
    from bones.games.record import Record

#: The most moves a record to analyse may hold (the replay's cap).
MAX_MOVES = MAX_FRAMES
#: The most moves × worlds a decision one analysis may cost: about half a
#: minute of one worker in the native core (a 9-hand match of All Fives, 229
#: moves, takes 8 s at 100 worlds on the development machine).
MAX_WORK = 100_000
#: Analyses each client may start in a window of seconds.
RATE_REQUESTS, RATE_SECONDS = 10, 60.0


def check_cost(record: Record, budget: int) -> None:
    """Refuse (413) a record too long to analyse, or too long at ``budget``."""
    moves = sum(len(hand.moves) for hand in record.hands)
    if moves > MAX_MOVES:
        raise ApiError(413, f"the record holds {moves:,} moves: the server analyses at most "
                            f"{MAX_MOVES:,} (bones analyse FILE has no limit)")
    if moves * budget > MAX_WORK:
        fits = max(1, MAX_WORK // max(1, moves))
        raise ApiError(413, f"{moves:,} moves at {budget} worlds a decision are more than the "
                            f"server analyses at once ({MAX_WORK:,} moves × worlds): give budget "
                            f"at most {fits}, or run bones analyse FILE")


class Analyses:
    """Who is analysing now, and how often each client has asked."""

    def __init__(self) -> None:
        self.running: set[str] = set()
        self.rate = RateLimit(RATE_REQUESTS, RATE_SECONDS)

    @contextlib.asynccontextmanager
    async def admitted(self, client: str) -> AsyncIterator[None]:
        """One analysis for ``client`` (its address), within its rate and one at a time."""
        if client in self.running:
            raise ApiError(429, "an analysis you asked for is still running: wait for it to finish")
        if not self.rate.allow(client):
            wait = self.rate.retry_after(client)
            raise ApiError(429, f"too many analyses (at most {RATE_REQUESTS} in {RATE_SECONDS:g} s "
                                f"from one client): wait {wait} s", retry_after=wait)
        self.running.add(client)
        try:
            yield
        finally:
            self.running.discard(client)


__all__ = ["MAX_MOVES", "MAX_WORK", "RATE_REQUESTS", "RATE_SECONDS", "Analyses",
           "check_cost"]
