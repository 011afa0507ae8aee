"""``python -m bench.strength``: the ladder of bones' levels, and of its bots.

By default, the levels (:data:`bones.bots.levels.LEVELS`, "Novice" to
"Expert"): in every built-in (``bones list``, the train games among them),
each level against the one below it on paired deals, ``bones simulate
VARIANT --bots BELOW,LEVEL --duplicate`` (every deal played from both
seatings, the same shuffles), at
``-n`` matches a pairing.  Each row gives the level's wins of the decided
matches with the Wilson 95% interval, and the Elo difference that win rate
means (400 log10(p / (1 - p))) with the interval's ends converted the same
way.  ``--check`` exits 1 when a level is less than ``--min-elo`` (150) Elo
above the one below in some game (by the estimate; ``--strict``: by the
lower end of its interval).  ``--bots`` replaces the levels' bots by any
ladder of bot texts, weakest first.

``--tournament`` plays the older ladder of the algorithms instead: ``bones
tournament`` (every pair of bots, both seat orders, whole matches) between
``random``, ``greedy``, ``heuristic``, ``pimc`` (the determinized search that
was ``search`` before the solver), ``search`` and ``search`` at four times its
worlds, on 2-player All Fives, Sniff, Muggins and ``block-2p``, with each
variant's Elo ratings (:mod:`bones.engine.ratings`, Bradley-Terry, ``random``
= 0).  ``--peers`` adds the matches against the two peers' best honest bots
(``bench/versus_openspiel.py``: ISMCTS on ``block-2p``;
``bench/versus_dominoes.py``: ``probabilistic_alphabeta`` on
``partnership-block``), which are slow (seconds a move).

A benchmark, not a test: the figures depend on nothing but the seed (every
bot here is reproducible), the times on the machine.  bench/results/levels.md
gives the figures of the levels' runs, bench/results/search-issue20.md ("The
ladder") those of the tournaments.

    python -m bench.strength                          # every built-in, 200 matches a pairing
    python -m bench.strength --variants all-fives,block-2p -n 400 --check
    python -m bench.strength --variants mexican-train,chicken-foot --bots greedy,heuristic,search \
        --players 2 --hands -n 500
    python -m bench.strength --tournament -n 200 --jobs 2 --json --out strength.json
    python -m bench.strength --tournament --variants block-2p --peers --peer-deals 20
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import shlex
import subprocess
import sys
import time
from typing import Any

from bench.common import machine_info

#: the games of ``--tournament``
VARIANTS = ("all-fives", "sniff", "muggins", "block-2p")
#: the least a level should be above the one below it
MIN_ELO = 150.0


def builtins() -> list[str]:
    """Every built-in variant, as ``bones list`` names them."""
    from bones.lang.load import builtin_names

    return builtin_names()


def level_bots() -> list[tuple[str, str]]:
    """The levels, weakest first: ``(level, bot text)``."""
    from bones.bots.levels import LEVELS

    return [(level.name, level.bot) for level in LEVELS]


def elo(p: float) -> float:
    """The Elo difference a win rate ``p`` means (infinite at 0 and 1).

    >>> round(elo(0.5)), round(elo(0.75)), round(elo(0.25))
    (0, 191, -191)
    >>> elo(1.0)
    inf
    """
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return 400.0 * math.log10(p / (1.0 - p))


def rung(variant: str, below: str, above: str, matches: int, seed: int, jobs: int,
         players: int | None = None, hands: bool = False) -> dict[str, Any]:
    """``above`` against ``below`` in ``variant`` on paired deals (each from both
    seatings, so ``matches // 2`` deals, at least one): the command, the decided
    matches, the wins of ``above`` and their Wilson interval, the Elo difference.
    ``players`` seats that many (None: the variant's fewest); ``hands`` makes
    each match one hand (``bones simulate --hands``: a train game's round)."""
    deals = max(1, (matches + 1) // 2)
    cmd = [sys.executable, "-m", "bones", "simulate", variant, "--bots", f"{below},{above}",
           "--hands" if hands else "-n", str(deals), "--duplicate", "--seed", str(seed),
           "--jobs", str(jobs), "--json", "-q"]
    if players is not None:
        cmd += ["--players", str(players)]
    if jobs > 1:
        cmd.append("--oversubscribe")
    command = shlex.join(["bones", *cmd[3:]])
    print("$ " + command, file=sys.stderr, flush=True)
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    report: dict[str, Any] = json.loads(done.stdout)
    row = {"variant": variant, "below": below, "above": above, "command": command,
           "seconds": round(seconds, 1),
           "cpu_seconds": round(cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime, 1),
           **paired(report, above)}
    # each rung as it ends, so a long ladder stopped half way keeps what it measured
    print(f"  {above} over {below}: {row['wins']} / {row['decided']} ({100 * row['value']:.1f}%), "
          f"{_elo_text(row['elo'])} Elo; {row['cpu_seconds']} s of CPU", file=sys.stderr, flush=True)
    return row


def paired(report: dict[str, Any], above: str) -> dict[str, Any]:
    """The figures of one ``bones simulate --duplicate --json`` report for the bot
    ``above``: deals, matches, decided, wins, its win rate of the decided matches
    with the Wilson 95% interval, and the Elo difference with its interval."""
    from bones.sim.stats import wilson

    dup = report["duplicate"]
    mine = next(b for b in dup["bots"] if b["bot"] == above)
    wins, decided = mine["wins"], dup["decided"]
    rate = wilson(wins, decided)
    return {"deals": dup["deals"], "matches": dup["games"], "decided": decided, "wins": wins,
            "value": rate.value, "lo": rate.lo, "hi": rate.hi,
            "elo": elo(rate.value), "elo_lo": elo(rate.lo), "elo_hi": elo(rate.hi)}


def short(rows: list[dict[str, Any]], min_elo: float = MIN_ELO, strict: bool = False) -> list[dict[str, Any]]:
    """The rows whose level is not ``min_elo`` above the one below (by the
    estimate, or with ``strict`` by the lower end of its interval)."""
    key = "elo_lo" if strict else "elo"
    return [r for r in rows if not r[key] >= min_elo]


def spans_needed(rows: list[dict[str, Any]], failed: list[dict[str, Any]],
                 rungs: list[str]) -> dict[str, list[int]]:
    """Per game with a short rung, the levels ``j`` (indices into ``rungs``,
    2 and up) whose span from the lowest, ``rungs[0]`` against ``rungs[j]``,
    says whether that rung could be held: ``j`` is the short rung's level
    and the one above it (level 1's span is its own rung)."""
    top = len(rungs) - 1
    out: dict[str, set[int]] = {}
    for r in failed:
        i = rungs.index(r["above"])
        out.setdefault(r["variant"], set()).update(j for j in (i, i + 1) if 2 <= j <= top)
    return {v: sorted(js) for v, js in out.items() if js}


def beyond_span(rows: list[dict[str, Any]], failed: list[dict[str, Any]], spans: list[dict[str, Any]],
                rungs: list[str], min_elo: float = MIN_ELO) -> list[dict[str, Any]]:
    """The short rungs the game's span cannot hold: rung ``i`` (level ``i``
    over level ``i - 1``) when the lowest level's span to level ``j`` (``j``
    = ``i`` or ``i + 1``, measured in ``spans``) is under ``j`` × ``min_elo``,
    so that levels 1 to ``j`` cannot all be ``min_elo`` apart, whatever the
    levels between (the span is measured, never assumed per game)."""
    measured = {(s["variant"], rungs.index(s["above"])): s["elo"] for s in spans}
    out = []
    for r in failed:
        i = rungs.index(r["above"])
        if any(measured.get((r["variant"], j), math.inf) < j * min_elo for j in (i, i + 1)):
            out.append(r)
    return out


def _elo_text(x: float) -> str:
    return f"{x:+.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def _cells(r: dict[str, Any], names: dict[str, str]) -> str:
    """A ladder row's cells up to its last column: the game, the two levels
    (bots), wins of decided, the win rate and the Elo with their intervals."""
    return (f"| {r['variant']} | {names.get(r['above'], r['above'])} (`{r['above']}`) "
            f"| {names.get(r['below'], r['below'])} (`{r['below']}`) "
            f"| {r['wins']} / {r['decided']} ({r['matches']}) "
            f"| {100 * r['value']:.1f}% [{100 * r['lo']:.1f}, {100 * r['hi']:.1f}] "
            f"| {_elo_text(r['elo'])} [{_elo_text(r['elo_lo'])}, {_elo_text(r['elo_hi'])}] |")


def ladder_table(rows: list[dict[str, Any]], names: dict[str, str], min_elo: float,
                 strict: bool, limited: list[dict[str, Any]] | None = None,
                 spans: list[dict[str, Any]] | None = None) -> list[str]:
    """The rows as a Markdown table (a short rung the game's span cannot hold
    marked so), the spans from the lowest level measured for them, then the
    commands with their times."""
    lines = ["| game | level (bot) | v the level below | wins / decided (matches) "
             "| win rate, Wilson 95% | Elo, 95% | " + f"≥ {min_elo:g} Elo |",
             "|---|---|---|---|---|---|---|"]
    failed = {id(r) for r in short(rows, min_elo, strict)}
    beyond = {id(r) for r in limited or ()}
    spans = spans or []
    for r in rows:
        if id(r) in beyond:
            mark = "**no**: beyond the span"
        else:
            mark = "**no**" if id(r) in failed else "yes"
        lines.append(f"{_cells(r, names)} {mark} |")
    if spans:
        lines += ["", "The span from the lowest level, where a rung is short (levels 1 to j "
                  f"need j × {min_elo:g} Elo):", "",
                  "| game | level (bot) | v the lowest | wins / decided (matches) "
                  "| win rate, Wilson 95% | Elo, 95% | room for |", "|---|---|---|---|---|---|---|"]
        for r in spans:
            room = 1 + int(max(r["elo"], 0.0) // min_elo) if math.isfinite(r["elo"]) else "every"
            lines.append(f"{_cells(r, names)} {room} level{'' if room == 1 else 's'} |")
    lines.append("")
    lines += [f"    {r['command']}    # {r['seconds']} s, {r['cpu_seconds']} s of CPU"
              for r in [*rows, *spans]]
    return lines


def ladder(iterations: int | None = None) -> list[str]:
    """The bots of the ladder (``search`` at 1x and 4x its default worlds)."""
    if iterations is None:
        from bones.bots.search import DEFAULT_ITERATIONS

        iterations = DEFAULT_ITERATIONS
    return ["random", "greedy", "heuristic", "pimc", "search",
            f"search:iterations={4 * iterations}"]


def _run(cmd: list[str]) -> str:
    print("$ " + shlex.join(cmd), file=sys.stderr, flush=True)
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return done.stdout


def tournament(variant: str, bots: list[str], matches: int, seed: int, jobs: int) -> dict[str, object]:
    """One variant's tournament: the command, its ratings and win matrix."""
    cmd = [sys.executable, "-m", "bones", "tournament", variant, "--bots", ",".join(bots),
           "-n", str(matches), "--seed", str(seed), "--jobs", str(jobs), "--json", "-q"]
    if jobs > 1:
        cmd.append("--oversubscribe")
    start = time.perf_counter()
    report: dict[str, Any] = json.loads(_run(cmd))
    return {
        "variant": variant,
        "command": shlex.join(["bones", *cmd[3:]]),
        "seed": seed,
        "matches_per_pairing": matches,
        "seconds": round(time.perf_counter() - start, 1),
        "ratings": report.get("ratings"),
        "report": report,
    }


def peers(deals: int, seed: int, bot: str = "search") -> list[dict[str, object]]:
    """The matches against the peers (each deal twice, the seats swapped)."""
    import os
    import tempfile

    out = []
    for module, variant in (("bench.versus_openspiel", "block-2p"),
                            ("bench.versus_dominoes", "partnership-block")):
        fd, path = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        cmd = [sys.executable, "-m", module, "--deals", str(deals), "--seed", str(seed),
               "--bot", bot, "--json", path, "--quiet"]
        try:
            text = _run(cmd)
            with open(path) as f:
                got = json.load(f).get("summary")
        except (subprocess.CalledProcessError, OSError, json.JSONDecodeError) as err:
            text, got = "", {"error": str(err)}
        finally:
            os.unlink(path)
        out.append({"variant": variant, "command": shlex.join(["python", *cmd[1:-3]]),
                    "text": text.strip(), "summary": got})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--matches", type=int, default=None,
                    help="matches per pairing (default 200; --tournament: 40)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--variants", default=None, help="comma-separated (default: every built-in; "
                    "--tournament: " + ",".join(VARIANTS) + ")")
    ap.add_argument("--players", type=int, default=None,
                    help="the levels: seats at every table (default: each variant's fewest)")
    ap.add_argument("--hands", action="store_true",
                    help="the levels: each match is one hand (bones simulate --hands), as the "
                    "train games' strength is measured (bench/results/trains-search.md)")
    ap.add_argument("--bots", default=None, help="the ladder's bots, weakest first, comma-separated "
                    "(default: the levels' bots; --tournament: " + ",".join(ladder(45)) + ")")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when a level is less than --min-elo above the one below somewhere "
                    "the game's span could hold it (a short rung's span from the lowest level is "
                    "measured too; the rungs beyond it are listed, not failed)")
    ap.add_argument("--min-elo", type=float, default=MIN_ELO)
    ap.add_argument("--strict", action="store_true",
                    help="--check by the lower end of the Elo interval, not the estimate")
    ap.add_argument("--tournament", action="store_true",
                    help="the round robin of the algorithms (bones tournament) instead of the levels")
    ap.add_argument("--peers", action="store_true", help="--tournament: also play the two peers (slow)")
    ap.add_argument("--peer-deals", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--out", default=None)
    o = ap.parse_args(argv)
    if o.matches is not None and o.matches < 1:
        ap.error("-n must be at least 1")
    if o.tournament:
        if o.check or o.players or o.hands:
            ap.error("--check, --players and --hands are for the levels' ladder, not --tournament")
        return _tournaments(o)
    if o.peers:
        ap.error("--peers needs --tournament")
    return _levels(o)


def _levels(o: argparse.Namespace) -> int:
    """The levels' ladder: each rung against the one below in every game."""
    levels = level_bots()
    if o.bots:
        rungs = [b.strip() for b in o.bots.split(",") if b.strip()]
        if len(rungs) < 2:
            raise SystemExit("python -m bench.strength: --bots needs at least two bots")
    else:
        rungs = [bot for _, bot in levels]
    rungs = [_canonical(b) for b in rungs]
    if len(set(rungs)) < len(rungs):
        raise SystemExit("python -m bench.strength: --bots names a bot twice")
    names = {bot: level for level, bot in levels}
    variants = o.variants.split(",") if o.variants else builtins()
    matches = o.matches or 200
    rows = [rung(v, below, above, matches, o.seed, o.jobs, o.players, o.hands)
            for v in variants for below, above in zip(rungs, rungs[1:])]
    failed = short(rows, o.min_elo, o.strict)
    spans: list[dict[str, Any]] = []
    if o.check:
        # where a rung is short: could the game hold it at all?
        spans = [rung(v, rungs[0], rungs[j], matches, o.seed, o.jobs, o.players, o.hands)
                 for v, js in spans_needed(rows, failed, rungs).items() for j in js]
    limited = beyond_span(rows, failed, spans, rungs, o.min_elo)
    gone = {id(r) for r in limited}
    really = [r for r in failed if id(r) not in gone]
    m = machine_info()
    if o.json:
        text = json.dumps({"machine": m, "levels": levels, "bots": rungs, "seed": o.seed,
                           "matches_per_pairing": matches, "min_elo": o.min_elo,
                           "strict": o.strict, "pairings": rows, "spans": spans,
                           "short": [[r["variant"], r["above"]] for r in failed],
                           "beyond_span": [[r["variant"], r["above"]] for r in limited]}, indent=1)
    else:
        head = (f"bones levels ladder, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
                f"{m.get('cpu_model')}, {m.get('cores')} cores, load {m.get('load_average')}, "
                f"commit {str(m.get('commit', ''))[:7]}; {matches} matches a pairing on paired "
                f"deals, seed {o.seed}")
        text = "\n".join([head, "", *ladder_table(rows, names, o.min_elo, o.strict, limited, spans)])
    if o.out:
        with open(o.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    for r in limited:
        print(f"beyond the span: {r['variant']}: {names.get(r['above'], r['above'])} is "
              f"{_elo_text(r['elo'])} Elo over {names.get(r['below'], r['below'])}, and the game's "
              "span from the lowest level cannot hold every rung", file=sys.stderr)
    return 1 if o.check and really else 0


def _canonical(text: str) -> str:
    """A built-in bot text as reports name it (``blunder:rate=0.5`` is ``blunder``)."""
    from bones.bots import BotError, canonical, kind_of, parse_bot

    if kind_of(text) != "builtin":
        return text
    try:
        name, values = parse_bot(text)
    except BotError as err:
        raise SystemExit(f"python -m bench.strength: {err}") from None
    return canonical(name, values)


def _tournaments(o: argparse.Namespace) -> int:
    """The algorithms' round robin in each variant, and the peers."""
    bots = o.bots.split(",") if o.bots else ladder()
    result: dict[str, Any] = {"machine": machine_info(), "date": time.strftime("%Y-%m-%d %H:%M UTC",
                                                                       time.gmtime()),
                    "bots": bots, "variants": []}
    for variant in (o.variants.split(",") if o.variants else VARIANTS):
        result["variants"].append(tournament(variant, bots, o.matches or 40, o.seed, o.jobs))
    if o.peers:
        result["peers"] = peers(o.peer_deals, o.seed)
    if o.json:
        text = json.dumps(result, indent=1)
    else:
        m = result["machine"]
        lines = [f"bones strength ladder, {result['date']}, {m.get('cpu_model')}, "
                 f"{m.get('cores')} cores, load {m.get('load_average')}, "
                 f"commit {str(m.get('commit', ''))[:7]}"]
        for v in result["variants"]:
            lines.append("")
            lines.append(f"{v['variant']}: {v['matches_per_pairing']} matches a pairing, "
                         f"seed {v['seed']}, {v['seconds']} s")
            lines.append(f"  $ {v['command']}")
            ratings = v["ratings"] or {}
            for r in ratings.get("bots", []):
                lines.append(f"  {r['bot']:<28} {r['elo']:+7.0f}  [{r['lo']:+.0f}, {r['hi']:+.0f}]")
        for p in result.get("peers", []):
            lines.append("")
            lines.append(f"peers, {p['variant']}: $ {p['command']}")
            lines.append("  " + (p["text"] or json.dumps(p["summary"])).replace("\n", "\n  "))
        text = "\n".join(lines)
    if o.out:
        with open(o.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
