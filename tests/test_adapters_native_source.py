"""The vector environment's native binding and thread pool keep the crate's
rules for unsafe code: every ``unsafe`` block and impl is preceded by a
``// SAFETY:`` comment stating why it is sound (and clippy's
``undocumented_unsafe_blocks`` is denied there, so ``cargo clippy`` refuses
one without), and no lint is silenced for a function's argument count
(arguments are grouped in structs instead)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "native" / "src"
FILES = ["python/vector.rs", "run/pool.rs"]


def _unsafe_sites(text: str) -> list[tuple[int, list[str]]]:
    """Each line opening an ``unsafe`` block or impl, with the comment lines
    just above it."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        code = line.split("//", 1)[0]
        if not re.search(r"\bunsafe\s*(\{|impl\b)", code):
            continue
        above = []
        k = i - 1
        while k >= 0 and lines[k].strip().startswith("//"):
            above.append(lines[k].strip())
            k -= 1
        out.append((i + 1, above))
    return out


@pytest.mark.parametrize("name", FILES)
def test_every_unsafe_says_why_it_is_sound(name: str) -> None:
    sites = _unsafe_sites((SRC / name).read_text())
    assert sites, f"{name} has no unsafe code: drop it from this test"
    missing = [line for line, above in sites if not any(c.startswith("// SAFETY:") for c in above)]
    assert missing == [], f"{name}: unsafe without a SAFETY comment at lines {missing}"


def test_clippy_is_told_to_refuse_an_undocumented_unsafe() -> None:
    assert "#![deny(clippy::undocumented_unsafe_blocks)]" in (SRC / "python/vector.rs").read_text()
    assert ("#[deny(clippy::undocumented_unsafe_blocks)]\npub mod pool;"
            in (SRC / "run/mod.rs").read_text())


@pytest.mark.parametrize("name", FILES)
def test_no_function_silences_its_argument_count(name: str) -> None:
    assert "too_many_arguments" not in (SRC / name).read_text()
