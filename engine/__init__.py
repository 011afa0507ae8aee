"""bones: a rules engine for the point-domino family, driven by YAML variant files."""

from engine._version import __version__

__all__ = ["__version__"]
