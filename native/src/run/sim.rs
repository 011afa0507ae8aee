//! Whole simulations (`bones.sim.simulation.run_batch`) played in the core:
//! game `g` of a run seeded `S` is the match seeded `derive(S, [g])`, with the
//! lineup rotated by `g` over the seats and the bot in seat `s` drawing from
//! `derive(game seed, [BOTS, s])`. Each game's quantities go into the same
//! vector slots as `sim._record_game` writes, summed with their pair
//! products, and into the same histograms: no object per game or per move.
//! A duplicate run (`sim._duplicate_batch`) plays deal `d` from every
//! rotation of the lineup, each game the match seeded `derive(S, [d])` with
//! its leads apart, and sums each deal's vector (`duplicate.DealLayout`) too.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use crate::bots::blunder::{Base, Blunder};
use crate::bots::heuristic::{heuristic_decide, Voids};
use crate::kernel::convert::{int, narrow, wide};
use crate::kernel::game::{unique, Match, BOTS};
use crate::kernel::hand::{Hand, Pick};
use crate::kernel::moves::{BLOCKED, PLAYING};
use crate::kernel::rng::{derive, Rng};
use crate::kernel::table::MatchRules;
use crate::kernel::table::{AnyRules, Rules, MAX_PLAYERS};

/// The build of the simulation's hot loop a batch runs (issue 37). The
/// crate is compiled for the baseline x86-64, which has no `popcnt`
/// instruction: there `count_ones` (`Bits::len`, the random pick's counts)
/// is a sequence of some fifteen instructions. So `Game::play`, one
/// function body, is compiled twice: as it is, and inside a function
/// with the `popcnt` target feature (Intel's x86-64 processors since 2008,
/// AMD's since 2007), chosen once a batch by what the processor reports.
/// Both play the same games: the feature changes instructions, not results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// the baseline build: any processor
    Plain,
    /// compiled with `popcnt`: x86-64 processors that have it
    #[cfg(target_arch = "x86_64")]
    Popcnt,
}

impl Path {
    /// The fastest path this processor runs (the standard library asks
    /// the processor once and keeps the answer).
    pub fn detect() -> Path {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            return Path::Popcnt;
        }
        Path::Plain
    }

    /// Every path this processor can run (the tests play each).
    pub fn available() -> Vec<Path> {
        let mut paths = vec![Path::Plain];
        if Path::detect() != Path::Plain {
            paths.push(Path::detect());
        }
        paths
    }
}

/// The built-in bots a batch plays natively (names as `bones.bots`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bot {
    Random,
    Greedy,
    Heuristic,
    /// `blunder`: its base's move, or with its chance a random one
    Blunder(Blunder),
}

/// The bots' names (`blunder` with its parameters: `Bot::from_name` reads them).
pub const NATIVE_BOTS: &[&str] = &["random", "greedy", "heuristic", "blunder"];

impl Bot {
    pub fn from_name(name: &str) -> Option<Bot> {
        match name {
            "random" => Some(Bot::Random),
            "greedy" => Some(Bot::Greedy),
            "heuristic" => Some(Bot::Heuristic),
            _ => Blunder::parse(name).map(Bot::Blunder),
        }
    }

    /// Whether it reads what the history proves of the hands (`Hand.voids`).
    pub fn reads_voids(self) -> bool {
        matches!(self, Bot::Heuristic | Bot::Blunder(Blunder { base: Base::Heuristic, .. }))
    }
}

/// One finished game's quantities, borrowed from the caller's buffers (no
/// allocation per game): each seat's owner, each owner's result (what
/// places the sides: a train layout's penalties negated) and points, the
/// winning owner (if any), `[moves, blocked hands, hands]`, the first
/// leader, each seat's play points and each owner's settlements.
#[derive(Clone, Copy)]
pub(crate) struct Outcome<'a> {
    pub(crate) owner: &'a [usize],
    pub(crate) result: &'a [i64],
    pub(crate) points: &'a [i64],
    pub(crate) winner: Option<usize>,
    pub(crate) counts: [i64; 3],
    pub(crate) leader: usize,
    pub(crate) play: &'a [i64],
    pub(crate) settle: &'a [i64],
}

/// `sim._Slots`: where one table's per-game quantities sit in the vector.
#[derive(Clone, Debug, Default)]
pub struct Slots {
    pub hands: usize,
    pub moves: usize,
    pub blocked: usize,
    pub leader_win: usize,
    pub tie: usize,
    pub margin: usize,
    /// per seat: its win slot; play, settle and score follow it
    pub seat_win: Vec<usize>,
    /// per distinct bot: likewise
    pub bot_win: Vec<usize>,
    /// (bot a, bot b, slot): a's best side scored more than b's
    pub ahead: Vec<(usize, usize, usize)>,
}

/// A side's slots after its win slot, in the order of `sim._SIDE`.
pub(crate) const PLAY: usize = 1;
pub(crate) const SETTLE: usize = 2;
pub(crate) const SCORE: usize = 3;
/// `sim.TIME_SAMPLE` and `sim.TIME_BINS`
pub(crate) const TIME_SAMPLE: u64 = 16;
pub(crate) const TIME_BINS: f64 = 20.0;

/// The time bin of a decision that took `us` microseconds: `TIME_BINS`
/// bins a factor of e (a small whole number, so the cast is exact).
#[expect(clippy::cast_possible_truncation, reason = "a rounded small float")]
pub(crate) fn time_bin(us: f64) -> i64 {
    (TIME_BINS * us.ln()).round() as i64
}

/// The least length of a batch's vector: every index a byte can hold
/// (`Sim::game_into`'s pair products).
const BYTE_ROOM: usize = 256;

/// Keys below this are counted in a histogram's dense part.
const DENSE: usize = 4096;

/// A histogram of non-negative ints (dense below `DENSE`), others sparse.
#[derive(Clone, Debug, Default)]
pub struct Hist {
    pub dense: Vec<u64>,
    pub sparse: BTreeMap<i64, u64>,
}

impl Hist {
    #[inline(always)]
    pub fn add(&mut self, key: i64) {
        match usize::try_from(key) {
            Ok(k) if k < DENSE => {
                if k >= self.dense.len() {
                    self.dense.resize(k + 1, 0);
                }
                self.dense[k] += 1;
            }
            _ => *self.sparse.entry(key).or_insert(0) += 1,
        }
    }

    /// (key, count) for every key seen, in order.
    pub fn items(&self) -> Vec<(i64, u64)> {
        let mut out: Vec<(i64, u64)> = self.sparse.iter().map(|(&k, &v)| (k, v)).collect();
        out.extend(
            self.dense.iter().enumerate().filter(|(_, &v)| v > 0).map(|(k, &v)| (int(k), v)),
        );
        out.sort_unstable();
        out
    }
}

/// One table's histograms (`sim` names them `{t}.scoring_counts` and so on).
#[derive(Clone, Debug, Default)]
pub struct TableHists {
    pub scoring_counts: Hist,
    pub play_points: Hist,
    pub game_hands: Hist,
    pub margin: Hist,
    /// a duplicate run's deals by result (`duplicate.deal_key`)
    pub deal_results: Hist,
}

/// One table's slots in a duplicate run's deal vector (`duplicate.DealLayout`).
#[derive(Clone, Debug, Default)]
pub struct DealSlots {
    /// the deal's games with a winner
    pub decided: usize,
    /// per distinct bot: its wins over the deal's games
    pub win: Vec<usize>,
    /// per distinct bot: its sides' points over the deal's games
    pub score: Vec<usize>,
}

/// What a duplicate run sums per deal.
#[derive(Clone, Debug, Default)]
pub struct Duplicate {
    /// games a deal: the lineup's different rotations
    pub rotations: usize,
    /// one per table
    pub slots: Vec<DealSlots>,
    /// the deal vector's length and its pairs
    pub size: usize,
    pub pairs: Vec<(usize, usize)>,
}

#[derive(Clone)]
pub struct SimTable {
    pub rules: AnyRules,
    pub m: MatchRules,
    pub slots: Slots,
}

impl SimTable {
    fn own_copy(&self) -> SimTable {
        let rules = match &self.rules {
            AnyRules::W1(r) => AnyRules::W1(Arc::new((**r).clone())),
            AnyRules::W2(r) => AnyRules::W2(Arc::new((**r).clone())),
            AnyRules::W3(r) => AnyRules::W3(Arc::new((**r).clone())),
        };
        SimTable { rules, m: self.m.clone(), slots: self.slots.clone() }
    }
}

/// Everything a batch reads: fixed for a run.
#[derive(Clone)]
pub struct Sim {
    pub tables: Vec<SimTable>,
    /// per lineup entry (before rotation): its bot
    pub lineup: Vec<Bot>,
    /// per lineup entry: the index of its bot among the distinct bots
    pub which: Vec<usize>,
    pub distinct: usize,
    pub players: usize,
    pub size: usize,
    pub pairs: Vec<(usize, usize)>,
    pub hands_only: bool,
    /// a duplicate run's deals (None: every game its own deal)
    pub duplicate: Option<Duplicate>,
}

/// The sums of a batch (`sim.Summary` without the per-bot names).
#[derive(Clone, Debug)]
pub struct Totals {
    pub n: u64,
    pub sums: Vec<i64>,
    pub pairs: Vec<i64>,
    pub hists: Vec<TableHists>,
    /// per distinct bot: sampled decision times, `sim` time bins
    pub timing: Vec<BTreeMap<i64, u64>>,
    /// a duplicate run's deals, their vectors' sums and pair products
    pub deals: u64,
    pub deal_sums: Vec<i64>,
    pub deal_pairs: Vec<i64>,
}

pub(crate) struct Game<'a> {
    pub(crate) sim: &'a Sim,
    pub(crate) seated: Vec<usize>,
    pub(crate) bot_ids: Vec<usize>,
    pub(crate) seed: u64,
    pub(crate) decisions: u64,
    /// the build of `play` the batch runs
    pub(crate) path: Path,
}

/// One table's match, kept from game to game of a batch and started again
/// for each (`Match::restart`: no allocation a game), and its hand, dealt
/// again for each hand (`Match::renew_hand`) once the first is made.
enum Kept {
    W1(Box<Table<1>>),
    W2(Box<Table<2>>),
    W3(Box<Table<3>>),
}

struct Table<const W: usize> {
    /// the match's rules, held apart from it for the batch: `play` reads
    /// them while the match changes, where an `Arc` clone a game (two
    /// atomic operations) did it before (issue 37)
    rules: Arc<Rules<W>>,
    mt: Match<W>,
    hand: Option<Hand<W>>,
    /// where the heuristic plays its candidate moves (`copy_for_play`
    /// makes it the hand it judges each time)
    scratch: Option<Hand<W>>,
    /// the legal moves of a turn and the scores a hand starts from, kept
    /// for the batch (two allocations a game were about 3% of a Sniff
    /// hand's instructions, issue 37)
    legal: Vec<i64>,
    before: Vec<i64>,
}

impl Kept {
    fn of(st: &SimTable, leads_apart: bool) -> Kept {
        fn new<const W: usize>(r: &Arc<Rules<W>>, st: &SimTable, apart: bool) -> Box<Table<W>> {
            let mut mt = Match::new(Arc::clone(r), st.m.clone(), 0);
            mt.leads_apart = apart;
            let (legal, before) = (Vec::with_capacity(64), Vec::with_capacity(r.t.owners));
            Box::new(Table { rules: Arc::clone(r), mt, hand: None, scratch: None, legal, before })
        }
        match &st.rules {
            AnyRules::W1(r) => Kept::W1(new(r, st, leads_apart)),
            AnyRules::W2(r) => Kept::W2(new(r, st, leads_apart)),
            AnyRules::W3(r) => Kept::W3(new(r, st, leads_apart)),
        }
    }
}

impl Sim {
    pub fn check(&self) -> Result<(), String> {
        let players = self.players;
        if self.lineup.len() != players || self.which.len() != players {
            return Err("the lineup must fill every seat".into());
        }
        if self.distinct > players {
            return Err("more distinct bots than seats".into());
        }
        if self.which.iter().any(|&d| d >= self.distinct) {
            return Err("a lineup entry names no distinct bot".into());
        }
        if self.pairs.iter().any(|&(i, j)| i >= self.size || j >= self.size) {
            return Err("a pair product is outside the vector".into());
        }
        for st in &self.tables {
            let table_players = match &st.rules {
                AnyRules::W1(r) => {
                    st.m.check(r)?;
                    r.t.players
                }
                AnyRules::W2(r) => {
                    st.m.check(r)?;
                    r.t.players
                }
                AnyRules::W3(r) => {
                    st.m.check(r)?;
                    r.t.players
                }
            };
            if table_players != players {
                return Err("every table must seat the same players".into());
            }
            let s = &st.slots;
            let mut all = vec![s.hands, s.moves, s.blocked, s.leader_win, s.tie, s.margin];
            if s.seat_win.len() != players || s.bot_win.len() != self.distinct {
                return Err("the slots do not fit the seats and bots".into());
            }
            for &w in s.seat_win.iter().chain(&s.bot_win) {
                all.push(w + SCORE);
            }
            for &(a, b, at) in &s.ahead {
                if a >= self.distinct || b >= self.distinct {
                    return Err("an ahead slot names no bot".into());
                }
                all.push(at);
            }
            if all.iter().any(|&i| i >= self.size) {
                return Err("a slot is outside the vector".into());
            }
        }
        if let Some(dup) = &self.duplicate {
            if dup.rotations == 0
                || dup.rotations > players
                || !players.is_multiple_of(dup.rotations)
            {
                return Err("a duplicate run's rotations must divide the seats".into());
            }
            if dup.slots.len() != self.tables.len() {
                return Err("one deal slots dict per table".into());
            }
            for ds in &dup.slots {
                if ds.win.len() != self.distinct || ds.score.len() != self.distinct {
                    return Err("the deal slots do not fit the bots".into());
                }
                let mut all = vec![ds.decided];
                all.extend(&ds.win);
                all.extend(&ds.score);
                if all.iter().any(|&i| i >= dup.size) {
                    return Err("a deal slot is outside the deal vector".into());
                }
            }
            if dup.pairs.iter().any(|&(i, j)| i >= dup.size || j >= dup.size) {
                return Err("a deal pair is outside the deal vector".into());
            }
        }
        Ok(())
    }

    pub fn empty(&self) -> Totals {
        Totals {
            n: 0,
            sums: vec![0; self.size],
            pairs: vec![0; self.pairs.len()],
            hists: vec![TableHists::default(); self.tables.len()],
            timing: vec![BTreeMap::new(); self.distinct],
            deals: 0,
            deal_sums: vec![0; self.duplicate.as_ref().map_or(0, |d| d.size)],
            deal_pairs: vec![0; self.duplicate.as_ref().map_or(0, |d| d.pairs.len())],
        }
    }

    /// Play games `start..stop` of the run seeded `seed` into `out` (in a
    /// duplicate run, deals), on `path` (`Path::detect`, or one of
    /// `Path::available`).
    pub fn run_into(
        &self,
        path: Path,
        seed: u64,
        start: u64,
        stop: u64,
        out: &mut Totals,
    ) -> Result<(), String> {
        let players = self.players;
        // room for every byte-wide index past the vector's own entries
        // (left 0), so that the pair products' indices, bytes, need no check
        let mut vector = vec![0i64; self.size.max(BYTE_ROOM)];
        let byte_pairs: Option<Vec<(u8, u8)>> = self
            .pairs
            .iter()
            .map(|&(i, j)| Some((u8::try_from(i).ok()?, u8::try_from(j).ok()?)))
            .collect();
        let bytes = byte_pairs.as_deref();
        let apart = self.duplicate.is_some();
        let mut kept: Vec<Kept> = self.tables.iter().map(|st| Kept::of(st, apart)).collect();
        let mut game = Game {
            sim: self,
            seated: vec![0; players],
            bot_ids: vec![0; players],
            seed: 0,
            decisions: 0,
            path,
        };
        if let Some(dup) = &self.duplicate {
            let mut deal = vec![0i64; dup.size];
            for d in start..stop {
                game.seed = derive(seed, &[d]);
                deal.iter_mut().for_each(|v| *v = 0);
                for rot in 0..dup.rotations {
                    self.game_into(&mut game, &mut kept, rot, &mut vector, bytes, out)?;
                    // `duplicate.add_game`, per table
                    for (st, ds) in self.tables.iter().zip(&dup.slots) {
                        let slots = &st.slots;
                        deal[ds.decided] += 1 - vector[slots.tie];
                        for (b, &w) in slots.bot_win.iter().enumerate() {
                            deal[ds.win[b]] += vector[w];
                            deal[ds.score[b]] += vector[w + SCORE];
                        }
                    }
                }
                out.deals += 1;
                for (s, &v) in out.deal_sums.iter_mut().zip(&deal) {
                    *s += v;
                }
                for (p, &(i, j)) in out.deal_pairs.iter_mut().zip(&dup.pairs) {
                    *p += deal[i] * deal[j];
                }
                for (t, ds) in dup.slots.iter().enumerate() {
                    let games = int(dup.rotations);
                    let wins: Vec<i64> = ds.win.iter().map(|&at| deal[at]).collect();
                    out.hists[t].deal_results.add(deal_key(&wins, games - deal[ds.decided], games));
                }
            }
            return Ok(());
        }
        for g in start..stop {
            game.seed = derive(seed, &[g]);
            let rot = narrow(g % wide(players));
            self.game_into(&mut game, &mut kept, rot, &mut vector, bytes, out)?;
        }
        Ok(())
    }

    /// One game (under every table) of `game.seed` with the lineup rotated
    /// by `rot` seats, its quantities left in `vector` (its first `size`
    /// entries; `run_into` gives it `BYTE_ROOM` at least) and added to `out`;
    /// `bytes`: the pairs as bytes, where every index is one.
    fn game_into(
        &self,
        game: &mut Game<'_>,
        kept: &mut [Kept],
        rot: usize,
        vector: &mut [i64],
        bytes: Option<&[(u8, u8)]>,
        out: &mut Totals,
    ) -> Result<(), String> {
        let players = self.players;
        for s in 0..players {
            game.seated[s] = (s + rot) % players;
            game.bot_ids[s] = self.which[game.seated[s]];
        }
        vector[..self.size].iter_mut().for_each(|v| *v = 0);
        for (t, (st, mt)) in self.tables.iter().zip(kept.iter_mut()).enumerate() {
            let hists = &mut out.hists[t];
            let timing = &mut out.timing;
            match mt {
                Kept::W1(mt) => game.play_on(mt, st, vector, hists, timing)?,
                Kept::W2(mt) => game.play_on(mt, st, vector, hists, timing)?,
                Kept::W3(mt) => game.play_on(mt, st, vector, hists, timing)?,
            }
        }
        out.n += 1;
        for (s, &v) in out.sums.iter_mut().zip(vector.iter()) {
            *s += v;
        }
        match (bytes, <&[i64; BYTE_ROOM]>::try_from(&vector[..BYTE_ROOM])) {
            // a byte indexes the room with no check (issue 37: the check of
            // each index was a quarter of the products' instructions)
            (Some(pairs), Ok(room)) => {
                for (p, &(i, j)) in out.pairs.iter_mut().zip(pairs) {
                    *p += room[usize::from(i)] * room[usize::from(j)];
                }
            }
            _ => {
                for (p, &(i, j)) in out.pairs.iter_mut().zip(&self.pairs) {
                    *p += vector[i] * vector[j];
                }
            }
        }
        Ok(())
    }

    /// Games `start..stop` played on a copy of the tables of their own:
    /// batches on other threads then share no reference count (each game
    /// clones the `Arc` of its rules, and a count shared between cores
    /// costs a cache-line transfer each time).
    pub fn run(&self, seed: u64, start: u64, stop: u64) -> Result<Totals, String> {
        self.run_on(Path::detect(), seed, start, stop)
    }

    /// `run` on the given path (one of `Path::available`).
    pub fn run_on(&self, path: Path, seed: u64, start: u64, stop: u64) -> Result<Totals, String> {
        let own =
            Sim { tables: self.tables.iter().map(SimTable::own_copy).collect(), ..self.clone() };
        let mut out = own.empty();
        own.run_into(path, seed, start, stop, &mut out)?;
        Ok(out)
    }
}

/// `duplicate.deal_key`: a deal's result as one integer, each bot's wins
/// and then the ties as the digits of a number in base `games + 1`.
pub fn deal_key(wins: &[i64], ties: i64, games: i64) -> i64 {
    let base = games + 1;
    wins.iter().rev().fold(ties, |key, &w| key * base + w)
}

impl Game<'_> {
    /// The clock of a sampled decision: every `TIME_SAMPLE`-th is timed.
    #[inline(always)]
    fn clock(&self) -> Option<Instant> {
        self.decisions.is_multiple_of(TIME_SAMPLE).then(Instant::now)
    }

    /// A sampled decision's time, into the histogram of the bot in `seat`.
    #[inline(always)]
    fn timed(&self, clock: Option<Instant>, seat: usize, timing: &mut [BTreeMap<i64, u64>]) {
        if let Some(t0) = clock {
            self.time_taken(t0, seat, timing);
        }
    }

    /// `timed`'s sample, out of line: the map's insertion, every
    /// `TIME_SAMPLE`-th decision, kept out of the turn loop that both builds
    /// of `play` inline (issue 37).
    #[cold]
    #[inline(never)]
    fn time_taken(&self, t0: Instant, seat: usize, timing: &mut [BTreeMap<i64, u64>]) {
        let us = t0.elapsed().as_secs_f64().max(1e-7) * 1e6;
        *timing[self.bot_ids[seat]].entry(time_bin(us)).or_insert(0) += 1;
    }

    /// `play` on the batch's path (`Path`): the same body, built as it is
    /// or with `popcnt`.
    #[inline(always)]
    fn play_on<const W: usize>(
        &mut self,
        kept: &mut Table<W>,
        st: &SimTable,
        vector: &mut [i64],
        hists: &mut TableHists,
        timing: &mut [BTreeMap<i64, u64>],
    ) -> Result<(), String> {
        match self.path {
            Path::Plain => self.play(kept, st, vector, hists, timing),
            // SAFETY: `Path::Popcnt` is only chosen (`Path::detect`) where
            // the processor reports the `popcnt` instruction
            #[cfg(target_arch = "x86_64")]
            Path::Popcnt => unsafe { self.play_popcnt(kept, st, vector, hists, timing) },
        }
    }

    /// `play` compiled with the `popcnt` instruction: `play` and what it
    /// inlines (the random pick's counts, the turn loop, the bookkeeping)
    /// use it; the functions it calls (`Hand::apply`, the legal moves' list,
    /// the greedy and heuristic bots, the deal) stay the baseline build.
    /// Calling it on a processor without `popcnt` is undefined behaviour,
    /// hence `unsafe` to call outside such a function.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn play_popcnt<const W: usize>(
        &mut self,
        kept: &mut Table<W>,
        st: &SimTable,
        vector: &mut [i64],
        hists: &mut TableHists,
        timing: &mut [BTreeMap<i64, u64>],
    ) -> Result<(), String> {
        self.play(kept, st, vector, hists, timing)
    }

    /// `sim._play_game` and `_play_hands` for one table: a match (one hand
    /// in hands mode), its quantities written into `vector`. Inlined into
    /// both builds of `play_on` (one source, two compilations).
    #[inline(always)]
    fn play<const W: usize>(
        &mut self,
        kept: &mut Table<W>,
        st: &SimTable,
        vector: &mut [i64],
        hists: &mut TableHists,
        timing: &mut [BTreeMap<i64, u64>],
    ) -> Result<(), String> {
        let Table { rules, mt, hand: slot, scratch, legal, before } = kept;
        if rules.t.trains.is_some() {
            // a train layout's match (run::trains): the one dispatch, per game
            return self.play_trains(rules, st, vector, hists, timing);
        }
        let sim = self.sim;
        let t = &rules.t;
        let players = t.players;
        // per seat, on the stack (no allocation a game)
        let mut bots = [Bot::Random; MAX_PLAYERS];
        let mut rngs = [const { Rng { state: 0 } }; MAX_PLAYERS];
        for s in 0..players {
            bots[s] = sim.lineup[self.seated[s]];
            rngs[s] = Rng::new(derive(self.seed, &[BOTS, wide(s)]));
        }
        let bots = &bots[..players];
        mt.restart(self.seed);
        let mut play = [0i64; MAX_PLAYERS];
        let play = &mut play[..players];
        let mut settle = [0i64; MAX_PLAYERS];
        let settle = &mut settle[..t.owners];
        let (mut moves, mut blocked, mut hands) = (0i64, 0i64, 0i64);
        let mut leader = None;
        // a first hand's own scores, per owner (hands mode), on the stack
        let mut own = [0i64; MAX_PLAYERS];
        let mut hand_only = false;
        self.decisions = 0;
        // what the heuristic reads of the history (Hand.voids)
        let track = bots.iter().any(|b| b.reads_voids());
        let mut voids = Voids::<W>::default();
        while !mt.game_over {
            let hand = match slot {
                Some(hand) => {
                    mt.renew_hand(hand, false)?;
                    hand
                }
                None => slot.insert(mt.new_hand(false)?),
            };
            leader.get_or_insert(hand.leader);
            before.clone_from(&mt.scores);
            voids.clear();
            while hand.state == PLAYING {
                let seat = hand.turn;
                // a random bot's move found from the masks, the list left
                // unwritten: the same draw, timed the same way (issue 37);
                // `Hand::pick_legal` without its closure, which the
                // `popcnt` build of `play` did not inline
                let picked = match bots[seat] {
                    Bot::Random => match hand.picks() {
                        Some(Pick::Forced(mv)) => Some(mv),
                        Some(Pick::Among(picks)) if picks.n > 1 => {
                            self.decisions += 1;
                            let clock = self.clock();
                            let k = rngs[seat].index(picks.n);
                            self.timed(clock, seat, timing);
                            Some(picks.take(k))
                        }
                        Some(Pick::Among(picks)) => Some(picks.take(0)),
                        None => None,
                    },
                    _ => None,
                };
                let mv = match picked {
                    Some(mv) => mv,
                    None => {
                        hand.legal_moves_into(legal);
                        match legal.len() {
                            0 => return Err("a hand with no legal move".into()),
                            // a forced move is made without asking the bot
                            1 => legal[0],
                            n => {
                                self.decisions += 1;
                                let clock = self.clock();
                                let mv = match bots[seat] {
                                    Bot::Random => legal[rngs[seat].index(n)],
                                    Bot::Greedy => hand.greedy_move(legal),
                                    Bot::Heuristic => {
                                        let scratch = scratch.get_or_insert_with(|| hand.clone());
                                        heuristic_decide(hand, &voids, legal, scratch)
                                    }
                                    Bot::Blunder(b) => match b.slip(&mut rngs[seat], n) {
                                        Some(i) => legal[i],
                                        None if b.base == Base::Greedy => hand.greedy_move(legal),
                                        None => {
                                            let scratch =
                                                scratch.get_or_insert_with(|| hand.clone());
                                            heuristic_decide(hand, &voids, legal, scratch)
                                        }
                                    },
                                };
                                self.timed(clock, seat, timing);
                                mv
                            }
                        }
                    }
                };
                if track {
                    voids.before_move(hand, mv);
                }
                hand.apply_inlined(mv, None);
                if hand.last_points > 0 {
                    hists.scoring_counts.add(hand.count);
                    hists.play_points.add(hand.last_points);
                }
            }
            moves += i64::from(hand.moves);
            hands += 1;
            if hand.state == BLOCKED {
                blocked += 1;
            }
            if let Some(deltas) = &hand.settlement {
                for (o, d) in deltas.iter().enumerate() {
                    settle[o] += d;
                }
            }
            for (s, p) in play.iter_mut().enumerate() {
                *p += hand.play_points[s];
            }
            mt.finish_hand(hand);
            if sim.hands_only {
                // the hand's own scores: a game it wins starts the match's again from 0
                for ((o, a), b) in own.iter_mut().zip(&hand.scores).zip(before.iter()) {
                    *o = a - b;
                }
                hand_only = true;
                break;
            }
        }
        let result = &mut own[..t.owners];
        let winner = if hand_only {
            unique(result)
        } else {
            result.copy_from_slice(&mt.scores);
            usize::try_from(mt.winner).ok()
        };
        let result: &[i64] = result;
        let game = Outcome {
            owner: &t.owner,
            result,
            points: result,
            winner,
            counts: [moves, blocked, hands],
            // a match plays a hand at least
            leader: leader.unwrap_or(0),
            play,
            settle,
        };
        self.record(&st.slots, &game, vector, hists);
        Ok(())
    }

    /// `sim._record_game`.
    pub(crate) fn record(
        &self,
        slots: &Slots,
        game: &Outcome<'_>,
        vector: &mut [i64],
        hists: &mut TableHists,
    ) {
        let Outcome {
            owner,
            result,
            points,
            winner,
            counts: [moves, blocked, hands],
            leader,
            play,
            settle,
        } = *game;
        hists.game_hands.add(hands);
        // the best result less the second best (a tie for the best: 0),
        // found in one pass where a sort of the results was a call a game
        let margin = match result {
            [first, rest @ ..] if !rest.is_empty() => {
                let (mut top, mut second) = (*first, i64::MIN);
                for &x in rest {
                    second = second.max(x.min(top));
                    top = top.max(x);
                }
                top - second
            }
            _ => 0,
        };
        hists.margin.add(margin);
        vector[slots.hands] = hands;
        vector[slots.moves] = moves;
        vector[slots.blocked] = blocked;
        vector[slots.leader_win] = i64::from(winner == Some(owner[leader]));
        vector[slots.tie] = i64::from(winner.is_none());
        vector[slots.margin] = margin;
        for (s, &d) in self.bot_ids.iter().enumerate() {
            let o = owner[s];
            let won = i64::from(winner == Some(o));
            let at = slots.seat_win[s];
            vector[at] = won;
            vector[at + PLAY] = play[s];
            vector[at + SETTLE] = settle[o];
            vector[at + SCORE] = points[o];
            let at = slots.bot_win[d];
            // a bot in several seats: it wins when any of its sides wins
            vector[at] = vector[at].max(won);
            vector[at + PLAY] += play[s];
            vector[at + SETTLE] += settle[o];
            vector[at + SCORE] += points[o];
        }
        if slots.bot_win.len() > 1 {
            let mut best = [i64::MIN; MAX_PLAYERS];
            for (s, &d) in self.bot_ids.iter().enumerate() {
                best[d] = best[d].max(result[owner[s]]);
            }
            for &(a, b, at) in &slots.ahead {
                if best[a] > best[b] {
                    vector[at] = 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::codes::Later;
    use crate::kernel::game::LeadRule;
    use crate::kernel::table::tests::{scored_table, set_spinner, table};
    use crate::kernel::table::{Order, Spinner, Table};

    /// sniff-like: 2 players, one bot, the layout of `sim.Layout` for them.
    fn sim(bots: &[Bot], hands_only: bool) -> Sim {
        sim_of(table(6, 2), bots, hands_only)
    }

    /// `sim` on the 2-player table `t`.
    fn sim_of(t: Table, bots: &[Bot], hands_only: bool) -> Sim {
        let players = t.players;
        let r = Arc::new(Rules::<1>::new(t).unwrap());
        let m = MatchRules {
            lead_first: LeadRule::default(),
            lead_later: Later::Dominoer,
            lead_again: LeadRule::default(),
            lead_doubles_only: false,
            boneyard_unread: false,
            games: 1,
            ..MatchRules::default()
        };
        let mut distinct: Vec<Bot> = Vec::new();
        for &b in bots {
            if !distinct.contains(&b) {
                distinct.push(b);
            }
        }
        let lineup: Vec<Bot> = (0..players).map(|s| bots[s % bots.len()]).collect();
        let which = lineup.iter().map(|b| distinct.iter().position(|d| d == b).unwrap()).collect();
        // 6 globals, 4 per seat, 4 per bot, then the ahead slots
        let mut at = 6;
        let seat_win: Vec<usize> = (0..players).map(|s| at + 4 * s).collect();
        at += 4 * players;
        let bot_win: Vec<usize> = (0..distinct.len()).map(|d| at + 4 * d).collect();
        at += 4 * distinct.len();
        let mut ahead = Vec::new();
        for a in 0..distinct.len() {
            for b in 0..distinct.len() {
                if a != b {
                    ahead.push((a, b, at));
                    at += 1;
                }
            }
        }
        let slots = Slots {
            hands: 0,
            moves: 1,
            blocked: 2,
            leader_win: 3,
            tie: 4,
            margin: 5,
            seat_win,
            bot_win,
            ahead,
        };
        let pairs = (0..at).map(|i| (i, i)).collect();
        let s = Sim {
            tables: vec![SimTable { rules: AnyRules::W1(r), m, slots }],
            lineup,
            which,
            distinct: distinct.len(),
            players,
            size: at,
            pairs,
            hands_only,
            duplicate: None,
        };
        s.check().unwrap();
        s
    }

    #[test]
    fn batches_split_anywhere_give_the_same_sums() {
        for hands_only in [false, true] {
            let s = sim(&[Bot::Greedy, Bot::Random], hands_only);
            let whole = s.run(5, 0, 40).unwrap();
            let mut parts = s.run(5, 0, 13).unwrap();
            let rest = s.run(5, 13, 40).unwrap();
            parts.n += rest.n;
            for (a, b) in parts.sums.iter_mut().zip(&rest.sums) {
                *a += b;
            }
            for (a, b) in parts.pairs.iter_mut().zip(&rest.pairs) {
                *a += b;
            }
            assert_eq!(whole.n, 40);
            assert_eq!(parts.sums, whole.sums);
            assert_eq!(parts.pairs, whole.pairs);
            let games: u64 = whole.hists[0].game_hands.items().iter().map(|kv| kv.1).sum();
            assert_eq!(games, 40);
        }
    }

    #[test]
    fn duplicate_deals_split_anywhere_give_the_same_sums() {
        let mut s = sim(&[Bot::Greedy, Bot::Random], true);
        let size = 1 + 2 * s.distinct;
        let pairs = (0..size).flat_map(|i| (i..size).map(move |j| (i, j))).collect();
        s.duplicate = Some(Duplicate {
            rotations: 2,
            slots: vec![DealSlots { decided: 0, win: vec![1, 3], score: vec![2, 4] }],
            size,
            pairs,
        });
        s.check().unwrap();
        let whole = s.run(9, 0, 30).unwrap();
        let mut parts = s.run(9, 0, 11).unwrap();
        let rest = s.run(9, 11, 30).unwrap();
        parts.deals += rest.deals;
        for (a, b) in parts.deal_sums.iter_mut().zip(&rest.deal_sums) {
            *a += b;
        }
        for (a, b) in parts.deal_pairs.iter_mut().zip(&rest.deal_pairs) {
            *a += b;
        }
        assert_eq!((whole.n, whole.deals), (60, 30));
        assert_eq!(parts.deals, whole.deals);
        assert_eq!(parts.deal_sums, whole.deal_sums);
        assert_eq!(parts.deal_pairs, whole.deal_pairs);
        // every game is a win of one bot or a tie; the deals' results count them all
        let ties = whole.sums[4];
        assert_eq!(whole.deal_sums[1] + whole.deal_sums[3] + ties, 60);
        assert_eq!(whole.deal_sums[0], 60 - ties);
        let deals: u64 = whole.hists[0].deal_results.items().iter().map(|kv| kv.1).sum();
        assert_eq!(deals, 30);
    }

    #[test]
    fn every_path_plays_the_same_games() {
        let paths = Path::available();
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            assert_eq!(paths, vec![Path::Plain, Path::Popcnt]);
        }
        // no spinner; sniff's (the first double, sides first); every
        // double a spinner whose arms open once all four sides are covered
        let mut sniff = scored_table(6, 2);
        set_spinner(&mut sniff, Spinner::First, Order::Sides, [2, 2, 2, 1, 0]);
        let mut all4 = scored_table(6, 2);
        set_spinner(&mut all4, Spinner::Every, Order::All4, [2, 2, 0, 0, 0]);
        let lineups: [&[Bot]; 3] =
            [&[Bot::Random], &[Bot::Greedy, Bot::Random], &[Bot::Heuristic, Bot::Random]];
        for t in [table(6, 2), sniff, all4] {
            for bots in lineups {
                for hands_only in [false, true] {
                    let s = sim_of(t.clone(), bots, hands_only);
                    let plain = s.run_on(Path::Plain, 11, 0, 40).unwrap();
                    assert_eq!(plain.n, 40);
                    assert!(plain.sums[1] > 40, "moves were played");
                    let decisions = |t: &Totals| -> Vec<u64> {
                        t.timing.iter().map(|bins| bins.values().sum()).collect()
                    };
                    for &path in &paths[1..] {
                        let other = s.run_on(path, 11, 0, 40).unwrap();
                        assert_eq!(other.n, plain.n);
                        assert_eq!(other.sums, plain.sums, "{path:?}");
                        assert_eq!(other.pairs, plain.pairs, "{path:?}");
                        for (a, b) in other.hists.iter().zip(&plain.hists) {
                            assert_eq!(a.scoring_counts.items(), b.scoring_counts.items());
                            assert_eq!(a.play_points.items(), b.play_points.items());
                            assert_eq!(a.game_hands.items(), b.game_hands.items());
                            assert_eq!(a.margin.items(), b.margin.items());
                        }
                        // the same decisions sampled (their times differ)
                        assert_eq!(decisions(&other), decisions(&plain));
                    }
                }
            }
        }
    }

    #[test]
    fn deal_keys_are_digits_in_base_games_plus_one() {
        assert_eq!(deal_key(&[2, 0], 0, 2), 2);
        assert_eq!(deal_key(&[1, 0], 1, 2), 1 + 9);
        assert_eq!(deal_key(&[0, 1, 2], 1, 3), 4 + 2 * 16 + 64);
    }

    #[test]
    fn totals_are_consistent() {
        let s = sim(&[Bot::Random], false);
        let t = s.run(1, 0, 30).unwrap();
        // every game has a winner or a tie; one bot wins whenever a side does
        let (wins0, wins1) =
            (t.sums[s.tables[0].slots.seat_win[0]], t.sums[s.tables[0].slots.seat_win[1]]);
        let ties = t.sums[4];
        assert_eq!(wins0 + wins1 + ties, 30);
        assert_eq!(t.sums[s.tables[0].slots.bot_win[0]], wins0 + wins1);
        // a match to 100 is over when a side has 100
        assert!(t.sums[s.tables[0].slots.bot_win[0] + SCORE] >= 100 * (30 - ties));
        assert!(t.sums[0] >= 30 && t.sums[1] > t.sums[0]);
    }

    #[test]
    fn histogram_keys_dense_and_sparse() {
        let mut h = Hist::default();
        for k in [3, -2, 5000, 3, 0] {
            h.add(k);
        }
        assert_eq!(h.items(), vec![(-2, 1), (0, 1), (3, 2), (5000, 1)]);
    }
}
