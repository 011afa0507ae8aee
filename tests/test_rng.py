"""The specified random stream (docs/random.md): splitmix64, its methods and
the seed derivation, against the published reference, a plain re-reading of
the specification and the shared test vectors."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from bones.engine.rng import MASK64, Rng, derive, mix, stream

ROOT = Path(__file__).resolve().parent.parent
VECTORS = json.loads((ROOT / "tests" / "data" / "rng_vectors.json").read_text())["vectors"]


class Spec:
    """The specification read literally, one draw at a time (no inlining)."""

    def __init__(self, seed: int) -> None:
        self.state = seed % 2**64

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) % 2**64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        t = (2**64 - n) % n
        while True:
            x = self.next_u64()
            if x >= t:
                return x % n

    def shuffle(self, a: list[int], k: int | None = None) -> None:
        last = 1 if k is None else max(len(a) - k, 1)
        for i in range(len(a) - 1, last - 1, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]


def test_first_outputs_match_the_reference_implementation() -> None:
    # Sebastiano Vigna's splitmix64.c seeded with 0
    r = Rng(0)
    assert [r.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize("seed", [0, 1, 5, -1, -(2**70), 2**64, 2**64 + 3, 0x9E3779B97F4A7C15])
def test_every_method_draws_as_specified(seed: int) -> None:
    fast, slow = Rng(seed), Spec(seed)
    for n in (1, 2, 3, 7, 28, 190, 2**32 + 1, 2**63 + 1, 2**64 - 1):
        assert [fast.below(n) for _ in range(20)] == [slow.below(n) for _ in range(20)]
        assert fast.state == slow.state
    for _ in range(10):
        assert fast.random() == (slow.next_u64() >> 11) / 2**53
    for n in (0, 1, 2, 28, 91, 190):
        for k in (None, 0, 1, n // 2, n, n + 5):
            a, b = list(range(n)), list(range(n))
            if k is None:
                fast.shuffle(a)
            else:
                fast.shuffle_tail(a, k)
            slow.shuffle(b, k)
            assert a == b
            assert fast.state == slow.state
    seq = "abcdefg"
    assert [fast.choice(seq) for _ in range(30)] == [seq[slow.below(7)] for _ in range(30)]


def test_the_vectors_file() -> None:
    for v in VECTORS["next_u64"]:
        r = Rng(int(v["seed"]))
        assert [str(r.next_u64()) for _ in v["out"]] == v["out"]
    for v in VECTORS["random"]:
        r = Rng(int(v["seed"]))
        assert [r.random() for _ in v["out"]] == v["out"]
    for v in VECTORS["below"]:
        r = Rng(int(v["seed"]))
        assert [str(r.below(int(v["n"]))) for _ in v["out"]] == v["out"]
    for v in VECTORS["shuffle"]:
        a = list(range(v["n"]))
        Rng(int(v["seed"])).shuffle(a)
        assert a == v["out"]
    for v in VECTORS["shuffle_tail"]:
        a = list(range(v["n"]))
        Rng(int(v["seed"])).shuffle_tail(a, v["k"])
        assert a == v["out"]
    for v in VECTORS["derive"]:
        assert str(derive(int(v["seed"]), *(int(p) for p in v["path"]))) == v["out"]


def test_the_documented_vectors_are_the_files() -> None:
    doc = (ROOT / "docs" / "random.md").read_text()

    def row(label: str) -> list[str]:
        line = next(x for x in doc.splitlines() if x.startswith(f"| {label}"))
        return re.findall(r"`([^`]*)`", line.split("|")[2])[0].split()

    assert [int(x, 16) for x in row("`Rng(0)`, first five")] == [
        int(x) for x in VECTORS["next_u64"][0]["out"]]
    assert [int(x, 16) for x in row("`Rng(1)`, first five")] == [
        int(x) for x in VECTORS["next_u64"][1]["out"]]
    assert [float(x) for x in row("`Rng(0)`, first three")] == VECTORS["random"][0]["out"]
    assert row("`Rng(1)`, ten") == VECTORS["below"][0]["out"]
    assert [int(x) for x in row("`Rng(42)`")] == VECTORS["shuffle"][0]["out"]
    assert int(row("`derive(7, 1, 1)`")[0], 16) == derive(7, 1, 1)


def test_tail_shuffle_fixes_the_same_places_as_a_full_one() -> None:
    for seed in range(50):
        full, tail = list(range(28)), list(range(28))
        Rng(seed).shuffle(full)
        Rng(seed).shuffle_tail(tail, 14)
        assert tail[14:] == full[14:]
        assert sorted(tail) == list(range(28))


def test_derive_folds_the_path_and_reduces_seeds() -> None:
    assert derive(3) == mix(3) == Rng(3).next_u64()
    assert derive(3, 4, 5) == mix(mix(mix(3) ^ 4) ^ 5)
    assert derive(-1, -2) == derive(MASK64, MASK64 - 1)
    assert derive(2**64 + 9, 1) == derive(9, 1)
    assert stream(3, 1).state == derive(3, 1)
    # different paths, different streams
    seeds = {derive(11, a, b) for a in range(1, 4) for b in range(50)}
    assert len(seeds) == 150


def test_below_is_uniform_and_rejects_bad_bounds() -> None:
    r = Rng(2024)
    counts = Counter(r.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    # each face within 5 standard deviations of 10,000 (sd ~ 91)
    assert all(abs(c - 10_000) < 460 for c in counts.values())
    for bad in (0, -3, 2**64):
        with pytest.raises(ValueError):
            r.below(bad)
    with pytest.raises(IndexError):
        r.choice([])


def test_random_is_in_the_unit_interval() -> None:
    r = Rng(1)
    xs = [r.random() for _ in range(10_000)]
    assert all(0.0 <= x < 1.0 for x in xs)
    assert 0.48 < sum(xs) / len(xs) < 0.52
