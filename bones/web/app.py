"""The `bones serve` application: the JSON API, its guards and the page.

Every endpoint is listed in docs/serve.md.  Errors are JSON
``{"error": "one line"}`` with a documented status; nothing a client sends
produces a traceback.

Guards, applied to every request before any endpoint sees it:

* the ``Host`` header must name the address the server is bound to or a name
  it was told to accept (``--allow-host``); any other host is refused with
  421, which defeats DNS rebinding;
* a state-changing request (POST, PUT, PATCH, DELETE) needs an ``Origin``
  equal to the server's own origin (403 otherwise) and a JSON body
  (``Content-Type: application/json``, 415 otherwise), so another site's page
  cannot make one;
* bodies are capped at :data:`MAX_BODY` bytes (413).

Keys: a seat's key comes only in ``Authorization: Bearer KEY``; the host key
(printed by `bones serve` in its link, after ``#``) is needed for what only
the host may do: create and list games, open saves, run simulations.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bones.web import sims as sims_module
from bones.web import tokens
from bones.web.games import ApiError, GameStore, WebGame, check_bot
from bones.web.sims import Simulations
from bones.web.workers import Workers

log = logging.getLogger("bones.serve")
STATIC = Path(__file__).resolve().parent / "static"

#: The largest request body accepted (a variant text is at most 64 KiB; a
#: record to replay at most 2 MiB).
MAX_BODY = 3 * 1024 * 1024
#: How long ``GET /api/games/{id}?wait=V`` waits for a change before answering.
LONG_POLL = 20.0
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


@dataclass
class ServeConfig:
    saves: Path
    host: str = "127.0.0.1"
    port: int = 8765
    jobs: int = 1
    pace: float = 0.7  # seconds between bot moves, so people see each one
    max_games: int = 50
    max_simulations: int = 2
    allow_hosts: list[str] = field(default_factory=list)
    host_key: str = ""  # generated when empty
    processes: bool = True  # simulations in worker processes (tests may use threads)
    public_host: str | None = None  # the address seat links use


def allowed_hosts(config: ServeConfig) -> set[str]:
    names = {"localhost", "127.0.0.1", "::1", "[::1]", config.host.lower()}
    if config.public_host:
        names.add(config.public_host.lower())
    if config.host in ("0.0.0.0", "::", ""):
        import socket

        with contextlib.suppress(OSError):
            names.add(socket.gethostname().lower())
            names.add(socket.getfqdn().lower())
    names.update(h.lower() for h in config.allow_hosts)
    return names


def _host_name(value: str) -> str:
    value = value.strip().lower()
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class Guard:
    """The Host, Origin, JSON-body and size guards, and the safety headers."""

    def __init__(self, app: ASGIApp, hosts: set[str]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if _host_name(host) not in self.hosts:
            await _error(421, f"this server does not answer to the host '{host[:60]}' "
                              "(start it with --allow-host NAME to allow a name)")(scope, receive, send)
            return
        method = scope["method"]
        if method in _UNSAFE:
            origin = headers.get("origin")
            if origin is None or origin.lower() not in (f"http://{host}".lower(), f"https://{host}".lower()):
                await _error(403, "a request that changes something must come from this "
                                  "server's own page (its Origin header must be this server)")(
                    scope, receive, send)
                return
            ctype = headers.get("content-type", "").split(";")[0].strip().lower()
            if ctype != "application/json":
                await _error(415, "send a JSON body (Content-Type: application/json)")(
                    scope, receive, send)
                return
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                await _error(413, f"the request body is larger than {MAX_BODY // (1024 * 1024)} MiB")(
                    scope, receive, send)
                return
            receive = _capped(receive)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    (b"content-security-policy",
                     b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                     b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
                     b"form-action 'none'"),
                ]
                if scope["path"].startswith("/api/"):
                    extra.append((b"cache-control", b"no-store"))
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyTooLarge(Exception):
    pass


def _capped(receive: Receive) -> Receive:
    seen = 0

    async def wrapped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise BodyTooLarge()
        return message

    return wrapped


def _error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)


async def _json(request: Request) -> dict[str, Any]:
    try:
        raw = await request.body()
    except BodyTooLarge:
        raise ApiError(413, f"the request body is larger than {MAX_BODY // (1024 * 1024)} MiB") from None
    try:
        data = json.loads(raw or b"null")
    except (ValueError, RecursionError):
        raise ApiError(400, "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


def _fields(data: dict[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise ApiError(400, f"unknown field '{extra[0][:30]}' (fields: {', '.join(sorted(allowed))})")


def _int(data: dict[str, Any], key: str, low: int, high: int, default: Any = None) -> Any:
    value = data.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"{key} must be a whole number from {low} to {high}")
    return value


class Server:
    """The state behind the routes: games, simulations, workers, the host key."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.host_key = config.host_key or tokens.new_key()
        self.host_hash = tokens.key_hash(self.host_key)
        self.store = GameStore(config.saves, config.max_games)
        self.workers = Workers(config.jobs, config.processes)
        self.sims = Simulations(self.workers, config.max_simulations)
        self.changed: dict[str, asyncio.Event] = {}
        self.bot_tasks: dict[str, asyncio.Task[None]] = {}
        self.closing = False

    # ------------------------------------------------------------- keys

    def require_host(self, request: Request) -> None:
        key = tokens.bearer(request.headers.get("authorization"))
        if key is None:
            raise ApiError(401, "this needs the host key that `bones serve` printed in its link "
                                "(after #host=); send it as 'Authorization: Bearer KEY'")
        if not tokens.matches(key, self.host_hash):
            raise ApiError(403, "that is not this server's host key (it changes each time the "
                                "server starts: use the link it printed)")

    def seat(self, request: Request, game: WebGame) -> int:
        return game.seat_of(tokens.bearer(request.headers.get("authorization")))

    # ------------------------------------------------------------ bots

    def event(self, gid: str) -> asyncio.Event:
        ev = self.changed.get(gid)
        if ev is None:
            ev = self.changed[gid] = asyncio.Event()
        return ev

    def notify(self, game: WebGame) -> None:
        ev = self.changed.pop(game.id, None)
        if ev is not None:
            ev.set()
        if game.over:
            self.store.note_over(game)
        self.kick(game)

    def kick(self, game: WebGame) -> None:
        """Let the bot to move answer, if one is to move and none is thinking already."""
        if self.closing or not game.bot_to_move():
            return
        task = self.bot_tasks.get(game.id)
        if task is not None and not task.done():
            return
        self.bot_tasks[game.id] = asyncio.get_running_loop().create_task(self._bot(game))

    async def _bot(self, game: WebGame) -> None:
        while not self.closing and game.bot_to_move():
            expected = game.version
            await asyncio.sleep(self.config.pace)
            if self.closing:
                return
            game.busy = True
            try:
                moved = await self.workers.thread(game.bot_step, expected)
            except ApiError as err:
                log.warning("game %s: %s", game.id, err.message)
                moved = False
            except RuntimeError:  # the pool is shut down: the server is stopping
                return
            finally:
                game.busy = False
            ev = self.changed.pop(game.id, None)
            if ev is not None:
                ev.set()
            if game.over:
                self.store.note_over(game)
            if not moved:
                return

    async def close(self) -> None:
        self.closing = True
        for task in list(self.bot_tasks.values()):
            task.cancel()
        for sim in self.sims.runs.values():
            sim.cancelled = True
        await asyncio.get_running_loop().run_in_executor(None, self.workers.close)


def create_app(config: ServeConfig) -> Starlette:
    """The ASGI application for ``config`` (its state is ``app.state.server``)."""
    server = Server(config)
    server.store.open()

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return _error(exc.status, exc.message)

    async def unexpected(request: Request, exc: Exception) -> Response:
        log.error("%s %s: %s: %s", request.method, request.url.path, type(exc).__name__,
                  str(exc).splitlines()[0] if str(exc) else "")
        return _error(500, f"internal error: {type(exc).__name__} (the server log has the details)")

    # ---------------------------------------------------------- the page

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    # ---------------------------------------------------------- variants

    async def variants(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        from bones.web.variants import summary_rows

        return JSONResponse({"variants": await run_in_threadpool(summary_rows)})

    async def variant(request: Request) -> Response:
        from bones.web.variants import builtin_name, details, load_builtin

        name = builtin_name(request.path_params["name"])
        if name is None:
            raise ApiError(404, f"no built-in variant '{request.path_params['name'][:40]}'")
        players = request.query_params.get("players")
        v = load_builtin(name)
        count = None
        if players is not None:
            if not players.isdigit() or int(players) not in v.players.counts:
                raise ApiError(400, f"players: {name} is played by "
                                    f"{', '.join(str(c) for c in sorted(v.players.counts))} players")
            count = int(players)
        return JSONResponse(details(v, count))

    async def validate(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        from bones.web.variants import validate_text

        data = await _json(request)
        _fields(data, {"text"})
        text = data.get("text")
        if not isinstance(text, str):
            raise ApiError(400, "text must be the variant file's text")
        return JSONResponse(await run_in_threadpool(validate_text, text))

    async def rules_text(request: Request) -> Response:
        """The rules text (and model) of uploaded variant text, as `bones show` prints it."""
        from starlette.concurrency import run_in_threadpool

        from bones.engine.load import VariantError
        from bones.web.variants import details, load_text, problems_json

        data = await _json(request)
        _fields(data, {"text"})
        text = data.get("text")
        if not isinstance(text, str):
            raise ApiError(400, "text must be the variant file's text")
        try:
            v = await run_in_threadpool(load_text, text)
        except VariantError as err:
            return JSONResponse({"ok": False, "problems": problems_json(err.problems)}, status_code=422)
        return JSONResponse({"ok": True, **details(v)})

    async def bots(request: Request) -> Response:
        from bones.engine.bots import BOTS
        from bones.web.games import BOT_LIMITS

        out = []
        for name, limits in BOT_LIMITS.items():
            info = BOTS[name]
            out.append({"name": name, "summary": info.summary,
                        "params": [{"name": p.name, "default": p.default, "max": limits[p.name],
                                    "help": p.help} for p in info.params if p.name in limits]})
        return JSONResponse({"bots": out})

    # ------------------------------------------------------------- games

    def _resolve_variant(ref: Any) -> tuple[Any, str]:
        from bones.engine.load import VariantError
        from bones.web.variants import WebVariantError, problems_json, resolve

        try:
            return resolve(ref)
        except WebVariantError as err:
            raise ApiError(400, str(err)) from None
        except VariantError as err:
            first = problems_json(err.problems)[0]
            where = f"line {first['line']}: " if first["line"] else ""
            raise ApiError(422, f"the variant has {len(err.problems)} problem"
                                f"{'s' * (len(err.problems) > 1)}: {where}{first['message']}") from None

    def _links(request: Request, game: WebGame, keys: dict[int, str]) -> list[dict[str, Any]]:
        base = _base_url(request, config)
        out = []
        for seat, key in sorted(keys.items()):
            url = f"{base}/#game={game.id}&seat={seat}&key={key}"
            out.append({"seat": seat, "key": key, "url": url, "qr": _qr_svg(url)})
        return out

    async def create_game(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        server.require_host(request)
        data = await _json(request)
        _fields(data, {"variant", "players", "teams", "seats", "seed"})
        variant, source = await run_in_threadpool(_resolve_variant, data.get("variant"))
        players = _int(data, "players", 2, 10)
        teams = data.get("teams")
        if teams is not None and not isinstance(teams, bool):
            raise ApiError(400, "teams must be true or false")
        seed = _int(data, "seed", 0, 2**63 - 1)
        seats_in = data.get("seats")
        seats: list[str] | None = None
        if seats_in is not None:
            if not isinstance(seats_in, list) or not 1 <= len(seats_in) <= 10:
                raise ApiError(400, "seats must be a list with one entry per player")
            seats = []
            for k, entry in enumerate(seats_in):
                if not isinstance(entry, dict):
                    raise ApiError(400, f"seats[{k}] must be an object like {{\"kind\": \"human\"}}")
                extra = set(entry) - {"kind", "bot"}
                if extra:
                    raise ApiError(400, f"seats[{k}]: unknown field '{sorted(extra)[0][:30]}'")
                kind = entry.get("kind")
                if kind == "human":
                    seats.append("human")
                elif kind == "bot":
                    try:
                        seats.append(check_bot(entry.get("bot", "search")))
                    except ApiError as err:
                        raise ApiError(400, f"seats[{k}]: {err.message}") from None
                else:
                    raise ApiError(400, f"seats[{k}].kind must be human or bot")
            if "human" not in seats:
                raise ApiError(400, "a game needs at least one human seat")
            if players is None:
                players = len(seats)
        game, keys = await run_in_threadpool(server.store.create, variant, source, players, teams,
                                             seats, seed)
        server.kick(game)
        return JSONResponse({"id": game.id, "version": game.version, "save": game.path.name,
                             "seats": _links(request, game, keys)}, status_code=201)

    async def list_games(request: Request) -> Response:
        server.require_host(request)
        out = []
        for game in sorted(server.store.games.values(), key=lambda g: -g.created):
            out.append({"id": game.id, "save": game.path.name, "over": game.over,
                        "seats": sorted(game.seat_hashes), "created": game.created})
        return JSONResponse({"games": out, "live": server.store.live(),
                             "max": server.store.max_games})

    async def get_game(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        game = server.store.get(request.path_params["id"])
        seat = server.seat(request, game)
        wait = request.query_params.get("wait")
        if wait is not None:
            if not wait.lstrip("-").isdigit():
                raise ApiError(400, "wait must be the version you have")
            if int(wait) == game.version and game.session is not None:
                server.kick(game)
                ev = server.event(game.id)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(ev.wait(), LONG_POLL)
        view = await run_in_threadpool(game.view, seat)
        server.kick(game)
        return JSONResponse(view)

    async def move(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        game = server.store.get(request.path_params["id"])
        seat = server.seat(request, game)
        data = await _json(request)
        _fields(data, {"move", "version", "claim"})
        view = await run_in_threadpool(game.move, seat, data.get("move"), data.get("claim"),
                                       data.get("version"))
        server.notify(game)
        return JSONResponse(view)

    async def take_back(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        game = server.store.get(request.path_params["id"])
        seat = server.seat(request, game)
        data = await _json(request)
        _fields(data, {"version"})
        task = server.bot_tasks.get(game.id)
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        view = await run_in_threadpool(game.take_back, seat, data.get("version"))
        server.notify(game)
        return JSONResponse(view)

    async def delete_game(request: Request) -> Response:
        server.require_host(request)
        await _json(request)
        server.store.delete(request.path_params["id"])
        return JSONResponse({"deleted": request.path_params["id"]})

    # ------------------------------------------------------------- saves

    async def saves(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        server.require_host(request)
        return JSONResponse({"saves": await run_in_threadpool(server.store.list_saves)})

    async def open_save(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        server.require_host(request)
        data = await _json(request)
        _fields(data, {"name"})
        game, keys = await run_in_threadpool(server.store.open_save, data.get("name"))
        server.kick(game)
        return JSONResponse({"id": game.id, "version": game.version, "save": game.path.name,
                             "seats": _links(request, game, keys)}, status_code=201)

    # ------------------------------------------------------------ replay

    async def replay(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        from bones.web.replay import replay_record_text, replay_save

        data = await _json(request)
        _fields(data, {"record", "save"})
        if ("record" in data) == ("save" in data):
            raise ApiError(400, "give record (a record's JSON text) or save (a save's name)")
        if "save" in data:
            server.require_host(request)
            path = server.store.save_path(data["save"])
            frames = await run_in_threadpool(replay_save, path)
        else:
            text = data["record"]
            if not isinstance(text, str):
                raise ApiError(400, "record must be the text of a record file")
            frames = await run_in_threadpool(replay_record_text, text)
        return JSONResponse(frames)

    # ------------------------------------------------------- simulations

    async def start_simulation(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        from bones.web import sims

        server.require_host(request)
        data = await _json(request)
        _fields(data, {"variant", "compare", "players", "teams", "bots", "games", "hands", "seed"})
        tables = []
        players = _int(data, "players", 2, 10)
        teams = data.get("teams")
        if teams is not None and not isinstance(teams, bool):
            raise ApiError(400, "teams must be true or false")
        refs = [data.get("variant")] + ([data["compare"]] if data.get("compare") is not None else [])
        for ref in refs:
            variant, label = await run_in_threadpool(_resolve_variant, ref)
            tables.append(await run_in_threadpool(_table, variant, label, players, teams))
        if len({t.players for t in tables}) > 1:
            raise ApiError(400, "the two variants are played by different numbers of players "
                                "here; choose one with players")
        bots_in = data.get("bots", ["greedy"])
        if isinstance(bots_in, str):
            bots_in = [b for b in bots_in.split(",")]
        if not isinstance(bots_in, list) or not 1 <= len(bots_in) <= 10:
            raise ApiError(400, "bots must be a list of bots, one per seat (a shorter list repeats)")
        bot_names = []
        for b in bots_in:
            name = check_bot(b)
            if name.startswith("search") and ":seconds=" in name:
                raise ApiError(400, "time budgets are for interactive play; give simulations "
                                    "an iteration budget")
            bot_names.append(name)
        if "games" in data and "hands" in data:
            raise ApiError(400, "give games (whole matches) or hands, not both")
        hands_only = "hands" in data
        games = _int(data, "hands" if hands_only else "games", 1, sims.MAX_GAMES, 200)
        seed = _int(data, "seed", 0, 2**63 - 1)
        config = await run_in_threadpool(sims.make_config, tables, bot_names, games, seed, hands_only)
        sim = server.sims.start(config)
        return JSONResponse(sim.status(), status_code=202)

    async def get_simulation(request: Request) -> Response:
        server.require_host(request)
        return JSONResponse(server.sims.get(request.path_params["id"]).status())

    async def cancel_simulation(request: Request) -> Response:
        server.require_host(request)
        await _json(request)
        return JSONResponse(server.sims.cancel(request.path_params["id"]).status())

    async def about(request: Request) -> Response:
        from bones._version import __version__

        return JSONResponse({"name": "bones", "version": __version__, "api": 1,
                             "docs": "docs/serve.md", "limits": {
                                 "body_bytes": MAX_BODY, "games": config.max_games,
                                 "simulations": config.max_simulations,
                                 "simulation_games": sims_module.MAX_GAMES,
                                 "simulation_seconds": sims_module.MAX_SECONDS,
                                 "jobs": config.jobs}})

    async def not_found(request: Request) -> Response:
        raise ApiError(404, f"no such endpoint: {request.method} {request.url.path[:80]}")

    routes = [
        Route("/", index),
        Route("/api", about),
        Route("/api/variants", variants),
        Route("/api/variants/{name}", variant),
        Route("/api/validate", validate, methods=["POST"]),
        Route("/api/rules", rules_text, methods=["POST"]),
        Route("/api/bots", bots),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games/{id}", get_game, methods=["GET"]),
        Route("/api/games/{id}", delete_game, methods=["DELETE"]),
        Route("/api/games/{id}/moves", move, methods=["POST"]),
        Route("/api/games/{id}/takeback", take_back, methods=["POST"]),
        Route("/api/saves", saves),
        Route("/api/saves/open", open_save, methods=["POST"]),
        Route("/api/replay", replay, methods=["POST"]),
        Route("/api/simulations", start_simulation, methods=["POST"]),
        Route("/api/simulations/{id}", get_simulation, methods=["GET"]),
        Route("/api/simulations/{id}", cancel_simulation, methods=["DELETE"]),
        Route("/api/{rest:path}", not_found, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        # the engine loads in the background while the server already answers
        asyncio.get_running_loop().run_in_executor(None, _warm)
        yield
        await server.close()

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={ApiError: api_error, Exception: unexpected,
                                        405: _method_not_allowed})
    app.state.server = server
    app.add_middleware(Guard, hosts=allowed_hosts(config))
    return app


async def _method_not_allowed(request: Request, exc: Exception) -> Response:
    return _error(405, f"{request.method} is not allowed on {request.url.path[:80]}")


def _warm() -> None:
    from bones.web.games import warm

    try:
        warm()
    except Exception as err:  # noqa: BLE001 - the first request will report it
        log.warning("could not load the engine ahead: %s", err)


def _table(variant: Any, label: str, players: int | None, teams: bool | None) -> Any:
    from bones.engine.rules import RulesError, compile_rules
    from bones.engine.sim import Table

    try:
        rules = compile_rules(variant, players, teams)
    except RulesError as err:
        raise ApiError(400, str(err).splitlines()[0]) from None
    return Table(label, variant, rules.players, rules.teams)


def _base_url(request: Request, config: ServeConfig) -> str:
    host = request.headers.get("host", f"{config.host}:{config.port}")
    if config.public_host and _host_name(host) in ("localhost", "127.0.0.1", "[::1]", "::1"):
        # the host's own page on localhost: friends need the address they can reach
        host = f"{config.public_host}:{config.port}"
    return f"http://{host}"


def _qr_svg(text: str) -> str | None:
    try:
        import segno
    except ImportError:  # pragma: no cover - segno is in the web extra
        return None
    import io

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=3, border=2, xmldecl=False,
                                     svgns=True, title="seat link", dark="#111", light="#fff")
    return out.getvalue().decode("utf-8")


