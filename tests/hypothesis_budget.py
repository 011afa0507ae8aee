"""The example budget shared by the hypothesis tests."""

from __future__ import annotations

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
