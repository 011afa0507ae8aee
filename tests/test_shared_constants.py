"""Every constant the two cores share is the same on both sides.

The native core lists its own (``bones_native.constants()``: the move
layout, the outcome codes, every family of rule codes, the flat table's
fields in order, the format version, the stream labels and the match and
simulation limits); each is compared here with the Python module that
defines it.  The Python side's lists are collected from the modules (every
upper-case int of a code family), so a code added, removed or renumbered
on one side only fails a test, as does a code family the native core does
not know.
"""

from __future__ import annotations

import dataclasses
import io
import re
import tokenize
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from native_support import bones_native, skip_native

import bones
from bones.engine import bounds, flat, moves, rules, settle
from bones.engine import match as match_module
from bones.engine import rng as rng_module

pytestmark = skip_native()

#: Each code family of the Rust core (`native/src/kernel/codes.rs`): the Python
#: module defining it and the prefix of its names.
PREFIXED: dict[str, tuple[ModuleType, str]] = {
    "WHEN": (rules, "WHEN_"),
    "POINTS": (rules, "POINTS_"),
    "AFTER": (rules, "AFTER_"),
    "COMPARE": (settle, "COMPARE_"),
    "AGAINST": (settle, "AGAINST_"),
    "SPIN": (rules, "SPIN_"),
    "ORDER": (rules, "ORDER_"),
    "DRAW": (rules, "DRAW_"),
    "CHECK": (rules, "CHECK_"),
    "MUGGINS": (rules, "MUGGINS_"),
    "OVER_CLAIM": (rules, "OVER_CLAIM_"),
    "LEAD": (rules, "LEAD_"),
    "NONE": (rules, "NONE_"),
    "LATER": (rules, "LATER_"),
    "SETTLE": (settle, "SETTLE_"),
    "AMOUNT": (settle, "AMOUNT_"),
    "TIES": (settle, "TIES_"),
    "PER": (settle, "PER_"),
    "ROUND": (settle, "ROUND_"),
}


def _int_constants(module: ModuleType) -> dict[str, int]:
    """The module's own upper-case int constants."""
    return {name: value for name, value in vars(module).items()
            if name.isupper() and type(value) is int}


def python_codes() -> dict[str, dict[str, int]]:
    """Every rule code family as the Python side defines it."""
    families = {family: {name: value for name, value in _int_constants(module).items()
                         if name.startswith(prefix)}
                for family, (module, prefix) in PREFIXED.items()}
    return families


@pytest.fixture(scope="module")
def native() -> dict[str, Any]:
    return bones_native.constants()


def test_the_format_version(native: dict[str, Any]) -> None:
    assert native["format"] == flat.FORMAT_VERSION == bones_native.TABLE_FORMAT


def test_the_move_layout(native: dict[str, Any]) -> None:
    python = {name: getattr(moves, name) for name in moves.__all__
              if type(getattr(moves, name)) is int}
    assert native["moves"] == python
    # and the helpers agree with the layout on a lead flipped on the last tile
    code = moves.play_code(189, 0, flip=True)
    assert code == 189 << native["moves"]["TILE_SHIFT"] | native["moves"]["FLIP"]


def test_the_outcome_codes(native: dict[str, Any]) -> None:
    assert native["outcomes"] == {o.name: o.value for o in moves.Outcome}


def test_every_rule_code(native: dict[str, Any]) -> None:
    python = python_codes()
    assert sorted(native["codes"]) == sorted(python), "the code families differ"
    for family, codes in python.items():
        assert native["codes"][family] == codes, f"the {family} codes differ"


def test_every_code_constant_of_the_rule_modules_is_in_a_family() -> None:
    """A new family of codes on the Python side must be listed (and so
    compared) here: every upper-case int of rules.py and settle.py is."""
    for module in (rules, settle):
        prefixes = tuple(p for m, p in PREFIXED.values() if m is module)
        strays = [name for name in _int_constants(module) if not name.startswith(prefixes)]
        assert strays == [], f"{module.__name__}: codes in no family: {strays}"


def test_the_table_fields_in_order(native: dict[str, Any]) -> None:
    table = flat.flatten(bones.compile_rules(bones.load_variant("sniff"), 2))
    assert list(table) == ["format", *native["table_fields"], *native["match_fields"]]


def test_the_core_reads_every_field_it_lists(native: dict[str, Any]) -> None:
    for field in native["table_fields"]:
        table = flat.flatten(bones.compile_rules(bones.load_variant("sniff"), 2))
        del table[field]
        with pytest.raises(ValueError, match=f"no field '{field}'"):
            bones_native.Rules(table)
            pytest.fail(f"the native core does not read {field!r}")


def _format_line(kind: str) -> list[str]:
    """The codes of a settle or lead field, as flat.TABLE_FORMAT describes them."""
    found = re.search(rf": {kind} \[([^\]]*)\]", flat.TABLE_FORMAT)
    assert found, kind
    return [part.split()[0] for part in found.group(1).split(",")]


def test_the_settlement_codes_in_order(native: dict[str, Any]) -> None:
    assert native["settle_fields"] == _format_line("settle")
    # the order flatten writes them in: a rule of distinct values, read back
    names = [f.name for f in dataclasses.fields(settle.Settle)]
    values = {name: 10 + i for i, name in enumerate(names)}
    values["doubles_lose"] = True
    codes = flat._settlement(settle.Settle(**values))
    by_value = {int(v): k for k, v in values.items()}
    assert [by_value[c] for c in codes] == native["settle_fields"]


def test_the_lead_codes_in_order(native: dict[str, Any]) -> None:
    assert native["lead_fields"] == _format_line("lead")
    assert flat._lead(rules.LeadRule(kind=10, arg=11, if_none=12)) == [10, 11, 12]
    assert [f.name for f in dataclasses.fields(rules.LeadRule)] == native["lead_fields"]


def test_the_hand_fields(native: dict[str, Any]) -> None:
    from bones.engine import hand

    assert tuple(native["hand_fields"]) == bones_native.HAND_FIELDS
    kept = [f for f in hand.FIELDS if f not in ("rules", "scores", "voids")]
    assert list(native["hand_fields"]) == kept


def test_streams_and_limits(native: dict[str, Any]) -> None:
    from bones.sim import simulation as sim
    assert native["streams"] == {"DEALS": rng_module.DEALS, "BOTS": rng_module.BOTS,
                                 "LEADS": rng_module.LEADS}
    assert native["match"] == {"MAX_HANDS": match_module.MAX_HANDS,
                               "MAX_REDEALS": match_module._MAX_REDEALS}
    sides = {name.upper(): i for i, name in enumerate(sim._SIDE) if i}
    assert native["sim"] == {"TIME_SAMPLE": sim.TIME_SAMPLE, **sides}
    assert native["TIME_BINS"] == sim.TIME_BINS


def test_the_match_value_unit(native: dict[str, Any]) -> None:
    from bones.bots import matchvalue

    assert native["search"] == {"WIN": matchvalue.WIN}


def test_the_sentinels(native: dict[str, Any]) -> None:
    assert native["sentinels"] == {"UNLIMITED_DRAWS": bounds.UNLIMITED_DRAWS,
                                   "BELOW_ANY_SCORE": bounds.BELOW_ANY_SCORE}


ROOT = Path(__file__).resolve().parent.parent


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, the line's code) of a Python or Rust source, its
    comments and string literals left out, so a docstring may show a
    literal the code may not write."""
    text = path.read_text()
    if path.suffix == ".py":
        lines: dict[int, list[str]] = {}
        skip = {tokenize.COMMENT, tokenize.STRING, tokenize.NL, tokenize.NEWLINE,
                tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER}
        skip |= {getattr(tokenize, name) for name in ("FSTRING_MIDDLE", "TSTRING_MIDDLE")
                 if hasattr(tokenize, name)}
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type not in skip:
                lines.setdefault(tok.start[0], []).append(tok.string)
        return [(n, " ".join(parts)) for n, parts in sorted(lines.items())]
    strings = re.compile(r'"(?:\\.|[^"\\])*"')
    return [(n, strings.sub('""', line).split("//")[0])
            for n, line in enumerate(text.splitlines(), 1)]


def _written_outside(patterns: list[str], homes: set[str]) -> list[str]:
    """Every line of code in bones/ and native/src that writes one of
    ``patterns``, outside the files in ``homes`` (``path:line: code``)."""
    found = []
    sources = [*sorted((ROOT / "bones").rglob("*.py")), *sorted((ROOT / "native" / "src").rglob("*.rs"))]
    for path in sources:
        name = path.relative_to(ROOT).as_posix()
        if name in homes:
            continue
        for number, code in _code_lines(path):
            if any(re.search(p, code) for p in patterns):
                found.append(f"{name}:{number}: {code.strip()}")
    return found


def test_no_sentinel_is_written_out() -> None:
    """``1 << 30`` (unlimited draws) and ``-(1 << 30)`` (below any score)
    are written once per core, where the shared test compares them."""
    homes = {"bones/engine/bounds.py", "native/src/kernel/table.rs"}
    assert _written_outside([r"\b1(?:i64|u64|usize)?\s*<<\s*30\b"], homes) == []


def test_no_move_code_is_shifted_outside_the_move_layout() -> None:
    """Only the module that defines the move layout (in each core) shifts or
    masks a move code: elsewhere ``tile_of``, ``arm_of``, ``play_code`` and
    their names, never a literal 7, 1 or 63."""
    patterns = [r"(<<|>>)\s*7\b", r"&\s*(63|0x3[fF])\b", r">>\s*1\s*\)?\s*&", r"<<\s*1\s*\|"]
    homes = {"bones/engine/moves.py", "native/src/kernel/moves.rs"}
    assert _written_outside(patterns, homes) == []


def test_the_scans_see_code_and_skip_comments_and_strings(tmp_path: Path) -> None:
    py = tmp_path / "a.py"
    py.write_text('"""1 << 30 in a docstring"""\nx = mv >> 7  # >> 7\ny = "& 63"\n')
    assert _code_lines(py) == [(2, "x = mv >> 7"), (3, "y =")]
    rs = tmp_path / "a.rs"
    rs.write_text('/// 1 << 30\nlet t = (mv >> 7) as usize; // mv >> 7\nlet s = "& 63";\n')
    assert [code for _, code in _code_lines(rs)] == ["", "let t = (mv >> 7) as usize; ", 'let s = "";']


def test_the_tree_of_search_has_the_ismcts_defaults(native: dict[str, Any]) -> None:
    # the vector environment's native search opponent grows it with these
    from bones.bots import infer, ismcts, search

    assert native["ismcts"] == {"DEFAULT_EXPLORE": ismcts.DEFAULT_EXPLORE,
                                "DEFAULT_SCALE": ismcts.DEFAULT_SCALE,
                                "DEFAULT_WORLDS": ismcts.DEFAULT_WORLDS,
                                "DEFAULT_TREE_INFER": search.DEFAULT_TREE_INFER,
                                "DEFAULT_TREE_WORLDS": search.DEFAULT_TREE_WORLDS,
                                "POOL_ESS": infer.POOL_ESS,
                                "POOL_DRAWS": infer.POOL_DRAWS,
                                "POOL_SHARE": infer.POOL_SHARE,
                                "TEMPER_STEPS": infer.TEMPER_STEPS}


def test_an_unknown_code_is_a_one_line_error_at_load() -> None:
    base = flat.flatten(bones.compile_rules(bones.load_variant("sniff"), 2))
    table = dict(base, order=99)
    with pytest.raises(ValueError, match=r"^unknown edge order code 99 in the flat table$"):
        bones_native.Rules(table)
    table = dict(base, settle_blocked=[*base["settle_blocked"][:6], 7, *base["settle_blocked"][7:]])
    with pytest.raises(ValueError, match=r"^unknown settlement ties code 7 in the flat table$"):
        bones_native.Rules(table)
