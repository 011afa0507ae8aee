"""Games played and kept: an interactive session with bots
(:mod:`~bones.games.game`), records and replays (:mod:`~bones.games.record`),
saves and their listing, scenario files (:mod:`~bones.games.scenario`) and
the compile cache of the built-in variants (:mod:`~bones.games.cache`).
"""
