//! Tile masks of `W` 64-bit words: one word for sets up to double-9 (55
//! tiles), three for double-18 (190 tiles). Tile `t` is bit `t % 64` of word
//! `t / 64`, the order of `bones.engine.tiles`.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use crate::kernel::convert::bit;

/// Tiles a word holds.
const WORD: usize = 64;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Bits<const W: usize>(pub [u64; W]);

impl<const W: usize> Bits<W> {
    pub const ZERO: Self = Bits([0u64; W]);

    #[inline(always)]
    pub fn bit(t: usize) -> Self {
        let mut b = Self::ZERO;
        b.0[t / WORD] = 1u64 << (t % WORD);
        b
    }

    #[inline(always)]
    pub fn has(&self, t: usize) -> bool {
        self.0[t / WORD] >> (t % WORD) & 1 == 1
    }

    #[inline(always)]
    pub fn set(&mut self, t: usize) {
        self.0[t / WORD] |= 1u64 << (t % WORD);
    }

    #[inline(always)]
    pub fn clear(&mut self, t: usize) {
        self.0[t / WORD] &= !(1u64 << (t % WORD));
    }

    #[inline(always)]
    pub fn and(&self, o: &Self) -> Self {
        let mut r = *self;
        for i in 0..W {
            r.0[i] &= o.0[i];
        }
        r
    }

    #[inline(always)]
    pub fn and_not(&self, o: &Self) -> Self {
        let mut r = *self;
        for i in 0..W {
            r.0[i] &= !o.0[i];
        }
        r
    }

    #[inline(always)]
    pub fn or_assign(&mut self, o: &Self) {
        for i in 0..W {
            self.0[i] |= o.0[i];
        }
    }

    #[inline(always)]
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline(always)]
    pub fn intersects(&self, o: &Self) -> bool {
        (0..W).any(|i| self.0[i] & o.0[i] != 0)
    }

    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// How many tiles the mask holds, as an index.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.0.iter().map(|&w| bit(w.count_ones())).sum()
    }

    /// Whether the mask holds no tile (`is_zero`).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.is_zero()
    }

    /// The tiles in the mask, lowest id first.
    #[inline(always)]
    pub fn ones(&self) -> Ones<W> {
        Ones { words: self.0, i: 0 }
    }

    /// The `k`-th tile of the mask (lowest first), if there is one.
    pub fn nth(&self, mut k: u32) -> Option<usize> {
        for i in 0..W {
            let c = self.0[i].count_ones();
            if k < c {
                let mut w = self.0[i];
                for _ in 0..k {
                    w &= w - 1;
                }
                return Some(i * WORD + bit(w.trailing_zeros()));
            }
            k -= c;
        }
        None
    }
}

pub struct Ones<const W: usize> {
    words: [u64; W],
    i: usize,
}

impl<const W: usize> Iterator for Ones<W> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.i < W {
            let w = self.words[self.i];
            if w != 0 {
                self.words[self.i] = w & (w - 1);
                return Some(self.i * WORD + bit(w.trailing_zeros()));
            }
            self.i += 1;
        }
        None
    }

    /// Exact (the bits left), so `collect` allocates once.
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.words[self.i.min(W)..].iter().map(|&w| bit(w.count_ones())).sum();
        (n, Some(n))
    }
}

impl<const W: usize> ExactSizeIterator for Ones<W> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_across_words() {
        let mut b = Bits::<3>::ZERO;
        for t in [0, 63, 64, 130, 189] {
            b.set(t);
        }
        assert_eq!(b.ones().collect::<Vec<_>>(), vec![0, 63, 64, 130, 189]);
        assert_eq!((b.count(), b.len()), (5, 5));
        assert_eq!(b.nth(3), Some(130));
        assert_eq!(b.nth(5), None);
        b.clear(64);
        assert!(!b.has(64) && b.has(63));
        assert!(b.intersects(&Bits::bit(189)));
        assert!(b.and(&Bits::bit(64)).is_zero());
    }
}
