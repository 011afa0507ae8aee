//! The vector environment's stepping on its persistent pool (`run::pool`)
//! against rayon's `par_chunks_mut`: the same tables, seeded alike, the
//! same learner actions, one job a step of every table, as the binding
//! steps them (`python/vector.rs`). `python -m bench.pool_vs_rayon` writes
//! the flat table this reads and runs it:
//!
//! ```text
//! cargo bench --no-default-features --features rayon --bench pool_vs_rayon -- \
//!     TABLE ENVS THREADS STEPS ROUNDS [OPPONENT]
//! ```
//!
//! Each round times `STEPS` steps of every table with the pool and with
//! rayon (each from its own fresh tables; which goes first alternates), and
//! checks that both ended in the same state; the figures are table steps a
//! second.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use bones_native::kernel::rng::Rng;
use bones_native::kernel::table::{MatchRules, Reader, Rules, Table};
use bones_native::run::pool::Pool;
use bones_native::run::vector::{Config, Env, ObsLayout, Opponent, Reward, Row, SeatMode};
use rayon::prelude::*;

/// A flat table as `bench/pool_vs_rayon.py` writes it: `key = v` for an
/// int, `key : v1 v2 ...` for a list.
struct FileReader(HashMap<String, (bool, Vec<i64>)>);

impl FileReader {
    fn open(path: &str) -> FileReader {
        let text = std::fs::read_to_string(path).expect("the flat table file");
        let mut fields = HashMap::new();
        for line in text.lines() {
            let (key, list, rest) = match (line.split_once(" = "), line.split_once(" :")) {
                (Some((k, v)), _) => (k, false, v),
                (None, Some((k, v))) => (k, true, v),
                _ => continue,
            };
            let values = rest.split_whitespace().map(|v| v.parse().expect("an int")).collect();
            fields.insert(key.to_string(), (list, values));
        }
        FileReader(fields)
    }

    fn get(&self, key: &str) -> Result<&(bool, Vec<i64>), String> {
        self.0.get(key).ok_or_else(|| format!("the flat table has no field '{key}'"))
    }
}

impl Reader for FileReader {
    fn int(&self, key: &str) -> Result<i64, String> {
        match self.get(key)? {
            (false, v) => Ok(v[0]),
            _ => Err(format!("{key} is a list")),
        }
    }

    fn ints(&self, key: &str) -> Result<Vec<i64>, String> {
        match self.get(key)? {
            (true, v) => Ok(v.clone()),
            _ => Err(format!("{key} is an int")),
        }
    }
}

/// One table's rows, as the binding's buffers hold them.
struct Bufs {
    obs: Vec<f32>,
    mask: Vec<i8>,
    reward: f64,
    terminated: u8,
    truncated: u8,
    seat: i64,
    rewards: Vec<f64>,
    outcome: i8,
    count: i64,
    scores: Vec<i64>,
    settlement: Vec<i64>,
    illegal: u8,
}

/// One table, its rows and the stream its learner's actions are drawn from.
struct Slot {
    env: Env<1>,
    bufs: Bufs,
    rng: Rng,
    /// what the table's steps earned, to compare the two runs
    total: f64,
}

impl Slot {
    fn new(rules: &Arc<Rules<1>>, m: &MatchRules, lay: &ObsLayout, i: u64) -> Slot {
        let (players, owners) = (rules.t.players, rules.t.owners);
        let mut env = Env::new(Arc::clone(rules), m.clone());
        env.seed(i);
        let bufs = Bufs {
            obs: vec![0.0; lay.size],
            mask: vec![0; lay.num_actions],
            reward: 0.0,
            terminated: 0,
            truncated: 0,
            seat: 0,
            rewards: vec![0.0; players],
            outcome: 0,
            count: 0,
            scores: vec![0; owners],
            settlement: vec![0; owners],
            illegal: 0,
        };
        Slot { env, bufs, rng: Rng::new(i), total: 0.0 }
    }

    fn reset(&mut self, cfg: &Config, lay: &ObsLayout) {
        self.env.reset(cfg, lay, &mut self.bufs.row()).expect("a reset");
    }

    /// One step: a legal action of the last observation, drawn at random.
    fn step(&mut self, cfg: &Config, lay: &ObsLayout) {
        let mask = &self.bufs.mask;
        let legal = mask.iter().filter(|&&m| m != 0).count();
        let action = if legal == 0 {
            0 // the episode is over: the next step starts the next
        } else {
            let k = self.rng.index(legal);
            mask.iter().enumerate().filter(|(_, &m)| m != 0).nth(k).map_or(0, |(a, _)| a)
        };
        let action = i64::try_from(action).expect("an action index");
        self.env.step(cfg, lay, action, &mut self.bufs.row()).expect("a step");
        self.total += self.bufs.reward;
    }
}

impl Bufs {
    fn row(&mut self) -> Row<'_> {
        Row {
            obs: &mut self.obs,
            mask: &mut self.mask,
            reward: &mut self.reward,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            seat: &mut self.seat,
            rewards: &mut self.rewards,
            outcome: &mut self.outcome,
            count: &mut self.count,
            scores: &mut self.scores,
            settlement: &mut self.settlement,
            illegal: &mut self.illegal,
        }
    }
}

/// The tables, shared by the threads of a job: `Pool::run` hands each
/// index to one thread, so no two threads reach one table.
struct Shared(*mut Slot);

// SAFETY: the pool steps each table from one thread a job (the ranges of
// `Pool::run` are disjoint), and `run` returns after every range is done
unsafe impl Sync for Shared {}

fn fresh(
    rules: &Arc<Rules<1>>,
    m: &MatchRules,
    cfg: &Config,
    lay: &ObsLayout,
    n: usize,
) -> Vec<Slot> {
    let mut slots: Vec<Slot> = (0..n as u64).map(|i| Slot::new(rules, m, lay, i)).collect();
    for s in &mut slots {
        s.reset(cfg, lay);
    }
    slots
}

fn digest(slots: &[Slot]) -> (f64, i64) {
    (slots.iter().map(|s| s.total).sum(), slots.iter().map(|s| s.bufs.count + s.bufs.seat).sum())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let [path, envs, threads, steps, rounds, rest @ ..] = &args[..] else {
        panic!("usage: TABLE ENVS THREADS STEPS ROUNDS [random|greedy|heuristic]");
    };
    let (envs, threads): (usize, usize) = (envs.parse().unwrap(), threads.parse().unwrap());
    let (steps, rounds): (usize, usize) = (steps.parse().unwrap(), rounds.parse().unwrap());
    let opponent = match rest.first().map_or("random", String::as_str) {
        "random" => Opponent::Random,
        "greedy" => Opponent::Greedy,
        "heuristic" => Opponent::Heuristic,
        other => panic!("no opponent {other}"),
    };
    let reader = FileReader::open(path);
    let table = Table::read(&reader).expect("a table");
    table.check().expect("a table the core plays");
    let m = MatchRules::read(&reader).expect("the match's fields");
    let rules = Arc::new(Rules::<1>::new(table).expect("a set of one mask word"));
    let lay = ObsLayout::new(&rules);
    let cfg = Config {
        seat: SeatMode::Fixed(0),
        opponents: vec![opponent; rules.t.players],
        whole_match: false,
        reward: Reward::Points,
        scale: 1.0,
        illegal_reward: -1.0,
        count_cap: 0.0,
        score_scale: 0.0,
        score_clip: 0.0,
    };
    let pool = Pool::new(threads);
    let rayon = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    // the pool's block: 8 a thread's slice (`run::pool::BLOCKS`)
    let block = envs.div_ceil(threads).div_ceil(8).max(1);
    println!("envs {envs}, threads {threads}, steps {steps}, rounds {rounds}, block {block}");
    // one run of every table `steps` times: its seconds and its end state
    let by_pool = || {
        let mut slots = fresh(&rules, &m, &cfg, &lay, envs);
        let start = Instant::now();
        for _ in 0..steps {
            let shared = Shared(slots.as_mut_ptr());
            let job = |r: std::ops::Range<usize>| {
                let shared = &shared;
                for i in r {
                    // SAFETY: i < envs, this thread's alone in this job
                    let slot = unsafe { &mut *shared.0.add(i) };
                    slot.step(&cfg, &lay);
                }
            };
            pool.run(envs, &job).expect("no panic");
        }
        (start.elapsed().as_secs_f64(), digest(&slots))
    };
    let by_rayon = || {
        let mut slots = fresh(&rules, &m, &cfg, &lay, envs);
        let start = Instant::now();
        for _ in 0..steps {
            rayon.install(|| {
                slots.par_chunks_mut(block).for_each(|chunk| {
                    for slot in chunk {
                        slot.step(&cfg, &lay);
                    }
                })
            });
        }
        (start.elapsed().as_secs_f64(), digest(&slots))
    };
    for round in 0..rounds {
        // in turns: the pool first in even rounds, rayon first in odd ones
        let ((pooled, a), (rayoned, b)) = if round % 2 == 0 {
            let p = by_pool();
            (p, by_rayon())
        } else {
            let r = by_rayon();
            (by_pool(), r)
        };
        assert_eq!(a, b, "both runs step the tables alike");
        let rate = |secs: f64| (envs * steps) as f64 / secs;
        println!(
            "round {round}: pool {:.0} table steps/s, rayon {:.0} table steps/s, pool/rayon {:.3}",
            rate(pooled),
            rate(rayoned),
            rayoned / pooled
        );
    }
}
