//! `bones_native.TrainHand`: one round of a train layout stepped from
//! Python, for the tests that hold the two cores to the same games
//! (`tests/test_trains_native.py`: legal moves, every field after every
//! move, move counts, the bots' choices), and the stepwise hand
//! `bones.engine.nativetrains.NativeTrainHand` wraps under
//! `BONES_CORE=native` (`core.new_hand`).

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

use crate::kernel::convert::{int, int_or_none};
use crate::kernel::moves::PLAYING;
use crate::kernel::table::{AnyRules, Rules};
use crate::kernel::trains::{greedy_move, heuristic_move, TrainHand as Kernel};
use crate::python::convert::{guard, mask_of, py_mask};
use crate::python::rules::table_from_dict;

enum Width {
    W1(Kernel<1>),
    W2(Kernel<2>),
    W3(Kernel<3>),
}

/// One round of a train layout, native.
#[pyclass(module = "bones_native")]
pub(crate) struct TrainHand {
    inner: Width,
}

macro_rules! with {
    ($self:expr, $h:ident => $e:expr) => {
        match &$self.inner {
            Width::W1($h) => $e,
            Width::W2($h) => $e,
            Width::W3($h) => $e,
        }
    };
}

macro_rules! with_mut {
    ($self:expr, $h:ident => $e:expr) => {
        match &mut $self.inner {
            Width::W1($h) => $e,
            Width::W2($h) => $e,
            Width::W3($h) => $e,
        }
    };
}

/// A round of `rules` dealt as given, checked.
fn dealt<const W: usize>(
    rules: &Arc<Rules<W>>,
    hands: &[Vec<usize>],
    boneyard: &[usize],
    leader: usize,
    lead_tile: usize,
    scores: Option<Vec<i64>>,
    number: usize,
) -> PyResult<Kernel<W>> {
    let t = &rules.t;
    if hands.len() != t.players || leader >= t.players || lead_tile >= rules.size {
        return Err(PyValueError::new_err("the deal does not fit the table"));
    }
    if scores.as_ref().is_some_and(|s| s.len() != t.owners) {
        return Err(PyValueError::new_err("one score per seat"));
    }
    let masks = hands.iter().map(|h| mask_of::<W>(h, rules.size)).collect::<PyResult<Vec<_>>>()?;
    let bone = boneyard
        .iter()
        .map(|&x| {
            u8::try_from(x)
                .ok()
                .filter(|&b| usize::from(b) < rules.size)
                .ok_or_else(|| PyValueError::new_err(format!("tile id {x} is not in the set")))
        })
        .collect::<PyResult<Vec<u8>>>()?;
    let mut h = Kernel::new(Arc::clone(rules), &masks, bone, leader, lead_tile, scores, number);
    h.record = true;
    Ok(h)
}

/// Leaf positions `depth` moves ahead (every legal move, draws included:
/// the boneyard's order is known).
fn perft<const W: usize>(h: &Kernel<W>, depth: u32) -> u64 {
    if depth == 0 || h.state != PLAYING {
        return 1;
    }
    h.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = h.clone();
            next.apply(mv);
            perft(&next, depth - 1)
        })
        .sum()
}

fn mask_list<'py, const W: usize>(
    py: Python<'py>,
    h: &Kernel<W>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    (0..h.rules.t.players).map(|s| py_mask(py, &h.hands[s])).collect()
}

#[pymethods]
impl TrainHand {
    /// `table`: a flat table with a train layout; `hands`: each seat's tile
    /// ids; `boneyard`: tile ids in drawing order; `leader` holds
    /// `lead_tile`, the round's hub double.
    #[new]
    #[pyo3(signature = (table, hands, boneyard, leader, lead_tile, scores=None, number=1))]
    fn new(
        table: &Bound<'_, PyDict>,
        hands: Vec<Vec<usize>>,
        boneyard: Vec<usize>,
        leader: usize,
        lead_tile: usize,
        scores: Option<Vec<i64>>,
        number: usize,
    ) -> PyResult<Self> {
        guard(|| {
            let t = table_from_dict(table)?;
            if t.trains.is_none() {
                return Err(PyValueError::new_err("not a train layout"));
            }
            let rules = AnyRules::new(t).map_err(PyValueError::new_err)?;
            let args = (&hands[..], &boneyard[..], leader, lead_tile, scores, number);
            let inner = match &rules {
                AnyRules::W1(r) => {
                    Width::W1(dealt(r, args.0, args.1, args.2, args.3, args.4, args.5)?)
                }
                AnyRules::W2(r) => {
                    Width::W2(dealt(r, args.0, args.1, args.2, args.3, args.4, args.5)?)
                }
                AnyRules::W3(r) => {
                    Width::W3(dealt(r, args.0, args.1, args.2, args.3, args.4, args.5)?)
                }
            };
            Ok(TrainHand { inner })
        })
    }

    fn legal_moves(&self) -> Vec<i64> {
        with!(self, h => h.legal_moves())
    }

    /// Play `mv`; an illegal move or a finished round is a `ValueError`.
    fn apply(&mut self, mv: i64) -> PyResult<()> {
        guard(|| {
            with_mut!(self, h => {
                if h.state != PLAYING {
                    return Err(PyValueError::new_err("the round is over"));
                }
                if !h.is_legal(mv) {
                    return Err(PyValueError::new_err(format!("move {mv} is not legal here")));
                }
                h.apply(mv);
                Ok(())
            })
        })
    }

    /// An independent copy (the stepwise hand's `copy`).
    fn copy(&self) -> TrainHand {
        let inner = match &self.inner {
            Width::W1(h) => Width::W1(h.clone()),
            Width::W2(h) => Width::W2(h.clone()),
            Width::W3(h) => Width::W3(h.clone()),
        };
        TrainHand { inner }
    }

    /// Deal the seats new hands (tile ids per seat), as a scenario's layout
    /// or a sampled world does; the rest of the round is kept.
    fn set_hands(&mut self, hands: Vec<Vec<usize>>) -> PyResult<()> {
        guard(|| {
            with_mut!(self, h => {
                let players = h.rules.t.players;
                if hands.len() != players {
                    return Err(PyValueError::new_err("one hand per seat"));
                }
                for (s, tiles) in hands.iter().enumerate() {
                    h.hands[s] = mask_of(tiles, h.rules.size)?;
                }
                Ok(())
            })
        })
    }

    /// The boneyard in drawing order (the tiles drawn already included).
    #[getter]
    fn boneyard(&self) -> Vec<u8> {
        with!(self, h => h.boneyard.clone())
    }

    /// Reorder the boneyard (the same length; the reserve is kept).
    #[setter]
    fn set_boneyard(&mut self, tiles: Vec<usize>) -> PyResult<()> {
        guard(|| {
            with_mut!(self, h => {
                if tiles.len() != h.boneyard.len() {
                    return Err(PyValueError::new_err("the boneyard keeps its length"));
                }
                let size = h.rules.size;
                let bone = tiles
                    .iter()
                    .map(|&x| {
                        u8::try_from(x)
                            .ok()
                            .filter(|&b| usize::from(b) < size)
                            .ok_or_else(|| PyValueError::new_err(format!("tile id {x} is not in the set")))
                    })
                    .collect::<PyResult<Vec<u8>>>()?;
                h.boneyard = bone;
                Ok(())
            })
        })
    }

    /// The running scores (one per seat); assigning replaces them.
    #[getter]
    fn scores(&self) -> Vec<i64> {
        with!(self, h => h.scores.clone())
    }

    #[setter]
    fn set_scores(&mut self, scores: Vec<i64>) -> PyResult<()> {
        with_mut!(self, h => {
            if scores.len() != h.rules.t.owners {
                return Err(PyValueError::new_err("one score per seat"));
            }
            h.scores = scores;
            Ok(())
        })
    }

    #[getter]
    fn state(&self) -> u8 {
        with!(self, h => h.state)
    }

    #[getter]
    fn turn(&self) -> usize {
        with!(self, h => h.turn)
    }

    /// Moves played so far.
    #[getter]
    fn moves(&self) -> u32 {
        with!(self, h => h.moves)
    }

    fn is_legal(&self, mv: i64) -> bool {
        with!(self, h => h.state == PLAYING && h.is_legal(mv))
    }

    /// Leaf positions `depth` moves ahead.
    fn perft(&self, depth: u32) -> u64 {
        with!(self, h => perft(h, depth))
    }

    /// The `greedy` bot's move for the player to move.
    fn greedy_move(&self) -> i64 {
        with!(self, h => greedy_move(h, &h.legal_moves()))
    }

    /// The `heuristic` bot's move for the player to move.
    fn heuristic_move(&self) -> i64 {
        with!(self, h => heuristic_move(h, &h.legal_moves()))
    }

    /// Each seat's tiles, as masks.
    fn hand_masks<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        with!(self, h => mask_list(py, h))
    }

    #[getter]
    fn on_table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        with!(self, h => py_mask(py, &h.on_table))
    }

    fn pips_left(&self, seat: usize) -> PyResult<i64> {
        with!(self, h => {
            if seat >= h.rules.t.players {
                return Err(PyValueError::new_err(format!("no seat {seat}")));
            }
            Ok(h.pips_left(seat))
        })
    }

    /// Every field the differential tests compare, by the Python hand's names
    /// and values (-1 for none, `owed` as `[arm, pip, left, first]` lists).
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        with!(self, h => fields(py, h))
    }
}

pub(crate) fn fields<'py, const W: usize>(
    py: Python<'py>,
    h: &Kernel<W>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let players = h.rules.t.players;
    let wide = |v: &[i8]| v.iter().map(|&x| i64::from(x)).collect::<Vec<i64>>();
    d.set_item("state", h.state)?;
    d.set_item("turn", h.turn)?;
    d.set_item("leader", h.leader)?;
    d.set_item("placed", h.placed)?;
    d.set_item("passes", h.passes)?;
    d.set_item("drawn_turn", h.drawn_turn)?;
    d.set_item("drawn", h.drawn[..players].to_vec())?;
    d.set_item("bone_pos", h.bone_pos)?;
    d.set_item("drawable", h.drawable())?;
    d.set_item("laid_turn", h.laid_turn)?;
    d.set_item("hub_left", h.hub_left)?;
    d.set_item("hub_arms", h.hub_arms)?;
    d.set_item("must_cover", int_or_none(h.must_cover))?;
    d.set_item("extra", h.extra)?;
    d.set_item("spun", h.spun)?;
    d.set_item("arm_open", wide(&h.arm_open))?;
    d.set_item("arm_end", wide(&h.arm_end))?;
    d.set_item("arm_owner", h.arm_owner.iter().map(|o| o.code()).collect::<Vec<i64>>())?;
    d.set_item("marked", h.marked[..players].to_vec())?;
    d.set_item("first_done", h.first_done[..players].to_vec())?;
    let owed: Vec<[i64; 4]> = h
        .owed
        .iter()
        .map(|o| [int_or_none(o.arm), int(o.pip), o.left, i64::from(o.first)])
        .collect();
    d.set_item("owed", owed)?;
    d.set_item("scores", h.scores.clone())?;
    d.set_item("settlement", h.settlement.clone())?;
    d.set_item("domino_seat", int_or_none(h.domino_seat))?;
    d.set_item("last_player", int_or_none(h.last_player))?;
    d.set_item("won_by", int_or_none(h.won_by))?;
    d.set_item("winner", int_or_none(h.winner))?;
    d.set_item("game_over", h.game_over)?;
    d.set_item("log", h.log.clone())?;
    d.set_item("hands", mask_list(py, h)?)?;
    d.set_item("on_table", py_mask(py, &h.on_table)?)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TrainHand>()?;
    Ok(())
}
