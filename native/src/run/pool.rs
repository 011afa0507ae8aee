//! A persistent pool of worker threads for `bones.adapters.vector`, made
//! once per vector of tables: a job over `n` tables costs two wake-ups, not
//! a thread start per worker.
//!
//! The tables are split into one slice per thread (the calling thread and
//! each worker), cut into blocks. A thread steps the blocks of its own slice
//! first (so on an idle machine each table stays on one core, its memory in
//! that core's cache) and then takes the blocks of the other slices that
//! are still unclaimed: a worker the scheduler has not run yet (a loaded
//! machine) delays nothing, the caller steps its slice itself. Which thread
//! steps a table never changes what the table does: each owns its state.
//!
//! A worker waiting for work spins for a short while (a learner's next step
//! usually follows within microseconds), then parks. A worker that wakes
//! after the job was finished without it leaves it alone (`open`). Dropping
//! the pool stops and joins every worker: no thread outlives it.
//!
//! Beyond the unit tests, a `loom` model (the tests built with `--cfg
//! loom`, which swaps the threads, atomics and locks below for loom's) checks every
//! interleaving of a few jobs on two and three threads: each table stepped
//! once a job, every step visible to the caller when `run` returns, no lost
//! wake-up, and the workers joined (docs/development.md).

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};

#[cfg(all(test, loom))]
use loom::sync::{
    atomic::{fence, AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering},
    Arc, Mutex,
};
#[cfg(all(test, loom))]
use model_thread::{self as thread, JoinHandle, Thread};
#[cfg(not(all(test, loom)))]
use std::{
    sync::atomic::{fence, AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering},
    sync::{Arc, Mutex},
    thread::{self, JoinHandle, Thread},
    time::{Duration, Instant},
};

/// How long a waiting thread spins before it parks.
#[cfg(not(all(test, loom)))]
const SPIN: Duration = Duration::from_micros(100);

/// Blocks per slice: enough for the threads to even out, few enough that
/// claiming one (an atomic add) costs nothing beside stepping its tables.
const BLOCKS: usize = 8;

/// A job: step the tables of a range.
type Job = dyn Fn(Range<usize>) + Sync;

/// One job, on the caller's stack while it runs.
struct Task {
    job: &'static Job,
    n: usize,
    /// tables per slice, and per block
    per: usize,
    block: usize,
}

/// Its own cache line, so the threads' cursors do not share one.
#[repr(align(128))]
struct Cursor(AtomicUsize);

struct Shared {
    /// bumped once per job; a worker looks for work when it changes
    epoch: AtomicU64,
    /// the epoch of the job running now, 0 once its caller closed it
    open: AtomicU64,
    /// workers that may be touching the current job
    active: AtomicUsize,
    task: AtomicPtr<Task>,
    /// per slice: its next unclaimed table
    cursors: Vec<Cursor>,
    /// the thread waiting for the current job
    caller: Mutex<Option<Thread>>,
    /// a worker's block panicked
    panicked: AtomicBool,
    stop: AtomicBool,
}

/// Spin until `ready()` for up to `SPIN`, then park until it is. After the
/// first few hundred turns the spin yields the core at each turn: on an idle
/// machine that returns at once, on a loaded one it lets another thread run
/// (the other thread of this job among them) instead of burning its time.
#[cfg(not(all(test, loom)))]
fn wait(ready: impl Fn() -> bool) {
    let start = Instant::now();
    let mut spins = 0u32;
    while !ready() {
        spins = spins.wrapping_add(1);
        if spins < 256 {
            std::hint::spin_loop();
            continue;
        }
        if start.elapsed() > SPIN {
            while !ready() {
                thread::park();
            }
            return;
        }
        thread::yield_now();
    }
}

/// `wait` in the model: a turn of spinning (where the model may run
/// another thread), then parked until `ready()`, as after `SPIN`; the model
/// has no clock, and its `park` never returns without an `unpark`, so a
/// lost wake-up is a deadlock it reports.
#[cfg(all(test, loom))]
fn wait(ready: impl Fn() -> bool) {
    if ready() {
        return;
    }
    thread::yield_now();
    while !ready() {
        thread::park();
    }
}

/// Step blocks until none is left: `me`'s own slice first, then the others'.
fn drain(s: &Shared, task: &Task, me: usize) {
    let parts = s.cursors.len();
    for k in (0..parts).map(|k| (me + k) % parts) {
        let end = ((k + 1) * task.per).min(task.n);
        loop {
            let start = s.cursors[k].0.fetch_add(task.block, Ordering::Relaxed);
            if start >= end {
                break;
            }
            (task.job)(start..(start + task.block).min(end));
        }
    }
}

/// `threads - 1` workers; the caller is the other thread.
pub struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl Pool {
    pub fn new(threads: usize) -> Pool {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            open: AtomicU64::new(0),
            active: AtomicUsize::new(0),
            task: AtomicPtr::new(std::ptr::null_mut()),
            cursors: (0..threads).map(|_| Cursor(AtomicUsize::new(0))).collect(),
            caller: Mutex::new(None),
            panicked: AtomicBool::new(false),
            stop: AtomicBool::new(false),
        });
        let workers = (1..threads)
            .map(|me| {
                let shared = Arc::clone(&shared);
                thread::Builder::new()
                    .name(format!("bones-vector-{me}"))
                    .spawn(move || work(&shared, me))
                    .expect("a vector environment's worker thread")
            })
            .collect();
        Pool { shared, workers }
    }

    /// The threads a job runs on (the workers and the caller).
    pub fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Run `job` over ranges covering `0..n`, each index in exactly one
    /// range, and return once every range is done; Err if a worker's range
    /// panicked (a panic in the caller's own range unwinds from here, after
    /// the workers let go of the job).
    pub fn run<'a>(
        &self,
        n: usize,
        job: &'a (dyn Fn(Range<usize>) + Sync + 'a),
    ) -> Result<(), String> {
        let s = &*self.shared;
        let threads = self.threads();
        if threads == 1 || n < 2 {
            job(0..n);
            return Ok(());
        }
        let per = n.div_ceil(threads);
        // SAFETY: only the lifetime is changed (the same fat pointer), and
        // the erased lifetime is never outlived: a worker reaches the job
        // only through `task`, and only while it is counted in `active` and
        // found the job open (`open` == its epoch); this function closes
        // the job (`open` = 0) and waits for `active` to reach 0 before it
        // returns, and unwinds only after that (the caller's own panic is
        // caught and resumed below), so no thread holds `job` once `'a` ends
        let job = unsafe {
            std::mem::transmute::<&'a (dyn Fn(Range<usize>) + Sync + 'a), &'static Job>(job)
        };
        let mut task = Task { job, n, per, block: per.div_ceil(BLOCKS).max(1) };
        for (k, c) in s.cursors.iter().enumerate() {
            c.0.store(k * per, Ordering::Relaxed);
        }
        *s.caller.lock().unwrap_or_else(|e| e.into_inner()) = Some(thread::current());
        s.panicked.store(false, Ordering::Relaxed);
        s.task.store(&mut task, Ordering::Release);
        let epoch = s.epoch.load(Ordering::Relaxed) + 1;
        s.open.store(epoch, Ordering::SeqCst);
        s.epoch.store(epoch, Ordering::Release);
        for w in &self.workers {
            w.thread().unpark();
        }
        let mine = catch_unwind(AssertUnwindSafe(|| drain(s, &task, 0)));
        s.open.store(0, Ordering::SeqCst);
        // closing the job, then reading `active`, against a worker counting
        // itself, then reading `open`: a fence on each side, so at least one
        // of the two sees the other (the caller waits, or the worker stays out)
        fence(Ordering::SeqCst);
        wait(|| s.active.load(Ordering::SeqCst) == 0);
        s.task.store(std::ptr::null_mut(), Ordering::Relaxed);
        if let Err(p) = mine {
            std::panic::resume_unwind(p);
        }
        if s.panicked.load(Ordering::Relaxed) {
            return Err("a stepping thread panicked".into());
        }
        Ok(())
    }
}

fn work(s: &Shared, me: usize) {
    let mut seen = 0u64;
    loop {
        wait(|| s.epoch.load(Ordering::Acquire) != seen);
        seen = s.epoch.load(Ordering::Acquire);
        if s.stop.load(Ordering::Acquire) {
            return;
        }
        s.active.fetch_add(1, Ordering::SeqCst);
        fence(Ordering::SeqCst); // the other side of `run`'s fence
                                 // still open: the caller waits for this worker before it returns
        if s.open.load(Ordering::SeqCst) == seen {
            // SAFETY: `task` points to the `Task` on the stack of `run`,
            // stored (Release) before `open` and `epoch` were set to this
            // job's epoch, which this thread read (SeqCst/Acquire) after
            // counting itself in `active`; `run` keeps that `Task` alive and
            // unmoved until `active` is back to 0, so it outlives this borrow
            let task = unsafe { &*s.task.load(Ordering::Acquire) };
            if catch_unwind(AssertUnwindSafe(|| drain(s, task, me))).is_err() {
                s.panicked.store(true, Ordering::Relaxed);
            }
        }
        if s.active.fetch_sub(1, Ordering::SeqCst) == 1 {
            // the caller may have gone on to a later job: an extra unpark
            // only wakes a wait that checks its condition again
            if let Some(t) = &*s.caller.lock().unwrap_or_else(|e| e.into_inner()) {
                t.unpark();
            }
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        self.shared.epoch.fetch_add(1, Ordering::Release);
        for w in self.workers.drain(..) {
            w.thread().unpark();
            // a block's panic was caught in `work`: join fails only if the
            // loop itself panicked, which leaves nothing to clean up
            let _ = w.join();
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    /// Every index of `0..n` stepped exactly once per job.
    fn check(pool: &Pool, n: usize, jobs: usize) {
        let counts: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
        for _ in 0..jobs {
            pool.run(n, &|r: Range<usize>| {
                for i in r {
                    counts[i].fetch_add(1, Ordering::Relaxed);
                }
            })
            .unwrap();
        }
        assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == jobs), "n = {n}");
    }

    #[test]
    fn every_table_is_stepped_once_per_job() {
        for threads in 1..=4 {
            let pool = Pool::new(threads);
            assert_eq!(pool.threads(), threads);
            for n in [0, 1, 2, 3, 7, 17, 64, 1000] {
                check(&pool, n, 200);
            }
        }
    }

    #[test]
    fn a_job_after_the_workers_parked_still_runs() {
        let pool = Pool::new(2);
        for _ in 0..3 {
            // longer than the spin: the worker is parked when the job comes
            thread::sleep(SPIN * 4);
            check(&pool, 64, 1);
        }
    }

    #[test]
    fn the_caller_steps_the_slice_of_a_worker_that_is_held() {
        let pool = Pool::new(2);
        // a worker's block (4 tables) waits until the caller has stepped
        // the 60 others, the worker's own slice included
        let released = AtomicBool::new(false);
        let by_caller = AtomicUsize::new(0);
        let me = thread::current().id();
        pool.run(64, &|r: Range<usize>| {
            if thread::current().id() != me {
                while !released.load(Ordering::Acquire) {
                    std::hint::spin_loop();
                }
                return;
            }
            if by_caller.fetch_add(r.len(), Ordering::Relaxed) + r.len() >= 60 {
                released.store(true, Ordering::Release);
            }
        })
        .unwrap();
        assert!(by_caller.load(Ordering::Relaxed) >= 60);
        check(&pool, 64, 10);
    }

    #[test]
    fn a_worker_panic_is_an_error_and_the_pool_goes_on() {
        let pool = Pool::new(2);
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let me = thread::current().id();
        let entered = AtomicBool::new(false);
        // one table per slice: the caller holds table 0 until the worker has
        // taken table 1 (its own slice's first)
        let out = pool.run(2, &|_| {
            if thread::current().id() != me {
                entered.store(true, Ordering::Release);
                panic!("a worker's block");
            }
            while !entered.load(Ordering::Acquire) {
                std::hint::spin_loop();
            }
        });
        std::panic::set_hook(hook);
        assert_eq!(out, Err("a stepping thread panicked".to_string()));
        check(&pool, 17, 10);
    }

    #[test]
    fn drop_joins_every_worker() {
        let pool = Pool::new(4);
        let shared = Arc::clone(&pool.shared);
        check(&pool, 10, 1);
        assert_eq!(Arc::strong_count(&shared), 5);
        drop(pool);
        // every worker's clone is gone: each thread returned and was joined
        assert_eq!(Arc::strong_count(&shared), 1);
    }
}

/// The model's threads: loom's, each parked on a token of its own (a loom
/// mutex and condition variable) as `std::thread::park` is, so an unpark
/// that finds the thread busy, or blocked in a join or a lock, is kept for
/// its next park, as std keeps it (a worker unparks a caller that may have
/// gone on: loom's own `park` would wake the thread out of the join or the
/// lock, which loom does not allow).
#[cfg(all(test, loom))]
mod model_thread {
    use loom::sync::{Arc, Condvar, Mutex};
    use std::cell::RefCell;

    pub(super) use loom::thread::yield_now;

    #[derive(Clone)]
    pub(super) struct Thread(Arc<(Mutex<bool>, Condvar)>);

    impl Thread {
        fn new() -> Thread {
            Thread(Arc::new((Mutex::new(false), Condvar::new())))
        }

        pub(super) fn unpark(&self) {
            let (token, cv) = &*self.0;
            *token.lock().unwrap() = true;
            cv.notify_one();
        }

        fn park(&self) {
            let (token, cv) = &*self.0;
            let mut set = token.lock().unwrap();
            while !*set {
                set = cv.wait(set).unwrap();
            }
            *set = false;
        }
    }

    loom::thread_local! {
        static CURRENT: RefCell<Option<Thread>> = RefCell::new(None);
    }

    pub(super) fn current() -> Thread {
        CURRENT.with(|c| c.borrow_mut().get_or_insert_with(Thread::new).clone())
    }

    pub(super) fn park() {
        current().park();
    }

    pub(super) struct JoinHandle<T> {
        inner: loom::thread::JoinHandle<T>,
        thread: Thread,
    }

    impl<T> JoinHandle<T> {
        pub(super) fn thread(&self) -> &Thread {
            &self.thread
        }

        pub(super) fn join(self) -> std::thread::Result<T> {
            self.inner.join()
        }
    }

    pub(super) struct Builder;

    impl Builder {
        pub(super) fn new() -> Builder {
            Builder
        }

        pub(super) fn name(self, _: String) -> Builder {
            self
        }

        pub(super) fn spawn<F, T>(self, f: F) -> std::io::Result<JoinHandle<T>>
        where
            F: FnOnce() -> T + 'static,
            T: 'static,
        {
            let thread = Thread::new();
            let own = thread.clone();
            let inner = loom::thread::spawn(move || {
                CURRENT.with(|c| *c.borrow_mut() = Some(own));
                f()
            });
            Ok(JoinHandle { inner, thread })
        }
    }
}

/// The model: `RUSTFLAGS="--cfg loom" cargo test --release --no-default-features loom`.
#[cfg(all(test, loom))]
mod loom_model {
    use super::*;
    use loom::cell::UnsafeCell;

    /// One cell a table, stepped by the job: loom reports two accesses to
    /// one cell that no happens-before orders (a table stepped by two
    /// threads at once, or read by the caller before a worker's step is
    /// visible to it).
    struct Tables(Vec<UnsafeCell<usize>>);

    // SAFETY: the cells are loom's, which check every access: a concurrent
    // one fails the model instead of racing
    unsafe impl Sync for Tables {}

    impl Tables {
        fn new(n: usize) -> Tables {
            Tables((0..n).map(|_| UnsafeCell::new(0)).collect())
        }

        /// A job: each table of the range stepped once.
        fn step(&self, r: Range<usize>) {
            for i in r {
                // SAFETY: loom checks that no other thread reaches cell i meanwhile
                self.0[i].with_mut(|v| unsafe { *v += 1 });
            }
        }

        /// Every table stepped `jobs` times, as the caller sees them now.
        fn check(&self, jobs: usize) {
            for c in &self.0 {
                // SAFETY: loom checks that every step happened before this read
                c.with(|v| assert_eq!(unsafe { *v }, jobs));
            }
        }
    }

    /// Jobs of `n` tables on a pool of `threads`, then the pool dropped.
    fn jobs(threads: usize, n: usize, jobs: usize) {
        let pool = Pool::new(threads);
        let tables = Tables::new(n);
        for done in 1..=jobs {
            pool.run(n, &|r| tables.step(r)).unwrap();
            tables.check(done);
        }
        drop(pool);
    }

    /// `f` under every interleaving loom finds with at most `preemptions`
    /// preemptions a run (its advice for models of this size; the model's
    /// threads also switch wherever they wait).
    fn model(preemptions: usize, f: impl Fn() + Sync + Send + 'static) {
        let mut model = loom::model::Builder::new();
        model.preemption_bound = Some(preemptions);
        model.check(f);
    }

    #[test]
    fn loom_two_jobs_on_two_threads() {
        // a worker may wake before, during or after either job: a late one
        // must leave a closed job alone and take the next
        model(3, || jobs(2, 2, 2));
    }

    #[test]
    fn loom_one_job_on_three_threads() {
        model(2, || jobs(3, 3, 1));
    }
}
