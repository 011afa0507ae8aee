"""pydantic's validation errors as located problems, in one style for every file.

Loading a variant (:mod:`bones.lang.load`) and loading a scenario
(:mod:`bones.games.scenario`) both validate a YAML node tree against a
pydantic model and hand the errors to :func:`pydantic_problems`, which
returns one :class:`~bones.lang.yamlsource.LocatedProblem` per mistake at
the line and column that wrote it::

    house.yaml:3:3: deal.hand_sise: unknown key 'hand_sise'; did you mean 'hand_size'?

Each error is recognised by pydantic's error *type* (``missing``,
``extra_forbidden``, ``int_parsing``...) and the model type found by walking
its ``loc`` through the root model, never by its message text; a text
pattern is named by the ``forms`` the caller passes (the exact pattern
strings of its models).
"""

from __future__ import annotations

import datetime
import difflib
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from bones.lang.yamlsource import LocatedProblem, YNode

__all__ = ["find", "locate_at", "position", "pydantic_problems", "show_value"]


# ------------------------------------------------------------- locating


def find(tree: YNode, path: tuple[Any, ...]) -> tuple[YNode, YNode | None, bool]:
    """The node at ``path`` (or the deepest written one), its key node, and whether all was found."""
    node, key_node = tree, None
    for el in path:
        if node.kind == "map":
            entry = node.value.get(el)
            if entry is None and isinstance(el, int):
                entry = node.value.get(str(el))
            if entry is not None:
                key_node, node = entry
                continue
        elif node.kind == "seq" and isinstance(el, int) and 0 <= el < len(node.value):
            key_node, node = None, node.value[el]
            continue
        return node, key_node, False
    return node, key_node, True


def position(node: YNode, key_node: YNode | None, at_key: bool = False) -> YNode:
    """Where to point for a problem with a value: the value when it is on the key's line."""
    if at_key and key_node is not None:
        return key_node
    if node.kind == "scalar":
        if node.is_empty and key_node is not None:
            return key_node
        return node
    if not node.block:
        return node
    return key_node if key_node is not None else node


def locate_at(
    node: YNode, key_node: YNode | None, path: tuple[Any, ...], message: str, at_key: bool = False
) -> LocatedProblem:
    at = position(node, key_node, at_key)
    return LocatedProblem(at.file, at.line, at.col, tuple(path), message)


# ------------------------------------------------ types along an error's loc


def _unwrap(tp: Any) -> tuple[Any, list[Any]]:
    meta: list[Any] = []
    while get_origin(tp) is typing.Annotated:
        args = get_args(tp)
        tp = args[0]
        meta.extend(args[1:])
    return tp, meta


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def _kinds_of(model: Any) -> list[str]:
    """The kinds a model of a discriminated union stands for (one model may
    stand for several, as :class:`~bones.lang.spec.DoubleSpinner` does)."""
    f = model.model_fields.get("kind")
    if f is None:
        return []
    return [str(a) for a in get_args(f.annotation)]


def _constraints(meta: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    todo = list(meta)
    while todo:
        item = todo.pop(0)
        inner = getattr(item, "metadata", None)
        if isinstance(inner, list):
            todo.extend(inner)
        for name in ("ge", "gt", "le", "lt", "min_length", "max_length", "pattern"):
            value = getattr(item, name, None)
            if value is not None and name not in out:
                out[name] = value
    return out


@dataclass
class _UnionStep:
    index: int  # the loc index of the member tag
    path: tuple[Any, ...]
    members: list[Any]
    member: Any


@dataclass
class _Walk:
    path: tuple[Any, ...] = ()
    tp: Any = None
    meta: list[Any] = field(default_factory=list)
    model: Any = None  # the model whose field the last step named
    kinds: list[Any] | None = None  # the discriminated union the model was chosen from
    kind: str = ""  # the kind (tag) that chose it
    unions: list[_UnionStep] = field(default_factory=list)
    at_key: bool = False
    unknown_field: bool = False  # the last step named no field of its model
    complete: bool = True


def _member_for_tag(members: list[Any], tag: Any) -> Any:
    tag = str(tag)
    for m in members:
        t, _ = _unwrap(m)
        o = get_origin(t)
        if tag.startswith("dict[") and o is dict:
            return m
        if tag.startswith("list[") and o is list:
            return m
        if tag.startswith("literal[") and o is Literal:
            return m
        if tag in ("int", "constrained-int") and t is int:
            return m
        if tag == "bool" and t is bool:
            return m
        if tag in ("str", "constrained-str") and t is str:
            return m
    return None


def _walk(loc: tuple[Any, ...], root: Any) -> _Walk:
    w = _Walk()
    tp: Any = root
    meta: list[Any] = []
    path: list[Any] = []
    i = 0
    while i < len(loc):
        tp, more = _unwrap(tp)
        meta = meta + more
        el = loc[i]
        if _is_union(tp):
            members = [a for a in get_args(tp) if a is not type(None)]
            if len(members) == 1:
                tp = members[0]
                continue
            if all(_is_model(_unwrap(m)[0]) for m in members):
                chosen = next((m for m in members if el in _kinds_of(_unwrap(m)[0])), None)
                if chosen is None:
                    break
                w.kinds = members
                w.kind = str(el)
                tp, meta = chosen, []
                i += 1
                continue
            chosen = _member_for_tag(members, el)
            if chosen is None:
                break
            w.unions.append(_UnionStep(i, tuple(path), members, chosen))
            tp, meta = chosen, []
            i += 1
            continue
        if _is_model(tp):
            w.model = tp
            f = _field(tp, el) if isinstance(el, str) else None
            path.append(el)
            i += 1
            if f is None:
                w.unknown_field = True
                tp, meta = None, []
                break
            tp, meta = f.annotation, list(f.metadata)
            # a model reached through this field is not from a union any more
            if not _is_union(_unwrap(tp)[0]):
                w.kinds = None
            continue
        origin = get_origin(tp)
        if origin is dict:
            kt, vt = get_args(tp)
            path.append(el)
            if i + 1 < len(loc) and loc[i + 1] == "[key]":
                w.at_key = True
                tp, meta = kt, []
                i += 2
                continue
            tp, meta = vt, []
            i += 1
            continue
        if origin is list:
            path.append(el)
            tp, meta = get_args(tp)[0], []
            i += 1
            continue
        break
    if i < len(loc):
        w.complete = False
        path.extend(x for x in loc[i:] if x != "[key]")
    tp, more = _unwrap(tp)
    if _is_union(tp):
        members = [a for a in get_args(tp) if a is not type(None)]
        if len(members) == 1:
            tp, extra = _unwrap(members[0])
            more = more + extra
    w.path, w.tp, w.meta = tuple(path), tp, meta + more
    return w


def _field(model: Any, key: str) -> Any:
    """A model's field written as ``key`` in a file (its alias, or its name)."""
    for name, f in model.model_fields.items():
        if (f.alias or name) == key or name == key:
            return f
    return None


def _keys(model: Any) -> list[str]:
    """The keys a file may write for a model, in order (aliases, not Python names)."""
    return [f.alias or name for name, f in model.model_fields.items()]


# ---------------------------------------------------------- error messages


def show_value(value: Any, node: YNode | None = None) -> str:
    if node is not None and node.kind == "scalar":
        if node.bool_word:
            return f"{node.text} (read as a boolean)"
        if node.is_empty:
            return "nothing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, (int, float)):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, bytes):
        return "binary data"

    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"a date ({value.isoformat()})"
    return type(value).__name__


def _bool_message(node: YNode) -> str:
    return f"{node.text} is read as a boolean; quote it ('{node.text}') if you meant the word"


def _range_expect(c: dict[str, Any]) -> str:
    lo = c["ge"] if "ge" in c else (c["gt"] + 1 if "gt" in c else None)
    hi = c["le"] if "le" in c else (c["lt"] - 1 if "lt" in c else None)
    if lo is not None and hi is not None:
        return f"{lo} to {hi}"
    if lo is not None:
        return f"at least {lo}"
    return f"at most {hi}"


def _int_expect(c: dict[str, Any]) -> str:
    if not any(k in c for k in ("ge", "gt", "le", "lt")):
        return "an integer"
    text = _range_expect(c)
    return f"an integer from {text}" if " to " in text else f"an integer, {text}"


def _expectation(tp: Any) -> tuple[str, str]:
    """What is wrong with a value that is not a ``tp``, and what was expected:
    ``("not a whole number", "an integer")``, ``("not a list", "a list of 2 numbers")``..."""
    t, meta = _unwrap(tp)
    o = get_origin(t)
    if t is int:
        return "not a whole number", "an integer"
    if t is str:
        return "not text", "text"
    if t is bool:
        return "not true or false", "true or false"
    if o is Literal:
        return "not a valid value", "one of " + ", ".join(str(a) for a in get_args(t))
    if o is dict:
        kt, _ = get_args(t)
        k, kmeta = _unwrap(kt)
        c = _constraints(kmeta)
        if k is int and c.get("ge") == 2 and c.get("le") == 10:
            return "not a mapping", "a mapping of player counts"
        return "not a mapping", "a mapping"
    if o is list:
        c = _constraints(meta)
        item = _unwrap(get_args(t)[0])[0]
        if c.get("min_length") is not None and c.get("min_length") == c.get("max_length"):
            return "not a list", f"a list of {c['min_length']} {'numbers' if item is int else 'items'}"
        return "not a list", "a list of numbers" if item is int else "a list"
    if _is_model(t):
        return "not a mapping", "a mapping"
    return "not valid", str(t)


def _join_or(parts: list[str]) -> str:
    if len(parts) == 1:
        return parts[0]
    sep = ", or " if any("," in p for p in parts) else " or "
    return ", ".join(parts[:-1]) + sep + parts[-1]


def _union_members_take_text(members: list[Any]) -> bool:
    for m in members:
        t, _ = _unwrap(m)
        if t is str or get_origin(t) is Literal:
            return True
    return False


def _matching_member(members: list[Any], value: Any) -> Any:
    for m in members:
        t, _ = _unwrap(m)
        o = get_origin(t)
        if isinstance(value, dict) and (o is dict or _is_model(t)):
            return m
        if isinstance(value, list) and o is list:
            return m
        if isinstance(value, str) and (o is Literal or t is str):
            return m
        if isinstance(value, int) and not isinstance(value, bool) and t is int:
            return m
    return None


def pydantic_problems(
    tree: YNode, errors: Sequence[Any], root: Any, forms: dict[str, tuple[str, str]] | None = None
) -> list[LocatedProblem]:
    """pydantic's errors for the document ``tree`` (validated as the model ``root``) as located problems.

    One problem per mistake, each at the line and column that wrote the value,
    in one style for every file bones reads::

        deal.hand_sise: unknown key 'hand_sise'; did you mean 'hand_size'?

    ``forms`` names the text patterns of ``root``'s fields: ``{pattern:
    (headline, expected)}``, as :data:`bones.lang.spec.FORMS`.
    """
    forms = forms or {}
    out: list[LocatedProblem] = []
    groups: dict[tuple[Any, ...], list[tuple[dict[str, Any], _Walk]]] = {}
    order: list[tuple[str, Any]] = []
    for err in errors:
        w = _walk(tuple(err["loc"]), root)
        if w.unions:
            key = tuple(err["loc"][: w.unions[0].index])
            if key not in groups:
                groups[key] = []
                order.append(("group", key))
            groups[key].append((err, w))
        else:
            order.append(("one", (err, w)))
    for what, item in order:
        if what == "one":
            err, w = item
            out.append(_one_problem(tree, err, w, forms))
            continue
        items = groups[item]
        step = items[0][1].unions[0]
        node, key_node, found = find(tree, step.path)
        value = node.to_plain() if found else items[0][0]["input"]
        member = _matching_member(step.members, value)
        chosen = [(e, w) for e, w in items if member is not None and w.unions[0].member is member]
        if chosen:
            for e, w in chosen:
                leaf = len(e["loc"]) == step.index + 1
                if leaf and e["type"] == "literal_error" and len(step.members) > 1:
                    out.append(_union_problem(step, node, key_node, found, value, e["type"]))
                else:
                    out.append(_one_problem(tree, e, w, forms))
        else:
            out.append(_union_problem(step, node, key_node, found, value, None))
    return out


def _expected_message(headline: str, expected: str, shown: str) -> str:
    """The usual message: ``HEADLINE (expected EXPECTED, got VALUE)``."""
    return f"{headline} (expected {expected}, got {shown})"


def _union_problem(
    step: _UnionStep, node: YNode, key_node: YNode | None, found: bool, value: Any,
    etype: str | None,
) -> LocatedProblem:
    shown = show_value(value, node if found else None)
    if found and node.bool_word and _union_members_take_text(step.members):
        return locate_at(node, key_node, step.path, _bool_message(node))
    expected = _join_or([_expectation(m)[1] for m in step.members])
    if etype == "literal_error" and isinstance(value, str):
        message = f"unknown value {shown} (expected {expected})"
    else:
        message = _expected_message(_expectation(step.members[0])[0], expected, shown)
    return locate_at(node, key_node, step.path, message)


# ------------------------------------------------- one error, one message


@dataclass
class _Error:
    """One pydantic error with what is known about its place (shared by the handlers below)."""

    tree: YNode
    err: dict[str, Any]
    w: _Walk
    forms: dict[str, tuple[str, str]]
    node: YNode = field(init=False)
    key_node: YNode | None = field(init=False)
    found: bool = field(init=False)

    def __post_init__(self) -> None:
        self.node, self.key_node, self.found = find(self.tree, self.w.path)

    @property
    def etype(self) -> str:
        return str(self.err["type"])

    @property
    def ctx(self) -> dict[str, Any]:
        return self.err.get("ctx") or {}

    @property
    def value(self) -> Any:
        return self.err.get("input")

    @property
    def shown(self) -> str:
        return show_value(self.value, self.node if self.found else None)

    @property
    def cons(self) -> dict[str, Any]:
        return _constraints(self.w.meta)

    def at(
        self, message: str, *, at_key: bool = False, where: tuple[Any, ...] | None = None
    ) -> LocatedProblem:
        where = self.w.path if where is None else where
        n, k, _ = find(self.tree, where)
        return locate_at(n, k, where, message, at_key)

    def expected(self, headline: str, expected: str, *, at_key: bool = False) -> LocatedProblem:
        """The usual message: ``HEADLINE (expected EXPECTED, got VALUE)``."""
        return self.at(_expected_message(headline, expected, self.shown), at_key=at_key)


def _one_problem(
    tree: YNode, err: dict[str, Any], w: _Walk, forms: dict[str, tuple[str, str]]
) -> LocatedProblem:
    e = _Error(tree, err, w, forms)
    if w.at_key:
        return _key_problem(e)
    handler = _HANDLERS.get(e.etype)
    if handler is not None:
        problem: LocatedProblem | None = handler(e)
        if problem is not None:
            return problem
    msg = str(err["msg"])
    return e.at(f"{msg[:1].lower()}{msg[1:]} (got {e.shown})")


def _key_problem(e: _Error) -> LocatedProblem:
    """A mapping key of the wrong form (a player count that is not a number...)."""
    if e.found and e.key_node is not None and e.key_node.bool_word:
        return e.at(_bool_message(e.key_node), at_key=True)
    shown = show_value(e.value, e.key_node if e.found else None)
    cons = e.cons
    what = "not a player count" if cons.get("ge") == 2 and cons.get("le") == 10 else "invalid key"
    if e.etype in _INT_ERRORS | _RANGE_ERRORS:
        return e.at(f"{what} (expected {_int_expect(cons)}, got {shown})", at_key=True)
    return e.at(f"invalid key: {e.err['msg']}", at_key=True)


def _missing(e: _Error) -> LocatedProblem:
    return e.at(f"missing required key {e.w.path[-1]!r}", where=e.w.path[:-1])


def _unknown_key(e: _Error) -> LocatedProblem | None:
    if e.etype == "invalid_key" and not e.w.unknown_field:
        return None
    key = e.w.path[-1]
    if e.found and e.key_node is not None and e.key_node.bool_word:
        return e.at(_bool_message(e.key_node), at_key=True)
    model = e.w.model
    names = _keys(model) if model is not None else []
    suggestion = difflib.get_close_matches(str(key), names, n=1, cutoff=0.6)
    if suggestion:
        return e.at(f"unknown key {key!r}; did you mean {suggestion[0]!r}?", at_key=True)
    if e.w.kinds and model is not None:
        users = [
            kind
            for m in e.w.kinds
            if _unwrap(m)[0] is not model and key in _unwrap(m)[0].model_fields
            for kind in _kinds_of(_unwrap(m)[0])
        ]
        if users:
            return e.at(f"unknown key {key!r} for kind {e.w.kind} (used by kind {', '.join(users)})",
                        at_key=True)
    expected = f" (expected one of: {', '.join(names)})" if names else ""
    return e.at(f"unknown key {key!r}{expected}", at_key=True)


def _union_tag(e: _Error) -> LocatedProblem:
    members = [a for a in get_args(e.w.tp) if a is not type(None)] if _is_union(e.w.tp) else []
    kinds = [kind for m in members for kind in _kinds_of(_unwrap(m)[0])]
    expected = f" (expected one of: {', '.join(kinds)})" if kinds else ""
    if e.etype == "union_tag_not_found":
        return e.at(f"missing required key 'kind'{expected}")
    kind_path = e.w.path + ("kind",)
    knode, _, kfound = find(e.tree, kind_path)
    if kfound and knode.bool_word:
        return e.at(_bool_message(knode), where=kind_path)
    tag = knode.to_plain() if kfound else e.ctx.get("tag")
    if not isinstance(tag, str):
        got = show_value(tag, knode if kfound else None)
        return e.at(f"not a valid kind{expected[:-1]}, got {got})", where=kind_path)
    return e.at(f"unknown kind {show_value(tag)}{expected}", where=kind_path)


def _not_a_mapping(e: _Error) -> LocatedProblem:
    tp = e.w.tp
    if _is_union(tp) and all(_is_model(_unwrap(m)[0]) for m in get_args(tp)):
        kinds = [kind for m in get_args(tp) if m is not type(None) for kind in _kinds_of(_unwrap(m)[0])]
        if isinstance(e.value, str) and e.value in kinds:
            return e.expected("not a mapping", f"a mapping such as {{kind: {e.value}}}")
        return e.expected("not a mapping", "a mapping with a kind: key")
    form = getattr(tp, "written_as", None) if _is_model(tp) else None
    if isinstance(form, tuple):
        headline, expected = form
        return e.expected(headline, expected)
    return e.expected("not a mapping", "a mapping of keys")


def _text_problem(e: _Error) -> LocatedProblem | None:
    """A boolean word where text was meant is the most likely mistake; say so first."""
    if e.found and e.node.bool_word:
        return e.at(_bool_message(e.node))
    return None


def _literal(e: _Error) -> LocatedProblem:
    if (p := _text_problem(e)) is not None:
        return p
    choices = [str(a) for a in get_args(e.w.tp)] if get_origin(e.w.tp) is Literal else []
    expected = f"one of: {', '.join(choices)}" if choices else str(e.ctx.get("expected"))
    if not isinstance(e.value, str):
        return e.expected("not a valid value", expected)
    return e.at(f"unknown value {e.shown} (expected {expected})")


def _string(e: _Error) -> LocatedProblem:
    if (p := _text_problem(e)) is not None:
        return p
    return e.expected("not text", "a string")


def _pattern(e: _Error) -> LocatedProblem:
    if (p := _text_problem(e)) is not None:
        return p
    pattern = str(e.ctx.get("pattern", ""))
    if pattern in e.forms:
        headline, expected = e.forms[pattern]
        return e.expected(headline, expected)
    return e.expected("not in the expected form", f"text matching {pattern}")


def _length(e: _Error) -> LocatedProblem:
    cons, ctx = e.cons, e.ctx
    lo, hi = cons.get("min_length"), cons.get("max_length")
    actual = ctx.get("actual_length")
    if lo is not None and lo == hi:
        return e.at(f"wrong length (expected {lo} items, got {actual})")
    if e.etype == "too_short":
        n = ctx.get("min_length")
        return e.at(f"too short (expected at least {n} item{'s' if n != 1 else ''}, got {actual})")
    return e.at(f"too long (expected at most {ctx.get('max_length')} items, got {actual})")


def _value_error(e: _Error) -> LocatedProblem:
    """A model's own check (``raise ValueError(...)`` in a validator): its message as written."""
    error = e.ctx.get("error")
    return e.at(str(error) if error is not None else str(e.err["msg"]))


_INT_ERRORS = frozenset({"int_type", "int_parsing", "int_from_float"})
_RANGE_ERRORS = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal"})

_HANDLERS: dict[str, Any] = {
    "missing": _missing,
    "extra_forbidden": _unknown_key,
    "invalid_key": _unknown_key,
    "union_tag_invalid": _union_tag,
    "union_tag_not_found": _union_tag,
    "model_type": _not_a_mapping,
    "model_attributes_type": _not_a_mapping,
    "dict_type": _not_a_mapping,
    "literal_error": _literal,
    "string_type": _string,
    "string_pattern_mismatch": _pattern,
    "string_too_short": lambda e: e.at("empty (expected at least one character)"),
    "string_too_long": lambda e: e.at(
        f"too long (expected at most {e.ctx.get('max_length')} characters, "
        f"got {len(e.value) if isinstance(e.value, str) else e.shown})"),
    "list_type": lambda e: e.expected(
        "not a list", _expectation(e.w.tp)[1] if get_origin(e.w.tp) is list else "a list"),
    "too_short": _length,
    "too_long": _length,
    **{t: (lambda e: e.expected("not true or false", "true or false"))
       for t in ("bool_type", "bool_parsing")},
    "value_error": _value_error,
    **{t: (lambda e: e.expected("not a whole number", "an integer")) for t in _INT_ERRORS},
    **{t: (lambda e: e.expected("too small", _range_expect(e.cons or e.ctx)))
       for t in ("greater_than", "greater_than_equal")},
    **{t: (lambda e: e.expected("too large", _range_expect(e.cons or e.ctx)))
       for t in ("less_than", "less_than_equal")},
}
