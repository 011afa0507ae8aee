//! One seat's view of a hand and the world sampler (`bones.seat.observation`:
//! `observe`, `Observation.limits` and `sample_world`): deals of the tiles the
//! seat cannot see that agree with everything the history proves, drawn
//! from the specified stream exactly as the Python reference draws them.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use std::cmp::Reverse;

use crate::bots::heuristic::Voids;
use crate::kernel::bits::Bits;
use crate::kernel::convert::byte;
use crate::kernel::hand::Hand;
use crate::kernel::rng::Rng;

/// Randomised constrained deals tried before the exhaustive search
/// (`observation._ATTEMPTS`).
const ATTEMPTS: usize = 20;

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
    /// the boneyard's true order past its draw position, for a measurement
    /// only (`bench.ceiling_draw --stock`: an observation's private
    /// `_stock`); None, always outside that bench: the order is drawn
    pub stock: Option<Vec<u8>>,
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
        let counts: Vec<usize> = (0..players).map(|s| hand.hands[s].len()).collect();
        let mut limits: Vec<Vec<(Bits<W>, i64)>> = vec![Vec::new(); players];
        for v in &voids.list {
            if v.seat == seat {
                continue;
            }
            let mask = v.mask.and(&unseen);
            let cap = i64::from(hand.drawn[v.seat]) - i64::from(v.then) - i64::from(v.played);
            // a cap of the seat's whole hand or more binds nothing
            let loose = usize::try_from(cap).is_ok_and(|c| c >= counts[v.seat]);
            if mask.is_zero() || loose {
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
        let history = hand.log.iter().map(|&(s, m, p)| (usize::from(s), m, p)).collect();
        View { seat, own, counts, unseen, limits, layout, history, stock: None }
    }

    /// `search.solvable_view`: whether every world of the view may be solved
    /// (`solve::solvable`): no draw can happen any more and at most `limit`
    /// tiles are in the hands; the same in every world, since both are public.
    pub fn solvable(&self, limit: usize) -> bool {
        if limit == 0 {
            return false;
        }
        if self.layout.rules.t.max_draws != 0 && self.layout.drawable() != 0 {
            return false;
        }
        self.counts.iter().sum::<usize>() <= limit
    }

    /// `observation.sample_world`: a complete hand agreeing with the view.
    pub fn sample_world(&self, rng: &mut Rng) -> Result<Hand<W>, NoWorld> {
        let mut world = self.layout.clone();
        self.sample_world_into(rng, &mut world)?;
        Ok(world)
    }

    /// [`View::sample_world`] into `world` (any hand of the same tile set),
    /// reusing its buffers: the same draws and the same world, but for its
    /// log, which is left empty (a sampled world does not record).
    pub fn sample_world_into(&self, rng: &mut Rng, world: &mut Hand<W>) -> Result<(), NoWorld> {
        world.copy_for_play(&self.layout, None);
        let players = self.counts.len();
        self.deal_unseen_into(rng, &mut world.hands[..players])?;
        let mut rest = self.unseen;
        for (s, h) in world.hands[..players].iter().enumerate() {
            if s != self.seat {
                rest = rest.and_not(h);
            }
        }
        let start = self.layout.bone_pos.min(self.layout.boneyard.len());
        world.boneyard.extend_from_slice(&self.layout.boneyard[..start]);
        fill_stock(&mut world.boneyard, &rest, self.stock.as_deref(), rng);
        Ok(())
    }

    /// `observation.deal_unseen` into `hands` (a mask per seat, its own
    /// hand included).
    fn deal_unseen_into(&self, rng: &mut Rng, hands: &mut [Bits<W>]) -> Result<(), NoWorld> {
        let (seat, own, unseen) = (self.seat, self.own, self.unseen);
        deal_unseen_into(seat, own, &self.counts, unseen, &self.limits, rng, hands)
    }
}

/// `observation.deal_unseen` from a view's parts (a `View`'s or a train
/// view's), into `hands` (a mask per seat of `counts`): `own` for `seat`,
/// the tiles of `unseen` dealt to the other seats holding tiles under the
/// void bounds `limits`; a plain shuffle where nothing binds (no list but
/// the tiles' own is made then: every world of a search deals so).
pub fn deal_unseen_into<const W: usize>(
    seat: usize,
    own: Bits<W>,
    counts: &[usize],
    unseen: Bits<W>,
    limits: &[Vec<(Bits<W>, i64)>],
    rng: &mut Rng,
    hands: &mut [Bits<W>],
) -> Result<(), NoWorld> {
    let n = counts.len();
    let dealt_to = |s: usize| s != seat && counts[s] != 0;
    let mut tiles: Vec<usize> = unseen.ones().collect();
    hands.fill(Bits::<W>::ZERO);
    hands[seat] = own;
    if !(0..n).any(|s| dealt_to(s) && !limits[s].is_empty()) {
        // nothing proven: a plain shuffle is an exactly uniform deal
        rng.shuffle(&mut tiles);
        let mut pos = 0;
        for s in (0..n).filter(|&s| dealt_to(s)) {
            let stop = (pos + counts[s]).min(tiles.len());
            for &t in &tiles[pos.min(stop)..stop] {
                hands[s].set(t);
            }
            pos += counts[s];
        }
        return Ok(());
    }
    let others: Vec<usize> = (0..n).filter(|&s| dealt_to(s)).collect();
    let sampler = Constrained::new(counts, limits, &others, tiles);
    let got = match (0..ATTEMPTS).find_map(|_| sampler.greedy(rng)) {
        Some(got) => got,
        None => sampler.exhaustive(rng).ok_or(NoWorld)?,
    };
    for (d, &s) in others.iter().enumerate() {
        hands[s] = got[d];
    }
    Ok(())
}

/// The boneyard's unseen part of a sampled world (`sample_world`): the tiles
/// `rest` in the true order `stock` where a measurement gives it and it
/// holds exactly them (`_stock`, no draw), else lowest id first, shuffled.
pub fn fill_stock<const W: usize>(
    pile: &mut Vec<u8>,
    rest: &Bits<W>,
    stock: Option<&[u8]>,
    rng: &mut Rng,
) {
    let start = pile.len();
    match stock {
        Some(stock) if is_order_of(stock, rest) => pile.extend_from_slice(stock),
        _ => {
            pile.extend(rest.ones().map(byte));
            rng.shuffle(&mut pile[start..]);
        }
    }
}

/// Whether `stock` lists every tile of `rest` once, in some order.
fn is_order_of<const W: usize>(stock: &[u8], rest: &Bits<W>) -> bool {
    let mut seen = Bits::<W>::ZERO;
    for &t in stock {
        let t = usize::from(t);
        if !rest.has(t) || seen.has(t) {
            return false;
        }
        seen.set(t);
    }
    seen == *rest
}

/// `observation._Constrained`: deals under void bounds, the most refused
/// tiles first; destinations are the other seats in order, then the
/// boneyard (last, with no bounds).
struct Constrained<const W: usize> {
    need: Vec<usize>,
    caps: Vec<Vec<(Bits<W>, i64)>>,
    tiles: Vec<usize>,
    /// per tile: the destinations whose bounds refuse it outright
    refusals: Vec<usize>,
}

impl<const W: usize> Constrained<W> {
    fn new(
        counts: &[usize],
        limits: &[Vec<(Bits<W>, i64)>],
        others: &[usize],
        tiles: Vec<usize>,
    ) -> Self {
        let mut need: Vec<usize> = others.iter().map(|&s| counts[s]).collect();
        let placed: usize = need.iter().sum();
        need.push(tiles.len().saturating_sub(placed));
        let mut caps: Vec<Vec<(Bits<W>, i64)>> =
            others.iter().map(|&s| limits[s].clone()).collect();
        caps.push(Vec::new());
        let refusals = tiles
            .iter()
            .map(|&t| {
                caps.iter().filter(|c| c.iter().any(|(m, cap)| *cap == 0 && m.has(t))).count()
            })
            .collect();
        Constrained { need, caps, tiles, refusals }
    }

    /// The tiles in placing order: most refused first, then by one fresh
    /// 64-bit draw each (drawn in tile order), then by id.
    fn order(&self, rng: &mut Rng) -> Vec<usize> {
        let mut keyed: Vec<(Reverse<usize>, u64, usize)> = self
            .tiles
            .iter()
            .zip(&self.refusals)
            .map(|(&t, &r)| (Reverse(r), rng.next_u64(), t))
            .collect();
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
            let mut weights = 0;
            for d in 0..self.caps.len() {
                if self.fits(&need, &left, d, t) {
                    options.push(d);
                    weights += need[d];
                }
            }
            if options.is_empty() {
                return None;
            }
            // the destination whose share of the weights the draw falls in
            let mut pick = rng.index(weights);
            let mut chosen = options[options.len() - 1];
            for &d in &options {
                if pick < need[d] {
                    chosen = d;
                    break;
                }
                pick -= need[d];
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::hand::tests::shuffled_deal;
    use crate::kernel::table::{tests::table, Rules};
    use std::sync::Arc;

    #[test]
    fn a_view_given_the_stock_deals_the_true_deal() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        let h = shuffled_deal(&r, &mut Rng::new(3), 7);
        let mut view = View::of(&h, 0, &Voids::default());
        // the other hand pinned as bench.ceiling_draw pins it: none of the rest
        let rest = view.unseen.and_not(&h.hands[1]);
        view.limits[1] = vec![(rest, 0)];
        let stock: Vec<u8> = h.boneyard[h.bone_pos..].to_vec();
        assert!(stock.len() > 1);
        view.stock = Some(stock.clone());
        let mut rng = Rng::new(9);
        for _ in 0..5 {
            let w = view.sample_world(&mut rng).unwrap();
            assert_eq!(w.hands[..2], h.hands[..2]);
            assert_eq!(w.boneyard[w.bone_pos..], stock[..]);
        }
        // a stock that is not the boneyard's tiles is drawn, as with none
        view.stock = Some(stock[1..].to_vec());
        let (mut a, mut b) = (Rng::new(4), Rng::new(4));
        let drawn = view.sample_world(&mut a).unwrap();
        view.stock = None;
        let plain = view.sample_world(&mut b).unwrap();
        assert_eq!(plain.boneyard, drawn.boneyard);
        assert_eq!(plain.hands[..2], h.hands[..2]);
        assert_eq!(a.state, b.state);
    }
}
