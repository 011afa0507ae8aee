//! The built-in players: each reads a seat's view of a hand (never a hidden
//! tile) and takes exactly the Python reference's decisions.

pub mod blunder;
pub mod epimc;
pub mod heuristic;
pub mod infer;
pub mod ismcts;
pub mod matchvalue;
pub mod policy;
pub mod rollouts;
pub mod search;
pub mod solve;
pub mod stop;
pub mod trains;
pub mod world;

use crate::kernel::codes::Check;
use crate::kernel::table::{Table, BELOW_ANY_SCORE};

/// `policies.margin`: side `me`'s points since the scores `base` less the
/// best other side's, what the searches maximise on the points objective.
/// In a penalty match (`match.kind: penalty`, Kozel) and a train layout's
/// rounds (`Rules.lowest_wins`: the hands are charged, the lowest total
/// wins) a side's points count against it, so every side's are negated.
pub(crate) fn margin(t: &Table, now: &[i64], base: &[i64], me: usize) -> i64 {
    let penalty = t.check == Check::Penalty || t.trains.is_some();
    let mut mine = 0;
    let mut theirs = BELOW_ANY_SCORE;
    for (o, (&a, &b)) in now.iter().zip(base).enumerate() {
        let gain = if penalty { b - a } else { a - b };
        if o == me {
            mine = gain;
        } else {
            theirs = theirs.max(gain);
        }
    }
    mine - theirs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::table::tests::table;

    #[test]
    fn a_penalty_match_counts_a_side_s_points_against_it() {
        let mut t = table(6, 2);
        assert_eq!(margin(&t, &[10, 4], &[0, 0], 0), 6);
        t.check = Check::Penalty;
        assert_eq!(margin(&t, &[10, 4], &[0, 0], 0), -6);
        assert_eq!(margin(&t, &[10, 4], &[0, 0], 1), 6);
        assert_eq!(margin(&t, &[13, 9], &[3, 2], 1), 3);
    }
}
