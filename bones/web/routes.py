"""The routes of `bones serve`: one function per endpoint (docs/serve.md
lists them), each reading the server from ``request.app.state.server``.

Handlers that load variants, play moves or run the engine hand the work to a
thread, so the event loop keeps answering long polls meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from bones._version import __version__
from bones.web import replay as replays
from bones.web import sims as sims_module
from bones.web import tokens
from bones.web.analyses import check_cost
from bones.web.api import (
    MAX_BODY,
    check_fields,
    number_in,
    read_json,
    seats_from,
    simulation_bots,
    teams_flag,
    whole_number,
)
from bones.web.games import ANALYSIS_BUDGET, MAX_ANALYSIS_BUDGET, ApiError, WebGame
from bones.web.links import base_url, qr_svg
from bones.web.server import server_of
from bones.web.social_routes import ROUTES as SOCIAL_ROUTES
from bones.web.tokens import SPECTATOR
from bones.web.watch_routes import create_watch_link, revoke_watch_links

if TYPE_CHECKING:  # pragma: no cover
    from bones.lang.spec import Variant
    from bones.sim.simulation import Table

STATIC = Path(__file__).resolve().parent / "static"
#: How long ``GET /api/games/{id}?wait=V`` waits for a change before answering.
LONG_POLL = 20.0
#: The largest version and hand number a query may name (far beyond any game's).
MAX_VERSION, MAX_HANDS = 10**12, 10**6
#: The longest a deleted game's bot may take to finish the move it is making
#: (seconds) before the deletion answers anyway.
BOT_STOP_WAIT = 30.0


# ---------------------------------------------------------- the page


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


# ---------------------------------------------------------- variants


async def variants(request: Request) -> Response:
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
        counts = sorted(v.players.counts)
        count = number_in(players, counts[0], counts[-1],
                          f"players: {name} is played by {', '.join(str(c) for c in counts)} players")
        if count not in counts:
            raise ApiError(400, f"players: {name} is played by "
                                f"{', '.join(str(c) for c in counts)} players")
    return JSONResponse(details(v, count))


async def validate(request: Request) -> Response:
    from bones.web.variants import validate_text

    data = await read_json(request)
    check_fields(data, {"text"})
    text = data.get("text")
    if not isinstance(text, str):
        raise ApiError(400, "text must be the variant file's text")
    return JSONResponse(await run_in_threadpool(validate_text, text))


async def rules_text(request: Request) -> Response:
    """The rules text (and model) of uploaded variant text, as `bones show` prints it."""
    from bones.lang.load import VariantError
    from bones.web.variants import details, load_text, problems_json

    data = await read_json(request)
    check_fields(data, {"text"})
    text = data.get("text")
    if not isinstance(text, str):
        raise ApiError(400, "text must be the variant file's text")
    try:
        v = await run_in_threadpool(load_text, text)
    except VariantError as err:
        return JSONResponse({"ok": False, "problems": problems_json(err.problems)}, status_code=422)
    return JSONResponse({"ok": True, **details(v)})


async def bots(request: Request) -> Response:
    from bones.bots import BOT_LIMITS, BOTS

    jobs = server_of(request).config.jobs
    out = []
    for name, limits in BOT_LIMITS.items():
        info = BOTS[name]
        # a bot's threads are the server's workers: at most --jobs of them
        out.append({"name": name, "summary": info.summary,
                    "params": [{"name": p.name, "default": p.default,
                                "max": min(limits[p.name], jobs) if p.name == "threads" else limits[p.name],
                                "help": p.help} for p in info.params if p.name in limits]})
    from bones.web.offered import offered

    # what the seat pickers offer, with plain descriptions (bones.web.offered)
    return JSONResponse({"bots": out, "jobs": jobs, "offered": offered(jobs)})


# ------------------------------------------------------------- games


def _resolve_variant(ref: Any) -> tuple[Variant, str]:
    from bones.lang.load import VariantError
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
    base = base_url(request, server_of(request).config)
    session = game.session
    out = []
    for seat, key in sorted(keys.items()):
        url = f"{base}/#game={game.id}&seat={seat}&key={key}"
        # a person's seat a bot plays until the host hands it back (a save opened again)
        handed = (session.config.seats[seat]
                  if session is not None and seat in session.handed else None)
        out.append({"seat": seat, "key": key, "url": url, "qr": qr_svg(url), "handed": handed})
    return out


async def create_game(request: Request) -> Response:
    server = server_of(request)
    server.require_host(request)
    data = await read_json(request)
    check_fields(data, {"variant", "players", "teams", "seats", "seed"})
    variant, source = await run_in_threadpool(_resolve_variant, data.get("variant"))
    players = whole_number(data, "players", 2, 10)
    teams = teams_flag(data)
    seed = whole_number(data, "seed", 0, 2**63 - 1)
    seats = seats_from(data.get("seats"), server.config.jobs)
    if seats is not None and players is None:
        players = len(seats)
    game, keys = await run_in_threadpool(server.store.create, variant, source, players, teams,
                                         seats, seed)
    server.kick(game)
    return JSONResponse({"id": game.id, "version": game.version, "save": game.path.name,
                         "seats": _links(request, game, keys)}, status_code=201)


async def list_games(request: Request) -> Response:
    server = server_of(request)
    server.require_host(request)
    out = []
    for game in sorted(server.store.games.values(), key=lambda g: -g.created):
        out.append({"id": game.id, "save": game.path.name, "over": game.over,
                    "seats": sorted(game.seat_hashes), "created": game.created})
    return JSONResponse({"games": out, "live": server.store.live(),
                         "max": server.store.max_games})


async def get_game(request: Request) -> Response:
    server = server_of(request)
    game = server.store.get(request.path_params["id"])
    watch_key = server.spectators.key_of(request, game)
    if watch_key is not None:  # a watch link: capped, rate-limited, no hand (bones.web.watch)
        async with server.spectators.admitted(game, watch_key):
            return await _game_view(request, game, SPECTATOR)
    return await _game_view(request, game, server.seat(request, game))


async def _game_view(request: Request, game: WebGame, seat: int) -> Response:
    server = server_of(request)
    wait = request.query_params.get("wait")
    stamp = request.query_params.get("stamp")  # the social stamp you have: names, chat...
    if wait is not None:
        if number_in(wait, -1, MAX_VERSION, "wait must be the version you have") == game.version \
                and game.session is not None and not server.closing \
                and (stamp is None or stamp == str(game.stamp)):
            server.kick(game)
            ev = server.event(game.id)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(ev.wait(), LONG_POLL)
            if server.store.games.get(game.id) is not game:  # deleted while we waited
                raise ApiError(404, f"game {game.id} was deleted by the host (its save stays)")
    if seat == SPECTATOR:
        view = await run_in_threadpool(game.view, seat)
    else:  # the key's seat now, under the lock the view is built under (a rematch moves seats)
        view = await run_in_threadpool(game.view_of,
                                       tokens.bearer(request.headers.get("authorization")))
    server.kick(game)
    return JSONResponse(view)


async def move(request: Request) -> Response:
    server = server_of(request)
    game = server.store.get(request.path_params["id"])
    seat = server.seat(request, game)
    data = await read_json(request)
    check_fields(data, {"move", "version", "claim"})
    view = await run_in_threadpool(game.move, seat, data.get("move"), data.get("claim"),
                                   data.get("version"))
    server.notify(game)
    return JSONResponse(view)


async def take_back(request: Request) -> Response:
    server = server_of(request)
    game = server.store.get(request.path_params["id"])
    seat = server.seat(request, game)
    data = await read_json(request)
    check_fields(data, {"version"})
    task = server.bot_tasks.get(game.id)
    if task is not None and not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    view = await run_in_threadpool(game.take_back, seat, data.get("version"))
    server.notify(game)
    return JSONResponse(view)


async def resign(request: Request) -> Response:
    from bones.web.etiquette import resign as resign_match

    server = server_of(request)
    game = server.store.get(request.path_params["id"])
    server.seat(request, game)  # 401/403 before the body is read
    check_fields(await read_json(request), set())
    view = await run_in_threadpool(resign_match, game,
                                   tokens.bearer(request.headers.get("authorization")))
    server.notify(game)
    return JSONResponse(view)


async def leave(request: Request) -> Response:
    from bones.web.etiquette import leave as leave_table

    server = server_of(request)
    game = server.store.get(request.path_params["id"])
    server.seat(request, game)
    check_fields(await read_json(request), set())
    out = await run_in_threadpool(leave_table, server.store, game,
                                  tokens.bearer(request.headers.get("authorization")))
    server.notify(game)
    return JSONResponse(out)


async def seat_link(request: Request) -> Response:
    from bones.web.etiquette import new_link

    server = server_of(request)
    server.require_host(request)
    game = server.store.get(request.path_params["id"])
    text = request.path_params["seat"]
    seat = number_in(text, 0, 99, f"no seat '{text[:10]}': a seat is a number from 0", 404)
    check_fields(await read_json(request), set())
    key = await run_in_threadpool(new_link, server.store, game, seat)
    server.notify(game)
    return JSONResponse(_links(request, game, {seat: key})[0], status_code=201)


async def game_hint(request: Request) -> Response:
    from bones.web.hints import hint

    server = server_of(request)
    game = server.store.get(request.path_params["id"])
    server.seat(request, game)
    key = tokens.bearer(request.headers.get("authorization"))
    # a search, like an analysis: stopped when the page goes away
    return JSONResponse(await _analysis(request, hint, game, key, what="hint"))


async def game_analysis(request: Request) -> Response:
    server = server_of(request)
    game = server.store.get(request.path_params["id"])
    seat = server.seat(request, game)
    hand = number_in(request.query_params.get("hand"), 1, MAX_HANDS,
                     "hand must be a hand's number, from 1")
    return JSONResponse(await _analysis(request, game.analysis, seat, hand))


async def delete_game(request: Request) -> Response:
    server = server_of(request)
    server.require_host(request)
    await read_json(request)
    gid = request.path_params["id"]
    server.store.delete(gid)
    server.wake(gid)  # its long polls answer at once: the game is gone
    # a bot thinking holds the save until its move is written: wait for it
    # (it stops after that move), so the save can be opened again at once
    task = server.bot_tasks.get(gid)
    if task is not None and not task.done():
        with contextlib.suppress(Exception):  # the time is up, or the bot failed
            await asyncio.wait_for(asyncio.shield(task), BOT_STOP_WAIT)
    return JSONResponse({"deleted": gid})


# ------------------------------------------------------------- saves


async def saves(request: Request) -> Response:
    server = server_of(request)
    server.require_host(request)
    saves = await run_in_threadpool(server.store.list_saves)
    for entry in saves:
        if entry.get("problem"):
            entry["problem"] = server.scrub(entry["problem"])
    return JSONResponse({"saves": saves})


async def open_save(request: Request) -> Response:
    server = server_of(request)
    server.require_host(request)
    data = await read_json(request)
    check_fields(data, {"name"})
    game, keys = await run_in_threadpool(server.store.open_save, data.get("name"))
    server.kick(game)
    if keys is None:  # already a game here: the same game, its links unchanged
        return JSONResponse({"id": game.id, "version": game.version, "save": game.path.name,
                             "reopened": True,
                             "seats": [{"seat": s} for s in sorted(game.seat_hashes)]})
    return JSONResponse({"id": game.id, "version": game.version, "save": game.path.name,
                         "reopened": False, "seats": _links(request, game, keys)},
                        status_code=201)


# ------------------------------------------------------------ replay


async def replay(request: Request) -> Response:
    server = server_of(request)
    data = await read_json(request)
    check_fields(data, {"record", "save"})
    if ("record" in data) == ("save" in data):
        raise ApiError(400, "give record (a record's JSON text) or save (a save's name)")
    if "save" in data:
        server.require_host(request)
        path = server.store.save_path(data["save"])
        frames = await run_in_threadpool(replays.replay_save, path)
    else:
        text = data["record"]
        if not isinstance(text, str):
            raise ApiError(400, "record must be the text of a record file")
        frames = await run_in_threadpool(replays.replay_record_text, text)
    return JSONResponse(frames)


async def analyse(request: Request) -> Response:
    """The analysis of a record or a save (`bones analyse --json`, with the
    best move's layout for each decision): ``{"record": TEXT}`` or
    ``{"save": NAME}``, and ``budget`` (worlds per decision).  The host's
    alone, within the limits of :mod:`bones.web.analyses`."""
    server = server_of(request)
    server.require_host(request)
    data = await read_json(request)
    check_fields(data, {"record", "save", "budget"})
    if ("record" in data) == ("save" in data):
        raise ApiError(400, "give record (a record's JSON text) or save (a save's name)")
    budget = whole_number(data, "budget", 1, MAX_ANALYSIS_BUDGET, ANALYSIS_BUDGET)
    async with server.analyses.admitted(request.client.host if request.client else "?"):
        if "save" in data:
            path = server.store.save_path(data["save"])
            record = await run_in_threadpool(replays.record_of_save, path)
            label = path.name
        else:
            text = data["record"]
            if not isinstance(text, str):
                raise ApiError(400, "record must be the text of a record file")
            record = await run_in_threadpool(replays.record_of_text, text)
            label = "record"
        check_cost(record, budget)
        result = await _analysis(request, replays.analysis_of, record, label, budget)
    return JSONResponse(result)


async def _analysis(request: Request, fn: Any, *args: Any, what: str = "analysis") -> Any:
    """``fn(*args)``, an analysis (or a hint), in the server's workers (within
    ``--jobs``); its search is stopped when the client goes away (its answer
    would go nowhere): 499, never sent."""
    from bones.bots.stop import Stopped

    try:
        return await server_of(request).workers.thread(fn, *args, gone=request.is_disconnected)
    except Stopped:
        raise ApiError(499, f"the {what} was stopped: its client went away") from None


# ------------------------------------------------------- simulations


async def start_simulation(request: Request) -> Response:
    server = server_of(request)
    server.require_host(request)
    data = await read_json(request)
    check_fields(data, {"variant", "compare", "players", "teams", "bots", "games", "hands", "seed"})
    tables = []
    players = whole_number(data, "players", 2, 10)
    teams = teams_flag(data)
    refs = [data.get("variant")] + ([data["compare"]] if data.get("compare") is not None else [])
    for ref in refs:
        variant, label = await run_in_threadpool(_resolve_variant, ref)
        tables.append(await run_in_threadpool(_table, variant, label, players, teams))
    if len({t.players for t in tables}) > 1:
        raise ApiError(400, "the two variants are played by different numbers of players "
                            "here; choose one with players")
    bot_names = simulation_bots(data.get("bots", ["greedy"]), server.config.jobs)
    if "games" in data and "hands" in data:
        raise ApiError(400, "give games (whole matches) or hands, not both")
    hands_only = "hands" in data
    games = whole_number(data, "hands" if hands_only else "games", 1, sims_module.MAX_GAMES, 200)
    seed = whole_number(data, "seed", 0, 2**63 - 1)
    config = await run_in_threadpool(sims_module.make_config, tables, bot_names, games, seed, hands_only)
    sim = server.sims.start(config)
    return JSONResponse(sim.status(), status_code=202)


async def get_simulation(request: Request) -> Response:
    server = server_of(request)
    server.require_host(request)
    return JSONResponse(server.sims.get(request.path_params["id"]).status())


async def cancel_simulation(request: Request) -> Response:
    server = server_of(request)
    server.require_host(request)
    await read_json(request)
    return JSONResponse(server.sims.cancel(request.path_params["id"]).status())


async def about(request: Request) -> Response:
    server = server_of(request)
    return JSONResponse({"name": "bones", "version": __version__, "api": 1,
                         "docs": "docs/serve.md", "limits": {
                             "body_bytes": MAX_BODY, "games": server.config.max_games,
                             "simulations": server.config.max_simulations,
                             "simulation_games": sims_module.MAX_GAMES,
                             "simulation_seconds": sims_module.MAX_SECONDS,
                             "jobs": server.config.jobs}})


async def not_found(request: Request) -> Response:
    raise ApiError(404, f"no such endpoint: {request.method} {request.url.path[:80]}")


ROUTES: list[BaseRoute] = [
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
    Route("/api/games/{id}/analysis", game_analysis, methods=["GET"]),
    Route("/api/games/{id}/resign", resign, methods=["POST"]),
    Route("/api/games/{id}/hint", game_hint, methods=["GET"]),
    Route("/api/games/{id}/seats/{seat}/link", seat_link, methods=["POST"]),
    Route("/api/games/{id}/leave", leave, methods=["POST"]),
    Route("/api/games/{id}/watch", create_watch_link, methods=["POST"]),
    Route("/api/games/{id}/watch", revoke_watch_links, methods=["DELETE"]),
    Route("/api/saves", saves),
    Route("/api/saves/open", open_save, methods=["POST"]),
    Route("/api/replay", replay, methods=["POST"]),
    Route("/api/analyse", analyse, methods=["POST"]),
    Route("/api/simulations", start_simulation, methods=["POST"]),
    Route("/api/simulations/{id}", get_simulation, methods=["GET"]),
    Route("/api/simulations/{id}", cancel_simulation, methods=["DELETE"]),
    *SOCIAL_ROUTES,  # names, presence, rematch and chat (bones.web.social_routes)
    Route("/api/{rest:path}", not_found, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
    Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
]


def _table(variant: Variant, label: str, players: int | None, teams: bool | None) -> Table:
    from bones.engine.rules import RulesError
    from bones.lang.compile import compile_rules
    from bones.sim.simulation import Table

    try:
        rules = compile_rules(variant, players, teams)
    except RulesError as err:
        raise ApiError(400, str(err).splitlines()[0]) from None
    return Table(label, variant, rules.players, rules.teams)

