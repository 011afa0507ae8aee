"""Rule decisions found by playing generated variants (docs/language.md).

Each was undefined or unsound before: a positive ``settlement.floor`` lifted
a first gain straight to the floor, so it is refused at its key; a play that
does not get in is worth 0, and a muggins claim on it is judged against 0
(the scenario ``rules-get-in-and-muggins-claims.yaml`` plays that one).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bones.lang.load import VariantError, load_variant


def test_a_floor_above_zero_is_refused_at_its_key(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("extends: all-fives\nname: house\nsettlement:\n  floor: 5\n", encoding="utf-8")
    with pytest.raises(VariantError) as err:
        load_variant(str(path))
    text = str(err.value)
    assert "house.yaml:4:" in text and "settlement.floor" in text


def test_a_floor_of_zero_or_below_is_allowed(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("extends: all-fives\nname: house\nsettlement:\n  floor: 0\n", encoding="utf-8")
    assert load_variant(str(path)).settlement.floor == 0
