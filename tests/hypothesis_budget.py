"""The example budget shared by the hypothesis tests, and the bound on each fuzzed run."""

from __future__ import annotations

import resource
import sys
import threading
from collections.abc import Callable

from hypothesis import HealthCheck, settings


def examples(n: int) -> settings:
    """At least ``n`` examples (more under a bigger Hypothesis profile, such as dev)."""
    base = settings()
    return settings(
        base,
        max_examples=max(n, base.max_examples),
        deadline=None,
        suppress_health_check=[*base.suppress_health_check, HealthCheck.function_scoped_fixture],
    )


def bounded(fn: Callable[[], object]) -> None:
    """Run ``fn`` in a thread; it must end within 20 s and grow memory by less than 200 MB."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    errors: list[BaseException] = []

    def target() -> None:
        try:
            fn()
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(20)
    assert not worker.is_alive(), "hung"
    if errors:
        raise errors[0]
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 200_000 * (1 if sys.platform != "darwin" else 1024)
