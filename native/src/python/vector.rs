//! The binding of `run/vector.rs`: `bones_native.VectorCore`, N tables of one
//! variant writing into NumPy arrays the caller allocated once (`bind`),
//! stepped with the GIL released, on `threads` threads.
//!
//! Every `unsafe` here says why it is sound (`// SAFETY:`); clippy holds the
//! module to it.
#![deny(clippy::undocumented_unsafe_blocks)]

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::bots::blunder::Blunder;
use crate::bots::rollouts::Policy;
use crate::kernel::bits::Bits;
use crate::kernel::convert::int_or_none;
use crate::kernel::moves::PLAYING;
use crate::kernel::table::MatchRules;
use crate::kernel::table::{Rules as KRules, Table};
use crate::python::convert::{guard, py_mask, NativeError};
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
/// `n` rows of its width, kept alive and exported by `Held`); tables write
/// only their own rows.
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

// SAFETY: the pointers are into the arrays `Held` keeps exported for the
// core's life, so they stay valid wherever the threads of a job read them;
// each thread writes only the rows of the tables it steps (`Bufs::row`),
// which no other thread of the job reaches, so no two threads write one byte.
unsafe impl Send for Bufs {}
// SAFETY: as for `Send`: shared between the threads of one job, which write
// disjoint rows.
unsafe impl Sync for Bufs {}

#[derive(Clone, Copy)]
struct Widths {
    size: usize,
    actions: usize,
    players: usize,
    owners: usize,
}

impl Bufs {
    /// Row `i` of every array.
    ///
    /// # Safety
    ///
    /// `i < n` (the rows the arrays were checked to hold), the arrays are
    /// alive (bound by `Held`), and no other live `Row` has the same `i`.
    unsafe fn row<'a>(&self, i: usize, w: &Widths) -> Row<'a> {
        use std::slice::from_raw_parts_mut as part;
        // SAFETY: by the caller's promise row `i` lies inside every array
        // (each holds `n` rows of its width, checked in `bind`), the arrays
        // outlive the row, and nothing else refers to these bytes while the
        // row lives
        unsafe {
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
}

/// The arrays `bind` was given (a dict of them, by these names).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Arrays<'py> {
    obs: Bound<'py, PyAny>,
    mask: Bound<'py, PyAny>,
    reward: Bound<'py, PyAny>,
    terminated: Bound<'py, PyAny>,
    truncated: Bound<'py, PyAny>,
    seat: Bound<'py, PyAny>,
    rewards: Bound<'py, PyAny>,
    outcome: Bound<'py, PyAny>,
    count: Bound<'py, PyAny>,
    scores: Bound<'py, PyAny>,
    settlement: Bound<'py, PyAny>,
    illegal: Bound<'py, PyAny>,
}

/// The bound arrays' buffers, held for the core's life: each holds a
/// reference to its array and keeps its buffer exported, so the array's
/// memory is not freed while `Bufs` points into it. It does not move
/// either: `bones.adapters.vector` binds views (arrays that do not own their
/// memory), which NumPy refuses to resize; an array that owns its memory is
/// refused a resize while it is referenced here, unless `refcheck=False`
/// forces it, which the caller must not do to an array it bound.
#[allow(dead_code)] // held for their references and exports, never read
struct Held {
    obs: PyBuffer<f32>,
    mask: PyBuffer<i8>,
    reward: PyBuffer<f64>,
    terminated: PyBuffer<u8>,
    truncated: PyBuffer<u8>,
    seat: PyBuffer<i64>,
    rewards: PyBuffer<f64>,
    outcome: PyBuffer<i8>,
    count: PyBuffer<i64>,
    scores: PyBuffer<i64>,
    settlement: PyBuffer<i64>,
    illegal: PyBuffer<u8>,
}

/// What `bones.adapters.vector` fixes for a vector of tables (a dict of
/// these names): the seat mode (a seat, -1 a random seat each episode, -2
/// self-play), one `Spec` per seat, the episode, the reward and its scale,
/// the reward of an illegal action, the encoding's scaling.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Settings {
    seat: i64,
    opponents: Vec<Spec>,
    whole_match: bool,
    reward: String,
    scale: f64,
    illegal_reward: f64,
    count_cap: f64,
    score_scale: f64,
    score_clip: f64,
    /// keep every hand's moves, to draw a table (`table`)
    record: bool,
    /// append the scoring view to the observation
    scoring: bool,
}

/// N tables of one variant (see `bones.adapters.vector`).
#[pyclass(module = "bones_native")]
pub struct VectorCore {
    /// the threads of `send` (first: joined before the tables go)
    background: Option<Background>,
    /// per table: sent and not yet received
    stepping: Vec<bool>,
    /// how many tables are sent and not yet received
    outstanding: usize,
    threads: usize,
    tables: Tables,
    cfg: Config,
    lay: ObsLayout,
    n: usize,
    /// the worker threads, made once; None once closed
    pool: Option<Pool>,
    held: Option<Held>,
    bufs: Option<Bufs>,
    /// a step's actions, copied from the caller's array before the GIL is
    /// released
    actions: Vec<i64>,
}

/// The buffer of an array the core writes `len` items of `T` into.
fn buffer<T: Element>(obj: &Bound<'_, PyAny>, len: usize, name: &str) -> PyResult<PyBuffer<T>> {
    let b = PyBuffer::<T>::get(obj).map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
    if b.readonly() || !b.is_c_contiguous() || b.item_count() != len {
        return Err(PyValueError::new_err(format!(
            "{name}: a writable C-contiguous array of {len} items is needed"
        )));
    }
    Ok(b)
}

/// `vector.native_opponent`'s spec: `(bot, iterations, rollouts, policy,
/// solve, infer, tree)`; a `blunder`'s name carries its settings.
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
        _ => Opponent::Blunder(
            Blunder::parse(name)
                .ok_or_else(|| PyValueError::new_err(format!("no native bot {name:?}")))?,
        ),
    })
}

/// The tables, shared by the threads of a job: each range of tables is
/// stepped by one thread (`Pool::run`), so no two threads reach one table.
struct SharedTables<T>(*mut T);
// SAFETY: the pointer is to a slice of tables borrowed mutably for the whole
// job (`step_all`), and `Pool::run` hands each index to exactly one thread,
// so the threads only ever reach disjoint tables, each of them `Send`.
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
            // SAFETY: `Pool::run` gives index i (< n, the slice's length) to
            // this thread alone in this job, and the slice is borrowed
            // mutably until the job ends: nothing else refers to table i
            let env = unsafe { &mut *tables.0.add(i) };
            // SAFETY: i < n, the rows the bound arrays hold, and this thread
            // alone makes row i in this job; `Held` keeps the arrays alive
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

/// The most threads a vector of tables is stepped on (a thread beyond the
/// machine's cores only waits its turn).
pub const MAX_THREADS: usize = 256;

/// The error for `n` tables of `bytes` each that cannot be allocated.
fn too_many(n: usize, bytes: usize) -> PyErr {
    let total = (n as f64) * (bytes as f64);
    PyMemoryError::new_err(format!(
        "{n} tables need about {:.3e} bytes, more memory than can be allocated",
        total
    ))
}

/// `n` tables of the flat table `t`, and the layout of their observations:
/// the vector of tables reserved first, so a count too large for memory is
/// a `MemoryError`, not an abort.
fn built<const W: usize>(
    t: Table,
    m: &MatchRules,
    n: usize,
    scoring: bool,
) -> PyResult<(Vec<Env<W>>, ObsLayout)> {
    let err = |e: String| PyValueError::new_err(e);
    let r = KRules::<W>::new(t).map_err(err)?;
    m.check(&r).map_err(err)?;
    let lay = ObsLayout::new(&r, scoring);
    let mut envs = Vec::new();
    envs.try_reserve_exact(n).map_err(|_| too_many(n, Env::<W>::bytes(&r)))?;
    // each table has its own copy of the rules (no reference count shared
    // between the threads that step them)
    envs.extend((0..n).map(|_| Env::new(Arc::new(r.clone()), m.clone())));
    Ok((envs, lay))
}

/// What `VectorCore.table` tells of one table (a dict): the hand in play,
/// how it was dealt and its moves, so that `bones.adapters.vector` draws it.
fn table_state<'py, const W: usize>(py: Python<'py>, env: &Env<W>) -> PyResult<Bound<'py, PyDict>> {
    if let Some(tr) = env.trains() {
        // a train round is drawn from its fields (`render.render_state`)
        let out = crate::python::trains::fields(py, &tr.hand)?;
        out.set_item("over", env.over())?;
        out.set_item("playing", tr.hand.state == PLAYING)?;
        out.set_item("hands_played", tr.mt.base.hands_played)?;
        out.set_item("boneyard", tr.hand.boneyard.clone())?;
        out.set_item("lead_tile", tr.hand.lead_tile)?;
        out.set_item("number", tr.hand.number)?;
        return Ok(out);
    }
    let h = env.hand();
    let d = env.dealt();
    let players = h.rules.t.players;
    let masks =
        |bits: &[Bits<W>]| bits.iter().map(|b| py_mask(py, b)).collect::<PyResult<Vec<_>>>();
    let out = PyDict::new(py);
    let mt = env.match_state();
    let playing = h.state == PLAYING;
    out.set_item("over", env.over())?;
    out.set_item("playing", playing)?;
    out.set_item("hands_played", mt.hands_played)?;
    out.set_item("turn", h.turn)?;
    out.set_item("count", h.count)?;
    // the running scores: the hand's while it plays, the match's once it ended
    out.set_item("scores", if playing { &h.scores } else { &mt.scores }.clone())?;
    out.set_item("hands", masks(&h.hands[..players])?)?;
    out.set_item("boneyard", h.boneyard.clone())?;
    out.set_item("bone_pos", h.bone_pos)?;
    out.set_item("dealt", masks(&d.hands[..players])?)?;
    out.set_item("leader", d.leader)?;
    out.set_item("lead_tile", int_or_none(d.lead_tile))?;
    out.set_item("lead_doubles_only", d.lead_doubles_only)?;
    out.set_item("out_of_play", py_mask(py, &d.out_of_play)?)?;
    out.set_item("moves", h.log.iter().map(|&(_, mv, _)| mv).collect::<Vec<i64>>())?;
    Ok(out)
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

/// A table's rows while it steps in the background (`send`): its own, so
/// the background threads never write the bound arrays; `recv` copies them
/// there.
struct Slot {
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

impl Slot {
    fn new(w: &Widths) -> Slot {
        Slot {
            obs: vec![0.0; w.size],
            mask: vec![0; w.actions],
            reward: 0.0,
            terminated: 0,
            truncated: 0,
            seat: 0,
            rewards: vec![0.0; w.players],
            outcome: 0,
            count: 0,
            scores: vec![0; w.owners],
            settlement: vec![0; w.owners],
            illegal: 0,
        }
    }

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

    /// Copy the slot into row `i` of the bound arrays.
    ///
    /// # Safety
    ///
    /// As `Bufs::row`: `i < n`, the arrays alive, no other live `Row` of `i`.
    unsafe fn copy_to(&self, bufs: &Bufs, i: usize, w: &Widths) {
        // SAFETY: the caller's promise is `Bufs::row`'s
        let row = unsafe { bufs.row(i, w) };
        row.obs.copy_from_slice(&self.obs);
        row.mask.copy_from_slice(&self.mask);
        *row.reward = self.reward;
        *row.terminated = self.terminated;
        *row.truncated = self.truncated;
        *row.seat = self.seat;
        row.rewards.copy_from_slice(&self.rewards);
        *row.outcome = self.outcome;
        *row.count = self.count;
        row.scores.copy_from_slice(&self.scores);
        row.settlement.copy_from_slice(&self.settlement);
        *row.illegal = self.illegal;
    }
}

/// What `send` queues and what `recv` takes, shared with the background
/// threads.
#[derive(Default)]
struct Queue {
    /// (table, what to do), in the order sent
    todo: VecDeque<(usize, Do)>,
    /// (table, its error), in the order finished
    done: VecDeque<(usize, Option<String>)>,
    stop: bool,
}

#[derive(Default)]
struct Shared {
    queue: Mutex<Queue>,
    /// a job was queued, or the threads are to stop
    work: Condvar,
    /// a table finished
    ready: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A pointer the background threads step tables (or fill slots) through.
struct Ptr<T>(*mut T);

impl<T> Ptr<T> {
    fn get(&self) -> *mut T {
        self.0
    }
}

// SAFETY: the pointer is to the first of the core's tables (or slots), which
// live, unmoved (their vectors are never resized), until the background
// threads are joined (`Background::drop`, run before the tables are dropped:
// `VectorCore::drop`); a table is queued once at a time (`VectorCore::send`
// refuses a table still stepping) and no other code touches a table while it
// is queued or stepping (every other method refuses while tables step), so
// one thread at a time reaches each, and each is `Send`.
unsafe impl<T: Send> Send for Ptr<T> {}

/// The threads `send` steps tables on, started by the first `send`; each
/// takes the next queued table, steps it into its slot and reports it done.
struct Background {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
    slots: Vec<Slot>,
}

impl Background {
    fn new(tables: &mut Tables, cfg: &Config, lay: &ObsLayout, w: &Widths, threads: usize) -> Self {
        let shared = Arc::new(Shared::default());
        let mut slots: Vec<Slot> = (0..tables_len(tables)).map(|_| Slot::new(w)).collect();
        let handles = (0..threads)
            .map(|_| each!(tables, envs => spawn(&shared, envs, &mut slots, cfg, lay)))
            .collect();
        Background { shared, handles, slots }
    }
}

impl Drop for Background {
    /// Stop the threads (a table stepping finishes its step) and join them.
    fn drop(&mut self) {
        self.shared.lock().stop = true;
        self.shared.work.notify_all();
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

fn tables_len(tables: &Tables) -> usize {
    each!(tables, envs => envs.len())
}

/// One background thread over `envs` and their `slots`.
fn spawn<const W: usize>(
    shared: &Arc<Shared>,
    envs: &mut [Env<W>],
    slots: &mut [Slot],
    cfg: &Config,
    lay: &ObsLayout,
) -> JoinHandle<()> {
    let shared = Arc::clone(shared);
    let envs = Ptr(envs.as_mut_ptr());
    let slots = Ptr(slots.as_mut_ptr());
    let (cfg, lay) = (cfg.clone(), lay.clone());
    std::thread::spawn(move || loop {
        let (i, what) = {
            let mut q = shared.lock();
            loop {
                if q.stop {
                    return;
                }
                if let Some(job) = q.todo.pop_front() {
                    break job;
                }
                q = shared.work.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        // SAFETY: `send` checked i < n (the tables' and the slots' length)
        // and queued table i once; until `recv` takes its result nothing
        // else reaches table i or slot i (`Ptr`)
        let (env, slot) = unsafe { (&mut *envs.get().add(i), &mut *slots.get().add(i)) };
        let got = catch_unwind(AssertUnwindSafe(|| {
            let mut row = slot.row();
            match what {
                Do::Step(action) => env.step(&cfg, &lay, action, &mut row),
                Do::Reset => env.reset(&cfg, &lay, &mut row),
                Do::Skip => Ok(()),
            }
        }));
        let err = match got {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(e),
            Err(_) => Some(format!("table {i} failed (a panic in the native core)")),
        };
        shared.lock().done.push_back((i, err));
        shared.ready.notify_all();
    })
}

#[pymethods]
impl VectorCore {
    /// `table`: a flat table with its match fields; `n` tables; `settings`:
    /// what is fixed for them (`Settings`); `threads` to step them on.
    #[new]
    fn new(
        table: Bound<'_, PyDict>,
        n: usize,
        settings: Settings,
        threads: usize,
    ) -> PyResult<Self> {
        guard(|| {
            let Settings {
                seat,
                opponents,
                whole_match,
                reward,
                scale,
                illegal_reward,
                count_cap,
                score_scale,
                score_clip,
                record,
                scoring,
            } = settings;
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
            let reward = match reward.as_str() {
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
                record,
                scoring,
            };
            if threads == 0 || threads > MAX_THREADS {
                return Err(PyValueError::new_err(format!(
                    "threads must be 1 to {MAX_THREADS}, not {threads}"
                )));
            }
            let (tables, lay) = match t.words() {
                1 => built(t, &m, n, scoring).map(|(e, l)| (Tables::W1(e), l))?,
                2 => built(t, &m, n, scoring).map(|(e, l)| (Tables::W2(e), l))?,
                _ => built(t, &m, n, scoring).map(|(e, l)| (Tables::W3(e), l))?,
            };
            let mut actions = Vec::new();
            actions.try_reserve_exact(n).map_err(|_| too_many(n, 8))?;
            actions.resize(n, 0);
            Ok(VectorCore {
                background: None,
                stepping: vec![false; n],
                outstanding: 0,
                threads,
                tables,
                cfg,
                lay,
                n,
                pool: Some(Pool::new(threads.clamp(1, n.max(1)))),
                held: None,
                bufs: None,
                actions,
            })
        })
    }

    /// The most threads a vector of tables is stepped on.
    #[classattr]
    const MAX_THREADS: usize = MAX_THREADS;

    /// An estimate of the bytes a table of the flat `table` holds once it
    /// plays (`Env::bytes`), the arrays it writes into left out.
    #[staticmethod]
    fn table_bytes(table: Bound<'_, PyDict>) -> PyResult<usize> {
        guard(|| {
            let t = table_from_dict(&table)?;
            let err = |e: String| PyValueError::new_err(e);
            Ok(match t.words() {
                1 => Env::<1>::bytes(&KRules::<1>::new(t).map_err(err)?),
                2 => Env::<2>::bytes(&KRules::<2>::new(t).map_err(err)?),
                _ => Env::<3>::bytes(&KRules::<3>::new(t).map_err(err)?),
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
    /// (`arrays`: a dict of them by these names.)
    fn bind(&mut self, arrays: Arrays<'_>) -> PyResult<()> {
        let n = self.n;
        let w = self.widths();
        let rows = |width: usize, name: &str| {
            n.checked_mul(width)
                .ok_or_else(|| PyValueError::new_err(format!("{name}: too many items")))
        };
        let held = Held {
            obs: buffer(&arrays.obs, rows(w.size, "obs")?, "obs")?,
            mask: buffer(&arrays.mask, rows(w.actions, "mask")?, "mask")?,
            reward: buffer(&arrays.reward, n, "reward")?,
            terminated: buffer(&arrays.terminated, n, "terminated")?,
            truncated: buffer(&arrays.truncated, n, "truncated")?,
            seat: buffer(&arrays.seat, n, "seat")?,
            rewards: buffer(&arrays.rewards, rows(w.players, "rewards")?, "rewards")?,
            outcome: buffer(&arrays.outcome, n, "outcome")?,
            count: buffer(&arrays.count, n, "count")?,
            scores: buffer(&arrays.scores, rows(w.owners, "scores")?, "scores")?,
            settlement: buffer(&arrays.settlement, rows(w.owners, "settlement")?, "settlement")?,
            illegal: buffer(&arrays.illegal, n, "illegal")?,
        };
        let bufs = Bufs {
            obs: held.obs.buf_ptr().cast(),
            mask: held.mask.buf_ptr().cast(),
            reward: held.reward.buf_ptr().cast(),
            terminated: held.terminated.buf_ptr().cast(),
            truncated: held.truncated.buf_ptr().cast(),
            seat: held.seat.buf_ptr().cast(),
            rewards: held.rewards.buf_ptr().cast(),
            outcome: held.outcome.buf_ptr().cast(),
            count: held.count.buf_ptr().cast(),
            scores: held.scores.buf_ptr().cast(),
            settlement: held.settlement.buf_ptr().cast(),
            illegal: held.illegal.buf_ptr().cast(),
        };
        // the old arrays are let go only after the new ones are in place
        self.held = Some(held);
        self.bufs = Some(bufs);
        Ok(())
    }

    /// Seed table `i` (its next episode is its episode 0).
    fn seed(&mut self, i: usize, seed: u64) -> PyResult<()> {
        self.idle()?;
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

    /// Table `i` now (`table_state`): its hand, how it was dealt and the
    /// moves made; only when the tables keep their moves (`record`).
    fn table<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyDict>> {
        if i >= self.n {
            return Err(PyValueError::new_err(format!("no table {i}")));
        }
        if !self.cfg.record {
            return Err(PyValueError::new_err("the tables keep their moves only when recording"));
        }
        if self.stepping[i] {
            return Err(PyValueError::new_err(format!("table {i} is stepping: recv() it first")));
        }
        each!(&self.tables, envs => table_state(py, &envs[i]))
    }

    /// Stop and join the worker threads; a later step or reset is refused.
    fn close(&mut self, py: Python<'_>) {
        let pool = self.pool.take();
        let background = self.background.take();
        self.stepping.iter_mut().for_each(|s| *s = false);
        self.outstanding = 0;
        py.allow_threads(move || {
            drop(background);
            drop(pool);
        });
    }

    /// Queue tables to step in the background and return at once:
    /// `ids` (distinct tables, none still stepping) each take the action at
    /// its place in `actions`, or with `reset` start a new episode (then
    /// `actions` is empty). `recv` takes the results.
    fn send(&mut self, ids: Vec<usize>, actions: Vec<i64>, reset: bool) -> PyResult<()> {
        if self.pool.is_none() {
            return Err(PyValueError::new_err("the environment is closed"));
        }
        if self.bufs.is_none() {
            return Err(PyValueError::new_err("bind() the arrays first"));
        }
        if !reset && actions.len() != ids.len() {
            return Err(PyValueError::new_err(format!(
                "{} env ids and {} actions: one action per env id is needed",
                ids.len(),
                actions.len()
            )));
        }
        let mut seen = vec![false; self.n];
        for &i in &ids {
            if i >= self.n {
                return Err(PyValueError::new_err(format!(
                    "no table {i} (env ids are 0 to {})",
                    self.n - 1
                )));
            }
            if seen[i] {
                return Err(PyValueError::new_err(format!("table {i} is sent twice")));
            }
            if self.stepping[i] {
                return Err(PyValueError::new_err(format!(
                    "table {i} is still stepping: recv() its result before sending it again"
                )));
            }
            seen[i] = true;
        }
        if self.background.is_none() {
            let w = self.widths();
            let threads = self.threads.clamp(1, self.n.max(1));
            self.background =
                Some(Background::new(&mut self.tables, &self.cfg, &self.lay, &w, threads));
        }
        let Some(bg) = self.background.as_ref() else { unreachable!("started above") };
        {
            let mut q = bg.shared.lock();
            for (k, &i) in ids.iter().enumerate() {
                q.todo.push_back((i, if reset { Do::Reset } else { Do::Step(actions[k]) }));
                self.stepping[i] = true;
            }
        }
        self.outstanding += ids.len();
        bg.shared.work.notify_all();
        Ok(())
    }

    /// Wait (the GIL released) until `count` of the tables sent have
    /// finished, write their rows into the bound arrays and return their
    /// ids, in the order they finished.
    fn recv(&mut self, py: Python<'_>, count: usize) -> PyResult<Vec<usize>> {
        if count == 0 || count > self.outstanding {
            return Err(PyValueError::new_err(format!(
                "`batch_size` must be between 1 and the {} tables sent and not yet received, \
                 got {count}",
                self.outstanding
            )));
        }
        let bufs = self.bufs.ok_or_else(|| PyValueError::new_err("bind() the arrays first"))?;
        let Some(bg) = self.background.as_ref() else { unreachable!("tables are outstanding") };
        let shared = Arc::clone(&bg.shared);
        let got: Vec<(usize, Option<String>)> = py.allow_threads(move || {
            let mut q = shared.lock();
            while q.done.len() < count {
                q = shared.ready.wait(q).unwrap_or_else(|e| e.into_inner());
            }
            q.done.drain(..count).collect()
        });
        let w = self.widths();
        let mut failed = None;
        for (i, err) in &got {
            // SAFETY: i < n (checked by `send`); the arrays are bound (`bufs`)
            // and held; the GIL is held and no job runs, so no other `Row`
            // of i lives; table i finished, so no thread writes slot i
            unsafe { bg.slots[*i].copy_to(&bufs, *i, &w) };
            self.stepping[*i] = false;
            if failed.is_none() {
                failed.clone_from(err);
            }
        }
        self.outstanding -= got.len();
        match failed {
            Some(e) => Err(NativeError::new_err(e)),
            None => Ok(got.into_iter().map(|(i, _)| i).collect()),
        }
    }

    /// How many tables are sent and not yet received.
    #[getter]
    fn outstanding(&self) -> usize {
        self.outstanding
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
        // copied while the GIL is held: the caller's array may change once
        // it is released
        let mut acts = std::mem::take(&mut self.actions);
        let copied = buf.copy_to_slice(py, &mut acts);
        let got = copied.and_then(|()| self.run(py, &|i: usize| Do::Step(acts[i])));
        self.actions = acts;
        got
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

    /// An error while tables step in the background.
    fn idle(&self) -> PyResult<()> {
        if self.outstanding > 0 {
            return Err(PyValueError::new_err(format!(
                "{} tables are stepping in the background: recv() them first",
                self.outstanding
            )));
        }
        Ok(())
    }

    /// Step, reset or skip each table, as `what` says.
    fn run(&mut self, py: Python<'_>, what: &(dyn Fn(usize) -> Do + Sync)) -> PyResult<()> {
        self.idle()?;
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

impl Drop for VectorCore {
    /// The background threads go first: they step the tables.
    fn drop(&mut self) {
        self.background.take();
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<VectorCore>()?;
    Ok(())
}
