"""The routes of the people at a table (docs/serve.md, "Names, presence, rematch
and chat"): each a thin reader of the request around :mod:`bones.web.people`,
:mod:`bones.web.chat` and :mod:`bones.web.series`.

A seat's key acts only as its own seat (the seat is the key's, never a
field of the body); the host key alone reads presence and hands seats to
bots.  Every change wakes the table's long polls.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from bones.web import tokens
from bones.web.api import check_fields, number_in, read_json
from bones.web.games import check_bot
from bones.web.server import server_of


def _key(request: Request) -> str | None:
    """The seat key of the request (the seat it names is read under the game's lock)."""
    return tokens.bearer(request.headers.get("authorization"))


async def name(request: Request) -> Response:
    from bones.web.people import set_name

    server = server_of(request)
    game = server.store.get(request.path_params["id"])
    server.seat(request, game)  # 401/403 before the body is read
    data = await read_json(request)
    check_fields(data, {"name"})
    view = await run_in_threadpool(set_name, game, _key(request), data.get("name"))
    server.notify(game)
    return JSONResponse(view)


async def post_chat(request: Request) -> Response:
    from bones.web.chat import post

    server = server_of(request)
    game = server.store.get(request.path_params["id"])
    server.seat(request, game)
    data = await read_json(request)
    check_fields(data, {"text"})
    view = await run_in_threadpool(post, game, _key(request), data.get("text"))
    server.notify(game)
    return JSONResponse(view)


async def get_chat(request: Request) -> Response:
    from bones.web.chat import feed

    server = server_of(request)
    game = server.store.get(request.path_params["id"])
    server.seat(request, game)
    after = number_in(request.query_params.get("after", "0"), 0, 10**12,
                      "after must be the number of the last message you have (0 for all)")
    return JSONResponse(await run_in_threadpool(feed, game, after))


async def rematch(request: Request) -> Response:
    from bones.web.series import answer

    server = server_of(request)
    game = server.store.get(request.path_params["id"])
    server.seat(request, game)
    data = await read_json(request)
    check_fields(data, {"accept"})
    view = await run_in_threadpool(answer, server.store, game, _key(request), data.get("accept", True))
    server.notify(game)
    return JSONResponse(view)


async def people(request: Request) -> Response:
    from bones.web.people import presence

    server = server_of(request)
    server.require_host(request)
    game = server.store.get(request.path_params["id"])
    return JSONResponse(await run_in_threadpool(presence, game))


async def hand_seat(request: Request) -> Response:
    from bones.web.people import hand_seat as hand

    server = server_of(request)
    server.require_host(request)
    game = server.store.get(request.path_params["id"])
    text = request.path_params["seat"]
    seat = number_in(text, 0, 99, f"no seat '{text[:10]}': a seat is a number from 0", 404)
    data = await read_json(request)
    check_fields(data, {"bot"})
    bot = data.get("bot")
    spec = None if bot is None else await run_in_threadpool(check_bot, bot, server.config.jobs)
    out = await run_in_threadpool(hand, game, seat, spec, server.store)
    server.notify(game)
    return JSONResponse(out)


ROUTES: list[BaseRoute] = [
    Route("/api/games/{id}/name", name, methods=["POST"]),
    Route("/api/games/{id}/chat", post_chat, methods=["POST"]),
    Route("/api/games/{id}/chat", get_chat, methods=["GET"]),
    Route("/api/games/{id}/rematch", rematch, methods=["POST"]),
    Route("/api/games/{id}/people", people, methods=["GET"]),
    Route("/api/games/{id}/seats/{seat}", hand_seat, methods=["POST"]),
]
