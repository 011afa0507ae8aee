"""A real `bones serve` process and Debian's Chromium driven by Playwright.

The browser is the system's ``chromium`` (``apt-get install chromium``), launched by its
path; Playwright's own browser download is never used.  Without a browser the tests
skip with a message, except under ``CI=true``, where a missing browser fails the run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .serving import Served, chromium_path, free_port

#: The browser modules of the Python-core pass of .ci/run (``core_blind``); the
#: others run in the native pass (``once``).  Their subject is the page, not the
#: core: their server plays with the pass's core (the Python reference there),
#: and the split balances the two passes (issue 37: these three took 199 s of
#: the native pass's wall on an idle host, and pass under BONES_CORE=python).
#: .ci/run runs both halves in a third process beside the two passes, with
#: these markers and cores (issue 37: the browser tests mostly wait).
PYTHON_PASS = {"test_table_browser.py", "test_trains_browser.py", "test_access_browser.py"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test runs in one pass of the suite (the page, not the core)."""
    here = Path(__file__).parent
    for item in items:
        path = Path(item.path)
        if here in path.parents:
            item.add_marker(pytest.mark.core_blind if path.name in PYTHON_PASS else pytest.mark.once)


def _missing(what: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} (CI=true: the browser tests must run; .ci/run installs chromium)")
    pytest.skip(f"{what}: install Debian's chromium (apt-get install chromium) and the test extra")


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright for Python is not installed")
    path = chromium_path()
    if path is None:
        _missing("no chromium on PATH")
    args = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=args + ["--disable-gpu"])
        yield b
        b.close()


@pytest.fixture
def served(tmp_path: Path):
    s = Served(tmp_path / "saves", free_port())
    s.start()
    yield s
    s.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 860}, bypass_csp=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    yield pg
    context.close()
    assert not errors, errors
