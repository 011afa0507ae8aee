"""`bones serve`: the table in a browser (needs the web extra: pip install 'bones[web]').

This module reads the command line, prints the links and runs uvicorn; the
application is :mod:`bones.web.app`.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from bones.bots import delay_problem

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from uvicorn import Server

_HELP = """Serve the table in a browser: play any variant or house rule against bots
or with friends, validate rule files, run simulations and replay games.

Binds to 127.0.0.1 unless --host says otherwise (--host 0.0.0.0 lets other
devices on your network join: each friend opens their own seat link, printed
with this machine's address on the network).  Friends elsewhere: run it behind
a reverse proxy or a tunnel with --public-url URL (every link uses it).  The
address printed carries the host key after '#': open that link (--open does)
to create games.  Games are the save files of `bones play`, saved after every
move in --saves (default $XDG_DATA_HOME/bones/saves); a restarted server
continues every game with the same seat links.  Ctrl-C stops it; nothing is lost.

Exit codes: 0 stopped; 1 the server could not start (the port is taken); 2 a
usage error or the web extra is missing.
"""


def register(app: typer.Typer) -> None:
    app.command("serve", help=_HELP)(serve_command)


def _fail(message: str, code: int) -> typer.Exit:
    typer.echo(f"bones serve: {message}", err=True)
    return typer.Exit(code)


def lan_address() -> str | None:
    """This machine's address on its local network, never a loopback address.

    A UDP socket "connected" to a private address picks the interface a packet
    would leave by, without sending one (no network access is needed); when
    that fails (no route), the address the host name resolves to.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.254.254.254", 1))
            address: str | None = s.getsockname()[0]
    except OSError:
        address = None
    if address is None or address.startswith("127.") or address == "0.0.0.0":
        try:
            address = socket.gethostbyname(socket.gethostname())
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (0.0.0.0: every "
                             "network of this machine, for friends on your network)."),
    port: int = typer.Option(8765, "--port", help="Port to listen on (0: any free port)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in your browser."),
    saves: Optional[Path] = typer.Option(None, "--saves", metavar="DIR",
                                         help="Folder of the games' save files "
                                              "(default: the one bones play uses)."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Workers for bots and simulations."),
    pace: float = typer.Option(0.7, "--pace", metavar="SECONDS",
                               help="Pause before each bot move, so people see it."),
    max_games: int = typer.Option(50, "--max-games", help="Most unfinished games held at once."),
    allow_host: Optional[list[str]] = typer.Option(
        None, "--allow-host", metavar="NAME",
        help="Another name the page may be reached by (repeatable); other Host headers are refused."),
    public_url: Optional[str] = typer.Option(
        None, "--public-url", metavar="URL",
        help="The address friends reach the server by, behind a reverse proxy or a tunnel "
             "(https://table.example.org): every link and QR code uses it."),
) -> None:
    started = time.perf_counter()
    try:
        import uvicorn  # noqa: F401 - checked here, used by _uvicorn_server

        from bones.web.api import url_host
        from bones.web.app import create_app
        from bones.web.server import ServeConfig
    except ImportError as err:
        raise _fail(f"the web extra is missing ({err.name}): pip install 'bones[web]'", 2) from None
    _check_limits(port, jobs, pace, max_games)
    public_base = _public_url(public_url)
    folder = _save_folder(saves)
    public = _public_host(host)
    sock = _listen(host, port)
    port = sock.getsockname()[1]
    config = ServeConfig(saves=folder, host=host, port=port, jobs=jobs, pace=pace,
                         max_games=max_games, allow_hosts=list(allow_host or []),
                         public_host=public, public_url=public_base)
    try:
        app = create_app(config)
    except OSError as err:
        raise _fail(f"cannot use --saves {folder}: {err.strerror or err}", 1) from None
    server = app.state.server
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "", "localhost") else host
    local = f"http://{url_host(shown)}:{port}/#host={server.host_key}"
    uv = _uvicorn_server(app)
    # from the first line printed, Ctrl-C stops cleanly: until uvicorn takes the
    # signal over, it is handed to the server (which then starts and stops at
    # once), never raised in the middle of building the event loop
    previous = signal.signal(signal.SIGINT, uv.handle_exit)
    try:
        _announce(local, public, public_base, port, folder)
        if open_browser:
            problem = _open_browser(local)
            if problem is not None:
                typer.echo(f"bones serve: {problem}", err=True)
        typer.echo(f"bones serve: ready in {time.perf_counter() - started:.2f} s", err=True)
        sys.stdout.flush()
        uv.run(sockets=[sock])
    finally:
        signal.signal(signal.SIGINT, previous)
    typer.echo("bones serve: stopped; every game is saved")


def _check_limits(port: int, jobs: int, pace: float, max_games: int) -> None:
    if not 0 <= port <= 65535:
        raise _fail("--port must be from 0 to 65535", 2)
    if jobs < 1 or jobs > (os.cpu_count() or 1) * 4:
        raise _fail(f"--jobs must be from 1 to {(os.cpu_count() or 1) * 4}", 2)

    problem = delay_problem(pace, "--pace")
    if problem is not None:
        raise _fail(problem, 2)
    if max_games < 1:
        raise _fail("--max-games must be at least 1", 2)


def _save_folder(saves: Path | None) -> Path:
    from bones.games.saves import default_save_dir

    folder = saves if saves is not None else default_save_dir()
    if folder.exists() and not folder.is_dir():
        raise _fail(f"--saves {folder}: not a folder", 2)
    return folder


def _public_url(text: str | None) -> str | None:
    if text is None:
        return None
    from bones.web.links import PublicUrlError, check_public_url

    try:
        return check_public_url(text)
    except PublicUrlError as err:
        raise _fail(str(err), 2) from None


def _public_host(host: str) -> str | None:
    """The address other devices reach the server by, if any."""
    if host in ("0.0.0.0", "::", ""):
        return lan_address()
    if host not in ("127.0.0.1", "localhost", "::1"):
        return host
    return None


def _listen(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        # listening from now on: a browser opened (--open) or a client that read
        # "ready" is queued until the server takes it, never refused
        sock.listen(128)
    except OSError as err:
        sock.close()
        raise _fail(f"cannot listen on {host}:{port}: {err.strerror or err}", 1) from None
    return sock


def _open_browser(url: str) -> str | None:
    """Open ``url`` in this machine's browser; what went wrong, or None.

    ``webbrowser`` answers False (or raises) when it finds no browser: a
    server, a container, a session without a display."""
    import webbrowser

    try:
        opened = webbrowser.open(url)
    except (webbrowser.Error, OSError):
        opened = False
    if opened:
        return None
    return ("--open: no browser could be opened on this machine; open the table's link "
            "above in a browser yourself")


def _announce(local: str, public: str | None, public_url: str | None, port: int,
              folder: Path) -> None:
    if public_url:
        key = local.split("#", 1)[1]
        typer.echo(f"bones serve: the table is at {public_url}/#{key} (on this machine: {local})")
        typer.echo(f"bones serve: friends reach it at {public_url}/ (every seat and watch link "
                   "uses that address)")
    else:
        typer.echo(f"bones serve: the table is at {local}")
    if public and not public_url:
        from bones.web.api import url_host

        typer.echo(f"bones serve: other devices on your network: http://{url_host(public)}:{port}/ "
                   "(each player opens the seat link the host's page gives them)")
    if not public_url:
        typer.echo("bones serve: friends elsewhere? run it behind a reverse proxy or a tunnel and "
                   "add --public-url https://NAME (and --allow-host NAME for another name): "
                   "docs/serve.md, 'Friends elsewhere'")
    typer.echo(f"bones serve: games are saved in {folder}; Ctrl-C stops the server, nothing is lost")
    sys.stdout.flush()


def _uvicorn_server(app: Starlette) -> Server:
    from uvicorn import Config, Server

    class Stopping(Server):
        """uvicorn's server that, as it begins to stop, answers the tables'
        waiting long polls at once (:meth:`bones.web.server.Server.stopping`)
        instead of letting the grace period cancel them with an error."""

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            app.state.server.stopping()
            await super().shutdown(sockets)

    return Stopping(Config(app, log_level="warning", access_log=False, lifespan="on",
                           timeout_graceful_shutdown=2))
