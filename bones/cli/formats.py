"""Output formats shared by the commands that report problems in files."""

from __future__ import annotations

import enum


class Format(enum.StrEnum):
    """How a command that checks files reports: for people, programs or CI."""

    text = "text"
    json = "json"
    github = "github"


def gh_escape(text: str, *, prop: bool = False) -> str:
    """Escape ``text`` for a GitHub Actions workflow command (or a property of one)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def github_annotation(problem: object) -> str:
    """A located problem (bones.lang.load.LocatedProblem) as an Actions ``::error``."""
    props = f"file={gh_escape(problem.file, prop=True)}"  # type: ignore[attr-defined]
    if problem.line:  # type: ignore[attr-defined]
        props += f",line={problem.line},col={problem.col}"  # type: ignore[attr-defined]
    body = (f"{problem.dotted_path}: {problem.message}"  # type: ignore[attr-defined]
            if problem.path else problem.message)  # type: ignore[attr-defined]
    return f"::error {props}::{gh_escape(body)}"
