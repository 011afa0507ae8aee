//! A match: hands dealt from one seed until the variant's end, the same
//! deals, leads, redeals and match ends as `bones.engine.match.Match`.
//!
//! Hand `h` (from 1) of a match seeded `S` is dealt from the stream
//! `derive(S, [DEALS, h])` (docs/random.md): the shuffle, a lead by lot or at
//! random, fallbacks by lot and every redeal draw from it, in that order. A
//! match with `leads_apart` (the games of one deal in a duplicate
//! simulation) draws its leads by lot or at random from `derive(S, [LEADS,
//! h])` instead, so hand `h`'s shuffles are the same whoever leads it.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use std::sync::Arc;

use crate::kernel::bits::Bits;
use crate::kernel::codes::{IfNone, Later, LeadKind};
use crate::kernel::convert::{byte, int_or_none, wide};
use crate::kernel::hand::{Hand, HandSetup};
use crate::kernel::moves::DOMINO;
use crate::kernel::rng::{derive, Rng};
use crate::kernel::table::{MatchRules, Rules, MAX_PLAYERS, MAX_TILES};

/// Stream labels of docs/random.md.
pub const DEALS: u64 = 1;
pub const BOTS: u64 = 2;
pub const LEADS: u64 = 4;

/// The streams one hand is dealt from: the shuffle's, and the one a lead by
/// lot or at random draws from (the shuffle's own unless the leads are apart).
struct DealStreams {
    deal: Rng,
    leads: Option<Rng>,
}

impl DealStreams {
    fn lead(&mut self) -> &mut Rng {
        self.leads.as_mut().unwrap_or(&mut self.deal)
    }
}

/// `match.MAX_HANDS`: a match not over after this many hands is a draw.
pub const MAX_HANDS: usize = 500;
/// `match._MAX_REDEALS`.
pub const MAX_REDEALS: usize = 200;

/// The tile ids in order, `0..MAX_TILES` as bytes: a deal's unshuffled set
/// copied from it at once (filling it a tile at a time through an iterator
/// was a fifth of the shuffle's instructions, issue 37).
const IDS: [u8; MAX_TILES] = {
    let mut ids = [0u8; MAX_TILES];
    let mut i = 0;
    while i < MAX_TILES {
        ids[i] = byte(i);
        i += 1;
    }
    ids
};

/// `rules.LeadRule`: `[kind, arg, if_none]` in the flat table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeadRule {
    pub kind: LeadKind,
    /// the tile id of a tile lead, the seat of a seat lead (the table's
    /// -1, none, decodes to `None`)
    pub arg: Option<usize>,
    /// what a double or tile lead does when nobody holds one (-1: `None`)
    pub if_none: Option<IfNone>,
}

impl Default for LeadRule {
    /// A lead by lot.
    fn default() -> Self {
        LeadRule { kind: LeadKind::Lot, arg: None, if_none: None }
    }
}

impl LeadRule {
    /// The codes of a lead rule in the flat table, in order.
    pub const FIELDS: [&'static str; 3] = ["kind", "arg", "if_none"];

    pub fn from_codes(c: &[i64]) -> Result<LeadRule, String> {
        if c.len() != Self::FIELDS.len() {
            return Err(format!("a lead rule has 3 codes, not {}", c.len()));
        }
        let if_none = if c[2] == -1 { None } else { Some(IfNone::try_from(c[2])?) };
        let arg = match c[1] {
            -1 => None,
            a => Some(usize::try_from(a).map_err(|_| format!("a lead rule's argument is {a}"))?),
        };
        Ok(LeadRule { kind: LeadKind::try_from(c[0])?, arg, if_none })
    }
}

impl MatchRules {
    /// Checks what dealing relies on against the tile set and the table.
    pub fn check<const W: usize>(&self, r: &Rules<W>) -> Result<(), String> {
        for rule in [self.lead_first, self.lead_again] {
            let arg = int_or_none(rule.arg);
            if rule.kind == LeadKind::Tile && rule.arg.is_none_or(|tile| tile >= r.size) {
                return Err(format!("lead tile {arg} is not in the set"));
            }
            if rule.kind == LeadKind::Seat && rule.arg.is_none_or(|seat| seat >= r.t.players) {
                return Err(format!("lead seat {arg} is not at the table"));
            }
        }
        if self.lead_tiles.iter().any(|&tile| usize::try_from(tile).is_err()) {
            return Err("a lead tile of the list is not in the set".into());
        }
        if self.lead_tiles.iter().any(|&tile| usize::try_from(tile).is_ok_and(|t| t >= r.size)) {
            return Err("a lead tile of the list is not in the set".into());
        }
        Ok(())
    }
}

/// What a later lead reads of the hand before (`match.HandSummary`).
#[derive(Clone, Debug, Default)]
pub struct LastHand {
    pub end: u8,
    pub domino_seat: Option<usize>,
    pub last_player: Option<usize>,
    pub leader: usize,
    /// the owner who won the hand, if one did, and the seat whose hand won
    pub winner: Option<usize>,
    pub won_seat: Option<usize>,
}

enum Rule {
    Lead(LeadRule),
    Seat(usize),
}

/// A match in progress: the scores carried between hands and how it ends.
pub struct Match<const W: usize> {
    pub rules: Arc<Rules<W>>,
    pub m: MatchRules,
    pub seed: u64,
    pub scores: Vec<i64>,
    pub hands_played: usize,
    pub last: Option<LastHand>,
    pub game_over: bool,
    pub winner: i64,
    /// points tied hands left on the table (`ties: carry`) for the winner of
    /// the next hand that has one
    pub pot: i64,
    /// the sides in, carried from hand to hand under `get_in_scope: match`
    pub got_in: Option<Vec<bool>>,
    /// hands that had a winner (the hand number under `tied_hands: skip`)
    pub hands_won: usize,
    /// games won by each side where the match is several games (`match.games`)
    pub games: Vec<i64>,
    /// leads by lot or at random draw from their own stream (`LEADS`)
    pub leads_apart: bool,
    /// the seats' masks of the last deal `renew_hand` made, for the next
    masks: Vec<Bits<W>>,
}

/// Vectors a deal may fill instead of allocating its own (empty: none).
struct Spare<const W: usize> {
    masks: Vec<Bits<W>>,
    tiles: Vec<u8>,
}

impl<const W: usize> Default for Spare<W> {
    fn default() -> Self {
        Spare { masks: Vec::new(), tiles: Vec::new() }
    }
}

impl<const W: usize> Match<W> {
    pub fn new(rules: Arc<Rules<W>>, m: MatchRules, seed: u64) -> Self {
        let owners = rules.t.owners;
        Match {
            rules,
            m,
            seed,
            scores: vec![0; owners],
            hands_played: 0,
            last: None,
            game_over: false,
            winner: -1,
            pot: 0,
            got_in: None,
            hands_won: 0,
            games: vec![0; owners],
            leads_apart: false,
            masks: Vec::new(),
        }
    }

    /// The match `Match::new` makes with `seed` and the same rules, made
    /// of this one (its buffers reused: a simulation plays a match a game).
    pub fn restart(&mut self, seed: u64) {
        // every field named, so a field added to `Match` must be handled here
        let Match {
            rules: _,
            m: _,
            seed: own_seed,
            scores,
            hands_played,
            last,
            game_over,
            winner,
            pot,
            got_in,
            hands_won,
            games,
            leads_apart: _,
            masks: _,
        } = self;
        *own_seed = seed;
        scores.iter_mut().for_each(|s| *s = 0);
        *hands_played = 0;
        *last = None;
        *game_over = false;
        *winner = -1;
        *pot = 0;
        *got_in = None;
        *hands_won = 0;
        games.iter_mut().for_each(|g| *g = 0);
    }

    /// `Match.hand_number`: the next hand's number for bonuses by hand
    /// number: every hand of the match, or only those with a winner.
    pub fn hand_number(&self) -> usize {
        1 + if self.m.hand_bonus_skip_tied { self.hands_won } else { self.hands_played }
    }

    /// `Match.new_hand`: the next deal, as a hand carrying the match's scores.
    pub fn new_hand(&self, record: bool) -> Result<Hand<W>, String> {
        let deal = self.next_deal()?;
        let got_in = if self.rules.t.get_in_match { self.got_in.clone() } else { None };
        let setup = HandSetup {
            scores: Some(self.scores.clone()),
            record,
            pot: self.pot,
            got_in,
            number: self.hand_number(),
            ..deal
        };
        Ok(Hand::new(Arc::clone(&self.rules), setup))
    }

    /// `new_hand` made in `hand` (any hand of these rules, `Hand::renew`):
    /// the same hand, dealt into the buffers of the last (its boneyard's
    /// vector reshuffled, the seats' masks of its deal refilled).
    pub fn renew_hand(&mut self, hand: &mut Hand<W>, record: bool) -> Result<(), String> {
        let mut spare = Spare {
            masks: std::mem::take(&mut self.masks),
            tiles: std::mem::take(&mut hand.boneyard),
        };
        let deal = self.next_deal_in(&mut spare)?;
        let got_in = if self.rules.t.get_in_match { self.got_in.clone() } else { None };
        let setup = HandSetup {
            scores: None,
            record,
            pot: self.pot,
            got_in,
            number: self.hand_number(),
            ..deal
        };
        self.masks = hand.renew(setup);
        // the match's scores, where `new_hand` gives the hand a copy of them
        hand.scores.copy_from_slice(&self.scores);
        Ok(())
    }

    /// `Match.next_deal` (`match.Deal`): the next hand's tiles and lead.
    pub fn next_deal(&self) -> Result<HandSetup<W>, String> {
        self.next_deal_in(&mut Spare::default())
    }

    /// `next_deal`, its first shuffle into the buffers of `spare`.
    fn next_deal_in(&self, spare: &mut Spare<W>) -> Result<HandSetup<W>, String> {
        let rule = match &self.last {
            None => Rule::Lead(self.m.lead_first),
            Some(last) => self.later_rule(last),
        };
        let number = wide(self.hands_played + 1);
        let mut streams = DealStreams {
            deal: Rng::new(derive(self.seed, &[DEALS, number])),
            leads: self.leads_apart.then(|| Rng::new(derive(self.seed, &[LEADS, number]))),
        };
        for _ in 0..MAX_REDEALS {
            if let Some(d) = self.deal_with(&rule, &mut streams, spare) {
                return Ok(d);
            }
        }
        Err(format!("no lead found after {MAX_REDEALS} deals (none had a lead, or deal.redeal refused them)"))
    }

    /// `Match._shuffle_deal`: seat masks and the boneyard.
    pub(crate) fn shuffle_deal(&self, rng: &mut Rng) -> (Vec<Bits<W>>, Vec<u8>) {
        self.shuffle_deal_in(rng, &mut Spare::default())
    }

    /// `shuffle_deal` into the vectors of `spare` (left empty).
    fn shuffle_deal_in(&self, rng: &mut Rng, spare: &mut Spare<W>) -> (Vec<Bits<W>>, Vec<u8>) {
        let r = &*self.rules;
        let t = &r.t;
        let (n, size, players) = (r.size, t.hand_size, t.players);
        let mut tiles = std::mem::take(&mut spare.tiles);
        tiles.clear();
        tiles.extend_from_slice(&IDS[..n]);
        if self.m.boneyard_unread {
            rng.shuffle_tail(&mut tiles, players * size);
        } else {
            rng.shuffle(&mut tiles);
        }
        let mut masks = std::mem::take(&mut spare.masks);
        masks.clear();
        masks.resize(players, Bits::<W>::ZERO);
        let mut top = n;
        for mask in masks.iter_mut() {
            for &x in &tiles[top - size..top] {
                mask.set(usize::from(x));
            }
            top -= size;
        }
        // the boneyard is what the shuffle leaves, its last tile drawn first
        tiles.truncate(top);
        tiles.reverse();
        (masks, tiles)
    }

    fn deal_with(
        &self,
        rule: &Rule,
        rng: &mut DealStreams,
        spare: &mut Spare<W>,
    ) -> Option<HandSetup<W>> {
        let r = &*self.rules;
        let players = r.t.players;
        let mut by_tile = None;
        let mut lightest = false;
        let mut leader = match rule {
            Rule::Seat(s) => *s,
            Rule::Lead(lr) => match lr.kind {
                LeadKind::Lot => self.lot(players, rng.lead()),
                LeadKind::Random => rng.lead().index(players),
                // a seat of the table: `MatchRules::check` saw to it
                LeadKind::Seat => lr.arg?,
                LeadKind::HighestDouble
                | LeadKind::LowestDouble
                | LeadKind::Tile
                | LeadKind::Tiles => {
                    by_tile = Some(lr);
                    0 // the holder of the tile, found once the tiles are dealt
                }
                // the locker is a seat the later-lead rule names (never dealt by rule)
                LeadKind::Locker => self.lot(players, rng.lead()),
                LeadKind::LightestTile => {
                    lightest = true;
                    0 // the holder of the lightest tile, found once dealt
                }
            },
        };
        let (mut hands, mut boneyard) = self.shuffle_deal_in(&mut rng.deal, spare);
        if self.refused(&hands) {
            return None;
        }
        let mut lead_tile = None;
        if lightest {
            let (seat, tile) = self.extreme_tile(&hands, true)?;
            leader = seat;
            lead_tile = tile;
        }
        if let Some(lr) = by_tile {
            let (seat, tile) = self.lead_by_tile(lr, &mut hands, &mut boneyard, rng)?;
            leader = seat;
            lead_tile = tile;
        }
        let mut doubles_only = false;
        if lead_tile.is_none() && self.m.lead_doubles_only {
            if self.m.lead_draws_double {
                // the leader draws until a double comes, and leads it
                while !hands[leader].intersects(&r.doubles) {
                    if boneyard.len() <= r.t.reserve {
                        return None;
                    }
                    let tile = usize::from(boneyard.remove(0));
                    hands[leader].set(tile);
                    if r.is_double[tile] {
                        lead_tile = Some(tile);
                    }
                }
            } else {
                // the first seat from the leader on that holds a double, else a redeal
                leader = (0..players)
                    .map(|step| (leader + step) % players)
                    .find(|&seat| hands[seat].intersects(&r.doubles))?;
            }
            doubles_only = lead_tile.is_none();
        }
        Some(HandSetup {
            lead_tile,
            lead_doubles_only: doubles_only,
            ..HandSetup::new(hands, boneyard, leader)
        })
    }

    /// `leads.refused`: whether a hand holds `redeal_doubles` doubles or
    /// `redeal_suit` tiles bearing one number (a double counted once).
    fn refused(&self, hands: &[Bits<W>]) -> bool {
        let r = &*self.rules;
        let (doubles, suit) = (self.m.redeal_doubles, self.m.redeal_suit);
        if doubles == 0 && suit == 0 {
            return false;
        }
        let reaches = |n: u32, at_least: i64| at_least > 0 && i64::from(n) >= at_least;
        hands.iter().any(|h| {
            reaches(h.and(&r.doubles).count(), doubles)
                || (0..=r.t.highest).any(|pip| reaches(h.and(&r.matching[pip]).count(), suit))
        })
    }

    /// `Match._lot`: each contender draws a tile of the whole set (the first
    /// k steps of a shuffle from the front); the heaviest leads.
    fn lot(&self, players: usize, rng: &mut Rng) -> usize {
        let r = &*self.rules;
        let size = r.size;
        // on the stack: seats and tile ids are small
        let mut contenders = [0usize; MAX_PLAYERS];
        for (s, c) in contenders[..players].iter_mut().enumerate() {
            *c = s;
        }
        let mut k = players;
        while k > 1 {
            // the whole set's ids: one copy (a zeroed pool then filled was
            // a call to memset a deal, issue 37)
            let mut pool = IDS;
            for i in 0..k {
                let j = i + rng.index(size - i);
                pool.swap(i, j);
            }
            let best = pool[..k].iter().map(|&x| r.pips[usize::from(x)]).max().unwrap();
            let mut kept = 0;
            for i in 0..k {
                if r.pips[usize::from(pool[i])] == best {
                    contenders[kept] = contenders[i];
                    kept += 1;
                }
            }
            k = kept;
        }
        contenders[0]
    }

    fn holder(hands: &[Bits<W>], tile: usize) -> Option<usize> {
        hands.iter().position(|h| h.has(tile))
    }

    fn lead_by_tile(
        &self,
        rule: &LeadRule,
        hands: &mut [Bits<W>],
        boneyard: &mut Vec<u8>,
        rng: &mut DealStreams,
    ) -> Option<(usize, Option<usize>)> {
        let r = &*self.rules;
        let t = &r.t;
        let n = t.highest;
        let mut fallback = rule.if_none;
        let ascending;
        if rule.kind == LeadKind::Tiles {
            // the first tile of the list that was dealt (`MatchRules::check` saw them)
            for tile in self.m.lead_tiles.iter().filter_map(|&t| usize::try_from(t).ok()) {
                if let Some(seat) = Self::holder(hands, tile) {
                    return Some((seat, Some(tile)));
                }
            }
            if fallback != Some(IfNone::HighestDouble) {
                return self.no_double(fallback, hands, rng);
            }
            ascending = false;
            fallback = Some(IfNone::HeaviestTile);
        } else if rule.kind == LeadKind::Tile {
            // a tile of the set: `MatchRules::check` saw to it
            let tile = rule.arg?;
            if let Some(seat) = Self::holder(hands, tile) {
                return Some((seat, Some(tile)));
            }
            if fallback != Some(IfNone::HighestDouble) {
                return self.no_double(fallback, hands, rng);
            }
            ascending = false;
            fallback = Some(IfNone::HeaviestTile);
        } else {
            ascending = rule.kind == LeadKind::LowestDouble;
        }
        loop {
            for i in 0..=n {
                let d = if ascending { i } else { n - i };
                let tile = r.double(d);
                if let Some(seat) = Self::holder(hands, tile) {
                    return Some((seat, Some(tile)));
                }
            }
            if fallback != Some(IfNone::DrawMore) {
                return self.no_double(fallback, hands, rng);
            }
            // everyone draws one more tile, in turn, until a double appears
            if boneyard.len() < t.reserve + t.players {
                return None; // fewer drawable tiles than players
            }
            let drawn: Vec<u8> = boneyard.drain(..t.players).collect();
            for (seat, &x) in drawn.iter().enumerate() {
                hands[seat].set(usize::from(x));
            }
        }
    }

    fn no_double(
        &self,
        fallback: Option<IfNone>,
        hands: &[Bits<W>],
        rng: &mut DealStreams,
    ) -> Option<(usize, Option<usize>)> {
        let r = &*self.rules;
        if fallback == Some(IfNone::Redeal) {
            return None;
        }
        if fallback == Some(IfNone::HeaviestHand) {
            let mut best = 0;
            let mut best_w = i64::MIN;
            for (s, h) in hands.iter().enumerate() {
                let w = r.pips_of(h);
                if w > best_w {
                    best_w = w;
                    best = s;
                }
            }
            return Some((best, None));
        }
        if fallback == Some(IfNone::Lot) {
            return Some((self.lot(r.t.players, rng.lead()), None));
        }
        // heaviest_tile (and a rule without a fallback), or lightest_tile
        self.extreme_tile(hands, fallback == Some(IfNone::LightestTile))
    }

    /// (holder, tile) of the heaviest dealt tile (most pips, then the higher
    /// top half) or of the lightest (fewest pips, then the lower top half:
    /// [1-2] is lighter than [0-3]).
    fn extreme_tile(&self, hands: &[Bits<W>], lightest: bool) -> Option<(usize, Option<usize>)> {
        let r = &*self.rules;
        let mut best: Option<(usize, (i64, u8))> = None;
        for h in hands {
            for x in h.ones() {
                let key = (r.pips[x], r.high[x]);
                let better = match best {
                    None => true,
                    Some((_, k)) => {
                        if lightest {
                            key < k
                        } else {
                            key > k
                        }
                    }
                };
                if better {
                    best = Some((x, key));
                }
            }
        }
        let (tile, _) = best?;
        Some((Self::holder(hands, tile)?, Some(tile)))
    }

    fn later_rule(&self, last: &LastHand) -> Rule {
        let t = &self.rules.t;
        let players = t.players;
        // the seat that went out, if the hand ended so
        let dominoer = if last.end == DOMINO { last.domino_seat } else { None };
        match self.m.lead_later {
            Later::Dominoer => match dominoer {
                Some(s) => Rule::Seat(s),
                // after a block, the locker where the rule names him
                None => match (self.m.lead_again.kind, last.last_player) {
                    (LeadKind::Locker, Some(locker)) => Rule::Seat(locker),
                    _ => Rule::Lead(self.m.lead_again),
                },
            },
            Later::Winner => {
                if let Some(s) = dominoer {
                    return Rule::Seat(s);
                }
                match last.won_seat {
                    Some(s) => Rule::Seat(s),
                    None => Rule::Lead(self.m.lead_again),
                }
            }
            Later::RotateNext | Later::Alternate => Rule::Seat((last.leader + 1) % players),
            Later::RotatePrevious => Rule::Seat((last.leader + players - 1) % players),
            Later::Series => {
                if let Some(s) = dominoer {
                    return Rule::Seat(s);
                }
                // a hand always has a move, so the blocker is a seat
                let blocker = last.last_player.unwrap_or(players - 1);
                if last.winner == Some(t.owner[blocker]) {
                    Rule::Seat(blocker)
                } else if last.winner.is_none() {
                    Rule::Seat(last.leader)
                } else {
                    Rule::Seat((blocker + 1) % players)
                }
            }
            Later::First => Rule::Lead(self.m.lead_first),
        }
    }

    /// `Match.finish_hand`: record a finished hand (its scores become the
    /// match's) and decide whether the match is over.
    pub fn finish_hand(&mut self, hand: &Hand<W>) {
        let t = &self.rules.t;
        let winner = if hand.settlement.is_some() { hand.won_by } else { hand.winner };
        self.last = Some(LastHand {
            end: hand.state,
            domino_seat: hand.domino_seat,
            last_player: hand.last_player,
            leader: hand.leader,
            winner,
            won_seat: hand.won_seat,
        });
        if winner.is_some() {
            self.hands_won += 1;
        }
        self.scores.clone_from(&hand.scores);
        self.pot = hand.pot;
        if t.get_in_match {
            self.got_in = Some(hand.got_in.clone());
        }
        self.hands_played += 1;
        let hands_in_match = usize::try_from(t.hands_in_match).unwrap_or(0);
        if let (true, true, Some(w)) = (hand.game_over, self.m.games > 1, hand.winner) {
            // one game of several won: the side counts it, and every score
            // starts again from 0 (the pot with them)
            self.games[w] += 1;
            if self.games[w] >= self.m.games {
                self.game_over = true;
                self.winner = int_or_none(hand.winner);
            } else {
                self.scores.iter_mut().for_each(|s| *s = 0);
                self.pot = 0;
            }
        } else if hand.game_over {
            self.game_over = true;
            self.winner = int_or_none(hand.winner);
        } else if hands_in_match > 0 && self.hands_played >= hands_in_match {
            self.game_over = true;
            self.winner = unique_top(&self.scores);
        } else if self.hands_played >= MAX_HANDS {
            self.game_over = true;
            self.winner = -1;
        }
    }
}

/// The one owner with the top value, if one has it alone.
pub fn unique(values: &[i64]) -> Option<usize> {
    let top = *values.iter().max().unwrap_or(&0);
    // no list of the leaders: this runs once a simulated game
    let mut leaders = (0..values.len()).filter(|&o| values[o] == top);
    match (leaders.next(), leaders.next()) {
        (Some(o), None) => Some(o),
        _ => None,
    }
}

/// [`unique`] as a match's winner holds it: -1 for none.
pub fn unique_top(values: &[i64]) -> i64 {
    int_or_none(unique(values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::settle::hand_winner;
    use crate::kernel::table::tests::table;

    fn mrules(first: LeadRule) -> MatchRules {
        MatchRules {
            lead_first: first,
            lead_later: Later::Dominoer,
            lead_again: LeadRule { kind: LeadKind::Lot, arg: None, if_none: None },
            lead_doubles_only: false,
            boneyard_unread: false,
            games: 1,
            ..MatchRules::default()
        }
    }

    #[test]
    fn a_deal_uses_every_tile_once_and_is_reproducible() {
        let r = Arc::new(Rules::<1>::new(table(6, 3)).unwrap());
        let m = Match::new(
            Arc::clone(&r),
            mrules(LeadRule { kind: LeadKind::Lot, arg: None, if_none: None }),
            9,
        );
        let a = m.next_deal().unwrap();
        let b = m.next_deal().unwrap();
        assert_eq!(a.boneyard, b.boneyard);
        assert_eq!(a.leader, b.leader);
        let mut all = Bits::<1>::ZERO;
        for h in &a.hands {
            assert_eq!(h.count(), 7);
            assert!(!all.intersects(h));
            all.or_assign(h);
        }
        for &x in &a.boneyard {
            assert!(!all.has(usize::from(x)));
            all.set(usize::from(x));
        }
        assert_eq!(all.count(), 28);
    }

    /// A whole match of random playouts: each hand's scores, then the
    /// match's end.
    fn played(mt: &mut Match<1>) -> (Vec<Vec<i64>>, i64, usize) {
        let mut rng = Rng::new(mt.seed);
        let mut scores = Vec::new();
        while !mt.game_over {
            let mut hand = mt.new_hand(false).unwrap();
            assert!(hand.playout(false, &mut rng, 500));
            mt.finish_hand(&hand);
            scores.push(mt.scores.clone());
        }
        (scores, mt.winner, mt.hands_played)
    }

    #[test]
    fn a_restarted_match_plays_as_a_new_one() {
        let r = Arc::new(Rules::<1>::new(crate::kernel::table::tests::scored_table(6, 2)).unwrap());
        let m = mrules(LeadRule::default());
        let mut kept = Match::new(Arc::clone(&r), m.clone(), 1);
        for seed in 1..30u64 {
            kept.restart(seed);
            let mut fresh = Match::new(Arc::clone(&r), m.clone(), seed);
            let (a, b) = (played(&mut kept), played(&mut fresh));
            assert!(a.0.len() > 1, "a match of several hands");
            assert_eq!(a, b);
        }
    }

    /// What a hand holds as it is dealt, and what its playout left: the
    /// match's scores after each hand.
    type Dealt = (Vec<Bits<1>>, Vec<u8>, usize, Option<usize>, bool, Vec<i64>, Vec<bool>, usize);

    fn dealt(h: &Hand<1>) -> Dealt {
        let t = &h.rules.t;
        (
            h.hands[..t.players].to_vec(),
            h.boneyard.clone(),
            h.leader,
            h.lead_tile,
            h.lead_doubles_only,
            h.scores.clone(),
            h.got_in.clone(),
            h.number,
        )
    }

    /// `played`, each hand dealt as `new_hand` deals it (`renew`: into the
    /// last hand, played out) with what it held as it was dealt.
    fn played_into(mt: &mut Match<1>, renew: bool) -> (Vec<(Dealt, Vec<i64>)>, i64) {
        let mut rng = Rng::new(mt.seed);
        let mut out = Vec::new();
        let mut slot: Option<Hand<1>> = None;
        while !mt.game_over {
            let hand = match &mut slot {
                Some(hand) if renew => {
                    mt.renew_hand(hand, false).unwrap();
                    hand
                }
                _ => slot.insert(mt.new_hand(false).unwrap()),
            };
            let deal = dealt(hand);
            assert!(hand.playout(false, &mut rng, 500));
            mt.finish_hand(hand);
            out.push((deal, mt.scores.clone()));
        }
        (out, mt.winner)
    }

    #[test]
    fn a_renewed_hand_plays_as_a_new_one() {
        // a scoring table with spinners; a lead by the highest double that
        // draws from the boneyard when nobody holds one; a doubles-only lead
        // drawn for: each deal's vectors used again from a played-out hand
        let scored = crate::kernel::table::tests::scored_table(6, 2);
        let mut small = table(6, 2);
        small.hand_size = 2;
        let by_double =
            LeadRule { kind: LeadKind::HighestDouble, arg: None, if_none: Some(IfNone::DrawMore) };
        let mut drawn = mrules(LeadRule::default());
        drawn.lead_doubles_only = true;
        drawn.lead_draws_double = true;
        let cases = [
            (scored.clone(), mrules(LeadRule::default())),
            (small.clone(), mrules(by_double)),
            (scored, drawn),
        ];
        for (t, m) in cases {
            let r = Arc::new(Rules::<1>::new(t).unwrap());
            for seed in 0..30u64 {
                let mut a = Match::new(Arc::clone(&r), m.clone(), seed);
                let mut b = Match::new(Arc::clone(&r), m.clone(), seed);
                let (renewed, fresh) = (played_into(&mut a, true), played_into(&mut b, false));
                assert!(!renewed.0.is_empty());
                assert_eq!(renewed, fresh, "seed {seed}");
            }
        }
    }

    #[test]
    fn the_highest_double_leads_and_draw_more_fills_hands() {
        let mut t = table(6, 2);
        t.hand_size = 2;
        let r = Arc::new(Rules::<1>::new(t).unwrap());
        let first =
            LeadRule { kind: LeadKind::HighestDouble, arg: None, if_none: Some(IfNone::DrawMore) };
        for seed in 0..50 {
            let m = Match::new(Arc::clone(&r), mrules(first), seed);
            let d = m.next_deal().unwrap();
            let tile = d.lead_tile.unwrap();
            assert!(r.is_double[tile] && d.hands[d.leader].has(tile));
            // no higher double is held by anyone
            for h in &d.hands {
                for x in h.ones() {
                    assert!(!r.is_double[x] || r.low[x] <= r.low[tile]);
                }
            }
            // tiles drawn for the lead come off the boneyard in pairs
            let held: usize = d.hands.iter().map(|h| h.len()).sum();
            assert_eq!(held + d.boneyard.len(), 28);
            assert_eq!(held % 2, 0);
        }
    }

    #[test]
    fn hand_winner_and_unique_top() {
        assert_eq!(hand_winner(&[3, 0], None), Some(0));
        assert_eq!(hand_winner(&[0, 0], None), None);
        assert_eq!(hand_winner(&[2, 2, 0], None), None);
        assert_eq!(hand_winner(&[0, 5], Some(0)), Some(0));
        assert_eq!(unique(&[4, 9, 9]), None);
        assert_eq!(unique_top(&[4, 9, 9]), -1);
        assert_eq!(unique_top(&[4, 9, 1]), 1);
    }
}
