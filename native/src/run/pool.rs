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

use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle, Thread};
use std::time::{Duration, Instant};

/// How long a waiting thread spins before it parks.
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

#[cfg(test)]
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
