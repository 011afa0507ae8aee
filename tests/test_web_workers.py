"""`bones serve`'s workers: bots and simulation batches think off the request
loop, at most ``--jobs`` at once, so one table never stalls another."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'bones[web]'")

from async_support import run_async as _run  # noqa: E402

from bones.web.workers import Workers  # noqa: E402


@pytest.mark.parametrize("jobs", [1, 2])
def test_thinking_is_off_the_loop_and_at_most_jobs_at_once(jobs: int) -> None:
    workers = Workers(jobs, processes=False)
    running = 0
    most = 0
    lock = threading.Lock()

    release = threading.Event()  # the bots think until the loop has answered

    def think() -> str:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        release.wait(10)  # a bot thinking (blocking, as a search does)
        with lock:
            running -= 1
        return threading.current_thread().name

    async def main() -> tuple[list[str], int]:
        bots = [asyncio.create_task(workers.thread(think)) for _ in range(4)]
        # meanwhile the loop answers other requests, many times over, while
        # every bot is still thinking
        for _ in range(10):
            await asyncio.sleep(0.01)
        done_before = sum(bot.done() for bot in bots)
        release.set()
        names = await asyncio.gather(*bots)
        return names, done_before

    try:
        names, done_before = _run(main())
    finally:
        release.set()
        workers.close()
    assert all(name.startswith("bones-bot") for name in names)  # never on the loop's thread
    assert most == jobs  # the slots are used, and never more than --jobs
    assert done_before == 0  # the loop ran on while no bot had finished


def test_a_batch_of_a_simulation_takes_a_slot_too() -> None:
    workers = Workers(1, processes=False)
    order: list[str] = []

    def job(name: str) -> str:
        order.append(f"start {name}")
        time.sleep(0.1)
        order.append(f"end {name}")
        return name

    async def main() -> list[str]:
        return list(await asyncio.gather(workers.thread(job, "bot"), workers.process(job, "batch")))

    try:
        assert _run(main()) == ["bot", "batch"]
    finally:
        workers.close()
    # one slot: the batch waited for the bot (or the other way round), never both at once
    assert order in (["start bot", "end bot", "start batch", "end batch"],
                     ["start batch", "end batch", "start bot", "end bot"])


def test_a_bot_of_several_threads_takes_a_slot_for_each() -> None:
    workers = Workers(2, processes=False)
    order: list[str] = []

    def job(name: str) -> str:
        order.append(f"start {name}")
        time.sleep(0.1)
        order.append(f"end {name}")
        return name

    async def main() -> list[str]:
        first = asyncio.create_task(workers.thread(job, "two threads", weight=2))
        await asyncio.sleep(0.02)
        return list(await asyncio.gather(first, workers.thread(job, "one"),
                                         workers.process(job, "batch")))

    try:
        assert _run(main()) == ["two threads", "one", "batch"]
    finally:
        workers.close()
    # the bot of two threads held both slots: nothing ran beside it
    assert order[:2] == ["start two threads", "end two threads"]
    # more than --jobs is --jobs (a client may seat none, but a save may name one)
    assert _run(_weighted(Workers(1, processes=False))) == "ok"


async def _weighted(workers: Workers) -> str:
    try:
        return str(await workers.thread(lambda: "ok", weight=8))
    finally:
        workers.close()
