//! The flat rule table (see `bones.engine.flat`) and the tile tables
//! derived from it. Built once per run; the hand only reads it.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use std::sync::Arc;

use crate::kernel::bits::Bits;
pub use crate::kernel::codes::{
    AfterDouble, Against, Amount, Check, Compare, Drawing, Muggins, Order, OverClaim, Per, Points,
    Round, SettleKind, Spinner, Ties, When,
};
use crate::kernel::convert::{byte, int, small};
use crate::kernel::game::LeadRule;
pub use crate::kernel::table_fields::{
    MatchRules, Table, MATCH_FIELDS, TABLE_FIELDS, TABLE_FORMAT,
};

/// Where a table's fields are read from: the binding reads a Python dict,
/// tests a map. Each method fails with a one-line message naming the key.
pub trait Reader {
    /// The int field `key`.
    fn int(&self, key: &str) -> Result<i64, String>;
    /// The list field `key`.
    fn ints(&self, key: &str) -> Result<Vec<i64>, String>;
}

/// The decoders of each kind of field (`bones.engine.flat.KINDS`), which the
/// generated `Table::read` calls.
pub mod read {
    use super::{LeadRule, Reader, Settle};

    pub fn int(r: &impl Reader, key: &str) -> Result<i64, String> {
        r.int(key)
    }

    pub fn flag(r: &impl Reader, key: &str) -> Result<bool, String> {
        Ok(r.int(key)? != 0)
    }

    pub fn count(r: &impl Reader, key: &str) -> Result<usize, String> {
        let v = r.int(key)?;
        usize::try_from(v).map_err(|_| format!("{key} = {v} is negative"))
    }

    pub fn ints(r: &impl Reader, key: &str) -> Result<Vec<i64>, String> {
        r.ints(key)
    }

    pub fn counts(r: &impl Reader, key: &str) -> Result<Vec<usize>, String> {
        r.ints(key)?
            .into_iter()
            .map(|v| usize::try_from(v).map_err(|_| format!("{key} holds {v}, a negative number")))
            .collect()
    }

    pub fn fixed<const N: usize>(r: &impl Reader, key: &str) -> Result<[i64; N], String> {
        <[i64; N]>::try_from(r.ints(key)?).map_err(|_| format!("{key} needs {N} entries"))
    }

    pub fn flags<const N: usize>(r: &impl Reader, key: &str) -> Result<[bool; N], String> {
        Ok(fixed::<N>(r, key)?.map(|v| v != 0))
    }

    pub fn optional(r: &impl Reader, key: &str) -> Result<Option<i64>, String> {
        match r.ints(key)?[..] {
            [] => Ok(None),
            [v] => Ok(Some(v)),
            _ => Err(format!("{key} holds one value or none")),
        }
    }

    pub fn code<T: TryFrom<i64, Error = String>>(r: &impl Reader, key: &str) -> Result<T, String> {
        T::try_from(r.int(key)?)
    }

    pub fn settle(r: &impl Reader, key: &str) -> Result<Settle, String> {
        Settle::from_codes(&r.ints(key)?)
    }

    pub fn lead(r: &impl Reader, key: &str) -> Result<LeadRule, String> {
        LeadRule::from_codes(&r.ints(key)?)
    }

    pub fn trains(
        r: &impl Reader,
        key: &str,
    ) -> Result<Option<crate::kernel::trains::Trains>, String> {
        crate::kernel::trains::Trains::from_codes(&r.ints(key)?)
    }
}

pub const MAX_PLAYERS: usize = 10;
/// The highest pip of the largest tile set (double-18).
pub const MAX_PIP: usize = 18;
/// `max_draws` of a table that draws until a tile fits (`drawing: until`):
/// more than any boneyard holds (`bounds.UNLIMITED_DRAWS`).
pub const UNLIMITED_DRAWS: i64 = 1 << 30;
/// Below every score, gain and points a bot compares: where a running
/// maximum of them starts (`bounds.BELOW_ANY_SCORE`).
pub const BELOW_ANY_SCORE: i64 = -(1 << 30);
/// Tiles of the largest set the widest mask (three words) holds: double-18's
/// 190 fit.
pub const MAX_TILES: usize = 192;

/// One settlement rule: `[kind, amount, flat, unit, per, divisor, ties,
/// doubles_lose, mode]` in the flat table.
#[derive(Clone, Debug, Default)]
pub struct Settle {
    pub kind: SettleKind,
    pub amount: Amount,
    pub flat: i64,
    pub unit: i64,
    /// what is rounded apart: the total, each opponent, each opposing player
    pub per: Per,
    pub divisor: i64,
    pub ties: Ties,
    pub doubles_lose: bool,
    /// which way: nearest, up, down
    pub mode: Round,
    /// what a lightest comparison compares: each side's pooled pips, or each player's own
    pub compare: Compare,
    /// the locker's neighbour, for a lock decided between two hands
    pub against: Against,
}

impl Settle {
    /// The codes of a settlement rule in the flat table, in order.
    pub const FIELDS: [&'static str; 11] = [
        "kind",
        "amount",
        "flat",
        "unit",
        "per",
        "divisor",
        "ties",
        "doubles_lose",
        "mode",
        "compare",
        "against",
    ];

    pub fn from_codes(c: &[i64]) -> Result<Settle, String> {
        if c.len() != Self::FIELDS.len() {
            return Err(format!("a settlement rule has 11 codes, not {}", c.len()));
        }
        if c[3] < 1 || c[5] < 1 {
            return Err("settlement unit and divisor must be at least 1".into());
        }
        Ok(Settle {
            kind: c[0].try_into()?,
            amount: c[1].try_into()?,
            flat: c[2],
            unit: c[3],
            per: c[4].try_into()?,
            divisor: c[5],
            ties: c[6].try_into()?,
            doubles_lose: c[7] != 0,
            mode: c[8].try_into()?,
            compare: c[9].try_into()?,
            against: c[10].try_into()?,
        })
    }
}

impl Table {
    /// Checks what the hand relies on, so a bad table is an error, never a panic.
    pub fn check(&self) -> Result<(), String> {
        if !(2..=MAX_PLAYERS).contains(&self.players) {
            return Err(format!("{} players: the core plays 2 to {}", self.players, MAX_PLAYERS));
        }
        if !(1..=MAX_PIP).contains(&self.highest) {
            return Err(format!("double-{} is not a tile set of the language", self.highest));
        }
        if self.owner.len() != self.players || self.owner.iter().any(|&o| o >= self.owners) {
            return Err("the owner table does not fit the players".into());
        }
        if self.owners == 0 || self.owners > self.players {
            return Err("bad owner count".into());
        }
        if self.opponent_after.len() != self.players
            || self.opponent_after.iter().enumerate().any(|(s, &o)| o >= self.players || o == s)
        {
            return Err("the opponent table does not fit the players".into());
        }
        if self.headers && self.header_points.is_empty() {
            return Err("matching ends without a points table".into());
        }
        if self.points_kind == Points::Divided && self.points_param < 1 {
            return Err("divided points need a divisor of at least 1".into());
        }
        if self.when == When::MultipleOf && self.when_values.iter().any(|&d| d < 1) {
            return Err("divisors must be at least 1".into());
        }
        let tiles = (self.highest + 1) * (self.highest + 2) / 2;
        if self.players * self.hand_size > tiles {
            return Err("the deal needs more tiles than the set has".into());
        }
        if let Some(trains) = &self.trains {
            trains.check(self)?;
        }
        Ok(())
    }

    pub fn size(&self) -> usize {
        (self.highest + 1) * (self.highest + 2) / 2
    }

    /// The mask width a table needs: 64 tiles a word.
    pub fn words(&self) -> usize {
        self.size().div_ceil(64)
    }

    /// `Rules.points`: the table, else the scoring rule computed.
    #[inline(always)]
    pub fn points(&self, count: i64) -> i64 {
        match usize::try_from(count).ok().and_then(|c| self.count_points.get(c)) {
            Some(&points) => points,
            None => self.points_for_count(count),
        }
    }

    /// `rules.points_for_count`: a count of 0 never scores.
    pub fn points_for_count(&self, count: i64) -> i64 {
        if count <= 0 {
            return 0;
        }
        let mut dividing: Vec<i64> = Vec::new();
        match self.when {
            When::MultipleOf => {
                for &d in &self.when_values {
                    if count % d == 0 && !dividing.contains(&d) {
                        dividing.push(d);
                    }
                }
                if dividing.is_empty() {
                    return 0;
                }
            }
            When::InList => {
                if !self.when_values.contains(&count) {
                    return 0;
                }
            }
            // matching ends score by the layout (`Hand::header_points`)
            When::NoPredicate | When::MatchingEnds => return 0,
        }
        match self.points_kind {
            Points::Count => count,
            Points::Divided => count.div_euclid(self.points_param),
            Points::SumOfQuotients => dividing.iter().map(|d| count / d).sum(),
            Points::PerDivisor => count * int(dividing.len()),
            Points::Flat => self.points_param,
        }
    }

    /// The next seat in turn that is not on `seat`'s side (compiled: `opponent_after`).
    #[inline]
    pub fn next_opponent(&self, seat: usize) -> usize {
        self.opponent_after[seat]
    }
}

/// A rule table's kernel tables at the mask width its tile set needs
/// (`Table::words`): what every native object is built from.
#[derive(Clone)]
pub enum AnyRules {
    W1(Arc<Rules<1>>),
    W2(Arc<Rules<2>>),
    W3(Arc<Rules<3>>),
}

/// `$body` with `$r` bound to the `Arc<Rules<W>>` of `$rules` (an
/// `&AnyRules`), at whichever width it has: the one place the three widths
/// are spelt out for a call generic over `W`.
#[macro_export]
macro_rules! with_rules {
    ($rules:expr, $r:ident => $body:expr) => {
        match $rules {
            $crate::kernel::table::AnyRules::W1($r) => $body,
            $crate::kernel::table::AnyRules::W2($r) => $body,
            $crate::kernel::table::AnyRules::W3($r) => $body,
        }
    };
}

impl AnyRules {
    /// Checks the table and compiles it at its width.
    pub fn new(t: Table) -> Result<AnyRules, String> {
        Ok(match t.words() {
            1 => AnyRules::W1(Arc::new(Rules::new(t)?)),
            2 => AnyRules::W2(Arc::new(Rules::new(t)?)),
            _ => AnyRules::W3(Arc::new(Rules::new(t)?)),
        })
    }

    /// How many 64-bit words a tile mask takes.
    pub fn words(&self) -> usize {
        match self {
            AnyRules::W1(_) => 1,
            AnyRules::W2(_) => 2,
            AnyRules::W3(_) => 3,
        }
    }
}

/// The tile set's tables for one mask width.
#[derive(Clone, Debug)]
pub struct Rules<const W: usize> {
    pub t: Table,
    pub size: usize,
    pub low: Vec<u8>,
    pub high: Vec<u8>,
    pub pips: Vec<i64>,
    pub is_double: Vec<bool>,
    /// other_half[tile * (highest + 1) + pip]; -1 where the tile lacks pip
    pub other: Vec<i8>,
    pub matching: Vec<Bits<W>>,
    /// `open[pip + 1]` is `matching[pip]`, every other entry none: the
    /// tiles that fit an arm as the layout's `i8` holds its open pip, -1 (a
    /// closed arm) fitting nothing, found without a branch (`Rules::fitting`;
    /// 256 entries, so that a byte indexes it with no bounds check)
    pub open: Box<[Bits<W>; 256]>,
    /// scoring[base * (highest + 1) + pip]: the tiles of every other half
    /// than `pip` whose count scores laid on an end of `pip` whose arm's
    /// share of the count is `base` (`count_points[base + half] != 0`), for
    /// every `base` whose window `base..=base + highest` the points table
    /// holds (the heuristic's reply scan, issue 37)
    pub scoring: Vec<Bits<W>>,
    pub doubles: Bits<W>,
    pub full: Bits<W>,
    pub next_seat: Vec<usize>,
    pub plain_arms: bool,
    /// `t.double_weight` as the layout's `arm_weight` holds it
    pub double_weight: i8,
}

impl<const W: usize> Rules<W> {
    pub fn new(t: Table) -> Result<Self, String> {
        t.check()?;
        if t.words() > W {
            return Err(format!("{} tiles need {} mask words", t.size(), t.words()));
        }
        let n = t.highest;
        let double_weight = i8::try_from(t.double_weight)
            .map_err(|_| format!("a double's weight of {} is out of range", t.double_weight))?;
        let (mut low, mut high) = (Vec::new(), Vec::new());
        for a in 0..=n {
            for b in a..=n {
                low.push(byte(a));
                high.push(byte(b));
            }
        }
        let size = low.len();
        let mut matching = vec![Bits::<W>::ZERO; n + 1];
        let mut doubles = Bits::<W>::ZERO;
        let mut full = Bits::<W>::ZERO;
        let mut other = vec![-1i8; size * (n + 1)];
        for tile in 0..size {
            let (l, h) = (usize::from(low[tile]), usize::from(high[tile]));
            matching[l].set(tile);
            matching[h].set(tile);
            full.set(tile);
            if l == h {
                doubles.set(tile);
            }
            other[tile * (n + 1) + l] = small(h);
            other[tile * (n + 1) + h] = small(l);
        }
        // none where no count scores (block and train games): the reply
        // scan then finds nothing either way, and a table keeps no dead rows
        let bases = if t.count_points.iter().any(|&p| p != 0) {
            (t.count_points.len() + 1).saturating_sub(n + 1)
        } else {
            0
        };
        let mut scoring = vec![Bits::<W>::ZERO; bases * (n + 1)];
        for (base, row) in scoring.chunks_exact_mut(n + 1).enumerate() {
            for (pip, mask) in row.iter_mut().enumerate() {
                for (half, tiles) in matching.iter().enumerate() {
                    if half != pip && t.count_points[base + half] != 0 {
                        mask.or_assign(tiles);
                    }
                }
            }
        }
        let players = t.players;
        Ok(Rules {
            size,
            pips: low.iter().zip(&high).map(|(&a, &b)| i64::from(a) + i64::from(b)).collect(),
            is_double: low.iter().zip(&high).map(|(a, b)| a == b).collect(),
            low,
            high,
            other,
            open: {
                let mut open = Box::new([Bits::ZERO; 256]);
                open[1..=n + 1].copy_from_slice(&matching);
                open
            },
            matching,
            scoring,
            doubles,
            full,
            next_seat: (0..players).map(|s| (s + 1) % players).collect(),
            plain_arms: t.plain_arms,
            double_weight,
            t,
        })
    }

    #[inline(always)]
    pub fn other_half(&self, tile: usize, pip: usize) -> i64 {
        i64::from(self.other_pip(tile, pip))
    }

    /// `other_half` as the layout's `i8` fields hold a pip.
    #[inline(always)]
    pub fn other_pip(&self, tile: usize, pip: usize) -> i8 {
        self.other[tile * (self.t.highest + 1) + pip]
    }

    /// The tiles that fit an arm open on `pip` as the layout's `i8` holds
    /// it: `matching[pip]`, none for -1 (a closed arm), with no branch on
    /// which (issue 37).
    #[inline(always)]
    pub fn fitting(&self, pip: i8) -> &Bits<W> {
        &self.open[usize::from(pip.wrapping_add(1).cast_unsigned())]
    }

    pub fn pips_of(&self, mask: &Bits<W>) -> i64 {
        mask.ones().map(|t| self.pips[t]).sum()
    }

    /// The tile id of the double `d`.
    pub fn double(&self, d: usize) -> usize {
        // ids run 0-0..0-N, 1-1..1-N, ...: row a starts at a*(N+1) - a(a-1)/2
        let n = self.t.highest;
        d * (n + 1) - d * d.saturating_sub(1) / 2
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A settlement by `kind` of `amount`, unrounded, ties scoring nothing.
    pub fn settle(kind: SettleKind, amount: Amount) -> Settle {
        Settle {
            kind,
            amount,
            flat: 1,
            unit: 1,
            per: Per::Aggregate,
            divisor: 1,
            ties: Ties::Nobody,
            doubles_lose: false,
            mode: Round::Nearest,
            compare: Compare::Side,
            against: Against::Previous,
        }
    }

    /// A test table's spinner: the facts `bones.lang.compile` makes of
    /// `kind` (its `_SPINS`), with `order` and the spinner's `mult`.
    pub fn set_spinner(t: &mut Table, kind: Spinner, order: Order, mult: [i64; 5]) {
        let (led, before, after) = match kind {
            Spinner::None => (false, false, false),
            Spinner::First | Spinner::Inline => (true, true, false),
            Spinner::Every => (true, true, true),
            Spinner::Led => (true, false, false),
            Spinner::EveryButLed => (false, true, true),
        };
        t.order = order;
        t.plain_arms = order != Order::All4;
        t.spinner_mult = mult;
        t.spins_led = led;
        t.spins_later = [before, after];
        t.cross_stubs = kind == Spinner::Inline;
        t.lead_double_mult = if led { mult } else { [2, t.double_weight, 0, 0, 0] };
        let spinners = if after { t.highest + 1 } else { usize::from(led || before) };
        t.max_arms = 2 + 2 * spinners;
    }

    /// [`table`] with its counts' points compiled, as a variant's table has
    /// them (the native workloads' table).
    pub fn scored_table(highest: usize, players: usize) -> Table {
        let mut t = table(highest, players);
        t.count_points = (0..=200).map(|c| t.points_for_count(c)).collect();
        t
    }

    /// A test table: every field at its default (`Default`: false, 0,
    /// empty, each code's first) but the ones a test game needs.
    pub fn table(highest: usize, players: usize) -> Table {
        Table {
            players,
            owners: players,
            owner: (0..players).collect(),
            opponent_after: (0..players).map(|s| (s + 1) % players).collect(),
            highest,
            hand_size: 7,
            order: Order::Any,
            plain_arms: true,
            spinner_mult: [2, 2, 0, 0, 0],
            double_weight: 2,
            lead_double_mult: [2, 2, 0, 0, 0],
            max_arms: 2,
            scores_plays: true,
            when: When::MultipleOf,
            when_values: vec![5, 3],
            points_kind: Points::SumOfQuotients,
            must_play_drawn: true,
            check: Check::HandEnd,
            target: 100,
            settle_domino: settle(SettleKind::DominoEr, Amount::Opponents),
            settle_blocked: settle(SettleKind::Lightest, Amount::Opponents),
            tree_scale: 20,
            ..Table::default()
        }
    }

    #[test]
    fn points_like_the_compiler() {
        // the doctest of rules.points_for_count: fives and threes
        let t = table(6, 2);
        let got: Vec<i64> = [3, 5, 15, 30, 0, 7].iter().map(|&c| t.points(c)).collect();
        assert_eq!(got, vec![1, 1, 8, 16, 0, 0]);
        let mut t = table(6, 2);
        t.when = When::InList;
        t.when_values = vec![6, 10];
        t.points_kind = Points::Flat;
        t.points_param = 3;
        assert_eq!([6, 7, 10].map(|c| t.points(c)), [3, 0, 3]);
    }

    #[test]
    fn tile_tables_for_every_width() {
        let r = Rules::<3>::new(table(18, 2)).unwrap();
        assert_eq!(r.size, 190);
        assert_eq!(r.matching[18].count(), 19);
        assert_eq!(r.doubles.count(), 19);
        for d in 0..=18 {
            let t = r.double(d);
            assert!(r.is_double[t] && usize::from(r.low[t]) == d, "double {d} at {t}");
        }
        assert!(Rules::<1>::new(table(18, 2)).is_err());
        let r = Rules::<1>::new(table(6, 4)).unwrap();
        assert_eq!(r.size, 28);
        assert_eq!(r.other_half(r.double(6) - 1, 6), 5);
        assert_eq!(r.t.next_opponent(3), 0);
    }
}
