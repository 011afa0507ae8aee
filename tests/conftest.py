"""Shared pytest set-up.  Others may add fixtures here; keep it small.

Hypothesis profiles: ``ci`` (the default) keeps every property file fast;
``dev`` runs many more examples.  Choose with ``HYPOTHESIS_PROFILE=dev`` or
``pytest --hypothesis-profile=dev``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings

# ci does not shrink: most strategies here are seeds, and a smaller seed is
# no simpler a game; the failing seed is reported as drawn.
settings.register_profile(
    "ci", max_examples=12, deadline=None, derandomize=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", max_examples=500, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The compiled-variant cache (bones.games.cache) of the commands the tests
# run goes to a folder of this test session, never the user's own cache.
if "BONES_CACHE_DIR" not in os.environ:
    import tempfile

    os.environ["BONES_CACHE_DIR"] = tempfile.mkdtemp(prefix="bones-test-cache-")


# The web tests' server (tests/test_web.py, test_web_social.py,
# test_web_handed.py): a `bones serve` app on a save folder of the test's own.


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    """The test's save folder for `bones serve`."""
    return tmp_path / "saves"


@pytest.fixture
def server(saves: Path) -> Iterator[tuple[Any, Any]]:
    """``(app, client)``: a `bones serve` app on ``saves`` and its running test client."""
    from tests.test_web import make  # skips the test without the web extra

    app, client = make(saves)
    with client:
        yield app, client


# .ci/run's two passes: the native one deselects the tests marked
# core_blind, the Python-core one those marked once (pyproject's markers); a
# test marked both would run in neither, so the collection refuses it (before
# -m deselects anything).
@pytest.hookimpl(hookwrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> Iterator[None]:
    both = [item.nodeid for item in items
            if item.get_closest_marker("once") and item.get_closest_marker("core_blind")]
    if both:
        raise pytest.UsageError(f"marked both once and core_blind (no pass of .ci/run would run it): {both[0]}")
    yield


# Where the suite's time goes (issue 37): with BONES_TEST_TIMES=FILE, each
# module's wall and CPU seconds (the test process's and its children's, set-up
# and tear-down included) are added up and the slowest modules written to FILE
# at the end; .ci/run prints them after each pass.
_TIMES: dict[str, list[float]] = {}


def _cpu() -> float:
    import resource

    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    if not os.environ.get("BONES_TEST_TIMES"):
        yield
        return
    import time

    wall, cpu = time.perf_counter(), _cpu()
    yield
    entry = _TIMES.setdefault(item.nodeid.split("::")[0], [0.0, 0.0, 0.0])
    entry[0] += time.perf_counter() - wall
    entry[1] += _cpu() - cpu
    entry[2] += 1


def pytest_sessionfinish(session: pytest.Session) -> None:
    where = os.environ.get("BONES_TEST_TIMES")
    if not where or not _TIMES:
        return
    rows = sorted(_TIMES.items(), key=lambda kv: -kv[1][1])
    lines = [f"{'module':44s} {'wall s':>8s} {'CPU s':>8s} {'tests':>6s}"]
    lines += [f"{name:44s} {w:8.1f} {c:8.1f} {int(n):6d}" for name, (w, c, n) in rows[:40]]
    lines.append(f"{'all ' + str(len(rows)) + ' modules':44s} {sum(v[0] for v in _TIMES.values()):8.1f} "
                 f"{sum(v[1] for v in _TIMES.values()):8.1f} "
                 f"{int(sum(v[2] for v in _TIMES.values())):6d}")
    with open(where, "a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
