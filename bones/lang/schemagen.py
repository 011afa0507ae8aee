"""JSON Schemas for editors, generated from the pydantic models.

``bones schema`` writes every schema of :func:`schemas` into ``schemas/``, where
the variant files find them through their first line::

    # yaml-language-server: $schema=../schemas/variant.schema.json

Editors validate at draft-07 level, so the generated schemas are draft-07:
they carry draft-07's ``$schema``, keep their definitions under
``definitions``, use no ``prefixItems`` and no ``discriminator``, and give the
per-player-count maps (``{2: 7, 3: 6, 4: 5}``) a ``propertyNames`` pattern,
since JSON object keys are strings.

A file with ``extends:`` is partial: it changes some keys of another variant.
The variant schema therefore checks such a file against a *patch* form of
every model (nothing required, alternatives tried with ``anyOf``), and every
other file against the full models.

The schemas are built here from the models they describe (the models never
import this module); a new schema is a line in ``_BUILDERS``.

The output is deterministic: keys sorted, two-space indent, a trailing newline.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic.json_schema import GenerateJsonSchema

from bones.lang.scenariofile import Scenario
from bones.lang.spec import Variant

if TYPE_CHECKING:  # pragma: no cover - pydantic is imported when a schema is built
    from pydantic import BaseModel
    from pydantic.json_schema import GenerateJsonSchema

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
PATCH = "Patch"

Schema = dict[str, Any]


def _generator() -> type[GenerateJsonSchema]:
    class Draft07(GenerateJsonSchema):
        """pydantic's generator with int-keyed maps given a key pattern."""

        def dict_schema(self, schema):  # type: ignore[no-untyped-def]
            out = super().dict_schema(schema)
            keys = schema.get("keys_schema") or {}
            if keys.get("type") == "int":
                low, high = keys.get("ge"), keys.get("le")
                if low is not None and high is not None and high - low <= 40:
                    names = "|".join(str(k) for k in range(low, high + 1))
                    out["propertyNames"] = {"pattern": f"^({names})$"}
                else:
                    out["propertyNames"] = {"pattern": "^-?[0-9]+$"}
            return out

    return Draft07


def _walk(node: Any, fn: Callable[[Schema], None]) -> None:
    if isinstance(node, dict):
        fn(node)
        for value in node.values():
            _walk(value, fn)
    elif isinstance(node, list):
        for value in node:
            _walk(value, fn)


def _draft07(model: type[BaseModel], title: str, description: str) -> Schema:
    """A model's schema with its definitions under ``definitions``, root included."""
    raw = model.model_json_schema(
        ref_template="#/definitions/{model}", schema_generator=_generator()
    )
    definitions = raw.pop("$defs", {})
    root_name = model.__name__
    definitions[root_name] = raw

    def clean(node: Schema) -> None:
        node.pop("discriminator", None)
        if "prefixItems" in node:  # pragma: no cover - the models use no tuples
            raise ValueError("a tuple field would need prefixItems, which draft-07 lacks")

    _walk(definitions, clean)
    return {
        "$schema": DRAFT_07,
        "title": title,
        "description": description,
        "definitions": definitions,
        "$ref": f"#/definitions/{root_name}",
    }


def _patch_definitions(definitions: dict[str, Schema]) -> dict[str, Schema]:
    """A partial twin of every definition: nothing required, anyOf for oneOf."""
    patches: dict[str, Schema] = {}
    for name, schema in definitions.items():
        twin = copy.deepcopy(schema)

        def loosen(node: Schema) -> None:
            node.pop("required", None)
            if "oneOf" in node:
                node["anyOf"] = node.pop("oneOf")
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/definitions/"):
                node["$ref"] = ref + PATCH

        _walk(twin, loosen)
        if "title" in twin:
            twin["title"] = f"{twin['title']} (partial, in a file with extends)"
        patches[name + PATCH] = twin
    return patches


def variant_schema() -> Schema:
    """The schema of a variant file, complete or (with ``extends``) partial."""
    schema = _draft07(
        Variant,
        "bones variant file",
        "A point-domino variant for bones: every rule of the game. A file with "
        "`extends` names another variant and gives only the keys it changes.",
    )
    definitions = schema["definitions"]
    definitions.update(_patch_definitions(dict(definitions)))
    patch = definitions["Variant" + PATCH]
    patch["required"] = ["extends"]
    del schema["$ref"]
    schema["if"] = {"required": ["extends"]}
    schema["then"] = {"$ref": "#/definitions/Variant" + PATCH}
    schema["else"] = {"$ref": "#/definitions/Variant"}
    schema["type"] = "object"
    schema["$comment"] = "Generated by `bones schema` from bones/lang/spec.py; do not edit."
    return schema


def scenario_schema() -> Schema:
    """The schema of a scenario file (``bones check``)."""
    schema = _draft07(
        Scenario,
        "bones scenario file",
        "A worked example replayed by `bones check`: a variant, optional rule "
        "overrides, an optional fixed deal, and steps with what must happen; or a "
        "match: several hands in order, each with its deal, lead and steps.",
    )
    definitions = schema["definitions"]
    for model in ("Scenario", "MatchHand"):
        steps = definitions[model]["properties"]["steps"]
        item = steps["items"]
        # a step may also be the bare word draw or pass
        steps["items"] = {"anyOf": [{"enum": ["draw", "pass"]}, item]}
    definitions["Step"]["oneOf"] = [{"required": [k]} for k in ("play", "draw", "pass")]
    schema["$comment"] = "Generated by `bones schema` from bones/lang/scenariofile.py; do not edit."
    return schema


_BUILDERS: dict[str, Callable[[], Schema]] = {
    "variant.schema.json": variant_schema,
    "scenario.schema.json": scenario_schema,
}


def schemas() -> dict[str, Schema]:
    """Every schema ``bones schema`` writes, by file name."""
    return {name: _BUILDERS[name]() for name in sorted(_BUILDERS)}


def render(schema: Schema) -> str:
    """A schema as the deterministic text written to its file."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

