//! The searches on a train layout (`kernel::trains::TrainHand`): the world
//! sampler, the information-set tree (`ismcts`, and `search`'s tree where
//! no world can be solved) and the worlds' rollouts (`pimc`), taking
//! exactly the Python reference's decisions from the same draws
//! (`bones.bots.ismcts.IsmctsBot.python_search`,
//! `bones.bots.search.SearchBot.python_judge`).
//!
//! A train hand records no voids (a player who draws has shown nothing the
//! sampler can bound: every train may be closed to him), so a world is a
//! plain shuffle of the unseen tiles: the other seats' tiles in seat order,
//! then the rest, lowest id first, shuffled into the boneyard's unseen
//! part. No train position is solved exactly (`solve.solvable` says no for
//! a train layout): the tree and the rollouts value every leaf by playing it
//! out. A round's charges count against a side (`Rules.lowest_wins`), which
//! `bots::margin` reads.

use crate::bots::ismcts::{Config, Found as TreeFound, Root};
use crate::bots::margin;
use crate::bots::rollouts::Policy;
use crate::bots::search::{Budget, Found};
use crate::kernel::bits::Bits;
use crate::kernel::moves::PLAYING;
use crate::kernel::rng::Rng;
use crate::kernel::trains::{greedy_move, heuristic_move, TrainHand};

/// One seat's view of a train round: its own tiles, every seat's tile
/// count, the tiles it cannot see, and the public layout (other hands
/// empty, the boneyard's unseen part unknown).
#[derive(Clone)]
pub struct TrainView<const W: usize> {
    pub seat: usize,
    pub own: Bits<W>,
    pub counts: Vec<usize>,
    pub unseen: Bits<W>,
    /// tiles left in the boneyard (the reserve included)
    pub boneyard_left: usize,
    pub layout: TrainHand<W>,
}

impl<const W: usize> TrainView<W> {
    /// `observation.sample_world` of a train hand: the unseen tiles (lowest
    /// id first) shuffled and dealt to the other seats in seat order, the
    /// rest (lowest id first) shuffled into the boneyard's unseen part.
    pub fn sample_world(&self, rng: &mut Rng) -> TrainHand<W> {
        let mut world = self.layout.clone();
        let players = world.rules.t.players;
        let mut tiles: Vec<usize> = self.unseen.ones().collect();
        rng.shuffle(&mut tiles);
        let mut rest = self.unseen;
        let mut pos = 0;
        for s in 0..players {
            world.hands[s] = Bits::ZERO;
            if s == self.seat {
                world.hands[s] = self.own;
                continue;
            }
            for &t in &tiles[pos..pos + self.counts[s]] {
                world.hands[s].set(t);
                rest.clear(t);
            }
            pos += self.counts[s];
        }
        let mut pile: Vec<u8> = rest.ones().map(|t| u8::try_from(t).unwrap_or(u8::MAX)).collect();
        rng.shuffle(&mut pile);
        let start = world.boneyard.len() - self.boneyard_left;
        world.boneyard.truncate(start);
        world.boneyard.extend_from_slice(&pile);
        world
    }
}

/// The rollout policy's move in the full-information train `hand`
/// (`rollouts.POLICIES` as they play a train hand).
fn playout_move<const W: usize>(
    hand: &TrainHand<W>,
    policy: Policy,
    rng: &mut Rng,
    legal: &mut Vec<i64>,
) -> i64 {
    hand.legal_moves_into(legal);
    if legal.len() == 1 {
        return legal[0];
    }
    match policy {
        Policy::Greedy => greedy_move(hand, legal),
        Policy::Heuristic => heuristic_move(hand, legal),
        Policy::Random => legal[rng.index(legal.len())],
    }
}

/// Play `hand` to the round's end by `policy` from `seed`.
fn play_out<const W: usize>(
    hand: &mut TrainHand<W>,
    policy: Policy,
    seed: u64,
    legal: &mut Vec<i64>,
) {
    let mut rng = Rng::new(seed);
    while hand.state == PLAYING {
        let mv = playout_move(hand, policy, &mut rng, legal);
        hand.apply(mv);
    }
}

/// A node of the tree: the move into it, the side that made it, and its
/// statistics (`ismcts._Node`).
struct Node {
    mv: i64,
    side: usize,
    visits: f64,
    total: f64,
    avail: f64,
    children: Vec<(i64, usize)>,
}

impl Node {
    fn new(mv: i64, side: usize, avail: f64) -> Node {
        Node { mv, side, visits: 0.0, total: 0.0, avail, children: Vec::new() }
    }
}

fn child(nodes: &[Node], at: usize, mv: i64) -> Option<usize> {
    nodes[at].children.iter().find(|&&(m, _)| m == mv).map(|&(_, i)| i)
}

/// `IsmctsBot.python_search` on a train round, without inference and
/// without solving (neither plays a train layout): one tree over the
/// seat's information sets, grown over sampled worlds, every leaf played
/// out by `config.policy`.
pub fn tree<const W: usize>(
    view: &TrainView<W>,
    legal: &[i64],
    config: &Config,
    rng: &mut Rng,
) -> TreeFound {
    let t = &view.layout.rules.t;
    let me = t.owner[view.seat];
    let even = config.root == Root::Even;
    let mut nodes = vec![Node::new(0, me, 0.0)];
    let mut done = 0usize;
    let mut moves = Vec::with_capacity(32);
    let mut scratch = Vec::with_capacity(32);
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut untried: Vec<i64> = Vec::with_capacity(32);
    loop {
        if config.stop.is_set() {
            break;
        }
        let mut world = view.sample_world(rng);
        let seed = rng.next_u64();
        let base = world.scores.clone();
        path.clear();
        let mut node = 0usize;
        while world.state == PLAYING {
            if config.depth > 0 && path.len() >= config.depth {
                break;
            }
            world.legal_moves_into(&mut moves);
            if node == 0 && moves.len() != legal.len() {
                moves.retain(|m| legal.contains(m));
            }
            if even && node == 0 {
                let mv = moves[done % moves.len()];
                let c = match child(&nodes, 0, mv) {
                    Some(c) => c,
                    None => {
                        nodes.push(Node::new(mv, me, 0.0));
                        let c = nodes.len() - 1;
                        nodes[0].children.push((mv, c));
                        c
                    }
                };
                nodes[c].avail += 1.0;
                world.apply(mv);
                path.push(c);
                node = c;
                continue;
            }
            untried.clear();
            let mut best: Option<usize> = None;
            let mut best_score = 0.0f64;
            for &mv in &moves {
                let Some(c) = child(&nodes, node, mv) else {
                    untried.push(mv);
                    continue;
                };
                let n = &mut nodes[c];
                n.avail += 1.0;
                let score = n.total / n.visits + config.explore * (n.avail.ln() / n.visits).sqrt();
                if best.is_none() || score > best_score {
                    best = Some(c);
                    best_score = score;
                }
            }
            if !untried.is_empty() {
                let mv =
                    if untried.len() > 1 { untried[rng.index(untried.len())] } else { untried[0] };
                nodes.push(Node::new(mv, t.owner[world.turn], 1.0));
                let c = nodes.len() - 1;
                nodes[node].children.push((mv, c));
                path.push(c);
                world.apply(mv);
                break;
            }
            let c = best.expect("a node with no untried move has children");
            world.apply(nodes[c].mv);
            path.push(c);
            node = c;
        }
        play_out(&mut world, config.policy, seed, &mut scratch);
        for (k, &c) in path.iter().enumerate() {
            let n = &mut nodes[c];
            let gain = margin(t, &world.scores, &base, n.side);
            let r = if even && k == 0 {
                gain as f64
            } else {
                (gain as f64 / config.scale).clamp(-1.0, 1.0)
            };
            n.visits += 1.0;
            n.total += r;
        }
        done += 1;
        let over = match config.deadline {
            Some(d) => std::time::Instant::now() >= d,
            None => done >= config.iterations,
        };
        if over {
            break;
        }
    }
    let mut visits = vec![0.0; legal.len()];
    let mut totals = vec![0.0; legal.len()];
    for (i, &mv) in legal.iter().enumerate() {
        if let Some(c) = child(&nodes, 0, mv) {
            visits[i] = nodes[c].visits;
            totals[i] = nodes[c].total;
        }
    }
    let mean = |i: usize| if visits[i] > 0.0 { totals[i] / visits[i] } else { f64::NEG_INFINITY };
    let mut best = 0;
    for i in 1..legal.len() {
        let better = if even {
            mean(i) > mean(best)
        } else {
            visits[i] > visits[best] || (visits[i] == visits[best] && totals[i] > totals[best])
        };
        if better {
            best = i;
        }
    }
    let stopped = config.stop.is_set();
    TreeFound { best: legal[best], visits, totals, iterations: done, stopped }
}

/// `SearchBot.python_judge` on a train round without inference (`pimc`,
/// or `search` with `infer` 0 and no tree): every move played out in every
/// sampled world, each world weighing 1, on the points objective.
pub fn worlds<const W: usize>(
    view: &TrainView<W>,
    legal: &[i64],
    budget: &Budget,
    rng: &mut Rng,
) -> Found {
    let t = &view.layout.rules.t;
    let me = t.owner[view.seat];
    let mut totals = vec![0f64; legal.len()];
    let mut done = 0usize;
    let mut scratch = Vec::with_capacity(32);
    let mut judge = |world: &TrainHand<W>, seeds: &[u64], totals: &mut [f64]| {
        for (i, &mv) in legal.iter().enumerate() {
            for &seed in seeds {
                let mut trial = world.clone();
                trial.apply(mv);
                play_out(&mut trial, budget.policy, seed, &mut scratch);
                totals[i] += 1.0 * margin(t, &trial.scores, &world.scores, me) as f64;
            }
        }
    };
    if budget.deadline.is_some() {
        loop {
            if budget.stop.is_set() {
                break;
            }
            let world = view.sample_world(rng);
            let seeds: Vec<u64> = (0..budget.rollouts).map(|_| rng.next_u64()).collect();
            judge(&world, &seeds, &mut totals);
            done += 1;
            if budget.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                break;
            }
        }
    } else {
        let mut sampled = Vec::with_capacity(budget.iterations.max(1));
        for _ in 0..budget.iterations.max(1) {
            if budget.stop.is_set() {
                break;
            }
            let world = view.sample_world(rng);
            let seeds: Vec<u64> = (0..budget.rollouts).map(|_| rng.next_u64()).collect();
            sampled.push((world, seeds));
        }
        for (world, seeds) in &sampled {
            if budget.stop.is_set() {
                break;
            }
            judge(world, seeds, &mut totals);
            done += 1;
        }
    }
    let mut best = 0;
    for i in 1..legal.len() {
        if totals[i] > totals[best] {
            best = i;
        }
    }
    let stopped = budget.stop.is_set();
    Found {
        best: legal[best],
        totals,
        iterations: done,
        weight: done as f64,
        nodes: vec![0; done],
        stopped,
    }
}
