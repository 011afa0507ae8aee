"""Reading what a client sent: the JSON body, its fields and their values.

Every fault becomes an :class:`~bones.web.games.ApiError` with one line and a
documented status (docs/serve.md), never a traceback.
"""

from __future__ import annotations

import json
from typing import Any, overload

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bones.games.numbers import ascii_number
from bones.web.games import ApiError, check_bot

#: The largest request body accepted (a variant text is at most 64 KiB; a
#: record to replay at most 2 MiB).
MAX_BODY = 3 * 1024 * 1024


def number_in(text: str | None, low: int, high: int, message: str, status: int = 400) -> int:
    """The number every query value and path segment is read by: ``text`` as a
    whole number from ``low`` to ``high`` (ASCII digits only,
    :func:`bones.games.numbers.ascii_number`, after one ``-`` where ``low`` is
    negative), else
    :class:`ApiError` ``status`` with ``message``."""
    negative = low < 0 and text is not None and text.startswith("-")
    number = ascii_number(text[1:] if negative and text is not None else text)
    if number is not None and negative:
        number = -number
    if number is None or not low <= number <= high:
        raise ApiError(status, message)
    return number


def host_name(value: str) -> str:
    """The host of a ``Host`` header, without its port (``[::1]`` kept whole)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def url_host(host: str) -> str:
    """``host`` as it is written in a URL: an IPv6 address in brackets.

    >>> url_host("::1"), url_host("[::1]"), url_host("127.0.0.1")
    ('[::1]', '[::1]', '127.0.0.1')
    """
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class BodyTooLarge(Exception):
    """The body grew past :data:`MAX_BODY` while it was read."""


def too_large() -> str:
    return f"the request body is larger than {MAX_BODY // (1024 * 1024)} MiB"


def error_response(status: int, message: str) -> Response:
    """The JSON error every fault answers with: ``{"error": "one line"}``."""
    return JSONResponse({"error": message}, status_code=status)


async def read_json(request: Request) -> dict[str, Any]:
    """The body as a JSON object."""
    try:
        raw = await request.body()
    except BodyTooLarge:
        raise ApiError(413, too_large()) from None
    try:
        text = raw.decode("utf-8-sig") if raw else "null"
    except UnicodeDecodeError:
        raise ApiError(400, "the body is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ApiError(400, "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    try:
        # an escape such as \ud800 alone decodes to a lone surrogate, which no
        # file, YAML text or response can hold: refused here, once for all
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "the body is not Unicode text: a \\u escape names half of a "
                            "surrogate pair") from None
    except RecursionError:
        raise ApiError(400, "the body is not valid JSON") from None
    return data


def check_fields(data: dict[str, Any], allowed: set[str]) -> None:
    """Refuse a field the endpoint does not know (a typo must not pass unseen)."""
    extra = sorted(set(data) - allowed)
    if extra:
        raise ApiError(400, f"unknown field '{extra[0][:30]}' (fields: {', '.join(sorted(allowed))})")


@overload
def whole_number(data: dict[str, Any], key: str, low: int, high: int) -> int | None: ...
@overload
def whole_number(data: dict[str, Any], key: str, low: int, high: int, default: int) -> int: ...
def whole_number(data: dict[str, Any], key: str, low: int, high: int,
                 default: int | None = None) -> int | None:
    """``data[key]`` as a whole number from ``low`` to ``high`` (or ``default``)."""
    value = data.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"{key} must be a whole number from {low} to {high}")
    return value


def teams_flag(data: dict[str, Any]) -> bool | None:
    teams = data.get("teams")
    if teams is not None and not isinstance(teams, bool):
        raise ApiError(400, "teams must be true or false")
    return teams


def seats_from(value: Any, jobs: int | None = None) -> list[str] | None:
    """A new game's ``seats``: ``"human"`` or a bot text per seat, at least one human
    (a bot of at most ``jobs`` threads: :func:`bones.web.games.check_bot`)."""
    if value is None:
        return None
    if not isinstance(value, list) or not 1 <= len(value) <= 10:
        raise ApiError(400, "seats must be a list with one entry per player")
    seats = []
    for k, entry in enumerate(value):
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
                seats.append(check_bot(entry.get("bot", "search"), jobs))
            except ApiError as err:
                raise ApiError(400, f"seats[{k}]: {err.message}") from None
        else:
            raise ApiError(400, f"seats[{k}].kind must be human or bot")
    if "human" not in seats:
        raise ApiError(400, "a game needs at least one human seat")
    return seats


def simulation_bots(value: Any, jobs: int | None = None) -> list[str]:
    """A simulation's ``bots``: built-in bots with iteration budgets, one per seat."""
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list) or not 1 <= len(value) <= 10:
        raise ApiError(400, "bots must be a list of bots, one per seat (a shorter list repeats)")
    names = []
    for b in value:
        name = check_bot(b, jobs)
        if name.startswith("search") and ":seconds=" in name:
            raise ApiError(400, "time budgets are for interactive play; give simulations "
                                "an iteration budget")
        names.append(name)
    return names
