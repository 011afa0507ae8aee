//! A simulation's game of a train layout (`sim._play_game` and
//! `_play_hands` with a `TrainHand`): the match of rounds, the built-in
//! bots as they play a train hand, and the game's quantities in the same
//! vector slots as a line game's. `Game::play` dispatches here once per
//! game, so the line games' loop is untouched.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use crate::bots::blunder::Base;
use crate::kernel::convert::wide;
use crate::kernel::game::{unique, BOTS};
use crate::kernel::moves::{BLOCKED, PLAYING};
use crate::kernel::rng::{derive, Rng};
use crate::kernel::table::{Rules, MAX_PLAYERS};
use crate::kernel::trains::{greedy_move, heuristic_move, TrainMatch};
use crate::run::sim::{time_bin, Bot, Game, Outcome, SimTable, TableHists, TIME_SAMPLE};

impl Game<'_> {
    /// `sim._play_game` for a train layout: a match of rounds (one round in
    /// hands mode). Its scores are penalties, so the sides are placed by
    /// their negated totals (the lowest first), and score their totals.
    pub(crate) fn play_trains<const W: usize>(
        &mut self,
        rules: &Arc<Rules<W>>,
        st: &SimTable,
        vector: &mut [i64],
        hists: &mut TableHists,
        timing: &mut [BTreeMap<i64, u64>],
    ) -> Result<(), String> {
        let sim = self.sim;
        let t = &rules.t;
        let players = t.players;
        let mut bots = [Bot::Random; MAX_PLAYERS];
        let mut rngs = [const { Rng { state: 0 } }; MAX_PLAYERS];
        for s in 0..players {
            bots[s] = sim.lineup[self.seated[s]];
            rngs[s] = Rng::new(derive(self.seed, &[BOTS, wide(s)]));
        }
        let mut mt = TrainMatch::new(Arc::clone(rules), st.m.clone(), self.seed);
        let play = [0i64; MAX_PLAYERS];
        let mut settle = [0i64; MAX_PLAYERS];
        let settle = &mut settle[..t.owners];
        let (mut moves, mut blocked, mut hands) = (0i64, 0i64, 0i64);
        let mut leader = None;
        let mut legal: Vec<i64> = Vec::with_capacity(64);
        let mut result: Option<Vec<i64>> = None;
        let mut before: Vec<i64> = Vec::with_capacity(t.owners);
        self.decisions = 0;
        while !mt.game_over() {
            let mut hand = mt.new_hand(false);
            leader.get_or_insert(hand.leader);
            before.clone_from(&mt.base.scores);
            while hand.state == PLAYING {
                hand.legal_moves_into(&mut legal);
                let mv = match legal.len() {
                    0 => return Err("a train hand with no legal move".into()),
                    // a forced move is made without asking the bot
                    1 => legal[0],
                    n => {
                        let seat = hand.turn;
                        self.decisions += 1;
                        let clock = self.decisions.is_multiple_of(TIME_SAMPLE).then(Instant::now);
                        let mv = match bots[seat] {
                            Bot::Random => legal[rngs[seat].index(n)],
                            Bot::Greedy => greedy_move(&hand, &legal),
                            Bot::Heuristic => heuristic_move(&hand, &legal),
                            Bot::Blunder(b) => match b.slip(&mut rngs[seat], n) {
                                Some(i) => legal[i],
                                None if b.base == Base::Greedy => greedy_move(&hand, &legal),
                                None => heuristic_move(&hand, &legal),
                            },
                        };
                        if let Some(t0) = clock {
                            let us = t0.elapsed().as_secs_f64().max(1e-7) * 1e6;
                            *timing[self.bot_ids[seat]].entry(time_bin(us)).or_insert(0) += 1;
                        }
                        mv
                    }
                };
                hand.apply(mv);
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
            mt.finish_hand(&hand);
            if sim.hands_only {
                result = Some(hand.scores.iter().zip(&before).map(|(a, b)| a - b).collect());
                break;
            }
        }
        let points = result.unwrap_or_else(|| mt.base.scores.clone());
        // penalties: the lowest total places first
        let placing: Vec<i64> = points.iter().map(|p| -p).collect();
        let winner =
            if sim.hands_only { unique(&placing) } else { usize::try_from(mt.base.winner).ok() };
        let game = Outcome {
            owner: &t.owner,
            result: &placing,
            points: &points,
            winner,
            counts: [moves, blocked, hands],
            leader: leader.unwrap_or(0),
            play: &play[..players],
            settle,
        };
        self.record(&st.slots, &game, vector, hists);
        Ok(())
    }
}
