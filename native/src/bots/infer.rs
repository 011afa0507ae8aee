//! Inference (`bones.engine.bots.infer`): how likely a sampled world makes
//! the plays the other seats were seen to make, under a model of how they
//! play: a softmax, at temperature `tau`, of the `heuristic` bot's values of
//! their legal moves (the same values the bot maximises, the opponent's
//! proven voids left out of its reply estimate), at each of the other seats'
//! plays, replayed from the hand's start. Passes and draws are not judged (a
//! pass without a draw is forced, and carries no more than the void bounds
//! the sampler honours already).
//!
//! While nobody has drawn, the world's hands at the start of the hand are
//! its hands now with the tiles each seat has played since put back, and
//! every choice is judged. Once the history holds draws (`draws`; without
//! it every world weighs 1 then), a seat's hand after its own last draw is
//! still exact (its hand now and the tiles it played since): the replay
//! judges only the choices made after the mover's last draw, from a start
//! of the hand consistent with the world (`drawn_tiles`: each draw is given
//! one of the drawer's tiles, held now or played after it, and the replay's
//! boneyard draws exactly those). A replay that turns out inconsistent stops
//! judging there.

use crate::bots::heuristic::{reply_estimate, Hidden, Judge, REPLY};
use crate::kernel::bits::Bits;
use crate::kernel::hand::{Hand, HandSetup};
use crate::kernel::moves::{tile_of, DRAW, PLAYING};

/// Whether `search`'s inference judges the plays made after draws
/// (`idraw`), and the tree's and `epimc`'s inference alike
/// (`infer.DEFAULT_DRAWS`).
pub const DEFAULT_DRAWS: bool = true;

/// `infer.POOL_ESS`: the least effective share of a pool of weighed worlds
/// (the tree's): its weights are tempered (`tempered`) until their
/// effective sample size `(Σw)² / Σw²` is at least this share of the pool.
pub const POOL_ESS: f64 = 0.25;

/// `infer.TEMPER_STEPS`: the halvings of `tempered`'s search for its
/// exponent (a fixed count: both cores find the same exponent).
pub const TEMPER_STEPS: usize = 16;

/// `infer.POOL_DRAWS`: the fewest of a tree's iterations for each world of
/// its pool (`pool_size`): a small budget weighs a few worlds, the default
/// tree (3,960 iterations, a pool of 1,000) its whole pool.
pub const POOL_DRAWS: usize = 3;

/// `infer.POOL_SHARE`: with a time budget, the most of it a tree spends
/// dealing and weighing its pool (at least one world); it grows in the rest.
pub const POOL_SHARE: f64 = 0.5;

/// `infer.pool_size`: the worlds a tree of `iterations` pools for its
/// inference: `worlds`, at most one for every `POOL_DRAWS` of its
/// iterations, at least one.
pub fn pool_size(worlds: usize, iterations: usize) -> usize {
    worlds.min(iterations / POOL_DRAWS).max(1)
}

/// The heuristic's value of every move of `legal` for the mover of the
/// full-information `hand` (`basic.heuristic_move` without its pruning; a
/// pass weighs nothing: `f64::NEG_INFINITY`).
pub(crate) fn heuristic_values<const W: usize>(
    hand: &Hand<W>,
    hidden: &Hidden<'_, W>,
    legal: &[i64],
    scratch: &mut Hand<W>,
    out: &mut Vec<f64>,
) {
    out.clear();
    let judge = Judge::new(hand, hidden);
    let unseen = &hidden.unseen;
    for &mv in legal {
        if mv < 0 {
            out.push(if mv == DRAW { judge.draw(unseen) } else { f64::NEG_INFINITY });
            continue;
        }
        let (mut value, keeps) = judge.play(mv, scratch, false);
        if keeps {
            value -= REPLY * reply_estimate(hand, mv, unseen, judge.p_hold, scratch, false);
        }
        out.push(value);
    }
}

/// The tiles that fit the layout's open ends at each draw of `history`, in
/// order (`infer.open_at_draws`): the history's plays laid on a scratch hand
/// whose every seat holds every tile (the layout depends on the plays alone).
pub(crate) fn open_at_draws<const W: usize>(
    world: &Hand<W>,
    history: &[(usize, i64, i64)],
) -> Vec<Bits<W>> {
    let rules = &world.rules;
    let full = vec![rules.full; rules.t.players];
    let mut setup = HandSetup::new(full, Vec::new(), world.leader);
    setup.number = world.number;
    let mut h = Hand::new(std::sync::Arc::clone(rules), setup);
    let mut out = Vec::new();
    for &(s, mv, _) in history {
        if mv == DRAW {
            out.push(h.open_mask);
        } else if mv >= 0 {
            h.turn = s;
            h.apply(mv, None);
        }
    }
    out
}

/// A tile for each draw of `history` (in order) that makes a start of the
/// hand consistent with `world` (`infer.drawn_tiles`, which explains the
/// choice): from the last draw to the first, of the drawer's tiles still
/// free (held now or played after the draw), those fitting the ends at this
/// draw if it is forced (the drawer keeps the turn); else, leaving out the
/// last free tile fitting the ends of a voluntary draw (this one or an
/// earlier one) if others are free, those fitting the ends at its latest
/// earlier forced draw where some fit, else any; among them the one played
/// soonest, the lowest on ties. None when some draw finds no tile.
pub(crate) fn drawn_tiles<const W: usize>(
    world: &Hand<W>,
    history: &[(usize, i64, i64)],
) -> Option<Vec<u8>> {
    let rules = &world.rules;
    let opens = open_at_draws(world, history);
    let n = history.len();
    let mut free = world.hands[..rules.t.players].to_vec();
    let mut due = vec![n; rules.size];
    // each seat's draws: the ends' tiles at each forced one (none:
    // voluntary), and at each voluntary one (none: forced)
    let mut ends: Vec<Vec<Bits<W>>> = vec![Vec::new(); free.len()];
    let mut able: Vec<Vec<Bits<W>>> = vec![Vec::new(); free.len()];
    let mut forced: Vec<bool> = Vec::with_capacity(opens.len());
    for (i, &(s, mv, _)) in history.iter().enumerate() {
        if mv == DRAW {
            let next = if i + 1 < n { history[i + 1].0 } else { world.turn };
            let keeps = next == s;
            let here = opens[forced.len()];
            ends[s].push(if keeps { here } else { Bits::ZERO });
            able[s].push(if keeps { Bits::ZERO } else { here });
            forced.push(keeps);
        }
    }
    let mut k = forced.len();
    let mut drawn = vec![0u8; k];
    for i in (0..n).rev() {
        let (s, mv, _) = history[i];
        if mv >= 0 {
            let tile = tile_of(mv);
            free[s].set(tile);
            due[tile] = i;
            continue;
        }
        if mv != DRAW {
            continue;
        }
        k -= 1;
        let mine = &mut ends[s];
        let here = mine.pop().unwrap_or(Bits::ZERO);
        able[s].pop();
        let mut cands = free[s];
        if cands.is_zero() {
            return None;
        }
        let mut pick = cands.and(&here);
        if pick.is_zero() {
            // the last free tile fitting the ends of an earlier voluntary
            // draw (or this one) stays in hand, if others are free
            let mut keep = Bits::<W>::ZERO;
            let this = if forced[k] { Bits::ZERO } else { opens[k] };
            for fits in able[s].iter().chain(std::iter::once(&this)) {
                let last = cands.and(fits);
                if last.count() == 1 {
                    keep.or_assign(&last);
                }
            }
            let rest = cands.and_not(&keep);
            if !rest.is_zero() {
                cands = rest;
            }
            let mut j = mine.len();
            while pick.is_zero() && j > 0 {
                j -= 1;
                pick = cands.and(&mine[j]);
            }
            if pick.is_zero() {
                pick = cands;
            }
        }
        let mut best = usize::MAX;
        for t in pick.ones() {
            if best == usize::MAX || due[t] < due[best] {
                best = t;
            }
        }
        free[s].clear(best);
        drawn[k] = u8::try_from(best).expect("a tile id fits a byte");
    }
    Some(drawn)
}

/// The log-likelihood of the other seats' plays of `history` (`(seat,
/// move, points)` of every move of the hand so far) in `world`, for the
/// observer `seat`: 0 when the history holds a draw and not `draws`; with
/// `draws`, the choices made after the mover's last draw.
pub fn log_likelihood<const W: usize>(
    world: &Hand<W>,
    seat: usize,
    history: &[(usize, i64, i64)],
    tau: f64,
    draws: bool,
) -> f64 {
    if tau <= 0.0 {
        return 0.0;
    }
    let rules = &world.rules;
    let t = &rules.t;
    let players = t.players;
    if history.iter().any(|&(s, _, _)| s >= players) {
        return 0.0;
    }
    // each seat's last draw
    let mut last: Vec<Option<usize>> = vec![None; players];
    for (i, &(s, mv, _)) in history.iter().enumerate() {
        if mv == DRAW {
            last[s] = Some(i);
        }
    }
    let drew = last.iter().any(Option::is_some);
    if drew && !draws {
        return 0.0;
    }
    let mut hands = world.hands[..players].to_vec();
    let mut scores = world.scores.clone();
    for &(s, mv, points) in history {
        if mv >= 0 {
            hands[s].set(tile_of(mv));
        }
        scores[t.owner[s]] -= points;
    }
    let mut boneyard = world.boneyard.clone();
    if drew {
        let Some(got) = drawn_tiles(world, history) else {
            return 0.0;
        };
        if got.len() != world.bone_pos {
            return 0.0;
        }
        boneyard[..got.len()].copy_from_slice(&got);
        for (&(s, _, _), &tile) in history.iter().filter(|e| e.1 == DRAW).zip(&got) {
            hands[s].clear(usize::from(tile));
        }
    }
    let mut h = Hand::new(
        std::sync::Arc::clone(rules),
        HandSetup {
            hands,
            boneyard,
            leader: world.leader,
            scores: Some(scores),
            lead_tile: world.lead_tile,
            lead_doubles_only: world.lead_doubles_only,
            out_of_play: world.out_of_play,
            record: false,
            pot: 0,
            got_in: None,
            number: world.number,
        },
    );
    h.bone_end = world.bone_end;
    let mut scratch = h.clone();
    let mut legal = Vec::with_capacity(16);
    let mut values = Vec::with_capacity(16);
    let mut counts = vec![0i64; players];
    let mut ll = 0.0f64;
    for (i, &(s, mv, _)) in history.iter().enumerate() {
        if h.state != PLAYING || h.turn != s {
            break;
        }
        if s != seat && mv >= 0 && last[s].is_none_or(|l| i > l) {
            h.legal_moves_into(&mut legal);
            let played = if h.placed == 0 { mv & !1 } else { mv };
            if legal.len() > 1 {
                let Some(at) = legal.iter().position(|&m| m == played) else {
                    break;
                };
                let mut seen = h.hands[s];
                seen.or_assign(&h.on_table);
                seen.or_assign(&h.out_of_play);
                let unseen = rules.full.and_not(&seen);
                for (o, c) in counts.iter_mut().enumerate() {
                    *c = h.hands[o].count() as i64;
                }
                let hidden = Hidden { unseen, counts: &counts, drawable: h.drawable() as i64 };
                heuristic_values(&h, &hidden, &legal, &mut scratch, &mut values);
                let top = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let mut sum = 0.0f64;
                for &v in &values {
                    sum += ((v - top) / tau).exp();
                }
                ll += (values[at] - top) / tau - sum.ln();
            }
        }
        h.apply(mv, None);
    }
    ll
}

/// Whether the weights `exp(lam * (ll - top))` of `lls` have an effective
/// sample size of at least `need` (`infer.tempered`'s `enough`).
fn enough(lls: &[f64], top: f64, lam: f64, need: f64) -> bool {
    let (mut total, mut squares) = (0.0f64, 0.0f64);
    for &ll in lls {
        let w = (lam * (ll - top)).exp();
        total += w;
        squares += w * w;
    }
    total * total >= need * squares
}

/// The exponent `lam` in [0, 1] that tempers a pool's weights `exp(lam *
/// ll)` (`lls`: the worlds' log-likelihoods, at least one): 1 where their
/// effective sample size is already at least `floor` times the pool's size,
/// else the largest `lam` with that size found by `TEMPER_STEPS` halvings
/// of [0, 1] (`infer.tempered`: the same sums in the same order, the same
/// exponent to the last bit).
pub fn tempered(lls: &[f64], floor: f64) -> f64 {
    let top = lls.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let need = floor * lls.len() as f64;
    if enough(lls, top, 1.0, need) {
        return 1.0;
    }
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..TEMPER_STEPS {
        let mid = 0.5 * (lo + hi);
        if enough(lls, top, mid, need) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::heuristic::{heuristic_decide, Voids};
    use crate::kernel::hand::tests::shuffled_deal;
    use crate::kernel::rng::Rng;
    use crate::kernel::table::{tests::table, Rules};
    use std::sync::Arc;

    /// `h` played on by the heuristic for up to `moves` moves, and its history.
    fn heuristic_play(mut h: Hand<1>, moves: usize) -> (Hand<1>, Vec<(usize, i64, i64)>) {
        h.record = true;
        let mut voids = Voids::<1>::default();
        let mut scratch = h.clone();
        let mut legal = Vec::new();
        for _ in 0..moves {
            if h.state != PLAYING {
                break;
            }
            h.legal_moves_into(&mut legal);
            let mv = heuristic_decide(&h, &voids, &legal, &mut scratch);
            voids.before_move(&h, mv);
            h.apply(mv, None);
        }
        let history = h.log.iter().map(|&(s, m, p)| (s as usize, m, p)).collect();
        (h, history)
    }

    /// The effective sample size of the weights `exp(lam * (ll - max))`.
    fn ess(lls: &[f64], lam: f64) -> f64 {
        let top = lls.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = lls.iter().map(|&ll| (lam * (ll - top)).exp()).collect();
        let s: f64 = w.iter().sum();
        s * s / w.iter().map(|x| x * x).sum::<f64>()
    }

    #[test]
    fn a_tree_pools_no_more_worlds_than_a_third_of_its_iterations() {
        assert_eq!(pool_size(1000, 3960), 1000);
        assert_eq!(pool_size(1000, 5), 1);
        assert_eq!(pool_size(1000, 0), 1);
        assert_eq!(pool_size(1000, 880), 293);
        assert_eq!(pool_size(30, 880), 30);
    }

    #[test]
    fn tempering_keeps_a_share_of_the_pool() {
        // a wide pool is left untouched, a narrow one tempered to the
        // floor by the largest exponent of the bisection's grid
        assert_eq!(tempered(&[0.0; 200], POOL_ESS), 1.0);
        assert_eq!(tempered(&[-3.0], POOL_ESS), 1.0);
        let mut rng = Rng::new(4);
        for spread in [0.5, 40.0, 300.0, 3000.0] {
            let lls: Vec<f64> = (0..200).map(|_| -spread * rng.random().powi(2)).collect();
            let lam = tempered(&lls, POOL_ESS);
            let need = POOL_ESS * 200.0;
            if ess(&lls, 1.0) >= need {
                assert_eq!(lam, 1.0);
                continue;
            }
            let step = 0.5f64.powi(TEMPER_STEPS as i32);
            assert!(lam > 0.0 && lam < 1.0, "{spread} {lam}");
            assert_eq!((lam / step).fract(), 0.0);
            assert!(ess(&lls, lam) >= need && ess(&lls, lam + step) < need, "{spread} {lam}");
        }
        let mut one = vec![-50.0; 100];
        one[0] = 0.0;
        assert_eq!(tempered(&one, 1.0), 0.0);
    }

    #[test]
    fn the_true_world_of_heuristic_play_is_likely_and_draws_end_inference_only_if_asked() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        for seed in 0..30u64 {
            let (h, history) = heuristic_play(shuffled_deal(&r, &mut Rng::new(seed), 7), 6);
            let sharp = log_likelihood(&h, 0, &history, 0.1, false);
            let soft = log_likelihood(&h, 0, &history, 1000.0, false);
            assert!(sharp <= 0.0 && sharp.is_finite(), "seed {seed}: {sharp}");
            assert!(soft <= 0.0 && soft.is_finite());
            assert_eq!(log_likelihood(&h, 0, &history, 0.0, false), 0.0);
            // no draw: judging past draws changes nothing
            assert_eq!(log_likelihood(&h, 0, &history, 0.1, true).to_bits(), sharp.to_bits());
            let mut drawn = history.clone();
            drawn.push((h.turn, DRAW, 0));
            assert_eq!(log_likelihood(&h, 0, &drawn, 1.0, false), 0.0);
        }
    }

    #[test]
    fn past_draws_the_choices_after_the_last_draw_are_judged() {
        // draw until able to play
        let mut t = table(6, 2);
        t.max_draws = crate::kernel::table::UNLIMITED_DRAWS;
        let r = Arc::new(Rules::<1>::new(t).unwrap());
        let (mut judged, mut with_draws) = (0, 0);
        for seed in 0..40u64 {
            let (h, history) = heuristic_play(shuffled_deal(&r, &mut Rng::new(seed), 5), 24);
            if !history.iter().any(|&(_, mv, _)| mv == DRAW) || h.state != PLAYING {
                continue;
            }
            with_draws += 1;
            for seat in 0..2 {
                assert_eq!(log_likelihood(&h, seat, &history, 1.0, false), 0.0);
                let ll = log_likelihood(&h, seat, &history, 1.0, true);
                assert!(ll <= 0.0 && ll.is_finite(), "seed {seed}: {ll}");
                judged += usize::from(ll < 0.0);
            }
            // a consistent start: a tile a draw, each forced draw followed by
            // the drawer's play drew the tile played
            let got = drawn_tiles(&h, &history).expect("the true world has a start");
            assert_eq!(got.len(), h.bone_pos);
            let draws = history.iter().enumerate().filter(|(_, e)| e.1 == DRAW);
            for ((i, &(s, _, _)), &tile) in draws.zip(&got) {
                if let Some(&(next, mv, _)) = history.get(i + 1) {
                    if next == s && mv >= 0 {
                        assert_eq!(usize::from(tile), tile_of(mv), "seed {seed}, draw {i}");
                    }
                }
            }
        }
        assert!(with_draws >= 10 && judged >= with_draws, "{with_draws} {judged}");
    }
}
