//! Many tables of one variant stepped together (`bones.adapters.vector`):
//! the learner's seat (or every seat, in self-play) takes actions, numbered
//! as `bones.seat.actions.ActionSpace` numbers them, and the other seats are
//! played by the native bots. Each table writes its observation (exactly
//! `bones.seat.encoding.Encoding.values`), legal-action mask, reward and
//! ending into rows of caller-owned buffers: no allocation per step.
//!
//! Seeding (the same as `bones.adapters.gymnasium` with the same seed):
//! episode `k` of a table seeded `S` is the match seeded
//! `derive(S, [EPISODES, k])`; the bots of that table draw from one stream
//! `derive(S, [BOTS])` and a random seat from `derive(S, [SEATS])`.

use std::sync::Arc;

use crate::bots::blunder::{Base, Blunder};
use crate::bots::heuristic::{heuristic_decide, Void, Voids};
use crate::bots::ismcts;
use crate::bots::rollouts::Policy;
use crate::bots::search::{search, Budget};
use crate::bots::trains::{tree as train_tree, worlds as train_worlds, TrainView};
use crate::bots::world::View;
use crate::kernel::bits::Bits;
use crate::kernel::codes::AfterDouble;
use crate::kernel::codes::Check;
use crate::kernel::game::{unique_top, Match};
use crate::kernel::hand::Hand;
use crate::kernel::moves::{arm_of, is_tile_move, play_code, tile_of, DRAW, PASS, PLAYING};
use crate::kernel::rng::{derive, Rng};
use crate::kernel::table::MatchRules;
use crate::kernel::table::{Rules, MAX_PLAYERS};
use crate::kernel::trains::{
    greedy_move as train_greedy, heuristic_move as train_heuristic, TrainHand, TrainMatch,
    FOOT_ARM, HUB_ARM,
};

/// The most tiles a train layout's set has before `search`'s tree shrinks
/// its iterations in proportion (`bones.bots.search.TRAIN_TILES`).
pub const TRAIN_TILES: usize = 55;

/// Stream labels under a table's seed (`bones.adapters.common`).
pub const EPISODES: u64 = 1;
pub const BOTS: u64 = 2;
pub const SEATS: u64 = 3;

/// Who plays a seat the learner does not.
#[derive(Clone, Copy, Debug)]
pub enum Opponent {
    Random,
    Greedy,
    Heuristic,
    /// `blunder`: its base's move, or with its chance a random one, drawn
    /// from the tables' bot generator as `random` draws
    Blunder(Blunder),
    /// `search`: `tree` > 0 grows an information-set tree of `tree` ×
    /// `iterations` iterations where the worlds cannot be solved
    Search {
        iterations: usize,
        rollouts: usize,
        policy: Policy,
        solve: usize,
        infer: f64,
        tree: usize,
    },
}

/// Which seat learns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatMode {
    Fixed(usize),
    /// a seat drawn for every episode
    Random,
    /// every seat: the seat to move is the one observed
    SelfPlay,
}

/// What a reward is (`bones.adapters.common.REWARDS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// a hand's points, zero-sum (the mean of the other sides subtracted)
    Points,
    /// `Points` divided by `Config::scale`
    Scaled,
    /// 1 for the winning side, -1/(sides-1) for the others, 0 on a tie
    Win,
    /// the side's gain less the best other side's
    Difference,
}

/// Everything fixed for a vector of tables.
#[derive(Clone, Debug)]
pub struct Config {
    pub seat: SeatMode,
    /// per seat (the learner's entries are ignored)
    pub opponents: Vec<Opponent>,
    /// an episode is a whole match (else one hand)
    pub whole_match: bool,
    pub reward: Reward,
    pub scale: f64,
    pub illegal_reward: f64,
    /// the encoding's scaling: count / count_cap (clipped), scores /
    /// score_scale (clipped to +-score_clip); 0 for raw values
    pub count_cap: f64,
    pub score_scale: f64,
    pub score_clip: f64,
    /// keep every hand's moves, to draw a table (`render`)
    pub record: bool,
    /// append the scoring view (`bones.adapters.scoring.ScoringView`): per
    /// action the points it scores now and the count after it
    pub scoring: bool,
}

impl Config {
    /// Whether a hand must keep its log: a table is drawn from its moves, and
    /// a searching opponent weighs its worlds by the other seats' plays
    /// (`infer`), as the scalar bot does
    pub fn needs_log(&self) -> bool {
        self.record
            || self
                .opponents
                .iter()
                .any(|o| matches!(o, Opponent::Search { infer, .. } if *infer > 0.0))
    }
}

/// A slot a layout does not have.
pub const NO_SLOT: usize = usize::MAX;

/// Where the encoding's blocks start (`Encoding.blocks`).
#[derive(Clone, Debug)]
pub struct ObsLayout {
    pub t: usize,
    pub p: usize,
    /// the action space's slots per tile (a line's arms; a train layout's
    /// targets: its arms, then the hub and the foot where it has them)
    pub arms: usize,
    /// the encoding's arms (`arm_open`): a line's arms, a train layout's
    /// arms without the hub and the foot
    pub enc_arms: usize,
    pub s: usize,
    pub o: usize,
    /// 1 when the variant has an extra play after a double (the `extra` block)
    pub extra: usize,
    /// `s` in a train layout (the `markers` block), else 0
    pub markers: usize,
    /// a train layout's slots of a tile laid against the hub and the foot
    /// (`NO_SLOT` where it has none)
    pub hub_slot: usize,
    pub foot_slot: usize,
    /// the encoding's size: where the scoring view starts, when there is one
    pub base: usize,
    /// the observation's size (`base`, and `2 * num_actions` with the view)
    pub size: usize,
    pub num_actions: usize,
    pub draw_index: i64,
    pub pass_index: usize,
}

impl ObsLayout {
    /// The layout of `r`'s observations; `scoring`: with the scoring view.
    pub fn new<const W: usize>(r: &Rules<W>, scoring: bool) -> ObsLayout {
        let t = r.size;
        let p = r.t.highest + 1;
        let (s, o) = (r.t.players, r.t.owners);
        // a train layout numbers its targets (`ActionSpace.targets`): its
        // arms, then the hub and the foot where the rules have them
        let (enc_arms, arms, hub_slot, foot_slot, markers) = match &r.t.trains {
            None => (r.t.max_arms, r.t.max_arms, NO_SLOT, NO_SLOT, 0),
            Some(tr) => {
                let grown = tr.most_arms(s, r.t.highest);
                let hub = if tr.hub_tiles > 0 { grown } else { NO_SLOT };
                let foot_at = grown + usize::from(tr.hub_tiles > 0);
                let foot = if tr.toes && tr.cover != 0 { foot_at } else { NO_SLOT };
                (grown, foot_at + usize::from(foot != NO_SLOT), hub, foot, s)
            }
        };
        let extra = usize::from(r.t.after_double != AfterDouble::None);
        let base = 3 * t + enc_arms * p + p + 2 + 3 * s + 3 + 2 * o + (s - 1) * t + markers + extra;
        let plays = t * arms;
        let draws = r.t.max_draws > 0;
        let draw_index = if draws { plays as i64 } else { -1 };
        let pass_index = if draws { plays + 1 } else { plays };
        let size = if scoring { base + 2 * (pass_index + 1) } else { base };
        ObsLayout {
            t,
            p,
            arms,
            enc_arms,
            s,
            o,
            extra,
            markers,
            hub_slot,
            foot_slot,
            base,
            size,
            num_actions: pass_index + 1,
            draw_index,
            pass_index,
        }
    }

    pub fn index(&self, mv: i64) -> usize {
        if mv == PASS {
            self.pass_index
        } else if mv == DRAW {
            self.draw_index as usize
        } else {
            let arm = arm_of(mv);
            let slot = if arm < self.enc_arms {
                arm
            } else if arm == HUB_ARM {
                self.hub_slot
            } else {
                self.foot_slot
            };
            tile_of(mv) * self.arms + slot
        }
    }

    /// The move of action `a`, None outside the space.
    pub fn move_of(&self, a: i64) -> Option<i64> {
        if a < 0 || a as usize >= self.num_actions {
            return None;
        }
        if a as usize == self.pass_index {
            return Some(PASS);
        }
        if a == self.draw_index {
            return Some(DRAW);
        }
        let (tile, slot) = (a as usize / self.arms, a as usize % self.arms);
        let arm = if slot < self.enc_arms {
            slot
        } else if slot == self.hub_slot {
            HUB_ARM
        } else {
            FOOT_ARM
        };
        Some(play_code(tile, arm))
    }
}

/// One table's rows in the output buffers.
pub struct Row<'a> {
    pub obs: &'a mut [f32],
    pub mask: &'a mut [i8],
    pub reward: &'a mut f64,
    pub terminated: &'a mut u8,
    pub truncated: &'a mut u8,
    /// the observed seat
    pub seat: &'a mut i64,
    /// per seat: what it earned in this step
    pub rewards: &'a mut [f64],
    /// how the last hand ended (0 playing, 1 domino, 2 blocked, 3 target)
    pub outcome: &'a mut i8,
    /// raw: the layout's count, each side's score, the last hand's settlement
    pub count: &'a mut i64,
    pub scores: &'a mut [i64],
    pub settlement: &'a mut [i64],
    /// 1 when the action was illegal (the episode ended on it)
    pub illegal: &'a mut u8,
}

/// How a table's hand was dealt (`match.Deal` but the boneyard, which the
/// hand keeps in drawing order): what its moves are replayed on to draw the
/// layout.
#[derive(Clone, Copy, Debug)]
pub struct Dealt<const W: usize> {
    pub hands: [Bits<W>; MAX_PLAYERS],
    pub leader: usize,
    pub lead_tile: Option<usize>,
    pub lead_doubles_only: bool,
    pub out_of_play: Bits<W>,
}

/// A train layout's match and the round in play (`kernel::trains`), which
/// a table of a train layout plays in place of its line match and hand.
pub struct Trained<const W: usize> {
    pub mt: TrainMatch<W>,
    pub hand: TrainHand<W>,
}

/// One table.
pub struct Env<const W: usize> {
    rules: Arc<Rules<W>>,
    m: MatchRules,
    seed: u64,
    episode: u64,
    seat_rng: Rng,
    bot_rng: Rng,
    mt: Match<W>,
    hand: Hand<W>,
    voids: Voids<W>,
    scratch: Option<Hand<W>>,
    /// where the scoring view plays each legal move to learn the count after it
    trial: Option<Hand<W>>,
    legal: Vec<i64>,
    seat: usize,
    before: Vec<i64>,
    over: bool,
    pending: [f64; MAX_PLAYERS],
    settlement: Vec<i64>,
    /// each side's gain in the hand just ended (`bones.seat.chance.side_gains`)
    gains: Vec<i64>,
    outcome: u8,
    dealt: Dealt<W>,
    /// the match and round of a train layout (None for a line layout)
    trains: Option<Box<Trained<W>>>,
}

impl<const W: usize> Env<W> {
    pub fn new(rules: Arc<Rules<W>>, m: MatchRules) -> Env<W> {
        let mt = Match::new(Arc::clone(&rules), m.clone(), 0);
        let owners = rules.t.owners;
        let trains = rules.t.trains.as_ref().map(|_| {
            let mt = TrainMatch::new(Arc::clone(&rules), m.clone(), 0);
            let hand = mt.new_hand(false);
            Box::new(Trained { mt, hand })
        });
        let hand = Hand::new(
            Arc::clone(&rules),
            crate::kernel::hand::HandSetup::new(vec![Bits::ZERO; rules.t.players], Vec::new(), 0),
        );
        Env {
            m,
            seed: 0,
            episode: 0,
            seat_rng: Rng::new(0),
            bot_rng: Rng::new(0),
            mt,
            hand,
            voids: Voids::default(),
            scratch: None,
            trial: None,
            legal: Vec::with_capacity(64),
            seat: 0,
            before: vec![0; owners],
            over: true,
            pending: [0.0; MAX_PLAYERS],
            settlement: vec![0; owners],
            gains: vec![0; owners],
            outcome: 0,
            dealt: Dealt {
                hands: [Bits::ZERO; MAX_PLAYERS],
                leader: 0,
                lead_tile: None,
                lead_doubles_only: false,
                out_of_play: Bits::ZERO,
            },
            trains,
            rules,
        }
    }

    /// The train layout's match and round, for a table of a train layout.
    pub fn trains(&self) -> Option<&Trained<W>> {
        self.trains.as_deref()
    }

    /// The seat to move.
    fn turn(&self) -> usize {
        match &self.trains {
            Some(tr) => tr.hand.turn,
            None => self.hand.turn,
        }
    }

    /// The legal moves of the seat to move, into `self.legal`.
    fn legal_now(&mut self) {
        match &self.trains {
            Some(tr) => tr.hand.legal_moves_into(&mut self.legal),
            None => self.hand.legal_moves_into(&mut self.legal),
        }
    }

    /// The hand in play (or the one that ended the episode).
    pub fn hand(&self) -> &Hand<W> {
        &self.hand
    }

    /// How the hand in play was dealt.
    pub fn dealt(&self) -> &Dealt<W> {
        &self.dealt
    }

    /// The match in play (its scores are brought up to date as each hand
    /// ends; the hand in play keeps its own running scores).
    pub fn match_state(&self) -> &Match<W> {
        &self.mt
    }

    /// Whether the episode is over (the next step starts another).
    pub fn over(&self) -> bool {
        self.over
    }

    /// An estimate of the bytes one table of `rules` holds once it plays:
    /// the table itself (its hand, the heuristic's scratch hand and its
    /// match, inline), its own copy of the rules, and what its vectors grow
    /// to (the boneyard and scores of each hand, a hand's log, the legal
    /// moves, the voids), each allocation with the allocator's overhead.
    /// `bones.adapters.vector` bounds the number of tables by it.
    pub fn bytes(rules: &Rules<W>) -> usize {
        use std::mem::size_of;
        // an allocation's header and rounding
        const ALLOC: usize = 32;
        let vec = |len: usize, each: usize| len * each + ALLOC;
        let t = &rules.t;
        let (tiles, pips, players, owners) = (rules.size, t.highest + 1, t.players, t.owners);
        let rules_heap = 4 * vec(tiles, size_of::<i64>())
            + vec(tiles * pips, 1)
            + vec(pips, size_of::<Bits<W>>())
            + vec(rules.scoring.len(), size_of::<Bits<W>>())
            + 3 * vec(players, size_of::<usize>())
            + vec(t.count_points.len(), 8)
            + vec(t.header_points.len(), 8)
            + vec(t.when_values.len(), 8);
        // a hand's log: every tile played, and drawn, once
        let moves = 2 * tiles;
        let hand_heap = vec(tiles, 1) + 3 * vec(owners, size_of::<i64>());
        // a train table's match and round, boxed: its boneyard, its arms,
        // a few owed doubles, the scores and the settlement; its line hand
        // stays empty and it keeps no log and no voids
        let Some(tr) = &t.trains else {
            return size_of::<Self>()
                + size_of::<Rules<W>>()
                + ALLOC
                + rules_heap
                + 2 * hand_heap
                + vec(moves, size_of::<(u8, i64, i64)>())
                + vec(64, size_of::<i64>())
                + 5 * vec(owners, size_of::<i64>())
                + vec(tiles, size_of::<Void<W>>());
        };
        use crate::kernel::trains::{Owed, Owner};
        let arms = tr.most_arms(players, t.highest);
        size_of::<Self>()
            + size_of::<Rules<W>>()
            + ALLOC
            + rules_heap
            + vec(tiles, 8)
            + size_of::<Trained<W>>()
            + ALLOC
            + vec(tiles, 1)
            + 2 * vec(arms, 1)
            + vec(arms, size_of::<Owner>())
            + vec(players, size_of::<Owed>())
            + 3 * vec(owners, size_of::<i64>())
            + vec(64, size_of::<i64>())
            + 5 * vec(owners, size_of::<i64>())
    }

    fn learner(&self, cfg: &Config, seat: usize) -> bool {
        cfg.seat == SeatMode::SelfPlay || seat == self.seat
    }

    /// Seed the table's streams (the next episode is episode 0).
    pub fn seed(&mut self, seed: u64) {
        self.seed = seed;
        self.episode = 0;
        self.seat_rng = Rng::new(derive(seed, &[SEATS]));
        self.bot_rng = Rng::new(derive(seed, &[BOTS]));
    }

    /// Start the next episode: bots move until a learner seat has a move.
    pub fn start(&mut self, cfg: &Config) -> Result<(), String> {
        loop {
            self.seat = match cfg.seat {
                SeatMode::Fixed(s) => s,
                SeatMode::Random => self.seat_rng.below(self.rules.t.players as u64) as usize,
                SeatMode::SelfPlay => 0,
            };
            let seed = derive(self.seed, &[EPISODES, self.episode]);
            self.episode += 1;
            match self.trains.as_mut() {
                Some(tr) => tr.mt = TrainMatch::new(Arc::clone(&self.rules), self.m.clone(), seed),
                // the last episode's match restarted (`Match::restart`: the
                // same match as a new one, its buffers kept), as a simulation's
                None => self.mt.restart(seed),
            }
            self.over = false;
            self.pending = [0.0; MAX_PLAYERS];
            self.settlement.iter_mut().for_each(|v| *v = 0);
            self.outcome = 0;
            self.new_hand(cfg)?;
            self.others(cfg)?;
            if !self.over {
                return Ok(());
            }
        }
    }

    fn new_hand(&mut self, cfg: &Config) -> Result<(), String> {
        if let Some(tr) = self.trains.as_mut() {
            // a train table is drawn from its fields, not its moves
            tr.hand = tr.mt.new_hand(false);
            self.before.clone_from(&tr.mt.base.scores);
            return Ok(());
        }
        // the search's inference reads the hand's history (its log); the
        // hand is dealt into the last one's buffers, as the simulation's is
        // (`Match::renew_hand`: the same hand as `new_hand`, no 1.9 KB hand
        // built, moved and dropped a deal)
        self.mt.renew_hand(&mut self.hand, cfg.needs_log())?;
        let h = &self.hand;
        self.dealt = Dealt {
            hands: h.hands,
            leader: h.leader,
            lead_tile: h.lead_tile,
            lead_doubles_only: h.lead_doubles_only,
            out_of_play: h.out_of_play,
        };
        self.before.clone_from(&self.mt.scores);
        self.voids.clear();
        Ok(())
    }

    /// Make `mv` for the seat to move, and settle a hand it ends.
    fn make(&mut self, cfg: &Config, mv: i64) -> Result<(), String> {
        match self.trains.as_mut() {
            Some(tr) => {
                tr.hand.apply(mv);
                if tr.hand.state == PLAYING {
                    return Ok(());
                }
                tr.mt.finish_hand(&tr.hand);
            }
            None => {
                self.voids.before_move(&self.hand, mv);
                self.hand.apply(mv, None);
                if self.hand.state == PLAYING {
                    return Ok(());
                }
                self.mt.finish_hand(&self.hand);
            }
        }
        let (game_over, winner) = self.settled();
        self.rewarded(cfg, game_over, winner)
    }

    /// The hand just ended: its outcome, settlement and each side's gain
    /// in it (`self.gains`) kept; whether the match is over, and its
    /// winner (-1 none).
    fn settled(&mut self) -> (bool, i64) {
        let (state, settlement, scores, game_over, winner) = match &self.trains {
            Some(tr) => (
                tr.hand.state,
                tr.hand.settlement.as_deref(),
                &tr.hand.scores[..],
                tr.mt.base.game_over,
                tr.mt.base.winner,
            ),
            None => (
                self.hand.state,
                self.hand.settlement.as_deref(),
                &self.hand.scores[..],
                self.mt.game_over,
                self.mt.winner,
            ),
        };
        self.outcome = state;
        match settlement {
            Some(s) => self.settlement.copy_from_slice(s),
            None => self.settlement.iter_mut().for_each(|v| *v = 0),
        }
        let t = &self.rules.t;
        // the hand's own scores: a game it wins starts the match's again from
        // 0; in a penalty match and a train layout a side's points count
        // against it (`bones.seat.chance.side_gains`)
        let sign = if t.check == Check::Penalty || t.trains.is_some() { -1 } else { 1 };
        for ((g, a), b) in self.gains.iter_mut().zip(scores).zip(&self.before) {
            *g = sign * (a - b);
        }
        (game_over, winner)
    }

    /// Every seat's reward for the hand just settled (`self.gains`), the
    /// match over or not (`game_over`, won by side `winner`, -1 none); the
    /// next hand dealt unless the episode is over.
    fn rewarded(&mut self, cfg: &Config, game_over: bool, winner: i64) -> Result<(), String> {
        let t = &self.rules.t;
        let owners = t.owners;
        let gains = &self.gains;
        let over = !cfg.whole_match || game_over;
        let lose = -1.0 / (owners as f64 - 1.0);
        let win_of = |winner: i64, seat: usize| -> f64 {
            if winner < 0 {
                0.0
            } else if t.owner[seat] as i64 == winner {
                1.0
            } else {
                lose
            }
        };
        let total: i64 = gains.iter().sum();
        for seat in 0..t.players {
            let mine = gains[t.owner[seat]];
            let zero_sum = mine as f64 - (total - mine) as f64 / (owners as f64 - 1.0);
            let r = match cfg.reward {
                Reward::Points => zero_sum,
                Reward::Scaled => zero_sum / cfg.scale,
                Reward::Win => {
                    if cfg.whole_match {
                        if game_over {
                            win_of(winner, seat)
                        } else {
                            0.0
                        }
                    } else {
                        win_of(unique_top(gains), seat)
                    }
                }
                Reward::Difference => {
                    let best = (0..owners)
                        .filter(|&o| o != t.owner[seat])
                        .map(|o| gains[o])
                        .max()
                        .unwrap_or(0);
                    (mine - best) as f64
                }
            };
            self.pending[seat] += r;
        }
        if over {
            self.over = true;
            return Ok(());
        }
        self.new_hand(cfg)
    }

    /// The bots move until a learner seat has a move or the episode ends.
    fn others(&mut self, cfg: &Config) -> Result<(), String> {
        while !self.over && !self.learner(cfg, self.turn()) {
            if self.trains.is_some() {
                let mv = self.train_bot(cfg)?;
                self.make(cfg, mv)?;
                continue;
            }
            let seat = self.hand.turn;
            self.hand.legal_moves_into(&mut self.legal);
            let n = self.legal.len();
            let mv = match n {
                0 => return Err("a hand with no legal move".into()),
                1 => self.legal[0],
                _ => match cfg.opponents[seat] {
                    Opponent::Random => self.legal[self.bot_rng.below(n as u64) as usize],
                    Opponent::Greedy => self.hand.greedy_move(&self.legal),
                    Opponent::Heuristic => {
                        let scratch = self.scratch.get_or_insert_with(|| self.hand.clone());
                        heuristic_decide(&self.hand, &self.voids, &self.legal, scratch)
                    }
                    Opponent::Blunder(b) => match b.slip(&mut self.bot_rng, n) {
                        Some(i) => self.legal[i],
                        None if b.base == Base::Greedy => self.hand.greedy_move(&self.legal),
                        None => {
                            let scratch = self.scratch.get_or_insert_with(|| self.hand.clone());
                            heuristic_decide(&self.hand, &self.voids, &self.legal, scratch)
                        }
                    },
                    Opponent::Search { iterations, rollouts, policy, solve, infer, tree } => {
                        // one candidate a move: the same tile on twin arms is one
                        // (`SearchBot.choose`, `mirror.distinct_moves`)
                        let firsts = self.hand.mirror_of(&self.legal);
                        let distinct: Vec<i64> =
                            (0..n).filter(|&i| firsts[i] == i).map(|i| self.legal[i]).collect();
                        if distinct.len() == 1 {
                            distinct[0]
                        } else {
                            let view = View::of(&self.hand, seat, &self.voids);
                            let found = if tree > 0 && !view.solvable(solve) {
                                let config = ismcts::Config::tree(tree * iterations, policy);
                                ismcts::ismcts(&view, &distinct, &config, &mut self.bot_rng)
                                    .map(|f| f.best)
                            } else {
                                let budget =
                                    Budget::new(iterations, rollouts, policy, None, solve, infer);
                                search(&view, &distinct, &budget, &mut self.bot_rng).map(|f| f.best)
                            };
                            found.map_err(|_| "no world agrees with the history".to_string())?
                        }
                    }
                },
            };
            self.make(cfg, mv)?;
        }
        Ok(())
    }

    /// The move of the bot to move in a train round: the bots as `bones
    /// simulate` seats them there (`run::trains`); a forced move made
    /// without asking.
    fn train_bot(&mut self, cfg: &Config) -> Result<i64, String> {
        let Some(tr) = self.trains.as_deref() else {
            return Err("not a train layout".into());
        };
        let hand = &tr.hand;
        hand.legal_moves_into(&mut self.legal);
        let n = self.legal.len();
        Ok(match n {
            0 => return Err("a train hand with no legal move".into()),
            1 => self.legal[0],
            _ => match cfg.opponents[hand.turn] {
                Opponent::Random => self.legal[self.bot_rng.below(n as u64) as usize],
                Opponent::Greedy => train_greedy(hand, &self.legal),
                Opponent::Heuristic => train_heuristic(hand, &self.legal),
                Opponent::Blunder(b) => match b.slip(&mut self.bot_rng, n) {
                    Some(i) => self.legal[i],
                    None if b.base == Base::Greedy => train_greedy(hand, &self.legal),
                    None => train_heuristic(hand, &self.legal),
                },
                // `SearchBot.choose` on a train round: every move is its own
                // (`mirror._keys`) and no world is solved (`solvable_view`),
                // so the tree where there is one, else the worlds
                Opponent::Search { iterations, rollouts, policy, solve, infer, tree } => {
                    let view = TrainView::of(hand, hand.turn);
                    if tree > 0 {
                        // `SearchBot.tree_bot`: fewer iterations on a set
                        // larger than TRAIN_TILES
                        let tiles = hand.rules.full.ones().count();
                        let mut budget = tree * iterations;
                        if tiles > TRAIN_TILES {
                            budget = (budget * TRAIN_TILES / tiles).max(1);
                        }
                        // no inference: it weighs no train play, so a pool
                        // of worlds would only narrow them (`tree_bot`)
                        let config =
                            ismcts::Config { infer: 0.0, ..ismcts::Config::tree(budget, policy) };
                        train_tree(&view, &self.legal, &config, &mut self.bot_rng).best
                    } else {
                        let budget = Budget::new(iterations, rollouts, policy, None, solve, infer);
                        train_worlds(&view, &self.legal, &budget, &mut self.bot_rng).best
                    }
                }
            },
        })
    }

    /// One step: the learner's `action`, then the bots; or (the episode
    /// over) the next episode, the action ignored (next-step autoreset).
    pub fn step(
        &mut self,
        cfg: &Config,
        lay: &ObsLayout,
        action: i64,
        row: &mut Row,
    ) -> Result<(), String> {
        *row.illegal = 0;
        if self.over {
            self.start(cfg)?;
            self.write(cfg, lay, row, self.turn());
            *row.reward = 0.0;
            row.rewards.iter_mut().for_each(|v| *v = 0.0);
            *row.terminated = 0;
            *row.truncated = 0;
            return Ok(());
        }
        let seat = self.turn();
        self.pending = [0.0; MAX_PLAYERS];
        let mv = lay.move_of(action).filter(|&mv| {
            self.legal_now();
            self.legal.contains(&mv)
        });
        match mv {
            None => {
                self.over = true;
                self.pending[seat] = cfg.illegal_reward;
                *row.illegal = 1;
            }
            Some(mv) => {
                self.make(cfg, mv)?;
                self.others(cfg)?;
            }
        }
        // in self-play the observed seat is the one to move next (the one
        // that moved, once the episode is over)
        let observed = if cfg.seat == SeatMode::SelfPlay && !self.over {
            self.turn()
        } else if cfg.seat == SeatMode::SelfPlay {
            seat
        } else {
            self.seat
        };
        self.write(cfg, lay, row, observed);
        *row.reward = self.pending[seat];
        for (o, &p) in row.rewards.iter_mut().zip(&self.pending) {
            *o = p;
        }
        *row.terminated = u8::from(self.over);
        *row.truncated = 0;
        Ok(())
    }

    /// A reset: a new episode written into `row`.
    pub fn reset(&mut self, cfg: &Config, lay: &ObsLayout, row: &mut Row) -> Result<(), String> {
        self.start(cfg)?;
        let seat = if cfg.seat == SeatMode::SelfPlay { self.turn() } else { self.seat };
        self.write(cfg, lay, row, seat);
        *row.reward = 0.0;
        row.rewards.iter_mut().for_each(|v| *v = 0.0);
        *row.terminated = 0;
        *row.truncated = 0;
        *row.illegal = 0;
        Ok(())
    }

    /// The observation of `seat`, its mask and the raw values. Once the
    /// episode is over the mask is all ones, as Pgx makes it: the next
    /// step's action is ignored (it starts the next episode), and a masked
    /// softmax over the row stays finite.
    fn write(&mut self, cfg: &Config, lay: &ObsLayout, row: &mut Row, seat: usize) {
        *row.seat = seat as i64;
        row.settlement.copy_from_slice(&self.settlement);
        *row.outcome = self.outcome as i8;
        row.mask.fill(i8::from(self.over));
        if !self.over && self.turn() == seat {
            self.legal_now();
            for &mv in &self.legal {
                row.mask[lay.index(mv)] = 1;
            }
        }
        if let Some(tr) = &self.trains {
            // no train play scores and the count stays 0: the scoring view
            // (`ScoringView.values`) is zero everywhere, as `encode` left it
            *row.count = 0;
            row.scores.copy_from_slice(&tr.hand.scores);
            encode_trains(&tr.hand, seat, cfg, lay, row.obs);
            return;
        }
        *row.count = self.hand.count;
        row.scores.copy_from_slice(&self.hand.scores);
        encode(&self.hand, &self.voids, seat, cfg, lay, row.obs);
        if cfg.scoring && !self.over && self.hand.turn == seat {
            self.scoring(cfg, lay, row.obs);
        }
    }

    /// The scoring view of the seat to move (`ScoringView.values`), after
    /// the encoding in `out`, which `encode` zeroed: for each legal move
    /// (in `self.legal`) the points it scores now and the count after it.
    fn scoring(&mut self, cfg: &Config, lay: &ObsLayout, out: &mut [f32]) {
        let n = lay.num_actions;
        let view = &mut out[lay.base..lay.base + 2 * n];
        let cap = cfg.count_cap;
        for &mv in &self.legal {
            let (points, count) = if is_tile_move(mv) {
                let trial = self.trial.get_or_insert_with(|| self.hand.clone());
                trial.clone_from(&self.hand);
                trial.record = false;
                trial.log.clear();
                trial.apply(mv, None);
                (self.hand.points_if(mv), trial.count)
            } else {
                (0, self.hand.count)
            };
            let i = lay.index(mv);
            if cap > 0.0 {
                view[i] = (points as f64 / cap).clamp(-cfg.score_clip, cfg.score_clip) as f32;
                view[n + i] = (count as f64 / cap).clamp(0.0, 1.0) as f32;
            } else {
                view[i] = points as f32;
                view[n + i] = count as f32;
            }
        }
    }
}

/// What a seat's encoding reads of a hand, line or train: the blocks
/// every layout has (`Encoding.values` up to `proven_void`).
struct Seen<'a, const W: usize> {
    hands: &'a [Bits<W>; MAX_PLAYERS],
    on_table: &'a Bits<W>,
    out_of_play: &'a Bits<W>,
    arm_open: &'a [i8],
    count: i64,
    placed: u32,
    drawn: &'a [u32; MAX_PLAYERS],
    turn: usize,
    drawable: usize,
    boneyard_left: usize,
    drawn_turn: i64,
    scores: &'a [i64],
    /// per side, or `None`: as a new hand has it (in where there is no get-in rule)
    got_in: Option<&'a [bool]>,
}

/// The [`Seen`] of a line or train `hand` (their common fields have the
/// same names), with what differs between them.
macro_rules! seen {
    ($hand:expr, $out_of_play:expr, $arm_open:expr, $count:expr, $got_in:expr) => {
        Seen {
            hands: &$hand.hands,
            on_table: &$hand.on_table,
            out_of_play: $out_of_play,
            arm_open: $arm_open,
            count: $count,
            placed: $hand.placed,
            drawn: &$hand.drawn,
            turn: $hand.turn,
            drawable: $hand.drawable(),
            boneyard_left: $hand.boneyard.len() - $hand.bone_pos,
            drawn_turn: $hand.drawn_turn,
            scores: &$hand.scores,
            got_in: $got_in,
        }
    };
}

/// The blocks of `seen` every layout has into `out` (zeroed first): where
/// the `proven_void` block starts.
fn encode_seen<const W: usize>(
    seen: &Seen<'_, W>,
    r: &Rules<W>,
    seat: usize,
    cfg: &Config,
    lay: &ObsLayout,
    out: &mut [f32],
) -> usize {
    let ObsLayout { t, p, enc_arms, s, o, .. } = *lay;
    out.iter_mut().for_each(|v| *v = 0.0);
    for tile in seen.hands[seat].ones() {
        out[tile] = 1.0;
    }
    for tile in seen.on_table.ones() {
        out[t + tile] = 1.0;
    }
    for tile in seen.out_of_play.ones() {
        out[2 * t + tile] = 1.0;
    }
    let base = 3 * t;
    let ends = base + enc_arms * p;
    for (arm, &pip) in seen.arm_open.iter().enumerate() {
        if pip >= 0 {
            out[base + arm * p + pip as usize] = 1.0;
            out[ends + pip as usize] += 1.0;
        }
    }
    let mut at = ends + p;
    out[at] = if cfg.count_cap > 0.0 {
        (seen.count as f64).min(cfg.count_cap) / cfg.count_cap
    } else {
        seen.count as f64
    } as f32;
    out[at + 1] = if seen.placed != 0 { 0.0 } else { 1.0 };
    at += 2;
    for k in 0..s {
        let other = (seat + k) % s;
        out[at + k] = seen.hands[other].count() as f32;
        out[at + s + k] = seen.drawn[other] as f32;
    }
    at += 2 * s;
    out[at + (seen.turn + s - seat) % s] = 1.0;
    at += s;
    out[at] = seen.drawable as f32;
    out[at + 1] = seen.boneyard_left as f32;
    out[at + 2] = seen.drawn_turn as f32;
    at += 3;
    let mine = r.t.owner[seat];
    for k in 0..o {
        let side = (mine + k) % o;
        let score = seen.scores[side] as f64;
        out[at + k] = if cfg.score_scale > 0.0 {
            (score / cfg.score_scale).clamp(-cfg.score_clip, cfg.score_clip)
        } else {
            score
        } as f32;
        let got_in = seen.got_in.map_or(r.t.get_in == 0, |g| g[side]);
        out[at + o + k] = if got_in { 1.0 } else { 0.0 };
    }
    at + 2 * o
}

/// `Encoding.values(observe(hand, seat))` into `out` (`lay.size` entries:
/// the encoding's `lay.base`, the rest, the scoring view's, zeroed).
pub fn encode<const W: usize>(
    hand: &Hand<W>,
    voids: &Voids<W>,
    seat: usize,
    cfg: &Config,
    lay: &ObsLayout,
    out: &mut [f32],
) {
    let r = &*hand.rules;
    let ObsLayout { t, s, extra, .. } = *lay;
    let seen = seen!(
        hand,
        &hand.out_of_play,
        &hand.arm_open[..hand.n_arms],
        hand.count,
        Some(&hand.got_in)
    );
    let at = encode_seen(&seen, r, seat, cfg, lay, out);
    if extra > 0 && hand.extra.is_some() {
        // the last block: the move to make is an extra play after a double
        out[lay.base - 1] = 1.0;
    }
    if voids.list.is_empty() {
        return;
    }
    let own = hand.hands[seat];
    let mut seen = own;
    seen.or_assign(&hand.on_table);
    seen.or_assign(&hand.out_of_play);
    let unseen = r.full.and_not(&seen);
    for other in 0..s {
        if other == seat {
            continue;
        }
        let void = voids.barred_for(hand, seat, other, &unseen);
        let row = at + ((other + s - seat) % s - 1) * t;
        for tile in void.ones() {
            out[row + tile] = 1.0;
        }
    }
}

/// `Encoding.values(observe(hand, seat))` of a train round into `out` (as
/// [`encode`]): a train hand proves no voids (it records none), its count
/// is 0, its sides are in as a new hand has them, and the `markers` block
/// holds each seat's marker from `seat` on.
pub fn encode_trains<const W: usize>(
    hand: &TrainHand<W>,
    seat: usize,
    cfg: &Config,
    lay: &ObsLayout,
    out: &mut [f32],
) {
    let r = &*hand.rules;
    let ObsLayout { t, s, .. } = *lay;
    let seen = seen!(hand, &Bits::ZERO, &hand.arm_open, 0, None);
    // (a train layout has no `extra` block: the variant check refuses
    // `turn.after_double` there)
    let at = encode_seen(&seen, r, seat, cfg, lay, out);
    let markers = at + (s - 1) * t;
    for k in 0..s {
        out[markers + k] = if hand.marked[(seat + k) % s] { 1.0 } else { 0.0 };
    }
}
