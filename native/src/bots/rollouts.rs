//! How a search plays out the rest of a sampled world (`bones.bots.rollouts`):
//! a fast full-information policy a move.

use crate::bots::heuristic::{heuristic_move_in, Hidden};
use crate::kernel::bits::Bits;
use crate::kernel::hand::Hand;
use crate::kernel::rng::Rng;

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

/// The rollout policy's move in the full-information `hand`
/// (`search._greedy_policy` and the others).
pub(crate) fn rollout_move<const W: usize>(
    hand: &Hand<W>,
    policy: Policy,
    rng: &mut Rng,
    legal: &mut Vec<i64>,
    counts: &mut Vec<i64>,
    play: &mut Option<Hand<W>>,
) -> i64 {
    hand.legal_moves_into(legal);
    if legal.len() == 1 {
        return legal[0];
    }
    match policy {
        Policy::Greedy => hand.greedy_move(legal),
        Policy::Random => legal[rng.index(legal.len())],
        Policy::Heuristic => {
            let r = &*hand.rules;
            let seat = hand.turn;
            let mut seen = hand.hands[seat];
            seen.or_assign(&hand.on_table);
            seen.or_assign(&hand.out_of_play);
            let unseen = r.full.and_not(&seen);
            counts.clear();
            counts.extend((0..r.t.players).map(|s| i64::from(hand.hands[s].count())));
            // the heuristic tries its moves in `play`, one hand kept for the
            // whole search (`copy_for_play` sets every field it reads)
            let play = play.get_or_insert_with(|| hand.clone());
            let hidden = Hidden { unseen, counts, drawable: hand.drawable() as i64 };
            heuristic_move_in(hand, &hidden, &Bits::ZERO, legal, play, false)
        }
    }
}
