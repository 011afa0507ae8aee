//! The built-in one-move policies that draw nothing (`greedy`) or draw as
//! docs/random.md says (`random`), the same as `bones.bots`.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use crate::kernel::convert::slot;
use crate::kernel::hand::Hand;
use crate::kernel::moves::{arm_of, is_tile_move, tile_of, DRAW, PASS, PLAYING};
use crate::kernel::rng::Rng;
use crate::kernel::table::{Table, BELOW_ANY_SCORE};

impl<const W: usize> Hand<W> {
    /// `policies.points_if`: the points the mover would score by `mv`.
    #[inline(always)]
    pub fn points_if(&self, mv: i64) -> i64 {
        self.points_as(self.turn, mv)
    }

    /// `points_if` as if `seat` were to move (the heuristic judges the
    /// next opponent's replies on the ends as they are). Inlined into the
    /// greedy bot's and the heuristic's loops over the moves (a call a
    /// move, issue 37); the trial of matching-ends points out of line.
    #[inline(always)]
    pub fn points_as(&self, seat: usize, mv: i64) -> i64 {
        if !is_tile_move(mv) {
            return 0;
        }
        let r = &*self.rules;
        let t = &r.t;
        if !t.scores_plays {
            return 0;
        }
        if t.headers {
            return self.points_by_trial(seat, mv);
        }
        self.adjust_points(seat, t.points(self.count_after(mv)))
    }

    /// `points_as` where matching-ends points read the whole layout: the
    /// move played on a copy.
    #[inline(never)]
    fn points_by_trial(&self, seat: usize, mv: i64) -> i64 {
        let mut trial = self.clone();
        trial.record = false;
        trial.log = Vec::new();
        trial.turn = seat;
        trial.apply(mv, None);
        trial.last_points
    }

    /// The points `seat` scores for a count that scores `points` by the
    /// table: as the hand decides it (`play_worth`: the get-in and lead
    /// rules), plus the knock bonus.
    #[inline]
    pub fn adjust_points(&self, seat: usize, points: i64) -> i64 {
        self.play_worth(seat, points, self.placed == 0).unwrap_or(0) + self.knock_points()
    }

    /// `policies._count_after`: the count after `mv`. Where the Python
    /// reference plays a double that becomes a spinner to learn the count,
    /// this computes what `place` would: the new hub covered on one side.
    #[inline(always)]
    fn count_after(&self, mv: i64) -> i64 {
        let r = &*self.rules;
        let t = &r.t;
        let tile = tile_of(mv);
        let double = r.is_double[tile];
        if self.placed == 0 {
            if !double {
                return r.pips[tile];
            }
            return t.lead_double_mult[0] * i64::from(r.low[tile]);
        }
        let arm = arm_of(mv);
        self.count_on_arm(self.count_without_end(arm), arm, tile)
    }

    /// The count with the open end of `arm` taken away (or its hub's next
    /// side counted): what every tile played on `arm` adds to.
    #[inline(always)]
    pub fn count_without_end(&self, arm: usize) -> i64 {
        if let Some(h) = slot(self.arm_hub[arm]) {
            let k = usize::from(self.hub_k[h]);
            let p = i64::from(self.hub_pip[h]);
            self.count + (self.hub_mult[h][k + 1] - self.hub_mult[h][k]) * p
        } else {
            self.count - i64::from(self.arm_end[arm]) * i64::from(self.arm_weight[arm])
        }
    }

    /// The count after `tile` is played on `arm` (`base`: `count_without_end(arm)`).
    #[inline]
    pub fn count_on_arm(&self, base: i64, arm: usize, tile: usize) -> i64 {
        let r = &*self.rules;
        let t = &r.t;
        let open = self.arm_open[arm];
        let Some(pip) = slot(open) else { unreachable!("a play on a closed arm") };
        if !r.is_double[tile] || self.arm_stub[arm] {
            return base + r.other_half(tile, pip);
        }
        double_on_arm(t, self.first_double_seen, base, i64::from(open))
    }

    /// `policies.greedy_move`: most points now; ties to the heaviest tile,
    /// then a double; never a voluntary draw or pass while a tile fits.
    pub fn greedy_move(&self, legal: &[i64]) -> i64 {
        if legal.len() == 1 {
            return legal[0];
        }
        let r = &*self.rules;
        let mut best = -1i64;
        let mut best_key = (BELOW_ANY_SCORE, 0i64, false);
        for &mv in legal {
            if !is_tile_move(mv) {
                continue;
            }
            let tile = tile_of(mv);
            let key = (self.points_if(mv), r.pips[tile], r.is_double[tile]);
            if key > best_key {
                best_key = key;
                best = mv;
            }
        }
        if best >= 0 {
            return best;
        }
        if legal.contains(&DRAW) {
            DRAW
        } else {
            PASS
        }
    }

    /// Play the hand to its end: `greedy` (draws nothing) or `random` (one
    /// move alone is played without a draw, else `choice(legal)`).
    pub fn playout(&mut self, greedy: bool, rng: &mut Rng, max_moves: usize) -> bool {
        let mut legal = Vec::with_capacity(32);
        for _ in 0..max_moves {
            if self.state != PLAYING {
                return true;
            }
            self.legal_moves_into(&mut legal);
            if legal.is_empty() {
                return false;
            }
            let mv = if legal.len() == 1 {
                legal[0]
            } else if greedy {
                self.greedy_move(&legal)
            } else {
                legal[rng.index(legal.len())]
            };
            self.apply(mv, None);
        }
        self.state != PLAYING
    }

    /// Move-path counts ("perft"): sequences of `depth` moves, a sequence
    /// that ends the hand early counting as one leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.state != PLAYING {
            return 1;
        }
        let legal = self.legal_moves();
        let mut total = 0;
        for mv in legal {
            let mut child = self.clone();
            child.record = false;
            child.log = Vec::new();
            child.apply(mv, None);
            total += child.perft(depth - 1);
        }
        total
    }
}

/// `count_on_arm` of a double on an arm that is no stub, open on `open`,
/// its share of the count `base`: a new spinner covered on the side it
/// arrived by, or a double laid in line.
#[inline]
pub(crate) fn double_on_arm(t: &Table, first_double_seen: bool, base: i64, open: i64) -> i64 {
    if t.spins_later[usize::from(first_double_seen)] {
        return base + t.spinner_mult[1] * open;
    }
    base + open * t.double_weight
}
