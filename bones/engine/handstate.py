"""The state a hand keeps, declared once for both cores.

:data:`HAND_STATE` lists every field of a hand in order: its name, its
kind (which fixes its Python type, how a copy copies it and how the native
core hands it over and reads it back), whether the native kernel keeps it,
whether the code around a hand reads it (the :class:`~bones.engine.handlike.HandLike`
seam), and one line of meaning.  From it come:

* the Python :class:`~bones.engine.hand.Hand`'s slots and its copy;
* the generated module :mod:`bones.engine.handfields` (``tools/generate_native.py``
  writes it): the fields the seam reads, typed, as a protocol; the native
  hand's view of them; and the filling of a Python hand from the native
  kernel's fields in one call;
* the native binding's field list and its readers and writers
  (``native/src/python/hand_fields.rs``, generated alike);
* the flat table format's version (:mod:`bones.engine.flat`), so an
  extension built for other fields is never used.

A new field is one line here, plus what the hand does with it in each core
(``bones/engine/hand.py`` and ``native/src/kernel/hand.rs``) and, for a
native one, its place in the kernel's ``Hand`` struct.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Every kind of hand field: (its Python type, how a copy copies it: ``"="``
#: shares the value, ``"[:]"`` copies the list, ``"?[:]"`` copies a list or None).
HAND_KINDS: dict[str, tuple[str, str]] = {
    "rules": ("Rules", "="),
    "int": ("int", "="),
    "flag": ("bool", "="),
    "mask": ("int", "="),  # a tile mask (bit t for tile t)
    "seat_masks": ("list[int]", "[:]"),  # a tile mask per seat
    "boneyard": ("list[int]", "[:]"),  # tile ids in drawing order (-1: hidden)
    "seat_ints": ("list[int]", "[:]"),
    "seat_flags": ("list[bool]", "[:]"),
    "side_ints": ("list[int]", "[:]"),  # per score owner
    "side_flags": ("list[bool]", "[:]"),
    "arm_ints": ("list[int]", "[:]"),  # per arm of the layout
    "arm_flags": ("list[bool]", "[:]"),
    "hub_ints": ("list[int]", "[:]"),  # per hub of the layout
    "hub_flags": ("list[bool]", "[:]"),
    "hub_vals": ("list[tuple[int, ...]]", "[:]"),  # a hub's count by covered edges
    "hub_mults": ("list[tuple[int, ...]]", "[:]"),
    "hub_cross": ("list[tuple[int, ...]]", "[:]"),  # a hub's cross arms, () for none
    "settlement": ("list[int] | None", "?[:]"),
    "log": ("list[tuple[int, int, int]]", "[:]"),
    "voids": ("list[tuple[int, int, int, int]]", "[:]"),
}


@dataclass(frozen=True)
class HandField:
    """One field of a hand's state."""

    name: str
    kind: str  # a key of HAND_KINDS
    #: the native kernel keeps it (and ``bones_native.Hand.fields`` hands it
    #: over); the others the Python side keeps beside a native hand
    native: bool
    #: the code around a hand reads it (the HandLike seam)
    public: bool
    #: assigned whole from outside (new hands dealt, a reordered boneyard, a
    #: match's scores): ``HandLike`` and the native hand write it by hand
    settable: bool
    meaning: str

    @property
    def python_type(self) -> str:
        return HAND_KINDS[self.kind][0]

    @property
    def copy(self) -> str:
        return HAND_KINDS[self.kind][1]


def _f(name: str, kind: str, meaning: str, *, native: bool = True,
       public: bool = False, settable: bool = False) -> HandField:
    if kind not in HAND_KINDS:  # pragma: no cover - a declaration's typo
        raise ValueError(f"hand field {name}: unknown kind {kind!r}")
    return HandField(name, kind, native, public, settable, meaning)


#: A hand's state, in order.
HAND_STATE: tuple[HandField, ...] = (
    _f("rules", "rules", "the compiled rules (shared by copies)", native=False, public=True),
    _f("hands", "seat_masks", "every seat's tiles", settable=True),
    _f("boneyard", "boneyard", "the boneyard in drawing order", settable=True),
    _f("bone_pos", "int", "the next tile to draw", public=True),
    _f("bone_end", "int", "where drawing stops (the reserve excluded)"),
    _f("out_of_play", "mask", "tiles dealt to nobody and never drawn"),
    _f("arm_open", "arm_ints", "each arm's pip open for play (-1: none)", public=True),
    _f("arm_end", "arm_ints", "each arm's far pip", public=True),
    _f("arm_weight", "arm_ints", "what each arm's end counts its pip (2: a crosswise double)",
       public=True),
    _f("arm_hub", "arm_ints", "the hub an arm still touches (-1: it ends in a tile)", public=True),
    _f("arm_root", "arm_ints", "the hub an arm grew from"),
    _f("arm_side", "arm_flags", "an arm is a long side of its hub"),
    _f("arm_stub", "arm_flags", "an arm is a one-tile stub (the in-line sniff)", public=True),
    _f("arm_frozen", "arm_ints", "the pip an arm waits for before it opens (-1: open)"),
    _f("hub_pip", "hub_ints", "each hub's double", public=True),
    _f("hub_k", "hub_ints", "each hub's covered edges", public=True),
    _f("hub_vals", "hub_vals", "each hub's count by covered edges", public=True),
    _f("hub_mult", "hub_mults", "each hub's multipliers by covered edges"),
    _f("hub_cross", "hub_cross", "each hub's cross arms", public=True),
    _f("hub_sides_left", "hub_ints", "each hub's long sides still uncovered"),
    _f("hub_spins", "hub_flags", "each hub is a spinner", public=True),
    _f("spinners", "int", "spinners on the table"),
    _f("first_double_seen", "flag", "a double has been played"),
    _f("count", "int", "the layout's count", public=True),
    _f("turn", "int", "the seat to move", public=True),
    _f("leader", "int", "the seat that leads", public=True),
    _f("lead_tile", "int", "the tile the leader must lead (-1: any)"),
    _f("lead_doubles_only", "flag", "a lead naming no tile must be a double"),
    _f("placed", "int", "tiles laid", public=True),
    _f("on_table", "mask", "the tiles laid", public=True),
    _f("passes", "int", "passes in a row", public=True),
    _f("drawn_turn", "int", "tiles the player to move has drawn this turn", public=True),
    _f("drawn", "seat_ints", "tiles each seat has drawn"),
    _f("out", "seat_flags", "each seat is out of tiles"),
    _f("scores", "side_ints", "the match's running scores (a native hand's are kept by Python)",
       native=False, settable=True),
    _f("got_in", "side_flags", "each side has scored the get-in amount", public=True),
    _f("state", "int", "how the hand stands (an Outcome)", public=True),
    _f("game_over", "flag", "the match ended in this hand", public=True),
    _f("winner", "int", "the side that won the match (-1: none yet)", public=True),
    _f("domino_seat", "int", "the seat that went out (-1: none)", public=True),
    _f("last_player", "int", "the seat that made the last play (-1: none)", public=True),
    _f("settlement", "settlement", "each side's settlement, once the hand has ended", public=True),
    _f("log", "log", "(seat, move, points scored by the mover) for every move", public=True),
    _f("voids", "voids", "(seat, tiles proven not held, its draws then, the log's length then)",
       native=False, public=True),
    _f("last_points", "int", "what the last move scored", public=True),
    _f("open_mask", "mask", "tiles that fit some open arm"),
    _f("pot", "int", "points tied hands left on the table (ties: carry)", public=True),
    _f("number", "int", "the hand's number in the match (bonuses by hand number)", public=True),
    _f("extra", "int", "the arm of the double that lets the player to move play once more "
       "(turn.after_double; -1: no extra play)", public=True),
    _f("won_by", "int", "the side that won the hand (-1: not over, or nobody)", public=True),
    _f("won_seat", "int", "the seat whose hand won it (-1: none)", public=True),
    _f("bonus", "int", "the end-of-hand bonuses in the winner's settlement (capicua, last tile, "
       "hand number, blocked win)", public=True),
)

#: The hand's field names, in order (the Python hand's slots).
FIELDS: tuple[str, ...] = tuple(f.name for f in HAND_STATE)
#: The fields the native kernel keeps, in ``bones_native.Hand.fields`` order.
NATIVE_FIELDS: tuple[str, ...] = tuple(f.name for f in HAND_STATE if f.native)

__all__ = ["FIELDS", "HAND_KINDS", "HAND_STATE", "NATIVE_FIELDS", "HandField"]
