//! The `epimc` bot (`bones.bots.epimc.EpimcBot`): extended perfect
//! information Monte Carlo, a determinized search that makes the
//! searcher's *next* decision once per information set instead of once per
//! world, taking exactly the same draws as the Python reference.
//!
//! Used where every world can be solved exactly (nothing left to draw, few
//! tiles in the hands; elsewhere the Python bot hands the position to
//! `search`). It deals `iterations` worlds agreeing with the view, each
//! weighted by the inference (`infer.rs`) as `search` weighs them. For every
//! candidate move and world, the other seats reply as the exact solver says
//! (an opponent minimises, a partner maximises) until the searcher's seat is
//! to move again; the moves in between are public, so the worlds with the
//! same replies form one information set of the searcher. There the
//! searcher's move is chosen once for the whole set: the move with the best
//! weighted total of exact values over the set's worlds. A candidate's total
//! is the sum over its sets of that best total (plus the worlds in which the
//! hand ends first). `search` instead lets the searcher choose its next move
//! in each world apart, as if it could see the tiles (strategy fusion).

use crate::bots::infer::log_likelihood;
use crate::bots::solve::Solver;
use crate::bots::world::{NoWorld, View};
use crate::kernel::hand::Hand;
use crate::kernel::moves::PLAYING;
use crate::kernel::rng::Rng;
use crate::kernel::table::BELOW_ANY_SCORE;

/// What the search returns: the chosen move and every candidate's total.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub best: i64,
    pub totals: Vec<f64>,
    pub weight: f64,
}

/// The margin of side `me` from `base` in the finished `hand`.
fn margin<const W: usize>(hand: &Hand<W>, base: &[i64], me: usize) -> i64 {
    let mut mine = 0;
    let mut theirs = BELOW_ANY_SCORE;
    for (o, (&a, &b)) in hand.scores.iter().zip(base).enumerate() {
        if o == me {
            mine = a - b;
        } else {
            theirs = theirs.max(a - b);
        }
    }
    mine - theirs
}

/// The first index of the largest (`max`) or smallest value.
fn pick(values: &[i64], max: bool) -> usize {
    let mut at = 0;
    for (i, &v) in values.iter().enumerate() {
        if (max && v > values[at]) || (!max && v < values[at]) {
            at = i;
        }
    }
    at
}

/// Judge the moves of `legal` over `iterations` worlds, every one of which
/// must be solvable (the caller checks).
pub fn epimc<const W: usize>(
    view: &View<W>,
    legal: &[i64],
    iterations: usize,
    infer: f64,
    rng: &mut Rng,
) -> Result<Found, NoWorld> {
    let t = &view.layout.rules.t;
    let me = t.owner[view.seat];
    let mut worlds = Vec::with_capacity(iterations);
    let mut weights = Vec::with_capacity(iterations);
    for _ in 0..iterations.max(1) {
        let world = view.sample_world(rng)?;
        let w = if infer > 0.0 {
            log_likelihood(&world, view.seat, &view.history, infer).exp()
        } else {
            1.0
        };
        worlds.push(world);
        weights.push(w);
    }
    let mut solver = Solver::<W>::default();
    let mut totals = vec![0f64; legal.len()];
    let mut moves = Vec::with_capacity(32);
    // per candidate, the searcher's information sets after it: the replies,
    // and the weighted totals of the searcher's moves there
    let mut sets: Vec<Vec<(Vec<i64>, Vec<f64>)>> = vec![Vec::new(); legal.len()];
    for (world, &w) in worlds.iter().zip(&weights) {
        let base = world.scores.clone();
        // the table is kept for the whole world (the same side and base)
        let mut fresh = true;
        let mut solve = |solver: &mut Solver<W>, h: &Hand<W>, moves: &[i64]| {
            if std::mem::take(&mut fresh) {
                solver.values(h, me, &base, moves)
            } else {
                solver.values_again(h, moves)
            }
        };
        for (i, &mv) in legal.iter().enumerate() {
            let mut h = world.clone();
            h.apply(mv, None);
            let mut replies = Vec::new();
            while h.state == PLAYING && h.turn != view.seat {
                h.legal_moves_into(&mut moves);
                let reply = if moves.len() == 1 {
                    moves[0]
                } else {
                    let values = solve(&mut solver, &h, &moves);
                    moves[pick(&values, t.owner[h.turn] == me)]
                };
                replies.push(reply);
                h.apply(reply, None);
            }
            if h.state != PLAYING {
                totals[i] += w * margin(&h, &base, me) as f64;
                continue;
            }
            h.legal_moves_into(&mut moves);
            let values = solve(&mut solver, &h, &moves);
            let at = match sets[i].iter().position(|(k, _)| *k == replies) {
                Some(at) => at,
                None => {
                    sets[i].push((replies, vec![0f64; moves.len()]));
                    sets[i].len() - 1
                }
            };
            for (sum, v) in sets[i][at].1.iter_mut().zip(values) {
                *sum += w * v as f64;
            }
        }
    }
    for (total, mine) in totals.iter_mut().zip(&sets) {
        for (_, sums) in mine {
            *total += sums.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        }
    }
    let mut best = 0;
    for i in 1..legal.len() {
        if totals[i] > totals[best] {
            best = i;
        }
    }
    Ok(Found { best: legal[best], totals, weight: weights.iter().sum() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::heuristic::Voids;
    use crate::kernel::hand::tests::shuffled_deal;
    use crate::kernel::table::{tests::table, Rules};
    use std::sync::Arc;

    #[test]
    fn a_world_seen_whole_gives_the_solver_value() {
        // with one unseen arrangement left (everything unseen is in the
        // other hand), every world is the true one: the totals are the
        // exact values times the worlds
        let mut tb = table(3, 2);
        tb.hand_size = 5;
        let r = Arc::new(Rules::<1>::new(tb).unwrap());
        let mut solver = Solver::<1>::default();
        for seed in 0..20u64 {
            // the ten tiles of the double-three set, five in each hand
            let h = shuffled_deal(&r, &mut Rng::new(seed), 5);
            let view = View::of(&h, h.turn, &Voids::default());
            assert_eq!(view.unseen, h.hands[1 - h.turn]);
            let legal = h.legal_moves();
            let found = epimc(&view, &legal, 3, 0.0, &mut Rng::new(seed)).unwrap();
            let exact = solver.values(&h, r.t.owner[h.turn], &h.scores, &legal);
            for (total, v) in found.totals.iter().zip(exact) {
                assert_eq!(*total, 3.0 * v as f64, "seed {seed}");
            }
        }
    }
}
