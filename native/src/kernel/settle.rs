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
use crate::kernel::table::{Against, Amount, Compare, Per, Round, Settle, SettleKind, Ties};

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

/// The seats behind the owners: each seat's pips and owner (what `per:
/// player` rounds apart, and what `compare: player` and a lock compare), and
/// the locker (the seat that made the last play, if any).
pub struct Seats<'a> {
    pub pips: &'a [i64],
    pub owner: &'a [usize],
    pub locker: Option<usize>,
}

/// `settle.Verdict`: who won a blocked hand as its rule decides it: the
/// winning sides (one, or the tied sides that share), the sides tied when
/// none wins (what `ties: carry` pots), and the seat whose hand won.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    pub winners: Vec<usize>,
    pub tied: Vec<usize>,
    pub seat: Option<usize>,
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

    /// `settle.decide`: who wins a blocked hand under a lightest, locker or
    /// losers_pay rule (the other kinds decide none): `blocker` the side that
    /// made the last play.
    pub fn decide(
        &self,
        pips: &[i64],
        doubles: &[bool],
        blocker: Option<usize>,
        seats: &Seats,
    ) -> Verdict {
        match self.kind {
            SettleKind::Locker => return self.locker(seats),
            SettleKind::Lightest | SettleKind::LosersPay => {}
            _ => return Verdict::default(),
        }
        let players = seats.pips.len();
        // the seats in play order from the one after the locker (0 without one)
        let start = seats.locker.map_or(0, |l| l + 1);
        let mut lowest: Vec<usize> = Vec::new();
        let tied = if self.compare == Compare::Player {
            let low = *seats.pips.iter().min().unwrap();
            lowest = (0..players)
                .map(|i| (start + i) % players)
                .filter(|&s| seats.pips[s] == low)
                .collect();
            let mut owners: Vec<usize> = Vec::new();
            for &s in &lowest {
                if !owners.contains(&seats.owner[s]) {
                    owners.push(seats.owner[s]);
                }
            }
            owners
        } else {
            self.lightest(pips, doubles)
        };
        let mut winners = tied.clone();
        if tied.len() > 1 {
            match self.ties {
                Ties::NotBlocker | Ties::Blocker => {
                    let want = self.ties == Ties::Blocker;
                    winners.retain(|&o| (Some(o) == blocker) == want);
                    if winners.len() != 1 {
                        winners.clear();
                    }
                }
                Ties::Share | Ties::Full => {}
                Ties::Nobody | Ties::Carry => winners.clear(),
            }
        }
        let mut seat = None;
        if let [won] = winners[..] {
            seat = if lowest.is_empty() {
                // the side's lightest hand, the first seat on a tie
                (0..players).filter(|&s| seats.owner[s] == won).min_by_key(|&s| (seats.pips[s], s))
            } else {
                // the first of the side's lowest hands after the locker
                lowest.iter().copied().find(|&s| seats.owner[s] == won)
            };
        }
        let tied = if winners.is_empty() { tied } else { Vec::new() };
        Verdict { winners, tied, seat }
    }

    /// A lock decided between the locker's hand and a neighbour's.
    fn locker(&self, seats: &Seats) -> Verdict {
        let Some(mine) = seats.locker else { return Verdict::default() };
        let players = seats.pips.len();
        let theirs = match self.against {
            Against::Previous => (mine + players - 1) % players,
            Against::Next => (mine + 1) % players,
        };
        let seat = if seats.pips[mine] != seats.pips[theirs] {
            if seats.pips[mine] < seats.pips[theirs] {
                mine
            } else {
                theirs
            }
        } else {
            match self.ties {
                Ties::Blocker => mine,
                Ties::NotBlocker => theirs,
                _ => {
                    let tied = vec![seats.owner[mine], seats.owner[theirs]];
                    return Verdict { winners: Vec::new(), tied, seat: None };
                }
            }
        };
        Verdict { winners: vec![seats.owner[seat]], tied: Vec::new(), seat: Some(seat) }
    }

    /// `settle.carried`: what a tie puts in the pot under `ties: carry`.
    pub fn carried(
        &self,
        pips: &[i64],
        doubles: &[bool],
        blocker: Option<usize>,
        seats: &Seats,
    ) -> i64 {
        if self.kind != SettleKind::Lightest || self.ties != Ties::Carry {
            return 0;
        }
        let tied = self.decide(pips, doubles, blocker, seats).tied;
        if tied.len() < 2 {
            return 0;
        }
        // what one tied hand would have scored alone, from every other hand
        let losers: Vec<usize> = (0..pips.len()).filter(|&o| o != tied[0]).collect();
        self.amount(pips, tied[0], &losers, seats)
    }

    /// `settle.hand_winners`: the owners who won a hand, for `match.check:
    /// hand_winner`. The domino-er; when blocked, the sides the rule's
    /// comparison decides (`decide`: 0 points of settlement included); kinds
    /// that compare no hands compare the pips alone, and a tie has no winner.
    pub fn hand_winners(
        &self,
        pips: &[i64],
        doubles: &[bool],
        domino: Option<usize>,
        blocker: Option<usize>,
        seats: &Seats,
    ) -> Vec<usize> {
        if let Some(d) = domino {
            return vec![d];
        }
        if matches!(self.kind, SettleKind::Lightest | SettleKind::Locker | SettleKind::LosersPay) {
            return self.decide(pips, doubles, blocker, seats).winners;
        }
        let best = *pips.iter().min().unwrap();
        let lightest: Vec<usize> = (0..pips.len()).filter(|&o| pips[o] == best).collect();
        if lightest.len() == 1 {
            lightest
        } else {
            Vec::new()
        }
    }

    /// The score changes of one hand, per owner. `domino` and `blocker` are
    /// owners, if any; `seats` the seats behind them.
    pub fn settle(
        &self,
        pips: &[i64],
        doubles: &[bool],
        domino: Option<usize>,
        blocker: Option<usize>,
        seats: &Seats,
    ) -> Vec<i64> {
        self.settle_in(Vec::new(), pips, doubles, domino, blocker, seats)
    }

    /// `settle` in the buffer `room` (its contents replaced): a hand dealt
    /// again settles in the last one's vector.
    pub fn settle_in(
        &self,
        room: Vec<i64>,
        pips: &[i64],
        doubles: &[bool],
        domino: Option<usize>,
        blocker: Option<usize>,
        seats: &Seats,
    ) -> Vec<i64> {
        let n = pips.len();
        let mut deltas = room;
        deltas.clear();
        deltas.resize(n, 0);
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
            SettleKind::Lightest | SettleKind::Locker | SettleKind::LosersPay => {
                let winners = match domino {
                    Some(d) => vec![d],
                    None => self.decide(pips, doubles, blocker, seats).winners,
                };
                if winners.is_empty() {
                    return deltas;
                }
                if self.kind == SettleKind::LosersPay {
                    // every side that did not win is charged its own pips (a penalty)
                    for o in (0..n).filter(|o| !winners.contains(o)) {
                        deltas[o] = self.of_total(pips[o]);
                    }
                    return deltas;
                }
                // the lightest side or sides (or the lock's winner) score from the others
                let losers: Vec<usize> = (0..n).filter(|o| !winners.contains(o)).collect();
                let total = self.amount(pips, winners[0], &losers, seats);
                let each = if self.ties == Ties::Share && winners.len() > 1 {
                    self.share(total, winners.len())
                } else {
                    total
                };
                for &o in &winners {
                    deltas[o] = each;
                }
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
        r.settle(pips, doubles, domino, blocker, &Seats { pips, owner: &owner, locker: None })
    }

    /// `hand_winners` with every seat its own owner.
    fn winners(r: &Settle, pips: &[i64], doubles: &[bool], domino: Option<usize>) -> Vec<usize> {
        let owner: Vec<usize> = (0..pips.len()).collect();
        let seats = Seats { pips, owner: &owner, locker: Some(0) };
        r.hand_winners(pips, doubles, domino, Some(0), &seats)
    }

    #[test]
    fn the_codes_decode_in_the_table_order() {
        // [kind, amount, flat, unit, per, divisor, ties, doubles_lose, mode, compare, against]
        let r = Settle::from_codes(&[4, 1, 7, 5, 2, 3, 4, 1, 2, 1, 1]).unwrap();
        assert_eq!((r.kind, r.amount, r.flat, r.unit), (Lightest, OpponentsMinusOwn, 7, 5));
        assert_eq!((r.per, r.divisor, r.ties), (Per::Player, 3, Ties::Carry));
        assert!(r.doubles_lose && r.mode == Round::Down);
        assert!(r.compare == Compare::Player && r.against == Against::Next);
        assert!(Settle::from_codes(&[7, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0]).is_err());
        assert!(Settle::from_codes(&[4, 0, 1, 1, 0, 1, 6, 0, 0, 0, 0]).is_err());
        assert!(Settle::from_codes(&[4, 0, 1, 1, 0, 1, 0, 0, 0]).is_err());
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
        let seats = Seats { pips: &[2, 0, 2, 0], owner: &[0, 1, 0, 1], locker: None };
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
        let seats = Seats { pips: &[0, 3, 2, 3], owner: &[0, 1, 0, 1], locker: None };
        assert_eq!(own.settle(&[2, 6], &[false; 2], None, None, &seats), vec![0, -10]);
        let pooled = Settle { per: Per::Aggregate, ..own };
        assert_eq!(pooled.settle(&[2, 6], &[false; 2], None, None, &seats), vec![0, -5]);
    }

    #[test]
    fn hand_winners_follow_the_ties_rule() {
        let mut r = settle(Lightest, Opponents);
        assert_eq!(winners(&r, &[3, 3, 9], &[false; 3], None), Vec::<usize>::new());
        assert_eq!(winners(&r, &[3, 4], &[false; 2], None), vec![0]);
        assert_eq!(winners(&r, &[3, 4], &[false; 2], Some(1)), vec![1]);
        r.ties = Ties::NotBlocker;
        assert_eq!(winners(&r, &[3, 3, 9], &[false; 3], None), vec![1]);
        r.ties = Ties::Share;
        assert_eq!(winners(&r, &[3, 3, 9], &[false; 3], None), vec![0, 1]);
        r.doubles_lose = true;
        assert_eq!(winners(&r, &[3, 5], &[true, false], None), vec![1]);
        let own = settle(OwnPenalty, Opponents);
        assert_eq!(winners(&own, &[3, 3], &[false; 2], None), Vec::<usize>::new());
        assert_eq!(winners(&own, &[2, 3], &[false; 2], None), vec![0]);
    }

    #[test]
    fn a_lock_and_the_lowest_single_hand_decide_like_the_python_reference() {
        // the doctest of settle.decide: seat 0's 3 pips beat team B's pooled 11
        let low = Settle { compare: Compare::Player, ..settle(Lightest, Opponents) };
        let seats = Seats { pips: &[3, 5, 12, 6], owner: &[0, 1, 0, 1], locker: Some(3) };
        let d = low.decide(&[15, 11], &[false; 2], Some(1), &seats);
        assert_eq!(d, Verdict { winners: vec![0], tied: vec![], seat: Some(0) });
        // a lock: seat 0 locked with 9, seat 3 before him holds 7
        let lock = Settle { kind: Locker, ties: Ties::Blocker, ..settle(Lightest, Opponents) };
        let seats = Seats { pips: &[9, 4, 9, 7], owner: &[0, 1, 0, 1], locker: Some(0) };
        assert_eq!(lock.decide(&[18, 11], &[false; 2], Some(0), &seats).seat, Some(3));
        assert_eq!(lock.settle(&[18, 11], &[false; 2], None, Some(0), &seats), vec![0, 18]);
        // the losers pay their own pips
        let pay = settle(LosersPay, Opponents);
        assert_eq!(solo(&pay, &[0, 8, 5], &[false; 3], Some(0), None), vec![0, 8, 5]);
    }
}
