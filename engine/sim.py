"""Simulation of many games by bots, in mergeable batches (being written)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def load_variant(ref: str) -> Any:
    """A variant by built-in name or YAML path (engine.load when available)."""
    try:
        from engine.load import load_variant as _load
    except ModuleNotFoundError:
        _load = None
    if _load is not None:
        return _load(ref)
    import yaml

    from engine.spec import Variant

    path = Path(ref)
    if not path.exists():
        path = Path(__file__).resolve().parent.parent / "variants" / f"{ref}.yaml"
    with open(path, encoding="utf-8") as fh:
        return Variant.model_validate(yaml.safe_load(fh))
