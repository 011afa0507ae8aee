"""Shared helpers: loading rules, timing, and describing the machine."""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def load_variant(name: str):
    """A built-in variant, through bones.lang.load once it exists."""
    try:
        from bones.lang.load import load_variant as load
    except ImportError:
        # bones.lang.load is not committed yet: read the YAML file directly
        import yaml

        from bones.lang.spec import Variant

        with open(REPO / "variants" / f"{name}.yaml", encoding="utf-8") as fh:
            return Variant.model_validate(yaml.safe_load(fh))
    return load(name)


def compile_table(name: str, players: int | None = None, teams: bool | None = None):
    from bones.lang.compile import compile_rules

    return compile_rules(load_variant(name), players, teams)


def tables(name: str) -> list[tuple[str, int, bool]]:
    """Every table a variant allows: (label, players, teams).

    Four players are benchmarked both ways where partnerships are optional.
    """
    variant = load_variant(name)
    out = []
    for players in sorted(variant.players.counts):
        kind = variant.players.partnerships.kind
        in_teams = players in variant.players.partnerships.player_counts
        if kind != "required" or not in_teams:
            out.append((f"{players}p", players, False))
        if kind != "none" and in_teams:
            out.append((f"{players}p-teams", players, True))
    return out


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def bones_command(explicit: str | None = None) -> list[str]:
    """How to run the ``bones`` CLI: the given path, the script beside this
    interpreter, one on PATH, or ``python -m bones`` as the last resort."""
    if explicit:
        return [explicit]
    beside = Path(sys.executable).with_name("bones")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("bones")
    if found:
        return [found]
    return [sys.executable, "-m", "bones"]


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "HEAD"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no",
             "--", "bones", "variants", "bench"],
            capture_output=True, text=True, timeout=10, check=False,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out + ("-dirty" if dirty else "")


def machine_info() -> dict[str, object]:
    from bones import __version__

    try:
        load = os.getloadavg()
    except OSError:
        load = (0.0, 0.0, 0.0)
    return {
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in load],
        "platform": platform.platform(),
        "python": platform.python_version(),
        "python_implementation": platform.python_implementation(),
        "engine_version": __version__,
        "commit": git_commit(),
    }


def match_factory(rules):
    """``new(seed)`` -> a fresh Match for a one-hand game.

    Where Match can borrow a generator (``Match(rules, rng=...)``), all games
    of a run share one, as simulate's batches do: seeding a Mersenne Twister
    per game costs about 5 us, a tenth of a short game.  Older engines seed
    one per game.
    """
    import random

    from bones.engine.match import Match

    try:
        Match(rules, 0, rng=random.Random(0))
    except TypeError:
        return lambda seed: Match(rules, seed)
    shared: list[random.Random] = []

    def new(seed: int):
        if not shared:
            shared.append(random.Random(seed))
        return Match(rules, seed, rng=shared[0])

    return new


def walk(rules, hands: int, seed: int, choose):
    """Every position of ``hands`` hands (hand ``i`` dealt from ``seed + i``,
    with its own ``Rng(seed + i)``): yields ``(hand, seat, legal, rng, chose)``
    before each move, ``chose`` the seats that have had a choice so far in
    the hand; then plays the only legal move or ``choose(hand, seat, legal,
    rng)``.  The walk the inference benches share (the caller may draw from
    ``rng`` before the move is chosen: the order is the caller's, then the
    bot's)."""
    from bones.engine.hand import PLAYING
    from bones.engine.match import Match
    from bones.engine.rng import Rng

    for i in range(hands):
        hand = Match(rules, seed + i).new_hand()
        rng = Rng(seed + i)
        chose: set[int] = set()
        while hand.state == PLAYING:
            seat = hand.turn
            legal = hand.legal_moves()
            yield hand, seat, legal, rng, chose
            if len(legal) == 1:
                hand.apply(legal[0])
                continue
            chose.add(seat)
            hand.apply(choose(hand, seat, legal, rng))


def compile_bytecode() -> None:
    """Write the bytecode of the bones package, as ``pip install`` does.

    Every timed ``bones`` process then starts as an installed one does.  An
    editable checkout run with ``PYTHONDONTWRITEBYTECODE`` set (some shells
    and containers set it) would otherwise compile every module from source
    in every process: about 0.15 s of CPU on each start.
    """
    import compileall

    import bones

    compileall.compile_dir(str(Path(bones.__file__).parent), quiet=1)
