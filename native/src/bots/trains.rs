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
//! part. Only a measurement binds it (`bench.ceiling_draw`'s cheat and
//! oracle: `TrainView::limits`, `TrainView::stock`), through the same deal
//! as a point game's view (`world::deal_unseen_into`, `world::fill_stock`).
//!
//! No train position is solved exactly (`solve.solvable` says no for a
//! train layout): the tree and the rollouts value every leaf by playing it
//! out. A round's charges count against a side (`Rules.lowest_wins`), which
//! `bots::margin` reads.

use crate::bots::infer::pool_size;
use crate::bots::ismcts::{in_trees, Config, Found as TreeFound, Root};
use crate::bots::margin;
use crate::bots::rollouts::Policy;
use crate::bots::search::{Budget, Found};
use crate::bots::world::{deal_unseen_into, fill_stock, NoWorld};
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
    /// void bounds `(mask, most tiles of it the seat can hold)` a seat:
    /// none in play (a train hand records no voids); only
    /// `bench.ceiling_draw`'s cheat pins the hidden hands with them. A
    /// view with bounds must admit a deal (`TrainView::admits_a_deal`).
    pub limits: Vec<Vec<(Bits<W>, i64)>>,
    /// the boneyard's true order past its draw position, for that
    /// measurement only (its oracle's `_stock`); None: the order is drawn
    pub stock: Option<Vec<u8>>,
}

impl<const W: usize> TrainView<W> {
    /// `seat`'s view of the round `hand` (`observation.observe`): the
    /// layout is the hand itself, whose other hands and boneyard's unseen
    /// part every sampled world deals again.
    pub fn of(hand: &TrainHand<W>, seat: usize) -> TrainView<W> {
        let players = hand.rules.t.players;
        let own = hand.hands[seat];
        TrainView {
            seat,
            own,
            counts: (0..players).map(|s| hand.hands[s].ones().count()).collect(),
            unseen: hand.rules.full.and_not(&own).and_not(&hand.on_table),
            boneyard_left: hand.boneyard.len() - hand.bone_pos,
            layout: hand.clone(),
            limits: vec![Vec::new(); players],
            stock: None,
        }
    }

    /// Whether some deal of the unseen tiles keeps the view's bounds (always,
    /// where there are none): what `sample_world` needs of a bound view.
    pub fn admits_a_deal(&self) -> bool {
        let mut hands = vec![Bits::<W>::ZERO; self.counts.len()];
        self.deal_into(&mut Rng::new(0), &mut hands).is_ok()
    }

    /// `observation.deal_unseen` of the view into `hands` (a mask per seat).
    fn deal_into(&self, rng: &mut Rng, hands: &mut [Bits<W>]) -> Result<(), NoWorld> {
        let (seat, own, unseen) = (self.seat, self.own, self.unseen);
        deal_unseen_into(seat, own, &self.counts, unseen, &self.limits, rng, hands)
    }

    /// `observation.sample_world` of a train hand: the unseen tiles (lowest
    /// id first) shuffled and dealt to the other seats in seat order, the
    /// rest (lowest id first) shuffled into the boneyard's unseen part; a
    /// bound view (a measurement's) deals as a point game's view does.
    pub fn sample_world(&self, rng: &mut Rng) -> TrainHand<W> {
        let mut world = self.layout.clone();
        let players = world.rules.t.players;
        // no bounds: the plain shuffle, never short of a deal; bounds: a view
        // that `admits_a_deal` (the backtracking finds one whenever one exists)
        self.deal_into(rng, &mut world.hands[..players])
            .unwrap_or_else(|NoWorld| unreachable!("a train view's bounds admit no deal"));
        let mut rest = self.unseen;
        for (s, h) in world.hands[..players].iter().enumerate() {
            if s != self.seat {
                rest = rest.and_not(h);
            }
        }
        let start = world.boneyard.len() - self.boneyard_left;
        world.boneyard.truncate(start);
        fill_stock(&mut world.boneyard, &rest, self.stock.as_deref(), rng);
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

/// `IsmctsBot.python_search` on a train round, without solving: one tree
/// over the seat's information sets, grown over sampled worlds, every leaf
/// played out by `config.policy`. With inference (`config.infer` > 0) the
/// iterations draw their worlds from a pool of `config.worlds` (`pool_size`) dealt first,
/// as the Python tree does, every world weighing 1 (a train layout's plays
/// are not weighed: `infer.log_likelihood`). With `config.trees` trees
/// (`ismcts::in_trees`).
pub fn tree<const W: usize>(
    view: &TrainView<W>,
    legal: &[i64],
    config: &Config,
    rng: &mut Rng,
) -> TreeFound {
    let grown = in_trees(config, legal, rng, |c, r| {
        Ok::<_, std::convert::Infallible>(grow(view, legal, c, r))
    });
    match grown {
        Ok(found) => found,
        Err(never) => match never {},
    }
}

/// One tree of `tree`, from `rng`.
fn grow<const W: usize>(
    view: &TrainView<W>,
    legal: &[i64],
    config: &Config,
    rng: &mut Rng,
) -> TreeFound {
    let t = &view.layout.rules.t;
    let me = t.owner[view.seat];
    let scale = config.scale_of(t);
    let even = config.root == Root::Even;
    let mut nodes = vec![Node::new(0, me, 0.0)];
    let mut done = 0usize;
    let mut moves = Vec::with_capacity(32);
    let mut scratch = Vec::with_capacity(32);
    let mut path: Vec<usize> = Vec::with_capacity(64);
    let mut untried: Vec<i64> = Vec::with_capacity(32);
    // the inference's pool and its cumulative weights, 1 a world
    let mut pool = Vec::new();
    if config.infer > 0.0 {
        let pool_end = config.pool_end();
        for _ in 0..pool_size(config.worlds, config.iterations) {
            if config.stop.is_set() {
                break;
            }
            pool.push(view.sample_world(rng));
            if Config::pool_full(pool_end) {
                break;
            }
        }
    }
    let cumulative: Vec<f64> = (1..=pool.len()).map(|k| k as f64).collect();
    loop {
        if config.stop.is_set() {
            break;
        }
        let mut world = if pool.is_empty() {
            view.sample_world(rng)
        } else {
            let x = rng.random() * cumulative[cumulative.len() - 1];
            let at = cumulative.iter().position(|&c| x < c).unwrap_or(pool.len() - 1);
            pool[at].clone()
        };
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
                let mv = moves[(config.first + done) % moves.len()];
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
            let r =
                if even && k == 0 { gain as f64 } else { (gain as f64 / scale).clamp(-1.0, 1.0) };
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
    TreeFound::chosen(legal, visits, totals, done, config.root, config.stop.is_set())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::table::tests::table;
    use crate::kernel::table::{MatchRules, Rules};
    use crate::kernel::trains::{TrainMatch, Trains};
    use std::sync::Arc;

    /// A Mexican Train-like table: double-12, personal trains, one public,
    /// each tile charged its pips.
    fn mexican(players: usize) -> Arc<Rules<2>> {
        let mut t = table(12, players);
        t.scores_plays = false;
        t.max_draws = 1;
        t.must_play_drawn = true;
        t.hand_size = 10;
        t.last_tile = -1;
        let size = t.size();
        let r = Rules::<2>::new(t.clone()).unwrap();
        t.trains = Some(Trains {
            top: 12,
            rounds: 13,
            seat_trains: true,
            public: 1,
            cover: 1,
            cover_self: true,
            first_turn_multi: true,
            first_turn_stop: true,
            values: (0..size).map(|i| r.pips[i]).collect(),
            ..Trains::default()
        });
        Arc::new(Rules::<2>::new(t).unwrap())
    }

    /// The view of the seat to move: its tiles, the others' counts, the
    /// layout with the hidden tiles scrubbed.
    fn view_of(h: &TrainHand<2>) -> TrainView<2> {
        let seat = h.turn;
        let r = &h.rules;
        let players = r.t.players;
        let mut layout = h.clone();
        for s in 0..players {
            if s != seat {
                layout.hands[s] = Bits::ZERO;
            }
        }
        for b in &mut layout.boneyard {
            *b = 0;
        }
        TrainView {
            seat,
            own: h.hands[seat],
            counts: (0..players).map(|s| h.hands[s].count() as usize).collect(),
            unseen: r.full.and_not(&h.hands[seat]).and_not(&h.on_table),
            boneyard_left: h.boneyard.len() - h.bone_pos,
            layout,
            limits: vec![Vec::new(); players],
            stock: None,
        }
    }

    /// Positions with a choice of a few random rounds.
    fn positions(players: usize) -> Vec<TrainHand<2>> {
        let r = mexican(players);
        let mut out = Vec::new();
        for seed in 0..4 {
            let mt = TrainMatch::new(Arc::clone(&r), MatchRules::default(), seed);
            let mut h = mt.new_hand(false);
            let mut rng = Rng::new(seed);
            while h.state == PLAYING {
                let legal = h.legal_moves();
                if legal.len() > 1 && rng.index(4) == 0 {
                    out.push(h.clone());
                }
                h.apply(legal[rng.index(legal.len())]);
            }
        }
        out
    }

    #[test]
    fn a_world_keeps_what_the_seat_sees_and_deals_every_unseen_tile_once() {
        for h in positions(4) {
            let view = view_of(&h);
            let world = view.sample_world(&mut Rng::new(h.moves.into()));
            assert_eq!(world.hands[view.seat], h.hands[view.seat]);
            let mut all = world.on_table;
            for s in 0..4 {
                assert_eq!(world.hands[s].count(), h.hands[s].count());
                assert!(!all.intersects(&world.hands[s]));
                all.or_assign(&world.hands[s]);
            }
            for &t in &world.boneyard[world.bone_pos..] {
                assert!(!all.has(usize::from(t)));
                all.set(usize::from(t));
            }
            assert_eq!(all, h.rules.full);
            // the world plays on as the real hand does: the same moves
            assert_eq!(world.legal_moves(), h.legal_moves());
        }
    }

    #[test]
    fn a_view_whose_bounds_pin_the_hands_deals_the_true_hands_and_the_stock_its_order() {
        for h in positions(3).into_iter().take(12) {
            let mut view = view_of(&h);
            // pinned as bench.ceiling_draw's cheat pins them: none of the rest
            for s in 0..3 {
                let rest = view.unseen.and_not(&h.hands[s]);
                if s != view.seat && view.counts[s] != 0 && !rest.is_zero() {
                    view.limits[s] = vec![(rest, 0)];
                }
            }
            assert!(view.admits_a_deal());
            let stock: Vec<u8> = h.boneyard[h.bone_pos..].to_vec();
            view.stock = Some(stock.clone());
            let mut rng = Rng::new(9);
            for _ in 0..3 {
                let w = view.sample_world(&mut rng);
                assert_eq!(w.hands[..3], h.hands[..3]);
                assert_eq!(w.boneyard[w.bone_pos..], stock[..]);
            }
            // without the order, the boneyard's own tiles are drawn
            view.stock = None;
            let w = view.sample_world(&mut rng);
            assert_eq!(w.hands[..3], h.hands[..3]);
            let mut pile = w.boneyard[w.bone_pos..].to_vec();
            let mut truth = stock.clone();
            pile.sort_unstable();
            truth.sort_unstable();
            assert_eq!(pile, truth);
            // a bound that keeps a seat from every unseen tile it must hold
            // admits no deal
            if let Some(s) = (0..3).find(|&s| s != view.seat && view.counts[s] != 0) {
                view.limits[s] = vec![(view.unseen, 0)];
                assert!(!view.admits_a_deal());
            }
        }
    }

    #[test]
    fn the_tree_and_the_worlds_judge_every_candidate_from_the_same_stream() {
        // a fresh world each iteration (no inference), then a pool below
        let config = Config { iterations: 40, infer: 0.0, ..Config::tree(40, Policy::Heuristic) };
        let budget = Budget::new(3, 2, Policy::Greedy, None, 0, 0.0);
        for h in positions(3).into_iter().take(10) {
            let view = view_of(&h);
            let legal = h.legal_moves();
            let (mut a, mut b) = (Rng::new(5), Rng::new(5));
            let x = tree(&view, &legal, &config, &mut a);
            let y = tree(&view, &legal, &config, &mut b);
            assert_eq!((x.best, &x.visits, &x.totals), (y.best, &y.visits, &y.totals));
            assert_eq!(a.state, b.state);
            assert!(legal.contains(&x.best));
            assert_eq!(x.visits.iter().sum::<f64>(), 40.0);
            // rewards are clamped margins: a move's total within its visits
            for (v, t) in x.visits.iter().zip(&x.totals) {
                assert!(t.abs() <= *v);
            }
            // with inference the iterations draw from a pool of worlds
            let pooled = Config { infer: 1.0, worlds: 5, ..config.clone() };
            let p = tree(&view, &legal, &pooled, &mut Rng::new(5));
            assert_eq!(p.visits.iter().sum::<f64>(), 40.0);
            assert!(legal.contains(&p.best));
            let w = worlds(&view, &legal, &budget, &mut Rng::new(9));
            assert_eq!((w.iterations, w.weight), (3, 3.0));
            assert!(legal.contains(&w.best));
            // a round's end charges the others at most what they hold:
            // never a gain above the charges of every hand
            let most: i64 = (0..3).map(|s| h.pips_left(s)).sum::<i64>() + 200;
            assert!(w.totals.iter().all(|t| t.abs() <= (6 * most) as f64));
        }
    }

    #[test]
    fn a_round_s_charges_count_against_a_side() {
        let r = mexican(2);
        // charged 5 and 20 from nothing: the first seat is 15 ahead
        assert_eq!(margin(&r.t, &[5, 20], &[0, 0], 0), 15);
        assert_eq!(margin(&r.t, &[5, 20], &[0, 0], 1), -15);
    }
}
