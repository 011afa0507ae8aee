//! The binding of the `ismcts` and `epimc` bots: `bones_native.Ismcts(flat_table)`
//! and `bones_native.Epimc(flat_table)`, built once per rule table, whose
//! `search(observation, legal, settings, state, ...)` judges a seat's moves
//! exactly as `IsmctsBot.python_search` and `EpimcBot.python_search` do in
//! Python (the GIL is released while they run); and
//! `bones_native.TreeSettings`, the tree's settings read once into an
//! `ismcts::Config`.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::bots::epimc::{epimc, Found as EpimcFound};
use crate::bots::ismcts::{ismcts, Config, Found, Root};
use crate::bots::search::Budget;
use crate::bots::world::{NoWorld, View};
use crate::kernel::rng::Rng;
use crate::kernel::table::{AnyRules, Rules};
use crate::python::convert::guard;
use crate::python::rules::rules_from_dict;
use crate::python::search::{deadline, stop_of, view_of, Fields, PyStop, SearchSettings};
use crate::with_rules;

/// What `Ismcts.search` returns to Python: the best move (None when no world
/// agrees with the view), visits, totals, the stream's new state,
/// iterations, and whether its stop ended it.
type Answer = (Option<i64>, Vec<f64>, Vec<f64>, u64, usize, bool);

/// What `Epimc.search` returns to Python: the best move (None when no world
/// agrees with the view), totals, the stream's new state, the sum of the
/// worlds' weights, and whether its stop ended it.
type EpimcAnswer = (Option<i64>, Vec<f64>, u64, f64, bool);

/// `bones.bots.settings.TreeSettings` in the native core: the configuration
/// of every tree grown with it, but the deadline and the root's rule, which
/// each call sets.
#[pyclass(module = "bones_native", name = "TreeSettings", frozen)]
pub(crate) struct TreeSettings {
    pub(crate) config: Config,
    pub(crate) seconds: f64,
}

#[pymethods]
impl TreeSettings {
    /// The settings from the fields of a `bones.bots.settings.TreeSettings`
    /// (`dataclasses.asdict`).
    #[new]
    fn new(fields: &Bound<'_, PyDict>) -> PyResult<Self> {
        let f = Fields::of(
            fields,
            &[
                "iterations",
                "seconds",
                "policy",
                "explore",
                "scale",
                "solve",
                "infer",
                "worlds",
                "depth",
                "nodes",
                "threads",
                "prior",
                "draws",
            ],
            "the tree settings",
        )?;
        let iterations: usize = f.get("iterations")?;
        let (seconds, explore, scale, prior): (f64, f64, f64, f64) =
            (f.get("seconds")?, f.get("explore")?, f.get("scale")?, f.get("prior")?);
        let bad = |x: f64, low: f64| x.is_nan() || x < low;
        if iterations < 1
            || bad(seconds, 0.0)
            || bad(explore, 0.0)
            || bad(prior, 0.0)
            || bad(scale, 0.0)
        {
            return Err(PyValueError::new_err(
                "a search needs an iteration, a time of 0 or more, exploration of 0 or more \
                 and a scale of 0 or more (0: the rules'; a prior of 0 or more)",
            ));
        }
        let config = Config {
            iterations,
            deadline: None,
            policy: f.policy()?,
            explore,
            prior,
            scale,
            solve: f.get("solve")?,
            infer: f.get("infer")?,
            worlds: f.get("worlds")?,
            draws: f.get("draws")?,
            depth: f.get("depth")?,
            root: Root::Bound,
            trees: f.get::<usize>("threads")?.max(1),
            first: 0,
            nodes: f.get("nodes")?,
            stop: Default::default(),
        };
        Ok(TreeSettings { config, seconds })
    }

    fn __repr__(&self) -> String {
        format!("TreeSettings({:?}, seconds={})", self.config, self.seconds)
    }
}

impl TreeSettings {
    /// The configuration of one search call: these settings with the call's
    /// deadline, its root's rule (`even`: the moves in turn, the analysis's
    /// judgement; else the upper confidence bound) and its stop.
    pub(crate) fn call(&self, even: bool, stop: Option<PyRef<'_, PyStop>>) -> Config {
        Config {
            deadline: deadline(self.seconds),
            root: if even { Root::Even } else { Root::Bound },
            stop: stop_of(stop),
            ..self.config.clone()
        }
    }
}

/// `view`, when `legal` is every legal move of its seat in the engine's
/// order (epimc's sets need them all), or with `some`, some of them in that
/// order (the tree's root: one candidate a group of twins,
/// `bones.engine.mirror`).
fn legal_moves<const W: usize>(view: View<W>, legal: &[i64], some: bool) -> PyResult<View<W>> {
    let mut every = Vec::new();
    let mut check = view.layout.clone();
    check.hands[view.seat] = view.own;
    check.legal_moves_into(&mut every);
    let mut at = every.iter();
    let fits = if some {
        !legal.is_empty() && legal.iter().all(|m| at.any(|x| x == m))
    } else {
        every == legal
    };
    if !fits {
        return Err(PyValueError::new_err("the moves given are not the seat's legal moves"));
    }
    Ok(view)
}

/// The tree of `observation`'s seat under `rules`, the GIL released; None:
/// no world agrees.
fn run<const W: usize>(
    rules: &Arc<Rules<W>>,
    observation: &Bound<'_, PyAny>,
    legal: &[i64],
    config: &Config,
    rng: &mut Rng,
) -> PyResult<Option<Found>> {
    let view = legal_moves(view_of(rules, observation, legal)?, legal, true)?;
    let py = observation.py();
    let found = py.allow_threads(|| guard(|| Ok(ismcts(&view, legal, config, rng))))?;
    Ok(found.map_err(|NoWorld| ()).ok())
}

/// `EpimcBot.python_search` in the native core, watching the budget's stop;
/// None: no world agrees.
fn run_epimc<const W: usize>(
    rules: &Arc<Rules<W>>,
    observation: &Bound<'_, PyAny>,
    legal: &[i64],
    budget: &Budget,
    rng: &mut Rng,
) -> PyResult<Option<EpimcFound>> {
    let view = legal_moves(view_of(rules, observation, legal)?, legal, false)?;
    if !view.solvable(budget.solve) {
        return Err(PyValueError::new_err("the position cannot be solved exactly"));
    }
    let py = observation.py();
    let found = py.allow_threads(|| guard(|| Ok(epimc(&view, legal, budget, rng))))?;
    Ok(found.map_err(|NoWorld| ()).ok())
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

    /// `IsmctsBot.python_search` for the seat to move of `observation` (as
    /// `Searcher.search` takes it), its legal moves `legal` (all of them, in
    /// the engine's order), under `settings` (a `TreeSettings`), drawing
    /// from the stream at `state`. Returns `(best move, visits, totals, the
    /// stream's new state, iterations, stopped)`; the move is None when no
    /// world agrees with the view. `even`: the root's moves in turn
    /// (`ismcts::Root::Even`, the analysis's judgement) instead of the upper
    /// confidence bound; the best is then the best mean. `stop` (a `Stop`)
    /// ends the search early when it is set.
    #[pyo3(signature = (observation, legal, settings, state, even=false, stop=None))]
    fn search(
        &self,
        observation: &Bound<'_, PyAny>,
        legal: Vec<i64>,
        settings: PyRef<'_, TreeSettings>,
        state: u64,
        even: bool,
        stop: Option<PyRef<'_, PyStop>>,
    ) -> PyResult<Answer> {
        let config = settings.call(even, stop);
        let mut rng = Rng::new(state);
        let got = guard(
            || with_rules!(&self.inner, r => run(r, observation, &legal, &config, &mut rng)),
        )?;
        Ok(match got {
            Some(f) => (Some(f.best), f.visits, f.totals, rng.state, f.iterations, f.stopped),
            None => (None, Vec::new(), Vec::new(), rng.state, 0, config.stop.is_set()),
        })
    }
}

/// The epimc bot's native half for one rule table.
#[pyclass(module = "bones_native", frozen)]
struct Epimc {
    inner: AnyRules,
}

#[pymethods]
impl Epimc {
    #[new]
    fn new(table: &Bound<'_, PyDict>) -> PyResult<Self> {
        guard(|| Ok(Epimc { inner: rules_from_dict(table)? }))
    }

    /// `EpimcBot.python_search` for a position every world of which can be
    /// solved exactly (the observation and moves as `Searcher.search` takes
    /// them), with the `iterations`, `solve`, `infer` and `nodes` of
    /// `settings` (a `SearchSettings`). Returns `(best move, totals, the
    /// stream's new state, the sum of the worlds' weights, stopped)`; the
    /// move is None when no world agrees with the view. `stop` (a `Stop`)
    /// ends the search early when it is set.
    #[pyo3(signature = (observation, legal, settings, state, stop=None))]
    fn search(
        &self,
        observation: &Bound<'_, PyAny>,
        legal: Vec<i64>,
        settings: PyRef<'_, SearchSettings>,
        state: u64,
        stop: Option<PyRef<'_, PyStop>>,
    ) -> PyResult<EpimcAnswer> {
        let budget = settings.budget(None, stop_of(stop));
        let mut rng = Rng::new(state);
        let got = guard(
            || with_rules!(&self.inner, r => run_epimc(r, observation, &legal, &budget, &mut rng)),
        )?;
        Ok(match got {
            Some(f) => (Some(f.best), f.totals, rng.state, f.weight, f.stopped),
            None => (None, Vec::new(), rng.state, 0.0, budget.stop.is_set()),
        })
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TreeSettings>()?;
    m.add_class::<Ismcts>()?;
    m.add_class::<Epimc>()
}
