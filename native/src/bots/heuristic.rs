//! The `heuristic` bot (`bones.bots.basic.heuristic_move`), taking
//! exactly its decisions: it reads the mover's view of the hand (the other
//! hands scrubbed, as `Hand.public_copy` leaves them), the unseen tiles, the
//! tile counts, the drawable tiles and the tiles the next opponent is proven
//! not to hold. Floats are computed in the Python code's order, so the
//! values (and so the ties) are the same to the last bit.

use crate::kernel::bits::Bits;
use crate::kernel::convert::{int, slot};
use std::sync::Arc;

use crate::bots::policy::double_on_arm;
use crate::kernel::hand::Hand;
use crate::kernel::moves::{
    arm_of, is_tile_move, play_code, tile_of, BLOCKED, DOMINO, DRAW, PASS, PLAYING,
};
use crate::kernel::settle::Seats;
use crate::kernel::table::{Amount, Order, Settle, SettleKind, Table, MAX_PLAYERS};

pub(crate) const REPLY: f64 = 0.7;
pub(crate) const VARIETY: f64 = 1.5;
pub(crate) const SHED: f64 = 0.25;
pub(crate) const SHED_LATE: f64 = 1.0;
pub(crate) const DRAW_COST: f64 = 2.0;
/// `basic._READY`: the share of a finish's bonuses a last tile left fitting
/// the ends keeps when other seats can still play first (a capicúa set up)
pub(crate) const READY: f64 = 0.25;

/// A seat shown void of the open numbers (`Hand.voids`): it passed or was
/// forced to draw while holding none of `mask`; `then` is what it had drawn
/// by then and `played` the tiles of `mask` it has played since.
#[derive(Clone, Debug)]
pub struct Void<const W: usize> {
    pub seat: usize,
    pub mask: Bits<W>,
    pub then: u32,
    pub played: u32,
}

/// What a seat knows beyond the layout, tracked move by move.
#[derive(Clone, Debug, Default)]
pub struct Voids<const W: usize> {
    pub list: Vec<Void<W>>,
}

impl<const W: usize> Voids<W> {
    pub fn clear(&mut self) {
        self.list.clear();
    }

    /// Call before `hand.apply(mv)`: records a void as `Hand.apply` does and
    /// counts plays of tiles under earlier voids.
    #[inline]
    pub fn before_move(&mut self, hand: &Hand<W>, mv: i64) {
        let seat = hand.turn;
        if !is_tile_move(mv) {
            if !hand.hands[seat].intersects(&hand.open_mask) {
                self.list.push(Void {
                    seat,
                    mask: hand.open_mask,
                    then: hand.drawn[seat],
                    played: 0,
                });
            }
        } else if !self.list.is_empty() {
            let tile = tile_of(mv);
            for v in self.list.iter_mut() {
                if v.seat == seat && v.mask.has(tile) {
                    v.played += 1;
                }
            }
        }
    }

    /// `barred_for(observe(hand, observer), seat)`: the unseen tiles `seat`
    /// is proven not to hold.
    pub fn barred_for(
        &self,
        hand: &Hand<W>,
        observer: usize,
        seat: usize,
        unseen: &Bits<W>,
    ) -> Bits<W> {
        let mut barred = Bits::<W>::ZERO;
        if seat == observer {
            return barred;
        }
        let count = i64::from(hand.hands[seat].count());
        for v in &self.list {
            if v.seat != seat {
                continue;
            }
            let mask = v.mask.and(unseen);
            let cap = i64::from(hand.drawn[seat]) - i64::from(v.then) - i64::from(v.played);
            if mask.is_zero() || cap >= count {
                continue;
            }
            if cap == 0 {
                barred.or_assign(&mask);
            }
        }
        barred
    }
}

impl<const W: usize> Hand<W> {
    /// `Hand.public_copy(seat)`: the other hands emptied.
    pub fn public_copy(&self, seat: usize) -> Hand<W> {
        let mut new = self.clone();
        new.record = false;
        new.log = Vec::new();
        for (s, h) in new.hands.iter_mut().enumerate() {
            if s != seat {
                *h = Bits::ZERO;
            }
        }
        new
    }

    /// Make `self` what `src.public_copy(seat)` is for playing a tile:
    /// the layout, scores and turn state, the other hands emptied, without
    /// allocating (the buffers of `self` are reused) and without the
    /// boneyard's tiles (a tile move never reads them) or the log. The hubs' points are
    /// copied only as far as they are used: `new_hub` writes every field of
    /// the hub it adds (as `new_arm` does of an arm).
    pub fn view_from(&mut self, src: &Hand<W>, seat: usize) {
        self.copy_for_play(src, Some(seat));
    }

    /// `view_from`, or (`seat` None) the whole hand as it is: every seat's
    /// tiles kept, as `Hand.copy` keeps them.
    pub fn copy_for_play(&mut self, src: &Hand<W>, seat: Option<usize>) {
        // every field named, so a field added to `Hand` must be handled here
        // (kept in a paragraph: one field a line would run to fifty lines)
        #[rustfmt::skip]
        let Hand {
            rules, hands, boneyard: _, bone_pos, bone_end, out_of_play, n_arms, arm_open,
            arm_end, arm_weight, arm_hub, arm_root, arm_side, arm_stub, arm_frozen, n_hubs,
            hub_pip, hub_k, hub_mult, hub_cross, hub_sides_left, hub_spins, spinners,
            first_double_seen, count, turn, leader, lead_tile, lead_doubles_only, placed,
            on_table, passes, drawn_turn, drawn, out, scores, got_in, state, game_over, winner,
            domino_seat, last_player, settlement: _, pot, log: _, record: _, moves,
            play_points, last_points, open_mask, number, extra, won_by, won_seat, bonus,
            spare: _,
        } = src;
        if !Arc::ptr_eq(&self.rules, rules) {
            self.rules = Arc::clone(rules);
        }
        match seat {
            Some(seat) => {
                self.hands = [Bits::ZERO; crate::kernel::table::MAX_PLAYERS];
                self.hands[seat] = hands[seat];
            }
            None => self.hands = *hands,
        }
        self.boneyard.clear();
        self.bone_pos = *bone_pos;
        self.bone_end = *bone_end;
        self.out_of_play = *out_of_play;
        // the byte-wide arrays whole (a few vector moves, where a slice of
        // the length in use is a call to memcpy each: 14 calls a copy were a
        // tenth of the heuristic's instructions, issue 37); the hubs' points
        // (8 bytes times 5 an entry) only as far as they are used
        let h = *n_hubs;
        self.n_arms = *n_arms;
        self.arm_open = *arm_open;
        self.arm_end = *arm_end;
        self.arm_weight = *arm_weight;
        self.arm_hub = *arm_hub;
        self.arm_root = *arm_root;
        self.arm_side = *arm_side;
        self.arm_stub = *arm_stub;
        self.arm_frozen = *arm_frozen;
        self.n_hubs = h;
        self.hub_pip = *hub_pip;
        self.hub_k = *hub_k;
        self.hub_mult[..h].copy_from_slice(&hub_mult[..h]);
        self.hub_cross = *hub_cross;
        self.hub_sides_left = *hub_sides_left;
        self.hub_spins = *hub_spins;
        self.spinners = *spinners;
        self.first_double_seen = *first_double_seen;
        self.count = *count;
        self.turn = *turn;
        self.leader = *leader;
        self.lead_tile = *lead_tile;
        self.lead_doubles_only = *lead_doubles_only;
        self.placed = *placed;
        self.on_table = *on_table;
        self.passes = *passes;
        self.drawn_turn = *drawn_turn;
        self.drawn = *drawn;
        self.out = *out;
        self.scores.clone_from(scores);
        self.got_in.clone_from(got_in);
        self.state = *state;
        self.game_over = *game_over;
        self.winner = *winner;
        self.domino_seat = *domino_seat;
        self.last_player = *last_player;
        if let Some(last) = self.settlement.take() {
            self.spare = last; // its buffer kept for the next trial's settlement
        }
        self.pot = *pot;
        self.log.clear();
        self.record = false;
        self.moves = *moves;
        self.play_points = *play_points;
        self.last_points = *last_points;
        self.open_mask = *open_mask;
        self.number = *number;
        self.extra = *extra;
        self.won_by = *won_by;
        self.won_seat = *won_seat;
        self.bonus = *bonus;
    }

    pub(crate) fn variety(&self, mask: &Bits<W>) -> i64 {
        let r = &*self.rules;
        r.matching.iter().filter(|m| m.intersects(mask)).count() as i64
    }
}

/// The heuristic bot's move in seat `seat` of the live `hand` (it sees only
/// what `observe(hand, seat)` shows: it reads the mover's own tiles and
/// plays candidate moves on `scratch`, a view with the other hands empty).
/// `scratch` is any hand of the same tile set, reused between calls.
pub fn heuristic_decide<const W: usize>(
    hand: &Hand<W>,
    voids: &Voids<W>,
    legal: &[i64],
    scratch: &mut Hand<W>,
) -> i64 {
    if legal.len() == 1 {
        return legal[0];
    }
    let r = &*hand.rules;
    let seat = hand.turn;
    let own = hand.hands[seat];
    let mut seen = own;
    seen.or_assign(&hand.on_table);
    seen.or_assign(&hand.out_of_play);
    let unseen = r.full.and_not(&seen);
    let players = r.t.players;
    let mut counts = [0i64; crate::kernel::table::MAX_PLAYERS];
    for (s, c) in counts[..players].iter_mut().enumerate() {
        *c = i64::from(hand.hands[s].count());
    }
    let hidden = Hidden { unseen, counts: &counts[..players], drawable: hand.drawable() as i64 };
    let opponent = r.t.next_opponent(seat);
    let barred = voids.barred_for(hand, seat, opponent, &unseen);
    heuristic_move_in(hand, &hidden, &barred, legal, scratch, true)
}

/// What the mover of a hand cannot see, as the heuristic weighs it: the
/// unseen tiles (`unseen`), every seat's tile count (`counts`) and the tiles
/// left to draw (`drawable`), `basic.heuristic_move`'s three arguments.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hidden<'a, const W: usize> {
    pub(crate) unseen: Bits<W>,
    pub(crate) counts: &'a [i64],
    pub(crate) drawable: i64,
}

/// `basic.heuristic_move`, its candidate moves played in `scratch` (any
/// hand of the same tile set, reused between calls). With `public`, they are
/// played on the mover's view (`Hand.public_copy`: the other hands empty), so
/// `hand` may be the live hand: the rest of the bot reads only the mover's
/// tiles and the layout.
pub(crate) fn heuristic_move_in<const W: usize>(
    hand: &Hand<W>,
    hidden: &Hidden<'_, W>,
    barred: &Bits<W>,
    legal: &[i64],
    scratch: &mut Hand<W>,
    public: bool,
) -> i64 {
    if legal.len() == 1 {
        return legal[0];
    }
    let judge = Judge::new(hand, hidden);
    let candidates = hidden.unseen.and_not(barred);
    let (mut best, mut best_value) = (-1i64, f64::NEG_INFINITY);
    for &mv in legal {
        if !is_tile_move(mv) {
            continue;
        }
        let (mut value, keeps) = judge.play(mv, scratch, public);
        if keeps {
            // the reply only lowers the value: a move that cannot beat the
            // best so far even before it is not played out (same decision)
            if value <= best_value {
                continue;
            }
            value -= REPLY * reply_estimate(hand, mv, &candidates, judge.p_hold, scratch, public);
        }
        if value > best_value {
            best = mv;
            best_value = value;
        }
    }
    if best < 0 {
        return if legal.contains(&DRAW) { DRAW } else { PASS };
    }
    if legal.contains(&DRAW) && judge.draw(&candidates) > best_value {
        return DRAW;
    }
    best
}

/// `basic._Judge`: what the heuristic weighs a move of `hand.turn` with (how
/// much a pip shed is worth now, the unseen tiles' average pips, the chance
/// that the next opponent holds a given unseen tile, and, when nothing can
/// be drawn, what the ends a play leaves earn: passes forced, a lock, a
/// capicúa set up). The heuristic's move and the search's inference
/// (`infer::heuristic_values`) value moves through this one judge.
pub(crate) struct Judge<'a, const W: usize> {
    hand: &'a Hand<W>,
    counts: &'a [i64],
    seat: usize,
    pub(crate) p_hold: f64,
    shed: f64,
    avg_pips: f64,
    unseen: Bits<W>,
    /// nothing can be drawn, and the rules pay for what the ends lead to
    /// (`Table::ends_pay`)
    ends: bool,
}

impl<'a, const W: usize> Judge<'a, W> {
    pub(crate) fn new(hand: &'a Hand<W>, hidden: &Hidden<'a, W>) -> Judge<'a, W> {
        let Hidden { unseen, counts, drawable } = *hidden;
        let unseen = &unseen;
        let r = &*hand.rules;
        let t = &r.t;
        let seat = hand.turn;
        let opponent = t.next_opponent(seat);
        let n_unseen = i64::from(unseen.count());
        let p_hold = if n_unseen != 0 {
            (1.0f64).min(counts[opponent] as f64 / n_unseen as f64)
        } else {
            0.0
        };
        let others_min = (0..counts.len())
            .filter(|&s| s != seat && t.owner[s] != t.owner[seat])
            .map(|s| counts[s])
            .min()
            .unwrap_or(0);
        let late = drawable == 0 && (others_min <= 2 || counts[seat] <= 3);
        let shed = (if late { SHED_LATE } else { SHED }) * pip_worth(t, &t.settle_domino);
        let avg_pips = if n_unseen != 0 { r.pips_of(unseen) as f64 / n_unseen as f64 } else { 0.0 };
        let ends = (drawable == 0 || t.max_draws == 0) && t.ends_pay;
        Judge { hand, counts, seat, p_hold, shed, avg_pips, unseen: *unseen, ends }
    }

    /// A play's value before the next opponent's reply, and whether the
    /// mover keeps tiles after it (else it goes out: no reply to fear).
    /// `scratch` is where the play is tried when its ends are judged (on the
    /// mover's view when `public`, as `reply_estimate` tries it).
    pub(crate) fn play(&self, mv: i64, scratch: &mut Hand<W>, public: bool) -> (f64, bool) {
        let r = &*self.hand.rules;
        let t = &r.t;
        let tile = tile_of(mv);
        let points = self.hand.points_if(mv);
        let mut left = self.hand.hands[self.seat];
        left.clear(tile);
        let mut value = points as f64 + self.shed * r.pips[tile] as f64;
        if left.is_zero() {
            // going out: the settlement is roughly the opponents' pips, and
            // the bonuses of going out with this tile are certain
            let theirs: i64 = (0..self.counts.len())
                .filter(|&s| t.owner[s] != t.owner[self.seat])
                .map(|s| self.counts[s])
                .sum();
            value += settled(t, &t.settle_domino, self.avg_pips * theirs as f64);
            let bonus = finish_bonus(self.hand, self.seat, tile);
            if bonus != 0 {
                value += bonus as f64;
            }
            return (value, false);
        }
        value += VARIETY * self.hand.variety(&left) as f64;
        if self.ends {
            value += self.after(mv, &left, scratch, public);
        }
        (value, true)
    }

    /// `_Judge.after`: what the ends `mv` leaves earn when nothing can be
    /// drawn, the mover keeping `left`: with the chance that no other seat
    /// holds a tile fitting them (hypergeometrically), a lock when the mover
    /// cannot follow either (`lock`), else every other player passes (the
    /// round pass, and a last tile that fits goes out next with its
    /// bonuses; with the chance that some seat can follow, that last tile
    /// keeps `READY` of its finish's bonuses: a capicúa set up); with the chance that the next player holds none (and, when
    /// the mover cannot follow, somebody else can), the pass on the opening
    /// tile. Under `stuck: block` the next player who cannot play blocks the
    /// hand, and nobody passes.
    fn after(&self, mv: i64, left: &Bits<W>, scratch: &mut Hand<W>, public: bool) -> f64 {
        let r = &*self.hand.rules;
        let t = &r.t;
        let seat = self.seat;
        let counts = self.counts;
        // only the layout of the hand after the play is read
        scratch.copy_for_play(self.hand, public.then_some(seat));
        scratch.apply(mv, None);
        let fits = scratch.open_mask;
        let n = i64::from(self.unseen.count());
        let f = i64::from(self.unseen.and(&fits).count());
        if t.stuck_blocks {
            let p_next = none_held(n, f, counts[next_holding(&r.next_seat, counts, seat)]);
            return if p_next != 0.0 { p_next * self.lock(&fits, left) } else { 0.0 };
        }
        let others: i64 = counts.iter().sum::<i64>() - counts[seat];
        let p_all = none_held(n, f, others);
        let follows = left.intersects(&fits);
        let mut gain = 0.0f64;
        if p_all != 0.0 && !follows {
            gain += p_all * self.lock(&fits, left);
        }
        if self.hand.placed == 0 {
            let tile = tile_of(mv);
            let opening =
                if r.is_double[tile] { t.opening_pass_double } else { t.opening_pass_other };
            if opening != 0 {
                let mut p_pass = none_held(n, f, counts[r.next_seat[seat]]);
                if !follows {
                    p_pass -= p_all; // nobody can play: a lock, not a pass
                }
                gain += p_pass * opening as f64;
            }
        }
        // (a seat already out, under partners_both_out, never passes)
        let all_in = (0..counts.len()).all(|s| s == seat || counts[s] != 0);
        if p_all != 0.0 && follows && all_in {
            let mut points = t.round_pass;
            if left.count() == 1 {
                // one tile left, and it fits: it goes out at the next turn
                let last = left.ones().next().unwrap_or(0);
                points += finish_bonus(scratch, seat, last);
            }
            if points != 0 {
                gain += p_all * points as f64;
            }
        }
        if follows && left.count() == 1 && p_all < 1.0 {
            // the last tile fits the ends left (a capicúa set up) but some
            // other seat may follow first: a share of the finish's bonuses
            let last = left.ones().next().unwrap_or(0);
            let bonus = finish_bonus(scratch, seat, last);
            if bonus != 0 {
                gain += READY * (1.0 - p_all) * bonus as f64;
            }
        }
        gain
    }

    /// `_Judge.lock`: a block's worth to the mover's side, by the blocked
    /// settlement's verdict (`Settle::decide`) on the seats' pips: the
    /// mover's `left` exactly, every other seat's its share of the pips of
    /// the unseen tiles that do not fit the `fits` ends (rounded); the
    /// opponents' pips and the bonuses of a block won when the verdict is
    /// the mover's side's, its own pips and those bonuses lost when it is
    /// another side's, 0 when nobody wins.
    fn lock(&self, fits: &Bits<W>, left: &Bits<W>) -> f64 {
        let r = &*self.hand.rules;
        let t = &r.t;
        let pool = self.unseen.and_not(fits);
        let pool_n = i64::from(pool.count());
        let pool_pips = r.pips_of(&pool);
        let seat = self.seat;
        let me = t.owner[seat];
        let players = self.counts.len();
        let mut seat_pips = [0i64; MAX_PLAYERS];
        let mut pips = [0i64; MAX_PLAYERS];
        for s in 0..players {
            seat_pips[s] = if s == seat {
                r.pips_of(left)
            } else {
                share_of(self.counts[s], pool_pips, pool_n)
            };
            pips[t.owner[s]] += seat_pips[s];
        }
        let pips = &pips[..t.owners];
        // the others' doubles unknown: none
        let mut doubles = [false; MAX_PLAYERS];
        doubles[me] = left.intersects(&r.doubles);
        let verdict = t.settle_blocked.decide(
            pips,
            &doubles[..t.owners],
            Some(me),
            &Seats { pips: &seat_pips[..players], owner: &t.owner, locker: Some(seat) },
        );
        if verdict.winners.is_empty() {
            return 0.0;
        }
        let bonus = self.hand.won_bonus(BLOCKED);
        let rule = &t.settle_blocked;
        if verdict.winners.contains(&me) {
            settled(t, rule, (pips.iter().sum::<i64>() - pips[me]) as f64) + bonus as f64
        } else {
            -(settled(t, rule, pips[me] as f64) + bonus as f64)
        }
    }

    /// The value of drawing: the ends kept as they are, an unknown tile
    /// added (`candidates`: the tiles the reply may be made with).
    pub(crate) fn draw(&self, candidates: &Bits<W>) -> f64 {
        let mine = self.hand.hands[self.seat];
        VARIETY * self.hand.variety(&mine) as f64
            - self.shed * self.avg_pips
            - DRAW_COST
            - REPLY * reply_on(self.hand, self.seat, candidates, self.p_hold)
    }
}

/// `basic.settled`: what a settlement `rule` of `pips` pips is worth to
/// the side it pays, weighed against the points plays score: its flat
/// points, or the pips divided by its divisor (its rounding aside). Where
/// no play scores, the pips themselves judge it.
pub(crate) fn settled(t: &Table, rule: &Settle, pips: f64) -> f64 {
    if !t.scores_plays {
        return pips;
    }
    if rule.kind == SettleKind::Nobody {
        return 0.0;
    }
    if rule.amount == Amount::Flat {
        return rule.flat as f64;
    }
    pips / rule.divisor as f64
}

/// `basic.pip_worth`: what a pip in hand is worth under `rule`, as
/// `settled` counts it (a flat settlement where plays score: nothing).
pub(crate) fn pip_worth(t: &Table, rule: &Settle) -> f64 {
    if !t.scores_plays {
        return 1.0;
    }
    if rule.amount == Amount::Flat {
        return 0.0;
    }
    1.0 / rule.divisor as f64
}

/// `basic.finish_bonus`: the bonuses `seat` earns by going out with `tile`
/// on the ends of `hand` (`Hand::out_bonus` and the winner's
/// `Hand::won_bonus`), 0 when going out does not end the hand (a partner is
/// still in).
fn finish_bonus<const W: usize>(hand: &Hand<W>, seat: usize, tile: usize) -> i64 {
    if hand.rules.t.partners_both_out && !hand.mates_out(seat) {
        return 0;
    }
    hand.out_bonus(tile) + hand.won_bonus(DOMINO)
}

/// `basic.none_held`: the chance that `held` tiles dealt at random from
/// `unseen` tiles include none of `fitting` of them (hypergeometric),
/// multiplied out in the Python code's order (the train heuristic's too).
pub(crate) fn none_held(unseen: i64, fitting: i64, held: i64) -> f64 {
    let mut p = 1.0f64;
    for i in 0..held {
        let free = unseen - fitting - i;
        if free <= 0 {
            return 0.0;
        }
        p *= free as f64 / (unseen - i) as f64;
    }
    p
}

/// `basic.next_holding`: the next seat after `seat` that holds tiles.
fn next_holding(next_seat: &[usize], counts: &[i64], seat: usize) -> usize {
    let mut next = next_seat[seat];
    while counts[next] == 0 && next != seat {
        next = next_seat[next];
    }
    next
}

/// `basic.share_of`: the pips of `count` tiles at the average of `tiles`
/// tiles of `pips` pips, rounded half up.
fn share_of(count: i64, pips: i64, tiles: i64) -> i64 {
    if tiles == 0 {
        0
    } else {
        (2 * count * pips + tiles) / (2 * tiles)
    }
}

/// `_reply_estimate`: the move played in `scratch` (on the mover's view
/// when `public`).
pub(crate) fn reply_estimate<const W: usize>(
    hand: &Hand<W>,
    mv: i64,
    candidates: &Bits<W>,
    p_hold: f64,
    scratch: &mut Hand<W>,
    public: bool,
) -> f64 {
    if p_hold == 0.0 || !hand.rules.t.scores_plays {
        return 0.0;
    }
    if let Some(value) = reply_in_place(hand, mv, candidates, p_hold, public) {
        return value;
    }
    scratch.copy_for_play(hand, public.then_some(hand.turn));
    scratch.apply(mv, None);
    if scratch.state != PLAYING {
        return 0.0;
    }
    reply_on(scratch, hand.turn, candidates, p_hold)
}

/// `reply_estimate` worked out on `hand` itself where what the move does is
/// plain, without the trial's copy and `apply` (a quarter of the heuristic's
/// instructions, issue 37): a tile that is no double, played (not led) on an
/// arm that is no stub (under `order: all4`, no hub's or spinner's side;
/// not the last long side that opens a spinner's cross arms), the mover
/// keeping tiles, no knock pending and no matching-ends points. What the trial would read is found as `place`,
/// `scoring_play` and `advance` would leave it: the arm's new end, the
/// count, the match over or the hand blocked, the seat to move. `None` for
/// any other move (it is played out on the scratch hand).
fn reply_in_place<const W: usize>(
    hand: &Hand<W>,
    mv: i64,
    candidates: &Bits<W>,
    p_hold: f64,
    public: bool,
) -> Option<f64> {
    let r = &*hand.rules;
    let t = &r.t;
    let (seat, tile, arm) = (hand.turn, tile_of(mv), arm_of(mv));
    if t.headers
        || hand.placed == 0
        || hand.extra.is_some()
        || hand.knock_points() != 0
        || r.is_double[tile]
        || hand.arm_stub[arm]
        || (t.order == Order::All4 && (hand.arm_root[arm] >= 0 || hand.arm_hub[arm] >= 0))
    {
        return None;
    }
    // a side of a hub: the hub's next side counted; the last long side of
    // a spinner opening its cross arms is played out
    let hub = slot(hand.arm_hub[arm]);
    if let Some(h) = hub {
        if hand.arm_side[arm]
            && hand.hub_sides_left[h] == 1
            && t.order == Order::Sides
            && hand.hub_spins[h]
        {
            return None;
        }
    }
    let mut left = hand.hands[seat];
    left.clear(tile);
    if left.is_zero() {
        return None;
    }
    let pip = slot(hand.arm_open[arm])?;
    // `place`: the tile's far half ends the arm, counted once
    let far = r.other_pip(tile, pip);
    let end = slot(far)?;
    let count = hand.count_without_end(arm) + i64::from(far);
    // `scoring_play`: the play's points, and the match over by them
    let owner = t.owner[seat];
    let points = t.points(count);
    if points != 0 {
        let worth = hand.play_worth(seat, points, false).unwrap_or(0);
        if matches!(hand.gained(owner, worth), Some((_, true))) {
            return Some(0.0);
        }
    }
    // `advance`, on the mover's view (the other hands empty) when `public`
    let mut next = r.next_seat[seat];
    if t.partners_both_out {
        for _ in 0..t.players {
            if !hand.out[next] {
                break;
            }
            next = r.next_seat[next];
        }
    }
    let held = |s: usize| {
        if s == seat {
            left
        } else if public {
            Bits::ZERO
        } else {
            hand.hands[s]
        }
    };
    if !(hand.bone_end > hand.bone_pos && t.max_draws != 0) {
        // the open ends after the play, read only here: while a tile can be
        // drawn nobody is stuck (the loop, a play's every trial, was 27
        // mispredicted branches a Sniff hand, issue 37)
        let mut open = Bits::<W>::ZERO;
        for a in 0..hand.n_arms {
            let pip = if a == arm { Some(end) } else { slot(hand.arm_open[a]) };
            if let Some(pip) = pip {
                open.or_assign(&r.matching[pip]);
            }
        }
        if t.stuck_blocks && !held(next).intersects(&open) {
            return Some(0.0); // blocked: the trial's hand is over
        }
        if !(0..t.players).any(|s| held(s).intersects(&open)) {
            return Some(0.0);
        }
    }
    // `reply_on` on the ends after the play (the passes since a play, and
    // so the knock, are none; a lead's cap is no matter)
    let turn = if next == seat { t.next_opponent(seat) } else { next };
    if t.owner[turn] == owner {
        return Some(0.0);
    }
    let worth = Worth { got_in: hand.got_in[t.owner[turn]], get_in: t.get_in, knock: 0, cap: None };
    let mut replies = Replies::default();
    let shift = count - hand.count;
    for a in 0..hand.n_arms {
        let (pip, base, stub) = if a == arm {
            (end, count - i64::from(far), false)
        } else {
            let Some(pip) = slot(hand.arm_open[a]) else { continue };
            let base = match hub {
                // another side of the hub just covered: its next side now
                Some(h) if slot(hand.arm_hub[a]) == Some(h) => {
                    let k = usize::from(hand.hub_k[h]) + 1;
                    count
                        + (hand.hub_mult[h][k + 1] - hand.hub_mult[h][k])
                            * i64::from(hand.hub_pip[h])
                }
                _ => hand.count_without_end(a) + shift,
            };
            (pip, base, hand.arm_stub[a])
        };
        let fits = candidates.and(&r.matching[pip]);
        if !fits.is_zero() {
            replies_on_end(
                r,
                hand.first_double_seen,
                &worth,
                (pip, base, stub),
                fits,
                &mut replies,
            );
        }
    }
    if replies.n == 0 {
        return Some(0.0);
    }
    Some(expect(replies.sorted(), p_hold))
}

/// `_reply_on`: the expected best score of the seat to move after `mover`
/// on the ends of `after` (the next opponent when `after.turn` is still
/// `mover`: the ends judged as they are, before a draw).
pub(crate) fn reply_on<const W: usize>(
    after: &Hand<W>,
    mover: usize,
    candidates: &Bits<W>,
    p_hold: f64,
) -> f64 {
    let r = &*after.rules;
    let t = &r.t;
    if p_hold == 0.0 || !t.scores_plays {
        return 0.0;
    }
    let turn = if after.turn == mover { t.next_opponent(mover) } else { after.turn };
    if t.owner[turn] == t.owner[mover] {
        return 0.0;
    }
    let mut replies = Replies::default();
    // `adjust_points` for `turn`, what it reads of the hand found once (the
    // reply scan was a third of the heuristic's instructions, issue 37)
    let worth = Worth::of(after, turn);
    for arm in 0..after.n_arms {
        let Some(pip) = slot(after.arm_open[arm]) else { continue };
        let fits = candidates.and(&r.matching[pip]);
        if fits.is_zero() {
            continue;
        }
        if t.headers {
            for tile in fits.ones() {
                let points = after.points_as(turn, play_code(tile, arm));
                if points != 0 {
                    replies.push(points);
                }
            }
            continue;
        }
        // `points_as` per tile, the arm's share of the count found once
        let end = (pip, after.count_without_end(arm), after.arm_stub[arm]);
        replies_on_end(r, after.first_double_seen, &worth, end, fits, &mut replies);
    }
    if replies.n == 0 {
        return 0.0;
    }
    expect(replies.sorted(), p_hold)
}

/// The scoring replies of `reply_on` on one open end, `(pip, base, stub)`:
/// the pip open on it, the count without it (`count_without_end`) and
/// whether it is a stub; `fits` the candidate tiles that fit it. Inlined
/// into its two scans (a call an open end was 3% of the heuristic's
/// instructions, issue 37).
#[inline(always)]
fn replies_on_end<const W: usize>(
    r: &crate::kernel::table::Rules<W>,
    first_double_seen: bool,
    worth: &Worth,
    (pip, base, stub): (usize, i64, bool),
    mut fits: Bits<W>,
    replies: &mut Replies,
) {
    let t = &r.t;
    // the arm's double apart (`count_on_arm`'s one other case; a stub
    // counts a double as any tile: no such case there)
    let double = r.double(pip);
    if !stub && fits.has(double) {
        fits.clear(double);
        let count = double_on_arm(t, first_double_seen, base, int(pip));
        let points = worth.points(t.points(count));
        if points != 0 {
            replies.push(points);
        }
    }
    if worth.knock == 0 {
        // a count that scores nothing is worth nothing without a knock:
        // only the tiles whose other half makes the count score are read
        // (four in five tiles were read for nothing, issue 37)
        fits = fits.and(&scoring_halves(r, base, pip, stub));
    }
    for tile in fits.ones() {
        let points = worth.points(t.points(base + r.other_half(tile, pip)));
        if points != 0 {
            replies.push(points);
        }
    }
}

/// The tiles of `pip` whose count scores when laid on an arm whose share of
/// the count is `base` (the count `base` plus the tile's other half): the
/// tiles of every other half that scores, and the double (the one tile whose
/// other half is `pip`) only on a `stub`, where it counts as any tile.
#[inline(always)]
fn scoring_halves<const W: usize>(
    r: &crate::kernel::table::Rules<W>,
    base: i64,
    pip: usize,
    stub: bool,
) -> Bits<W> {
    let t = &r.t;
    // the halves that score at `base` taken from the rules' table at once
    // (`Rules::scoring`: the scan over the halves was a sixth of the
    // heuristic's instructions, issue 37); the table holds `highest + 1`
    // masks a base (`pip` below it): a base past its last finds nothing
    let width = t.highest + 1;
    let at = usize::try_from(base).ok().map(|b| (b, b.saturating_mul(width).saturating_add(pip)));
    match at.and_then(|(b, at)| Some((b, *r.scoring.get(at)?))) {
        Some((b, mut mask)) => {
            // `base + pip` is in the table's window, as `base + highest` is
            if stub && t.count_points[b + pip] != 0 {
                mask.set(r.double(pip));
            }
            mask
        }
        None => scoring_halves_scanned(r, base, pip, stub),
    }
}

/// `scoring_halves` for a base outside the rules' table: half by half.
#[inline(never)]
fn scoring_halves_scanned<const W: usize>(
    r: &crate::kernel::table::Rules<W>,
    base: i64,
    pip: usize,
    stub: bool,
) -> Bits<W> {
    let mut mask = Bits::<W>::ZERO;
    for half in 0..=r.t.highest {
        if r.t.points(base + int(half)) != 0 {
            if half != pip {
                mask.or_assign(&r.matching[half]);
            } else if stub {
                mask.set(r.double(pip));
            }
        }
    }
    mask
}

/// The points of a scan's scoring replies: the few a hand has on the stack
/// (16 zeroed in a few stores, where 64 were a call to memset a scan), every
/// one in `more` past them.
#[derive(Default)]
struct Replies {
    n: usize,
    few: [i64; 16],
    more: Vec<i64>,
}

impl Replies {
    #[inline(always)]
    fn push(&mut self, points: i64) {
        if self.n < self.few.len() {
            self.few[self.n] = points;
            self.n += 1;
        } else {
            self.spill(points);
        }
    }

    #[cold]
    fn spill(&mut self, points: i64) {
        if self.more.is_empty() {
            self.more.extend_from_slice(&self.few);
        }
        self.more.push(points);
    }

    /// Every reply, highest first.
    fn sorted(&mut self) -> &[i64] {
        let all = if self.more.is_empty() { &mut self.few[..self.n] } else { &mut self.more[..] };
        all.sort_unstable_by(|a, b| b.cmp(a));
        all
    }
}

/// `Hand::adjust_points` for one seat of one hand, what it reads of the
/// hand (the seat's side in or not, the knock bonus, the lead's cap) found
/// once for the many counts of a reply scan.
struct Worth {
    got_in: bool,
    get_in: i64,
    knock: i64,
    /// a lead that may not reach the target: the points it may not reach
    cap: Option<i64>,
}

impl Worth {
    fn of<const W: usize>(hand: &Hand<W>, seat: usize) -> Worth {
        let t = &hand.rules.t;
        let owner = t.owner[seat];
        let lead = hand.placed == 0 && t.lead_cannot_win;
        Worth {
            got_in: hand.got_in[owner],
            get_in: t.get_in,
            knock: hand.knock_points(),
            cap: lead.then(|| t.target - hand.scores[owner]),
        }
    }

    /// `hand.adjust_points(seat, points)`: `play_worth` (0 below the get-in
    /// threshold; nothing for a lead reaching the target) and the knocks.
    #[inline(always)]
    fn points(&self, points: i64) -> i64 {
        let points = if !self.got_in && points < self.get_in { 0 } else { points };
        let points = match self.cap {
            Some(cap) if points >= cap => 0,
            _ => points,
        };
        points + self.knock
    }
}

fn expect(sorted: &[i64], p_hold: f64) -> f64 {
    let (mut expected, mut none_higher) = (0.0f64, 1.0f64);
    for &points in sorted {
        expected += points as f64 * p_hold * none_higher;
        none_higher *= 1.0 - p_hold;
    }
    expected
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::hand::tests::shuffled_deal;
    use crate::kernel::hand::HandSetup;
    use crate::kernel::moves::arm_of;
    use crate::kernel::rng::Rng;
    use crate::kernel::table::{
        tests::{set_spinner, table},
        Check, Order, Rules, Spinner,
    };
    use std::sync::Arc;

    fn dealt(r: &Arc<Rules<1>>, seed: u64) -> Hand<1> {
        shuffled_deal(r, &mut Rng::new(seed), 5)
    }

    #[test]
    fn the_scoring_halves_are_those_a_count_by_count_scan_finds() {
        // double-6 and double-9, on every count of the compiled table and
        // past both its ends (where the table is not read)
        for highest in [6, 9] {
            let r = Rules::<1>::new(crate::kernel::table::tests::scored_table(highest, 2)).unwrap();
            let t = &r.t;
            assert!(t.count_points.iter().any(|&p| p != 0), "a table whose counts score");
            let top = i64::try_from(t.count_points.len()).unwrap() + 3;
            for base in -3..top {
                for pip in 0..=highest {
                    for stub in [false, true] {
                        let mut want = Bits::<1>::ZERO;
                        for half in 0..=highest {
                            if t.points(base + int(half)) == 0 {
                                continue;
                            }
                            if half != pip {
                                want.or_assign(&r.matching[half]);
                            } else if stub {
                                want.set(r.double(pip));
                            }
                        }
                        assert_eq!(
                            scoring_halves(&r, base, pip, stub),
                            want,
                            "{base} {pip} {stub}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_heuristic_plays_legal_moves_to_the_end() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        for seed in 0..100 {
            let mut h = dealt(&r, seed);
            let mut voids = Voids::<1>::default();
            let mut legal = Vec::new();
            let mut scratch = h.clone();
            while h.state == PLAYING {
                h.legal_moves_into(&mut legal);
                let mv = heuristic_decide(&h, &voids, &legal, &mut scratch);
                assert!(legal.contains(&mv), "seed {seed}: {mv} not in {legal:?}");
                voids.before_move(&h, mv);
                h.apply(mv, None);
            }
        }
    }

    #[test]
    fn a_forced_draw_bars_the_open_numbers_until_more_is_drawn() {
        let r = Arc::new(Rules::<1>::new(table(6, 2)).unwrap());
        let mut h = dealt(&r, 3);
        let mut voids = Voids::<1>::default();
        let lead = h.legal_moves()[0];
        voids.before_move(&h, lead);
        h.apply(lead, None);
        // seat 1 is shown void when it must draw: pretend it holds nothing that fits
        let open = h.open_mask;
        h.hands[1] = h.hands[1].and_not(&open);
        voids.before_move(&h, DRAW);
        let unseen = r.full.and_not(&h.hands[0]).and_not(&h.on_table);
        let barred = voids.barred_for(&h, 0, 1, &unseen);
        assert_eq!(barred, open.and(&unseen));
        // after the draw it may hold one of them: no longer barred
        h.drawn[1] += 1;
        assert!(voids.barred_for(&h, 0, 1, &unseen).is_zero());
        // the observer never bars itself
        assert!(voids.barred_for(&h, 1, 1, &unseen).is_zero());
    }

    /// A hand of 2 players with 7 tiles each, a boneyard to draw from.
    fn spinner_rules(spinner: Spinner, order: Order, highest: usize) -> Arc<Rules<1>> {
        let mut t = table(highest, 2);
        set_spinner(&mut t, spinner, order, [2, 2, 2, 1, 0]);
        t.drawing = crate::kernel::table::Drawing::Until;
        t.max_draws = 99;
        Arc::new(Rules::<1>::new(t).unwrap())
    }

    #[test]
    fn points_of_a_spinner_double_are_those_playing_it_scores() {
        // points_if computes the count a new spinner leaves; playing the
        // move on a copy (what the Python reference does) must agree
        for spinner in [
            Spinner::None,
            Spinner::First,
            Spinner::Every,
            Spinner::Led,
            Spinner::Inline,
            Spinner::EveryButLed,
        ] {
            for order in [Order::Sides, Order::Any, Order::All4] {
                let r = spinner_rules(spinner, order, 9);
                for seed in 0..60u64 {
                    let mut rng = Rng::new(seed);
                    let mut h = shuffled_deal(&r, &mut rng, 7);
                    let mut legal = Vec::new();
                    while h.state == PLAYING {
                        h.legal_moves_into(&mut legal);
                        for &mv in legal.iter().filter(|&&m| m >= 0) {
                            let mut trial = h.clone();
                            trial.apply(mv, None);
                            assert_eq!(
                                h.points_if(mv),
                                trial.last_points,
                                "spinner {spinner:?} order {order:?} seed {seed} move {mv}"
                            );
                        }
                        let mv = legal[rng.below(legal.len() as u64) as usize];
                        h.apply(mv, None);
                    }
                }
            }
        }
    }

    /// `reply_in_place` against the trial it replaces: for every tile move of
    /// random playouts, on the mover's view and on the whole hand, under
    /// spinners of every kind and order, with and without drawing, blocking
    /// when stuck, a get-in threshold and a target a play can reach, the
    /// value worked out in place is the one played out on a copy (and the
    /// in-place path is taken often enough to mean something).
    #[test]
    fn a_reply_worked_out_in_place_is_the_one_played_out() {
        let mut taken = 0;
        for spinner in [Spinner::None, Spinner::First, Spinner::Every, Spinner::Inline] {
            for order in [Order::Sides, Order::Any, Order::All4] {
                for (stuck, draws, exact) in
                    [(false, 99, false), (true, 0, false), (false, 0, true)]
                {
                    let mut t = table(6, 2);
                    set_spinner(&mut t, spinner, order, [2, 2, 2, 1, 0]);
                    t.count_points = (0..=200).map(|c| t.points_for_count(c)).collect();
                    t.stuck_blocks = stuck;
                    t.max_draws = draws;
                    if draws != 0 {
                        t.drawing = crate::kernel::table::Drawing::Until;
                    }
                    t.get_in = 2;
                    t.target = 12;
                    t.check = if exact { Check::Exact } else { Check::Immediate };
                    let r = Arc::new(Rules::<1>::new(t).unwrap());
                    for seed in 0..30u64 {
                        let mut rng = Rng::new(seed);
                        let mut h = shuffled_deal(&r, &mut rng, 7);
                        let mut scratch = h.clone();
                        let mut candidates = Bits::<1>::ZERO;
                        let mut legal = Vec::new();
                        while h.state == PLAYING {
                            candidates.0[0] = rng.next_u64() & ((1 << r.size) - 1);
                            h.legal_moves_into(&mut legal);
                            for &mv in legal.iter().filter(|&&m| is_tile_move(m)) {
                                for public in [true, false] {
                                    let seat = public.then_some(h.turn);
                                    scratch.copy_for_play(&h, seat);
                                    scratch.apply(mv, None);
                                    let played = if scratch.state == PLAYING {
                                        reply_on(&scratch, h.turn, &candidates, 0.4)
                                    } else {
                                        0.0
                                    };
                                    if let Some(v) =
                                        reply_in_place(&h, mv, &candidates, 0.4, public)
                                    {
                                        assert_eq!(
                                            v, played,
                                            "{spinner:?} {order:?} seed {seed} {mv}"
                                        );
                                        taken += 1;
                                    }
                                }
                            }
                            let mv = legal[rng.index(legal.len())];
                            h.apply(mv, None);
                        }
                    }
                }
            }
        }
        assert!(taken > 5000, "the in-place path was taken {taken} times");
    }

    /// Four seats, no drawing, blocks by the lighter side; with `bonuses`,
    /// dominican's pass bonuses (25 on a double lead, 50 on another, 25 for
    /// a round of passes).
    fn passing_rules(bonuses: bool) -> Arc<Rules<1>> {
        let mut t = table(6, 4);
        t.ends_pay = true;
        if bonuses {
            t.opening_pass_double = 25;
            t.opening_pass_other = 50;
            t.round_pass = 25;
        }
        Arc::new(Rules::<1>::new(t).unwrap())
    }

    /// The lead of the 0-0's value with the pass bonuses less without them,
    /// seat 0 holding `mine` (tile ids), `out` out of play, the other seats
    /// the rest in order.
    fn lead_bonus(mine: &[usize], out: &[usize]) -> f64 {
        let value = |bonuses: bool| {
            let r = passing_rules(bonuses);
            let mut hands = vec![Bits::<1>::ZERO; 4];
            let mut out_of_play = Bits::<1>::ZERO;
            for &t in mine {
                hands[0].set(t);
            }
            for &t in out {
                out_of_play.set(t);
            }
            let rest: Vec<usize> =
                (0..r.size).filter(|&t| !hands[0].has(t) && !out_of_play.has(t)).collect();
            let size = rest.len().div_ceil(3);
            for (i, &t) in rest.iter().enumerate() {
                hands[1 + i / size].set(t);
            }
            let setup = HandSetup { out_of_play, ..HandSetup::new(hands, Vec::new(), 0) };
            let h = Hand::new(Arc::clone(&r), setup);
            let mut seen = h.hands[0];
            seen.or_assign(&h.out_of_play);
            let unseen = r.full.and_not(&seen);
            let counts: Vec<i64> = (0..4).map(|s| i64::from(h.hands[s].count())).collect();
            let judge = Judge::new(&h, &Hidden { unseen, counts: &counts, drawable: 0 });
            let lead = h.legal_moves().into_iter().find(|&m| tile_of(m) == 0).unwrap();
            let mut scratch = h.clone();
            judge.play(lead, &mut scratch, false).0
        };
        value(true) - value(false)
    }

    #[test]
    fn a_lead_nobody_else_can_follow_earns_both_pass_bonuses() {
        // seat 0 holds every 0 (ids 0..=6: 0-0 to 0-6): after the 0-0 lead
        // nobody else can play, the next player passes on the opening
        // double and every other player passes after it (basic.py's test)
        let zeros: Vec<usize> = (0..7).collect();
        assert_eq!(lead_bonus(&zeros, &[]), 50.0);
    }

    #[test]
    fn a_lead_that_locks_earns_no_pass_bonus() {
        // seat 0 holds the 0-0 and no other 0, the other 0s out of play: the
        // lead locks the hand at once, and nobody passes
        let r = passing_rules(true);
        let mine: Vec<usize> = [0usize, 7, 8, 9, 10, 11, 12].to_vec(); // 0-0, 1-1..1-6
        assert!(mine[1..].iter().all(|&t| r.low[t] == 1));
        assert_eq!(lead_bonus(&mine, &[1, 2, 3, 4, 5, 6]), 0.0);
    }

    #[test]
    fn a_reused_view_plays_like_a_public_copy() {
        let r = spinner_rules(Spinner::First, Order::Sides, 6);
        let mut scratch = dealt(&r, 99);
        for seed in 0..80u64 {
            let mut h = dealt(&r, seed);
            let mut rng = Rng::new(seed);
            let mut legal = Vec::new();
            while h.state == PLAYING {
                h.legal_moves_into(&mut legal);
                for &mv in legal.iter().filter(|&&m| m >= 0) {
                    let public = arm_of(mv).is_multiple_of(2); // both kinds of copy, on some moves each
                    let mut copy = if public { h.public_copy(h.turn) } else { h.clone() };
                    copy.apply(mv, None);
                    scratch.copy_for_play(&h, public.then_some(h.turn));
                    scratch.apply(mv, None);
                    assert_eq!(
                        (scratch.state, scratch.turn, scratch.count, scratch.last_points),
                        (copy.state, copy.turn, copy.count, copy.last_points)
                    );
                    assert_eq!(&scratch.scores, &copy.scores);
                    assert_eq!(scratch.n_arms, copy.n_arms);
                    assert_eq!(scratch.arm_open[..copy.n_arms], copy.arm_open[..copy.n_arms]);
                    assert_eq!(scratch.open_mask, copy.open_mask);
                    if scratch.state == PLAYING {
                        let (a, b) = (scratch.legal_moves(), copy.legal_moves());
                        assert_eq!(a, b);
                        for mv in a {
                            assert_eq!(scratch.points_if(mv), copy.points_if(mv));
                        }
                    }
                }
                let mv = legal[rng.below(legal.len() as u64) as usize];
                h.apply(mv, None);
            }
        }
    }
}
