//! The binding of the `search` bot: `bones_native.Searcher(flat_table)`,
//! built once per rule table, whose `search(...)` judges a seat's moves over
//! sampled worlds exactly as `SearchBot.values` does in Python (the GIL is
//! released while it runs).

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::bots::matchvalue::MatchTable;
use crate::bots::rollouts::Policy;
use crate::bots::search::{search, Budget};
use crate::bots::world::{NoWorld, View};
use crate::kernel::rng::Rng;
use crate::kernel::table::{AnyRules, Rules};
use crate::python::convert::{attr, guard, mask};
use crate::python::hand::hand_from_py;
use crate::python::rules::rules_from_dict;

/// A judged position: (the best move, every legal move's weighted total,
/// worlds sampled, the sum of their weights).
type Judged = (i64, Vec<f64>, usize, f64);

/// What `Searcher.search` returns to Python: the best move (None when no
/// world agrees with the view), the totals, the stream's new state, worlds
/// sampled and the sum of their weights.
type SearchAnswer = (Option<i64>, Vec<f64>, u64, usize, f64);

// the arguments of `Search.search` as Python passes them, each converted here once
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
    budget: Budget,
    rng: &mut Rng,
) -> PyResult<Option<Judged>> {
    // None: no world agrees with the view (the stream has moved on as in Python)
    let size = rules.size;
    let players = rules.t.players;
    if seat >= players || counts.len() != players || limits.len() != players {
        return Err(PyValueError::new_err("the view's seats do not match the table"));
    }
    if legal.is_empty() {
        return Err(PyValueError::new_err("no legal moves to judge"));
    }
    let layout_py = layout;
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
    let log: Vec<(i64, i64, i64)> = attr(layout_py, "log")?;
    let history = log.iter().map(|&(s, m, p)| (s as usize, m, p)).collect();
    let view = View {
        seat,
        own: mask::<W>(own, size)?,
        counts,
        unseen: mask::<W>(unseen, size)?,
        limits: lim,
        layout,
        history,
    };
    if view.layout.turn != seat {
        return Err(PyValueError::new_err(format!("seat {seat} is not the one to move")));
    }
    let mut legal_ok = Vec::new();
    let mut check = view.layout.clone();
    check.hands[seat] = view.own;
    check.legal_moves_into(&mut legal_ok);
    if let Some(&bad) = legal.iter().find(|m| !legal_ok.contains(m)) {
        return Err(PyValueError::new_err(format!("move {bad} is not legal here")));
    }
    let found = py.allow_threads(|| guard(|| Ok(search(&view, legal, &budget, rng))))?;
    Ok(match found {
        Ok(f) => Some((f.best, f.totals, f.iterations, f.weight)),
        Err(NoWorld) => None,
    })
}

/// The search bot's native half for one rule table.
#[pyclass(module = "bones_native", frozen)]
struct Searcher {
    inner: AnyRules,
}

#[pymethods]
impl Searcher {
    #[new]
    fn new(table: &Bound<'_, PyDict>) -> PyResult<Self> {
        guard(|| Ok(Searcher { inner: rules_from_dict(table)? }))
    }

    /// `SearchBot.values` for seat `seat` of the layout `layout` (a Python
    /// `Hand` with the hidden tiles scrubbed, as `Observation.layout`), its
    /// own tiles `own`, tile counts `counts`, unseen tiles `unseen` and void
    /// bounds `limits` (`Observation.limits()`), drawing from the stream at
    /// `state`. Returns `(best move, totals, the stream's new state, worlds
    /// sampled, the sum of their weights)`; the move is None when no world
    /// agrees with the view. `solve`, `infer` and `threads` are the
    /// budget's (see `search::Budget`); `table`, `(step, cells, values)`,
    /// is the match objective's (`matchvalue::MatchTable`, None: points).
    #[pyo3(signature = (layout, seat, own, counts, unseen, limits, legal, iterations, rollouts,
                        policy, seconds, state, solve=0, infer=0.0, threads=1, table=None))]
    // the signature the Python search bot calls: one argument a field
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
        rollouts: usize,
        policy: &str,
        seconds: f64,
        state: u64,
        solve: usize,
        infer: f64,
        threads: usize,
        table: Option<(i64, usize, Vec<i64>)>,
    ) -> PyResult<SearchAnswer> {
        let policy = Policy::from_name(policy)
            .ok_or_else(|| PyValueError::new_err(format!("no rollout policy {policy:?}")))?;
        if iterations < 1
            || rollouts < 1
            || seconds.is_nan()
            || seconds < 0.0
            || infer.is_nan()
            || infer < 0.0
            || threads < 1
        {
            return Err(PyValueError::new_err(
                "a search needs at least one world, one rollout and one thread",
            ));
        }
        let deadline = if seconds > 0.0 {
            Some(std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds.min(1e6)))
        } else {
            None
        };
        let table = match table {
            Some((step, cells, values)) => {
                Some(Arc::new(MatchTable::new(step, cells, values).map_err(PyValueError::new_err)?))
            }
            None => None,
        };
        let budget = Budget {
            threads,
            table,
            ..Budget::new(iterations, rollouts, policy, deadline, solve, infer)
        };
        let mut rng = Rng::new(state);
        let got = guard(|| match &self.inner {
            AnyRules::W1(r) => {
                run(py, r, layout, seat, own, counts, unseen, &limits, &legal, budget, &mut rng)
            }
            AnyRules::W2(r) => {
                run(py, r, layout, seat, own, counts, unseen, &limits, &legal, budget, &mut rng)
            }
            AnyRules::W3(r) => {
                run(py, r, layout, seat, own, counts, unseen, &limits, &legal, budget, &mut rng)
            }
        })?;
        Ok(match got {
            Some((best, totals, done, weight)) => (Some(best), totals, rng.state, done, weight),
            None => (None, Vec::new(), rng.state, 0, 0.0),
        })
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Searcher>()
}
