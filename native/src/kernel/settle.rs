//! End-of-hand settlement (`bones.engine.settle`), from the rule's codes.
//! Owners are indices; a domino-er, a blocker or a winner that may be
//! absent is an `Option` (Python's -1 is `None`).

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use crate::kernel::convert::int;
use crate::kernel::table::{Amount, Per, Round, Settle, SettleKind, Ties};

/// Round a non-negative amount to the nearest multiple of `unit` (half up).
pub fn round_nearest(value: i64, unit: i64) -> i64 {
    let (q, r) = (value.div_euclid(unit), value.rem_euclid(unit));
    (q + if 2 * r >= unit { 1 } else { 0 }) * unit
}

/// `settle.round_to`: to a multiple of `unit`, nearest, up or down.
pub fn round_to(value: i64, unit: i64, mode: Round) -> i64 {
    match mode {
        Round::Up => (value + unit - 1).div_euclid(unit) * unit,
        Round::Down => value - value.rem_euclid(unit),
        Round::Nearest => round_nearest(value, unit),
    }
}

/// Each seat's pips with its owner: what `per: player` rounds apart.
pub struct Seats<'a> {
    pub pips: &'a [i64],
    pub owner: &'a [usize],
}

impl Settle {
    fn of_total(&self, pips: i64) -> i64 {
        let mut p = pips.max(0);
        if self.unit > 1 {
            p = round_to(p, self.unit, self.mode);
        }
        p.div_euclid(self.divisor)
    }

    fn of_parts(&self, parts: impl Iterator<Item = i64>) -> i64 {
        if self.per != Per::Aggregate && self.unit > 1 {
            parts.map(|p| round_to(p, self.unit, self.mode)).sum::<i64>().div_euclid(self.divisor)
        } else {
            self.of_total(parts.sum())
        }
    }

    fn share(&self, amount: i64, ways: usize) -> i64 {
        let mut each = amount.div_euclid(int(ways));
        if self.unit > 1 {
            each -= each.rem_euclid(self.unit);
        }
        each
    }

    fn amount(&self, pips: &[i64], winner: usize, losers: &[usize], seats: &Seats) -> i64 {
        match self.amount {
            Amount::Flat => self.flat,
            Amount::Opponents if self.per == Per::Player => self.of_parts(
                (0..seats.pips.len())
                    .filter(|&s| losers.contains(&seats.owner[s]))
                    .map(|s| seats.pips[s]),
            ),
            Amount::Opponents => self.of_parts(losers.iter().map(|&o| pips[o])),
            Amount::OpponentsMinusOwn => {
                self.of_total(losers.iter().map(|&o| pips[o]).sum::<i64>() - pips[winner])
            }
            Amount::AllHands => self.of_total(pips.iter().sum()),
        }
    }

    fn lightest(&self, pips: &[i64], doubles: &[bool]) -> Vec<usize> {
        let key = |o: usize| (self.doubles_lose && doubles[o], pips[o]);
        let best = (0..pips.len()).map(key).min().unwrap();
        (0..pips.len()).filter(|&o| key(o) == best).collect()
    }

    /// `settle.carried`: what a tie puts in the pot under `ties: carry`.
    pub fn carried(&self, pips: &[i64], doubles: &[bool], seats: &Seats) -> i64 {
        if self.kind != SettleKind::Lightest || self.ties != Ties::Carry {
            return 0;
        }
        let lightest = self.lightest(pips, doubles);
        if lightest.len() < 2 {
            return 0;
        }
        // what one tied hand would have scored alone, from every other hand
        let losers: Vec<usize> = (0..pips.len()).filter(|&o| o != lightest[0]).collect();
        self.amount(pips, lightest[0], &losers, seats)
    }

    /// `settle.hand_winners`: the owners who won a hand, for `match.check:
    /// hand_winner`. The domino-er; when blocked, the lightest hand (0 points
    /// of settlement included), a tie decided by the ties rule (`not_blocker`
    /// the one tied hand that did not make the last play, `share` and `full`
    /// every tied hand, `nobody` and `carry` none); kinds without a ties rule
    /// compare the pips alone, and a tie has no winner.
    pub fn hand_winners(
        &self,
        pips: &[i64],
        doubles: &[bool],
        domino: Option<usize>,
        blocker: Option<usize>,
    ) -> Vec<usize> {
        if let Some(d) = domino {
            return vec![d];
        }
        let mut lightest = if self.kind == SettleKind::Lightest {
            self.lightest(pips, doubles)
        } else {
            let best = *pips.iter().min().unwrap();
            (0..pips.len()).filter(|&o| pips[o] == best).collect()
        };
        if lightest.len() == 1 {
            return lightest;
        }
        if self.kind != SettleKind::Lightest {
            return Vec::new();
        }
        match self.ties {
            Ties::NotBlocker => {
                lightest.retain(|&o| Some(o) != blocker);
                if lightest.len() == 1 {
                    lightest
                } else {
                    Vec::new()
                }
            }
            Ties::Share | Ties::Full => lightest,
            Ties::Nobody | Ties::Carry => Vec::new(),
        }
    }

    /// The score changes of one hand, per owner. `domino` and `blocker` are
    /// owners, if any; `seats` each seat's own pips.
    pub fn settle(
        &self,
        pips: &[i64],
        doubles: &[bool],
        domino: Option<usize>,
        blocker: Option<usize>,
        seats: &Seats,
    ) -> Vec<i64> {
        let n = pips.len();
        let mut deltas = vec![0i64; n];
        match self.kind {
            SettleKind::Nobody => {}
            SettleKind::OwnPenalty if self.per == Per::Player => {
                // each partner's own hand rounded on its own (pagat's Sniff)
                for (o, delta) in deltas.iter_mut().enumerate() {
                    *delta = -self.of_parts(
                        (0..seats.pips.len())
                            .filter(|&s| seats.owner[s] == o)
                            .map(|s| seats.pips[s]),
                    );
                }
            }
            SettleKind::OwnPenalty => {
                for o in 0..n {
                    deltas[o] = -self.of_total(pips[o]);
                }
            }
            SettleKind::EachHeavier => {
                for i in 0..n {
                    for &theirs in pips {
                        if theirs > pips[i] {
                            deltas[i] += self.of_total(theirs - pips[i]);
                        }
                    }
                }
            }
            SettleKind::DominoEr => {
                if let Some(d) = domino {
                    let losers: Vec<usize> = (0..n).filter(|&o| o != d).collect();
                    deltas[d] = self.amount(pips, d, &losers, seats);
                }
            }
            SettleKind::Lightest => {
                let mut lightest = self.lightest(pips, doubles);
                if lightest.len() > 1 {
                    match self.ties {
                        Ties::NotBlocker => {
                            lightest.retain(|&o| Some(o) != blocker);
                            if lightest.len() != 1 {
                                return deltas;
                            }
                        }
                        Ties::Share | Ties::Full => {
                            // the tied hands score from the hands that are not tied
                            let losers: Vec<usize> =
                                (0..n).filter(|o| !lightest.contains(o)).collect();
                            let total = self.amount(pips, lightest[0], &losers, seats);
                            let each = if self.ties == Ties::Full {
                                total
                            } else {
                                self.share(total, lightest.len())
                            };
                            for &o in &lightest {
                                deltas[o] = each;
                            }
                            return deltas;
                        }
                        // a carried tie goes to the pot (`carried`)
                        Ties::Nobody | Ties::Carry => return deltas,
                    }
                }
                let w = lightest[0];
                let losers: Vec<usize> = (0..n).filter(|&o| o != w).collect();
                deltas[w] = self.amount(pips, w, &losers, seats);
            }
        }
        deltas
    }
}

/// `settle.hand_winner`: the domino-er, else the one owner with the best
/// positive settlement, if there is one.
pub fn hand_winner(deltas: &[i64], domino: Option<usize>) -> Option<usize> {
    if domino.is_some() {
        return domino;
    }
    let best = *deltas.iter().max().unwrap_or(&0);
    let top: Vec<usize> = (0..deltas.len()).filter(|&o| deltas[o] == best).collect();
    if top.len() == 1 && best > 0 {
        Some(top[0])
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::table::tests::settle;
    use Amount::*;
    use SettleKind::*;

    /// Settle with every seat its own owner.
    fn solo(
        r: &Settle,
        pips: &[i64],
        doubles: &[bool],
        domino: Option<usize>,
        blocker: Option<usize>,
    ) -> Vec<i64> {
        let owner: Vec<usize> = (0..pips.len()).collect();
        r.settle(pips, doubles, domino, blocker, &Seats { pips, owner: &owner })
    }

    #[test]
    fn the_codes_decode_in_the_table_order() {
        // [kind, amount, flat, unit, per, divisor, ties, doubles_lose, mode]
        let r = Settle::from_codes(&[4, 1, 7, 5, 2, 3, 4, 1, 2]).unwrap();
        assert_eq!((r.kind, r.amount, r.flat, r.unit), (Lightest, OpponentsMinusOwn, 7, 5));
        assert_eq!((r.per, r.divisor, r.ties), (Per::Player, 3, Ties::Carry));
        assert!(r.doubles_lose && r.mode == Round::Down);
        assert!(Settle::from_codes(&[5, 0, 1, 1, 0, 1, 0, 0, 0]).is_err());
        assert!(Settle::from_codes(&[4, 0, 1, 1, 0, 1, 5, 0, 0]).is_err());
        assert!(Settle::from_codes(&[4, 0, 1, 1, 0, 1, 0, 0]).is_err());
    }

    #[test]
    fn rounding_half_up() {
        let got: Vec<i64> = [2, 3, 26, 27, 28].iter().map(|&x| round_nearest(x, 5)).collect();
        assert_eq!(got, vec![0, 5, 25, 25, 30]);
    }

    #[test]
    fn dominoer_rounds_per_opponent_and_divides() {
        // opponents' pips 12 and 13, rounded each to 10 + 15, divided by 5
        let base = settle(DominoEr, Opponents);
        let r = Settle { unit: 5, per: Per::Opponent, divisor: 5, ..base.clone() };
        assert_eq!(solo(&r, &[0, 12, 13], &[false; 3], Some(0), None), vec![5, 0, 0]);
        // aggregate: 25 -> 25 / 5
        let r = Settle { unit: 5, divisor: 5, ..base };
        assert_eq!(solo(&r, &[0, 12, 13], &[false; 3], Some(0), None), vec![5, 0, 0]);
        assert_eq!(solo(&r, &[0, 12, 13], &[false; 3], None, None), vec![0, 0, 0]);
    }

    #[test]
    fn lightest_ties() {
        let pips = [5, 5, 20];
        let nobody = settle(Lightest, Opponents);
        assert_eq!(solo(&nobody, &pips, &[false; 3], None, Some(1)), vec![0, 0, 0]);
        let share = Settle { ties: Ties::Share, ..nobody.clone() };
        // the losers' 20 pips shared by two
        assert_eq!(solo(&share, &pips, &[false; 3], None, Some(1)), vec![10, 10, 0]);
        let not_blocker = Settle { ties: Ties::NotBlocker, ..settle(Lightest, OpponentsMinusOwn) };
        // seat 0 did not block: 25 - 5
        assert_eq!(solo(&not_blocker, &pips, &[false; 3], None, Some(1)), vec![20, 0, 0]);
        let doubles_lose = Settle { flat: 7, doubles_lose: true, ..settle(Lightest, Flat) };
        assert_eq!(
            solo(&doubles_lose, &[1, 9, 20], &[true, false, true], None, None),
            vec![0, 7, 0]
        );
    }

    #[test]
    fn rounding_up_down_per_player_and_full_ties() {
        assert_eq!([0, 1, 5, 26].map(|x| round_to(x, 5, Round::Up)), [0, 5, 5, 30]);
        assert_eq!([4, 5, 29].map(|x| round_to(x, 5, Round::Down)), [0, 5, 25]);
        // two teams (seats 0+2, 1+3); team 1 went out; team 0's players hold 2 and 2
        let seats = Seats { pips: &[2, 0, 2, 0], owner: &[0, 1, 0, 1] };
        // per opponent: 4 pooled -> 5
        let r = Settle { unit: 5, per: Per::Opponent, ..settle(DominoEr, Opponents) };
        assert_eq!(r.settle(&[4, 0], &[false; 2], Some(1), None, &seats), vec![0, 5]);
        // per player: 2 -> 0 and 2 -> 0
        let r = Settle { per: Per::Player, ..r };
        assert_eq!(r.settle(&[4, 0], &[false; 2], Some(1), None, &seats), vec![0, 0]);
        // rounded up, per player: 5 + 5
        let r = Settle { mode: Round::Up, ..r };
        assert_eq!(r.settle(&[4, 0], &[false; 2], Some(1), None, &seats), vec![0, 10]);
        // tied lightest hands each score the whole of the rest
        let full = Settle { ties: Ties::Full, ..settle(Lightest, Opponents) };
        assert_eq!(solo(&full, &[5, 5, 20], &[false; 3], None, Some(1)), vec![20, 20, 0]);
    }

    #[test]
    fn cascade_and_own_penalty() {
        let each = settle(EachHeavier, Opponents);
        assert_eq!(solo(&each, &[1, 4, 10], &[false; 3], None, None), vec![12, 6, 0]);
        let own = settle(OwnPenalty, Opponents);
        assert_eq!(solo(&own, &[1, 4], &[false; 2], None, None), vec![-1, -4]);
        assert_eq!(hand_winner(&[0, 3, 3], None), None);
        assert_eq!(hand_winner(&[0, 3, 2], None), Some(1));
        assert_eq!(hand_winner(&[0, 0, 0], Some(2)), Some(2));
    }

    #[test]
    fn own_penalty_per_player_rounds_each_partner() {
        // teams 0 (seats 0, 2) and 1 (seats 1, 3): seat 1 holds 3, seat 3 holds 3
        let own = Settle { unit: 5, per: Per::Player, ..settle(OwnPenalty, Opponents) };
        let seats = Seats { pips: &[0, 3, 2, 3], owner: &[0, 1, 0, 1] };
        assert_eq!(own.settle(&[2, 6], &[false; 2], None, None, &seats), vec![0, -10]);
        let pooled = Settle { per: Per::Aggregate, ..own };
        assert_eq!(pooled.settle(&[2, 6], &[false; 2], None, None, &seats), vec![0, -5]);
    }

    #[test]
    fn hand_winners_follow_the_ties_rule() {
        let mut r = settle(Lightest, Opponents);
        assert_eq!(r.hand_winners(&[3, 3, 9], &[false; 3], None, Some(0)), Vec::<usize>::new());
        assert_eq!(r.hand_winners(&[3, 4], &[false; 2], None, Some(0)), vec![0]);
        assert_eq!(r.hand_winners(&[3, 4], &[false; 2], Some(1), Some(0)), vec![1]);
        r.ties = Ties::NotBlocker;
        assert_eq!(r.hand_winners(&[3, 3, 9], &[false; 3], None, Some(0)), vec![1]);
        r.ties = Ties::Share;
        assert_eq!(r.hand_winners(&[3, 3, 9], &[false; 3], None, Some(0)), vec![0, 1]);
        r.doubles_lose = true;
        assert_eq!(r.hand_winners(&[3, 5], &[true, false], None, Some(0)), vec![1]);
        let own = settle(OwnPenalty, Opponents);
        assert_eq!(own.hand_winners(&[3, 3], &[false; 2], None, Some(0)), Vec::<usize>::new());
        assert_eq!(own.hand_winners(&[2, 3], &[false; 2], None, Some(0)), vec![0]);
    }
}
