//! Inference (`bones.engine.bots.infer`): how likely a sampled world makes
//! the plays the other seats were seen to make, under a model of how they
//! play: a softmax, at temperature `tau`, of the `heuristic` bot's values of
//! their legal moves (the same values the bot maximises, the opponent's
//! proven voids left out of its reply estimate).
//!
//! The world's hands at the start of the hand are its hands now with the
//! tiles each seat has played since put back, which is exact while nobody
//! has drawn: a world is judged only while the history holds no draw (after
//! a draw every world weighs 1). Passes without a draw are forced, so they
//! carry no more than the void bounds the sampler honours already.

use crate::bots::heuristic::{reply_estimate, Hidden, Judge, REPLY};
use crate::kernel::hand::{Hand, HandSetup};
use crate::kernel::moves::{tile_of, DRAW, PLAYING};

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

/// The log-likelihood of the other seats' plays of `history` (`(seat,
/// move, points)` of every move of the hand so far) in `world`, for the
/// observer `seat`; 0 when the history holds a draw.
pub fn log_likelihood<const W: usize>(
    world: &Hand<W>,
    seat: usize,
    history: &[(usize, i64, i64)],
    tau: f64,
) -> f64 {
    if tau <= 0.0 || history.iter().any(|&(_, mv, _)| mv == DRAW) {
        return 0.0;
    }
    let rules = &world.rules;
    let t = &rules.t;
    let players = t.players;
    let mut hands = world.hands[..players].to_vec();
    let mut scores = world.scores.clone();
    for &(s, mv, points) in history {
        if s >= players {
            return 0.0;
        }
        if mv >= 0 {
            hands[s].set(tile_of(mv));
        }
        scores[t.owner[s]] -= points;
    }
    let mut h = Hand::new(
        std::sync::Arc::clone(rules),
        HandSetup {
            hands,
            boneyard: world.boneyard.clone(),
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
    for &(s, mv, _) in history {
        if h.state != PLAYING || h.turn != s {
            break;
        }
        if s != seat && mv >= 0 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::heuristic::{heuristic_decide, Voids};
    use crate::kernel::hand::tests::shuffled_deal;
    use crate::kernel::rng::Rng;
    use crate::kernel::table::{tests::table, Rules};
    use std::sync::Arc;

    #[test]
    fn the_true_world_of_heuristic_play_is_likely_and_a_draw_ends_inference() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        for seed in 0..30u64 {
            let mut h = shuffled_deal(&r, &mut Rng::new(seed), 7);
            h.record = true;
            let mut voids = Voids::<1>::default();
            let mut scratch = h.clone();
            let mut legal = Vec::new();
            for _ in 0..6 {
                if h.state != PLAYING {
                    break;
                }
                h.legal_moves_into(&mut legal);
                let mv = heuristic_decide(&h, &voids, &legal, &mut scratch);
                voids.before_move(&h, mv);
                h.apply(mv, None);
            }
            let history: Vec<(usize, i64, i64)> =
                h.log.iter().map(|&(s, m, p)| (s as usize, m, p)).collect();
            let sharp = log_likelihood(&h, 0, &history, 0.1);
            let soft = log_likelihood(&h, 0, &history, 1000.0);
            assert!(sharp <= 0.0 && sharp.is_finite(), "seed {seed}: {sharp}");
            assert!(soft <= 0.0 && soft.is_finite());
            assert_eq!(log_likelihood(&h, 0, &history, 0.0), 0.0);
            let mut drawn = history.clone();
            drawn.push((h.turn, DRAW, 0));
            assert_eq!(log_likelihood(&h, 0, &drawn, 1.0), 0.0);
        }
    }
}
