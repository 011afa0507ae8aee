"""Output formats shared by the commands that report problems in files."""

from __future__ import annotations

import enum


class Format(str, enum.Enum):
    text = "text"
    json = "json"
    github = "github"


def gh_escape(text: str, *, prop: bool = False) -> str:
    """Escape ``text`` for a GitHub Actions workflow command (or a property of one)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text
