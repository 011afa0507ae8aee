"""The error every endpoint of `bones serve` answers a fault with."""

from __future__ import annotations


class ApiError(Exception):
    """A request that cannot be served: an HTTP status and a one-line reason."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after  # seconds, sent as Retry-After (a 429)


__all__ = ["ApiError"]
