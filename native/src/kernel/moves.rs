//! Moves and hand outcomes as the ints both cores play (`bones.engine.moves`).
//!
//! A play is `tile << TILE_SHIFT | arm << ARM_SHIFT | flip`: the tile id,
//! the index of the arm it is laid on, and (for a lead only) the flip bit
//! that puts the tile's higher half to the W. `DRAW` and `PASS` are
//! negative. This module is the only place that shifts or masks a move
//! code; `tests/test_shared_constants.py` checks every constant here against
//! the Python module.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use crate::kernel::convert::{field, int};

/// The move that draws a tile from the boneyard.
pub const DRAW: i64 = -1;
/// The move that passes the turn.
pub const PASS: i64 = -2;
/// A play's tile id sits above this many bits.
pub const TILE_SHIFT: u32 = 7;
/// A play's arm index sits above the flip bit.
pub const ARM_SHIFT: u32 = 1;
/// The arm field is six bits wide (arms 0 ... 62).
pub const ARM_MASK: i64 = 63;
/// The flip bit of a lead: the tile's higher half goes to the W.
pub const FLIP: i64 = 1;
/// The arm index of a tile placed on no arm.
pub const NO_ARM: i64 = ARM_MASK;

/// How a hand stands (`moves.Outcome`): still playing, or how it ended.
pub const PLAYING: u8 = 0;
/// A seat played its last tile.
pub const DOMINO: u8 = 1;
/// Nobody can move.
pub const BLOCKED: u8 = 2;
/// A score reached the target in the middle of the hand.
pub const TARGET: u8 = 3;

/// The code of laying `tile` on arm `arm`.
#[inline(always)]
pub const fn play_code(tile: usize, arm: usize) -> i64 {
    int(tile) << TILE_SHIFT | int(arm) << ARM_SHIFT
}

/// The code of leading `tile` (unflipped).
#[inline(always)]
pub const fn lead_code(tile: usize) -> i64 {
    int(tile) << TILE_SHIFT
}

/// Whether `mv` lays a tile (rather than drawing or passing).
#[inline(always)]
pub const fn is_tile_move(mv: i64) -> bool {
    mv >= 0
}

/// The tile id a play lays (`mv` must be a play).
#[inline(always)]
pub const fn tile_of(mv: i64) -> usize {
    field(mv >> TILE_SHIFT)
}

/// The arm index a play is laid on (`mv` must be a play).
#[inline(always)]
pub const fn arm_of(mv: i64) -> usize {
    field((mv >> ARM_SHIFT) & ARM_MASK)
}

/// Whether a lead puts the tile's higher half to the W.
#[inline(always)]
pub const fn is_flipped(mv: i64) -> bool {
    mv & FLIP != 0
}

/// `mv` without its flip bit.
#[inline(always)]
pub const fn unflipped(mv: i64) -> i64 {
    mv & !FLIP
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        let mv = play_code(12, 1);
        assert_eq!((tile_of(mv), arm_of(mv), is_flipped(mv)), (12, 1, false));
        let lead = lead_code(189) | FLIP;
        assert_eq!((tile_of(lead), arm_of(lead), is_flipped(lead)), (189, 0, true));
        assert_eq!(unflipped(lead), lead_code(189));
        assert_eq!(arm_of(play_code(3, field(NO_ARM))), 63);
        assert!(!is_tile_move(DRAW) && !is_tile_move(PASS) && is_tile_move(lead_code(0)));
    }
}
