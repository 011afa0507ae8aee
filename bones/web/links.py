"""The links `bones serve` hands out (seat links, watch links) and their QR codes.

A link carries its key after ``#``, which browsers never send.  Its base is,
in order: ``--public-url`` (the server behind a reverse proxy or a tunnel);
else the address the request came to, with a loopback address replaced by
the machine's address on its network when the server listens there (so a
host who opened the page on ``127.0.0.1`` still hands out links that the
friends' phones can reach).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bones.web.api import host_name, url_host

if TYPE_CHECKING:  # pragma: no cover
    from starlette.requests import Request

    from bones.web.server import ServeConfig

LOOPBACK = ("localhost", "127.0.0.1", "[::1]", "::1")


class PublicUrlError(ValueError):
    """A ``--public-url`` that is not a site's address; the message is one line."""


def check_public_url(text: str) -> str:
    """``text`` as the base of every link (``scheme://host[:port]``, no ``/`` at the
    end), or :class:`PublicUrlError` saying what is wrong with it."""
    raw = text.strip()
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError:
        raise PublicUrlError(f"--public-url {raw[:80]!r}: its port must be a number from 1 to "
                             "65535") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise PublicUrlError(f"--public-url {raw[:80]!r}: must start with http:// or https://")
    if not parts.hostname:
        raise PublicUrlError(f"--public-url {raw[:80]!r}: names no host (like https://table.example.org)")
    if parts.query or parts.fragment or "?" in raw or "#" in raw:
        raise PublicUrlError(f"--public-url {raw[:80]!r}: must have no query (?) or fragment (#)")
    if parts.username is not None or parts.password is not None:
        raise PublicUrlError(f"--public-url {raw[:80]!r}: must not hold a user name or password")
    if parts.path not in ("", "/"):
        raise PublicUrlError(f"--public-url {raw[:80]!r}: must be a site's root, without a path "
                             "(the page is served at /)")
    scheme = parts.scheme.lower()
    if (scheme, port) in (("http", 80), ("https", 443)):
        port = None  # a browser's Origin leaves the default port out
    netloc = url_host(parts.hostname.lower()) + (f":{port}" if port is not None else "")
    return f"{scheme}://{netloc}"


def public_origin_host(public_url: str | None) -> str | None:
    """The host name of ``--public-url`` (the Host checks accept it)."""
    if not public_url:
        return None
    name = urlsplit(public_url).hostname
    return url_host(name) if name else None


def base_url(request: Request, config: ServeConfig) -> str:
    """The start of every link the server hands out (no ``/`` at the end)."""
    if config.public_url:
        return config.public_url
    host = request.headers.get("host", f"{url_host(config.host)}:{config.port}")
    if config.public_host and host_name(host) in LOOPBACK:
        # the host's own page on localhost: friends need the address they can reach
        host = f"{url_host(config.public_host)}:{config.port}"
    return f"http://{host}"


def qr_svg(text: str, title: str = "seat link") -> str | None:
    """The QR code of ``text`` as an SVG image (None without segno)."""
    try:
        import segno
    except ImportError:  # pragma: no cover - segno is in the web extra
        return None
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=3, border=2, xmldecl=False,
                                     svgns=True, title=title, dark="#111", light="#fff")
    return out.getvalue().decode("utf-8")
