//! The specified random stream (docs/random.md): splitmix64, `below` by
//! rejection, Fisher-Yates from the back, and seed derivation. The same
//! draws as `bones.engine.rng`, checked on the shared test vectors.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use crate::kernel::convert::{float53, narrow, wide};

pub const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

#[inline(always)]
fn scramble(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// splitmix64's output for the state `x` (one step from `x - GOLDEN`).
#[inline(always)]
pub fn mix(x: u64) -> u64 {
    scramble(x.wrapping_add(GOLDEN))
}

/// The seed of the stream at `path` under `seed`.
pub fn derive(seed: u64, path: &[u64]) -> u64 {
    let mut h = mix(seed);
    for &p in path {
        h = mix(h ^ p);
    }
    h
}

/// `2^64 mod n` for `n` below 256 (index 0 unused), the threshold of
/// [`Rng::below`]'s rejection, found once instead of by a division a draw.
const THRESHOLDS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut n = 1;
    while n < 256 {
        t[n] = wide(n).wrapping_neg() % wide(n);
        n += 1;
    }
    t
};

/// For each `n` below 256 (index 0 unused): `2^32 mod n`, and Lemire's
/// multiplier `ceil(2^64 / n)` (wrapping: 0 for `n` 1). [`rem_small`] finds
/// `x % n` by them with multiplications where `%` is a 64-bit division
/// (tens of cycles; a Sniff hand draws about 48 times, issue 37).
const REMS: [(u64, u64); 256] = {
    let mut t = [(0u64, 0u64); 256];
    let mut n = 1;
    while n < 256 {
        let d = wide(n);
        t[n] = ((1u64 << 32) % d, (u64::MAX / d).wrapping_add(1));
        n += 1;
    }
    t
};

/// `x % n` for `1 <= n < 256`, exactly: `x` folded to `y = hi * (2^32 mod
/// n) + lo` (below 2^41, the same remainder), then `y % n` as Lemire, Kaser
/// and Kurz's direct remainder (`Faster Remainder by Direct Computation`,
/// 2019): the low 64 bits of `y * ceil(2^64 / n)`, times `n`, shifted down
/// 64 bits: exact for every `y` below 2^(64 - 8).
#[inline(always)]
fn rem_small(x: u64, n: u64) -> u64 {
    let (fold, magic) = REMS[narrow(n)];
    let y = (x >> 32) * fold + (x & 0xFFFF_FFFF);
    let low = magic.wrapping_mul(y);
    let high = (u128::from(low) * u128::from(n)) >> 64;
    // below n, so below 256
    u64::try_from(high).unwrap_or(0)
}

/// 2^-53: the step between the floats `random` draws.
const UNIT: f64 = 1.0 / 9_007_199_254_740_992.0;

#[derive(Clone, Debug)]
pub struct Rng {
    pub state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        scramble(self.state)
    }

    #[inline(always)]
    pub fn random(&mut self) -> f64 {
        float53(self.next_u64() >> 11) * UNIT
    }

    /// An int in `0..n` (n >= 1), unbiased by rejection.
    #[inline(always)]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n >= 1, "below(0)");
        // 2^64 mod n: looked up for the small n of deals and playouts, and
        // the remainder found without a division for them
        if n < wide(THRESHOLDS.len()) {
            let t = THRESHOLDS[narrow(n)];
            loop {
                let x = self.next_u64();
                if x >= t {
                    return rem_small(x, n);
                }
            }
        }
        let t = n.wrapping_neg() % n;
        loop {
            let x = self.next_u64();
            if x >= t {
                return x % n;
            }
        }
    }

    /// An index below `n` (n >= 1): `below(n)`, the same draw.
    #[inline(always)]
    pub fn index(&mut self, n: usize) -> usize {
        narrow(self.below(wide(n)))
    }

    pub fn shuffle<T>(&mut self, a: &mut [T]) {
        let n = a.len();
        self.shuffle_tail(a, n);
    }

    /// The first `k` steps of `shuffle`.
    pub fn shuffle_tail<T>(&mut self, a: &mut [T], k: usize) {
        let n = a.len();
        if n < 2 {
            return;
        }
        let stop = n.saturating_sub(k).max(1);
        if n < THRESHOLDS.len() {
            // every bound below 256 (a set's tiles): the same draws as
            // `index(i + 1)`, the bounds' tables read without a test of the
            // bound a step, the state kept in a register and the swap's
            // partner clamped to `i` (as it is: a draw below `i + 1`), so no
            // index is checked in the loop (a deal's 27 steps, issue 37)
            let mut state = self.state;
            for i in (stop..n).rev() {
                let bound = i + 1;
                let t = THRESHOLDS[bound];
                let x = loop {
                    state = state.wrapping_add(GOLDEN);
                    let x = scramble(state);
                    if x >= t {
                        break x;
                    }
                };
                let j = narrow(rem_small(x, wide(bound))).min(i);
                a.swap(i, j);
            }
            self.state = state;
            return;
        }
        let mut i = n - 1;
        while i >= stop {
            let j = self.index(i + 1);
            a.swap(i, j);
            i -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // the vectors of docs/random.md (tests/data/rng_vectors.json)
    #[test]
    fn next_u64_vectors() {
        let mut r = Rng::new(0);
        let got: Vec<u64> = (0..5).map(|_| r.next_u64()).collect();
        assert_eq!(
            got,
            vec![
                0xe220a8397b1dcdaf,
                0x6e789e6aa1b965f4,
                0x06c45d188009454f,
                0xf88bb8a8724c81ec,
                0x1b39896a51a8749b
            ]
        );
        let mut r = Rng::new(u64::MAX);
        assert_eq!(r.next_u64(), 16490336266968443936);
    }

    #[test]
    fn random_below_shuffle_vectors() {
        let mut r = Rng::new(0);
        assert_eq!(r.random(), 0.8833108082136426);
        let mut r = Rng::new(1);
        let got: Vec<u64> = (0..10).map(|_| r.below(10)).collect();
        assert_eq!(got, vec![5, 9, 0, 5, 1, 8, 5, 3, 0, 0]);
        let mut r = Rng::new(1);
        let got: Vec<usize> = (0..10).map(|_| r.index(10)).collect();
        assert_eq!(got, vec![5, 9, 0, 5, 1, 8, 5, 3, 0, 0]);
        let mut r = Rng::new(3);
        assert_eq!(r.below(9223372036854775809), 3694763184872335752);
        let mut a: Vec<u32> = (0..28).collect();
        Rng::new(42).shuffle(&mut a);
        assert_eq!(
            a,
            vec![
                22, 1, 16, 24, 15, 3, 12, 8, 18, 21, 9, 26, 4, 0, 23, 6, 11, 17, 13, 27, 20, 7, 2,
                25, 14, 10, 19, 5
            ]
        );
        let mut a: Vec<u32> = (0..28).collect();
        Rng::new(7).shuffle_tail(&mut a, 3);
        assert_eq!(&a[21..], &[21, 25, 27, 26, 22, 24, 23]);
    }

    #[test]
    fn a_shuffle_is_its_steps_of_index() {
        // the small path (below 256 items) and the other against
        // Fisher-Yates step by step with `index`, whole and in part
        for n in [0usize, 1, 2, 3, 28, 55, 190, 255, 256, 300] {
            for k in [0, 1, 3, 14, n.saturating_sub(1), n, n + 5] {
                let mut a: Vec<u16> = (0..u16::try_from(n).unwrap()).collect();
                let mut b = a.clone();
                let (mut ra, mut rb) = (Rng::new(wide(n * 1000 + k)), Rng::new(wide(n * 1000 + k)));
                ra.shuffle_tail(&mut a, k);
                let stop = n.saturating_sub(k).max(1);
                for i in (stop..n).rev() {
                    let j = rb.index(i + 1);
                    b.swap(i, j);
                }
                assert_eq!(a, b, "{n} items, {k} steps");
                assert_eq!(ra.state, rb.state);
            }
        }
    }

    #[test]
    fn the_small_remainder_is_the_division_s() {
        // every n it serves, on the edges of each 32-bit half and on a
        // million draws of the stream
        let mut r = Rng::new(5);
        let mut xs: Vec<u64> = vec![0, 1, u64::MAX, u64::MAX - 1, 1 << 32, (1 << 32) - 1];
        xs.extend([u64::MAX << 32, 0xFFFF_FFFF_0000_0001, 0x8000_0000_0000_0000]);
        xs.extend((0..4_000).map(|_| r.next_u64()));
        for n in 1..256u64 {
            for &x in &xs {
                assert_eq!(rem_small(x, n), x % n, "{x} % {n}");
            }
            for k in [1u64, 2, 3, 1 << 20] {
                let m = u64::MAX / n / k * n;
                for x in [m, m.wrapping_sub(1), m.wrapping_add(1)] {
                    assert_eq!(rem_small(x, n), x % n, "{x} % {n}");
                }
            }
        }
        for _ in 0..1_000_000 {
            let (x, n) = (r.next_u64(), 1 + r.next_u64() % 255);
            assert_eq!(rem_small(x, n), x % n, "{x} % {n}");
        }
    }

    #[test]
    fn derive_vectors() {
        assert_eq!(derive(0, &[]), 0xe220a8397b1dcdaf);
        assert_eq!(derive(1, &[2]), 0xbcd9dbb49673066b);
        assert_eq!(derive(7, &[1, 1]), 0xca4470043a5e3686);
        assert_eq!(derive(u64::MAX, &[3, (-2i64).cast_unsigned()]), 5186283864435672657);
    }
}
