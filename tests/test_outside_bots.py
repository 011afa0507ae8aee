"""Bots from outside bones: Python classes (py:, file:, ep:) and programs
(cmd:) play simulations and tournaments; their failures cost them the game,
never the run; and they load only when the command line names them."""

from __future__ import annotations

import json
import sys
import textwrap
import time
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

import bones.bots as bots_module
from bones.bots import BotError, make_bot, permit_outside, split_bots
from bones.bots.external import BotForfeit, stop_all
from bones.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "heaviest_bot.py"
SCHEMA = json.loads((ROOT / "docs" / "bot-protocol.schema.json").read_text())
runner = CliRunner()


@pytest.fixture(autouse=True)
def _fresh_permissions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots_module, "_PERMITTED", set())


def _simulate(*args: str, n: int = 4):
    result = runner.invoke(app, ["simulate", "all-fives", "-n", str(n), "--seed", "5", "--json",
                                 "--quiet", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), result


def _wins(body, name):
    return next(b for b in body["bots"] if b["bot"] == name)["win_rate"]["value"]


PY_BOT = '''
import random
import sys

class Heaviest:
    """Lays the heaviest tile it can."""
    def __init__(self, bias=0):
        self.bias = bias
        self.events = []

    def choose(self, obs, rng):
        legal = obs.legal_moves()
        return max(legal, key=lambda m: (m >> 7) + self.bias if m >= 0 else -1)

    def notify(self, event):
        self.events.append(event["type"])


class AsText:
    def choose(self, obs, rng):
        return "draw" if obs.legal_moves() == [-1] else "pass" if obs.legal_moves() == [-2] else None


class Broken:
    def choose(self, obs, rng):
        raise RuntimeError("my bug")


class Cheat:
    def choose(self, obs, rng):
        return 12345


class Quitter:
    def choose(self, obs, rng):
        sys.exit("I give up")


class QuitsAtOnce:
    def __init__(self):
        sys.exit(2)
'''


# ----------------------------------------------------------- bot texts

def test_commas_separate_bots_unless_bots_is_repeated() -> None:
    assert split_bots(["greedy, random"]) == ["greedy", "random"]
    assert split_bots(["cmd:bot --names a,b", "greedy"]) == ["cmd:bot --names a,b", "greedy"]
    with pytest.raises(BotError, match="empty"):
        split_bots(["greedy,,random"])
    with pytest.raises(BotError, match="empty"):
        split_bots(["greedy", " "])


def _documented_bot_values() -> list[tuple[str, list[str]]]:
    """The --bots values of every bones command shown in a code block of the
    README and docs/ (placeholders such as BOT left out)."""
    import re
    import shlex

    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for block in re.findall(r"```[a-z]*\n(.*?)```", path.read_text(encoding="utf-8"), re.S):
            for line in block.replace("\\\n", " ").splitlines():
                at = line.find("bones ")
                if at < 0 or "--bots" not in line:
                    continue
                words = shlex.split(line[at:], comments=True)
                if words[1:2] not in (["simulate"], ["tournament"], ["compare"]):
                    continue
                values = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--bots"]
                values += [w.split("=", 1)[1] for w in words if w.startswith("--bots=")]
                parts = [part for v in values for part in v.split(",")]
                if values and not any(p.isupper() or "..." in p for p in parts):
                    found.append((f"{path.name}: {line.strip()}", values))
    return found


def test_every_documented_bots_value_names_bots() -> None:
    import re

    from bones.bots import kind_of
    from bones.bots.external import parse_command

    documented = _documented_bot_values()
    assert any(len(values) > 1 for _, values in documented)  # the comma rule is shown
    for where, values in documented:
        for text in split_bots(values):
            if kind_of(text) == "builtin":
                make_bot(text)
            elif kind_of(text) == "cmd":
                parse_command(text)
            elif kind_of(text) == "file":  # a file of the repository, and its class
                _, path, name, *_ = text.split(":")
                assert f"class {name}" in (ROOT / path).read_text(), where
            elif kind_of(text) == "py":  # a module of a folder the line puts on PYTHONPATH
                _, module, name, *_ = text.split(":")
                folders = re.findall(r"PYTHONPATH=(\S+)", where)
                files = [ROOT / folder / f"{module.replace('.', '/')}.py" for folder in folders]
                assert any(f.is_file() and f"class {name}" in f.read_text() for f in files), where
            else:  # pragma: no cover - no such example yet
                raise AssertionError(f"{where}: check {text} here")


def test_a_repeated_bots_value_with_commas_says_what_to_do() -> None:
    with pytest.raises(BotError, match="each value is one bot; give each of these bots its own"):
        split_bots(["cmd:mybot --weights 1,2", "greedy,random"])
    result = runner.invoke(app, ["tournament", "all-fives", "--bots", "cmd:bot.py",
                                 "--bots", "greedy,random", "-n", "1"])
    assert result.exit_code == 2 and "its own --bots" in result.output, result.output


def test_outside_bots_load_only_when_the_command_line_names_them(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(PY_BOT)
    text = f"file:{tmp_path / 'mybot.py'}:Heaviest"
    for attempt in (text, "py:os:getcwd", "cmd:python3 -c pass", "ep:anything"):
        with pytest.raises(BotError, match="command line"):
            make_bot(attempt)
    permit_outside([text])
    assert make_bot(text).name == text
    with pytest.raises(BotError, match="command line"):
        make_bot("cmd:python3 -c pass")


def test_a_saved_game_cannot_name_an_outside_bot(tmp_path: Path) -> None:
    # a play session (new or resumed from a save) builds its bots through
    # make_bot, which never permits outside code
    from bones.games import game

    for text in (f"file:{tmp_path / 'x.py'}:Bot", "cmd:python3 bot.py", "py:os:Bot"):
        with pytest.raises(game.GameError, match="command line"):
            game._make_bot(text)


def test_python_bots_by_module_and_by_file(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "house_bots.py").write_text(PY_BOT)
    monkeypatch.syspath_prepend(str(tmp_path))
    body, _ = _simulate("--bots", "py:house_bots:Heaviest:bias=1,random", n=6)
    played = next(b for b in body["bots"] if b["bot"] == "py:house_bots:Heaviest:bias=1")
    assert played["games"] == 6 and played["play_points_per_hand"]["value"] > 0
    permit_outside(["py:house_bots:Heaviest:bias=1"])
    bot = make_bot("py:house_bots:Heaviest:bias=1")
    assert bot.bot.bias == 1
    path = tmp_path / "house_bots.py"
    body, _ = _simulate("--bots", f"file:{path}:Heaviest", "--bots", "greedy")
    assert body["run"]["reproducible"] is True
    assert {b["bot"] for b in body["bots"]} == {f"file:{path}:Heaviest", "greedy"}


def test_python_bots_hear_every_hand_and_match_end(tmp_path: Path) -> None:
    path = tmp_path / "listener.py"
    path.write_text(textwrap.dedent("""
        import json

        class Listener:
            def __init__(self, log):
                self.log = log

            def choose(self, obs, rng):
                return obs.legal_moves()[0]

            def notify(self, event):
                with open(self.log, "a") as out:
                    out.write(json.dumps(event) + "\\n")
    """))
    log = tmp_path / "events.jsonl"
    body, _ = _simulate("--bots", f"file:{path}:Listener:log={log}", "--bots", "greedy", n=3)
    events = [json.loads(line) for line in log.read_text().splitlines()]
    ends = [e for e in events if e["type"] == "match_end"]
    hands = [e for e in events if e["type"] == "hand_end"]
    assert len(ends) == 3 and len(hands) == round(body["hands_per_game"]["value"] * 3)
    assert all(set(e) == {"type", "scores", "winner", "forfeit"} and e["forfeit"] == -1
               for e in ends)
    assert all(set(e) == {"type", "scores", "settlement"} for e in hands)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for event in events:  # the same messages a command bot reads
        validator.validate(event)


def test_bad_python_bot_texts_say_what_is_wrong(tmp_path: Path) -> None:
    (tmp_path / "b.py").write_text(PY_BOT)
    for text, message in [
        ("py:no_such_module_here:Bot", "cannot import"),
        (f"file:{tmp_path / 'b.py'}:Missing", "has no Missing"),
        (f"file:{tmp_path / 'none.py'}:Bot", "no file"),
        ("py:house", "write it as py:package.module:Class"),
        (f"file:{tmp_path / 'b.py'}:QuitsAtOnce", "could not be created"),
        ("ep:nothing-installed", "no installed bot"),
    ]:
        result = runner.invoke(app, ["simulate", "all-fives", "-n", "1", "--bots",
                                     f"{text},greedy"])
        assert result.exit_code == 2, result.output
        assert message in result.output


def test_failing_python_bots_lose_their_games_and_the_run_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "bad.py"
    path.write_text(PY_BOT)
    for cls, reason in (("Broken", "raised RuntimeError: my bug"), ("Cheat", "illegal move"),
                        ("AsText", "not a move"), ("Quitter", "raised SystemExit: I give up")):
        body, result = _simulate("--bots", f"file:{path}:{cls}", "--bots", "random", n=3)
        assert body["games"] == 3 and not body["partial"]
        assert _wins(body, f"file:{path}:{cls}") == 0.0
        assert _wins(body, "random") == 1.0
        assert "lost the game with seed" in result.stderr and reason in result.stderr


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_library_hands_each_lost_game_to_its_caller(tmp_path: Path, jobs: int) -> None:
    # bones.sim prints nothing: each forfeit reaches the caller's callback in
    # the calling process (from worker processes too), once, with its game's
    # seed; the summary keeps none of them
    from bones.sim.simulation import Forfeit, game_seed, make_config, process_executor, simulate

    path = tmp_path / "bad.py"
    path.write_text(PY_BOT)
    text = f"file:{path}:Broken"
    permit_outside([text])
    config = make_config(["all-fives"], [text, "greedy"], 6, seed=3, hands_only=True)
    lost: list[Forfeit] = []
    executor = process_executor(jobs) if jobs > 1 else None
    try:
        summary = simulate(config, executor, jobs, batch_size=2, forfeit=lost.append)
    finally:
        if executor is not None:
            executor.shutdown()
    assert summary.n == 6 and summary.forfeits == []
    assert sorted(f.seed for f in lost) == sorted(game_seed(3, g) for g in range(6))
    assert {f.bot for f in lost} == {text} and all("raised RuntimeError: my bug" in f.reason for f in lost)
    assert str(lost[0]).startswith(f"{text} lost the game with seed ")


def test_a_lost_game_keeps_the_points_that_were_scored(tmp_path: Path) -> None:
    # Cheat fails at its first decision: it has scored nothing (a lead may
    # have scored for its opponent); the forfeit places it last but invents
    # no score
    path = tmp_path / "cheat.py"
    path.write_text(PY_BOT)
    text = f"file:{path}:Cheat"
    body, _ = _simulate("--bots", text, "--bots", "greedy", n=4)
    row = next(b for b in body["bots"] if b["bot"] == text)
    assert row["wins"] == 0 and row["points_per_game"]["value"] == 0.0
    other = next(b for b in body["bots"] if b["bot"] == "greedy")
    assert other["wins"] == 4 and other["points_per_game"]["value"] >= 0.0


def test_entry_point_bots_are_listed_and_play(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pkg_bots.py").write_text(PY_BOT)
    dist = tmp_path / "pkg_bots-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: pkg-bots\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[bones.bots]\nheaviest = pkg_bots:Heaviest\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    listed = runner.invoke(app, ["bots"])
    assert "ep:heaviest  (pkg_bots:Heaviest)" in listed.output
    assert "cmd:[timeout=SECONDS:]PROGRAM ARGS" in listed.output
    rows = json.loads(runner.invoke(app, ["bots", "--json"]).stdout)
    assert {"name": "ep:heaviest", "kind": "entry-point", "entry_point": "pkg_bots:Heaviest",
            "summary": "an installed package's bot (pkg_bots:Heaviest)",
            "params": []} in rows
    assert {row["name"]: row["kind"] for row in rows}["search"] == "builtin"
    body, _ = _simulate("--bots", "ep:heaviest,random", n=4)
    played = next(b for b in body["bots"] if b["bot"] == "ep:heaviest")
    assert played["games"] == 4 and played["play_points_per_hand"]["value"] > 0


# ------------------------------------------------------------ programs

def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return f"{sys.executable} {path}"


def test_the_documented_example_bot_plays_and_is_plain_python() -> None:
    source = EXAMPLE.read_text()
    assert "bones" not in source.split('"""', 2)[2]  # no bones import, only the docstring
    assert len(source.splitlines()) <= 35
    text = f"cmd:{sys.executable} {EXAMPLE}"
    body, _ = _simulate("--bots", f"{text},random", n=6)
    assert _wins(body, text) > 0.5
    assert body["run"]["reproducible"] is False
    assert "time-limited" in body["run"]["not_reproducible_because"]


def test_every_protocol_line_follows_the_schema(tmp_path: Path) -> None:
    log = tmp_path / "seen.jsonl"
    command = _script(tmp_path, "recorder.py", f'''
        import json, sys
        with open({str(log)!r}, "a") as seen:
            for line in sys.stdin:
                seen.write(line)
                seen.flush()
                message = json.loads(line)
                if message["type"] == "move":
                    print(message["legal"][0], flush=True)
    ''')
    _simulate("--bots", f"cmd:{command}", "--bots", "greedy", n=3)
    stop_all()  # the run is over: the program reads to the end and is stopped
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    kinds = [m["type"] for m in lines]
    assert kinds[0] == "hello" and kinds.count("hello") == 3 and kinds.count("match_end") == 3
    assert "hand_end" in kinds and "move" in kinds
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for message in lines:
        validator.validate(message)
    hello = lines[0]
    assert (hello["protocol"], hello["variant"], hello["players"]) == (1, "all-fives", 2)


def test_failing_programs_lose_their_games_and_the_run_goes_on(tmp_path: Path) -> None:
    cases = {
        "crash": ("import sys; sys.exit(3)", "exited with code 3"),
        "hang": ("import time\nwhile True: time.sleep(1)", "gave no move within 0.5 s"),
        # (they answer only moves: a line answering hello would be unasked for)
        "nonsense": ("import sys\nfor line in sys.stdin:\n"
                     "    if '\"legal\"' in line: print('9-9@Q', flush=True)", "not a move"),
        "illegal": ("import sys\nfor line in sys.stdin:\n"
                    "    if '\"legal\"' in line: print('pass', flush=True)", "illegal"),
        # two answers to one move: the second would answer the next move.
        # Both lines in one write: print() makes four writes when Python runs
        # unbuffered (PYTHONUNBUFFERED), and a second line that arrives after
        # the next question is indistinguishable from its answer
        "twice": ("import json, sys\nfor line in sys.stdin:\n"
                  "    legal = json.loads(line).get('legal')\n"
                  "    if legal:\n"
                  "        sys.stdout.write(legal[0] + '\\n' + legal[-1] + '\\n')\n"
                  "        sys.stdout.flush()",
                  "when no answer was asked for"),
    }
    for name, (code, reason) in cases.items():
        command = _script(tmp_path, f"{name}.py", code)
        text = f"cmd:timeout=0.5:{command}"
        started = time.monotonic()
        body, result = _simulate("--bots", text, "--bots", "greedy", n=2)
        assert body["games"] == 2 and _wins(body, text) == 0.0, name
        assert reason in result.stderr, (name, result.stderr)
        assert time.monotonic() - started < 20


def test_a_program_is_killed_with_its_process_group(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    command = _script(tmp_path, "spawner.py", f'''
        import subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        open({str(pids)!r}, "a").write(f"{{child.pid}}\\n")
        time.sleep(300)
    ''')
    _simulate("--bots", f"cmd:timeout=0.5:{command}", "--bots", "greedy", n=1)
    children = [int(p) for p in pids.read_text().split()]
    assert children
    for pid in children:
        assert not _running(pid)


def _stubborn(tmp_path: Path, pids: Path) -> str:
    """A command bot that starts a child, writes both pids to ``pids``,
    answers every move, and then ignores the end of its input."""
    return _script(tmp_path, "stubborn.py", f"""
        import json, os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        open({str(pids)!r}, "a").write(f"{{os.getpid()}} {{child.pid}}\\n")
        for line in sys.stdin:
            if json.loads(line)["type"] == "move":
                print(json.loads(line)["legal"][0], flush=True)
        time.sleep(300)
    """)


def test_a_run_ended_by_sigterm_stops_its_programs(tmp_path: Path) -> None:
    import signal
    import subprocess

    pids = tmp_path / "pids"
    command = _stubborn(tmp_path, pids)
    errors = tmp_path / "stderr"
    with errors.open("wb") as sink:
        run = subprocess.Popen([sys.executable, "-m", "bones", "simulate", "all-fives", "-n",
                                "100000", "--bots", f"cmd:{command}", "--bots", "greedy",
                                "--quiet"], stdout=subprocess.DEVNULL, stderr=sink, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not (pids.exists() and pids.read_text().endswith("\n")):
            assert time.monotonic() < deadline and run.poll() is None
            time.sleep(0.05)
        time.sleep(0.2)
        run.send_signal(signal.SIGTERM)
        # it ends as the signal says, without a traceback
        assert run.wait(timeout=20) == -signal.SIGTERM, errors.read_text()
    finally:
        run.kill()
    for pid in [int(p) for p in pids.read_text().split()]:
        assert not _running(pid), pid


def _running(pid: int) -> bool:
    """Whether ``pid`` still runs (a killed process not yet reaped by its
    new parent is a zombie: it runs no more)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return False
        if state in ("Z", "X"):
            return False
        time.sleep(0.05)
    return True


def test_a_program_that_quits_during_a_match_loses_it(tmp_path: Path) -> None:
    # it answers its first decision and exits: the next decision of the same
    # match is a lost game (it is not started again behind the run's back);
    # the next match starts it again
    from bones.engine.match import Match
    from bones.engine.rng import Rng
    from bones.lang.compile import compile_rules
    from bones.lang.load import load_variant
    from bones.seat.observation import observe

    command = _script(tmp_path, "quitter.py", """
        import json, sys
        for line in sys.stdin:
            if json.loads(line)["type"] == "move":
                print(json.loads(line)["legal"][0], flush=True)
                sys.exit(5)
    """)
    text = f"cmd:{command}"
    permit_outside([text])
    bot = make_bot(text)
    hand = Match(compile_rules(load_variant("all-fives")), seed=1).new_hand()
    obs = observe(hand, hand.turn)
    first = bot.choose(obs, Rng(1))
    assert first in obs.legal_moves()
    bot.proc.wait(timeout=5)
    with pytest.raises(BotForfeit, match="exited with code 5"):
        bot.choose(obs, Rng(1))
    bot.notify({"type": "match_end", "scores": [0, 0], "winner": 1, "forfeit": 0})
    assert bot.choose(obs, Rng(1)) == first
    stop_all()


def test_a_program_that_quits_after_a_hand_loses_the_match(tmp_path: Path) -> None:
    command = _script(tmp_path, "one_hand.py", """
        import json, sys
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "move":
                print(message["legal"][0], flush=True)
            elif message["type"] == "hand_end":
                sys.exit(0)
    """)
    text = f"cmd:{command}"
    body, result = _simulate("--bots", text, "--bots", "greedy", n=3)
    assert _wins(body, text) == 0.0
    assert result.stderr.count("exited with code 0") == 3, result.stderr


def test_programs_in_worker_processes_are_stopped_when_the_run_ends(tmp_path: Path) -> None:
    # each worker process (--jobs) runs its own copy of the program; one
    # that ignores the end of its input is killed, with what it started,
    # when its worker ends with the run
    pids = tmp_path / "pids"
    command = _stubborn(tmp_path, pids)
    text = f"cmd:{command}"
    body, _ = _simulate("--bots", text, "--bots", "greedy", "--jobs", "2", "--oversubscribe", n=6)
    assert body["games"] == 6 and body["run"]["workers"] == 2
    started = [int(p) for p in pids.read_text().split()]
    assert len(started) >= 4  # two programs and their children, at least
    for pid in started:
        assert not _running(pid), pid


def test_worker_processes_started_afresh_may_load_the_named_bots(tmp_path: Path) -> None:
    # spawn (macOS; forkserver on newer Pythons) starts workers that inherit
    # nothing: the permission to load the command line's bots goes with them
    import multiprocessing

    from bones.sim.simulation import make_config, process_executor, simulate

    path = tmp_path / "spawned_bots.py"
    path.write_text(PY_BOT)
    text = f"file:{path}:Heaviest"
    permit_outside([text])
    config = make_config(["all-fives"], [text, "greedy"], 4, seed=3)
    before = multiprocessing.get_start_method()
    multiprocessing.set_start_method("spawn", force=True)
    try:
        with process_executor(2) as pool:
            summary = simulate(config, pool, workers=2, batch_size=2)
    finally:
        multiprocessing.set_start_method(before, force=True)
    assert summary.n == 4 and summary.totals() == simulate(config).totals()


def test_a_missing_program_is_a_lost_game_not_a_crash(tmp_path: Path) -> None:
    text = f"cmd:{tmp_path / 'no-such-program'}"
    body, result = _simulate("--bots", text, "--bots", "greedy", n=1)
    assert _wins(body, text) == 0.0 and "could not start" in result.stderr


def test_command_texts_are_checked() -> None:
    for text, message in (("cmd:", "write a command bot"), ("cmd:timeout=x:bot", "number"),
                          ("cmd:timeout=0:bot", "between"), ("cmd:'unclosed", "quotation")):
        result = runner.invoke(app, ["simulate", "all-fives", "-n", "1", "--bots", text,
                                     "--bots", "greedy"])
        assert result.exit_code == 2 and message in result.output, (text, result.output)


def test_tournaments_take_outside_bots_and_rate_them(tmp_path: Path) -> None:
    text = f"cmd:{sys.executable} {EXAMPLE}"
    result = runner.invoke(app, ["tournament", "all-fives", "--bots", text, "--bots", "random",
                                 "--bots", "greedy", "-n", "2", "--seed", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "NOT REPRODUCIBLE" in result.stdout and "ratings" in result.stdout
