"""A pytest plugin: which tests ask which core plays (issue 37 §3).

A test may be marked ``once`` (run in the native pass of ``.ci/run`` only)
when it compares the two cores, or when nothing it runs depends on the core.
This plugin gives the evidence for the second kind. Run the tests under
``BONES_CORE=native`` with it::

    BONES_CORE=native BONES_CORE_CALLS=calls.txt python -m pytest -p tools.core_calls tests/test_x.py

and it writes one line a test to ``calls.txt``: the times the test (any of
its threads) asked :func:`bones.engine.core.native` which core plays, the
processes it started (a process inherits ``BONES_CORE``, so it may depend on
the core without this process seeing it), its CPU seconds (this process's
and the children it waited for: a thread an earlier test left running shows
here too), the threads alive after it, and the test's id. A test with
``0 0`` made the same calls under either core: every core choice goes
through ``core.native()``, which reads ``BONES_CORE`` in ``core._choice``
(wrapped here, so a ``from bones.engine.core import native`` taken before
the wrap is counted too). A test that imports ``bones_native`` itself
(``tests/native_support.py``) is not seen here: read it.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

_counts = {"native": 0, "processes": 0}
_rows: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    from bones.engine import core

    choice = core._choice

    def counted_choice() -> str:
        _counts["native"] += 1
        return choice()

    core._choice = counted_choice

    start = subprocess.Popen.__init__

    def counted_start(self: Any, *args: Any, **kwargs: Any) -> None:
        _counts["processes"] += 1
        start(self, *args, **kwargs)

    subprocess.Popen.__init__ = counted_start

    import multiprocessing.process

    spawn = multiprocessing.process.BaseProcess.start

    def counted_spawn(self: Any) -> None:
        _counts["processes"] += 1
        spawn(self)

    multiprocessing.process.BaseProcess.start = counted_spawn


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    _counts["native"] = _counts["processes"] = 0
    cpu = _cpu()
    yield
    import threading

    _rows.append(f"{_counts['native']} {_counts['processes']} {_cpu() - cpu:.2f} "
                 f"{threading.active_count()} {item.nodeid}")


def _cpu() -> float:
    import resource

    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def pytest_sessionfinish(session: pytest.Session) -> None:
    where = os.environ.get("BONES_CORE_CALLS")
    if where and _rows:
        with open(where, "a", encoding="utf-8") as out:
            out.write("\n".join(_rows) + "\n")
