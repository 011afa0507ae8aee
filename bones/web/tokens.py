"""Seat keys and the host key: unguessable, shown once, stored only as hashes.

A key is 32 random bytes from :func:`secrets.token_urlsafe` (256 bits).  The
server keeps only its SHA-256 (a key has far too much entropy for a hash to
be worth guessing), compares in constant time, and never writes a key to a
log, a save or an index file.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

#: The seat a watch key reads the game as (bones.web.watch): no seat, no tiles, never "You".
SPECTATOR = -1
#: Length of a key's text (``token_urlsafe(32)`` gives 43 characters).
KEY_BYTES = 32
_KEY_TEXT = re.compile(r"^[A-Za-z0-9_-]{20,128}$")


def new_key() -> str:
    """A fresh key."""
    return secrets.token_urlsafe(KEY_BYTES)


def key_hash(key: str) -> str:
    """What the server stores of ``key``."""
    return hashlib.sha256(key.encode("ascii", "replace")).hexdigest()


def matches(key: str | None, stored: str | None) -> bool:
    """Whether ``key`` is the key whose hash is ``stored`` (constant time)."""
    if not key or not stored or not _KEY_TEXT.match(key):
        return False
    return hmac.compare_digest(key_hash(key), stored)


def bearer(header: str | None) -> str | None:
    """The key of an ``Authorization: Bearer KEY`` header, or None."""
    if not header:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    value = value.strip()
    return value if _KEY_TEXT.match(value) else None


def new_id() -> str:
    """A game's or a simulation's id: random, short, safe in a path (not a secret)."""
    return secrets.token_hex(8)
