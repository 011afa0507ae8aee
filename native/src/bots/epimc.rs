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
use crate::bots::search::{deal, deal_limit, Budget};
use crate::bots::solve::Solver;
use crate::bots::world::{NoWorld, View};
use crate::kernel::hand::Hand;
use crate::kernel::moves::PLAYING;
use crate::kernel::rng::Rng;
use std::collections::HashMap;

/// What the search returns: the chosen move and every candidate's total.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub best: i64,
    pub totals: Vec<f64>,
    pub weight: f64,
    /// whether `Budget::stop` ended the search before its budget
    pub stopped: bool,
}

/// The margin of side `me` from `base` in the finished `hand`.
fn margin<const W: usize>(hand: &Hand<W>, base: &[i64], me: usize) -> i64 {
    crate::bots::margin(&hand.rules.t, &hand.scores, base, me)
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

/// What the solver found in one world for one candidate: its margin where
/// the hand ended before the searcher's next move, else the replies that
/// led there and the values of the searcher's moves there.
#[derive(Clone)]
enum After {
    Ended(i64),
    Set(Vec<i64>, Vec<i64>),
}

/// The candidates of `legal` judged in `world` (the searcher's side `me`,
/// its `seat`), the solver begun for it; None when its solving runs out of
/// positions.
fn judge_world<const W: usize>(
    solver: &mut Solver<W>,
    world: &Hand<W>,
    (me, seat): (usize, usize),
    legal: &[i64],
    moves: &mut Vec<i64>,
) -> Option<Vec<After>> {
    let t = &world.rules.t;
    let mut out = Vec::with_capacity(legal.len());
    for &mv in legal {
        let mut h = world.clone();
        h.apply(mv, None);
        let mut replies = Vec::new();
        while h.state == PLAYING && h.turn != seat {
            h.legal_moves_into(moves);
            let reply = if moves.len() == 1 {
                moves[0]
            } else {
                let values = solver.solve(&h, moves)?;
                moves[pick(&values, t.owner[h.turn] == me)]
            };
            replies.push(reply);
            h.apply(reply, None);
        }
        if h.state != PLAYING {
            out.push(After::Ended(margin(&h, &world.scores, me)));
            continue;
        }
        h.legal_moves_into(moves);
        out.push(After::Set(replies, solver.solve(&h, moves)?));
    }
    Some(out)
}

/// Judge the moves of `legal` over `budget.iterations` worlds (weighted by
/// the inference at `budget.infer`), every one of which must be solvable
/// (the caller checks). A world's solves share `budget.nodes` positions
/// with the other different deals (`search`'s share; worlds with the same
/// deal are judged once); a world whose solving runs out of them is left out
/// of every candidate's total.
pub fn epimc<const W: usize>(
    view: &View<W>,
    legal: &[i64],
    budget: &Budget,
    rng: &mut Rng,
) -> Result<Found, NoWorld> {
    let t = &view.layout.rules.t;
    let me = t.owner[view.seat];
    let mut worlds = Vec::with_capacity(budget.iterations);
    let mut weights = Vec::with_capacity(budget.iterations);
    for _ in 0..budget.iterations.max(1) {
        let world = view.sample_world(rng)?;
        let w = if budget.infer > 0.0 {
            log_likelihood(&world, view.seat, &view.history, budget.infer, budget.draws).exp()
        } else {
            1.0
        };
        worlds.push(world);
        weights.push(w);
    }
    let limit = deal_limit(&worlds, budget);
    let mut solver = Solver::<W>::watching(&budget.stop);
    let mut totals = vec![0f64; legal.len()];
    let mut moves = Vec::with_capacity(32);
    // per candidate, the searcher's information sets after it: the replies,
    // and the weighted totals of the searcher's moves there
    let mut sets: Vec<Vec<(Vec<i64>, Vec<f64>)>> = vec![Vec::new(); legal.len()];
    // each deal's judgement, made once (the same deal is the same world)
    let mut judged_deals: HashMap<Vec<u64>, Option<Vec<After>>> = HashMap::new();
    for (world, &w) in worlds.iter().zip(&weights) {
        if budget.stop.is_set() {
            break;
        }
        let judged = judged_deals.entry(deal(world)).or_insert_with(|| {
            // the table is kept for the whole world (the same side and base)
            solver.begin((me, &world.scores, None), limit);
            judge_world(&mut solver, world, (me, view.seat), legal, &mut moves)
        });
        let Some(judged) = judged.clone() else {
            continue;
        };
        for (i, after) in judged.into_iter().enumerate() {
            let (replies, values) = match after {
                After::Ended(m) => {
                    totals[i] += w * m as f64;
                    continue;
                }
                After::Set(replies, values) => (replies, values),
            };
            let at = match sets[i].iter().position(|(k, _)| *k == replies) {
                Some(at) => at,
                None => {
                    sets[i].push((replies, vec![0f64; values.len()]));
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
    let stopped = budget.stop.is_set();
    Ok(Found { best: legal[best], totals, weight: weights.iter().sum(), stopped })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::heuristic::Voids;
    use crate::bots::rollouts::Policy;
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
            let budget = Budget::new(3, 1, Policy::Heuristic, None, 14, 0.0);
            let found = epimc(&view, &legal, &budget, &mut Rng::new(seed)).unwrap();
            let exact = solver.values(&h, r.t.owner[h.turn], &h.scores, &legal);
            for (total, v) in found.totals.iter().zip(exact) {
                assert_eq!(*total, 3.0 * v as f64, "seed {seed}");
            }
        }
    }
}
