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
import ipaddress
import re
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
    end), or :class:`PublicUrlError` saying what is wrong with it.

    The host is checked as a URL library and a browser read it: an IP address,
    or a DNS name of labels of 1 to 63 letters, digits and hyphens (none at a
    label's ends), 253 characters at most.  An internationalised name is
    converted to the ASCII form browsers send (punycode), so its ``Host`` and
    ``Origin`` pass the checks.

    >>> check_public_url("https://Bücher.example/")
    'https://xn--bcher-kva.example'
    """
    raw = text.strip()
    shown = f"--public-url {raw[:80]!r}"
    if any(ch.isspace() or ch in "\"'<>`^{}|\\" or not ch.isprintable() for ch in raw):
        raise PublicUrlError(f"{shown}: must not hold spaces, quotes or control characters")
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError:
        raise PublicUrlError(f"{shown}: its port must be a number from 1 to 65535") from None
    if parts.scheme.lower() not in ("http", "https"):
        raise PublicUrlError(f"{shown}: must start with http:// or https://")
    if not parts.hostname:
        raise PublicUrlError(f"{shown}: names no host (like https://table.example.org)")
    if parts.query or parts.fragment or "?" in raw or "#" in raw:
        raise PublicUrlError(f"{shown}: must have no query (?) or fragment (#)")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise PublicUrlError(f"{shown}: must not hold a user name or password")
    if parts.path not in ("", "/"):
        raise PublicUrlError(f"{shown}: must be a site's root, without a path "
                             "(the page is served at /)")
    if port is not None and not 1 <= port <= 65535:
        raise PublicUrlError(f"{shown}: its port must be a number from 1 to 65535")
    host = _host_name(parts.hostname, shown)
    scheme = parts.scheme.lower()
    if (scheme, port) in (("http", 80), ("https", 443)):
        port = None  # a browser's Origin leaves the default port out
    netloc = url_host(host) + (f":{port}" if port is not None else "")
    return f"{scheme}://{netloc}"


_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


def _host_name(name: str, shown: str) -> str:
    """``name`` (from a URL) as a browser sends it: an IP address, or the ASCII
    form of a DNS name; else :class:`PublicUrlError`."""
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        pass
    if "%" in name:
        raise PublicUrlError(f"{shown}: its host may hold only letters, digits, hyphens and dots "
                             "(no %-escapes)")
    if not name.isascii():
        try:
            name = _idna(name)
        except UnicodeError:
            raise PublicUrlError(f"{shown}: its host is not a valid internationalised name "
                                 "(write it in its ASCII form, xn--...)") from None
    name = name.lower()
    if len(name) > 253:
        raise PublicUrlError(f"{shown}: its host is longer than 253 characters")
    for label in name.split("."):
        if not label:
            raise PublicUrlError(f"{shown}: its host has an empty label (two dots, or a dot "
                                 "at an end)")
        if len(label) > 63:
            raise PublicUrlError(f"{shown}: its host has a label longer than 63 characters")
        if not _LABEL.fullmatch(label):
            raise PublicUrlError(f"{shown}: its host may hold only letters, digits, hyphens "
                                 "and dots, with no hyphen at a label's start or end")
    if name.rsplit(".", 1)[-1].isdigit():
        raise PublicUrlError(f"{shown}: its host is neither an IP address nor a name")
    if any(label.startswith("xn--") for label in name.split(".")):
        try:
            _idna(_unidna(name))
        except UnicodeError:
            raise PublicUrlError(f"{shown}: its host has an xn-- label that is not a valid "
                                 "internationalised name") from None
    return name


def _unidna(name: str) -> str:
    """The Unicode form of an ASCII host name (its xn-- labels decoded)."""
    try:
        import idna
    except ImportError:  # pragma: no cover
        return name.encode("ascii").decode("idna")
    try:
        return str(idna.decode(name))
    except idna.IDNAError as err:
        raise UnicodeError(str(err)) from None


def _idna(name: str) -> str:
    """The ASCII form of an internationalised host name (UTS #46, as browsers map it)."""
    try:
        import idna  # with the web extra (through anyio)
    except ImportError:  # pragma: no cover - the standard library's IDNA 2003
        return name.encode("idna").decode("ascii")
    try:
        return str(idna.encode(name, uts46=True).decode("ascii"))
    except idna.IDNAError as err:
        raise UnicodeError(str(err)) from None


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
