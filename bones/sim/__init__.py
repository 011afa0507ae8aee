"""Simulation and statistics: many games played in batches on any executor
(:mod:`~bones.sim.simulation`), the estimates and intervals reported
(:mod:`~bones.sim.stats`), Elo ratings (:mod:`~bones.sim.ratings`) and the
report's rows (:mod:`~bones.sim.report`).
"""
