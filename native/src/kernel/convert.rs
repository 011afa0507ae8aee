//! The kernel's kinds of numbers, and every conversion between them that
//! `From` cannot make, in one place.
//!
//! Seats, tiles, pips, arms and hubs index arrays as `usize`; the layout
//! keeps its pips and its arm and hub indices in `i8` fields (-1: none, as
//! the Python hand's lists hold them), the boneyard and the log keep tile ids
//! and seats in bytes; scores, counts and move codes are `i64`; the random
//! stream draws `u64`. A seat or tile that may be absent is an
//! `Option<usize>`, which the binding shows Python as -1 for `None`.
//!
//! Each function here converts one kind into another where the general
//! conversion could wrap, truncate or lose a sign, and is exact for the
//! kernel's values by the bound it names (checked below at compile time, or
//! by `Table::check`). Every `as` of the kernel is in this module; the
//! modules that use it deny clippy's cast lints.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use crate::kernel::hand::{MAX_ARMS, MAX_HUBS};
use crate::kernel::table::{MAX_PIP, MAX_PLAYERS, MAX_TILES};

// the layout's `i8` fields hold every pip and every arm and hub index
const _: () = assert!(MAX_ARMS <= 127 && MAX_HUBS <= 127 && MAX_PIP <= 127);
// a byte holds every tile id and every seat
const _: () = assert!(MAX_TILES <= 256 && MAX_PLAYERS <= 256);

/// A pip, or an arm or hub index, for one of the layout's `i8` fields:
/// exact, since each is below 128 (the bounds above).
#[inline(always)]
#[expect(clippy::cast_possible_truncation, reason = "below 128")]
pub fn small(n: impl Into<usize>) -> i8 {
    n.into() as i8
}

/// What one of the layout's `i8` fields holds: its pip or index, `None`
/// for -1.
#[inline(always)]
pub fn slot(v: i8) -> Option<usize> {
    usize::try_from(v).ok()
}

/// A tile id (below `MAX_TILES`) or a seat (below `MAX_PLAYERS`) in a byte.
#[inline(always)]
#[expect(clippy::cast_possible_truncation, reason = "below 256")]
pub const fn byte(n: usize) -> u8 {
    n as u8
}

/// A count, a seat or a tile id as the `i64` of scores and move codes:
/// exact, since a kernel count is far below 2^63.
#[inline(always)]
#[expect(clippy::cast_possible_wrap, reason = "far below 2^63")]
pub const fn int(n: usize) -> i64 {
    n as i64
}

/// An index that may be absent as Python holds it: -1 for `None`.
#[inline(always)]
pub fn int_or_none(v: Option<usize>) -> i64 {
    v.map_or(-1, int)
}

/// A field of a move code (`moves::tile_of`, `moves::arm_of`): a shift of a
/// play's code, which is never negative, so exact.
#[inline(always)]
#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a play's field")]
pub const fn field(code: i64) -> usize {
    code as usize
}

/// A length or a bound as the `u64` a random draw is below: exact (a
/// `usize` has at most 64 bits).
#[inline(always)]
pub const fn wide(n: usize) -> u64 {
    n as u64
}

/// A `u64` below a `usize` bound (a draw of `Rng::index`, or a number
/// checked against a table's length first) as an index: exact.
#[inline(always)]
#[expect(clippy::cast_possible_truncation, reason = "below a usize")]
pub const fn narrow(v: u64) -> usize {
    v as usize
}

/// A bit's position in a 64-bit word, or how many bits it has set (at most
/// 64), as an index.
#[inline(always)]
pub const fn bit(n: u32) -> usize {
    n as usize
}

/// 53 random bits as the float they count: exact below 2^53.
#[inline(always)]
#[expect(clippy::cast_precision_loss, reason = "below 2^53")]
pub const fn float53(v: u64) -> f64 {
    v as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_conversion_keeps_the_value_within_its_bound() {
        assert_eq!(small(MAX_ARMS), 40);
        assert_eq!(small(18u8), 18);
        assert_eq!((slot(-1), slot(0), slot(18)), (None, Some(0), Some(18)));
        assert_eq!(byte(MAX_TILES - 1), 191);
        assert_eq!((int(7), int_or_none(None), int_or_none(Some(3))), (7, -1, 3));
        assert_eq!(field(1 << 40), 1 << 40);
        assert_eq!(narrow(wide(usize::MAX)), usize::MAX);
        assert_eq!(bit(u64::MAX.count_ones()), 64);
        assert_eq!(float53((1 << 53) - 1), 9_007_199_254_740_991.0);
    }
}
