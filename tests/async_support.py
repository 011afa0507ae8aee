"""Running a coroutine from a test, whatever else the session has running."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any


def run_async(coro: Coroutine[Any, Any, Any], timeout: float = 60) -> Any:
    """``asyncio.run(coro)`` in a thread of its own: the browser tests'
    Playwright keeps an event loop running in the main thread for the rest of
    the session, where ``asyncio.run`` refuses to start another."""
    out: list[Any] = []
    failed: list[BaseException] = []

    def main() -> None:
        try:
            out.append(asyncio.run(coro))
        except BaseException as err:  # noqa: BLE001 - raised again in the test's thread
            failed.append(err)

    worker = threading.Thread(target=main)
    worker.start()
    worker.join(timeout)
    if failed:
        raise failed[0]
    assert out, "the event loop did not finish"
    return out[0]
