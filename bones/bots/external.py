"""Bots from outside bones: Python classes and programs in any language.

Kinds of bot text (see docs/bots.md):

* ``py:package.module:Class[:key=value...]``: a class importable by name;
* ``file:path/to/bot.py:Class[:key=value...]``: a class in a Python file;
* ``ep:NAME[:key=value...]``: a bot an installed package offers through the
  entry-point group ``bones.bots``;
* ``cmd:[timeout=SECONDS:]PROGRAM ARGS...``: a program speaking the line
  protocol below (:data:`PROTOCOL`), run without a shell.

Outside code is loaded only for texts the command line named
(:func:`bones.bots.permit_outside`); a variant file, a save, a record
or a server request can never load it.

Every outside bot is guarded: when it raises, hangs past its time limit,
exits, or answers something that is not a legal move, it raises
:class:`BotForfeit` with a message for people, and the simulation scores
that game as lost by its side and goes on (a program is started again for
the next game).
"""

from __future__ import annotations

import atexit
import codecs
import contextlib
import importlib
import importlib.util
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from importlib.metadata import entry_points as found
from multiprocessing import util
from pathlib import Path
from typing import Any

from bones.bots.info import KINDS
from bones.engine.hand import DRAW, PASS
from bones.engine.moves import arm_of, tile_of
from bones.engine.notation import NotationError, arm_name, format_move, parse_move
from bones.engine.rng import Rng
from bones.seat.observation import Observation

#: The version of the command-bot line protocol (docs/bots.md, docs/bot-protocol.schema.json).
PROTOCOL = 1
#: A command bot's time limit per decision, in seconds, unless its text sets one.
DEFAULT_TIMEOUT = 5.0


class BotForfeit(Exception):
    """An outside bot failed: it loses the game it was playing."""


class OutsideBotError(ValueError):
    """An outside bot text that cannot be loaded (one line for people)."""


# ----------------------------------------------------------- parameters

def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _split_params(parts: list[str]) -> tuple[list[str], dict[str, Any]]:
    """Trailing ``key=value`` parts become keyword arguments."""
    params: dict[str, Any] = {}
    while parts and "=" in parts[-1]:
        key, _, raw = parts.pop().partition("=")
        key = key.strip()
        if not key.isidentifier():
            raise OutsideBotError(f"'{key}' is not a parameter name")
        params[key] = _value(raw.strip())
    return parts, params


# ---------------------------------------------------------- python bots

def load_python(text: str) -> Any:
    """The bot a ``py:``, ``file:`` or ``ep:`` text names, guarded (what its
    code prints while it loads goes to standard error, as in :class:`Guarded`)."""
    with contextlib.redirect_stdout(sys.stderr):
        return _load_python(text)


def _load_python(text: str) -> Any:
    kind, _, rest = text.partition(":")
    parts, params = _split_params(rest.split(":"))
    if kind == "ep":
        if len(parts) != 1 or not parts[0]:
            raise OutsideBotError(f"write an entry-point bot as ep:NAME, not '{text}'")
        found = entry_points().get(parts[0])
        if found is None:
            known = ", ".join(sorted(entry_points())) or "none installed"
            raise OutsideBotError(f"no installed bot '{parts[0]}' (entry-point bots: {known})")
        try:
            cls = found.load()
        except (Exception, SystemExit) as err:  # noqa: BLE001 - anything the package raises
            raise OutsideBotError(f"{text}: loading failed: {err}") from None
    else:
        if len(parts) < 2 or not parts[-1]:
            form = "py:package.module:Class" if kind == "py" else "file:path/to/bot.py:Class"
            raise OutsideBotError(f"write it as {form}, not '{text}'")
        where, name = ":".join(parts[:-1]), parts[-1]
        module = _import_module(kind, where, text)
        cls = getattr(module, name, None)
        if cls is None:
            raise OutsideBotError(f"{text}: {where} has no {name}")
    try:
        bot = cls(**params)
    except (Exception, SystemExit) as err:  # noqa: BLE001
        raise OutsideBotError(f"{text}: could not be created: {err}") from None
    if not callable(getattr(bot, "choose", None)):
        raise OutsideBotError(f"{text}: it has no choose(observation, rng) method")
    return Guarded(bot, text)


def _import_module(kind: str, where: str, text: str) -> Any:
    if kind == "py":
        try:
            return importlib.import_module(where)
        except (Exception, SystemExit) as err:  # noqa: BLE001
            raise OutsideBotError(f"{text}: cannot import {where}: {err}") from None
    path = Path(where)
    if not path.is_file():
        raise OutsideBotError(f"{text}: no file {where}")
    name = f"bones_bot_{abs(hash(str(path.resolve())))}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise OutsideBotError(f"{text}: {where} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as err:  # noqa: BLE001
        raise OutsideBotError(f"{text}: {where} failed to load: {err}") from None
    sys.modules[name] = module
    return module


def entry_points() -> dict[str, Any]:
    """The bots installed packages offer (group ``bones.bots``), by name."""
    return {ep.name: ep for ep in found(group="bones.bots")}


def to_code(obs: Observation, answer: Any) -> int:
    """A bot's answer as a legal move code: a code, or text in notation."""
    legal = obs.legal_moves()
    if isinstance(answer, tuple) and answer:
        answer = answer[0]  # (move, claim): the engine credits the true points
    if isinstance(answer, bool):
        answer = None
    if isinstance(answer, int):
        move = answer
    elif isinstance(answer, str):
        try:
            move = parse_move(obs.layout, answer)
        except NotationError as err:
            raise BotForfeit(f"answered '{answer}', which is not a move: {err}") from None
    else:
        raise BotForfeit(f"answered {answer!r}, not a move")
    if move not in legal and not (obs.layout.placed == 0 and move >= 0 and move ^ 1 in legal):
        shown = ", ".join(format_move(obs.layout, m) for m in legal)
        raise BotForfeit(f"answered an illegal move ({answer!r}); legal were: {shown}")
    return move if move in legal else move ^ 1


class Guarded:
    """A Python bot whose failures become :class:`BotForfeit`: an exception,
    or a ``sys.exit()`` it calls (which would otherwise end the whole run;
    loading a bot catches it too).  What it prints goes to standard error."""

    time_limited = False

    def __init__(self, bot: Any, text: str) -> None:
        self.bot = bot
        self.name = text

    def choose(self, obs: Observation, rng: Rng) -> int:
        try:
            # what the bot prints goes to standard error: standard output
            # carries reports (--json) and the game
            with contextlib.redirect_stdout(sys.stderr):
                answer = self.bot.choose(obs, rng)
        except BotForfeit:
            raise
        except (Exception, SystemExit) as err:  # noqa: BLE001 - the bot's own bug
            raise BotForfeit(f"raised {type(err).__name__}: {err}") from None
        return to_code(obs, answer)

    def notify(self, event: dict[str, Any]) -> None:
        hook = getattr(self.bot, "notify", None)
        if hook is not None:
            try:
                with contextlib.redirect_stdout(sys.stderr):
                    hook(event)
            except (Exception, SystemExit):  # noqa: BLE001 - a notification needs no answer
                pass


# --------------------------------------------------------- command bots

def parse_command(text: str) -> tuple[list[str], float]:
    """The argument vector and time limit of a ``cmd:`` text."""
    rest = text.partition(":")[2]
    timeout = DEFAULT_TIMEOUT
    while True:
        head, sep, tail = rest.partition(":")
        if sep and head.strip().startswith("timeout="):
            raw = head.strip()[len("timeout="):]
            try:
                timeout = float(raw)
            except ValueError:
                raise OutsideBotError(f"timeout must be a number of seconds, not '{raw}'") from None
            if not 0 < timeout <= 3600:
                raise OutsideBotError(f"timeout must be between 0 and 3600 seconds, not {raw}")
            rest = tail
            continue
        break
    try:
        argv = shlex.split(rest)
    except ValueError as err:
        raise OutsideBotError(f"{text}: {err}") from None
    if not argv:
        raise OutsideBotError("write a command bot as cmd:PROGRAM ARGS..., e.g. cmd:python3 bot.py")
    return argv, timeout


_LIVE: weakref.WeakSet[CommandBot] = weakref.WeakSet()


def stop_all(grace: float = 0.5) -> None:
    """Stop every command bot of this process (the run has ended)."""
    for bot in list(_LIVE):
        bot.close(grace)


atexit.register(stop_all)
_stopping_in: list[int] = []


def _stop_at_exit() -> None:
    """Stop this process's command bots when it exits, a worker process
    too: a pool's worker ends without running ``atexit`` handlers, but it
    runs multiprocessing's finalizers (registered afresh in each process).
    A run ended by SIGTERM or SIGHUP (``timeout``, ``kill``, a closed
    terminal) stops them too, then ends as the signal would have."""
    if os.getpid() in _stopping_in:
        return
    _stopping_in[:] = [os.getpid()]

    util.Finalize(None, stop_all, exitpriority=10)
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(signum) == signal.SIG_DFL:
                signal.signal(signum, _stop_then_die)


def _stop_then_die(signum: int, frame: Any) -> None:
    # only kills: the signal may have come in the middle of a write to a
    # program, whose pipe must not be touched again here
    for bot in list(_LIVE):
        proc = bot.proc
        if proc is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


class _PassThrough:
    """A command bot's standard error, copied to bones' own by a thread
    until the bot is stopped (then what is already written is copied, and
    the pipe is closed even if a process the bot started still holds it)."""

    def __init__(self, pipe: Any) -> None:
        self.pipe = pipe
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._copy, daemon=True, name="bones-bot-stderr")
        self.thread.start()

    def _copy(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        fd = self.pipe.fileno()
        try:
            with selectors.DefaultSelector() as sel:
                sel.register(fd, selectors.EVENT_READ)
                left = 16  # reads once stopping: what is written already, no more
                while left:
                    stopping = self.stopping.is_set()
                    left -= stopping
                    if not sel.select(0 if stopping else 0.2):
                        if stopping:
                            break
                        continue
                    chunk = os.read(fd, 65536)
                    if not chunk:
                        break
                    _to_stderr(decoder.decode(chunk))
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError):
                self.pipe.close()

    def stop(self) -> None:
        self.stopping.set()
        if self.thread is not threading.current_thread():
            self.thread.join(2.0)


def _to_stderr(text: str) -> None:
    if not text:
        return
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # no standard error left to write to
        pass


class CommandBot:
    """An outside program playing through the line protocol."""

    time_limited = True

    def __init__(self, text: str) -> None:
        self.name = text.strip()
        self.argv, self.timeout = parse_command(self.name)
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = b""
        self.need_hello = True  # no match under way: the next decision starts one
        self.gone: str | None = None  # why the program quit during the match
        self.errors: _PassThrough | None = None  # its standard error, copied to ours
        _LIVE.add(self)

    # process --------------------------------------------------------

    def _start(self, obs: Observation) -> None:
        _stop_at_exit()
        try:
            # no descriptor of bones' own is inherited, standard error
            # included (a grandchild in a session of its own would hold it
            # open, and `$(bones ...)` would wait for it): its standard error
            # comes through a pipe of its own, copied to bones' standard error
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, close_fds=True)
        except OSError as err:
            raise BotForfeit(f"could not start {self.argv[0]}: {err.strerror or err}") from None
        assert self.proc.stderr is not None
        self.errors = _PassThrough(self.proc.stderr)
        self.buffer = b""
        self.need_hello = True

    def _hello(self, obs: Observation) -> None:
        rules = obs.rules
        self._send({"type": "hello", "protocol": PROTOCOL, "variant": rules.name,
                    "players": rules.players, "teams": rules.teams, "seat": obs.seat,
                    "highest": rules.tiles.highest, "timeout": self.timeout})
        self.need_hello = False

    def close(self, grace: float = 0.0) -> None:
        """Stop the program and its whole process group (after ``grace``
        seconds to finish by itself once its input is closed)."""
        proc = self.proc
        self.proc = None
        if proc is None:
            return
        if grace > 0:
            try:
                if proc.stdin is not None:
                    proc.stdin.close()
                proc.wait(timeout=grace)
            except (OSError, subprocess.TimeoutExpired):
                pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is final
            pass
        errors, self.errors = self.errors, None
        if errors is not None:
            errors.stop()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    def _fail(self, reason: str) -> BotForfeit:
        self.close()
        return BotForfeit(reason)

    def _send(self, message: dict[str, Any]) -> None:
        proc = self.proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._fail(self._exit_reason()) from None

    def _exit_reason(self) -> str:
        proc = self.proc
        code = proc.poll() if proc is not None else None
        if code is None and proc is not None:
            try:
                code = proc.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                return "stopped reading its input"
        return f"exited with code {code}" if code is not None else "exited"

    def _read_line(self) -> str:
        proc = self.proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise self._fail(f"gave no move within {self.timeout:g} s")
                chunk = os.read(fd, 65536)
                if not chunk:
                    reason = self._exit_reason()
                    raise self._fail(reason)
                self.buffer += chunk
                if len(self.buffer) > 1 << 20:
                    raise self._fail("answered a line longer than 1 MiB")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace").strip()

    # protocol -------------------------------------------------------

    def choose(self, obs: Observation, rng: Rng) -> int:
        if self.proc is not None and self.proc.poll() is not None:
            self.gone = self._exit_reason()
            self.close()
        if self.gone is not None and not self.need_hello:
            # it quit during the match: it loses this game (the next one
            # starts it again)
            reason, self.gone = self.gone, None
            self.need_hello = True
            raise BotForfeit(reason)
        self.gone = None
        if self.proc is None:
            self._start(obs)
        if self.need_hello:
            self._hello(obs)
        unasked = self._unasked()
        if unasked:
            raise self._fail(f"wrote '{unasked[:80]}' when no answer was asked for (it "
                             "answers each move message with one line, and nothing else)")
        legal = obs.legal_moves()
        self._send(decision(obs, legal))
        answer = self._read_line()
        return to_code(obs, answer)

    def _unasked(self) -> str:
        """The first line the program has written since its last answer
        (read without waiting): an answer to a line that asked for none, or a
        second answer to one move; blank lines are dropped."""
        proc = self.proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while len(self.buffer) <= 1 << 20 and sel.select(0):
                chunk = os.read(fd, 65536)
                if not chunk:
                    break  # it exited: sending the decision finds out
                self.buffer += chunk
        text = self.buffer.strip()
        if not text:
            self.buffer = b""
            return ""
        return text.split(b"\n", 1)[0].decode("utf-8", "replace").strip()

    def notify(self, event: dict[str, Any]) -> None:
        ended = event.get("type") == "match_end"
        if self.proc is not None:
            try:
                self._send(event)
            except BotForfeit as err:
                self.gone = str(err)  # its next decision in this match loses the game
        if ended:
            self.need_hello = True  # the next match starts with a hello
            self.gone = None  # and, if the program quit, with the program started again


def decision(obs: Observation, legal: list[int]) -> dict[str, Any]:
    """The protocol's ``move`` message for ``obs``."""
    layout = obs.layout
    names = obs.rules.tiles.names
    history = []
    led = False
    for seat, move, points in layout.log:
        if move == DRAW:
            text = "draw"
        elif move == PASS:
            text = "pass"
        else:
            tile, arm = tile_of(move), arm_of(move)
            text = f"{names[tile]}@{arm_name(arm)}" if led else names[tile]
            led = True
        history.append({"seat": seat, "move": text, "points": points})
    return {
        "type": "move",
        "seat": obs.seat,
        "hand": [names[t] for t in obs.rules.tiles.tiles_of(obs.hand)],
        "ends": {arm_name(a): pip for a, pip in layout.open_ends().items()},
        "count": layout.count,
        "played": [names[t] for t in obs.rules.tiles.tiles_of(layout.on_table)],
        "tiles_held": list(obs.counts),
        "boneyard": obs.boneyard_left,
        "drawable": obs.drawable,
        "scores": list(obs.scores),
        "history": history,
        "legal": [format_move(layout, m) for m in legal],
    }


__all__ = ["BotForfeit", "CommandBot", "DEFAULT_TIMEOUT", "Guarded", "KINDS", "OutsideBotError",
           "PROTOCOL", "decision", "entry_points", "load_python", "parse_command", "stop_all", "to_code"]
