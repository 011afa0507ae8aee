//! The binding of the `ismcts` bot: `bones_native.Ismcts(flat_table)`,
//! built once per rule table, whose `search(...)` judges a seat's moves by
//! information-set tree search exactly as `IsmctsBot.python_search` does in
//! Python (the GIL is released while it runs).

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::bots::epimc::epimc;
use crate::bots::ismcts::{ismcts, Config, Root};
use crate::bots::rollouts::Policy;
use crate::bots::world::{NoWorld, View};
use crate::kernel::rng::Rng;
use crate::kernel::table::AnyRules;
use crate::kernel::table::Rules;
use crate::python::convert::guard;
use crate::python::convert::{attr, mask};
use crate::python::hand::hand_from_py;
use crate::python::rules::rules_from_dict;

/// (the best move, every legal move's visits and summed reward, iterations)
type Judged = (i64, Vec<f64>, Vec<f64>, usize);

/// What `Ismcts.search` returns to Python: the best move (None when no world
/// agrees with the view), visits, totals, the stream's new state, iterations.
type Answer = (Option<i64>, Vec<f64>, Vec<f64>, u64, usize);

/// The view the Python bot passes, checked.
#[allow(clippy::too_many_arguments)]
fn view_of<const W: usize>(
    rules: &Arc<Rules<W>>,
    layout: &Bound<'_, PyAny>,
    seat: usize,
    own: &Bound<'_, PyAny>,
    counts: Vec<usize>,
    unseen: &Bound<'_, PyAny>,
    limits: &[Vec<(Bound<'_, PyAny>, i64)>],
    legal: &[i64],
) -> PyResult<View<W>> {
    let size = rules.size;
    let players = rules.t.players;
    if seat >= players || counts.len() != players || limits.len() != players {
        return Err(PyValueError::new_err("the view's seats do not match the table"));
    }
    if legal.is_empty() {
        return Err(PyValueError::new_err("no legal moves to judge"));
    }
    let log: Vec<(i64, i64, i64)> = attr(layout, "log")?;
    let layout = hand_from_py(rules, layout)?;
    if layout.state != crate::kernel::moves::PLAYING {
        return Err(PyValueError::new_err("the hand is over"));
    }
    let mut lim = Vec::with_capacity(players);
    for caps in limits {
        let mut v = Vec::with_capacity(caps.len());
        for (m, cap) in caps {
            v.push((mask::<W>(m, size)?, *cap));
        }
        lim.push(v);
    }
    let view = View {
        seat,
        own: mask::<W>(own, size)?,
        counts,
        unseen: mask::<W>(unseen, size)?,
        limits: lim,
        layout,
        history: log.iter().map(|&(s, m, p)| (s as usize, m, p)).collect(),
    };
    if view.layout.turn != seat {
        return Err(PyValueError::new_err(format!("seat {seat} is not the one to move")));
    }
    let mut legal_ok = Vec::new();
    let mut check = view.layout.clone();
    check.hands[seat] = view.own;
    check.legal_moves_into(&mut legal_ok);
    // the candidates: the seat's legal moves in their order, or some of them
    // (one a group of twins, `bones.engine.mirror`)
    let mut at = legal_ok.iter();
    if legal.is_empty() || !legal.iter().all(|m| at.any(|x| x == m)) {
        return Err(PyValueError::new_err("the moves given are not the seat's legal moves"));
    }
    Ok(view)
}

#[allow(clippy::too_many_arguments)]
fn run<const W: usize>(
    py: Python<'_>,
    rules: &Arc<Rules<W>>,
    layout: &Bound<'_, PyAny>,
    seat: usize,
    own: &Bound<'_, PyAny>,
    counts: Vec<usize>,
    unseen: &Bound<'_, PyAny>,
    limits: &[Vec<(Bound<'_, PyAny>, i64)>],
    legal: &[i64],
    config: Config,
    rng: &mut Rng,
) -> PyResult<Option<Judged>> {
    let view = view_of(rules, layout, seat, own, counts, unseen, limits, legal)?;
    let found = py.allow_threads(|| guard(|| Ok(ismcts(&view, legal, &config, rng))))?;
    Ok(match found {
        Ok(f) => Some((f.best, f.visits, f.totals, f.iterations)),
        Err(NoWorld) => None,
    })
}

/// `EpimcBot.python_search` in the native core; None: no world agrees.
#[allow(clippy::too_many_arguments)]
fn run_epimc<const W: usize>(
    py: Python<'_>,
    rules: &Arc<Rules<W>>,
    layout: &Bound<'_, PyAny>,
    seat: usize,
    own: &Bound<'_, PyAny>,
    counts: Vec<usize>,
    unseen: &Bound<'_, PyAny>,
    limits: &[Vec<(Bound<'_, PyAny>, i64)>],
    legal: &[i64],
    (iterations, solve, infer): (usize, usize, f64),
    rng: &mut Rng,
) -> PyResult<Option<(i64, Vec<f64>, f64)>> {
    let view = view_of(rules, layout, seat, own, counts, unseen, limits, legal)?;
    if !view.solvable(solve) {
        return Err(PyValueError::new_err("the position cannot be solved exactly"));
    }
    let found = py.allow_threads(|| guard(|| Ok(epimc(&view, legal, iterations, infer, rng))))?;
    Ok(match found {
        Ok(f) => Some((f.best, f.totals, f.weight)),
        Err(NoWorld) => None,
    })
}

/// The ismcts bot's native half for one rule table.
#[pyclass(module = "bones_native", frozen)]
struct Ismcts {
    inner: AnyRules,
}

#[pymethods]
impl Ismcts {
    #[new]
    fn new(table: &Bound<'_, PyDict>) -> PyResult<Self> {
        guard(|| Ok(Ismcts { inner: rules_from_dict(table)? }))
    }

    /// `IsmctsBot.python_search` for seat `seat` of the layout `layout` (as
    /// `Searcher.search` takes it), its legal moves `legal` (all of them, in
    /// the engine's order), drawing from the stream at `state`. Returns
    /// `(best move, visits, totals, the stream's new state, iterations)`;
    /// the move is None when no world agrees with the view. `even`: the
    /// root's moves in turn (`ismcts::Root::Even`, the analysis's judgement)
    /// instead of the upper confidence bound; the best is then the best mean.
    #[pyo3(signature = (layout, seat, own, counts, unseen, limits, legal, iterations, seconds,
                        policy, explore, scale, solve, infer, worlds, depth, state, even=false))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        layout: &Bound<'_, PyAny>,
        seat: usize,
        own: &Bound<'_, PyAny>,
        counts: Vec<usize>,
        unseen: &Bound<'_, PyAny>,
        limits: Vec<Vec<(Bound<'_, PyAny>, i64)>>,
        legal: Vec<i64>,
        iterations: usize,
        seconds: f64,
        policy: &str,
        explore: f64,
        scale: f64,
        solve: usize,
        infer: f64,
        worlds: usize,
        depth: usize,
        state: u64,
        even: bool,
    ) -> PyResult<Answer> {
        let policy = Policy::from_name(policy)
            .ok_or_else(|| PyValueError::new_err(format!("no playout policy {policy:?}")))?;
        let bad = |x: f64, low: f64| x.is_nan() || x < low;
        if iterations < 1
            || bad(seconds, 0.0)
            || bad(explore, 0.0)
            || bad(scale, 0.0)
            || scale == 0.0
        {
            return Err(PyValueError::new_err(
                "a search needs an iteration, a time of 0 or more, exploration of 0 or more \
                 and a positive scale",
            ));
        }
        let deadline = if seconds > 0.0 {
            Some(std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds.min(1e6)))
        } else {
            None
        };
        let root = if even { Root::Even } else { Root::Bound };
        let config = Config {
            iterations,
            deadline,
            policy,
            explore,
            scale,
            solve,
            infer,
            worlds,
            depth,
            root,
        };
        let mut rng = Rng::new(state);
        let got = guard(|| match &self.inner {
            AnyRules::W1(r) => {
                run(py, r, layout, seat, own, counts, unseen, &limits, &legal, config, &mut rng)
            }
            AnyRules::W2(r) => {
                run(py, r, layout, seat, own, counts, unseen, &limits, &legal, config, &mut rng)
            }
            AnyRules::W3(r) => {
                run(py, r, layout, seat, own, counts, unseen, &limits, &legal, config, &mut rng)
            }
        })?;
        Ok(match got {
            Some((best, visits, totals, done)) => (Some(best), visits, totals, rng.state, done),
            None => (None, Vec::new(), Vec::new(), rng.state, 0),
        })
    }
}

#[pymethods]
impl Epimc {
    #[new]
    fn new(table: &Bound<'_, PyDict>) -> PyResult<Self> {
        Ok(Epimc { inner: Ismcts::new(table)?.inner })
    }

    /// `EpimcBot.python_search` for a position every world of which can be
    /// solved exactly (the arguments as `Ismcts.search` takes them). Returns
    /// `(best move, totals, the stream's new state, the sum of the worlds'
    /// weights)`; the move is None when no world agrees with the view.
    #[pyo3(signature = (layout, seat, own, counts, unseen, limits, legal, iterations, solve,
                        infer, state))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        layout: &Bound<'_, PyAny>,
        seat: usize,
        own: &Bound<'_, PyAny>,
        counts: Vec<usize>,
        unseen: &Bound<'_, PyAny>,
        limits: Vec<Vec<(Bound<'_, PyAny>, i64)>>,
        legal: Vec<i64>,
        iterations: usize,
        solve: usize,
        infer: f64,
        state: u64,
    ) -> PyResult<(Option<i64>, Vec<f64>, u64, f64)> {
        if iterations < 1 || infer.is_nan() || infer < 0.0 {
            return Err(PyValueError::new_err(
                "a search needs a world and an inference of 0 or more",
            ));
        }
        let knobs = (iterations, solve, infer);
        let mut rng = Rng::new(state);
        let got = guard(|| match &self.inner {
            AnyRules::W1(r) => run_epimc(
                py, r, layout, seat, own, counts, unseen, &limits, &legal, knobs, &mut rng,
            ),
            AnyRules::W2(r) => run_epimc(
                py, r, layout, seat, own, counts, unseen, &limits, &legal, knobs, &mut rng,
            ),
            AnyRules::W3(r) => run_epimc(
                py, r, layout, seat, own, counts, unseen, &limits, &legal, knobs, &mut rng,
            ),
        })?;
        Ok(match got {
            Some((best, totals, weight)) => (Some(best), totals, rng.state, weight),
            None => (None, Vec::new(), rng.state, 0.0),
        })
    }
}

/// The epimc bot's native half for one rule table.
#[pyclass(module = "bones_native", frozen)]
struct Epimc {
    inner: AnyRules,
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Ismcts>()?;
    m.add_class::<Epimc>()
}
