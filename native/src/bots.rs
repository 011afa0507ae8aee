//! The `heuristic` bot (`bones.engine.bots.basic.heuristic_move`), taking
//! exactly its decisions: it reads the mover's view of the hand (the other
//! hands scrubbed, as `Hand.public_copy` leaves them), the unseen tiles, the
//! tile counts, the drawable tiles and the tiles the next opponent is proven
//! not to hold. Floats are computed in the Python code's order, so the
//! values (and so the ties) are the same to the last bit.

use crate::bits::Bits;
use crate::hand::{Hand, DRAW, PASS};

const REPLY: f64 = 0.7;
const VARIETY: f64 = 1.5;
const SHED: f64 = 0.25;
const SHED_LATE: f64 = 1.0;
const DRAW_COST: f64 = 2.0;

/// A seat shown void of the open numbers (`Hand.voids`): it passed or was
/// forced to draw while holding none of `mask`; `then` is what it had drawn
/// by then and `played` the tiles of `mask` it has played since.
#[derive(Clone, Debug)]
pub struct Void<const W: usize> {
    pub seat: usize,
    pub mask: Bits<W>,
    pub then: u32,
    pub played: u32,
}

/// What a seat knows beyond the layout, tracked move by move.
#[derive(Clone, Debug, Default)]
pub struct Voids<const W: usize> {
    pub list: Vec<Void<W>>,
}

impl<const W: usize> Voids<W> {
    pub fn clear(&mut self) {
        self.list.clear();
    }

    /// Call before `hand.apply(mv)`: records a void as `Hand.apply` does and
    /// counts plays of tiles under earlier voids.
    #[inline]
    pub fn before_move(&mut self, hand: &Hand<W>, mv: i64) {
        let seat = hand.turn;
        if mv < 0 {
            if !hand.hands[seat].intersects(&hand.open_mask) {
                self.list.push(Void { seat, mask: hand.open_mask, then: hand.drawn[seat],
                                      played: 0 });
            }
        } else if !self.list.is_empty() {
            let tile = (mv >> 7) as usize;
            for v in self.list.iter_mut() {
                if v.seat == seat && v.mask.has(tile) {
                    v.played += 1;
                }
            }
        }
    }

    /// `barred_for(observe(hand, observer), seat)`: the unseen tiles `seat`
    /// is proven not to hold.
    pub fn barred_for(&self, hand: &Hand<W>, observer: usize, seat: usize, unseen: &Bits<W>)
                      -> Bits<W> {
        let mut barred = Bits::<W>::ZERO;
        if seat == observer {
            return barred;
        }
        let count = hand.hands[seat].count() as i64;
        for v in &self.list {
            if v.seat != seat {
                continue;
            }
            let mask = v.mask.and(unseen);
            let cap = hand.drawn[seat] as i64 - v.then as i64 - v.played as i64;
            if mask.is_zero() || cap >= count {
                continue;
            }
            if cap == 0 {
                barred.or_assign(&mask);
            }
        }
        barred
    }
}

impl<const W: usize> Hand<W> {
    /// `Hand.public_copy(seat)`: the other hands emptied.
    pub fn public_copy(&self, seat: usize) -> Hand<W> {
        let mut new = self.clone();
        new.record = false;
        new.log = Vec::new();
        for (s, h) in new.hands.iter_mut().enumerate() {
            if s != seat {
                *h = Bits::ZERO;
            }
        }
        new
    }

    fn variety(&self, mask: &Bits<W>) -> i64 {
        let r = &*self.rules;
        r.matching.iter().filter(|m| m.intersects(mask)).count() as i64
    }
}

/// The heuristic bot's move in seat `seat` of the live `hand` (it sees only
/// what `observe(hand, seat)` shows).
pub fn heuristic_decide<const W: usize>(hand: &Hand<W>, voids: &Voids<W>, legal: &[i64]) -> i64 {
    if legal.len() == 1 {
        return legal[0];
    }
    let r = &*hand.rules;
    let seat = hand.turn;
    let public = hand.public_copy(seat);
    let own = hand.hands[seat];
    let mut seen = own;
    seen.or_assign(&hand.on_table);
    seen.or_assign(&hand.out_of_play);
    let unseen = r.full.and_not(&seen);
    let players = r.t.players;
    let counts: Vec<i64> = (0..players).map(|s| hand.hands[s].count() as i64).collect();
    let drawable = hand.drawable() as i64;
    let opponent = r.t.next_opponent(seat);
    let barred = voids.barred_for(hand, seat, opponent, &unseen);
    heuristic_move(&public, &unseen, &counts, drawable, &barred, legal)
}

/// `basic.heuristic_move` on the mover's view `hand`.
pub fn heuristic_move<const W: usize>(hand: &Hand<W>, unseen: &Bits<W>, counts: &[i64],
                                      drawable: i64, barred: &Bits<W>, legal: &[i64]) -> i64 {
    if legal.len() == 1 {
        return legal[0];
    }
    let r = &*hand.rules;
    let t = &r.t;
    let seat = hand.turn;
    let mine = hand.hands[seat];
    let opponent = t.next_opponent(seat);
    let n_unseen = unseen.count() as i64;
    let p_hold = if n_unseen != 0 { (1.0f64).min(counts[opponent] as f64 / n_unseen as f64) } else { 0.0 };
    let others_min = (0..counts.len())
        .filter(|&s| s != seat && t.owner[s] != t.owner[seat])
        .map(|s| counts[s])
        .min()
        .unwrap_or(0);
    let late = drawable == 0 && (others_min <= 2 || counts[seat] <= 3);
    let shed = if late { SHED_LATE } else { SHED };
    let avg_pips = if n_unseen != 0 { r.pips_of(unseen) as f64 / n_unseen as f64 } else { 0.0 };
    let candidates = unseen.and_not(barred);
    let (mut best, mut best_value) = (-1i64, f64::NEG_INFINITY);
    for &mv in legal {
        if mv < 0 {
            continue;
        }
        let tile = (mv >> 7) as usize;
        let points = hand.points_if(mv);
        let mut left = mine;
        left.clear(tile);
        let mut value = points as f64 + shed * r.pips[tile] as f64;
        if left.is_zero() {
            let theirs: i64 = (0..counts.len())
                .filter(|&s| t.owner[s] != t.owner[seat])
                .map(|s| counts[s])
                .sum();
            value += avg_pips * theirs as f64;
        } else {
            value += VARIETY * hand.variety(&left) as f64;
            value -= REPLY * reply_estimate(hand, mv, &candidates, p_hold);
        }
        if value > best_value {
            best = mv;
            best_value = value;
        }
    }
    if best < 0 {
        return if legal.contains(&DRAW) { DRAW } else { PASS };
    }
    if legal.contains(&DRAW) {
        let stay = VARIETY * hand.variety(&mine) as f64 - shed * avg_pips - DRAW_COST
            - REPLY * reply_on(hand, seat, &candidates, p_hold);
        if stay > best_value {
            return DRAW;
        }
    }
    best
}

fn reply_estimate<const W: usize>(hand: &Hand<W>, mv: i64, candidates: &Bits<W>, p_hold: f64) -> f64 {
    if p_hold == 0.0 || !hand.rules.t.scores_plays {
        return 0.0;
    }
    let mut after = hand.clone();
    after.apply(mv, None);
    if after.state != 0 {
        return 0.0;
    }
    reply_on(&after, hand.turn, candidates, p_hold)
}

fn reply_on<const W: usize>(after: &Hand<W>, mover: usize, candidates: &Bits<W>, p_hold: f64) -> f64 {
    let r = &*after.rules;
    let t = &r.t;
    if p_hold == 0.0 || !t.scores_plays {
        return 0.0;
    }
    let turned;
    let after = if after.turn == mover {
        let mut c = after.clone();
        c.turn = t.next_opponent(mover);
        turned = c;
        &turned
    } else {
        after
    };
    if t.owner[after.turn] == t.owner[mover] {
        return 0.0;
    }
    let mut replies: Vec<i64> = Vec::new();
    for arm in 0..after.n_arms {
        let pip = after.arm_open[arm];
        if pip >= 0 {
            let fits = candidates.and(&r.matching[pip as usize]);
            for tile in fits.ones() {
                let points = after.points_if((tile as i64) << 7 | (arm as i64) << 1);
                if points != 0 {
                    replies.push(points);
                }
            }
        }
    }
    if replies.is_empty() {
        return 0.0;
    }
    replies.sort_unstable_by(|a, b| b.cmp(a));
    let (mut expected, mut none_higher) = (0.0f64, 1.0f64);
    for &points in &replies {
        expected += points as f64 * p_hold * none_higher;
        none_higher *= 1.0 - p_hold;
    }
    expected
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::PLAYING;
    use crate::rng::Rng;
    use crate::table::{tests::table, Rules};
    use std::sync::Arc;

    fn dealt(r: &Arc<Rules<1>>, seed: u64) -> Hand<1> {
        let mut rng = Rng::new(seed);
        let mut tiles: Vec<u8> = (0..r.size as u8).collect();
        rng.shuffle(&mut tiles);
        let mut hands = [Bits::<1>::ZERO; 2];
        for (i, &t) in tiles[..10].iter().enumerate() {
            hands[i / 5].set(t as usize);
        }
        Hand::new(Arc::clone(r), &hands, &tiles[10..], 0, None, -1, false, Bits::ZERO, false)
    }

    #[test]
    fn the_heuristic_plays_legal_moves_to_the_end() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        for seed in 0..100 {
            let mut h = dealt(&r, seed);
            let mut voids = Voids::<1>::default();
            let mut legal = Vec::new();
            while h.state == PLAYING {
                h.legal_moves_into(&mut legal);
                let mv = heuristic_decide(&h, &voids, &legal);
                assert!(legal.contains(&mv), "seed {seed}: {mv} not in {legal:?}");
                voids.before_move(&h, mv);
                h.apply(mv, None);
            }
        }
    }

    #[test]
    fn a_forced_draw_bars_the_open_numbers_until_more_is_drawn() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        let mut h = dealt(&r, 3);
        let mut voids = Voids::<1>::default();
        let lead = h.legal_moves()[0];
        voids.before_move(&h, lead);
        h.apply(lead, None);
        // seat 1 is shown void when it must draw: pretend it holds nothing that fits
        let open = h.open_mask;
        h.hands[1] = h.hands[1].and_not(&open);
        voids.before_move(&h, crate::hand::DRAW);
        let unseen = r.full.and_not(&h.hands[0]).and_not(&h.on_table);
        let barred = voids.barred_for(&h, 0, 1, &unseen);
        assert_eq!(barred, open.and(&unseen));
        // after the draw it may hold one of them: no longer barred
        h.drawn[1] += 1;
        assert!(voids.barred_for(&h, 0, 1, &unseen).is_zero());
        // the observer never bars itself
        assert!(voids.barred_for(&h, 1, 1, &unseen).is_zero());
    }
}
