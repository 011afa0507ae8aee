"""The rules engine: the variant language, its compiler and the hot path.

Its public names are exported by the top-level :mod:`bones` package.
"""
