//! The `ismcts` bot (`bones.bots.ismcts.IsmctsBot`): single-observer
//! Information Set Monte Carlo Tree Search (Cowling, Powley and Whitehouse
//! 2012) over the `search` bot's world sampler, taking exactly the same
//! draws as the Python reference, so both cores choose the same move and
//! leave the generator in the same state.
//!
//! One tree over the searcher's information sets: a node is the sequence of
//! moves from the searcher's position (every seat's moves are public; the
//! tiles behind them are not). Each iteration deals one world agreeing with
//! the view (`View::sample_world`), walks the tree with the moves legal in
//! that world (a move not yet tried is expanded, else the child with the
//! best upper confidence bound counted over the iterations it was
//! available), then values the leaf by playing the hand out with a
//! full-information policy, or exactly (`solve.rs`) when nothing is left to
//! draw and few tiles are in the hands and there are two sides. The reward
//! of a side is its points from the rest of the hand less the best other
//! side's, divided by `scale` and clamped to [-1, 1]; each node keeps the
//! rewards of the side that moved into it. The move played is the root's
//! most visited child. Strategy fusion is what this avoids: the searcher's
//! own choices are made once per information set, not once per world.

use crate::bots::heuristic::Hidden;
use crate::bots::infer::{
    heuristic_values, log_likelihood, pool_size, tempered, DEFAULT_DRAWS, POOL_ESS, POOL_SHARE,
};
use crate::bots::margin;
use crate::bots::rollouts::{rollout_move, Policy};
use crate::bots::search::DEFAULT_NODES;
use crate::bots::solve::{solvable, Solver};
use crate::bots::stop::Stop;
use crate::bots::world::{NoWorld, View};
use crate::kernel::moves::PLAYING;
use crate::kernel::rng::Rng;
use crate::kernel::table::Table;

/// `ismcts.DEFAULT_EXPLORE`, `DEFAULT_SCALE` and `DEFAULT_WORLDS`: the
/// knobs of the tree `search` grows where its worlds cannot be solved
/// (a scale of 0: the rules' `tree_scale`, `Config::scale_of`).
pub const DEFAULT_EXPLORE: f64 = 0.7;
pub const DEFAULT_SCALE: f64 = 0.0;
pub const DEFAULT_WORLDS: usize = 200;
/// `search.DEFAULT_TREE_INFER`: the temperature of the inference of the
/// tree `search` grows (its `tinfer`; bench/results/strength-34-11.md).
pub const DEFAULT_TREE_INFER: f64 = 8.0;
/// `search.DEFAULT_TREE_WORLDS`: the worlds in the pool the inference of
/// the tree `search` grows weighs (its `tworlds`).
pub const DEFAULT_TREE_WORLDS: usize = 1000;
/// `ismcts.PRIOR_TAU`: the temperature of the softmax of the heuristic's
/// move values that makes the tree's prior.
pub const PRIOR_TAU: f64 = 8.0;

/// How the root's move is chosen in each iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// the upper confidence bound, as at every other node (a bot's search:
    /// the most promising moves get the iterations)
    Bound,
    /// the root's legal moves in turn, in their order, so every move gets
    /// the same number of iterations (within one) and an estimate as good
    /// as the others' (the analysis's judgement of every move); no draw.
    /// The root's moves then sum their margins in points, unclamped.
    Even,
}

/// The budget and knobs of one search.
#[derive(Clone, Debug)]
pub struct Config {
    /// iterations (one world each), or until `deadline` passes (at least one)
    pub iterations: usize,
    pub deadline: Option<std::time::Instant>,
    /// how playouts play
    pub policy: Policy,
    /// the exploration constant of the upper confidence bound
    pub explore: f64,
    /// the weight of the heuristic's prior (0: none): the untried move the
    /// walk adds is the one the heuristic values most for the mover in the
    /// iteration's world, each child keeps its share of a softmax (at
    /// `PRIOR_TAU`) of those values, and the bound gains
    /// `prior * share * sqrt(availability) / (1 + visits)`
    pub prior: f64,
    /// points of margin worth a reward of 1 (0: the rules' `tree_scale`)
    pub scale: f64,
    /// leaves with at most this many tiles in the hands, nothing left to
    /// draw and two sides are solved exactly (0: never)
    pub solve: usize,
    /// the temperature of the inference's model of the other seats (0: every
    /// iteration deals a fresh world): worlds are then drawn from a pool of
    /// `worlds` dealt first, each in proportion to how likely it makes the
    /// plays the other seats made (`infer.rs`)
    pub infer: f64,
    pub worlds: usize,
    /// whether the inference judges the plays made after draws (`infer.rs`)
    pub draws: bool,
    /// the most moves the tree holds below the root (0: no limit); deeper
    /// the walk stops and the leaf is valued
    pub depth: usize,
    /// how the root's move is chosen
    pub root: Root,
    /// trees grown side by side, each on its own thread from its own seed
    /// with a share of the iterations, their roots' counts added
    /// (`in_trees`; 1: one tree, from the caller's stream)
    pub trees: usize,
    /// with the root's moves in turn, the turn the first iteration takes
    /// (a tree of several grown side by side starts where the one before it
    /// ends, so together they take the root's moves in turn)
    pub first: usize,
    /// the most positions the move's solving may visit (0: no limit),
    /// shared equally by its iterations (a leaf each): a leaf whose solve
    /// would visit more than its share is played out instead
    pub nodes: u64,
    /// the stop the search watches (every iteration, and in the solver)
    pub stop: Stop,
}

impl Config {
    /// The points of margin worth a reward of 1 under the rules `t`:
    /// `scale`, or where it is 0 the rules' `tree_scale`
    /// (`ismcts.scale_of`).
    pub fn scale_of(&self, t: &Table) -> f64 {
        if self.scale > 0.0 {
            self.scale
        } else {
            t.tree_scale as f64
        }
    }

    /// The tree of `search.SearchBot.tree_bot`: `iterations`, playouts by
    /// `policy`, the other knobs at `search`'s defaults (no solving, the
    /// inference at `DEFAULT_TREE_INFER` from a pool of `DEFAULT_TREE_WORLDS`,
    /// no depth limit).
    pub fn tree(iterations: usize, policy: Policy) -> Config {
        Config {
            iterations,
            deadline: None,
            policy,
            explore: DEFAULT_EXPLORE,
            prior: 0.0,
            scale: DEFAULT_SCALE,
            solve: 0,
            infer: DEFAULT_TREE_INFER,
            worlds: DEFAULT_TREE_WORLDS,
            draws: DEFAULT_DRAWS,
            depth: 0,
            root: Root::Bound,
            trees: 1,
            first: 0,
            nodes: DEFAULT_NODES,
            stop: Stop::default(),
        }
    }

    /// The most positions the solve of one leaf may visit (0: no limit).
    pub fn leaf_limit(&self) -> u64 {
        if self.nodes == 0 {
            return 0;
        }
        (self.nodes / self.iterations.max(1) as u64).max(1)
    }

    /// When a tree stops dealing its inference's pool: with a time budget,
    /// once its `POOL_SHARE` has passed (the pool keeps at least one world
    /// and the tree grows in the rest); without one, never (`None`).
    pub fn pool_end(&self) -> Option<std::time::Instant> {
        self.deadline.map(|d| {
            let now = std::time::Instant::now();
            now + d.saturating_duration_since(now).mul_f64(POOL_SHARE)
        })
    }

    /// Whether the pool dealt so far is all a tree may deal before `end`
    /// (`pool_end`).
    pub fn pool_full(end: Option<std::time::Instant>) -> bool {
        end.is_some_and(|end| std::time::Instant::now() >= end)
    }

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

/// A node of the tree: the information set reached by `mv` from its parent.
struct Node {
    mv: i64,
    /// the side that made `mv` (whose rewards `total` sums)
    side: usize,
    visits: f64,
    total: f64,
    /// iterations in which `mv` was legal at the parent
    avail: f64,
    /// the heuristic's share of `mv` where it was added (with a prior)
    prior: f64,
    children: Vec<usize>,
}

impl Node {
    /// A node not yet visited: `mv` made by `side`, legal at its parent in
    /// `avail` iterations so far, with the heuristic's share `prior`.
    fn new(mv: i64, side: usize, avail: f64, prior: f64) -> Node {
        Node { mv, side, visits: 0.0, total: 0.0, avail, prior, children: Vec::new() }
    }
}

/// What the search returns: the chosen move and, for every move of the
/// root's `legal` (in that order), its visits and summed reward.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub best: i64,
    pub visits: Vec<f64>,
    pub totals: Vec<f64>,
    pub iterations: usize,
    /// whether `Config::stop` ended the search before its budget
    pub stopped: bool,
}

impl Found {
    /// The root's choice among `legal` from its moves' `visits` and summed
    /// rewards `totals`: the most visited, then the best total, then the
    /// first; with the root's moves in turn (`Root::Even`), the best mean
    /// (a move never tried last), then the first.
    pub fn chosen(
        legal: &[i64],
        visits: Vec<f64>,
        totals: Vec<f64>,
        iterations: usize,
        root: Root,
        stopped: bool,
    ) -> Found {
        let mean =
            |i: usize| if visits[i] > 0.0 { totals[i] / visits[i] } else { f64::NEG_INFINITY };
        let mut best = 0;
        for i in 1..legal.len() {
            let better = match root {
                Root::Bound => {
                    visits[i] > visits[best]
                        || (visits[i] == visits[best] && totals[i] > totals[best])
                }
                Root::Even => mean(i) > mean(best),
            };
            if better {
                best = i;
            }
        }
        Found { best: legal[best], visits, totals, iterations, stopped }
    }
}

/// Grows `config.trees` trees with `grow` and adds their roots' counts
/// (root parallelism): with one tree (or one iteration), `grow` from the
/// caller's `rng`, exactly as before; else one seed a tree is drawn from
/// `rng`, in order, and tree `i` grows on its own thread from
/// `Rng::new(seed_i)` with its share of the iterations (the first
/// `iterations % trees` one more; each runs to the deadline when there is
/// one), taking the root's moves in turn from where the tree before it
/// ends, every leaf with the same share of the move's positions to solve
/// as in one tree. The counts are added in tree order, so the move, the counts and
/// the stream's state depend on the seed and the number of trees, never on
/// the threads' timing. The first error of a tree, in tree order, is the
/// search's.
pub fn in_trees<E: Send>(
    config: &Config,
    legal: &[i64],
    rng: &mut Rng,
    grow: impl Fn(&Config, &mut Rng) -> Result<Found, E> + Sync,
) -> Result<Found, E> {
    let trees = config.trees.max(1).min(config.iterations.max(1));
    if trees == 1 {
        return grow(config, rng);
    }
    let seeds: Vec<u64> = (0..trees).map(|_| rng.next_u64()).collect();
    let mut configs = Vec::with_capacity(trees);
    let mut first = config.first;
    for i in 0..trees {
        let share = config.iterations / trees + usize::from(i < config.iterations % trees);
        // each leaf keeps the share of the move's positions it had in one
        // tree of every iteration
        let nodes = if config.nodes == 0 { 0 } else { config.leaf_limit() * share as u64 };
        configs.push(Config { iterations: share, first, trees: 1, nodes, ..config.clone() });
        first += share;
    }
    let grown: Vec<Result<Found, E>> = std::thread::scope(|scope| {
        let grow = &grow;
        let handles: Vec<_> = configs
            .iter()
            .zip(&seeds)
            .map(|(c, &seed)| scope.spawn(move || grow(c, &mut Rng::new(seed))))
            .collect();
        handles.into_iter().map(|h| h.join().expect("a search thread panicked")).collect()
    });
    let mut visits = vec![0f64; legal.len()];
    let mut totals = vec![0f64; legal.len()];
    let (mut iterations, mut stopped) = (0usize, false);
    for found in grown {
        let found = found?;
        for (sum, v) in visits.iter_mut().zip(&found.visits) {
            *sum += v;
        }
        for (sum, v) in totals.iter_mut().zip(&found.totals) {
            *sum += v;
        }
        iterations += found.iterations;
        stopped |= found.stopped;
    }
    Ok(Found::chosen(legal, visits, totals, iterations, config.root, stopped))
}

/// Side `side`'s reward from the scores `now` against `base`
/// (`crate::bots::margin`, scaled).
fn reward(t: &Table, now: &[i64], base: &[i64], side: usize, scale: f64) -> f64 {
    (margin(t, now, base, side) as f64 / scale).clamp(-1.0, 1.0)
}

/// With a prior: the move of `untried` the tree opens in `world` (the one
/// the heuristic values most for the mover, the first of `moves`' order on a
/// tie) and its share of the softmax, at `PRIOR_TAU`, of the heuristic's
/// values of `moves` (every move legal there; a pass none, every move the
/// same when none has a value): `ismcts._opened`. `play` is the hand the
/// heuristic tries its moves in, `counts` and `values` scratch.
fn opened<const W: usize>(
    world: &crate::kernel::hand::Hand<W>,
    moves: &[i64],
    untried: &[i64],
    counts: &mut Vec<i64>,
    play: &mut crate::kernel::hand::Hand<W>,
    values: &mut Vec<f64>,
) -> (i64, f64) {
    let r = &*world.rules;
    let seat = world.turn;
    let mut seen = world.hands[seat];
    seen.or_assign(&world.on_table);
    seen.or_assign(&world.out_of_play);
    counts.clear();
    counts.extend((0..r.t.players).map(|s| i64::from(world.hands[s].count())));
    let hidden = Hidden {
        unseen: r.full.and_not(&seen),
        counts: counts.as_slice(),
        drawable: world.drawable() as i64,
    };
    heuristic_values(world, &hidden, moves, play, values);
    let top = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return (untried[0], 1.0 / moves.len() as f64);
    }
    let mut total = 0.0f64;
    for &v in values.iter() {
        total += ((v - top) / PRIOR_TAU).exp();
    }
    let mut best: Option<usize> = None;
    for (i, m) in moves.iter().enumerate() {
        if untried.contains(m) && best.is_none_or(|b| values[i] > values[b]) {
            best = Some(i);
        }
    }
    let b = best.expect("an untried move is legal");
    (moves[b], ((values[b] - top) / PRIOR_TAU).exp() / total)
}

/// Judge the moves of `legal` (the searcher's, in the view's position: all
/// its legal moves, or some of them in their order; the root tries no other)
/// with `config.trees` trees (`in_trees`).
pub fn ismcts<const W: usize>(
    view: &View<W>,
    legal: &[i64],
    config: &Config,
    rng: &mut Rng,
) -> Result<Found, NoWorld> {
    in_trees(config, legal, rng, |c, r| grow(view, legal, c, r))
}

/// One tree of `ismcts`, from `rng`.
fn grow<const W: usize>(
    view: &View<W>,
    legal: &[i64],
    config: &Config,
    rng: &mut Rng,
) -> Result<Found, NoWorld> {
    let t = &view.layout.rules.t;
    let me = t.owner[view.seat];
    let sides = t.owners;
    let scale = config.scale_of(t);
    let mut nodes: Vec<Node> = vec![Node::new(0, me, 0.0, 0.0)];
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut moves: Vec<i64> = Vec::with_capacity(32);
    let mut untried: Vec<i64> = Vec::with_capacity(32);
    let mut scratch: Vec<i64> = Vec::with_capacity(32);
    let mut counts: Vec<i64> = Vec::with_capacity(t.players);
    // the heuristic's values of a node's moves (with a prior)
    let mut values: Vec<f64> = Vec::with_capacity(32);
    // the hand the playouts' heuristic tries its moves in
    let mut play: Option<crate::kernel::hand::Hand<W>> = None;
    let mut solver = Solver::<W>::watching(&config.stop);
    let leaf_limit = config.leaf_limit();
    let mut done = 0usize;
    // the pool of worlds and their cumulative weights (inference only)
    let mut pool = Vec::new();
    let mut cumulative = Vec::new();
    if config.infer > 0.0 {
        let size = pool_size(config.worlds, config.iterations);
        let mut lls = Vec::with_capacity(size);
        let pool_end = config.pool_end();
        for _ in 0..size {
            if config.stop.is_set() {
                break;
            }
            let world = view.sample_world(rng)?;
            lls.push(log_likelihood(&world, view.seat, &view.history, config.infer, config.draws));
            pool.push(world);
            if Config::pool_full(pool_end) {
                break;
            }
        }
        // tempered so that enough of the pool counts (`infer::POOL_ESS`)
        let lam = tempered(&lls, POOL_ESS);
        let top = lls.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let mut sum = 0.0f64;
        for ll in lls {
            sum += (lam * (ll - top)).exp();
            cumulative.push(sum);
        }
    }
    // ln(k) for the availabilities k met so far (the bound's numerator)
    let mut lns: Vec<f64> = vec![f64::NEG_INFINITY];
    // one world and its scores at the start, reused by every iteration
    let mut world = view.layout.clone();
    let mut base: Vec<i64> = Vec::with_capacity(sides);
    loop {
        if pool.is_empty() {
            view.sample_world_into(rng, &mut world)?;
        } else {
            let x = rng.random() * cumulative[cumulative.len() - 1];
            let at = cumulative.iter().position(|&c| x < c).unwrap_or(pool.len() - 1);
            world.clone_from(&pool[at]);
        }
        let seed = rng.next_u64();
        base.clone_from(&world.scores);
        path.clear();
        path.push(0);
        let mut node = 0usize;
        // selection and expansion
        while world.state == PLAYING {
            if config.depth > 0 && path.len() > config.depth {
                break;
            }
            world.legal_moves_into(&mut moves);
            if node == 0 && moves.len() != legal.len() {
                // the root's candidates only: one move a group of twins
                moves.retain(|m| legal.contains(m));
            }
            if node == 0 && config.root == Root::Even {
                // the root's moves in turn: the same in every world (the
                // searcher's own tiles and the table are known)
                let mv = moves[(config.first + done) % moves.len()];
                let child = match nodes[0].children.iter().copied().find(|&c| nodes[c].mv == mv) {
                    Some(c) => c,
                    None => {
                        nodes.push(Node::new(mv, me, 0.0, 0.0));
                        let c = nodes.len() - 1;
                        nodes[0].children.push(c);
                        c
                    }
                };
                nodes[child].avail += 1.0;
                world.apply(mv, None);
                path.push(child);
                node = child;
                continue;
            }
            untried.clear();
            let mut best: Option<(usize, f64)> = None;
            for &m in &moves {
                let found = nodes[node].children.iter().copied().find(|&c| nodes[c].mv == m);
                match found {
                    None => untried.push(m),
                    Some(c) => {
                        nodes[c].avail += 1.0;
                        let n = &nodes[c];
                        // ln of a whole number of iterations, each found once
                        let a = n.avail as usize;
                        while lns.len() <= a {
                            lns.push((lns.len() as f64).ln());
                        }
                        let mut score =
                            n.total / n.visits + config.explore * (lns[a] / n.visits).sqrt();
                        if config.prior > 0.0 {
                            score += config.prior * n.prior * n.avail.sqrt() / (1.0 + n.visits);
                        }
                        if best.is_none_or(|(_, s)| score > s) {
                            best = Some((c, score));
                        }
                    }
                }
            }
            if !untried.is_empty() {
                let (mv, share) = if config.prior > 0.0 {
                    let play = play.get_or_insert_with(|| world.clone());
                    opened(&world, &moves, &untried, &mut counts, play, &mut values)
                } else if untried.len() > 1 {
                    (untried[rng.below(untried.len() as u64) as usize], 0.0)
                } else {
                    (untried[0], 0.0)
                };
                let side = t.owner[world.turn];
                nodes.push(Node::new(mv, side, 1.0, share));
                let child = nodes.len() - 1;
                nodes[node].children.push(child);
                path.push(child);
                world.apply(mv, None);
                break;
            }
            let (child, _) = best.expect("a legal move");
            world.apply(nodes[child].mv, None);
            path.push(child);
            node = child;
        }
        // the leaf's value: exact, or a playout
        let mut solved: Option<i64> = None;
        if sides == 2 && solvable(&world, config.solve) {
            world.legal_moves_into(&mut moves);
            // None when out of positions: the leaf is played out
            let values = solver.within(&world, (me, &base, None), &moves, leaf_limit);
            let mine = t.owner[world.turn] == me;
            solved = values
                .and_then(|v| v.into_iter().reduce(|a, b| if mine { a.max(b) } else { a.min(b) }));
        }
        if solved.is_none() {
            let mut play_rng = Rng::new(seed);
            while world.state == PLAYING {
                let m = rollout_move(
                    &world,
                    config.policy,
                    &mut play_rng,
                    &mut scratch,
                    &mut counts,
                    &mut play,
                );
                world.apply(m, None);
            }
        }
        for &i in &path[1..] {
            let side = nodes[i].side;
            // with the root's moves in turn, a root move sums its margins in
            // points (it is not chosen by them): the analysis's values
            let points = config.root == Root::Even && i == path[1];
            let r = match solved {
                Some(v) => {
                    let x = if points { v as f64 } else { (v as f64 / scale).clamp(-1.0, 1.0) };
                    if side == me {
                        x
                    } else {
                        -x
                    }
                }
                None if points => margin(&world.rules.t, &world.scores, &base, side) as f64,
                None => reward(&world.rules.t, &world.scores, &base, side, scale),
            };
            nodes[i].visits += 1.0;
            nodes[i].total += r;
        }
        done += 1;
        if config.done(done) {
            break;
        }
    }
    let mut visits = vec![0f64; legal.len()];
    let mut totals = vec![0f64; legal.len()];
    for &c in &nodes[0].children {
        if let Some(i) = legal.iter().position(|&m| m == nodes[c].mv) {
            visits[i] = nodes[c].visits;
            totals[i] = nodes[c].total;
        }
    }
    Ok(Found::chosen(legal, visits, totals, done, config.root, config.stop.is_set()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::heuristic::Voids;
    use crate::kernel::hand::tests::shuffled_deal;
    use crate::kernel::table::{
        tests::{scored_table, table},
        Rules,
    };
    use std::sync::Arc;

    fn config(solve: usize) -> Config {
        Config {
            iterations: 60,
            deadline: None,
            policy: Policy::Heuristic,
            explore: 0.7,
            // the heuristic's prior with the solving and the inference
            prior: if solve == 0 { 0.0 } else { 1.5 },
            scale: 30.0,
            solve,
            infer: if solve == 0 { 0.0 } else { 8.0 },
            worlds: 20,
            draws: solve != 0,
            depth: solve / 4,
            root: Root::Bound,
            trees: 1,
            first: 0,
            nodes: 0,
            stop: Stop::default(),
        }
    }

    #[test]
    fn every_move_is_legal_and_the_same_stream_gives_the_same_move() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        for seed in 0..20u64 {
            let mut h = shuffled_deal(&r, &mut Rng::new(seed), 5);
            let mut voids = Voids::<1>::default();
            let mut rng = Rng::new(seed);
            while h.state == PLAYING {
                let seat = h.turn;
                let view = View::of(&h, seat, &voids);
                let legal = h.legal_moves();
                let mv = if legal.len() == 1 {
                    legal[0]
                } else {
                    let mut again = Rng::new(rng.state);
                    let c = config((seed % 2) as usize * 10);
                    let found = ismcts(&view, &legal, &c, &mut rng).unwrap();
                    let twice = ismcts(&view, &legal, &c, &mut again).unwrap();
                    assert_eq!(found, twice);
                    assert_eq!(rng.state, again.state);
                    assert_eq!(found.iterations, 60);
                    assert!(legal.contains(&found.best));
                    // every root visit went to a legal move
                    assert_eq!(found.visits.iter().sum::<f64>(), 60.0);
                    found.best
                };
                voids.before_move(&h, mv);
                h.apply(mv, None);
            }
        }
    }

    #[test]
    fn trees_side_by_side_share_the_iterations_and_never_depend_on_timing() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        for seed in 0..8u64 {
            let h = shuffled_deal(&r, &mut Rng::new(seed), 5);
            let view = View::of(&h, h.turn, &Voids::<1>::default());
            let legal = h.legal_moves();
            // one tree: exactly the search from the caller's stream
            let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
            let one = ismcts(&view, &legal, &config(0), &mut a).unwrap();
            assert_eq!(one, grow(&view, &legal, &config(0), &mut b).unwrap());
            assert_eq!(a.state, b.state);
            for (trees, root) in [(2, Root::Bound), (3, Root::Even), (7, Root::Bound)] {
                let c = Config { iterations: 61, trees, root, ..config((seed % 2) as usize * 10) };
                let mut first = Rng::new(seed);
                let found = ismcts(&view, &legal, &c, &mut first).unwrap();
                for _ in 0..3 {
                    let mut again = Rng::new(seed);
                    assert_eq!(ismcts(&view, &legal, &c, &mut again).unwrap(), found);
                    assert_eq!(again.state, first.state);
                }
                // a seed a tree drawn from the stream, and nothing else
                let mut drawn = Rng::new(seed);
                let seeds: Vec<u64> = (0..trees).map(|_| drawn.next_u64()).collect();
                assert_eq!(drawn.state, first.state);
                // the counts are the trees' own, added
                let mut visits = vec![0.0; legal.len()];
                for (i, &s) in seeds.iter().enumerate() {
                    let share = 61 / trees + usize::from(i < 61 % trees);
                    let first = (0..i).map(|j| 61 / trees + usize::from(j < 61 % trees)).sum();
                    let part = Config { iterations: share, trees: 1, first, ..c.clone() };
                    let part = Config { nodes: 0, ..part };
                    let own = grow(&view, &legal, &part, &mut Rng::new(s)).unwrap();
                    for (v, x) in visits.iter_mut().zip(&own.visits) {
                        *v += x;
                    }
                }
                assert_eq!(found.visits, visits);
                assert_eq!(found.iterations, 61);
                assert!(legal.contains(&found.best));
                if root == Root::Even {
                    let most = found.visits.iter().cloned().fold(0.0, f64::max);
                    let least = found.visits.iter().cloned().fold(f64::INFINITY, f64::min);
                    assert!(most - least <= 1.0, "{:?}", found.visits);
                }
            }
        }
    }

    /// A fixed workload for measuring the search's cost (`cargo test --release
    /// -- --ignored workload`, under `valgrind --tool=callgrind` for a count
    /// of instructions that does not depend on the machine's load).
    #[test]
    #[ignore]
    fn workload() {
        let r = Arc::new(Rules::<1>::new(scored_table(6, 2)).unwrap());
        let mut moves = 0;
        for seed in 0..6u64 {
            let h = shuffled_deal(&r, &mut Rng::new(seed), 5);
            let view = View::of(&h, h.turn, &Voids::<1>::default());
            let legal = h.legal_moves();
            // the workload of the earlier measures: a fresh world each iteration
            let c = Config { infer: 0.0, ..Config::tree(2000, Policy::Heuristic) };
            moves += ismcts(&view, &legal, &c, &mut Rng::new(seed)).unwrap().best;
        }
        assert!(moves > 0);
    }

    #[test]
    fn the_even_root_gives_every_move_its_share_and_names_the_best_mean() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        for seed in 0..10u64 {
            let h = shuffled_deal(&r, &mut Rng::new(seed), 5);
            let view = View::of(&h, h.turn, &Voids::<1>::default());
            let legal = h.legal_moves();
            let c = Config { iterations: 61, root: Root::Even, ..config(0) };
            let found = ismcts(&view, &legal, &c, &mut Rng::new(seed)).unwrap();
            let n = legal.len();
            for (i, &v) in found.visits.iter().enumerate() {
                // the moves in turn: the first 61 % n get one more
                let share = (61 / n + usize::from(i < 61 % n)) as f64;
                assert_eq!(v, share, "move {i} of {n}");
            }
            let means: Vec<f64> =
                found.visits.iter().zip(&found.totals).map(|(v, t)| t / v).collect();
            let top = means.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let first = means.iter().position(|&m| m == top).unwrap();
            assert_eq!(found.best, legal[first]);
        }
    }
}
