//! The exact solver of one sampled world (`bones.engine.bots.solve`): the
//! rest of a hand played by both sides with every tile in sight, valued by
//! minimax (the searcher's side maximises, every other side minimises) of
//! the searcher's side's points from the rest of the hand less the best
//! opposing side's (plays and settlement), the value the rollouts estimate.
//!
//! A world is solved only when nothing is left to chance in it: no tile can
//! be drawn any more (the table draws none, or the boneyard is spent), so
//! the hand is a finite game of perfect information, and only when the
//! tiles in the hands are few enough (`limit`). Alpha-beta with a
//! transposition table keyed by everything that decides the rest of the
//! hand (the hands, the layout's open ends and count, the turn, the passes
//! and the scores); values are exact, so any other correct solver (the
//! Python reference is plain memoised minimax) finds the same numbers.

use std::collections::HashMap;
use std::sync::Arc;

use crate::bots::matchvalue::MatchTable;
use crate::bots::stop::Stop;
use crate::kernel::codes::Check;
use crate::kernel::hand::Hand;
use crate::kernel::moves::{tile_of, PLAYING};

/// The most entries a solve's transposition table holds (`solve.TT_CAP`):
/// once full, it stores no new position (one already there is updated),
/// so its memory stays under about 30 MB a solver however long the solve,
/// and both cores visit the same positions.
pub const TT_CAP: usize = 1 << 19;

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

/// Whether `world` may be solved exactly: no draw can happen any more and
/// at most `limit` tiles are in the hands.
pub fn solvable<const W: usize>(world: &Hand<W>, limit: usize) -> bool {
    if limit == 0 || world.state != PLAYING {
        return false;
    }
    let t = &world.rules.t;
    if t.max_draws != 0 && world.drawable() != 0 {
        return false;
    }
    let held: u32 = world.hands[..t.players].iter().map(|h| h.count()).sum();
    held as usize <= limit
}

/// Solves worlds; its buffers (the transposition table, one hand per
/// depth) are reused from world to world.
pub struct Solver<const W: usize> {
    tt: HashMap<u64, (i64, u8)>,
    stack: Vec<Hand<W>>,
    moves: Vec<Vec<i64>>,
    base: Vec<i64>,
    me: usize,
    /// the match objective (None: points)
    table: Option<Arc<MatchTable>>,
    /// positions visited by the last solve (`values_for`; `values_again`
    /// adds to it), every call of the minimax counted, the leaves and the
    /// table's hits included: the Python reference counts the same
    pub nodes: u64,
    /// the most positions a solve may visit (0: no limit)
    limit: u64,
    /// whether the solve under way has visited more than `limit` (or was
    /// stopped)
    out: bool,
    /// the search's stop, looked at every `Stop::EVERY` positions: once set,
    /// every solve ends at once as if out of positions
    stop: Stop,
}

impl<const W: usize> Default for Solver<W> {
    fn default() -> Self {
        Solver {
            tt: HashMap::new(),
            stack: Vec::new(),
            moves: Vec::new(),
            base: Vec::new(),
            me: 0,
            table: None,
            nodes: 0,
            limit: 0,
            out: false,
            stop: Stop::default(),
        }
    }
}

#[inline(always)]
fn mix(h: u64, v: u64) -> u64 {
    (h ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
}

fn key<const W: usize>(h: &Hand<W>) -> u64 {
    let t = &h.rules.t;
    let mut k = 0x51_7C_C1_B7_27_22_0A_95u64;
    for s in 0..t.players {
        for w in h.hands[s].0 {
            k = mix(k, w);
        }
    }
    for w in h.on_table.0 {
        k = mix(k, w);
    }
    for a in 0..h.n_arms {
        let v = (h.arm_open[a] as u8 as u64)
            | (h.arm_end[a] as u8 as u64) << 8
            | (h.arm_weight[a] as u8 as u64) << 16
            | (h.arm_hub[a] as u8 as u64) << 24
            | (h.arm_frozen[a] as u8 as u64) << 32
            | (h.arm_side[a] as u64) << 40
            | (h.arm_stub[a] as u64) << 41;
        k = mix(k, v);
    }
    for x in 0..h.n_hubs {
        let v = (h.hub_k[x] as u64)
            | (h.hub_sides_left[x] as u8 as u64) << 8
            | (h.hub_pip[x] as u8 as u64) << 16;
        k = mix(k, v);
    }
    k = mix(k, h.count as u64);
    k = mix(
        k,
        (h.turn as u64)
            | (h.passes as u64) << 8
            | (h.drawn_turn as u64) << 24
            | (h.n_arms as u64) << 32
            | (h.n_hubs as u64) << 40
            | (h.spinners as u64) << 48,
    );
    k = mix(k, h.pot as u64);
    for &s in &h.scores {
        k = mix(k, s as u64);
    }
    let mut flags = 0u64;
    for (i, &g) in h.got_in.iter().enumerate() {
        flags |= (g as u64) << i;
    }
    for s in 0..t.players {
        flags |= (h.out[s] as u64) << (16 + s);
    }
    flags |= (h.first_double_seen as u64) << 40;
    mix(k, flags)
}

impl<const W: usize> Solver<W> {
    /// A solver whose solves end at once when `stop` is set.
    pub fn watching(stop: &Stop) -> Self {
        Solver { stop: stop.clone(), ..Solver::default() }
    }

    /// The exact value for side `me` of every move of `legal` in `world`
    /// (a `solvable` world whose mover is to play one of them), from the
    /// scores `base`: the points of `me` from there to the end of the hand
    /// less the best other side's.
    pub fn values(&mut self, world: &Hand<W>, me: usize, base: &[i64], legal: &[i64]) -> Vec<i64> {
        self.values_for(world, me, base, legal, None)
    }

    /// [`Solver::values`] under an objective: `table` values a finished
    /// hand by the side's probability of winning the match (in parts of
    /// `matchvalue::WIN`) instead of its points (None). The transposition
    /// table is keyed by the scores too, so it stays exact for either.
    pub fn values_for(
        &mut self,
        world: &Hand<W>,
        me: usize,
        base: &[i64],
        legal: &[i64],
        table: Option<&Arc<MatchTable>>,
    ) -> Vec<i64> {
        self.within(world, (me, base, table), legal, 0).expect("a solve without a limit ends")
    }

    /// [`Solver::values_for`] within `limit` positions (0: no limit): None
    /// when the solve would visit more (`nodes` is then `limit` + 1). The
    /// objective is `(me, base, table)`. What the table holds stays exact,
    /// so a solve that ends finds the values an unlimited one finds, and
    /// whether it ends depends only on the world: the Python reference
    /// counts the same positions in the same order.
    pub fn within(
        &mut self,
        world: &Hand<W>,
        objective: (usize, &[i64], Option<&Arc<MatchTable>>),
        legal: &[i64],
        limit: u64,
    ) -> Option<Vec<i64>> {
        self.begin(objective, limit);
        self.solve(world, legal)
    }

    /// Start solving for the objective `(me, base, table)`, `limit`
    /// positions in all (0: no limit) for this and the following
    /// [`Solver::solve`]s, which share the transposition table.
    pub fn begin(
        &mut self,
        (me, base, table): (usize, &[i64], Option<&Arc<MatchTable>>),
        limit: u64,
    ) {
        self.tt.clear();
        self.table = table.cloned();
        self.me = me;
        self.base.clear();
        self.base.extend_from_slice(base);
        self.nodes = 0;
        self.limit = limit;
        self.out = false;
    }

    /// `values` for another position of the same side and base scores,
    /// keeping what the table holds (its entries stay exact bounds, so the
    /// values are the same as `values` finds, found faster).
    pub fn values_again(&mut self, world: &Hand<W>, legal: &[i64]) -> Vec<i64> {
        self.solve(world, legal).expect("a solve without a limit ends")
    }

    /// The values of `legal` in `world` under the objective begun, keeping
    /// what the table holds; None when the positions visited since
    /// [`Solver::begin`] pass its limit (and for every solve after that).
    pub fn solve(&mut self, world: &Hand<W>, legal: &[i64]) -> Option<Vec<i64>> {
        if self.out {
            return None;
        }
        if self.stack.is_empty() {
            self.stack.push(world.clone());
        }
        let mut values = Vec::with_capacity(legal.len());
        for &mv in legal {
            self.stack[0].copy_for_play(world, None);
            self.stack[0].apply(mv, None);
            values.push(self.value(0, i64::MIN + 1, i64::MAX - 1));
            if self.out {
                return None;
            }
        }
        Some(values)
    }

    fn terminal(&self, h: &Hand<W>) -> i64 {
        if let Some(t) = &self.table {
            let penalty = h.rules.t.check == Check::Penalty;
            return t.value(&h.scores, self.me, h.game_over, h.winner, penalty);
        }
        crate::bots::margin(&h.rules.t, &h.scores, &self.base, self.me)
    }

    /// Minimax with alpha-beta of the hand at `self.stack[depth]`.
    fn value(&mut self, depth: usize, mut alpha: i64, mut beta: i64) -> i64 {
        self.nodes += 1;
        if (self.limit != 0 && self.nodes > self.limit)
            || (self.nodes.is_multiple_of(Stop::EVERY) && self.stop.is_set())
        {
            // out of positions (or stopped): every caller returns at once,
            // storing nothing
            self.out = true;
            return 0;
        }
        if self.stack[depth].state != PLAYING {
            return self.terminal(&self.stack[depth]);
        }
        let k = key(&self.stack[depth]);
        if let Some(&(v, flag)) = self.tt.get(&k) {
            match flag {
                EXACT => return v,
                LOWER if v >= beta => return v,
                UPPER if v <= alpha => return v,
                _ => {}
            }
        }
        let (a0, b0) = (alpha, beta);
        while self.moves.len() <= depth {
            self.moves.push(Vec::with_capacity(16));
        }
        while self.stack.len() <= depth + 1 {
            let h = self.stack[0].clone();
            self.stack.push(h);
        }
        let mut legal = std::mem::take(&mut self.moves[depth]);
        {
            let h = &self.stack[depth];
            h.legal_moves_into(&mut legal);
            if legal.len() > 1 {
                // the likeliest best first: the most points now, then the
                // heaviest tile (a tile held at the end counts against)
                let pips = &h.rules.pips;
                legal.sort_by_cached_key(|&mv| {
                    let tile_pips = if mv >= 0 { pips[tile_of(mv)] } else { -1 };
                    (-h.points_if(mv), -tile_pips)
                });
            }
        }
        let maximise = self.stack[depth].rules.t.owner[self.stack[depth].turn] == self.me;
        let mut best = if maximise { i64::MIN } else { i64::MAX };
        for &mv in &legal {
            let (lo, hi) = self.stack.split_at_mut(depth + 1);
            hi[0].copy_for_play(&lo[depth], None);
            hi[0].apply(mv, None);
            let v = self.value(depth + 1, alpha, beta);
            if self.out {
                self.moves[depth] = legal;
                return 0;
            }
            if maximise {
                if v > best {
                    best = v;
                }
                alpha = alpha.max(v);
            } else {
                if v < best {
                    best = v;
                }
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        self.moves[depth] = legal;
        let flag = if best <= a0 {
            UPPER
        } else if best >= b0 {
            LOWER
        } else {
            EXACT
        };
        if self.tt.len() < TT_CAP || self.tt.contains_key(&k) {
            self.tt.insert(k, (best, flag));
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::hand::tests::shuffled_deal;
    use crate::kernel::rng::Rng;
    use crate::kernel::table::{tests::table, Rules, BELOW_ANY_SCORE};
    use std::sync::Arc;

    /// Plain minimax without pruning or table: the reference.
    fn minimax<const W: usize>(h: &Hand<W>, me: usize, base: &[i64]) -> i64 {
        if h.state != PLAYING {
            let mut mine = 0;
            let mut theirs = BELOW_ANY_SCORE;
            for (o, (&a, &b)) in h.scores.iter().zip(base).enumerate() {
                if o == me {
                    mine = a - b;
                } else {
                    theirs = theirs.max(a - b);
                }
            }
            return mine - theirs;
        }
        let maximise = h.rules.t.owner[h.turn] == me;
        let vals = h.legal_moves().into_iter().map(|mv| {
            let mut c = h.clone();
            c.apply(mv, None);
            minimax(&c, me, base)
        });
        if maximise {
            vals.max().unwrap()
        } else {
            vals.min().unwrap()
        }
    }

    #[test]
    fn a_limited_solve_ends_with_the_exact_values_or_not_at_all() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        let mut solver = Solver::<1>::default();
        let mut tried = 0;
        for seed in 0..20u64 {
            let h = shuffled_deal(&r, &mut Rng::new(seed), 5);
            if !solvable(&h, 28) {
                continue;
            }
            let legal = h.legal_moves();
            let me = r.t.owner[h.turn];
            let base = h.scores.clone();
            let exact = solver.values(&h, me, &base, &legal);
            let n = solver.nodes;
            let objective = (me, &base[..], None);
            assert_eq!(solver.within(&h, objective, &legal, n), Some(exact.clone()));
            assert_eq!(solver.nodes, n);
            assert_eq!(solver.within(&h, objective, &legal, n - 1), None, "seed {seed}");
            assert_eq!(solver.nodes, n);
            // once out, every later solve of the same begin is out too
            assert_eq!(solver.solve(&h, &legal), None);
            // a new begin starts again
            assert_eq!(solver.within(&h, objective, &legal, 0), Some(exact));
            tried += 1;
        }
        assert!(tried >= 10);
    }

    #[test]
    fn the_solver_agrees_with_plain_minimax() {
        // 2 players, 4 tiles each from the double-six set, no drawing
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        let mut solver = Solver::<1>::default();
        for seed in 0..40u64 {
            let mut rng = Rng::new(seed);
            let mut h = shuffled_deal(&r, &mut rng, 4);
            // a few random moves first, so some positions are mid-hand
            for _ in 0..(seed % 3) {
                let legal = h.legal_moves();
                h.apply(legal[rng.below(legal.len() as u64) as usize], None);
            }
            if !solvable(&h, 28) {
                continue;
            }
            let legal = h.legal_moves();
            let me = r.t.owner[h.turn];
            let base = h.scores.clone();
            let got = solver.values(&h, me, &base, &legal);
            for (i, &mv) in legal.iter().enumerate() {
                let mut c = h.clone();
                c.apply(mv, None);
                assert_eq!(got[i], minimax(&c, me, &base), "seed {seed} move {mv}");
            }
        }
    }
}
