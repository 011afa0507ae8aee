//! The binding of `run/vector.rs`: `bones_native.VectorCore`, N tables of one
//! variant writing into NumPy arrays the caller allocated once (`bind`),
//! stepped with the GIL released, on `threads` threads.

use std::sync::{Arc, Mutex};

use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::bots::rollouts::Policy;
use crate::kernel::table::Rules as KRules;
use crate::python::convert::{guard, NativeError};
use crate::python::rules::table_from_dict;
use crate::python::sim::match_rules;
use crate::run::pool::Pool;
use crate::run::vector::{Config, Env, ObsLayout, Opponent, Reward, Row, SeatMode};

/// What a call does to one table.
#[derive(Clone, Copy)]
enum Do {
    Step(i64),
    Reset,
    Skip,
}

enum Tables {
    W1(Vec<Env<1>>),
    W2(Vec<Env<2>>),
    W3(Vec<Env<3>>),
}

/// Raw pointers to the bound buffers (each checked: C-contiguous, writable,
/// `n` rows of its width); tables write only their own rows.
#[derive(Clone, Copy)]
struct Bufs {
    obs: *mut f32,
    mask: *mut i8,
    reward: *mut f64,
    terminated: *mut u8,
    truncated: *mut u8,
    seat: *mut i64,
    rewards: *mut f64,
    outcome: *mut i8,
    count: *mut i64,
    scores: *mut i64,
    settlement: *mut i64,
    illegal: *mut u8,
}

// the rows written from different threads never overlap
unsafe impl Send for Bufs {}
unsafe impl Sync for Bufs {}

struct Widths {
    size: usize,
    actions: usize,
    players: usize,
    owners: usize,
}

impl Bufs {
    /// Row `i`. Safety: `i < n`, and no other live row has the same `i`.
    unsafe fn row<'a>(&self, i: usize, w: &Widths) -> Row<'a> {
        use std::slice::from_raw_parts_mut as part;
        Row {
            obs: part(self.obs.add(i * w.size), w.size),
            mask: part(self.mask.add(i * w.actions), w.actions),
            reward: &mut *self.reward.add(i),
            terminated: &mut *self.terminated.add(i),
            truncated: &mut *self.truncated.add(i),
            seat: &mut *self.seat.add(i),
            rewards: part(self.rewards.add(i * w.players), w.players),
            outcome: &mut *self.outcome.add(i),
            count: &mut *self.count.add(i),
            scores: part(self.scores.add(i * w.owners), w.owners),
            settlement: part(self.settlement.add(i * w.owners), w.owners),
            illegal: &mut *self.illegal.add(i),
        }
    }
}

/// N tables of one variant (see `bones.adapters.vector`).
#[pyclass(module = "bones_native")]
pub struct VectorCore {
    tables: Tables,
    cfg: Config,
    lay: ObsLayout,
    n: usize,
    /// the worker threads, made once; None once closed
    pool: Option<Pool>,
    held: Vec<PyObject>,
    bufs: Option<Bufs>,
}

fn buffer<T: Element>(obj: &Bound<'_, PyAny>, len: usize, name: &str) -> PyResult<*mut T> {
    let b = PyBuffer::<T>::get(obj).map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
    if b.readonly() || !b.is_c_contiguous() || b.item_count() != len {
        return Err(PyValueError::new_err(format!(
            "{name}: a writable C-contiguous array of {len} items is needed"
        )));
    }
    Ok(b.buf_ptr() as *mut T)
}

/// `vector.native_opponent`'s spec: `(bot, iterations, rollouts, policy,
/// solve, infer, tree)`.
type Spec = (String, usize, usize, String, usize, f64, usize);

fn opponent(spec: &Spec) -> PyResult<Opponent> {
    let (name, iterations, rollouts, policy, solve, infer, tree) = spec;
    Ok(match name.as_str() {
        "random" => Opponent::Random,
        "greedy" => Opponent::Greedy,
        "heuristic" => Opponent::Heuristic,
        "search" => Opponent::Search {
            iterations: (*iterations).max(1),
            rollouts: (*rollouts).max(1),
            policy: Policy::from_name(policy)
                .ok_or_else(|| PyValueError::new_err(format!("no rollout policy {policy:?}")))?,
            solve: *solve,
            infer: *infer,
            tree: *tree,
        },
        _ => return Err(PyValueError::new_err(format!("no native bot {name:?}"))),
    })
}

/// The tables, shared by the threads of a job: each range of tables is
/// stepped by one thread (`Pool::run`), so no two threads reach one table.
struct SharedTables<T>(*mut T);
unsafe impl<T: Send> Sync for SharedTables<T> {}

fn step_all<const W: usize>(
    envs: &mut [Env<W>],
    cfg: &Config,
    lay: &ObsLayout,
    bufs: Bufs,
    w: &Widths,
    pool: &Pool,
    what: &(dyn Fn(usize) -> Do + Sync),
) -> Result<(), String> {
    let n = envs.len();
    let tables = SharedTables(envs.as_mut_ptr());
    let failed: Mutex<Option<String>> = Mutex::new(None);
    let block = |range: std::ops::Range<usize>| {
        let tables = &tables;
        for i in range {
            // Safety: i < n, stepped by this thread alone in this job; the
            // tables and the bound arrays outlive the job
            let env = unsafe { &mut *tables.0.add(i) };
            let mut row = unsafe { bufs.row(i, w) };
            let got = match what(i) {
                Do::Step(action) => env.step(cfg, lay, action, &mut row),
                Do::Reset => env.reset(cfg, lay, &mut row),
                Do::Skip => Ok(()),
            };
            if let Err(e) = got {
                failed.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                return;
            }
        }
    };
    pool.run(n, &block)?;
    match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

macro_rules! each {
    ($tables:expr, $envs:ident => $body:expr) => {
        match $tables {
            Tables::W1($envs) => $body,
            Tables::W2($envs) => $body,
            Tables::W3($envs) => $body,
        }
    };
}

#[pymethods]
impl VectorCore {
    /// `table`: a flat table with its match fields; `seat`: a seat, -1 for a
    /// random seat each episode, -2 for self-play; `opponents`: per seat
    /// `(bot, iterations, rollouts, policy)`.
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        table: Bound<'_, PyDict>,
        n: usize,
        seat: i64,
        opponents: Vec<Spec>,
        whole_match: bool,
        reward: &str,
        scale: f64,
        illegal_reward: f64,
        count_cap: f64,
        score_scale: f64,
        score_clip: f64,
        threads: usize,
    ) -> PyResult<Self> {
        guard(|| {
            let t = table_from_dict(&table)?;
            let m = match_rules(&table)?;
            let players = t.players as i64;
            let seat = match seat {
                -1 => SeatMode::Random,
                -2 => SeatMode::SelfPlay,
                s if (0..players).contains(&s) => SeatMode::Fixed(s as usize),
                s => return Err(PyValueError::new_err(format!("no seat {s}"))),
            };
            if opponents.len() != t.players {
                return Err(PyValueError::new_err("one opponent entry per seat"));
            }
            let opponents = opponents.iter().map(opponent).collect::<PyResult<Vec<_>>>()?;
            let reward = match reward {
                "points" => Reward::Points,
                "scaled" => Reward::Scaled,
                "win" => Reward::Win,
                "difference" => Reward::Difference,
                r => return Err(PyValueError::new_err(format!("no reward {r:?}"))),
            };
            let cfg = Config {
                seat,
                opponents,
                whole_match,
                reward,
                scale,
                illegal_reward,
                count_cap,
                score_scale,
                score_clip,
            };
            let err = |e: String| PyValueError::new_err(e);
            let (tables, lay) = match t.words() {
                1 => {
                    let r = Arc::new(KRules::<1>::new(t).map_err(err)?);
                    m.check(&r).map_err(err)?;
                    let lay = ObsLayout::new(&r);
                    (
                        Tables::W1(
                            (0..n).map(|_| Env::new(Arc::new((*r).clone()), m.clone())).collect(),
                        ),
                        lay,
                    )
                }
                2 => {
                    let r = Arc::new(KRules::<2>::new(t).map_err(err)?);
                    m.check(&r).map_err(err)?;
                    let lay = ObsLayout::new(&r);
                    (
                        Tables::W2(
                            (0..n).map(|_| Env::new(Arc::new((*r).clone()), m.clone())).collect(),
                        ),
                        lay,
                    )
                }
                _ => {
                    let r = Arc::new(KRules::<3>::new(t).map_err(err)?);
                    m.check(&r).map_err(err)?;
                    let lay = ObsLayout::new(&r);
                    (
                        Tables::W3(
                            (0..n).map(|_| Env::new(Arc::new((*r).clone()), m.clone())).collect(),
                        ),
                        lay,
                    )
                }
            };
            Ok(VectorCore {
                tables,
                cfg,
                lay,
                n,
                pool: Some(Pool::new(threads.clamp(1, n.max(1)))),
                held: Vec::new(),
                bufs: None,
            })
        })
    }

    /// `(observation size, number of actions)`.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        (self.lay.size, self.lay.num_actions)
    }

    /// The arrays every step writes into, kept alive here: obs (n, size)
    /// float32, mask (n, actions) int8, reward (n,) float64, terminated and
    /// truncated (n,) uint8, seat (n,) int64, rewards (n, players) float64,
    /// outcome (n,) int8, count (n,) int64, scores and settlement (n,
    /// owners) int64, illegal (n,) uint8.
    #[allow(clippy::too_many_arguments)]
    fn bind(
        &mut self,
        obs: Bound<'_, PyAny>,
        mask: Bound<'_, PyAny>,
        reward: Bound<'_, PyAny>,
        terminated: Bound<'_, PyAny>,
        truncated: Bound<'_, PyAny>,
        seat: Bound<'_, PyAny>,
        rewards: Bound<'_, PyAny>,
        outcome: Bound<'_, PyAny>,
        count: Bound<'_, PyAny>,
        scores: Bound<'_, PyAny>,
        settlement: Bound<'_, PyAny>,
        illegal: Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let n = self.n;
        let w = self.widths();
        let bufs = Bufs {
            obs: buffer(&obs, n * w.size, "obs")?,
            mask: buffer(&mask, n * w.actions, "mask")?,
            reward: buffer(&reward, n, "reward")?,
            terminated: buffer(&terminated, n, "terminated")?,
            truncated: buffer(&truncated, n, "truncated")?,
            seat: buffer(&seat, n, "seat")?,
            rewards: buffer(&rewards, n * w.players, "rewards")?,
            outcome: buffer(&outcome, n, "outcome")?,
            count: buffer(&count, n, "count")?,
            scores: buffer(&scores, n * w.owners, "scores")?,
            settlement: buffer(&settlement, n * w.owners, "settlement")?,
            illegal: buffer(&illegal, n, "illegal")?,
        };
        self.held = [
            obs, mask, reward, terminated, truncated, seat, rewards, outcome, count, scores,
            settlement, illegal,
        ]
        .into_iter()
        .map(|o| o.unbind())
        .collect();
        self.bufs = Some(bufs);
        Ok(())
    }

    /// Seed table `i` (its next episode is its episode 0).
    fn seed(&mut self, i: usize, seed: u64) -> PyResult<()> {
        if i >= self.n {
            return Err(PyValueError::new_err(format!("no table {i}")));
        }
        each!(&mut self.tables, envs => envs[i].seed(seed));
        Ok(())
    }

    /// Start a new episode on every table whose `which` entry is nonzero
    /// (`which`: n uint8), writing its rows.
    fn reset(&mut self, py: Python<'_>, which: Vec<u8>) -> PyResult<()> {
        if which.len() != self.n {
            return Err(PyValueError::new_err("one entry per table"));
        }
        self.run(py, &|i: usize| if which[i] != 0 { Do::Reset } else { Do::Skip })
    }

    /// Stop and join the worker threads; a later step or reset is refused.
    fn close(&mut self, py: Python<'_>) {
        let pool = self.pool.take();
        py.allow_threads(move || drop(pool));
    }

    /// The worker threads running (0 on one thread, and once closed).
    #[getter]
    fn workers(&self) -> usize {
        self.pool.as_ref().map_or(0, |p| p.threads() - 1)
    }

    /// One step of every table: `actions` (n int64) for the seat observed;
    /// a table whose episode ended at the last step starts the next one.
    fn step(&mut self, py: Python<'_>, actions: Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.n;
        let buf = PyBuffer::<i64>::get(&actions)?;
        if !buf.is_c_contiguous() || buf.item_count() != n {
            return Err(PyValueError::new_err(format!("{n} int64 actions are needed")));
        }
        let acts: &[i64] = unsafe { std::slice::from_raw_parts(buf.buf_ptr() as *const i64, n) };
        self.run(py, &|i: usize| Do::Step(acts[i]))
    }
}

impl VectorCore {
    fn widths(&self) -> Widths {
        Widths {
            size: self.lay.size,
            actions: self.lay.num_actions,
            players: self.lay.s,
            owners: self.lay.o,
        }
    }

    /// Step, reset or skip each table, as `what` says.
    fn run(&mut self, py: Python<'_>, what: &(dyn Fn(usize) -> Do + Sync)) -> PyResult<()> {
        let bufs = self.bufs.ok_or_else(|| PyValueError::new_err("bind() the arrays first"))?;
        let w = self.widths();
        let pool =
            self.pool.as_ref().ok_or_else(|| PyValueError::new_err("the environment is closed"))?;
        let (cfg, lay) = (&self.cfg, &self.lay);
        let tables = &mut self.tables;
        let got: PyResult<Result<(), String>> = py.allow_threads(|| {
            guard(|| Ok(each!(tables, envs => step_all(envs, cfg, lay, bufs, &w, pool, what))))
        });
        got?.map_err(NativeError::new_err)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<VectorCore>()?;
    Ok(())
}
