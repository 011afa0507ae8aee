"""The host's endpoints of watch links (:mod:`bones.web.watch` has the rest):
``POST /api/games/{id}/watch`` makes one, ``DELETE`` stops them all."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bones.web import tokens
from bones.web.api import check_fields, read_json
from bones.web.games import MAX_REVOKED, ApiError
from bones.web.links import base_url, qr_svg
from bones.web.server import server_of
from bones.web.watch import MAX_WATCH_LINKS


async def create_watch_link(request: Request) -> Response:
    """``POST /api/games/{id}/watch`` (host): a new watch link, its key shown once (201)."""
    server = server_of(request)
    server.require_host(request)
    game = server.store.get(request.path_params["id"])
    check_fields(await read_json(request), set())
    if len(game.watch_hashes) >= MAX_WATCH_LINKS:
        raise ApiError(429, f"game {game.id} already has {MAX_WATCH_LINKS} watch links (the most "
                            "a game has): revoke them (DELETE) to make new ones")
    key = tokens.new_key()
    game.watch_hashes.append(tokens.key_hash(key))
    try:
        await run_in_threadpool(server.store.write_index, game)
    except OSError as err:
        game.watch_hashes.remove(tokens.key_hash(key))
        raise ApiError(500, f"game {game.id}: cannot write its index: {err.strerror or err}") from None
    url = f"{base_url(request, server.config)}/#watch={game.id}&key={key}"
    return JSONResponse({"key": key, "url": url, "qr": await run_in_threadpool(qr_svg, url, "watch link"),
                         "links": len(game.watch_hashes), "max": MAX_WATCH_LINKS}, status_code=201)


async def revoke_watch_links(request: Request) -> Response:
    """``DELETE /api/games/{id}/watch`` (host): every watch link of the game stops working."""
    server = server_of(request)
    server.require_host(request)
    game = server.store.get(request.path_params["id"])
    check_fields(await read_json(request), set())
    revoked, game.watch_hashes = game.watch_hashes, []
    before = game.revoked_hashes
    # remembered, so a revoked link's spectator is told it was revoked
    game.revoked_hashes = (before + revoked)[-MAX_REVOKED:]
    try:
        await run_in_threadpool(server.store.write_index, game)
    except OSError as err:
        game.watch_hashes, game.revoked_hashes = revoked, before
        raise ApiError(500, f"game {game.id}: cannot write its index: {err.strerror or err}") from None
    return JSONResponse({"revoked": len(revoked)})
