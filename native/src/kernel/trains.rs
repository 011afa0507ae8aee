//! Train layouts (docs/trains.md): a hub double with lines ("trains",
//! "arms") growing from it, move for move the same as
//! `bones.engine.trains.TrainHand`, and a match of rounds with a hub double
//! chosen by round (`bones.engine.match.Match` on a train layout).
//!
//! A line or spinner game never comes here: the flat table's `trains` field
//! is `None` for them, and the simulation dispatches a train table to
//! [`TrainMatch`] once per game, so their hot path is untouched.
//!
//! The layout is a list of arms, each a line with one open end (`arm_open`,
//! -1 once closed) and an owner ([`Owner`]). Plays are the move codes of
//! `bones.engine.moves`: `tile << 7 | arm << 1`, with [`HUB_ARM`] and
//! [`FOOT_ARM`] for a tile laid against the hub or the double owed toes
//! (each makes the next arm); the hub's placement is a lead code.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use std::sync::Arc;

use crate::kernel::bits::Bits;
use crate::kernel::convert::{byte, int, small, wide};
use crate::kernel::game::{Match, DEALS};
use crate::kernel::moves::{lead_code, play_code, BLOCKED, DOMINO, DRAW, PASS, PLAYING};
use crate::kernel::rng::{derive, Rng};
use crate::kernel::table::{MatchRules, Rules, Table, MAX_PLAYERS};

/// The move arm of a tile laid against the hub double (`moves.HUB_ARM`).
pub const HUB_ARM: usize = 61;
/// The move arm of a tile laid against the double owed toes (`moves.FOOT_ARM`).
pub const FOOT_ARM: usize = 62;
/// The most arms a train layout may make: every move arm below [`HUB_ARM`].
pub const MAX_TRAIN_ARMS: usize = HUB_ARM;

/// A train layout's rules (`bones.engine.rules.TrainRules`), read from the
/// flat table's `trains` field: its fields in `bones.engine.flat.TRAIN_FIELDS`
/// order, then each tile's charge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trains {
    /// round 1's hub double; round r uses top - (r - 1)
    pub top: usize,
    /// rounds of a match
    pub rounds: usize,
    /// placing the hub is the placer's whole turn
    pub placing_ends_turn: bool,
    /// a personal train per seat, with its marker
    pub seat_trains: bool,
    /// public trains
    pub public: usize,
    /// a public train only for a seat whose own train is started
    pub public_needs_own: bool,
    /// a first turn may start or extend a public train
    pub public_in_first_turn: bool,
    /// tiles that must lie against the hub before any other play
    pub hub_tiles: usize,
    /// tiles a double at an arm's end is owed before other play (0: none)
    pub cover: i64,
    /// each cover makes a new arm (the arm of the double closes)
    pub toes: bool,
    /// the player who lays a double covers it in the same turn
    pub cover_self: bool,
    /// a first turn lays any number of tiles on one's own train
    pub first_turn_multi: bool,
    /// a first turn of several tiles may be stopped early (pass)
    pub first_turn_stop: bool,
    /// the owner's marker comes off when he plays anywhere
    pub marker_off_anywhere: bool,
    /// charged for a marker on one's train at the round's end
    pub marker_penalty: i64,
    /// a total at or above this ends the match (0: rounds only)
    pub lose_at: i64,
    /// a double its player cannot cover binds nobody
    pub cover_self_only: bool,
    /// after a double its player lays one more tile anywhere
    pub one_more_anywhere: bool,
    /// a double owed covers is released once no tile could cover it
    pub release: bool,
    /// the others' charges multiplied by this when going out on a double
    pub out_on_double: i64,
    /// the hub is set aside before the deal, the first player by lot
    pub hub_set_aside: bool,
    /// a turn goes on while a tile can be laid
    pub many_per_turn: bool,
    /// the first double on an arm is a spinner (two more arms), not a foot
    pub first_spinner: bool,
    /// what each tile id left in a hand is charged
    pub values: Vec<i64>,
}

impl Trains {
    /// The fields before the tiles' charges, in the flat table's order.
    pub const FIELDS: [&'static str; 23] = [
        "top",
        "rounds",
        "placing_ends_turn",
        "seat_trains",
        "public",
        "public_needs_own",
        "public_in_first_turn",
        "hub_tiles",
        "cover",
        "toes",
        "cover_self",
        "first_turn_multi",
        "first_turn_stop",
        "marker_off_anywhere",
        "marker_penalty",
        "lose_at",
        "cover_self_only",
        "one_more_anywhere",
        "release",
        "out_on_double",
        "hub_set_aside",
        "many_per_turn",
        "first_spinner",
    ];

    /// `[]` for a line or spinner layout, else the fields and the charges.
    pub fn from_codes(c: &[i64]) -> Result<Option<Trains>, String> {
        if c.is_empty() {
            return Ok(None);
        }
        let n = Self::FIELDS.len();
        if c.len() <= n {
            return Err(format!("a train layout has {n} fields and a charge per tile"));
        }
        let count = |i: usize| {
            usize::try_from(c[i])
                .map_err(|_| format!("trains.{} = {} is negative", Self::FIELDS[i], c[i]))
        };
        Ok(Some(Trains {
            top: count(0)?,
            rounds: count(1)?,
            placing_ends_turn: c[2] != 0,
            seat_trains: c[3] != 0,
            public: count(4)?,
            public_needs_own: c[5] != 0,
            public_in_first_turn: c[6] != 0,
            hub_tiles: count(7)?,
            cover: c[8],
            toes: c[9] != 0,
            cover_self: c[10] != 0,
            first_turn_multi: c[11] != 0,
            first_turn_stop: c[12] != 0,
            marker_off_anywhere: c[13] != 0,
            marker_penalty: c[14],
            lose_at: c[15],
            cover_self_only: c[16] != 0,
            one_more_anywhere: c[17] != 0,
            release: c[18] != 0,
            out_on_double: c[19],
            hub_set_aside: c[20] != 0,
            many_per_turn: c[21] != 0,
            first_spinner: c[22] != 0,
            values: c[n..].to_vec(),
        }))
    }

    /// What the train hand relies on, against the rest of the table: a bad
    /// table is an error, never a panic. The rules a train layout never
    /// plays (scoring plays, bonuses, teams) are refused with their reason.
    pub fn check(&self, t: &Table) -> Result<(), String> {
        if self.values.len() != t.size() {
            return Err("a train layout needs one charge per tile".into());
        }
        if self.top > t.highest {
            return Err(format!("the double-{} set has no [{}-{}]", t.highest, self.top, self.top));
        }
        let arms = if self.seat_trains { t.players + self.public } else { 0 };
        if arms >= MAX_TRAIN_ARMS {
            return Err("too many trains for a move's arm field".into());
        }
        if t.owners != t.players {
            return Err("train layouts are played each for himself".into());
        }
        if t.scores_plays {
            return Err("a train layout scores no play".into());
        }
        if t.ends_pay || t.capicua_points != 0 || t.round_pass != 0 {
            return Err("its pass, capicua or last-tile bonuses on a train layout are not \
                        ported"
                .into());
        }
        if t.max_draws < 1 {
            return Err("a train layout draws when a player cannot play".into());
        }
        Ok(())
    }

    /// The most arms a round can make (`bones.seat.actions.train_arms`): a
    /// personal train per seat, the public trains, the arms laid against
    /// the hub and, where covers are new arms (`toes`), `cover` of them for
    /// every double but the hub's (two for the first, where it spins).
    pub fn most_arms(&self, players: usize, highest: usize) -> usize {
        let mut grown = self.hub_tiles;
        if self.toes {
            let cover = usize::try_from(self.cover).unwrap_or(0);
            grown += cover * highest;
            if self.first_spinner {
                grown += 2usize.saturating_sub(cover);
            }
        }
        players * usize::from(self.seat_trains) + self.public + grown
    }

    /// The hub double's number in round `round` (1 first).
    pub fn hub_pip(&self, round: usize) -> usize {
        self.top.saturating_sub(round.saturating_sub(1))
    }
}

/// Whose an arm is (`TrainHand.arm_owner`: a seat, -1, -2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// a seat's personal train, with its marker
    Seat(usize),
    /// a public train
    Public,
    /// an arm grown from the hub or a foot
    Arm,
}

impl Owner {
    /// As the Python hand's `arm_owner` holds it.
    pub fn code(self) -> i64 {
        match self {
            Owner::Seat(s) => int(s),
            Owner::Public => -1,
            Owner::Arm => -2,
        }
    }
}

/// A double owed covers (`TrainHand.owed`'s entries).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owed {
    /// the arm it lies on, `None` for a foot (its covers are new arms)
    pub arm: Option<usize>,
    /// its number
    pub pip: usize,
    /// covers still owed
    pub left: i64,
    /// laid in a first turn (binds nobody until every seat has had one)
    pub first: bool,
}

/// A pip as the Python hand indexes its tables with it: -1, a closed end,
/// reads the highest pip's entry (`matching[-1]`); valid variant files never
/// ask (`spec._check_trains`), but both cores answer alike.
#[inline(always)]
fn pip_index(pip: i8, highest: usize) -> usize {
    usize::try_from(pip).unwrap_or(highest)
}

/// One round of a train layout (`bones.engine.trains.TrainHand`).
#[derive(Clone)]
pub struct TrainHand<const W: usize> {
    pub rules: Arc<Rules<W>>,
    pub hands: [Bits<W>; MAX_PLAYERS],
    pub boneyard: Vec<u8>,
    pub bone_pos: usize,
    /// the boneyard's length less the reserve (never drawn)
    pub bone_end: usize,
    pub on_table: Bits<W>,
    pub arm_open: Vec<i8>,
    pub arm_end: Vec<i8>,
    pub arm_owner: Vec<Owner>,
    pub marked: [bool; MAX_PLAYERS],
    pub owed: Vec<Owed>,
    pub first_done: [bool; MAX_PLAYERS],
    /// tiles laid by the player to move in this turn
    pub laid_turn: u32,
    /// the arm whose double the mover must cover now
    pub must_cover: Option<usize>,
    /// the mover lays one more tile, anywhere, after his double
    pub extra: bool,
    /// the first double on an arm was laid as a spinner
    pub spun: bool,
    /// tiles still owed to the hub
    pub hub_left: usize,
    pub hub_arms: usize,
    pub turn: usize,
    pub leader: usize,
    /// the round's hub double
    pub lead_tile: usize,
    pub placed: u32,
    pub passes: i64,
    pub drawn_turn: i64,
    pub drawn: [u32; MAX_PLAYERS],
    pub scores: Vec<i64>,
    pub state: u8,
    pub game_over: bool,
    pub winner: Option<usize>,
    pub domino_seat: Option<usize>,
    pub last_player: Option<usize>,
    pub settlement: Option<Vec<i64>>,
    pub won_by: Option<usize>,
    /// (seat, move, points) per move, when recording
    pub log: Vec<(u8, i64, i64)>,
    pub record: bool,
    pub moves: u32,
    /// the hand's number in the match
    pub number: usize,
}

impl<const W: usize> TrainHand<W> {
    /// A round dealt as `hands` and `boneyard` (drawing order), the holder
    /// of the hub double `lead_tile` to place it.
    pub fn new(
        rules: Arc<Rules<W>>,
        hands: &[Bits<W>],
        boneyard: Vec<u8>,
        leader: usize,
        lead_tile: usize,
        scores: Option<Vec<i64>>,
        number: usize,
    ) -> Self {
        let t = &rules.t;
        let multi = t.trains.as_ref().is_some_and(|tr| tr.first_turn_multi);
        let mut h = [Bits::<W>::ZERO; MAX_PLAYERS];
        h[..hands.len()].copy_from_slice(hands);
        TrainHand {
            hands: h,
            bone_end: boneyard.len().saturating_sub(t.reserve),
            boneyard,
            bone_pos: 0,
            on_table: Bits::ZERO,
            arm_open: Vec::with_capacity(16),
            arm_end: Vec::with_capacity(16),
            arm_owner: Vec::with_capacity(16),
            marked: [false; MAX_PLAYERS],
            owed: Vec::new(),
            first_done: [!multi; MAX_PLAYERS],
            laid_turn: 0,
            must_cover: None,
            extra: false,
            spun: false,
            hub_left: 0,
            hub_arms: 0,
            turn: leader,
            leader,
            lead_tile,
            placed: 0,
            passes: 0,
            drawn_turn: 0,
            drawn: [0; MAX_PLAYERS],
            scores: scores.unwrap_or_else(|| vec![0; t.owners]),
            state: PLAYING,
            game_over: false,
            winner: None,
            domino_seat: None,
            last_player: None,
            settlement: None,
            won_by: None,
            log: Vec::new(),
            record: false,
            moves: 0,
            number,
            rules,
        }
    }

    /// The train layout's rules (present: a train hand is made only for them).
    #[inline(always)]
    fn tr(&self) -> &Trains {
        self.rules.t.trains.as_ref().expect("a train hand has a train layout")
    }

    pub fn drawable(&self) -> usize {
        self.bone_end.saturating_sub(self.bone_pos)
    }

    /// The hub double's number.
    pub fn hub_number(&self) -> usize {
        usize::from(self.rules.low[self.lead_tile])
    }

    /// What `seat`'s hand is charged (the tile values of the rules).
    pub fn pips_left(&self, seat: usize) -> i64 {
        let values = &self.tr().values;
        self.hands[seat].ones().map(|t| values[t]).sum()
    }

    fn matching(&self, pip: i8) -> &Bits<W> {
        &self.rules.matching[pip_index(pip, self.rules.t.highest)]
    }

    fn far(&self, tile: usize, pip: i8) -> i8 {
        self.rules.other_pip(tile, pip_index(pip, self.rules.t.highest))
    }

    /// The oldest owed double every player must serve now, if any (its index).
    pub fn binding(&self) -> Option<usize> {
        if self.must_cover.is_some() || self.extra {
            return None;
        }
        let players = self.rules.t.players;
        let all_done = self.first_done[..players].iter().all(|&d| d);
        self.owed.iter().position(|o| !o.first || all_done)
    }

    /// The player to move is in his first turn of several tiles.
    pub fn in_first_turn(&self) -> bool {
        !self.first_done[self.turn]
    }

    fn own_arm(&self, seat: usize) -> Option<usize> {
        self.tr().seat_trains.then_some(seat)
    }

    /// (move arm, pip) of every place `seat` may lay a tile now, into `out`;
    /// `everywhere`: as if every train carried a marker and no first turn
    /// restricted it (the blocked test).
    pub fn targets_into(&self, seat: usize, everywhere: bool, out: &mut Vec<(usize, i8)>) {
        out.clear();
        self.each_target(seat, everywhere, |arm, pip| out.push((arm, pip)));
    }

    /// `targets_into`'s places, in its order, each given to `out` (no list made).
    fn each_target(&self, seat: usize, everywhere: bool, mut out: impl FnMut(usize, i8)) {
        if self.placed == 0 {
            return;
        }
        if self.hub_left > 0 {
            out(HUB_ARM, small(self.hub_number()));
            return;
        }
        if let (Some(arm), false) = (self.must_cover, everywhere) {
            out(arm, self.arm_open[arm]);
            return;
        }
        if let Some(i) = self.binding() {
            let owed = self.owed[i];
            out(owed.arm.unwrap_or(FOOT_ARM), small(owed.pip));
            return;
        }
        let tr = self.tr();
        let own = self.own_arm(seat);
        if !everywhere && self.in_first_turn() && !self.first_done[seat] {
            if let Some(own) = own.filter(|&a| self.arm_open[a] >= 0) {
                out(own, self.arm_open[own]);
            }
            if tr.public_in_first_turn {
                for (a, o) in self.arm_owner.iter().enumerate() {
                    if *o == Owner::Public {
                        out(a, self.arm_open[a]);
                    }
                }
            }
            return;
        }
        let own_unstarted = own.is_some_and(|a| self.arm_end[a] < 0);
        for (a, &owner) in self.arm_owner.iter().enumerate() {
            let pip = self.arm_open[a];
            if pip < 0 {
                continue;
            }
            match owner {
                Owner::Seat(o) if o != seat && !everywhere && !self.marked[o] => continue,
                Owner::Public if tr.public_needs_own && own_unstarted => continue,
                _ => {}
            }
            out(a, pip);
        }
    }

    /// The legal moves of the player to move, into `out` (`TrainHand.legal_moves`).
    pub fn legal_moves_into(&self, out: &mut Vec<i64>) {
        out.clear();
        if self.state != PLAYING {
            return;
        }
        let seat = self.turn;
        let held = self.hands[seat];
        if self.placed == 0 {
            if held.has(self.lead_tile) {
                out.push(lead_code(self.lead_tile));
            }
            return;
        }
        self.each_target(seat, false, |arm, pip| {
            for tile in held.and(self.matching(pip)).ones() {
                out.push(play_code(tile, arm));
            }
        });
        let t = &self.rules.t;
        if !out.is_empty() {
            if self.may_stop() || (self.drawn_turn != 0 && !t.must_play_drawn) {
                out.push(PASS);
            }
            return;
        }
        if self.laid_turn > 0 && self.in_first_turn() {
            out.push(PASS); // stopping a first turn that cannot go on
            return;
        }
        if self.drawable() > 0 && self.drawn_turn < t.max_draws {
            out.push(DRAW);
        } else {
            out.push(PASS);
        }
    }

    pub fn legal_moves(&self) -> Vec<i64> {
        let mut out = Vec::with_capacity(32);
        self.legal_moves_into(&mut out);
        out
    }

    pub fn is_legal(&self, mv: i64) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// The mover may end his first turn after laying a tile (`pass`).
    fn may_stop(&self) -> bool {
        self.state == PLAYING
            && self.laid_turn > 0
            && self.in_first_turn()
            && self.tr().first_turn_stop
            && self.must_cover.is_none()
    }

    /// Play `mv` (legal: the caller checks) for the player to move.
    pub fn apply(&mut self, mv: i64) {
        let seat = self.turn;
        self.moves += 1;
        if self.record {
            self.log.push((byte(seat), mv, 0));
        }
        if mv == DRAW {
            self.draw(seat);
            self.check_blocked();
            return;
        }
        if mv == PASS {
            self.pass(seat);
            return;
        }
        let tile = crate::kernel::moves::tile_of(mv);
        self.hands[seat].clear(tile);
        self.on_table.set(tile);
        self.placed += 1;
        self.last_player = Some(seat);
        self.passes = 0;
        if self.placed == 1 {
            self.place_hub(seat);
            return;
        }
        let ended_turn = self.lay(seat, tile, crate::kernel::moves::arm_of(mv));
        if self.hands[seat].is_zero() {
            self.domino_seat = Some(seat);
            self.end_round(DOMINO, Some(tile));
            return;
        }
        if ended_turn {
            self.next_turn();
        } else {
            self.check_blocked();
        }
    }

    fn new_arm(&mut self, pip: i8, owner: Owner, started: bool) {
        self.arm_open.push(pip);
        self.arm_end.push(if started { pip } else { -1 });
        self.arm_owner.push(owner);
    }

    fn place_hub(&mut self, seat: usize) {
        let hub = small(self.hub_number());
        let (seat_trains, public, hub_tiles, ends_turn) = {
            let tr = self.tr();
            (tr.seat_trains, tr.public, tr.hub_tiles, tr.placing_ends_turn)
        };
        if seat_trains {
            for owner in 0..self.rules.t.players {
                self.new_arm(hub, Owner::Seat(owner), false);
            }
        }
        for _ in 0..public {
            self.new_arm(hub, Owner::Public, false);
        }
        self.hub_left = hub_tiles;
        if ends_turn {
            self.first_done[seat] = true;
            self.next_turn();
        } else {
            self.check_blocked();
        }
    }

    /// Lay `tile` on `arm`; whether the turn is over.
    fn lay(&mut self, seat: usize, tile: usize, arm: usize) -> bool {
        let first = self.in_first_turn();
        self.laid_turn += 1;
        self.extra = false;
        if arm == HUB_ARM {
            let far = self.far(tile, small(self.hub_number()));
            self.new_arm(far, Owner::Arm, true);
            self.hub_arms += 1;
            self.hub_left -= 1;
            return !first && !self.goes_on(seat);
        }
        if arm == FOOT_ARM {
            let i = self.binding().expect("a play on the foot has a foot to serve");
            let far = self.far(tile, small(self.owed[i].pip));
            self.new_arm(far, Owner::Arm, true);
            self.served(i);
            return !first && !self.goes_on(seat);
        }
        let (seat_trains, off_anywhere, cover, toes) = {
            let tr = self.tr();
            (tr.seat_trains, tr.marker_off_anywhere, tr.cover, tr.toes)
        };
        let (cover_self, one_more, release) = {
            let tr = self.tr();
            (tr.cover_self, tr.one_more_anywhere, tr.release)
        };
        let far = self.far(tile, self.arm_open[arm]);
        self.arm_open[arm] = far;
        self.arm_end[arm] = far;
        if seat_trains && (self.arm_owner[arm] == Owner::Seat(seat) || off_anywhere) {
            self.marked[seat] = false;
        }
        if let Some(i) = self.owed.iter().position(|o| o.arm == Some(arm)) {
            self.served(i);
        }
        if self.must_cover == Some(arm) {
            self.must_cover = None;
        }
        let pip = pip_index(far, self.rules.t.highest);
        if self.rules.is_double[tile] && cover != 0 && !self.spin(far) {
            if toes {
                self.arm_open[arm] = -1; // the double closes its arm
                self.owed.push(Owed { arm: None, pip, left: cover, first });
            } else {
                self.owed.push(Owed { arm: Some(arm), pip, left: cover, first });
            }
            if (cover_self || one_more) && !self.hands[seat].is_zero() {
                if first {
                    // a first turn goes on with the cover if the player holds one
                    if self.hands[seat].intersects(&self.rules.matching[pip]) {
                        self.must_cover = Some(arm);
                        return false;
                    }
                    self.first_done[seat] = true;
                    return true;
                }
                if one_more {
                    self.extra = true; // one more tile, anywhere he may
                } else if release && !self.live().intersects(&self.rules.matching[pip]) {
                    return true; // nothing left could cover it: released, the turn ends
                } else {
                    self.must_cover = Some(arm);
                }
                self.drawn_turn = 0; // a new draw for the cover (or the tile after)
                return false;
            }
            if first {
                self.first_done[seat] = true;
                return true;
            }
            return !self.goes_on(seat);
        }
        if first {
            if self.drawn_turn != 0 {
                // a drawn tile laid ends a first turn
                self.first_done[seat] = true;
                return true;
            }
            if let Some(own) = self.own_arm(seat) {
                if self.hands[seat].intersects(self.matching(self.arm_open[own])) {
                    return false;
                }
            }
            self.first_done[seat] = true;
            return true;
        }
        !self.goes_on(seat)
    }

    /// `doubles.first_spinner`: the first double laid on an arm owes
    /// nothing; its arm goes on through it and two arms start from its sides
    /// (made now, open at its number). Whether it was that double.
    fn spin(&mut self, pip: i8) -> bool {
        if !self.tr().first_spinner || self.spun {
            return false;
        }
        self.spun = true;
        self.new_arm(pip, Owner::Arm, true);
        self.new_arm(pip, Owner::Arm, true);
        true
    }

    /// `turn_tiles: all_that_fit`: the turn goes on while the mover can lay
    /// a tile (a tile drawn and laid ends it).
    fn goes_on(&self, seat: usize) -> bool {
        if !self.tr().many_per_turn || self.drawn_turn != 0 {
            return false;
        }
        let held = &self.hands[seat];
        let mut fits = false;
        self.each_target(seat, false, |_, pip| fits |= held.intersects(self.matching(pip)));
        fits
    }

    fn served(&mut self, i: usize) {
        self.owed[i].left -= 1;
        if self.owed[i].left <= 0 {
            self.owed.remove(i);
        }
    }

    fn draw(&mut self, seat: usize) {
        let tile = usize::from(self.boneyard[self.bone_pos]);
        self.bone_pos += 1;
        self.hands[seat].set(tile);
        self.drawn_turn += 1;
        self.drawn[seat] += 1;
    }

    fn pass(&mut self, seat: usize) {
        let stop = self.laid_turn > 0 && self.in_first_turn();
        if !stop && self.tr().seat_trains {
            self.marked[seat] = true;
        }
        self.first_done[seat] = true;
        self.passes += 1;
        self.next_turn();
    }

    fn next_turn(&mut self) {
        self.must_cover = None;
        self.extra = false;
        if self.tr().cover_self_only {
            self.owed.clear(); // a double its player left bare binds nobody
        }
        self.turn = self.rules.next_seat[self.turn];
        self.drawn_turn = 0;
        self.laid_turn = 0;
        self.check_blocked();
    }

    /// End the round when nothing can be drawn and no hand holds a tile
    /// that could be laid (every train counted open).
    fn check_blocked(&mut self) {
        if self.state != PLAYING || self.placed == 0 {
            return;
        }
        if !self.owed.is_empty() && self.tr().release {
            self.release();
        }
        if self.drawable() > 0 {
            return;
        }
        for seat in 0..self.rules.t.players {
            let held = &self.hands[seat];
            let mut fits = false;
            self.each_target(seat, true, |_, pip| fits |= held.intersects(self.matching(pip)));
            if fits {
                return;
            }
        }
        self.end_round(BLOCKED, None);
    }

    /// The tiles in the hands and the drawable boneyard.
    fn live(&self) -> Bits<W> {
        let mut live = Bits::<W>::ZERO;
        for held in &self.hands[..self.rules.t.players] {
            live.or_assign(held);
        }
        for &tile in &self.boneyard[self.bone_pos..self.bone_pos + self.drawable()] {
            live.set(usize::from(tile));
        }
        live
    }

    /// Drop the owed doubles no tile left in a hand or the boneyard can
    /// cover (`doubles.release: no_cover_left`).
    fn release(&mut self) {
        let live = self.live();
        let matching = &self.rules.matching;
        self.owed.retain(|o| live.intersects(&matching[o.pip]));
    }

    fn end_round(&mut self, how: u8, last_tile: Option<usize>) {
        let players = self.rules.t.players;
        self.state = how;
        let (penalty, lose_at, out_on_double) = {
            let tr = self.tr();
            (tr.marker_penalty, tr.lose_at, tr.out_on_double)
        };
        let mut charges: Vec<i64> = (0..players)
            .map(|s| self.pips_left(s) + if self.marked[s] { penalty } else { 0 })
            .collect();
        if how == DOMINO {
            if out_on_double > 1 && last_tile.is_some_and(|t| self.rules.is_double[t]) {
                for c in &mut charges {
                    *c *= out_on_double;
                }
            }
            if let Some(s) = self.domino_seat {
                charges[s] = 0;
            }
        }
        for (score, &c) in self.scores.iter_mut().zip(&charges) {
            *score += c;
        }
        self.won_by = if how == DOMINO { self.domino_seat } else { lowest(&charges) };
        self.settlement = Some(charges);
        if lose_at != 0 && self.scores.iter().any(|&s| s >= lose_at) {
            self.game_over = true;
            self.winner = lowest(&self.scores);
        }
    }

    /// `out_bonus` of the Python hand, which the heuristic reads: the
    /// last-tile bonus of going out with `tile` (a train layout scores no
    /// capicua: `Trains::check`).
    pub fn out_bonus(&self, tile: usize) -> i64 {
        let t = &self.rules.t;
        if int(tile) == t.last_tile {
            t.last_tile_points
        } else {
            0
        }
    }

    /// `won_bonus(DOMINO)` of the Python hand: the bonus by hand number.
    pub fn won_bonus_domino(&self) -> i64 {
        let bonus = &self.rules.t.hand_bonus;
        if self.number > 0 && self.number <= bonus.len() {
            bonus[self.number - 1]
        } else {
            0
        }
    }
}

/// The seat with the lowest value, `None` when several share it
/// (`trains.lowest_total`).
pub fn lowest(values: &[i64]) -> Option<usize> {
    let low = *values.iter().min()?;
    let mut seats = (0..values.len()).filter(|&s| values[s] == low);
    let first = seats.next();
    if seats.next().is_some() {
        None
    } else {
        first
    }
}

/// A match of a train layout (`bones.engine.match.Match` with `trains`):
/// round `r` is dealt from `derive(seed, [DEALS, r])` like any hand, its hub
/// double `top - (r - 1)` placed by its holder (the players draw in turn
/// from seat 0 until it appears), until the last round or a losing total.
pub struct TrainMatch<const W: usize> {
    pub base: Match<W>,
    /// the round of the first hand (a scenario may start later)
    pub first_round: usize,
}

impl<const W: usize> TrainMatch<W> {
    pub fn new(rules: Arc<Rules<W>>, m: MatchRules, seed: u64) -> Self {
        TrainMatch { base: Match::new(rules, m, seed), first_round: 1 }
    }

    /// The next hand's round.
    pub fn round_number(&self) -> usize {
        self.first_round + self.base.hands_played
    }

    pub fn game_over(&self) -> bool {
        self.base.game_over
    }

    /// `Match.new_hand` of a train layout: the shuffle, then `train_deal`.
    pub fn new_hand(&self, record: bool) -> TrainHand<W> {
        let base = &self.base;
        let rules = &base.rules;
        let number = base.hands_played + 1;
        let mut rng = Rng::new(derive(base.seed, &[DEALS, wide(number)]));
        let (mut hands, mut boneyard) = base.shuffle_deal(&mut rng);
        let tr = rules.t.trains.as_ref().expect("a train match has a train layout");
        let round = self.round_number();
        let hub = rules.double(tr.hub_pip(round));
        let players = rules.t.players;
        if tr.hub_set_aside {
            // `set_aside_deal`: the hub taken out of the deal (a seat dealt
            // it gets the boneyard's first tile), given to the first player
            let lot = Rng::new(derive(base.seed, &[DEALS, 0])).below(wide(players));
            if let Some(s) = hands[..players].iter().position(|h| h.has(hub)) {
                hands[s].clear(hub);
                if !boneyard.is_empty() {
                    hands[s].set(usize::from(boneyard.remove(0)));
                }
            } else if let Some(i) = boneyard.iter().position(|&t| usize::from(t) == hub) {
                boneyard.remove(i);
            }
            let lot = usize::try_from(lot).unwrap_or(0);
            let leader = (lot + round - 1) % players;
            hands[leader].set(hub);
            let mut hand = TrainHand::new(
                Arc::clone(rules),
                &hands,
                boneyard,
                leader,
                hub,
                Some(base.scores.clone()),
                base.hand_number(),
            );
            hand.record = record;
            return hand;
        }
        let mut seat = 0;
        let mut drawn = 0;
        let leader = loop {
            if let Some(s) = hands.iter().position(|h| h.has(hub)) {
                break s;
            }
            // the hub double is in the boneyard: every tile of the set is
            // somewhere, so it comes before the boneyard runs out
            hands[seat].set(usize::from(boneyard[drawn]));
            drawn += 1;
            seat = (seat + 1) % players;
        };
        let mut hand = TrainHand::new(
            Arc::clone(rules),
            &hands,
            boneyard[drawn..].to_vec(),
            leader,
            hub,
            Some(base.scores.clone()),
            base.hand_number(),
        );
        hand.record = record;
        hand
    }

    /// `Match.finish_hand` of a train layout: the scores carried, and the
    /// match over after its last round (the lowest total wins) or at a
    /// losing total.
    pub fn finish_hand(&mut self, hand: &TrainHand<W>) {
        let base = &mut self.base;
        base.scores.clone_from(&hand.scores);
        base.hands_played += 1;
        if hand.won_by.is_some() {
            base.hands_won += 1;
        }
        let rounds = base.rules.t.trains.as_ref().map_or(0, |tr| tr.rounds);
        if hand.game_over {
            base.game_over = true;
            base.winner = hand.winner.map_or(-1, int);
        } else if self.first_round + base.hands_played > rounds {
            base.game_over = true;
            base.winner = lowest(&base.scores).map_or(-1, int);
        }
    }
}

/// The greedy bot on a train layout (`policies.greedy_move`): no play
/// scores there, so the heaviest tile, then a double, the first such move
/// in legal order; never a voluntary draw or pass while a tile can be laid.
pub fn greedy_move<const W: usize>(hand: &TrainHand<W>, legal: &[i64]) -> i64 {
    if legal.len() == 1 {
        return legal[0];
    }
    let r = &hand.rules;
    let mut best = None;
    let mut best_key = (i64::MIN, false);
    for &mv in legal {
        if mv < 0 {
            continue;
        }
        let tile = crate::kernel::moves::tile_of(mv);
        let key = (r.pips[tile], r.is_double[tile]);
        if best.is_none() || key > best_key {
            best_key = key;
            best = Some(mv);
        }
    }
    best.unwrap_or(if legal.contains(&DRAW) { DRAW } else { PASS })
}

/// `basic._VARIETY`, `_SHED`, `_SHED_LATE` and `_DRAW_COST`: the
/// heuristic's weights (the reply term weighs what no train play scores).
const VARIETY: f64 = 1.5;
const SHED: f64 = 0.25;
const SHED_LATE: f64 = 1.0;
const DRAW_COST: f64 = 2.0;

/// The heuristic bot on a train layout (`basic.train_heuristic_move`,
/// issue 34): no play scores and every hand is charged its tiles' values
/// (`Trains::values`), so a play is worth the charge it sheds (more once
/// someone may go out), the numbers it keeps and, a finish, the unseen
/// tiles' average charge over the others' tiles; and by where it goes:
/// the next seat's chance to hold nothing that fits the ends it leaves
/// (`ends_after`) counted for the mover, the mover's own next turn with
/// nothing that fits counted against him; the same float operations in the
/// same order as the Python judge.
///
/// What every candidate shares is read once a decision: the numbers the
/// mover holds (and those only one of his tiles shows), the layout's ends
/// by who may follow them ([`Ends`]) and the next seat's chance by the count
/// that fits ([`NoneHeld`]); a candidate then costs a few operations on
/// sets of numbers ([`Pips`]).
pub fn heuristic_move<const W: usize>(hand: &TrainHand<W>, legal: &[i64]) -> i64 {
    if legal.len() == 1 {
        return legal[0];
    }
    let r = &*hand.rules;
    let t = &r.t;
    let tr = hand.tr();
    let values = &tr.values;
    let seat = hand.turn;
    let own = hand.hands[seat];
    let unseen = r.full.and_not(&own).and_not(&hand.on_table);
    let mut counts = [0u32; MAX_PLAYERS];
    for (c, h) in counts.iter_mut().zip(&hand.hands[..t.players]) {
        *c = h.count();
    }
    let drawable = hand.drawable();
    let n_unseen = unseen.count();
    let others_min = (0..t.players)
        .filter(|&s| s != seat && t.owner[s] != t.owner[seat])
        .map(|s| counts[s])
        .min()
        .unwrap_or(0);
    let late = drawable == 0 && (others_min <= 2 || counts[seat] <= 3);
    let shed = if late { SHED_LATE } else { SHED };
    // the turn passes on after a play (else the mover's next decision judges it)
    let passes_on =
        !(hand.in_first_turn() || tr.many_per_turn || hand.must_cover.is_some() || hand.extra);
    // the average charge is read by the ends, a play that goes out and the draw only
    let read_avg = passes_on || single(&own) || legal.contains(&DRAW);
    let avg = if n_unseen > 0 && read_avg {
        as_float(unseen.ones().map(|t| values[t]).sum()) / f64::from(n_unseen)
    } else {
        0.0
    };
    // a seat with nothing to lay draws a tile (if any is left) and loses the turn
    let stuck = DRAW_COST + if drawable > 0 { avg } else { 0.0 };
    let next = r.next_seat[seat];
    // the numbers the mover holds, and those only one of his tiles shows
    let (mut held, mut held_once): (Pips, Pips) = (0, 0);
    for (p, m) in r.matching.iter().enumerate() {
        let mine = own.and(m);
        if !mine.is_zero() {
            held |= 1 << p;
            if single(&mine) {
                held_once |= 1 << p;
            }
        }
    }
    let variety = held.count_ones();
    let ends = if passes_on { Ends::of(hand, seat, next) } else { Ends::default() };
    let mut chance = Chance::new(i64::from(n_unseen), i64::from(counts[next]));
    let mut best: Option<i64> = None;
    let mut best_value = f64::NEG_INFINITY;
    for &mv in legal {
        if mv < 0 {
            continue;
        }
        let tile = crate::kernel::moves::tile_of(mv);
        let mut left = own;
        left.clear(tile);
        let mut value = 0.0 + shed * as_float(values[tile]);
        if left.is_zero() {
            let others: u32 =
                (0..t.players).filter(|&s| t.owner[s] != t.owner[seat]).map(|s| counts[s]).sum();
            value += avg * f64::from(others);
            let bonus = hand.out_bonus(tile) + hand.won_bonus_domino();
            if bonus != 0 {
                value += as_float(bonus);
            }
        } else {
            // the numbers left: the tile's own go where no other tile shows them
            let gone = ((1 << r.low[tile]) | (1 << r.high[tile])) & held_once;
            let kept = held & !gone;
            // at most two numbers gone (no bit count: a build for any x86-64 counts in software)
            let lost = u32::from(gone != 0) + u32::from(gone & gone.wrapping_sub(1) != 0);
            value += VARIETY * f64::from(variety - lost);
            // the ends add at most `stuck`: judged only where that could win
            if passes_on && value + stuck > best_value {
                if let Some((theirs, mine)) = ends_after(hand, mv, seat, next, &ends) {
                    let stranded = kept & mine == 0;
                    // the value with a chance of at most `p` (each factor is at most 1)
                    let wins = |p: f64| {
                        let mut v = value + stuck * p;
                        if stranded {
                            v -= stuck;
                        }
                        v > best_value
                    };
                    let Some(p) = chance.of(theirs, r, &unseen, wins) else {
                        continue; // it cannot be the best
                    };
                    value += stuck * p;
                    if stranded {
                        value -= stuck;
                    }
                }
            }
        }
        if value > best_value {
            best = Some(mv);
            best_value = value;
        }
    }
    let Some(best) = best else {
        return if legal.contains(&DRAW) { DRAW } else { PASS };
    };
    if legal.contains(&DRAW) {
        let draw = VARIETY * f64::from(variety) - shed * avg - DRAW_COST;
        if draw > best_value {
            return DRAW;
        }
    }
    best
}

/// A set of numbers as bits, bit `p` for the number `p` (a double-18 set,
/// the widest mask's, has 19).
type Pips = u32;

/// The number `pip` as a set (-1 reads the highest's, as [`pip_index`]).
#[inline(always)]
fn pip_bit(pip: i8, highest: usize) -> Pips {
    1 << pip_index(pip, highest)
}

/// The mask holds exactly one tile (without counting them: a build for
/// any x86-64 counts bits in software).
#[inline(always)]
fn single<const W: usize>(mask: &Bits<W>) -> bool {
    let mut seen = false;
    for &w in &mask.0 {
        if w != 0 {
            if seen || w & (w - 1) != 0 {
                return false;
            }
            seen = true;
        }
    }
    seen
}

/// The numbers of a set, lowest first.
#[inline(always)]
fn numbers(mut set: Pips) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let p = set.trailing_zeros();
            set &= set - 1;
            p as usize
        })
    })
}

/// Who may follow an arm's end at the next turns, as [`ends_after`] reads
/// the arm's owner (the mover's marker and whether a seat's own train is
/// started, which the play may change, are read at each candidate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Follow {
    /// the next seat and the mover: an arm, a public train open to all, a
    /// marked train of another seat
    Both = 0,
    /// the mover's own train: the next seat too while its marker is on
    Own = 1,
    /// the next seat's unmarked train
    Next = 2,
    /// a public train, for a seat whose own train is started
    Public = 3,
    /// another seat's unmarked train
    Nobody = 4,
}

impl Follow {
    fn of(owner: Owner, seat: usize, next: usize, marked: &[bool], needs_own: bool) -> Follow {
        match owner {
            Owner::Seat(o) if o == seat => Follow::Own,
            Owner::Seat(o) if marked[o] => Follow::Both,
            Owner::Seat(o) if o == next => Follow::Next,
            Owner::Seat(_) => Follow::Nobody,
            Owner::Public if needs_own => Follow::Public,
            Owner::Public | Owner::Arm => Follow::Both,
        }
    }
}

/// One decision's open ends by [`Follow`]: the numbers each class shows,
/// and those a single arm of the class shows (a play on that arm takes its
/// number away).
#[derive(Default)]
struct Ends {
    shown: [Pips; 5],
    once: [Pips; 5],
    /// `TrainHand::binding`
    binding: Option<usize>,
}

impl Ends {
    fn of<const W: usize>(hand: &TrainHand<W>, seat: usize, next: usize) -> Ends {
        let highest = hand.rules.t.highest;
        let needs_own = hand.tr().public_needs_own;
        let mut shown = [0; 5];
        let mut twice = [0; 5];
        for (&o, &end) in hand.arm_owner.iter().zip(&hand.arm_open) {
            if end < 0 {
                continue;
            }
            let c = Follow::of(o, seat, next, &hand.marked, needs_own) as usize;
            let b = pip_bit(end, highest);
            twice[c] |= shown[c] & b;
            shown[c] |= b;
        }
        let mut once = [0; 5];
        for c in 0..5 {
            once[c] = shown[c] & !twice[c];
        }
        Ends { shown, once, binding: hand.binding() }
    }
}

/// One decision's chance that the next seat holds nothing that fits a set
/// of numbers (`none_held` of the unseen tiles that fit: the same products,
/// the same float), remembered by the set and by the count that fits
/// (several plays leave the same).
struct Chance {
    unseen: i64,
    held: i64,
    sets: [(Pips, f64); 8],
    fits: [(u32, f64); 8],
    n_sets: usize,
    n_fits: usize,
}

impl Chance {
    fn new(unseen: i64, held: i64) -> Self {
        Chance { unseen, held, sets: [(0, 0.0); 8], fits: [(0, 0.0); 8], n_sets: 0, n_fits: 0 }
    }

    /// The chance for the numbers `set`, or `None` as soon as a partial
    /// product (never below the chance: every factor is at most 1) fails
    /// `wins`, the candidate's test (a monotone one: it cannot be the best).
    fn of<const W: usize>(
        &mut self,
        set: Pips,
        r: &Rules<W>,
        unseen: &Bits<W>,
        wins: impl Fn(f64) -> bool,
    ) -> Option<f64> {
        if let Some(&(_, p)) = self.sets[..self.n_sets].iter().find(|k| k.0 == set) {
            return Some(p);
        }
        let mut fits = Bits::<W>::ZERO;
        for n in numbers(set) {
            fits.or_assign(&r.matching[n]);
        }
        let fit = unseen.and(&fits).count();
        let p = match self.fits[..self.n_fits].iter().find(|k| k.0 == fit) {
            Some(&(_, p)) => p,
            None => {
                let p = none_held_while(self.unseen, i64::from(fit), self.held, wins)?;
                if self.n_fits < self.fits.len() {
                    self.fits[self.n_fits] = (fit, p);
                    self.n_fits += 1;
                }
                p
            }
        };
        if self.n_sets < self.sets.len() {
            self.sets[self.n_sets] = (set, p);
            self.n_sets += 1;
        }
        Some(p)
    }
}

/// `none_held(unseen, fitting, held)`, the same products in the same
/// order, given up (`None`) as soon as the product so far fails `wins`.
fn none_held_while(
    unseen: i64,
    fitting: i64,
    held: i64,
    wins: impl Fn(f64) -> bool,
) -> Option<f64> {
    let mut p = 1.0f64;
    for i in 0..held {
        if !wins(p) {
            return None;
        }
        let free = unseen - fitting - i;
        if free <= 0 {
            return Some(0.0);
        }
        p *= as_float(free) / as_float(unseen - i);
    }
    Some(p)
}

/// `basic._train_ends`: the numbers the next seat `next` and the mover
/// `seat` could follow at their next turns after `mv` (a play that ends the
/// mover's turn), as sets: the number of an owed double or of the hub
/// while it binds, else the ends of the trains each may play on
/// (`targets_into` with the play's arm at its new end and the mover's
/// marker as the play leaves it), read from `ends` (the layout's ends by
/// who may follow them). `None` when the mover goes on.
fn ends_after<const W: usize>(
    hand: &TrainHand<W>,
    mv: i64,
    seat: usize,
    next: usize,
    ends: &Ends,
) -> Option<(Pips, Pips)> {
    let r = &*hand.rules;
    let tr = hand.tr();
    let highest = r.t.highest;
    let tile = crate::kernel::moves::tile_of(mv);
    let arm = crate::kernel::moves::arm_of(mv);
    let hub = hand.hub_number();
    let pip = if arm == HUB_ARM {
        if hand.hub_left > 1 {
            return Some((1 << hub, 1 << hub));
        }
        small(hub)
    } else if arm == FOOT_ARM {
        small(hand.owed[ends.binding.expect("a toe serves the binding foot")].pip)
    } else {
        hand.arm_open[arm]
    };
    let far = hand.far(tile, pip);
    let far_bit = pip_bit(far, highest);
    // a double laid at an arm's end (not against the hub or as a toe) is owed covers
    let double = r.is_double[tile] && tr.cover != 0 && arm < HUB_ARM;
    let spins = double && tr.first_spinner && !hand.spun;
    if double && !spins {
        if tr.cover_self || tr.one_more_anywhere {
            return None;
        }
        if !tr.cover_self_only {
            return Some((far_bit, far_bit)); // the double binds the next players
        }
    }
    if let (Some(i), false) = (ends.binding, tr.cover_self_only) {
        let owed = hand.owed[i];
        let served = if owed.arm.is_none() { arm == FOOT_ARM } else { owed.arm == Some(arm) };
        if !served || owed.left > 1 {
            return Some((1 << owed.pip, 1 << owed.pip));
        }
    }
    let owner = hand.arm_owner.get(arm).copied().unwrap_or(Owner::Arm);
    let unmark = tr.seat_trains && (owner == Owner::Seat(seat) || tr.marker_off_anywhere);
    let started = |who: usize| !tr.seat_trains || hand.arm_end[who] >= 0 || arm == who;
    let (next_started, my_started) = (started(next), started(seat));
    // each class's numbers, the played arm's end moved to `far`
    let mut shown = ends.shown;
    if arm < hand.arm_owner.len() {
        let c = Follow::of(owner, seat, next, &hand.marked, tr.public_needs_own) as usize;
        let old = hand.arm_open[arm];
        if old >= 0 {
            shown[c] &= !(pip_bit(old, highest) & ends.once[c]);
        }
        if far >= 0 {
            shown[c] |= far_bit;
        }
    }
    let own_open = seat == next || (hand.marked[seat] && !unmark);
    let mut theirs = shown[Follow::Both as usize] | shown[Follow::Next as usize];
    let mut mine = shown[Follow::Both as usize] | shown[Follow::Own as usize];
    if own_open {
        theirs |= shown[Follow::Own as usize];
    }
    if tr.public_needs_own {
        if next_started {
            theirs |= shown[Follow::Public as usize];
        }
        if my_started {
            mine |= shown[Follow::Public as usize];
        }
    }
    if arm >= HUB_ARM || spins {
        theirs |= far_bit; // a new arm (or a spinner's: its sides too)
        mine |= far_bit;
    }
    Some((theirs, mine))
}

/// A small int as a float, exactly (pips and bonuses are far below 2^53).
#[inline(always)]
#[expect(clippy::cast_precision_loss, reason = "far below 2^53")]
fn as_float(v: i64) -> f64 {
    v as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::heuristic::none_held;
    use crate::kernel::table::tests::table;

    /// A Mexican Train-like table: double-12, personal trains, one public.
    fn mexican(players: usize) -> Arc<Rules<2>> {
        let mut t = table(12, players);
        t.scores_plays = false;
        t.max_draws = 1;
        t.must_play_drawn = true;
        t.hand_size = 10;
        t.last_tile = -1;
        let size = t.size();
        t.trains = Some(Trains {
            top: 12,
            rounds: 13,
            seat_trains: true,
            public: 1,
            cover: 1,
            cover_self: true,
            first_turn_multi: true,
            first_turn_stop: true,
            out_on_double: 1,
            values: vec![1; size],
            ..Trains::default()
        });
        t.trains.as_ref().unwrap().check(&t).unwrap();
        Arc::new(Rules::<2>::new(t).unwrap())
    }

    #[test]
    fn codes_round_trip_and_a_short_table_is_refused() {
        let r = mexican(4);
        let tr = r.t.trains.clone().unwrap();
        let mut codes = vec![12, 13, 0, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0];
        codes.extend([0, 0, 0, 1, 0, 0, 0]); // the house-rule fields, all off
        codes.extend(vec![1; r.size]);
        assert_eq!(Trains::from_codes(&codes).unwrap(), Some(tr));
        assert_eq!(Trains::from_codes(&[]).unwrap(), None);
        assert!(Trains::from_codes(&[12, 13]).is_err());
    }

    #[test]
    fn random_rounds_end_and_keep_every_tile() {
        let r = mexican(4);
        for seed in 0..40 {
            let mut mt = TrainMatch::new(Arc::clone(&r), MatchRules::default(), seed);
            let mut rng = Rng::new(seed);
            let mut legal = Vec::new();
            while !mt.game_over() {
                let mut hand = mt.new_hand(false);
                let mut steps = 0;
                while hand.state == PLAYING {
                    hand.legal_moves_into(&mut legal);
                    assert!(!legal.is_empty());
                    let mv = legal[rng.index(legal.len())];
                    hand.apply(mv);
                    steps += 1;
                    assert!(steps < 10_000, "a round that never ends");
                    let mut all = hand.on_table;
                    for s in 0..4 {
                        assert!(!all.intersects(&hand.hands[s]));
                        all.or_assign(&hand.hands[s]);
                    }
                    for &t in &hand.boneyard[hand.bone_pos..] {
                        assert!(!all.has(usize::from(t)));
                        all.set(usize::from(t));
                    }
                    assert_eq!(all, r.full);
                }
                let charges = hand.settlement.clone().unwrap();
                if hand.state == DOMINO {
                    assert_eq!(charges[hand.domino_seat.unwrap()], 0);
                }
                mt.finish_hand(&hand);
            }
            assert_eq!(mt.base.hands_played, 13);
        }
    }

    /// A train table on the double-`highest` set with `trains` (every tile
    /// charged its pips), checked.
    fn train_table(highest: usize, players: usize, trains: Trains) -> Arc<Rules<2>> {
        let mut t = table(highest, players);
        t.scores_plays = false;
        t.max_draws = 1;
        t.must_play_drawn = true;
        t.hand_size = if highest == 12 { 10 } else { 7 };
        t.last_tile = -1;
        let r = Rules::<2>::new(t.clone()).unwrap();
        t.trains = Some(Trains { values: r.pips.clone(), ..trains });
        t.trains.as_ref().unwrap().check(&t).unwrap();
        Arc::new(Rules::<2>::new(t).unwrap())
    }

    /// `ends_after` as it read the layout before issue 34's speed-up, arm
    /// by arm for every play (the oracle of its sets read once a decision).
    fn ends_arm_by_arm(
        hand: &TrainHand<2>,
        mv: i64,
        seat: usize,
        next: usize,
    ) -> Option<(Bits<2>, Bits<2>)> {
        let r = &*hand.rules;
        let tr = hand.tr();
        let tile = crate::kernel::moves::tile_of(mv);
        let arm = crate::kernel::moves::arm_of(mv);
        let hub = hand.hub_number();
        let pip = if arm == HUB_ARM {
            if hand.hub_left > 1 {
                return Some((r.matching[hub], r.matching[hub]));
            }
            small(hub)
        } else if arm == FOOT_ARM {
            small(hand.owed[hand.binding().unwrap()].pip)
        } else {
            hand.arm_open[arm]
        };
        let far = hand.far(tile, pip);
        let far_fits = *hand.matching(far);
        let double = r.is_double[tile] && tr.cover != 0 && arm < HUB_ARM;
        let spins = double && tr.first_spinner && !hand.spun;
        if double && !spins {
            if tr.cover_self || tr.one_more_anywhere {
                return None;
            }
            if !tr.cover_self_only {
                return Some((far_fits, far_fits));
            }
        }
        if let (Some(i), false) = (hand.binding(), tr.cover_self_only) {
            let owed = hand.owed[i];
            let served = if owed.arm.is_none() { arm == FOOT_ARM } else { owed.arm == Some(arm) };
            if !served || owed.left > 1 {
                return Some((r.matching[owed.pip], r.matching[owed.pip]));
            }
        }
        let owner = hand.arm_owner.get(arm).copied().unwrap_or(Owner::Arm);
        let unmark = tr.seat_trains && (owner == Owner::Seat(seat) || tr.marker_off_anywhere);
        let (mut theirs, mut mine) = (Bits::<2>::ZERO, Bits::<2>::ZERO);
        if arm >= HUB_ARM || spins {
            theirs = far_fits;
            mine = far_fits;
        }
        let started = |who: usize| !tr.seat_trains || hand.arm_end[who] >= 0 || arm == who;
        for (a, &o) in hand.arm_owner.iter().enumerate() {
            let end = if a == arm { far } else { hand.arm_open[a] };
            if end < 0 {
                continue;
            }
            let (for_next, for_me) = match o {
                Owner::Seat(o) => {
                    let open = hand.marked[o] && !(o == seat && unmark);
                    (o == next || open, o == seat || open)
                }
                Owner::Public if tr.public_needs_own => (started(next), started(seat)),
                _ => (true, true),
            };
            if for_next {
                theirs.or_assign(hand.matching(end));
            }
            if for_me {
                mine.or_assign(hand.matching(end));
            }
        }
        Some((theirs, mine))
    }

    #[test]
    fn the_ends_read_once_a_decision_are_the_ends_read_arm_by_arm() {
        let mexican = Trains {
            top: 12,
            rounds: 13,
            seat_trains: true,
            public: 1,
            cover: 1,
            first_turn_multi: true,
            first_turn_stop: true,
            out_on_double: 1,
            ..Trains::default()
        };
        let chicken = Trains {
            top: 9,
            rounds: 10,
            placing_ends_turn: true,
            hub_tiles: 4,
            cover: 3,
            toes: true,
            out_on_double: 1,
            ..Trains::default()
        };
        let tables = [
            train_table(12, 4, Trains { cover_self: true, ..mexican.clone() }),
            train_table(12, 2, mexican.clone()),
            train_table(12, 3, Trains { public_needs_own: true, ..mexican.clone() }),
            train_table(12, 4, Trains { marker_off_anywhere: true, public: 2, ..mexican.clone() }),
            train_table(12, 3, Trains { cover_self_only: true, ..mexican.clone() }),
            train_table(12, 2, Trains { one_more_anywhere: true, ..mexican.clone() }),
            train_table(12, 3, Trains { many_per_turn: true, ..mexican.clone() }),
            train_table(9, 2, chicken.clone()),
            train_table(9, 4, Trains { first_spinner: true, ..chicken.clone() }),
            train_table(9, 3, Trains { hub_tiles: 6, release: true, ..chicken }),
        ];
        let mut legal = Vec::new();
        let mut judged = 0;
        for (k, r) in tables.iter().enumerate() {
            for seed in 0..12 {
                let mut mt = TrainMatch::new(Arc::clone(r), MatchRules::default(), seed);
                let mut rng = Rng::new(seed + 100 * k as u64);
                let mut hand = mt.new_hand(false);
                while hand.state == PLAYING {
                    hand.legal_moves_into(&mut legal);
                    let (seat, next) = (hand.turn, r.next_seat[hand.turn]);
                    let ends = Ends::of(&hand, seat, next);
                    for &mv in legal.iter().filter(|&&mv| mv >= 0 && hand.placed > 0) {
                        let want = ends_arm_by_arm(&hand, mv, seat, next);
                        let got = ends_after(&hand, mv, seat, next, &ends).map(|(t, m)| {
                            let mask = |set: Pips| {
                                let mut b = Bits::<2>::ZERO;
                                numbers(set).for_each(|n| b.or_assign(&r.matching[n]));
                                b
                            };
                            (mask(t), mask(m))
                        });
                        assert_eq!(got, want, "table {k} seed {seed} move {mv}");
                        judged += 1;
                    }
                    hand.apply(legal[rng.index(legal.len())]);
                }
                mt.finish_hand(&hand);
            }
        }
        assert!(judged > 10_000, "{judged} plays judged");
    }

    #[test]
    fn the_chance_given_up_early_is_none_helds_when_kept() {
        for unseen in 0..40 {
            for fitting in 0..=unseen {
                for held in 0..=unseen.min(14) {
                    let p = none_held(unseen, fitting, held);
                    let kept = none_held_while(unseen, fitting, held, |_| true);
                    assert_eq!(kept.map(f64::to_bits), Some(p.to_bits()));
                    // a test that fails once the product falls to `p` or below
                    let cut = none_held_while(unseen, fitting, held, |q| q > p);
                    assert!(cut.is_none() || cut.map(f64::to_bits) == Some(p.to_bits()));
                }
            }
        }
    }

    #[test]
    fn lowest_is_unique_or_none() {
        assert_eq!(lowest(&[3, 1, 2]), Some(1));
        assert_eq!(lowest(&[1, 1, 2]), None);
    }
}
