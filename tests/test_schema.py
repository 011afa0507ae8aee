"""The generated JSON Schemas: fresh, draft-07, and true to the variant files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft7Validator
from typer.testing import CliRunner

from bones.cli.app import app
from bones.lang import schemagen
from bones.lang.load import load_variant

# no core plays in these tests (tools/core_calls.py: 0 calls of core.native, no
# process, under BONES_CORE=native): the Python-core pass of .ci/run only (issue 37)
pytestmark = pytest.mark.core_blind

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
VARIANT_FILES = sorted((ROOT / "variants").glob("*.yaml"))
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))


def as_json(data):
    """A YAML document as a JSON document: mapping keys become strings."""
    return json.loads(json.dumps(data))


@pytest.fixture(scope="module")
def validator() -> Draft7Validator:
    schema = json.loads((SCHEMAS / "variant.schema.json").read_text(encoding="utf-8"))
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema)


def test_committed_schemas_are_fresh():
    generated = schemagen.schemas()
    assert "variant.schema.json" in generated
    for name, schema in generated.items():
        committed = (SCHEMAS / name).read_text(encoding="utf-8")
        assert committed == schemagen.render(schema), (
            f"schemas/{name} is stale: run `bones schema --out schemas` and commit it")
    on_disk = {p.name for p in SCHEMAS.glob("*.json")}
    assert on_disk == set(generated)


def test_bones_schema_writes_the_committed_files(tmp_path):
    result = CliRunner().invoke(app, ["schema", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    for path in SCHEMAS.glob("*.json"):
        assert (tmp_path / "out" / path.name).read_bytes() == path.read_bytes()


def test_output_is_deterministic():
    first = schemagen.render(schemagen.variant_schema())
    second = schemagen.render(schemagen.variant_schema())
    assert first == second and first.endswith("}\n")


def test_draft07_form():
    schema = schemagen.variant_schema()
    text = schemagen.render(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert "prefixItems" not in text
    assert "$defs" not in text and "2020-12" not in text
    assert "discriminator" not in text
    assert set(schema["definitions"]) >= {"Variant", "VariantPatch", "DealRule", "DealRulePatch"}


@pytest.mark.parametrize("path", VARIANT_FILES, ids=lambda p: p.stem)
def test_builtins_validate(path, validator):
    data = as_json(yaml.safe_load(path.read_text(encoding="utf-8")))
    errors = [e.message for e in validator.iter_errors(data)]
    assert errors == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_validate(path, validator):
    data = as_json(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert [e.message for e in validator.iter_errors(data)] == []


def test_house_example_loads():
    house = load_variant(str(ROOT / "docs" / "examples" / "house-fives.yaml"))
    fives = load_variant("all-fives")
    assert house.name == "house-fives" and house.extends == "all-fives"
    assert house.match.points == 150 and house.match.check == "hand_end"
    assert house.deal.reserve == 2
    assert house.deal.hand_size == fives.deal.hand_size
    assert house.aliases == []
    same = {"tiles", "players", "lead", "layout", "scoring", "drawing", "hand_end", "settlement"}
    assert house.model_dump(include=same) == fives.model_dump(include=same)


def _errors(validator, data):
    return [e.message for e in validator.iter_errors(as_json(data))]


def test_schema_rejects_what_the_models_reject(validator):
    sniff = yaml.safe_load((ROOT / "variants" / "sniff.yaml").read_text(encoding="utf-8"))
    bad = dict(sniff, colour="red")
    assert _errors(validator, bad)
    incomplete = {k: v for k, v in sniff.items() if k != "settlement"}
    assert _errors(validator, incomplete)
    bool_off = json.loads(json.dumps(sniff))
    bool_off["scoring"]["muggins"]["kind"] = False  # a bare `off` in YAML
    assert _errors(validator, bool_off)
    eleven = json.loads(json.dumps(sniff))
    eleven["deal"]["hand_size"] = {"2": 7, "11": 3}  # 11 players is not a player count
    assert _errors(validator, eleven)


def test_a_file_with_extends_is_partial(validator):
    assert _errors(validator, {"name": "h", "extends": "all-fives", "match": {"points": 150}}) == []
    assert _errors(validator, {"name": "h", "extends": "sniff", "deal": {"reserve": 2}}) == []
    assert _errors(validator, {"name": "h", "extends": "sniff", "deal": {"reserv": 2}})
    assert _errors(validator, {"name": "h", "extends": "sniff", "match": {"kind": "bogus"}})
    assert _errors(validator, {"name": "h", "deal": {"reserve": 2}})  # no extends: complete


def test_schema_command_reports_an_unwritable_directory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    result = CliRunner().invoke(app, ["schema", "--out", str(blocker)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output


def _literal_values(tp) -> set[str]:
    import typing

    out: set[str] = set()
    if typing.get_origin(tp) is typing.Literal:
        return {str(a) for a in typing.get_args(tp)}
    for arg in typing.get_args(tp):
        out |= _literal_values(arg)
    return out


def test_language_reference_names_every_key_and_value():
    """docs/language.md stays in step with bones/lang/spec.py."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_show import _models_in  # noqa: E402

    from bones.lang import spec

    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    seen, stack, missing = set(), [spec.Variant], []
    while stack:
        model = stack.pop()
        if model in seen:
            continue
        seen.add(model)
        for name, field in model.model_fields.items():
            stack += _models_in(field.annotation)
            if not any(form in text for form in (f"`{name}`", f"{name}:", f".{name}`", f"`{name}.")):
                missing.append(f"key {model.__name__}.{name}")
            for value in _literal_values(field.annotation):
                if not any(form in text for form in (f"`{value}`", f"{value}:", f": {value}")):
                    missing.append(f"value {model.__name__}.{name} = {value}")
    assert missing == [], missing
