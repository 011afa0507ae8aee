//! The binding of whole simulations: `bones_native.Simulation`, built once
//! per run from the flat tables and `sim.Layout`'s slots, then `run(seed,
//! start, stop)` for each batch, with the GIL released.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::kernel::table::AnyRules;
use crate::kernel::table::MatchRules;
use crate::python::convert::{guard, NativeError};
use crate::python::rules::{table_from_dict, DictReader};
use crate::run::sim::{Bot, DealSlots, Duplicate, Sim, SimTable, Slots, Totals, NATIVE_BOTS};

fn item<'py, T: FromPyObject<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    match d.get_item(key)? {
        Some(v) => v.extract::<T>(),
        None => Err(PyValueError::new_err(format!("no field '{key}'"))),
    }
}

/// The match's fields of a flat table, read and checked.
pub(crate) fn match_rules(d: &Bound<'_, PyDict>) -> PyResult<MatchRules> {
    MatchRules::read(&DictReader(d)).map_err(PyValueError::new_err)
}

fn slots(d: &Bound<'_, PyDict>) -> PyResult<Slots> {
    Ok(Slots {
        hands: item(d, "hands")?,
        moves: item(d, "moves")?,
        blocked: item(d, "blocked")?,
        leader_win: item(d, "leader_win")?,
        tie: item(d, "tie")?,
        margin: item(d, "margin")?,
        seat_win: item(d, "seat_win")?,
        bot_win: item(d, "bot_win")?,
        ahead: item(d, "ahead")?,
    })
}

/// A duplicate run's deal vector (`duplicate.DealLayout`, as `sim` passes it).
fn duplicate(d: &Bound<'_, PyDict>) -> PyResult<Duplicate> {
    let slots: Vec<Bound<'_, PyDict>> = item(d, "slots")?;
    Ok(Duplicate {
        rotations: item(d, "rotations")?,
        slots: slots
            .iter()
            .map(|s| {
                Ok(DealSlots {
                    decided: item(s, "decided")?,
                    win: item(s, "win")?,
                    score: item(s, "score")?,
                })
            })
            .collect::<PyResult<_>>()?,
        size: item(d, "size")?,
        pairs: item(d, "pairs")?,
    })
}

/// How a run's games are summed (the keys of the dict `Simulation` takes).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct RunLayout<'py> {
    /// each lineup entry's distinct-bot index
    which: Vec<usize>,
    distinct: usize,
    /// the summary vector's length and its pairs
    size: usize,
    pairs: Vec<(usize, usize)>,
    /// one slots dict per table
    slots: Vec<Bound<'py, PyDict>>,
    /// each game is one hand
    hands_only: bool,
    /// a duplicate run's deal vector, or None
    duplicate: Option<Bound<'py, PyDict>>,
}

/// A simulation run: its tables, lineup and summary layout, checked once.
#[pyclass(module = "bones_native", frozen)]
pub struct Simulation {
    sim: Arc<Sim>,
}

#[pymethods]
impl Simulation {
    /// `tables`: flat tables (`bones.engine.flat.flatten`); `lineup`: bot
    /// names per lineup entry; `layout`: the run's `Lineup` (each entry's
    /// distinct-bot index and how many there are) and `sim.Layout` (the
    /// summary's size, its pairs and one slots dict per table).
    #[new]
    fn new(
        tables: Vec<Bound<'_, PyDict>>,
        lineup: Vec<String>,
        layout: RunLayout<'_>,
    ) -> PyResult<Self> {
        let RunLayout { which, distinct, size, pairs, slots: slots_of, hands_only, duplicate: dup } =
            layout;
        guard(|| {
            if tables.len() != slots_of.len() || tables.is_empty() {
                return Err(PyValueError::new_err("one slots dict per table"));
            }
            let bots = lineup
                .iter()
                .map(|n| {
                    Bot::from_name(n)
                        .ok_or_else(|| PyValueError::new_err(format!("no native bot {n:?}")))
                })
                .collect::<PyResult<Vec<_>>>()?;
            let mut out = Vec::new();
            let mut players = 0;
            for (d, s) in tables.iter().zip(&slots_of) {
                let t = table_from_dict(d)?;
                players = t.players;
                let rules = AnyRules::new(t).map_err(PyValueError::new_err)?;
                out.push(SimTable { rules, m: match_rules(d)?, slots: slots(s)? });
            }
            let sim = Sim {
                tables: out,
                lineup: bots,
                which,
                distinct,
                players,
                size,
                pairs,
                hands_only,
                duplicate: dup.as_ref().map(duplicate).transpose()?,
            };
            sim.check().map_err(PyValueError::new_err)?;
            Ok(Simulation { sim: Arc::new(sim) })
        })
    }

    /// Games `start..stop` of the run seeded `seed` (already reduced mod
    /// 2**64; in a duplicate run, deals): `(n, sums, pairs, hists, timing,
    /// deals)` where `hists` maps `"{t}.scoring_counts"` etc. to `{key:
    /// count}`, `timing` holds, per distinct bot, sampled decision times in
    /// `sim`'s time bins, and `deals` is a duplicate run's `(deals,
    /// deal_sums, deal_pairs)` (None otherwise).
    // the summary tuple Python unpacks, spelled out where it is built
    #[allow(clippy::type_complexity)]
    fn run<'py>(
        &self,
        py: Python<'py>,
        seed: u64,
        start: u64,
        stop: u64,
    ) -> PyResult<(
        u64,
        Vec<i64>,
        Vec<i64>,
        Bound<'py, PyDict>,
        Vec<Bound<'py, PyDict>>,
        Option<(u64, Vec<i64>, Vec<i64>)>,
    )> {
        let sim = Arc::clone(&self.sim);
        let got: PyResult<Result<Totals, String>> =
            py.allow_threads(|| guard(|| Ok(sim.run(seed, start, stop))));
        let totals = got?.map_err(NativeError::new_err)?;
        let hists = PyDict::new(py);
        for (t, th) in totals.hists.iter().enumerate() {
            for (name, h) in [
                ("scoring_counts", &th.scoring_counts),
                ("play_points", &th.play_points),
                ("game_hands", &th.game_hands),
                ("margin", &th.margin),
            ] {
                let d = PyDict::new(py);
                for (k, v) in h.items() {
                    d.set_item(k, v)?;
                }
                hists.set_item(format!("{t}.{name}"), d)?;
            }
            if self.sim.duplicate.is_some() {
                let d = PyDict::new(py);
                for (k, v) in th.deal_results.items() {
                    d.set_item(k, v)?;
                }
                hists.set_item(format!("{t}.deal_results"), d)?;
            }
        }
        let mut timing = Vec::new();
        for bins in &totals.timing {
            let d = PyDict::new(py);
            for (k, v) in bins {
                d.set_item(k, v)?;
            }
            timing.push(d);
        }
        let deals = self.sim.duplicate.is_some().then_some((
            totals.deals,
            totals.deal_sums,
            totals.deal_pairs,
        ));
        Ok((totals.n, totals.sums, totals.pairs, hists, timing, deals))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Simulation>()?;
    m.add("SIM_BOTS", NATIVE_BOTS.to_vec())?;
    Ok(())
}
