"""The `bones serve` application: the JSON API, its guards and the page.

Every endpoint is listed in docs/serve.md.  Errors are JSON
``{"error": "one line"}`` with a documented status; nothing a client sends
produces a traceback.

Guards, applied to every request before any endpoint sees it:

* the ``Host`` header must name the address the server is bound to or a name
  it was told to accept (``--allow-host``, ``--public-url``'s host); any other
  host is refused with 421, which defeats DNS rebinding;
* a state-changing request (POST, PUT, PATCH, DELETE) needs an ``Origin``
  equal to the server's own origin or ``--public-url`` (403 otherwise) and a JSON body
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
import logging
import socket
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bones.games.numbers import ascii_number
from bones.web.api import MAX_BODY, BodyTooLarge, error_response, host_name, too_large
from bones.web.games import ApiError, warm
from bones.web.links import public_origin_host
from bones.web.routes import ROUTES
from bones.web.server import ServeConfig, Server

log = logging.getLogger("bones.serve")
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def allowed_hosts(config: ServeConfig) -> set[str]:
    names = {"localhost", "127.0.0.1", "::1", "[::1]", config.host.lower()}
    if config.public_host:
        names.add(config.public_host.lower())
    public = public_origin_host(config.public_url)
    if public:
        names.add(public.lower())
    if config.host in ("0.0.0.0", "::", ""):
        with contextlib.suppress(OSError):
            names.add(socket.gethostname().lower())
            names.add(socket.getfqdn().lower())
    names.update(h.lower() for h in config.allow_hosts)
    return names


class Guard:
    """The Host, Origin, JSON-body and size guards, and the safety headers."""

    def __init__(self, app: ASGIApp, hosts: set[str], origins: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.hosts = hosts
        self.origins = origins  # --public-url's origin (behind a proxy the Host may differ)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            await error_response(421, f"this server does not answer to the host '{host[:60]}' "
                              "(start it with --allow-host NAME to allow a name)")(scope, receive, send)
            return
        method = scope["method"]
        if method in _UNSAFE:
            origin = headers.get("origin")
            if origin is None or (origin.lower() not in (f"http://{host}".lower(), f"https://{host}".lower())
                                  and origin.lower() not in self.origins):
                await error_response(403, "a request that changes something must come from this "
                                  "server's own page (its Origin header must be this server)")(
                    scope, receive, send)
                return
            ctype = headers.get("content-type", "").split(";")[0].strip().lower()
            if ctype != "application/json":
                await error_response(415, "send a JSON body (Content-Type: application/json)")(
                    scope, receive, send)
                return
            length = headers.get("content-length")
            size = ascii_number(length)
            if length is not None and size is None:
                await error_response(400, "the Content-Length header is not a number of bytes")(
                    scope, receive, send)
                return
            if size is not None and size > MAX_BODY:
                await error_response(413, too_large())(
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


def create_app(config: ServeConfig) -> Starlette:
    """The ASGI application for ``config`` (its state is ``app.state.server``;
    its routes are :data:`bones.web.routes.ROUTES`)."""
    server = Server(config)
    server.store.open()

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        # a save is named by its file name: no response holds a path of this machine
        response = error_response(exc.status, server.scrub(exc.message))
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    async def unexpected(request: Request, exc: Exception) -> Response:
        log.error("%s %s: %s: %s", request.method, request.url.path, type(exc).__name__,
                  str(exc).splitlines()[0] if str(exc) else "")
        return error_response(500, f"internal error: {type(exc).__name__} (the server log has the details)")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        # the engine loads in the background while the server already answers
        asyncio.get_running_loop().run_in_executor(None, _warm)
        yield
        await server.close()

    app = Starlette(routes=ROUTES, lifespan=lifespan,
                    exception_handlers={ApiError: api_error, Exception: unexpected,
                                        405: _method_not_allowed})
    app.state.server = server
    app.add_middleware(Guard, hosts=allowed_hosts(config),
                       origins=frozenset([config.public_url.lower()] if config.public_url else []))
    return app


async def _method_not_allowed(request: Request, exc: Exception) -> Response:
    return error_response(405, f"{request.method} is not allowed on {request.url.path[:80]}")


def _warm() -> None:
    try:
        warm()
    except Exception as err:  # noqa: BLE001 - the first request will report it
        log.warning("could not load the engine ahead: %s", err)


__all__ = ["MAX_BODY", "Guard", "ServeConfig", "allowed_hosts", "create_app"]
