"""The rule language: what a variant file says and how bones reads it.

The pydantic models (:mod:`~bones.lang.spec`), reading YAML with positions
(:mod:`~bones.lang.yamlsource`), located problems (:mod:`~bones.lang.problems`)
and the error that carries them (:mod:`~bones.lang.errors`),
loading and ``extends:`` (:mod:`~bones.lang.load`), the rules in plain English
(:mod:`~bones.lang.describe`) and the JSON Schemas for editors
(:mod:`~bones.lang.schemagen`).
"""
