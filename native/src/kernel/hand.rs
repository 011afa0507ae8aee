//! One hand, move for move the same as `bones.engine.hand.Hand`.
//!
//! The layout is a set of arms (an end tile, or an uncovered edge of a hub)
//! and hubs (spinners, the in-line sniff, a led double), exactly as in the
//! Python reference; every rule choice is read from the flat table.
//!
//! The layout's arrays hold pips and arm and hub indices in `i8`, -1 for
//! none (`convert::small` and `convert::slot` go between them and indices);
//! a seat or tile the hand may lack (the winner, the tile to lead) is an
//! `Option`.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use std::hint::select_unpredictable;
use std::sync::Arc;

use crate::kernel::bits::Bits;
use crate::kernel::convert::{bit, byte, int, slot, small};
use crate::kernel::moves::{
    arm_of, is_flipped, is_tile_move, lead_code, play_code, tile_of, unflipped, BLOCKED, DOMINO,
    DRAW, PASS, PLAYING, TARGET,
};
use crate::kernel::settle::Seats;
use crate::kernel::table::*;

/// 2 line arms plus 2 cross arms for each of at most 19 doubles.
pub const MAX_ARMS: usize = 40;
/// The most arms `Hand::pick_legal` reads (a layout with one spinner).
pub const PICK_ARMS: usize = 4;
pub const MAX_HUBS: usize = 20;
/// The layout's -1: no pip open, no hub, no cross arm.
const NO: i8 = -1;

/// A new arm of the layout, as its `i8` fields hold it: the pip open on it
/// (`pip`, or -1 until its spinner's edge opens), its far pip and weight,
/// the hub it touches and the one it grew from (-1: none), whether it is a
/// long side of its hub, and whether it is a one-tile stub (the in-line
/// sniff's cross ends).
#[derive(Clone, Copy)]
struct Arm {
    pip: i8,
    end: i8,
    weight: i8,
    hub: i8,
    root: i8,
    side: bool,
    stub: bool,
}

impl Arm {
    /// An arm ending in a tile, touching no hub.
    fn tile(pip: i8, end: i8, weight: i8) -> Arm {
        Arm { pip, end, weight, hub: NO, root: NO, side: false, stub: false }
    }
}

/// Everything a hand starts from: the deal (`match.Deal`) and what a match
/// or a caller carries into it. `Hand::new` builds a hand from one, and
/// nothing else does.
#[derive(Clone, Debug)]
pub struct HandSetup<const W: usize> {
    /// each seat's tiles, in seat order
    pub hands: Vec<Bits<W>>,
    /// the boneyard in drawing order
    pub boneyard: Vec<u8>,
    pub leader: usize,
    /// the running scores per owner; `None` for all 0
    pub scores: Option<Vec<i64>>,
    /// the tile the leader must lead, `None` for any
    pub lead_tile: Option<usize>,
    /// a lead that names no tile must be a double
    pub lead_doubles_only: bool,
    /// tiles out of play (seen by no seat)
    pub out_of_play: Bits<W>,
    /// keep the log of moves
    pub record: bool,
    /// points tied hands left on the table (`ties: carry`)
    pub pot: i64,
    /// the sides already in (`scoring.get_in`) as the hand starts; `None`
    /// for nobody (a side is always in where the variant has no get-in)
    pub got_in: Option<Vec<bool>>,
    /// the hand's number in the match, for bonuses by hand number
    pub number: usize,
}

impl<const W: usize> HandSetup<W> {
    /// A deal: every other choice at its default (no scores, any lead, nothing
    /// out of play, no log, no pot).
    pub fn new(hands: Vec<Bits<W>>, boneyard: Vec<u8>, leader: usize) -> Self {
        HandSetup {
            hands,
            boneyard,
            leader,
            scores: None,
            lead_tile: None,
            lead_doubles_only: false,
            out_of_play: Bits::ZERO,
            record: false,
            pot: 0,
            got_in: None,
            number: 1,
        }
    }
}

/// A play's gains, `(side, points)` in order: at most three (the play or a
/// muggins claim's two parts, and a knock), kept on the stack.
#[derive(Clone, Copy, Default)]
struct Gains {
    n: usize,
    items: [(usize, i64); 4],
}

impl Gains {
    fn push(&mut self, gain: (usize, i64)) {
        self.items[self.n] = gain;
        self.n += 1;
    }

    fn as_slice(&self) -> &[(usize, i64)] {
        &self.items[..self.n]
    }
}

/// Write `play_code(tile, arm)` for each tile of `fits`, lowest first, into
/// `room` from slot `n`; the slot after the last. An arm fits two or three
/// of a hand's tiles at most, usually: the first three of a word are
/// written whether there or not, only those there counted (a slot written
/// for nothing is the next move's or past the length), so the loop a tile
/// (its exit a branch mispredicted once an arm, the vector's capacity
/// checked each move: issue 37) runs only for a fourth tile. `room` holds
/// the arm's tiles and one slot more.
#[inline(always)]
fn write_plays<const W: usize>(
    fits: &Bits<W>,
    arm: usize,
    room: &mut [std::mem::MaybeUninit<i64>],
    mut n: usize,
) -> usize {
    for (i, &word) in fits.0.iter().enumerate() {
        let base = i * 64;
        let mut w = word;
        for _ in 0..3 {
            // an empty word's 64 trailing zeros: a slot not counted
            room[n].write(play_code(base + bit(w.trailing_zeros()), arm));
            n += usize::from(w != 0);
            w &= w.wrapping_sub(1);
        }
        while w != 0 {
            room[n].write(play_code(base + bit(w.trailing_zeros()), arm));
            n += 1;
            w &= w - 1;
        }
    }
    n
}

/// The `k`-th tile of `fits`, lowest first (`k` below its count): in a
/// one-word set its lowest tiles cleared by selects for the usual `k` below
/// 3, not by a loop as long as the random index (issue 37).
#[inline(always)]
fn kth_tile<const W: usize>(fits: &Bits<W>, k: usize) -> usize {
    if W > 1 {
        return fits.ones().nth(k).expect("an index below the count");
    }
    let mut w = fits.0[0];
    for i in 0..3 {
        w = select_unpredictable(i < k, w & w.wrapping_sub(1), w);
    }
    for _ in 3..k {
        w &= w - 1;
    }
    bit(w.trailing_zeros())
}

/// A turn's moves as `Hand::picks` finds them.
pub enum Pick<const W: usize> {
    /// no tile fits: the draw or the pass, the turn's one move
    Forced(i64),
    /// tiles fit: `Picks::take` finds the `k`-th move of the list
    Among(Picks<W>),
}

/// The moves of a turn on which some tile fits, counted from the masks in
/// `legal_moves_into`'s order: each arm's fitting tiles, then the pass
/// and the draw if they follow.
pub struct Picks<const W: usize> {
    fits: [Bits<W>; PICK_ARMS],
    counts: [usize; PICK_ARMS],
    /// the tile moves
    tiles: usize,
    pass: bool,
    /// every move
    pub n: usize,
}

impl<const W: usize> Picks<W> {
    /// The move at index `k` (below `n`) of `legal_moves_into`'s list.
    #[inline(always)]
    pub fn take(&self, k: usize) -> i64 {
        if k >= self.tiles {
            return if self.pass && k == self.tiles { PASS } else { DRAW };
        }
        // the arm: past each arm whose tiles end at or before `k`, counted
        // with selects (a random index is no branch a predictor can learn)
        let (mut arm, mut before, mut end) = (0, 0, 0);
        for &count in &self.counts {
            end += count;
            let past = k >= end;
            arm += usize::from(past);
            before = select_unpredictable(past, end, before);
        }
        play_code(kth_tile(&self.fits[arm], k - before), arm)
    }
}

#[derive(Clone)]
pub struct Hand<const W: usize> {
    pub rules: Arc<Rules<W>>,
    pub hands: [Bits<W>; MAX_PLAYERS],
    pub boneyard: Vec<u8>,
    pub bone_pos: usize,
    pub bone_end: usize,
    pub out_of_play: Bits<W>,
    pub n_arms: usize,
    pub arm_open: [i8; MAX_ARMS],
    pub arm_end: [i8; MAX_ARMS],
    pub arm_weight: [i8; MAX_ARMS],
    pub arm_hub: [i8; MAX_ARMS],
    pub arm_root: [i8; MAX_ARMS],
    pub arm_side: [bool; MAX_ARMS],
    pub arm_stub: [bool; MAX_ARMS],
    pub arm_frozen: [i8; MAX_ARMS],
    pub n_hubs: usize,
    pub hub_pip: [i8; MAX_HUBS],
    pub hub_k: [u8; MAX_HUBS],
    pub hub_mult: [[i64; 5]; MAX_HUBS],
    pub hub_cross: [(i8, i8); MAX_HUBS],
    pub hub_sides_left: [i8; MAX_HUBS],
    pub hub_spins: [bool; MAX_HUBS],
    pub spinners: u32,
    pub first_double_seen: bool,
    pub count: i64,
    pub turn: usize,
    pub leader: usize,
    pub lead_tile: Option<usize>,
    pub lead_doubles_only: bool,
    pub placed: u32,
    pub on_table: Bits<W>,
    pub passes: i64,
    pub drawn_turn: i64,
    pub drawn: [u32; MAX_PLAYERS],
    pub out: [bool; MAX_PLAYERS],
    pub scores: Vec<i64>,
    pub got_in: Vec<bool>,
    pub state: u8,
    pub game_over: bool,
    /// the side that won the match, once one has
    pub winner: Option<usize>,
    /// the seat that went out
    pub domino_seat: Option<usize>,
    /// the seat that made the last play
    pub last_player: Option<usize>,
    pub settlement: Option<Vec<i64>>,
    /// points tied hands left on the table (`ties: carry`): taken by this
    /// hand's winner; after the hand, what stays for the next
    pub pot: i64,
    /// (seat, move, points of the mover) per move, when recording
    pub log: Vec<(u8, i64, i64)>,
    pub record: bool,
    /// moves made and each seat's play points (kept whether recording or not)
    pub moves: u32,
    pub play_points: [i64; MAX_PLAYERS],
    pub last_points: i64,
    pub open_mask: Bits<W>,
    /// the hand's number in the match (bonuses by hand number)
    pub number: usize,
    /// the arm of the double that lets the player to move play once more
    /// (`turn.after_double`)
    pub extra: Option<usize>,
    /// the side that won the hand, and the seat whose hand won it
    pub won_by: Option<usize>,
    pub won_seat: Option<usize>,
    /// the end-of-hand bonuses in the winner's settlement
    pub bonus: i64,
    /// the buffer of a renewed hand's settlement, for this hand's (no
    /// allocation a hand)
    pub(crate) spare: Vec<i64>,
}

impl<const W: usize> Hand<W> {
    pub fn new(rules: Arc<Rules<W>>, setup: HandSetup<W>) -> Self {
        let HandSetup {
            hands,
            boneyard,
            leader,
            scores,
            lead_tile,
            lead_doubles_only,
            out_of_play,
            record,
            pot,
            got_in,
            number,
        } = setup;
        let t = &rules.t;
        let owners = t.owners;
        let mut h = [Bits::<W>::ZERO; MAX_PLAYERS];
        h[..hands.len()].copy_from_slice(&hands);
        let bone_end = boneyard.len().saturating_sub(t.reserve);
        let got_in = match got_in {
            Some(g) => g.iter().map(|&i| i || t.get_in == 0).collect(),
            None => vec![t.get_in == 0; owners],
        };
        Hand {
            hands: h,
            boneyard,
            bone_pos: 0,
            bone_end,
            out_of_play,
            n_arms: 0,
            arm_open: [NO; MAX_ARMS],
            arm_end: [0; MAX_ARMS],
            arm_weight: [0; MAX_ARMS],
            arm_hub: [NO; MAX_ARMS],
            arm_root: [NO; MAX_ARMS],
            arm_side: [false; MAX_ARMS],
            arm_stub: [false; MAX_ARMS],
            arm_frozen: [NO; MAX_ARMS],
            n_hubs: 0,
            hub_pip: [0; MAX_HUBS],
            hub_k: [0; MAX_HUBS],
            hub_mult: [[0; 5]; MAX_HUBS],
            hub_cross: [(NO, NO); MAX_HUBS],
            hub_sides_left: [0; MAX_HUBS],
            hub_spins: [false; MAX_HUBS],
            spinners: 0,
            first_double_seen: false,
            count: 0,
            turn: leader,
            leader,
            lead_tile,
            lead_doubles_only,
            placed: 0,
            on_table: Bits::ZERO,
            passes: 0,
            drawn_turn: 0,
            drawn: [0; MAX_PLAYERS],
            out: [false; MAX_PLAYERS],
            scores: scores.unwrap_or_else(|| vec![0; owners]),
            got_in,
            state: PLAYING,
            game_over: false,
            winner: None,
            domino_seat: None,
            last_player: None,
            settlement: None,
            pot,
            log: Vec::new(),
            record,
            moves: 0,
            play_points: [0; MAX_PLAYERS],
            last_points: 0,
            open_mask: Bits::ZERO,
            number,
            extra: None,
            won_by: None,
            won_seat: None,
            bonus: 0,
            spare: Vec::new(),
            rules,
        }
    }

    /// Make `self` the hand `Hand::new(self.rules, setup)` makes, in place:
    /// every field as `new` sets it (but the hubs' points, which nothing
    /// reads past `n_hubs` and `new_hub` writes whole), the vectors'
    /// buffers kept (a simulation deals a hand a game; building, moving and
    /// dropping a 1.9 KB hand and its vectors each time was a sixth of a
    /// Sniff hand, issue 37). Gives back the setup's `hands`, for the next
    /// deal to fill.
    pub fn renew(&mut self, setup: HandSetup<W>) -> Vec<Bits<W>> {
        let HandSetup {
            hands: dealt,
            boneyard: deck,
            leader: first,
            scores: start,
            lead_tile: lead,
            lead_doubles_only: doubles_only,
            out_of_play: out_set,
            record: keep_log,
            pot: carried,
            got_in: sides_in,
            number: hand_number,
        } = setup;
        // every field named, so a field added to `Hand` must be handled here
        // (kept in a paragraph, as in `copy_for_play`)
        #[rustfmt::skip]
        let Hand {
            rules, hands, boneyard, bone_pos, bone_end, out_of_play, n_arms, arm_open,
            arm_end, arm_weight, arm_hub, arm_root, arm_side, arm_stub, arm_frozen, n_hubs,
            hub_pip, hub_k, hub_mult: _, hub_cross, hub_sides_left, hub_spins, spinners,
            first_double_seen, count, turn, leader, lead_tile, lead_doubles_only, placed,
            on_table, passes, drawn_turn, drawn, out, scores, got_in, state, game_over, winner,
            domino_seat, last_player, settlement, pot, log, record, moves,
            play_points, last_points, open_mask, number, extra, won_by, won_seat, bonus, spare,
        } = self;
        let t = &rules.t;
        let owners = t.owners;
        *hands = [Bits::<W>::ZERO; MAX_PLAYERS];
        hands[..dealt.len()].copy_from_slice(&dealt);
        *bone_end = deck.len().saturating_sub(t.reserve);
        *boneyard = deck;
        *bone_pos = 0;
        *out_of_play = out_set;
        *n_arms = 0;
        *arm_open = [NO; MAX_ARMS];
        *arm_end = [0; MAX_ARMS];
        *arm_weight = [0; MAX_ARMS];
        *arm_hub = [NO; MAX_ARMS];
        *arm_root = [NO; MAX_ARMS];
        *arm_side = [false; MAX_ARMS];
        *arm_stub = [false; MAX_ARMS];
        *arm_frozen = [NO; MAX_ARMS];
        *n_hubs = 0;
        *hub_pip = [0; MAX_HUBS];
        *hub_k = [0; MAX_HUBS];
        // the hubs' points (`hub_mult`, 40 bytes an entry: a call to memset,
        // whole or in part) left as they are: `new_hub` writes an entry whole
        // before anything reads it, and nothing reads past `n_hubs` (issue 37)
        *hub_cross = [(NO, NO); MAX_HUBS];
        *hub_sides_left = [0; MAX_HUBS];
        *hub_spins = [false; MAX_HUBS];
        *spinners = 0;
        *first_double_seen = false;
        *count = 0;
        *turn = first;
        *leader = first;
        *lead_tile = lead;
        *lead_doubles_only = doubles_only;
        *placed = 0;
        *on_table = Bits::ZERO;
        *passes = 0;
        *drawn_turn = 0;
        *drawn = [0; MAX_PLAYERS];
        *out = [false; MAX_PLAYERS];
        scores.clear();
        match start {
            Some(s) => scores.extend_from_slice(&s),
            None => scores.resize(owners, 0),
        }
        got_in.clear();
        match sides_in {
            Some(g) => got_in.extend(g.iter().map(|&i| i || t.get_in == 0)),
            None => got_in.resize(owners, t.get_in == 0),
        }
        *state = PLAYING;
        *game_over = false;
        *winner = None;
        *domino_seat = None;
        *last_player = None;
        if let Some(last) = settlement.take() {
            *spare = last;
        }
        *pot = carried;
        log.clear();
        *record = keep_log;
        *moves = 0;
        *play_points = [0; MAX_PLAYERS];
        *last_points = 0;
        *open_mask = Bits::ZERO;
        *number = hand_number;
        *extra = None;
        *won_by = None;
        *won_seat = None;
        *bonus = 0;
        dealt
    }

    /// The rules, borrowed apart from `self`, for a method that changes the
    /// hand while it reads them. An `Arc` clone would do it safely, but its
    /// atomic increment and decrement were a third of `apply`'s time in the
    /// profile of `bones simulate` (issue 37).
    ///
    /// # Safety
    ///
    /// The caller must not assign `self.rules` while the reference lives:
    /// the rules stay alive because `self` holds an `Arc` to them, and they
    /// are never changed through it (they are not in `self`'s own memory, so
    /// changing the hand does not alias them).
    #[inline(always)]
    unsafe fn rules_apart<'r>(&self) -> &'r Rules<W> {
        // SAFETY: the caller keeps `self.rules` (see above), so the pointer
        // stays valid and the rules unchanged while the reference lives
        unsafe { &*Arc::as_ptr(&self.rules) }
    }

    #[inline(always)]
    fn hub_val(&self, h: usize, k: usize) -> i64 {
        self.hub_mult[h][k] * i64::from(self.hub_pip[h])
    }

    #[inline(always)]
    fn log_move(&mut self, seat: usize, mv: i64, points: i64) {
        self.moves += 1;
        self.play_points[seat] += points;
        if self.record {
            self.log.push((byte(seat), mv, points));
        }
    }

    pub fn drawable(&self) -> usize {
        self.bone_end.saturating_sub(self.bone_pos)
    }

    pub fn recount(&self) -> i64 {
        let mut total = 0;
        for a in 0..self.n_arms {
            if self.arm_hub[a] < 0 {
                total += i64::from(self.arm_end[a]) * i64::from(self.arm_weight[a]);
            }
        }
        for h in 0..self.n_hubs {
            total += self.hub_val(h, usize::from(self.hub_k[h]));
        }
        total
    }

    // ------------------------------------------------------------ one move

    /// `bones.engine.mirror.mirror_of`: for each move of `legal`, the index
    /// in `legal` of the first move that is one with it (its own index when
    /// none before it is): the same tile on twin arms, arms equal in every
    /// field the rules read of an arm. Leads, draws and passes are their own.
    pub fn mirror_of(&self, legal: &[i64]) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::with_capacity(legal.len());
        for (i, &mv) in legal.iter().enumerate() {
            let mut first = i;
            if self.placed != 0 && is_tile_move(mv) {
                for (j, &other) in legal[..i].iter().enumerate() {
                    if is_tile_move(other)
                        && tile_of(other) == tile_of(mv)
                        && self.twins(arm_of(other), arm_of(mv))
                    {
                        first = out[j];
                        break;
                    }
                }
            }
            out.push(first);
        }
        out
    }

    /// Arms the rules cannot tell apart (`mirror.ARM_FIELDS`, being a cross
    /// arm, being the extra-play double): swapping them maps the table onto
    /// itself.
    fn twins(&self, a: usize, b: usize) -> bool {
        let cross = |arm: usize| {
            self.hub_cross[..self.n_hubs]
                .iter()
                .any(|&(x, y)| slot(x) == Some(arm) || slot(y) == Some(arm))
        };
        self.arm_open[a] == self.arm_open[b]
            && self.arm_end[a] == self.arm_end[b]
            && self.arm_weight[a] == self.arm_weight[b]
            && self.arm_hub[a] == self.arm_hub[b]
            && self.arm_root[a] == self.arm_root[b]
            && self.arm_side[a] == self.arm_side[b]
            && self.arm_stub[a] == self.arm_stub[b]
            && self.arm_frozen[a] == self.arm_frozen[b]
            && cross(a) == cross(b)
            && (self.extra == Some(a)) == (self.extra == Some(b))
    }

    // ------------------------------------------------------------ moves

    /// Every legal move of the player to move, appended to `out`.
    pub fn legal_moves_into(&self, out: &mut Vec<i64>) {
        out.clear();
        if self.state != PLAYING {
            return;
        }
        let r = &*self.rules;
        let mut hand = self.hands[self.turn];
        if let Some(arm) = self.extra {
            self.extra_moves_into(&hand, arm, out);
            return;
        }
        if self.placed == 0 {
            if let Some(tile) = self.lead_tile {
                if hand.has(tile) {
                    out.push(lead_code(tile));
                }
                return;
            }
            if self.lead_doubles_only {
                hand = hand.and(&r.doubles);
            }
            for t in hand.ones() {
                out.push(lead_code(t));
            }
            return;
        }
        let t = &r.t;
        if !hand.intersects(&self.open_mask) {
            if self.bone_end > self.bone_pos && self.drawn_turn < t.max_draws {
                out.push(DRAW);
            } else {
                out.push(PASS);
            }
            return;
        }
        // the tile moves written into the vector's room, reserved once for
        // the most an arm can take (its pip's tiles) and one spare slot: a
        // `push` a move checked the capacity and stored the length each time
        out.reserve(self.n_arms * (t.highest + 1) + 2);
        let room = out.spare_capacity_mut();
        let mut n = 0;
        for arm in 0..self.n_arms {
            if let Some(pip) = slot(self.arm_open[arm]) {
                n = write_plays(&hand.and(&r.matching[pip]), arm, room, n);
            }
        }
        // SAFETY: the first `n` elements of the room were written just above
        // (the vector was empty; every write indexed the room with a bounds
        // check, and `write_plays` counts only the moves it wrote)
        unsafe { out.set_len(n) };
        if t.max_draws != 0 {
            if self.drawn_turn != 0 && !t.must_play_drawn {
                out.push(PASS);
            }
            if t.draw_while_able && self.bone_end > self.bone_pos && self.drawn_turn < t.max_draws {
                out.push(DRAW);
            }
        }
    }

    /// The move of `legal_moves_into`'s list that `choose(n)` picks of its
    /// `n`, found from the masks without writing the list, on a turn after
    /// the lead with no extra play pending and at most `PICK_ARMS` arms
    /// (`None` elsewhere). `choose` is asked only when `n > 1` (a forced
    /// move is made without asking), so a random bot's `below(n)` draws
    /// and takes the same move as from the list (issue 37).
    #[inline(always)]
    pub fn pick_legal(&self, choose: impl FnOnce(usize) -> usize) -> Option<i64> {
        Some(match self.picks()? {
            Pick::Forced(mv) => mv,
            Pick::Among(picks) => picks.take(if picks.n > 1 { choose(picks.n) } else { 0 }),
        })
    }

    /// `pick_legal` in two steps, for a caller that draws the index itself
    /// (no closure to inline: the simulation's turn loop): the turn's moves
    /// counted from the masks, or its one move when no tile fits.
    #[inline(always)]
    pub fn picks(&self) -> Option<Pick<W>> {
        if self.state != PLAYING || self.extra.is_some() || self.placed == 0 {
            return None;
        }
        if self.n_arms > PICK_ARMS {
            return None;
        }
        let r = &*self.rules;
        let hand = self.hands[self.turn];
        if !hand.intersects(&self.open_mask) {
            let draw = self.bone_end > self.bone_pos && self.drawn_turn < r.t.max_draws;
            return Some(Pick::Forced(if draw { DRAW } else { PASS }));
        }
        // every one of the `PICK_ARMS` arms, those past the last closed
        // (`open_ends`): no branch on which are open or how many there are
        let mut fits = [Bits::<W>::ZERO; PICK_ARMS];
        let mut counts = [0usize; PICK_ARMS];
        let mut tiles = 0;
        for arm in 0..PICK_ARMS {
            fits[arm] = hand.and(r.fitting(self.arm_open[arm]));
            counts[arm] = fits[arm].len();
            tiles += counts[arm];
        }
        let (pass, draw) = self.after_tile_moves();
        let n = tiles + usize::from(pass) + usize::from(draw);
        Some(Pick::Among(Picks { fits, counts, tiles, pass, n }))
    }

    /// Whether a pass and whether a draw follow the tile moves of a turn
    /// on which some tile fits (`legal_moves_into`'s last two moves).
    #[inline(always)]
    fn after_tile_moves(&self) -> (bool, bool) {
        let t = &self.rules.t;
        if t.max_draws == 0 {
            return (false, false);
        }
        // `&`, not `&&`: no branch on whether the mover has drawn this
        // turn, which no predictor learns (issue 37)
        let pass = (self.drawn_turn != 0) & !t.must_play_drawn;
        let draw =
            t.draw_while_able && self.bone_end > self.bone_pos && self.drawn_turn < t.max_draws;
        (pass, draw)
    }

    /// `Hand._extra_moves`: the optional extra play after the double laid on
    /// `double_arm`, and the pass that declines it.
    fn extra_moves_into(&self, hand: &Bits<W>, double_arm: usize, out: &mut Vec<i64>) {
        let r = &*self.rules;
        let doubles_only = r.t.after_double == AfterDouble::AnotherDouble;
        for arm in 0..self.n_arms {
            let Some(pip) = slot(self.arm_open[arm]) else { continue };
            if doubles_only && arm == double_arm {
                continue;
            }
            let mut fits = hand.and(&r.matching[pip]);
            if doubles_only {
                let mut double = Bits::<W>::ZERO;
                double.set(r.double(pip));
                fits = fits.and(&double);
            }
            for tile in fits.ones() {
                out.push(play_code(tile, arm));
            }
        }
        out.push(PASS);
    }

    /// `Hand._extra_play`: after `tile` went on `arm`, whether the player may
    /// play once more (`turn.after_double`), and so keeps the turn.
    fn extra_play(&mut self, seat: usize, tile: usize, arm: usize) -> bool {
        // SAFETY: this method and those it calls never assign `self.rules`
        let r = unsafe { self.rules_apart() };
        let t = &r.t;
        let chained = self.extra.is_some();
        self.extra = None;
        if !r.is_double[tile] || self.hands[seat].is_zero() {
            return false;
        }
        if t.after_double == AfterDouble::AnotherDouble {
            if chained || self.placed == 1 {
                return false; // one second double, never after the lead
            }
        } else if chained && !t.extra_repeat {
            return false;
        }
        let mut moves = Vec::new();
        self.extra_moves_into(&self.hands[seat], arm, &mut moves);
        if moves.len() > 1 {
            self.extra = Some(arm);
            return true;
        }
        false
    }

    /// `hand.pass_bonuses`: what a pass by `seat` earns, `passes` counting
    /// the passes in a row with it: the pass on the opening tile by the
    /// player after the leader (to the leader's side), and the last pass of
    /// every other player after a play (to the last player's side).
    pub fn pass_bonuses(&self, seat: usize, passes: i64) -> [Option<(usize, i64)>; 2] {
        let r = &*self.rules;
        let t = &r.t;
        let mut out = [None, None];
        if (t.opening_pass_double != 0 || t.opening_pass_other != 0)
            && self.placed == 1
            && passes == 1
            && seat == (self.leader + 1) % t.players
        {
            if let Some(lead) = self.on_table.ones().next() {
                let points =
                    if r.is_double[lead] { t.opening_pass_double } else { t.opening_pass_other };
                if points != 0 {
                    out[0] = Some((t.owner[self.leader], points));
                }
            }
        }
        if t.round_pass != 0 && passes == int(t.players) - 1 {
            if let Some(last) = self.last_player {
                out[1] = Some((t.owner[last], t.round_pass));
            }
        }
        out
    }

    /// `Hand.out_bonus`: what going out with `tile` earns (before it is
    /// laid): capicúa when it fits every open end, and the last-tile bonus.
    /// The hand scores by it, and the heuristic values a finish by it.
    pub fn out_bonus(&self, tile: usize) -> i64 {
        let r = &*self.rules;
        let t = &r.t;
        let mut bonus = 0;
        if int(tile) == t.last_tile {
            bonus += t.last_tile_points;
        }
        if t.capicua_points != 0 && self.placed != 0 {
            let open = || (0..self.n_arms).filter_map(|a| slot(self.arm_open[a]));
            let fits = open().count() >= 2 && open().all(|pip| r.matching[pip].has(tile));
            if fits && (t.capicua_doubles || !r.is_double[tile]) {
                bonus += t.capicua_points;
            }
        }
        bonus
    }

    pub fn legal_moves(&self) -> Vec<i64> {
        let mut v = Vec::with_capacity(16);
        self.legal_moves_into(&mut v);
        v
    }

    pub fn is_legal(&self, mut mv: i64) -> bool {
        if self.placed == 0 && is_tile_move(mv) && is_flipped(mv) {
            mv = unflipped(mv);
        }
        self.legal_moves().contains(&mv)
    }

    /// Apply a legal move (unchecked). `claim`: the points claimed under the
    /// muggins rule, `None` for the true points (what the bots do).
    pub fn apply(&mut self, mv: i64, claim: Option<i64>) {
        self.apply_inlined(mv, claim);
    }

    /// `apply`, built into its caller: the simulation's turn loop, which
    /// makes a move a turn, saves the call's register spills and reloads
    /// (with `place`, `draw` and `scoring_play` built into it too, 7% of a
    /// random Sniff hand's instructions, issue 37).
    #[inline(always)]
    pub fn apply_inlined(&mut self, mv: i64, claim: Option<i64>) {
        let seat = self.turn;
        if !is_tile_move(mv) {
            self.last_points = 0;
            if mv == DRAW {
                self.draw(seat);
                return;
            }
            self.log_move(seat, PASS, 0);
            if self.extra.is_some() {
                // declining the extra play after a double ends the turn: no knock
                self.extra = None;
                self.advance();
                return;
            }
            self.passes += 1;
            self.drawn_turn = 0;
            let t = &self.rules.t;
            if t.round_pass != 0 || t.opening_pass_double != 0 || t.opening_pass_other != 0 {
                for (owner, points) in self.pass_bonuses(seat, self.passes).into_iter().flatten() {
                    if !self.game_over {
                        self.gain(owner, points);
                    }
                }
                if self.game_over {
                    self.state = TARGET;
                    return;
                }
            }
            self.advance();
            return;
        }
        let tile = tile_of(mv);
        self.hands[seat].clear(tile);
        let went_out = self.hands[seat].is_zero();
        let t = &self.rules.t;
        let out_bonus = if went_out && (t.capicua_points != 0 || t.last_tile >= 0) {
            self.out_bonus(tile)
        } else {
            0
        };
        let is_lead = self.placed == 0;
        if is_lead {
            self.lead(tile, is_flipped(mv));
        } else {
            self.place(tile, arm_of(mv));
        }
        // the rules borrowed, not cloned: an `Arc`'s count is an atomic
        let r = &*self.rules;
        self.open_mask = self.open_ends(r);
        self.placed += 1;
        self.on_table.set(tile);
        self.last_player = Some(seat);
        self.drawn_turn = 0;
        let t = &r.t;
        let points = if t.headers { self.header_points() } else { t.points(self.count) };
        let claimed = matches!(claim, Some(c) if c != 0);
        if points != 0 || claimed || (self.passes != 0 && t.knock_bonus != 0) {
            let out = went_out.then_some(out_bonus);
            self.scoring_play(seat, mv, claim, points, is_lead, out);
            return;
        }
        let both_out = t.partners_both_out;
        let extra = t.after_double != AfterDouble::None;
        self.passes = 0;
        self.last_points = 0;
        self.log_move(seat, mv, 0);
        if went_out {
            if !both_out || self.mates_out(seat) {
                self.end_hand(DOMINO, Some(seat), &[], out_bonus);
                return;
            }
            self.out[seat] = true;
        }
        if extra && self.extra_play(seat, tile, arm_of(mv)) {
            return; // the same player may play again
        }
        self.advance();
    }

    /// The tiles that fit some open arm (`open_mask` after a play). A
    /// layout of at most `PICK_ARMS` arms is read whole, the arms past the
    /// last closed (-1: `new_arm` adds them in order, `new` and `renew`
    /// close them all), with no branch on which are open or on how many
    /// there are (issue 37); a larger one arm by arm.
    #[inline(always)]
    fn open_ends(&self, r: &Rules<W>) -> Bits<W> {
        let mut mask = Bits::<W>::ZERO;
        if self.n_arms <= PICK_ARMS {
            for &pip in &self.arm_open[..PICK_ARMS] {
                mask.or_assign(r.fitting(pip));
            }
            return mask;
        }
        for &pip in &self.arm_open[..self.n_arms] {
            mask.or_assign(r.fitting(pip));
        }
        mask
    }

    // built into `apply`, its one caller (issue 37)
    #[inline(always)]
    fn scoring_play(
        &mut self,
        seat: usize,
        mv: i64,
        claim: Option<i64>,
        points: i64,
        is_lead: bool,
        // the mover went out, with what going out earns (`out_bonus`)
        out: Option<i64>,
    ) {
        let (went_out, out_bonus) = (out.is_some(), out.unwrap_or(0));
        // SAFETY: this method and those it calls never assign `self.rules`
        let r = unsafe { self.rules_apart() };
        let t = &r.t;
        let knocks = self.knock_points();
        self.passes = 0;
        let mut gains = Gains::default();
        let claimed = matches!(claim, Some(c) if c != 0);
        if points != 0 || (claimed && t.muggins != Muggins::Off) {
            gains = self.play_gains(seat, points, is_lead, claim);
        }
        if knocks != 0 {
            gains.push((t.owner[seat], knocks));
        }
        let owner = t.owner[seat];
        let mover_points: i64 = gains.as_slice().iter().filter(|g| g.0 == owner).map(|g| g.1).sum();
        self.last_points = mover_points;
        self.log_move(seat, mv, mover_points);
        let hand_ends = went_out && (!t.partners_both_out || self.mates_out(seat));
        if t.check == Check::Exact {
            let mut merged = Gains::default();
            for &(o, g) in gains.as_slice() {
                match merged.items[..merged.n].iter_mut().find(|m| m.0 == o) {
                    Some(m) => m.1 += g,
                    None => merged.push((o, g)),
                }
            }
            gains = merged;
            if hand_ends {
                self.end_hand(DOMINO, Some(seat), gains.as_slice(), out_bonus);
                return;
            }
        }
        for &(o, g) in gains.as_slice() {
            self.gain(o, g);
            if self.game_over {
                self.state = TARGET;
                return;
            }
        }
        if hand_ends {
            self.end_hand(DOMINO, Some(seat), &[], out_bonus);
            return;
        }
        if went_out {
            self.out[seat] = true;
        }
        if t.after_double != AfterDouble::None && self.extra_play(seat, tile_of(mv), arm_of(mv)) {
            return;
        }
        self.advance();
    }

    /// `Hand.mates_out`: whether every other member of `seat`'s team is out
    /// already (so `seat` going out ends the hand under `partners_both_out`).
    pub fn mates_out(&self, seat: usize) -> bool {
        let t = &self.rules.t;
        let me = t.owner[seat];
        (0..t.players).all(|s| s == seat || t.owner[s] != me || self.out[s])
    }

    // built into `apply`, its one caller (issue 37)
    #[inline(always)]
    fn draw(&mut self, seat: usize) {
        let forced = !self.hands[seat].intersects(&self.open_mask);
        let tile = usize::from(self.boneyard[self.bone_pos]);
        self.bone_pos += 1;
        self.hands[seat].set(tile);
        self.drawn[seat] += 1;
        self.log_move(seat, DRAW, 0);
        if forced {
            self.drawn_turn += 1;
            let t = &self.rules.t;
            let open = self.open_mask;
            let stuck = !self.hands[seat].intersects(&open);
            let exhausted = self.bone_end <= self.bone_pos;
            if t.stuck_blocks && stuck && (exhausted || self.drawn_turn >= t.max_draws) {
                self.end_hand(BLOCKED, None, &[], 0); // stuck after drawing
                return;
            }
            // the last drawable tile (docs/rules.md, decision 12): blocked now
            // if nobody can play, with no pass asked of anyone
            if exhausted && !self.hands[..t.players].iter().any(|h| h.intersects(&open)) {
                self.end_hand(BLOCKED, None, &[], 0);
            }
        } else {
            self.drawn_turn = 0;
            self.advance();
        }
    }

    /// `Hand.play_worth`: what a play scoring `points` is worth to `seat`'s
    /// side, muggins aside: nothing below the get-in threshold (a claim on it
    /// is judged against 0, docs/language.md), and `None` for a lead that may
    /// not reach the target (nothing is scored or claimed). The one place
    /// these rules are decided: the hand scores by it, the bots value by it.
    #[inline]
    pub fn play_worth(&self, seat: usize, points: i64, is_lead: bool) -> Option<i64> {
        let t = &self.rules.t;
        let owner = t.owner[seat];
        let points = if !self.got_in[owner] && points < t.get_in { 0 } else { points };
        if is_lead && t.lead_cannot_win && self.scores[owner] + points >= t.target {
            return None;
        }
        Some(points)
    }

    /// `Hand.knock_points`: what the passes since the last play earn the
    /// next play (`drawing.knock_bonus`).
    #[inline]
    pub fn knock_points(&self) -> i64 {
        self.passes * self.rules.t.knock_bonus
    }

    fn play_gains(&mut self, seat: usize, points: i64, is_lead: bool, claim: Option<i64>) -> Gains {
        // SAFETY: this method and those it calls never assign `self.rules`
        let r = unsafe { self.rules_apart() };
        let t = &r.t;
        let owner = t.owner[seat];
        let worth = self.play_worth(seat, points, is_lead);
        if points != 0 && points >= t.get_in {
            self.got_in[owner] = true;
        }
        let mut gains = Gains::default();
        let Some(points) = worth else {
            return gains;
        };
        let claim = match claim {
            Some(c) if t.muggins != Muggins::Off && c != points => c,
            _ => {
                gains.push((owner, points));
                return gains;
            }
        };
        let caller = t.owner[t.next_opponent(seat)];
        if claim < points {
            if claim > 0 {
                gains.push((owner, claim));
            }
            if t.muggins == Muggins::Transfer {
                gains.push((caller, points - claim));
            }
            return gains;
        }
        // rejected: a penalty, and the true points to whoever the rules name
        if t.penalise_over_claim {
            gains.push((caller, claim));
        }
        if points != 0 {
            match t.over_claim_points {
                OverClaim::Lost => {}
                OverClaim::Caller => gains.push((caller, points)),
                OverClaim::Claimer => gains.push((owner, points)),
            }
        }
        gains
    }

    fn gain(&mut self, owner: usize, amount: i64) {
        let Some((score, over)) = self.gained(owner, amount) else { return };
        self.scores[owner] = score;
        if over {
            self.game_over = true;
            self.winner = Some(owner);
        }
    }

    /// What `gain` makes of `owner`'s score: `None` when it stays as it is,
    /// else the new score and whether the match is over by it (the
    /// heuristic asks it of a play it does not make).
    pub(crate) fn gained(&self, owner: usize, amount: i64) -> Option<(i64, bool)> {
        if amount == 0 {
            return None;
        }
        let t = &self.rules.t;
        let mut score = self.scores[owner] + amount;
        if t.check == Check::Exact && score > t.target {
            return None;
        }
        if let Some(f) = t.floor {
            if score < f {
                score = f;
            }
        }
        let over = (t.check == Check::Immediate && score >= t.target)
            || (t.check == Check::Exact && score == t.target);
        Some((score, over))
    }

    // ------------------------------------------------------------ layout

    /// Add an arm to the layout (the only place an arm is made); it opens unfrozen.
    fn new_arm(&mut self, arm: Arm) -> usize {
        let a = self.n_arms;
        assert!(a < MAX_ARMS, "more than {MAX_ARMS} arms");
        self.arm_open[a] = arm.pip;
        self.arm_end[a] = arm.end;
        self.arm_weight[a] = arm.weight;
        self.arm_hub[a] = arm.hub;
        self.arm_root[a] = arm.root;
        self.arm_side[a] = arm.side;
        self.arm_stub[a] = arm.stub;
        self.arm_frozen[a] = NO;
        self.n_arms += 1;
        a
    }

    /// Add a hub of `pip` (the only place a hub is made), `covered` on the
    /// side it arrived by or on none (a led double).
    fn new_hub(&mut self, pip: usize, mult: [i64; 5], covered: bool, spins: bool) -> usize {
        let h = self.n_hubs;
        assert!(h < MAX_HUBS, "more than {MAX_HUBS} hubs");
        self.hub_pip[h] = small(pip);
        self.hub_k[h] = u8::from(covered);
        self.hub_mult[h] = mult;
        self.hub_cross[h] = (NO, NO);
        self.hub_sides_left[h] = 2 - i8::from(covered);
        self.hub_spins[h] = spins;
        self.n_hubs += 1;
        h
    }

    fn add_cross_arms(&mut self, hub: usize, pip: usize) {
        let t = &self.rules.t;
        let p = small(pip);
        let cross = if t.cross_stubs {
            let stub = Arm { stub: true, ..Arm::tile(p, 0, 0) };
            (self.new_arm(stub), self.new_arm(stub))
        } else {
            let opened = if t.order != Order::Sides { p } else { NO };
            let h = small(hub);
            let arm = Arm { pip: opened, hub: h, root: h, ..Arm::tile(p, p, 0) };
            (self.new_arm(arm), self.new_arm(arm))
        };
        self.hub_cross[hub] = (small(cross.0), small(cross.1));
        self.spinners += 1;
    }

    fn lead(&mut self, tile: usize, flip: bool) {
        // SAFETY: this method and those it calls never assign `self.rules`
        let r = unsafe { self.rules_apart() };
        let t = &r.t;
        if r.is_double[tile] {
            let pip = usize::from(r.low[tile]);
            let spinner = t.spins_led;
            self.first_double_seen = true;
            let hub = self.new_hub(pip, t.lead_double_mult, false, spinner && !t.cross_stubs);
            let h = small(hub);
            let root = if self.hub_spins[hub] { h } else { NO };
            let p = small(pip);
            let side = Arm { hub: h, root, side: true, ..Arm::tile(p, p, 0) };
            self.new_arm(side);
            self.new_arm(side);
            if spinner {
                self.add_cross_arms(hub, pip);
            }
            self.count = self.hub_val(hub, 0);
        } else {
            let (mut west, mut east) = (r.low[tile], r.high[tile]);
            if flip {
                std::mem::swap(&mut west, &mut east);
            }
            let (w, e) = (small(west), small(east));
            self.new_arm(Arm::tile(w, w, 1));
            self.new_arm(Arm::tile(e, e, 1));
            self.count = i64::from(west) + i64::from(east);
        }
        if t.one_end {
            self.arm_open[0] = NO; // a one-ended line grows at its E end only
        }
    }

    // built into `apply`, its one caller (issue 37)
    #[inline(always)]
    fn place(&mut self, tile: usize, arm: usize) {
        // SAFETY: this method and those it calls never assign `self.rules`
        let r = unsafe { self.rules_apart() };
        let t = &r.t;
        // the pip the tile covers, as the layout holds it and as an index
        let open = self.arm_open[arm];
        let Some(pip) = slot(open) else { unreachable!("a play on a closed arm") };
        let far = r.other_pip(tile, pip);
        let mut count = self.count;
        if let Some(h) = slot(self.arm_hub[arm]) {
            let mut k = usize::from(self.hub_k[h]);
            count -= self.hub_val(h, k);
            k += 1;
            self.hub_k[h] += 1;
            count += self.hub_val(h, k);
            self.arm_hub[arm] = NO;
            if self.arm_side[arm] {
                self.arm_side[arm] = false;
                let left = self.hub_sides_left[h] - 1;
                self.hub_sides_left[h] = left;
                if left == 0 && t.order == Order::Sides && self.hub_spins[h] {
                    let (a, b) = self.hub_cross[h];
                    for c in [a, b] {
                        if let Some(c) = slot(c) {
                            self.arm_open[c] = self.hub_pip[h];
                        }
                    }
                }
            }
            if k == 4 && t.order == Order::All4 && self.hub_spins[h] {
                self.unfreeze(h);
            }
        } else {
            count -= i64::from(self.arm_end[arm]) * i64::from(self.arm_weight[arm]);
        }

        if self.arm_stub[arm] {
            self.arm_end[arm] = far;
            self.arm_weight[arm] = 1;
            self.arm_open[arm] = NO;
            self.count = count + i64::from(far);
            return;
        }

        if r.is_double[tile] {
            if t.spins_later[usize::from(self.first_double_seen)] {
                self.first_double_seen = true;
                let spins = !t.cross_stubs;
                let new_hub = self.new_hub(pip, t.spinner_mult, true, spins);
                self.hub_sides_left[new_hub] = 1;
                let h = small(new_hub);
                self.arm_hub[arm] = h;
                self.arm_root[arm] = if spins { h } else { NO };
                self.arm_side[arm] = true;
                self.arm_end[arm] = open;
                self.arm_weight[arm] = 0;
                self.arm_open[arm] = open;
                self.add_cross_arms(new_hub, pip);
                self.count = count + self.hub_val(new_hub, 1);
                return;
            }
            self.first_double_seen = true;
            self.arm_end[arm] = open;
            self.arm_weight[arm] = r.double_weight;
            self.arm_open[arm] = open;
            self.count = count + i64::from(open) * t.double_weight;
        } else {
            self.arm_end[arm] = far;
            self.arm_weight[arm] = 1;
            self.arm_open[arm] = far;
            self.count = count + i64::from(far);
        }
        if t.order == Order::All4 && slot(self.arm_root[arm]).is_some_and(|r| self.hub_k[r] < 4) {
            self.arm_frozen[arm] = self.arm_open[arm];
            self.arm_open[arm] = NO;
        }
    }

    fn unfreeze(&mut self, hub: usize) {
        for a in 0..self.n_arms {
            if slot(self.arm_root[a]) == Some(hub) && self.arm_frozen[a] >= 0 {
                self.arm_open[a] = self.arm_frozen[a];
                self.arm_frozen[a] = NO;
            }
        }
    }

    /// Matching-ends points: the most open ends showing one number.
    fn header_points(&self) -> i64 {
        let n = self.rules.t.highest + 1;
        let mut weights = [0i64; 19];
        let mut items = [0i64; 19];
        for a in 0..self.n_arms {
            if self.arm_hub[a] < 0 && self.arm_weight[a] != 0 {
                // an arm's end is a pip, never -1
                if let Some(v) = slot(self.arm_end[a]) {
                    weights[v] += i64::from(self.arm_weight[a]);
                    items[v] += 1;
                }
            }
        }
        for h in 0..self.n_hubs {
            let m = self.hub_mult[h][usize::from(self.hub_k[h])];
            if m != 0 {
                if let Some(v) = slot(self.hub_pip[h]) {
                    weights[v] += m;
                    items[v] += 1;
                }
            }
        }
        let table = &self.rules.t.header_points;
        let mut best = 0;
        for v in 0..n {
            if items[v] > 0 && (items[v] >= 2 || self.placed == 1) {
                let w = usize::try_from(weights[v]).unwrap_or(0).min(table.len() - 1);
                best = best.max(table[w]);
            }
        }
        best
    }

    // ---------------------------------------------------- turn and ending

    #[inline(always)]
    fn advance(&mut self) {
        let r = &*self.rules;
        let t = &r.t;
        // the next seat looked up, not divided for: this runs every move
        let mut seat = r.next_seat[self.turn];
        if t.partners_both_out {
            // bounded: a table where every seat is out must not hang
            for _ in 0..t.players {
                if !self.out[seat] {
                    break;
                }
                seat = r.next_seat[seat];
            }
        }
        self.turn = seat;
        if self.bone_end > self.bone_pos && t.max_draws != 0 {
            return;
        }
        let open = self.open_mask;
        if t.stuck_blocks && !self.hands[seat].intersects(&open) {
            self.end_hand(BLOCKED, None, &[], 0); // stuck: neither a play nor a draw
            return;
        }
        if self.hands[..t.players].iter().any(|h| h.intersects(&open)) {
            return;
        }
        self.end_hand(BLOCKED, None, &[], 0);
    }

    fn end_hand(
        &mut self,
        how: u8,
        domino_seat: Option<usize>,
        gains: &[(usize, i64)],
        out_bonus: i64,
    ) {
        // SAFETY: this method and those it calls never assign `self.rules`
        let r = unsafe { self.rules_apart() };
        let t = &r.t;
        self.state = how;
        self.domino_seat = domino_seat;
        // on the stack: a hand ends at every playout's end
        let mut pip_sums = [0i64; MAX_PLAYERS];
        let mut held_doubles = [false; MAX_PLAYERS];
        let mut seat_pips = [0i64; MAX_PLAYERS];
        for (seat, held) in self.hands[..t.players].iter().enumerate() {
            let o = t.owner[seat];
            seat_pips[seat] = r.pips_of(held);
            pip_sums[o] += seat_pips[seat];
            if held.intersects(&r.doubles) {
                held_doubles[o] = true;
            }
        }
        let (pips, doubles) = (&pip_sums[..t.owners], &held_doubles[..t.owners]);
        let blocker = self.last_player.map(|s| t.owner[s]);
        let seats =
            Seats { pips: &seat_pips[..t.players], owner: &t.owner, locker: self.last_player };
        let (rule, domino) = if how == DOMINO {
            (&t.settle_domino, domino_seat.map(|s| t.owner[s]))
        } else {
            (&t.settle_blocked, None)
        };
        let room = std::mem::take(&mut self.spare);
        let mut deltas = rule.settle_in(room, pips, doubles, domino, blocker, &seats);
        // the hand's winner: the domino-er; in a blocked hand the side a
        // comparing rule decides, else the one best positive settlement
        let (won, won_seat) = if let Some(d) = domino {
            (Some(d), domino_seat)
        } else if matches!(
            rule.kind,
            SettleKind::Lightest | SettleKind::Locker | SettleKind::LosersPay
        ) {
            let decision = rule.decide(pips, doubles, blocker, &seats);
            match decision.winners[..] {
                [w] => (Some(w), decision.seat),
                _ => (None, None),
            }
        } else {
            let won = crate::kernel::settle::hand_winner(&deltas, None);
            let seat = won.and_then(|w| {
                (0..t.players).filter(|&s| t.owner[s] == w).min_by_key(|&s| (seat_pips[s], s))
            });
            (won, seat)
        };
        self.won_by = won;
        self.won_seat = won_seat;
        if let Some(w) = won {
            // the pot of earlier tied hands goes to this hand's winner
            deltas[w] += self.pot;
            self.pot = 0;
            let bonus = out_bonus + self.won_bonus(how);
            self.bonus = bonus;
            deltas[w] += bonus;
        }
        self.pot += rule.carried(pips, doubles, blocker, &seats);
        if t.first_minimum != 0 {
            // a side still at 0 records nothing below the first minimum
            for (o, d) in deltas.iter_mut().enumerate() {
                if 0 < *d && *d < t.first_minimum && self.scores[o] == 0 {
                    *d = 0;
                }
            }
        }
        // the settlement is kept as it is; the scores move by it and the gains
        let owners = deltas.len();
        let mut total = [0i64; MAX_PLAYERS];
        total[..owners].copy_from_slice(&deltas);
        self.settlement = Some(deltas);
        for &(o, g) in gains {
            total[o] += g;
        }
        let winners = if t.check == Check::HandWinner {
            rule.hand_winners(pips, doubles, domino, blocker, &seats)
        } else {
            Vec::new()
        };
        self.apply_settlement(&total[..owners], &winners);
    }

    /// `Hand.won_bonus`: the bonuses of the side that won a hand that ended
    /// `how` (`DOMINO` or `BLOCKED`), beyond going out: by the hand's number
    /// in the match, and for a block won. The hand scores by it, and the
    /// heuristic values a finish and a lock by it.
    pub fn won_bonus(&self, how: u8) -> i64 {
        let t = &self.rules.t;
        let mut bonus = if how == BLOCKED { t.blocked_win } else { 0 };
        if let Some(&b) = self.number.checked_sub(1).and_then(|i| t.hand_bonus.get(i)) {
            bonus += b;
        }
        bonus
    }

    fn apply_settlement(&mut self, deltas: &[i64], winners: &[usize]) {
        let t = &self.rules.t;
        let floor = t.floor;
        let fl = |s: i64| match floor {
            Some(f) => s.max(f),
            None => s,
        };
        if t.check == Check::Exact {
            let mut reached: Vec<usize> = Vec::new();
            for (o, &d) in deltas.iter().enumerate() {
                if d == 0 {
                    continue;
                }
                let s = self.scores[o] + d;
                if s > t.target {
                    continue;
                }
                self.scores[o] = fl(s);
                if s == t.target {
                    reached.push(o);
                }
            }
            if !reached.is_empty() {
                self.game_over = true;
                self.winner = if reached.len() == 1 { Some(reached[0]) } else { None };
            }
            return;
        }
        for (o, &d) in deltas.iter().enumerate() {
            self.scores[o] = fl(self.scores[o] + d);
        }
        if t.check == Check::HandWinner {
            // only the hand's winners are tested; of several at the target
            // (tied hands that share), the highest wins, a tie plays on
            let reached: Vec<usize> =
                winners.iter().copied().filter(|&o| self.scores[o] >= t.target).collect();
            if let Some(top) = reached.iter().map(|&o| self.scores[o]).max() {
                let leaders: Vec<usize> =
                    reached.into_iter().filter(|&o| self.scores[o] == top).collect();
                if leaders.len() == 1 {
                    self.game_over = true;
                    self.winner = Some(leaders[0]);
                }
            }
            return;
        }
        if t.check == Check::Penalty {
            // penalties: a side at the losing score ends the match, and the
            // lowest score wins it
            if self.scores.iter().any(|&s| s >= t.target) {
                let low = *self.scores.iter().min().unwrap();
                let lowest: Vec<usize> =
                    (0..self.scores.len()).filter(|&o| self.scores[o] == low).collect();
                self.game_over = true;
                self.winner = if let [w] = lowest[..] { Some(w) } else { None };
            }
            return;
        }
        if t.check == Check::HandEnd || t.check == Check::Immediate {
            let top = *self.scores.iter().max().unwrap();
            if top >= t.target {
                let leaders: Vec<usize> =
                    (0..self.scores.len()).filter(|&o| self.scores[o] == top).collect();
                if leaders.len() == 1 {
                    self.game_over = true;
                    self.winner = Some(leaders[0]);
                }
            }
        }
        if t.void_at != 0 && !self.game_over && self.scores.iter().all(|&s| s >= t.void_at) {
            self.game_over = true; // every side has reached it: void, no winner
            self.winner = None;
        }
    }

    pub fn pips_left(&self, seat: usize) -> i64 {
        self.rules.pips_of(&self.hands[seat])
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::kernel::rng::Rng;
    use crate::kernel::table::tests::{scored_table, set_spinner, table};

    /// A two-seat hand dealt from a shuffle drawn from `rng`: `per_seat`
    /// tiles each, the rest the boneyard, seat 0 leading.
    pub(crate) fn shuffled_deal(r: &Arc<Rules<1>>, rng: &mut Rng, per_seat: usize) -> Hand<1> {
        let mut tiles: Vec<u8> = (0..byte(r.size)).collect();
        rng.shuffle(&mut tiles);
        let mut hands = [Bits::<1>::ZERO; 2];
        for (i, &t) in tiles[..2 * per_seat].iter().enumerate() {
            hands[i / per_seat].set(usize::from(t));
        }
        Hand::new(Arc::clone(r), HandSetup::new(hands.to_vec(), tiles[2 * per_seat..].to_vec(), 0))
    }

    fn rules(spinner: Spinner, highest: usize) -> Arc<Rules<1>> {
        let mut t = table(highest, 2);
        set_spinner(&mut t, spinner, Order::Sides, [2, 2, 2, 1, 0]); // sniff-count
        Arc::new(Rules::<1>::new(t).unwrap())
    }

    fn deal(r: &Arc<Rules<1>>, a: &[(usize, usize)], b: &[(usize, usize)]) -> Hand<1> {
        let mask = |tiles: &[(usize, usize)]| {
            let mut m = Bits::<1>::ZERO;
            for &(x, y) in tiles {
                let t = (0..r.size).find(|&t| {
                    (usize::from(r.low[t]), usize::from(r.high[t])) == (x.min(y), x.max(y))
                });
                m.set(t.unwrap());
            }
            m
        };
        let setup =
            HandSetup { record: true, ..HandSetup::new(vec![mask(a), mask(b)], Vec::new(), 0) };
        Hand::new(Arc::clone(r), setup)
    }

    fn tile(r: &Rules<1>, x: usize, y: usize) -> usize {
        (0..r.size).find(|&t| (usize::from(r.low[t]), usize::from(r.high[t])) == (x, y)).unwrap()
    }

    #[test]
    fn a_led_spinner_counts_and_opens_its_sides() {
        let r = rules(Spinner::First, 6);
        let mut h = deal(&r, &[(5, 5), (1, 2)], &[(5, 0), (5, 3), (6, 6)]);
        assert_eq!(h.legal_moves().len(), 2);
        h.apply(lead_code(tile(&r, 5, 5)), None);
        // sniff-count: the lone spinner counts 2 x 5; 10 scores 2 (fives and threes)
        assert_eq!(h.count, 10);
        assert_eq!(h.last_points, 10 / 5);
        assert_eq!(h.scores, vec![2, 0]);
        // sides first: the cross arms stay shut, two side arms fit 5-0 and 5-3
        assert_eq!(h.n_arms, 4);
        let legal = h.legal_moves();
        assert_eq!(legal.len(), 4);
        h.apply(play_code(tile(&r, 0, 5), 0), None);
        assert_eq!(h.count, 10); // the 0-5 on the spinner adds its 0
        assert_eq!(h.recount(), h.count);
        assert_eq!(h.turn, 0);
    }

    #[test]
    fn blocked_without_a_boneyard_and_settled() {
        let r = rules(Spinner::None, 6);
        let mut h = deal(&r, &[(6, 6), (0, 1)], &[(2, 3), (4, 4)]);
        h.apply(lead_code(tile(&r, 6, 6)), None);
        // nobody holds a 6 and nothing can be drawn: blocked at once
        assert_eq!(h.state, BLOCKED);
        // lightest (seat 0: 1 pip) takes the opponents' 13
        assert_eq!(h.settlement, Some(vec![13, 0]));
        assert_eq!(h.log.len(), 1);
    }

    #[test]
    fn blocked_by_the_failed_draw_of_the_last_drawable_tile() {
        // docs/rules.md decision 12: no pass is asked once nobody can play
        // and nothing can be drawn
        let mut t = table(6, 2);
        t.drawing = Drawing::Until;
        t.max_draws = UNLIMITED_DRAWS;
        let r = Arc::new(Rules::<1>::new(t).unwrap());
        let mut h = deal(&r, &[(6, 6), (1, 2)], &[(0, 1), (2, 3)]);
        h.boneyard = vec![byte(tile(&r, 0, 2))];
        h.bone_end = 1;
        h.apply(lead_code(tile(&r, 6, 6)), None);
        assert_eq!((h.state, h.turn), (PLAYING, 1));
        assert_eq!(h.legal_moves(), vec![DRAW]);
        h.apply(DRAW, None);
        assert_eq!(h.state, BLOCKED);
        assert_eq!(h.log.len(), 2);
    }

    #[test]
    fn a_stuck_player_ends_the_hand_under_stuck_block() {
        let mut t = table(6, 2);
        t.stuck_blocks = true;
        let r = Arc::new(Rules::<1>::new(t).unwrap());
        // seat 1 holds no 6; seat 0 could still play its 6-1
        let mut h = deal(&r, &[(6, 6), (6, 1)], &[(2, 3), (4, 4)]);
        h.apply(lead_code(tile(&r, 6, 6)), None);
        assert_eq!(h.state, BLOCKED);
    }

    #[test]
    fn random_playouts_always_end_with_a_consistent_count() {
        let r = rules(Spinner::Every, 9);
        for seed in 0..200u64 {
            let mut rng = Rng::new(seed);
            let mut h = shuffled_deal(&r, &mut rng, 7);
            let mut legal = Vec::new();
            while h.state == PLAYING {
                h.legal_moves_into(&mut legal);
                let mv = legal[rng.index(legal.len())];
                h.apply(mv, None);
                assert_eq!(h.recount(), h.count);
            }
            let held: usize = h.hands[..2].iter().map(|m| m.len()).sum();
            assert_eq!(
                held + h.on_table.len() + h.boneyard.len() - h.bone_pos,
                r.size,
                "every tile is somewhere"
            );
        }
    }

    /// A fixed workload of the engine loop for counting instructions
    /// (`cargo test --release -- --ignored playouts`, under callgrind).
    #[test]
    #[ignore]
    fn playouts() {
        let r = Arc::new(Rules::<1>::new(scored_table(6, 2)).unwrap());
        let mut ended = 0;
        for seed in 0..20_000u64 {
            let mut rng = Rng::new(seed);
            let mut h = shuffled_deal(&r, &mut rng, 7);
            ended += usize::from(h.playout(false, &mut rng, 200));
        }
        assert!(ended > 0);
    }

    #[test]
    fn picked_moves_are_the_listed_ones() {
        // pick_legal against legal_moves_into at every turn of random games
        // (spinners, draw limits, a pass after drawing or not), each pick's
        // index from the turn's count, so every index is chosen somewhere
        let mut counted = 0;
        let mut turn = 0usize;
        for spinner in [Spinner::None, Spinner::First, Spinner::Every, Spinner::Inline] {
            for (max_draws, must_play_drawn, draw_while_able) in
                [(0, true, false), (1, true, false), (3, false, false), (99, false, true)]
            {
                let mut t = table(6, 2);
                set_spinner(&mut t, spinner, Order::Sides, [2, 2, 2, 1, 0]);
                (t.max_draws, t.must_play_drawn, t.draw_while_able) =
                    (max_draws, must_play_drawn, draw_while_able);
                let r = Arc::new(Rules::<1>::new(t).unwrap());
                for seed in 0..40u64 {
                    let mut rng = Rng::new(seed);
                    let mut h = shuffled_deal(&r, &mut rng, 5);
                    let mut legal = Vec::new();
                    while h.state == PLAYING {
                        h.legal_moves_into(&mut legal);
                        let mut chosen = None;
                        let picked = h.pick_legal(|n| {
                            turn += 1;
                            chosen = Some((n, turn % n));
                            turn % n
                        });
                        match picked {
                            None => {
                                assert!(h.placed == 0 || h.extra.is_some() || h.n_arms > PICK_ARMS)
                            }
                            Some(mv) => {
                                counted += 1;
                                // asked with the list's length, unless forced
                                let (n, k) = chosen.unwrap_or((1, 0));
                                assert_eq!(
                                    (n, mv),
                                    (legal.len(), legal[k]),
                                    "{spinner:?} seed {seed}"
                                );
                            }
                        }
                        h.apply(legal[rng.index(legal.len())], None);
                    }
                }
            }
        }
        assert!(counted > 1000, "{counted} turns counted");
    }

    #[test]
    fn kth_tile_is_the_kth_one() {
        // every index of random masks of one word and of two
        let mut rng = Rng::new(7);
        for _ in 0..2000 {
            let one = Bits::<1>([rng.next_u64() & rng.next_u64()]);
            for (k, tile) in one.ones().enumerate() {
                assert_eq!(kth_tile(&one, k), tile);
            }
            let two = Bits::<2>([rng.next_u64() & rng.next_u64(), rng.next_u64() >> 3]);
            for (k, tile) in two.ones().enumerate() {
                assert_eq!(kth_tile(&two, k), tile);
            }
        }
    }
}
