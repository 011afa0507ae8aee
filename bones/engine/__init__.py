"""The engine proper: compiled :class:`~bones.engine.rules.Rules`, tiles, moves
and their notation, the hand, the match, settlement, leads, the layout's
placement, the seeded generator, and the choice of core (the native bridge).

It reads no YAML and no pydantic model while playing: the language
(:mod:`bones.lang`) compiles a variant into ``Rules`` once.  Its public names
are exported by the top-level :mod:`bones` package.
"""
