//! The binding of the `search` bot: `bones_native.Searcher(flat_table)`,
//! built once per rule table, whose `search(observation, legal, settings,
//! state)` judges a seat's moves over sampled worlds exactly as
//! `SearchBot.values` does in Python (the GIL is released while it runs);
//! `bones_native.SearchSettings`, the bot's settings read once into a
//! `search::Budget`; and the reading of an observation every search binding
//! shares (`view_of`).

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::bots::matchvalue::MatchTable;
use crate::bots::rollouts::Policy;
use crate::bots::search::{search, Budget, Found};
use crate::bots::stop::Stop;
use crate::bots::world::{NoWorld, View};
use crate::kernel::bits::Bits;
use crate::kernel::rng::Rng;
use crate::kernel::table::{AnyRules, Rules};
use crate::python::convert::{attr, guard, mask};
use crate::python::hand::hand_from_py;
use crate::python::rules::rules_from_dict;
use crate::with_rules;

/// What `Searcher.search` returns to Python: the best move (None when no
/// world agrees with the view), the totals, the stream's new state, worlds
/// sampled, the sum of their weights, the positions each world's solve
/// visited (`search::Found::nodes`) and whether its stop ended it.
type SearchAnswer = (Option<i64>, Vec<f64>, u64, usize, f64, Vec<u64>, bool);

/// `bones.bots.stop.Stop`'s native flag (`bots::stop::Stop`): set from any
/// thread, the searches handed it end soon after (between worlds and
/// iterations, and every `Stop::EVERY` positions of a solve), with the GIL
/// released all the while.
#[pyclass(module = "bones_native", name = "Stop", frozen)]
pub(crate) struct PyStop {
    pub(crate) inner: Stop,
}

#[pymethods]
impl PyStop {
    #[new]
    fn new() -> Self {
        PyStop { inner: Stop::default() }
    }

    /// Ask every search watching this stop to end.
    fn set(&self) {
        self.inner.set();
    }

    fn is_set(&self) -> bool {
        self.inner.is_set()
    }
}

/// The stop a call was handed (None: one nobody sets).
pub(crate) fn stop_of(stop: Option<PyRef<'_, PyStop>>) -> Stop {
    stop.map(|s| s.inner.clone()).unwrap_or_default()
}

/// The fields of a settings value (a dict of `bones.bots.settings`'s
/// dataclass), each read once: exactly `names`, no other.
pub(crate) struct Fields<'a, 'py> {
    dict: &'a Bound<'py, PyDict>,
    what: &'static str,
}

impl<'a, 'py> Fields<'a, 'py> {
    /// The fields of `dict`, which must name exactly `names` (`what` names
    /// the settings in messages).
    pub(crate) fn of(
        dict: &'a Bound<'py, PyDict>,
        names: &[&str],
        what: &'static str,
    ) -> PyResult<Self> {
        for key in dict.keys() {
            let key: String = key.extract()?;
            if !names.contains(&key.as_str()) {
                return Err(PyValueError::new_err(format!("{what} have no field '{key}'")));
            }
        }
        Ok(Fields { dict, what })
    }

    pub(crate) fn get<T: FromPyObject<'py>>(&self, key: &str) -> PyResult<T> {
        match self.dict.get_item(key)? {
            Some(v) => v.extract::<T>(),
            None => Err(PyValueError::new_err(format!("{} lack the field '{key}'", self.what))),
        }
    }

    /// A rollout or playout policy by name.
    pub(crate) fn policy(&self) -> PyResult<Policy> {
        let name: String = self.get("policy")?;
        Policy::from_name(&name)
            .ok_or_else(|| PyValueError::new_err(format!("no playout policy {name:?}")))
    }
}

/// A time budget in seconds (0: none) as a deadline from now.
pub(crate) fn deadline(seconds: f64) -> Option<std::time::Instant> {
    (seconds > 0.0)
        .then(|| std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds.min(1e6)))
}

/// `bones.bots.settings.SearchSettings` in the native core: the budget of
/// every search made with it, but the deadline and the objective, which
/// each call sets.
#[pyclass(module = "bones_native", name = "SearchSettings", frozen)]
pub(crate) struct SearchSettings {
    budget: Budget,
    seconds: f64,
}

#[pymethods]
impl SearchSettings {
    /// The settings from the fields of a `bones.bots.settings.SearchSettings`
    /// (`dataclasses.asdict`).
    #[new]
    fn new(fields: &Bound<'_, PyDict>) -> PyResult<Self> {
        let f = Fields::of(
            fields,
            &[
                "iterations",
                "rollouts",
                "policy",
                "seconds",
                "solve",
                "infer",
                "threads",
                "nodes",
                "draws",
            ],
            "the search settings",
        )?;
        let (iterations, rollouts, threads): (usize, usize, usize) =
            (f.get("iterations")?, f.get("rollouts")?, f.get("threads")?);
        let (seconds, infer): (f64, f64) = (f.get("seconds")?, f.get("infer")?);
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
        let budget = Budget {
            threads,
            nodes: f.get("nodes")?,
            draws: f.get("draws")?,
            ..Budget::new(iterations, rollouts, f.policy()?, None, f.get("solve")?, infer)
        };
        Ok(SearchSettings { budget, seconds })
    }

    fn __repr__(&self) -> String {
        format!("SearchSettings({:?}, seconds={})", self.budget, self.seconds)
    }
}

impl SearchSettings {
    /// The budget of one search: these settings, the clock started now,
    /// valuing `table`'s match (None: points), watching `stop`.
    pub(crate) fn budget(&self, table: Option<Arc<MatchTable>>, stop: Stop) -> Budget {
        Budget { deadline: deadline(self.seconds), table, stop, ..self.budget.clone() }
    }
}

/// The view of the seat to move that `observation` (a
/// `bones.seat.observation.Observation`) describes: the layout with the
/// hidden tiles scrubbed, the seat's own tiles, the tile counts, the unseen
/// tiles and the void bounds (`Observation.limits()`), checked against the
/// table; every move of `legal` must be legal there.
pub(crate) fn view_of<const W: usize>(
    rules: &Arc<Rules<W>>,
    observation: &Bound<'_, PyAny>,
    legal: &[i64],
) -> PyResult<View<W>> {
    let size = rules.size;
    let players = rules.t.players;
    let seat: usize = attr(observation, "seat")?;
    let counts: Vec<usize> = attr(observation, "counts")?;
    let limits = limits_of::<W>(observation, size)?;
    if seat >= players || counts.len() != players || limits.len() != players {
        return Err(PyValueError::new_err("the view's seats do not match the table"));
    }
    if legal.is_empty() {
        return Err(PyValueError::new_err("no legal moves to judge"));
    }
    let layout = observation.getattr("layout")?;
    let log: Vec<(i64, i64, i64)> = attr(&layout, "log")?;
    let layout = hand_from_py(rules, &layout)?;
    if layout.state != crate::kernel::moves::PLAYING {
        return Err(PyValueError::new_err("the hand is over"));
    }
    let view = View {
        seat,
        own: mask::<W>(&observation.getattr("hand")?, size)?,
        counts,
        unseen: mask::<W>(&observation.getattr("unseen")?, size)?,
        limits,
        layout,
        history: log.iter().map(|&(s, m, p)| (s as usize, m, p)).collect(),
        stock: stock_of(observation)?,
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
    Ok(view)
}

/// An observation's void bounds (`Observation.limits()`): a list a seat of
/// `(mask, most tiles of it the seat can hold)`.
pub(crate) fn limits_of<const W: usize>(
    observation: &Bound<'_, PyAny>,
    size: usize,
) -> PyResult<Vec<Vec<(Bits<W>, i64)>>> {
    let limits: Vec<Vec<(Bound<'_, PyAny>, i64)>> =
        observation.call_method0("limits")?.extract()?;
    limits
        .iter()
        .map(|caps| caps.iter().map(|(m, cap)| Ok((mask::<W>(m, size)?, *cap))).collect())
        .collect()
}

/// The boneyard's true order an observation made by `bench.ceiling_draw
/// --stock` carries as its private `_stock` (the tiles past the draw
/// position); None for every other observation (the order is drawn).
pub(crate) fn stock_of(observation: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u8>>> {
    let stock = observation.getattr("_stock");
    match stock {
        Ok(s) if !s.is_none() => Ok(Some(s.extract()?)),
        _ => Ok(None),
    }
}

/// The search of `observation`'s seat under `rules`, the GIL released;
/// None: no world agrees with the view (the stream has moved on as in
/// Python).
fn run<const W: usize>(
    rules: &Arc<Rules<W>>,
    observation: &Bound<'_, PyAny>,
    legal: &[i64],
    budget: &Budget,
    rng: &mut Rng,
) -> PyResult<Option<Found>> {
    let view = view_of(rules, observation, legal)?;
    let py = observation.py();
    let found = py.allow_threads(|| guard(|| Ok(search(&view, legal, budget, rng))))?;
    Ok(found.map_err(|NoWorld| ()).ok())
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

    /// `SearchBot.values` for the seat to move of `observation` (a
    /// `bones.seat.observation.Observation`), judging the moves of `legal`
    /// under `settings` (a `SearchSettings`), drawing from the stream at
    /// `state`. Returns `(best move, totals, the stream's new state, worlds
    /// sampled, the sum of their weights, each world's solver positions,
    /// stopped)`; the move is None when no world agrees with the view.
    /// `table`, `(step, cells, values)`, is the match objective's
    /// (`matchvalue::MatchTable`, None: points); `stop` (a `Stop`) ends the
    /// search early when it is set (stopped: True, no decision).
    #[pyo3(signature = (observation, legal, settings, state, table=None, stop=None))]
    fn search(
        &self,
        observation: &Bound<'_, PyAny>,
        legal: Vec<i64>,
        settings: PyRef<'_, SearchSettings>,
        state: u64,
        table: Option<(i64, usize, Vec<i64>)>,
        stop: Option<PyRef<'_, PyStop>>,
    ) -> PyResult<SearchAnswer> {
        let table = match table {
            Some((step, cells, values)) => {
                Some(Arc::new(MatchTable::new(step, cells, values).map_err(PyValueError::new_err)?))
            }
            None => None,
        };
        let budget = settings.budget(table, stop_of(stop));
        let mut rng = Rng::new(state);
        let got = guard(
            || with_rules!(&self.inner, r => run(r, observation, &legal, &budget, &mut rng)),
        )?;
        Ok(match got {
            Some(f) => {
                (Some(f.best), f.totals, rng.state, f.iterations, f.weight, f.nodes, f.stopped)
            }
            None => (None, Vec::new(), rng.state, 0, 0.0, Vec::new(), budget.stop.is_set()),
        })
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("DEFAULT_NODES", crate::bots::search::DEFAULT_NODES)?;
    m.add("TT_CAP", crate::bots::solve::TT_CAP)?;
    m.add_class::<SearchSettings>()?;
    m.add_class::<PyStop>()?;
    m.add_class::<Searcher>()
}
