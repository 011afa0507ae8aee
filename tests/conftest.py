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
