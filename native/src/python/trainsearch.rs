//! The searches' native halves on a train layout: `bones_native.TrainIsmcts`
//! and `bones_native.TrainSearcher(flat_table)`, whose `search` takes the
//! same arguments and returns the same values as `Ismcts.search` and
//! `Searcher.search` (`bones.bots.ismcts`, `bones.bots.search` pick them for
//! a train layout), judging the seat's moves as the Python reference does
//! on a train round (`bots::trains`), the GIL released.

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

use crate::bots::search::Budget;
use crate::bots::trains::{tree, worlds, TrainView};
use crate::kernel::moves::PLAYING;
use crate::kernel::rng::Rng;
use crate::kernel::table::{AnyRules, Rules};
use crate::kernel::trains::{Owed, Owner, TrainHand};
use crate::python::convert::{attr, guard, index_or_none, mask, small};
use crate::python::ismcts::TreeSettings;
use crate::python::rules::table_from_dict;
use crate::python::search::{limits_of, stock_of, stop_of, PyStop, SearchSettings};
use crate::with_rules;

/// The rules of a flat table with a train layout.
fn train_rules(table: &Bound<'_, PyDict>) -> PyResult<AnyRules> {
    let t = table_from_dict(table)?;
    if t.trains.is_none() {
        return Err(PyValueError::new_err("not a train layout"));
    }
    AnyRules::new(t).map_err(PyValueError::new_err)
}

fn pips(v: Vec<i64>) -> PyResult<Vec<i8>> {
    v.into_iter().map(|x| small::<i8>(x, "an open end")).collect()
}

/// The view of the seat to move that `observation` (a
/// `bones.seat.observation.Observation` of a Python `TrainHand`) describes,
/// checked against the table; every move of `legal` must be legal there.
fn train_view_of<const W: usize>(
    rules: &Arc<Rules<W>>,
    observation: &Bound<'_, PyAny>,
    legal: &[i64],
) -> PyResult<TrainView<W>> {
    let size = rules.size;
    let players = rules.t.players;
    let seat: usize = attr(observation, "seat")?;
    let counts: Vec<usize> = attr(observation, "counts")?;
    if seat >= players || counts.len() != players {
        return Err(PyValueError::new_err("the view's seats do not match the table"));
    }
    if legal.is_empty() {
        return Err(PyValueError::new_err("no legal moves to judge"));
    }
    let p = observation.getattr("layout")?;
    let own = mask::<W>(&observation.getattr("hand")?, size)?;
    let unseen = mask::<W>(&observation.getattr("unseen")?, size)?;
    let boneyard_left: usize = attr(observation, "boneyard_left")?;
    let bone_len = p.getattr("boneyard")?.len()?;
    let lead_tile: usize = attr(&p, "lead_tile")?;
    let leader: usize = attr(&p, "leader")?;
    let scores: Vec<i64> = attr(&p, "scores")?;
    let number: usize = attr(&p, "number")?;
    if lead_tile >= size || leader >= players || scores.len() != rules.t.owners {
        return Err(PyValueError::new_err("the layout does not fit the table"));
    }
    let none = vec![crate::kernel::bits::Bits::<W>::ZERO; players];
    let mut h = TrainHand::new(
        Arc::clone(rules),
        &none,
        vec![0; bone_len],
        leader,
        lead_tile,
        Some(scores),
        number,
    );
    h.hands[seat] = own;
    h.bone_pos = attr(&p, "bone_pos")?;
    h.bone_end = attr(&p, "bone_end")?;
    if boneyard_left > bone_len || h.bone_pos > bone_len || h.bone_end > bone_len {
        return Err(PyValueError::new_err("the boneyard does not fit the view"));
    }
    h.on_table = mask::<W>(&p.getattr("on_table")?, size)?;
    h.arm_open = pips(attr(&p, "arm_open")?)?;
    h.arm_end = pips(attr(&p, "arm_end")?)?;
    let owners: Vec<i64> = attr(&p, "arm_owner")?;
    h.arm_owner = owners
        .into_iter()
        .map(|o| match o {
            -1 => Ok(Owner::Public),
            -2 => Ok(Owner::Arm),
            s => small::<usize>(s, "an arm's owner").map(Owner::Seat),
        })
        .collect::<PyResult<_>>()?;
    if h.arm_open.len() != h.arm_owner.len() || h.arm_end.len() != h.arm_owner.len() {
        return Err(PyValueError::new_err("the arms do not agree"));
    }
    let marked: Vec<bool> = attr(&p, "marked")?;
    let first_done: Vec<bool> = attr(&p, "first_done")?;
    let drawn: Vec<u32> = attr(&p, "drawn")?;
    if marked.len() != players || first_done.len() != players || drawn.len() != players {
        return Err(PyValueError::new_err("the layout's seats do not match the table"));
    }
    h.marked[..players].copy_from_slice(&marked);
    h.first_done[..players].copy_from_slice(&first_done);
    h.drawn[..players].copy_from_slice(&drawn);
    // [arm (-1: the foot), pip, covers still owed, laid in a first turn]
    let owed: Vec<Vec<i64>> = attr(&p, "owed")?;
    h.owed = owed
        .into_iter()
        .map(|o| match o[..] {
            [arm, pip, left, first] => Ok(Owed {
                arm: index_or_none(arm, "an arm")?,
                pip: small(pip, "a double's number")?,
                left,
                first: first != 0,
            }),
            _ => Err(PyValueError::new_err("an owed double is [arm, pip, left, first]")),
        })
        .collect::<PyResult<_>>()?;
    h.laid_turn = attr(&p, "laid_turn")?;
    h.must_cover = index_or_none(attr(&p, "must_cover")?, "an arm")?;
    h.extra = attr(&p, "extra")?;
    h.spun = attr(&p, "spun")?;
    h.hub_left = attr(&p, "hub_left")?;
    h.hub_arms = attr(&p, "hub_arms")?;
    h.turn = attr(&p, "turn")?;
    h.placed = attr(&p, "placed")?;
    h.passes = attr(&p, "passes")?;
    h.drawn_turn = attr(&p, "drawn_turn")?;
    let last: Option<usize> = attr(&p, "last_player")?;
    h.last_player = last;
    h.state = attr(&p, "state")?;
    if h.state != PLAYING {
        return Err(PyValueError::new_err("the hand is over"));
    }
    if h.turn != seat {
        return Err(PyValueError::new_err(format!("seat {seat} is not the one to move")));
    }
    let limits = limits_of::<W>(observation, size)?;
    if limits.len() != players {
        return Err(PyValueError::new_err("the view's seats do not match the table"));
    }
    let stock = stock_of(observation)?;
    let view = TrainView { seat, own, counts, unseen, boneyard_left, layout: h, limits, stock };
    if !view.admits_a_deal() {
        return Err(PyValueError::new_err(
            "no deal of the unseen tiles agrees with the view's bounds",
        ));
    }
    let every = view.layout.legal_moves();
    let mut at = every.iter();
    if !legal.iter().all(|m| at.any(|x| x == m)) {
        return Err(PyValueError::new_err("the moves given are not the seat's legal moves"));
    }
    Ok(view)
}

/// What `TrainIsmcts.search` returns (as `Ismcts.search`).
type TreeAnswer = (Option<i64>, Vec<f64>, Vec<f64>, u64, usize, bool);
/// What `TrainSearcher.search` returns (as `Searcher.search`).
type SearchAnswer = (Option<i64>, Vec<f64>, u64, usize, f64, Vec<u64>, bool);

/// The `ismcts` bot's (and `search`'s tree's) native half on a train layout.
#[pyclass(module = "bones_native", frozen)]
struct TrainIsmcts {
    inner: AnyRules,
}

fn run_tree<const W: usize>(
    rules: &Arc<Rules<W>>,
    observation: &Bound<'_, PyAny>,
    legal: &[i64],
    config: &crate::bots::ismcts::Config,
    rng: &mut Rng,
) -> PyResult<crate::bots::ismcts::Found> {
    let view = train_view_of(rules, observation, legal)?;
    let py = observation.py();
    py.allow_threads(|| guard(|| Ok(tree(&view, legal, config, rng))))
}

#[pymethods]
impl TrainIsmcts {
    #[new]
    fn new(table: &Bound<'_, PyDict>) -> PyResult<Self> {
        guard(|| Ok(TrainIsmcts { inner: train_rules(table)? }))
    }

    /// `IsmctsBot.python_search` on a train round (as `Ismcts.search`).
    #[pyo3(signature = (observation, legal, settings, state, even=false, stop=None))]
    fn search(
        &self,
        observation: &Bound<'_, PyAny>,
        legal: Vec<i64>,
        settings: PyRef<'_, TreeSettings>,
        state: u64,
        even: bool,
        stop: Option<PyRef<'_, PyStop>>,
    ) -> PyResult<TreeAnswer> {
        let config = settings.call(even, stop);
        let mut rng = Rng::new(state);
        let f = guard(
            || with_rules!(&self.inner, r => run_tree(r, observation, &legal, &config, &mut rng)),
        )?;
        Ok((Some(f.best), f.visits, f.totals, rng.state, f.iterations, f.stopped))
    }
}

/// The `pimc` bot's (and `search`'s worlds') native half on a train layout.
#[pyclass(module = "bones_native", frozen)]
struct TrainSearcher {
    inner: AnyRules,
}

fn run_worlds<const W: usize>(
    rules: &Arc<Rules<W>>,
    observation: &Bound<'_, PyAny>,
    legal: &[i64],
    budget: &Budget,
    rng: &mut Rng,
) -> PyResult<crate::bots::search::Found> {
    let view = train_view_of(rules, observation, legal)?;
    let py = observation.py();
    py.allow_threads(|| guard(|| Ok(worlds(&view, legal, budget, rng))))
}

#[pymethods]
impl TrainSearcher {
    #[new]
    fn new(table: &Bound<'_, PyDict>) -> PyResult<Self> {
        guard(|| Ok(TrainSearcher { inner: train_rules(table)? }))
    }

    /// `SearchBot.python_judge` on a train round (as `Searcher.search`):
    /// every world weighs 1 (a train layout's plays are not weighed,
    /// `infer.log_likelihood`), and the objective is points (`table` None).
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
        let budget = settings.budget(None, stop_of(stop));
        if table.is_some() {
            return Err(PyValueError::new_err(
                "the native worlds of a train layout value points, not the match",
            ));
        }
        let mut rng = Rng::new(state);
        let f = guard(
            || with_rules!(&self.inner, r => run_worlds(r, observation, &legal, &budget, &mut rng)),
        )?;
        Ok((Some(f.best), f.totals, rng.state, f.iterations, f.weight, f.nodes, f.stopped))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TrainIsmcts>()?;
    m.add_class::<TrainSearcher>()
}
