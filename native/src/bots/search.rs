//! The `search` bot (`bones.bots.search.SearchBot`) and the world
//! sampler it draws from (`bones.seat.observation.sample_world`), taking
//! exactly the same draws from the same stream (docs/random.md), so both
//! cores choose the same move and leave the generator in the same state.
//!
//! Each iteration deals the tiles the searcher cannot see at random, within
//! what the history proves (the void bounds of `Observation.limits`), then
//! values every candidate move in that world: exactly (`solve.rs`) when
//! nothing is left to draw and at most `Budget::solve` tiles are in the
//! hands, else by playing the rest of the hand by a fast full-information
//! policy. A candidate's value is the sum over worlds of its side's points
//! from the rest of the hand less the best opposing side's, each world
//! weighted by the likelihood of the other seats' plays in it (`infer.rs`,
//! when `Budget::infer` is not 0); every candidate is judged in the same
//! worlds with the same rollout seeds (common random numbers). `pimc` is
//! this search with `solve` and `infer` 0.

use std::collections::HashMap;
use std::sync::Arc;

use crate::bots::infer::{log_likelihood, DEFAULT_DRAWS};
use crate::bots::matchvalue::MatchTable;
use crate::bots::rollouts::{rollout_move, Policy};
use crate::bots::solve::{solvable, Solver};
use crate::bots::stop::Stop;
use crate::bots::world::{NoWorld, View};
use crate::kernel::codes::Check;
use crate::kernel::hand::Hand;
use crate::kernel::moves::PLAYING;
use crate::kernel::rng::Rng;

/// The most positions a move's exact solving may visit by default
/// (`solve.DEFAULT_NODES`), shared equally by its different deals: a world
/// whose solve would visit more than its share is played out instead.
/// About 0.6 s of CPU natively at the most, where the median move takes
/// milliseconds (docs/bots.md, "A bounded solve", has the measurements).
pub const DEFAULT_NODES: u64 = 2_000_000;

/// What a search returns: the chosen move, every candidate's total value
/// and the worlds sampled.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub best: i64,
    pub totals: Vec<f64>,
    pub iterations: usize,
    /// the sum of the worlds' weights (`iterations` without inference)
    pub weight: f64,
    /// per world, the positions its deal's solve visited: 0 for a world
    /// played out, its share of `Budget::nodes` plus 1 for one whose solve
    /// ran out (and was then played out)
    pub nodes: Vec<u64>,
    /// whether `Budget::stop` ended the search before its budget (the rest
    /// is then what it had: no decision)
    pub stopped: bool,
}

/// The search's budget: `iterations` worlds, or (when `deadline` is given)
/// worlds until the clock passes it, at least one.
#[derive(Clone, Debug)]
pub struct Budget {
    pub iterations: usize,
    pub rollouts: usize,
    pub policy: Policy,
    pub deadline: Option<std::time::Instant>,
    /// worlds with at most this many tiles in the hands and nothing left
    /// to draw are solved exactly instead of played out (0: never)
    pub solve: usize,
    /// the temperature of the inference's model of the other seats (0: every
    /// world weighs the same)
    pub infer: f64,
    /// whether the inference judges the plays made after draws (`idraw`;
    /// false: every world weighs 1 once anybody has drawn)
    pub draws: bool,
    /// threads that judge the sampled worlds (1: the caller's); the worlds
    /// are drawn in one stream and their values summed in world order, so
    /// the result does not depend on it
    pub threads: usize,
    /// the match objective: a finished hand is worth the side's probability
    /// of winning the match (`matchvalue`), None: its points
    pub table: Option<Arc<MatchTable>>,
    /// the most positions the move's solving may visit (0: no limit),
    /// shared equally by its different deals (worlds with the same tiles in
    /// the hands are solved once): a world whose solve would visit more
    /// than its share is played out instead (`world_limit`)
    pub nodes: u64,
    /// the stop the search watches (between worlds, and in the solver)
    pub stop: Stop,
}

impl Budget {
    /// The budget of `iterations` worlds (or until `deadline`) on one
    /// thread, valuing points.
    pub fn new(
        iterations: usize,
        rollouts: usize,
        policy: Policy,
        deadline: Option<std::time::Instant>,
        solve: usize,
        infer: f64,
    ) -> Budget {
        Budget {
            iterations,
            rollouts,
            policy,
            deadline,
            solve,
            infer,
            draws: DEFAULT_DRAWS,
            threads: 1,
            table: None,
            nodes: DEFAULT_NODES,
            stop: Stop::default(),
        }
    }

    /// Whether the search stops after `done` worlds.
    fn done(&self, done: usize) -> bool {
        if self.stop.is_set() {
            return true;
        }
        match self.deadline {
            Some(d) => std::time::Instant::now() >= d,
            None => done >= self.iterations,
        }
    }
}

/// One sampled world and the seeds of its rollouts.
struct Sampled<const W: usize> {
    world: Hand<W>,
    seeds: Vec<u64>,
}

/// A world's contribution: its weight and, per candidate, the terms added
/// to its total (one per rollout, or one for a solved world), in order.
struct Judgement {
    weight: f64,
    terms: Vec<Vec<f64>>,
    /// the positions the world's solve visited (0: not solved)
    nodes: u64,
}

/// The deal of a world: every seat's tiles (the rest of a sampled world is
/// the view's, the same in every world, and what is not in the hands
/// cannot be drawn where a world is solved), so worlds with the same deal
/// have the same solve.
pub(crate) fn deal<const W: usize>(world: &Hand<W>) -> Vec<u64> {
    world.hands[..world.rules.t.players].iter().flat_map(|h| h.0).collect()
}

/// What solving a deal found: the values of the candidates (None: the
/// solve ran out of positions) and the positions it visited.
type Solved = (Option<Vec<i64>>, u64);

/// The most positions the solve of one world may visit when `batch` is
/// every world of the move: `budget.nodes` shared equally by its different
/// solvable deals (at least 1; 0: no limit). With a time budget the worlds
/// are not known in advance, and each may visit `budget.nodes`.
fn world_limit<const W: usize>(batch: &[Sampled<W>], budget: &Budget) -> u64 {
    if budget.deadline.is_some() {
        return budget.nodes;
    }
    let worlds: Vec<&Hand<W>> =
        batch.iter().map(|s| &s.world).filter(|w| solvable(w, budget.solve)).collect();
    deal_limit(&worlds, budget)
}

/// `budget.nodes` shared equally by the different deals of `worlds` (at
/// least 1; 0: no limit).
pub(crate) fn deal_limit<const W: usize, H: std::borrow::Borrow<Hand<W>>>(
    worlds: &[H],
    budget: &Budget,
) -> u64 {
    if budget.nodes == 0 {
        return 0;
    }
    let mut deals: Vec<Vec<u64>> = worlds.iter().map(|w| deal(w.borrow())).collect();
    deals.sort_unstable();
    deals.dedup();
    (budget.nodes / deals.len().max(1) as u64).max(1)
}

/// One judging thread's buffers.
struct Judge<const W: usize> {
    solver: Solver<W>,
    scratch: Vec<i64>,
    counts: Vec<i64>,
    /// the hand the rollouts' heuristic tries its moves in
    play: Option<Hand<W>>,
    /// the deals this judge has solved in this search (a deal is solved
    /// once; the same deal gives the same values, whoever solves it)
    solved: HashMap<Vec<u64>, Solved>,
}

impl<const W: usize> Judge<W> {
    fn new(players: usize, stop: &Stop) -> Self {
        Judge {
            solver: Solver::watching(stop),
            scratch: Vec::with_capacity(32),
            counts: Vec::with_capacity(players),
            play: None,
            solved: HashMap::new(),
        }
    }

    /// The solve of `world` within `limit` positions, once per deal.
    fn solve(
        &mut self,
        world: &Hand<W>,
        me: usize,
        legal: &[i64],
        budget: &Budget,
        limit: u64,
    ) -> Solved {
        let key = deal(world);
        if let Some(got) = self.solved.get(&key) {
            return got.clone();
        }
        let objective = (me, &world.scores[..], budget.table.as_ref());
        let got = (self.solver.within(world, objective, legal, limit), self.solver.nodes);
        self.solved.insert(key, got.clone());
        got
    }

    /// The value for side `me` of a finished `trial` that started from `base`.
    fn outcome(trial: &Hand<W>, me: usize, base: &[i64], budget: &Budget) -> i64 {
        if let Some(t) = &budget.table {
            let penalty = trial.rules.t.check == Check::Penalty;
            return t.value(&trial.scores, me, trial.game_over, trial.winner, penalty);
        }
        crate::bots::margin(&trial.rules.t, &trial.scores, base, me)
    }

    /// Every candidate's terms in one world, its solve within `limit`
    /// positions.
    fn judge(
        &mut self,
        s: &Sampled<W>,
        view: &View<W>,
        legal: &[i64],
        budget: &Budget,
        limit: u64,
    ) -> Judgement {
        if budget.stop.is_set() {
            return Judgement { weight: 0.0, terms: Vec::new(), nodes: 0 };
        }
        let world = &s.world;
        let me = view.layout.rules.t.owner[view.seat];
        let base = &world.scores;
        let weight = if budget.infer > 0.0 {
            log_likelihood(world, view.seat, &view.history, budget.infer, budget.draws).exp()
        } else {
            1.0
        };
        let mut nodes = 0;
        if solvable(world, budget.solve) {
            let (got, visited) = self.solve(world, me, legal, budget, limit);
            nodes = visited;
            if let Some(values) = got {
                let terms =
                    values.into_iter().map(|v| vec![weight * (v * budget.rollouts as i64) as f64]);
                return Judgement { weight, terms: terms.collect(), nodes };
            }
            // out of positions: played out below, as a world that cannot be solved
        }
        let mut terms = Vec::with_capacity(legal.len());
        for &mv in legal {
            let mut row = Vec::with_capacity(s.seeds.len());
            for &seed in &s.seeds {
                let mut trial = world.clone();
                trial.apply(mv, None);
                let mut play_rng = Rng::new(seed);
                while trial.state == PLAYING {
                    let m = rollout_move(
                        &trial,
                        budget.policy,
                        &mut play_rng,
                        &mut self.scratch,
                        &mut self.counts,
                        &mut self.play,
                    );
                    trial.apply(m, None);
                }
                row.push(weight * Self::outcome(&trial, me, base, budget) as f64);
            }
            terms.push(row);
        }
        Judgement { weight, terms, nodes }
    }
}

/// Judges `batch` on `threads` threads (each a contiguous run of worlds),
/// the judgements in world order.
fn judge_all<const W: usize>(
    batch: &[Sampled<W>],
    view: &View<W>,
    legal: &[i64],
    budget: &Budget,
    judges: &mut [Judge<W>],
) -> Vec<Judgement> {
    let limit = world_limit(batch, budget);
    let threads = judges.len().min(batch.len()).max(1);
    if threads == 1 {
        return batch.iter().map(|s| judges[0].judge(s, view, legal, budget, limit)).collect();
    }
    let chunk = batch.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = batch
            .chunks(chunk)
            .zip(judges.iter_mut())
            .map(|(worlds, judge)| {
                scope.spawn(move || {
                    let judged = worlds.iter().map(|s| judge.judge(s, view, legal, budget, limit));
                    judged.collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a search thread panicked")).collect()
    })
}

/// `SearchBot.values`: judge every move of `legal` over sampled worlds.
///
/// The worlds and their rollout seeds are drawn from `rng` one after the
/// other, exactly as with one thread, then judged (on `budget.threads`
/// threads: a whole budget of iterations at once, or batches of one world
/// a thread until the deadline) and summed in world order: the move, the
/// totals and the stream's state do not depend on the threads.
pub fn search<const W: usize>(
    view: &View<W>,
    legal: &[i64],
    budget: &Budget,
    rng: &mut Rng,
) -> Result<Found, NoWorld> {
    let t = &view.layout.rules.t;
    let threads = budget.threads.max(1);
    let mut judges: Vec<Judge<W>> =
        (0..threads).map(|_| Judge::new(t.players, &budget.stop)).collect();
    let mut totals = vec![0f64; legal.len()];
    let mut done = 0usize;
    let mut weights = 0.0f64;
    let mut nodes = Vec::new();
    loop {
        let size = if budget.deadline.is_some() {
            threads
        } else {
            budget.iterations.saturating_sub(done).max(1)
        };
        let mut batch = Vec::with_capacity(size);
        for _ in 0..size {
            let world = view.sample_world(rng)?;
            let seeds = (0..budget.rollouts).map(|_| rng.next_u64()).collect();
            batch.push(Sampled { world, seeds });
        }
        for j in judge_all(&batch, view, legal, budget, &mut judges) {
            weights += j.weight;
            nodes.push(j.nodes);
            for (total, row) in totals.iter_mut().zip(&j.terms) {
                for &term in row {
                    *total += term;
                }
            }
        }
        done += batch.len();
        if budget.done(done) {
            break;
        }
    }
    // the highest total, the first such move on a tie
    let mut best = 0;
    for i in 1..legal.len() {
        if totals[i] > totals[best] {
            best = i;
        }
    }
    let stopped = budget.stop.is_set();
    Ok(Found { best: legal[best], totals, iterations: done, weight: weights, nodes, stopped })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::heuristic::Voids;
    use crate::kernel::hand::tests::shuffled_deal;
    use crate::kernel::table::{tests::table, Rules};
    use std::sync::Arc;

    fn dealt(r: &Arc<Rules<1>>, seed: u64) -> Hand<1> {
        shuffled_deal(r, &mut Rng::new(seed), 5)
    }

    fn budget(policy: Policy) -> Budget {
        Budget::new(5, 1, policy, None, 0, 0.0)
    }

    #[test]
    fn sampled_worlds_agree_with_the_view_and_its_bounds() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        for seed in 0..60 {
            let mut h = dealt(&r, seed);
            let mut voids = Voids::<1>::default();
            let mut rng = Rng::new(seed);
            while h.state == PLAYING {
                let seat = h.turn;
                let view = View::of(&h, seat, &voids);
                let world = view.sample_world(&mut rng).unwrap();
                assert_eq!(world.hands[seat], h.hands[seat]);
                for s in 0..2 {
                    assert_eq!(world.hands[s].count(), h.hands[s].count());
                    for (mask, cap) in &view.limits[s] {
                        assert!(i64::from(world.hands[s].and(mask).count()) <= *cap);
                    }
                }
                // every tile is somewhere, once
                let mut all = world.on_table;
                for s in 0..2 {
                    assert!(!all.intersects(&world.hands[s]));
                    all.or_assign(&world.hands[s]);
                }
                for &b in &world.boneyard[world.bone_pos..] {
                    assert!(!all.has(b as usize));
                    all.set(b as usize);
                }
                let legal = h.legal_moves();
                let mv = if legal.len() == 1 {
                    legal[0]
                } else {
                    let found = search(&view, &legal, &budget(Policy::Greedy), &mut rng).unwrap();
                    assert_eq!(found.iterations, 5);
                    assert!(legal.contains(&found.best));
                    found.best
                };
                voids.before_move(&h, mv);
                h.apply(mv, None);
            }
        }
    }

    #[test]
    fn threads_change_nothing_but_the_speed() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        for seed in 0..6 {
            let h = dealt(&r, 20 + seed);
            let view = View::of(&h, h.turn, &Voids::default());
            let legal = h.legal_moves();
            let mut b = budget(Policy::Heuristic);
            b.iterations = 9;
            b.rollouts = 2;
            b.solve = if seed % 2 == 0 { 14 } else { 0 };
            let mut first = Rng::new(seed);
            let one = search(&view, &legal, &b, &mut first).unwrap();
            for threads in [2, 3, 16] {
                b.threads = threads;
                let mut rng = Rng::new(seed);
                assert_eq!(search(&view, &legal, &b, &mut rng).unwrap(), one);
                assert_eq!(rng.state, first.state);
            }
        }
    }

    #[test]
    fn the_budget_is_shared_by_the_different_deals_each_solved_once() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        let a = dealt(&r, 1);
        let mut b = a.clone();
        b.hands.swap(0, 1);
        let mut shared = budget(Policy::Greedy);
        shared.nodes = 1000;
        assert_eq!(deal_limit(&[&a, &a, &a], &shared), 1000);
        assert_eq!(deal_limit(&[&a, &b, &a], &shared), 500);
        shared.nodes = 1;
        assert_eq!(deal_limit(&[&a, &b], &shared), 1);
        shared.nodes = 0;
        assert_eq!(deal_limit(&[&a, &b], &shared), 0);
        // the worlds of a view whose unseen tiles are all in the other hand
        // (the ten tiles of the double-three set, five a hand) are one
        // deal: solved once, each world reporting its positions
        let mut tb = table(3, 2);
        tb.hand_size = 5;
        let r = Arc::new(Rules::<1>::new(tb).unwrap());
        let h = shuffled_deal(&r, &mut Rng::new(4), 5);
        let view = View::of(&h, h.turn, &Voids::default());
        assert_eq!(view.unseen, h.hands[1 - h.turn]);
        let legal = h.legal_moves();
        let mut b = budget(Policy::Greedy);
        b.solve = 28;
        b.iterations = 7;
        b.nodes = 1_000_000;
        let found = search(&view, &legal, &b, &mut Rng::new(2)).unwrap();
        assert!(found.nodes[0] > 0 && found.nodes.iter().all(|&n| n == found.nodes[0]));
        // and a budget below that one solve plays every world out
        b.nodes = found.nodes[0] - 1;
        let cut = search(&view, &legal, &b, &mut Rng::new(2)).unwrap();
        assert_eq!(cut.nodes, vec![found.nodes[0]; 7]);
        assert_ne!(cut.totals, found.totals);
    }

    #[test]
    fn a_match_table_values_worlds_by_the_match() {
        use crate::bots::matchvalue::WIN;
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        let h = dealt(&r, 3);
        let view = View::of(&h, h.turn, &Voids::default());
        let legal = h.legal_moves();
        // a table that is a certain win whatever the scores: every move is
        // worth one win a world
        let mut b = budget(Policy::Heuristic);
        b.table = Some(Arc::new(MatchTable::new(1, 1, vec![WIN]).unwrap()));
        for solve in [0, 14] {
            b.solve = solve;
            let found = search(&view, &legal, &b, &mut Rng::new(1)).unwrap();
            assert!(found.totals.iter().all(|&t| t == (5 * WIN) as f64), "{found:?}");
        }
    }

    #[test]
    fn the_same_stream_gives_the_same_move_and_state() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        let h = dealt(&r, 11);
        let view = View::of(&h, 0, &Voids::default());
        let legal = h.legal_moves();
        for policy in [Policy::Greedy, Policy::Heuristic, Policy::Random] {
            let (mut a, mut b) = (Rng::new(5), Rng::new(5));
            let x = search(&view, &legal, &budget(policy), &mut a).unwrap();
            let y = search(&view, &legal, &budget(policy), &mut b).unwrap();
            assert_eq!(x, y);
            assert_eq!(a.state, b.state);
        }
    }
}
