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

use crate::bits::Bits;
use crate::bots::{heuristic_move, Voids};
use crate::hand::Hand;
use crate::infer::log_likelihood;
use crate::moves::PLAYING;
use crate::rng::Rng;
use crate::solve::{solvable, Solver};

/// Randomised constrained deals tried before the exhaustive search
/// (`observation._ATTEMPTS`).
const ATTEMPTS: usize = 20;

/// How rollouts play (`search.POLICIES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Greedy,
    Heuristic,
    Random,
}

impl Policy {
    pub fn from_name(name: &str) -> Option<Policy> {
        match name {
            "greedy" => Some(Policy::Greedy),
            "heuristic" => Some(Policy::Heuristic),
            "random" => Some(Policy::Random),
            _ => None,
        }
    }
}

/// One seat's view of a hand: what `Observation` carries that the search
/// reads. `layout` is the hand with the hidden tiles scrubbed (its other
/// hands and its boneyard's contents are never read); `limits[s]` are the
/// void bounds `(mask, most tiles of it seat s can hold)` that bind.
#[derive(Clone)]
pub struct View<const W: usize> {
    pub seat: usize,
    pub own: Bits<W>,
    pub counts: Vec<usize>,
    pub unseen: Bits<W>,
    pub limits: Vec<Vec<(Bits<W>, i64)>>,
    pub layout: Hand<W>,
    /// `(seat, move, points)` of every move of the hand so far (read by
    /// the inference only)
    pub history: Vec<(usize, i64, i64)>,
}

/// No deal of the unseen tiles agrees with the view (a corrupt observation).
#[derive(Debug, PartialEq, Eq)]
pub struct NoWorld;

impl<const W: usize> View<W> {
    /// The view of `seat` in the live `hand`, with the void bounds `voids`
    /// has tracked (`observe(hand, seat)` and `Observation.limits()`).
    pub fn of(hand: &Hand<W>, seat: usize, voids: &Voids<W>) -> View<W> {
        let r = &*hand.rules;
        let players = r.t.players;
        let own = hand.hands[seat];
        let mut seen = own;
        seen.or_assign(&hand.on_table);
        seen.or_assign(&hand.out_of_play);
        let unseen = r.full.and_not(&seen);
        let counts: Vec<usize> = (0..players).map(|s| hand.hands[s].count() as usize).collect();
        let mut limits: Vec<Vec<(Bits<W>, i64)>> = vec![Vec::new(); players];
        for v in &voids.list {
            if v.seat == seat {
                continue;
            }
            let mask = v.mask.and(&unseen);
            let cap = i64::from(hand.drawn[v.seat]) - i64::from(v.then) - i64::from(v.played);
            if mask.is_zero() || cap >= counts[v.seat] as i64 {
                continue;
            }
            // one bound per mask, the tightest (the order does not matter)
            match limits[v.seat].iter_mut().find(|(m, _)| *m == mask) {
                Some(old) => old.1 = old.1.min(cap),
                None => limits[v.seat].push((mask, cap)),
            }
        }
        let mut layout = hand.public_copy(seat);
        layout.record = false;
        for b in layout.boneyard.iter_mut() {
            *b = 0;
        }
        let history = hand.log.iter().map(|&(s, m, p)| (s as usize, m, p)).collect();
        View { seat, own, counts, unseen, limits, layout, history }
    }

    /// `observation.sample_world`: a complete hand agreeing with the view.
    pub fn sample_world(&self, rng: &mut Rng) -> Result<Hand<W>, NoWorld> {
        let hands = self.deal_unseen(rng)?;
        let mut world = self.layout.clone();
        world.record = false;
        let players = hands.len();
        world.hands[..players].copy_from_slice(&hands);
        let mut rest = self.unseen;
        for (s, h) in hands.iter().enumerate() {
            if s != self.seat {
                rest = rest.and_not(h);
            }
        }
        let mut pile: Vec<u8> = rest.ones().map(|t| t as u8).collect();
        rng.shuffle(&mut pile);
        let start = world.bone_pos.min(world.boneyard.len());
        world.boneyard.truncate(start);
        world.boneyard.extend_from_slice(&pile);
        Ok(world)
    }

    /// `observation.deal_unseen`: a mask per seat (its own hand included).
    pub fn deal_unseen(&self, rng: &mut Rng) -> Result<Vec<Bits<W>>, NoWorld> {
        let n = self.counts.len();
        let others: Vec<usize> =
            (0..n).filter(|&s| s != self.seat && self.counts[s] != 0).collect();
        let mut tiles: Vec<usize> = self.unseen.ones().collect();
        let mut hands = vec![Bits::<W>::ZERO; n];
        hands[self.seat] = self.own;
        if !others.iter().any(|&s| !self.limits[s].is_empty()) {
            // nothing proven: a plain shuffle is an exactly uniform deal
            rng.shuffle(&mut tiles);
            let mut pos = 0;
            for &s in &others {
                let stop = (pos + self.counts[s]).min(tiles.len());
                for &t in &tiles[pos.min(stop)..stop] {
                    hands[s].set(t);
                }
                pos += self.counts[s];
            }
            return Ok(hands);
        }
        let sampler = Constrained::new(self, &others, tiles);
        for _ in 0..ATTEMPTS {
            if let Some(got) = sampler.greedy(rng) {
                for (d, &s) in others.iter().enumerate() {
                    hands[s] = got[d];
                }
                return Ok(hands);
            }
        }
        let got = sampler.exhaustive(rng).ok_or(NoWorld)?;
        for (d, &s) in others.iter().enumerate() {
            hands[s] = got[d];
        }
        Ok(hands)
    }
}

/// `observation._Constrained`: deals under void bounds, the most refused
/// tiles first; destinations are the other seats in order, then the
/// boneyard (last, with no bounds).
struct Constrained<const W: usize> {
    need: Vec<usize>,
    caps: Vec<Vec<(Bits<W>, i64)>>,
    tiles: Vec<usize>,
    refusals: Vec<i64>,
}

impl<const W: usize> Constrained<W> {
    fn new(view: &View<W>, others: &[usize], tiles: Vec<usize>) -> Self {
        let mut need: Vec<usize> = others.iter().map(|&s| view.counts[s]).collect();
        let placed: usize = need.iter().sum();
        need.push(tiles.len().saturating_sub(placed));
        let mut caps: Vec<Vec<(Bits<W>, i64)>> =
            others.iter().map(|&s| view.limits[s].clone()).collect();
        caps.push(Vec::new());
        let refusals = tiles
            .iter()
            .map(|&t| {
                caps.iter().filter(|c| c.iter().any(|(m, cap)| *cap == 0 && m.has(t))).count()
                    as i64
            })
            .collect();
        Constrained { need, caps, tiles, refusals }
    }

    /// The tiles in placing order: most refused first, then by one fresh
    /// 64-bit draw each (drawn in tile order), then by id.
    fn order(&self, rng: &mut Rng) -> Vec<usize> {
        let mut keyed: Vec<(i64, u64, usize)> =
            self.tiles.iter().zip(&self.refusals).map(|(&t, &r)| (-r, rng.next_u64(), t)).collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|k| k.2).collect()
    }

    fn fits(&self, need: &[usize], left: &[Vec<i64>], d: usize, t: usize) -> bool {
        need[d] != 0
            && !self.caps[d].iter().enumerate().any(|(i, (m, _))| m.has(t) && left[d][i] == 0)
    }

    fn take(
        &self,
        need: &mut [usize],
        left: &mut [Vec<i64>],
        got: &mut [Bits<W>],
        d: usize,
        t: usize,
        back: bool,
    ) {
        if back {
            need[d] += 1;
            got[d].clear(t);
        } else {
            need[d] -= 1;
            got[d].set(t);
        }
        for (i, (m, _)) in self.caps[d].iter().enumerate() {
            if m.has(t) {
                left[d][i] += if back { 1 } else { -1 };
            }
        }
    }

    fn start(&self) -> (Vec<usize>, Vec<Vec<i64>>, Vec<Bits<W>>) {
        let left = self.caps.iter().map(|c| c.iter().map(|&(_, cap)| cap).collect()).collect();
        (self.need.clone(), left, vec![Bits::<W>::ZERO; self.caps.len()])
    }

    /// One randomised pass: each tile to a destination drawn in proportion
    /// to its free places; `None` when a tile has nowhere to go.
    fn greedy(&self, rng: &mut Rng) -> Option<Vec<Bits<W>>> {
        let (mut need, mut left, mut got) = self.start();
        let mut options: Vec<usize> = Vec::with_capacity(self.caps.len());
        for t in self.order(rng) {
            options.clear();
            let mut weights = 0u64;
            for d in 0..self.caps.len() {
                if self.fits(&need, &left, d, t) {
                    options.push(d);
                    weights += need[d] as u64;
                }
            }
            if options.is_empty() {
                return None;
            }
            let mut pick = rng.below(weights) as i64;
            let mut chosen = options[options.len() - 1];
            for &d in &options {
                pick -= need[d] as i64;
                if pick < 0 {
                    chosen = d;
                    break;
                }
            }
            self.take(&mut need, &mut left, &mut got, chosen, t, false);
        }
        Some(got)
    }

    /// The backtracking search that finds a deal whenever one exists.
    fn exhaustive(&self, rng: &mut Rng) -> Option<Vec<Bits<W>>> {
        let order = self.order(rng);
        let (mut need, mut left, mut got) = self.start();
        if self.place(&order, 0, &mut need, &mut left, &mut got, rng) {
            Some(got)
        } else {
            None
        }
    }

    fn place(
        &self,
        order: &[usize],
        i: usize,
        need: &mut Vec<usize>,
        left: &mut Vec<Vec<i64>>,
        got: &mut Vec<Bits<W>>,
        rng: &mut Rng,
    ) -> bool {
        if i == order.len() {
            return true;
        }
        let n_dest = self.caps.len();
        // each destination must still be able to fill its places
        for d in 0..n_dest {
            if need[d] != 0
                && order[i..].iter().filter(|&&t| self.fits(need, left, d, t)).count() < need[d]
            {
                return false;
            }
        }
        let t = order[i];
        let mut dests: Vec<usize> = (0..n_dest).collect();
        rng.shuffle(&mut dests);
        for d in dests {
            if !self.fits(need, left, d, t) {
                continue;
            }
            self.take(need, left, got, d, t, false);
            if self.place(order, i + 1, need, left, got, rng) {
                return true;
            }
            self.take(need, left, got, d, t, true);
        }
        false
    }
}

/// The rollout policy's move in the full-information `hand`
/// (`search._greedy_policy` and the others).
pub(crate) fn rollout_move<const W: usize>(
    hand: &Hand<W>,
    policy: Policy,
    rng: &mut Rng,
    legal: &mut Vec<i64>,
    counts: &mut Vec<i64>,
) -> i64 {
    hand.legal_moves_into(legal);
    if legal.len() == 1 {
        return legal[0];
    }
    match policy {
        Policy::Greedy => hand.greedy_move(legal),
        Policy::Random => legal[rng.below(legal.len() as u64) as usize],
        Policy::Heuristic => {
            let r = &*hand.rules;
            let seat = hand.turn;
            let mut seen = hand.hands[seat];
            seen.or_assign(&hand.on_table);
            seen.or_assign(&hand.out_of_play);
            let unseen = r.full.and_not(&seen);
            counts.clear();
            counts.extend((0..r.t.players).map(|s| i64::from(hand.hands[s].count())));
            heuristic_move(hand, &unseen, counts, hand.drawable() as i64, &Bits::ZERO, legal)
        }
    }
}

/// What a search returns: the chosen move, every candidate's total value
/// and the worlds sampled.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub best: i64,
    pub totals: Vec<f64>,
    pub iterations: usize,
    /// the sum of the worlds' weights (`iterations` without inference)
    pub weight: f64,
}

/// The search's budget: `iterations` worlds, or (when `deadline` is given)
/// worlds until the clock passes it, at least one.
#[derive(Clone, Copy, Debug)]
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
}

impl Budget {
    /// Whether the search stops after `done` worlds.
    fn done(&self, done: usize) -> bool {
        match self.deadline {
            Some(d) => std::time::Instant::now() >= d,
            None => done >= self.iterations,
        }
    }
}

/// `SearchBot.values`: judge every move of `legal` over sampled worlds.
pub fn search<const W: usize>(
    view: &View<W>,
    legal: &[i64],
    budget: &Budget,
    rng: &mut Rng,
) -> Result<Found, NoWorld> {
    let t = &view.layout.rules.t;
    let me = t.owner[view.seat];
    let mut totals = vec![0f64; legal.len()];
    let mut seeds = vec![0u64; budget.rollouts];
    let mut scratch = Vec::with_capacity(32);
    let mut counts = Vec::with_capacity(t.players);
    let mut done = 0usize;
    let mut weights = 0.0f64;
    let mut solver = Solver::<W>::default();
    loop {
        let world = view.sample_world(rng)?;
        for s in seeds.iter_mut() {
            *s = rng.next_u64();
        }
        let base = world.scores.clone();
        let weight = if budget.infer > 0.0 {
            log_likelihood(&world, view.seat, &view.history, budget.infer).exp()
        } else {
            1.0
        };
        weights += weight;
        if solvable(&world, budget.solve) {
            let values = solver.values(&world, me, &base, legal);
            for (total, v) in totals.iter_mut().zip(values) {
                *total += weight * (v * budget.rollouts as i64) as f64;
            }
            done += 1;
            if budget.done(done) {
                break;
            }
            continue;
        }
        for (i, &mv) in legal.iter().enumerate() {
            for &seed in &seeds {
                let mut trial = world.clone();
                trial.apply(mv, None);
                let mut play_rng = Rng::new(seed);
                while trial.state == PLAYING {
                    let m = rollout_move(
                        &trial,
                        budget.policy,
                        &mut play_rng,
                        &mut scratch,
                        &mut counts,
                    );
                    trial.apply(m, None);
                }
                let mut mine = 0;
                let mut theirs = -(1i64 << 30);
                for (o, (&a, &b)) in trial.scores.iter().zip(&base).enumerate() {
                    if o == me {
                        mine = a - b;
                    } else {
                        theirs = theirs.max(a - b);
                    }
                }
                totals[i] += weight * (mine - theirs) as f64;
            }
        }
        done += 1;
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
    Ok(Found { best: legal[best], totals, iterations: done, weight: weights })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::tests::shuffled_deal;
    use crate::table::{tests::table, Rules};
    use std::sync::Arc;

    fn dealt(r: &Arc<Rules<1>>, seed: u64) -> Hand<1> {
        shuffled_deal(r, &mut Rng::new(seed), 5)
    }

    fn budget(policy: Policy) -> Budget {
        Budget { iterations: 5, rollouts: 1, policy, deadline: None, solve: 0, infer: 0.0 }
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
