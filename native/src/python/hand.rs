//! `bones_native.Hand`: the stepwise hand, dealt from given tiles, then
//! moves applied one by one, read back in the Python hand's fields.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use pyo3::IntoPyObjectExt;

use crate::kernel::bits::Bits;
use crate::kernel::hand::{Hand as Kernel, HandSetup, MAX_ARMS, MAX_HUBS};
use crate::kernel::rng::Rng as KRng;
use crate::kernel::table::{AnyRules, Rules as KRules, MAX_PLAYERS};
use crate::python::convert::{attr, guard, mask, mask_of, py_mask, small};
use crate::python::rules::Rules;

// ------------------------------------------------------------------- hand

enum AnyHand {
    W1(Kernel<1>),
    W2(Kernel<2>),
    W3(Kernel<3>),
}

macro_rules! each {
    ($self:expr, $h:ident => $body:expr) => {
        match &$self.inner {
            AnyHand::W1($h) => $body,
            AnyHand::W2($h) => $body,
            AnyHand::W3($h) => $body,
        }
    };
}

macro_rules! each_mut {
    ($self:expr, $h:ident => $body:expr) => {
        match &mut $self.inner {
            AnyHand::W1($h) => $body,
            AnyHand::W2($h) => $body,
            AnyHand::W3($h) => $body,
        }
    };
}

/// The names of `Hand.fields`, in order.
pub(crate) const HAND_FIELDS: [&str; 44] = [
    "hands",
    "boneyard",
    "bone_pos",
    "bone_end",
    "out_of_play",
    "arm_open",
    "arm_end",
    "arm_weight",
    "arm_hub",
    "arm_root",
    "arm_side",
    "arm_stub",
    "arm_frozen",
    "hub_pip",
    "hub_k",
    "hub_vals",
    "hub_mult",
    "hub_cross",
    "hub_sides_left",
    "hub_spins",
    "spinners",
    "first_double_seen",
    "count",
    "turn",
    "leader",
    "lead_tile",
    "lead_doubles_only",
    "placed",
    "on_table",
    "passes",
    "drawn_turn",
    "drawn",
    "out",
    "got_in",
    "state",
    "game_over",
    "winner",
    "domino_seat",
    "last_player",
    "settlement",
    "log",
    "last_points",
    "open_mask",
    "pot",
];

/// The arms as `Hand.layout` gives them: open, end, weight, hub, root, side,
/// stub, frozen.
type Arms = (Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>, Vec<bool>, Vec<bool>, Vec<i64>);
/// The hubs: pip, k, mult, cross (`[]` without cross arms), sides left, spins.
type Hubs = (Vec<i64>, Vec<i64>, Vec<Vec<i64>>, Vec<Vec<i64>>, Vec<i64>, Vec<bool>);

/// The layout in the Python hand's values (`Hand.layout` and `Hand.fields`).
fn layout_of<const W: usize>(h: &Kernel<W>) -> (Arms, Hubs) {
    let (n, k) = (h.n_arms, h.n_hubs);
    let ints = |a: &[i8]| a[..n].iter().map(|&v| i64::from(v)).collect::<Vec<i64>>();
    let arms = (
        ints(&h.arm_open),
        ints(&h.arm_end),
        ints(&h.arm_weight),
        ints(&h.arm_hub),
        ints(&h.arm_root),
        h.arm_side[..n].to_vec(),
        h.arm_stub[..n].to_vec(),
        ints(&h.arm_frozen),
    );
    let hubs = (
        h.hub_pip[..k].iter().map(|&v| i64::from(v)).collect(),
        h.hub_k[..k].iter().map(|&v| i64::from(v)).collect(),
        h.hub_mult[..k].iter().map(|m| m.to_vec()).collect(),
        h.hub_cross[..k]
            .iter()
            .map(|&(a, b)| if a < 0 { Vec::new() } else { vec![i64::from(a), i64::from(b)] })
            .collect(),
        h.hub_sides_left[..k].iter().map(|&v| i64::from(v)).collect(),
        h.hub_spins[..k].to_vec(),
    );
    (arms, hubs)
}

fn python_fields<'py, const W: usize>(
    py: Python<'py>,
    h: &Kernel<W>,
    seat: Option<usize>,
) -> PyResult<Bound<'py, PyTuple>> {
    let players = h.rules.t.players;
    if seat.is_some_and(|s| s >= players) {
        return Err(PyValueError::new_err(format!(
            "seat {} is not at the table",
            seat.unwrap_or(0)
        )));
    }
    let (
        (arm_open, arm_end, arm_weight, arm_hub, arm_root, arm_side, arm_stub, arm_frozen),
        (hub_pip, hub_k, hub_mult, hub_cross, hub_sides_left, hub_spins),
    ) = layout_of(h);
    let hands = (0..players)
        .map(|s| {
            if seat.is_none_or(|me| me == s) {
                py_mask(py, &h.hands[s])
            } else {
                0u64.into_bound_py_any(py)
            }
        })
        .collect::<PyResult<Vec<_>>>()?;
    let boneyard: Vec<i64> = match seat {
        Some(_) => vec![-1; h.boneyard.len()],
        None => h.boneyard.iter().map(|&t| if t == HIDDEN { -1 } else { i64::from(t) }).collect(),
    };
    let tuples = |rows: Vec<Vec<i64>>| -> PyResult<Bound<'py, PyList>> {
        PyList::new(
            py,
            rows.into_iter().map(|r| PyTuple::new(py, r)).collect::<PyResult<Vec<_>>>()?,
        )
    };
    let hub_vals = tuples(
        hub_mult.iter().zip(&hub_pip).map(|(m, &p)| m.iter().map(|&x| x * p).collect()).collect(),
    )?;
    let hub_mult = tuples(hub_mult)?;
    let hub_cross = tuples(hub_cross)?;
    let log = h.log.iter().map(|&(s, m, p)| (i64::from(s), m, p)).collect::<Vec<_>>();
    let items: [Bound<'py, PyAny>; 44] = [
        hands.into_bound_py_any(py)?,
        boneyard.into_bound_py_any(py)?,
        h.bone_pos.into_bound_py_any(py)?,
        h.bone_end.into_bound_py_any(py)?,
        py_mask(py, &h.out_of_play)?,
        arm_open.into_bound_py_any(py)?,
        arm_end.into_bound_py_any(py)?,
        arm_weight.into_bound_py_any(py)?,
        arm_hub.into_bound_py_any(py)?,
        arm_root.into_bound_py_any(py)?,
        arm_side.into_bound_py_any(py)?,
        arm_stub.into_bound_py_any(py)?,
        arm_frozen.into_bound_py_any(py)?,
        hub_pip.into_bound_py_any(py)?,
        hub_k.into_bound_py_any(py)?,
        hub_vals.into_any(),
        hub_mult.into_any(),
        hub_cross.into_any(),
        hub_sides_left.into_bound_py_any(py)?,
        hub_spins.into_bound_py_any(py)?,
        h.spinners.into_bound_py_any(py)?,
        h.first_double_seen.into_bound_py_any(py)?,
        h.count.into_bound_py_any(py)?,
        h.turn.into_bound_py_any(py)?,
        h.leader.into_bound_py_any(py)?,
        h.lead_tile.into_bound_py_any(py)?,
        h.lead_doubles_only.into_bound_py_any(py)?,
        h.placed.into_bound_py_any(py)?,
        py_mask(py, &h.on_table)?,
        h.passes.into_bound_py_any(py)?,
        h.drawn_turn.into_bound_py_any(py)?,
        h.drawn[..players].to_vec().into_bound_py_any(py)?,
        h.out[..players].to_vec().into_bound_py_any(py)?,
        h.got_in.clone().into_bound_py_any(py)?,
        h.state.into_bound_py_any(py)?,
        h.game_over.into_bound_py_any(py)?,
        h.winner.into_bound_py_any(py)?,
        h.domino_seat.into_bound_py_any(py)?,
        h.last_player.into_bound_py_any(py)?,
        h.settlement.clone().into_bound_py_any(py)?,
        log.into_bound_py_any(py)?,
        h.last_points.into_bound_py_any(py)?,
        py_mask(py, &h.open_mask)?,
        h.pot.into_bound_py_any(py)?,
    ];
    PyTuple::new(py, items)
}

/// The arguments of `bones_native.Hand(...)`, in tile ids, before they are
/// checked against a table.
struct HandArgs {
    hands: Vec<Vec<usize>>,
    boneyard: Vec<usize>,
    leader: usize,
    scores: Option<Vec<i64>>,
    lead_tile: i64,
    lead_doubles_only: bool,
    out_of_play: Vec<usize>,
    record: bool,
    pot: i64,
    got_in: Option<Vec<bool>>,
}

/// A kernel hand from the constructor's arguments, checked against `rules`.
fn build<const W: usize>(rules: &Arc<KRules<W>>, a: &HandArgs) -> PyResult<Kernel<W>> {
    let t = &rules.t;
    let size = rules.size;
    if a.hands.len() != t.players {
        return Err(PyValueError::new_err(format!(
            "{} hands for {} players",
            a.hands.len(),
            t.players
        )));
    }
    if a.leader >= t.players {
        return Err(PyValueError::new_err(format!("leader {} is not a seat", a.leader)));
    }
    if let Some(s) = &a.scores {
        if s.len() != t.owners {
            return Err(PyValueError::new_err(format!(
                "{} scores for {} sides",
                s.len(),
                t.owners
            )));
        }
    }
    if a.lead_tile >= size as i64 {
        return Err(PyValueError::new_err(format!("lead tile {} is not in the set", a.lead_tile)));
    }
    let masks = a.hands.iter().map(|h| mask_of::<W>(h, size)).collect::<PyResult<Vec<_>>>()?;
    let mut bone = Vec::with_capacity(a.boneyard.len());
    for &b in &a.boneyard {
        match u8::try_from(b) {
            Ok(tile) if b < size => bone.push(tile),
            _ => {
                return Err(PyValueError::new_err(format!("tile id {b} is not in a set of {size}")))
            }
        }
    }
    if let Some(g) = &a.got_in {
        if g.len() != t.owners {
            return Err(PyValueError::new_err(format!(
                "{} got_in flags for {} sides",
                g.len(),
                t.owners
            )));
        }
    }
    let setup = HandSetup {
        scores: a.scores.clone(),
        got_in: a.got_in.clone(),
        lead_tile: a.lead_tile,
        lead_doubles_only: a.lead_doubles_only,
        out_of_play: mask_of::<W>(&a.out_of_play, size)?,
        record: a.record,
        pot: a.pot,
        ..HandSetup::new(masks, bone, a.leader)
    };
    Ok(Kernel::new(Arc::clone(rules), setup))
}

/// A boneyard entry scrubbed from a world (`-1` in Python): no tile has this id.
const HIDDEN: u8 = u8::MAX;

/// The stepwise hand: dealt from given tiles, then moves applied one by one.
#[pyclass(module = "bones_native")]
pub(crate) struct Hand {
    inner: AnyHand,
}

#[pymethods]
impl Hand {
    #[new]
    #[pyo3(signature = (rules, hands, boneyard, leader, scores=None, lead_tile=-1,
                        lead_doubles_only=false, out_of_play=Vec::new(), record=true, pot=0,
                        got_in=None))]
    // the keyword signature Python callers use (`nativehand`): one argument a field
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: &Rules,
        hands: Vec<Vec<usize>>,
        boneyard: Vec<usize>,
        leader: usize,
        scores: Option<Vec<i64>>,
        lead_tile: i64,
        lead_doubles_only: bool,
        out_of_play: Vec<usize>,
        record: bool,
        pot: i64,
        got_in: Option<Vec<bool>>,
    ) -> PyResult<Self> {
        let args = HandArgs {
            hands,
            boneyard,
            leader,
            scores,
            lead_tile,
            lead_doubles_only,
            out_of_play,
            record,
            pot,
            got_in,
        };
        guard(|| {
            let inner = match &rules.inner {
                AnyRules::W1(r) => AnyHand::W1(build(r, &args)?),
                AnyRules::W2(r) => AnyHand::W2(build(r, &args)?),
                AnyRules::W3(r) => AnyHand::W3(build(r, &args)?),
            };
            Ok(Hand { inner })
        })
    }

    /// Points tied hands left on the table (`ties: carry`).
    #[getter]
    fn pot(&self) -> i64 {
        each!(self, h => h.pot)
    }

    fn legal_moves(&self) -> PyResult<Vec<i64>> {
        guard(|| Ok(each!(self, h => h.legal_moves())))
    }

    fn is_legal(&self, mv: i64) -> PyResult<bool> {
        guard(|| Ok(each!(self, h => h.is_legal(mv))))
    }

    /// Apply a move without checking it (the caller checked it is legal).
    #[pyo3(signature = (mv, claim=None))]
    fn apply(&mut self, mv: i64, claim: Option<i64>) -> PyResult<()> {
        guard(|| {
            each_mut!(self, h => {
                if h.state != crate::kernel::moves::PLAYING {
                    return Err(PyValueError::new_err("the hand is over"));
                }
                h.apply(mv, claim)
            });
            Ok(())
        })
    }

    fn copy(&self) -> PyResult<Hand> {
        guard(|| {
            let inner = match &self.inner {
                AnyHand::W1(h) => AnyHand::W1(h.clone()),
                AnyHand::W2(h) => AnyHand::W2(h.clone()),
                AnyHand::W3(h) => AnyHand::W3(h.clone()),
            };
            Ok(Hand { inner })
        })
    }

    fn recount(&self) -> i64 {
        each!(self, h => h.recount())
    }

    /// The tile mask (a Python int, bit t for tile t) of a seat's hand.
    fn hand_mask<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyAny>> {
        each!(self, h => {
            if seat >= h.rules.t.players {
                return Err(PyValueError::new_err(format!("seat {seat} is not at the table")));
            }
            py_mask(py, &h.hands[seat])
        })
    }

    #[getter]
    fn open_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        each!(self, h => py_mask(py, &h.open_mask))
    }

    #[getter]
    fn on_table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        each!(self, h => py_mask(py, &h.on_table))
    }

    #[getter]
    fn turn(&self) -> usize {
        each!(self, h => h.turn)
    }
    #[getter]
    fn leader(&self) -> usize {
        each!(self, h => h.leader)
    }
    #[getter]
    fn state(&self) -> u8 {
        each!(self, h => h.state)
    }
    #[getter]
    fn count(&self) -> i64 {
        each!(self, h => h.count)
    }
    #[getter]
    fn placed(&self) -> u32 {
        each!(self, h => h.placed)
    }
    #[getter]
    fn passes(&self) -> i64 {
        each!(self, h => h.passes)
    }
    #[getter]
    fn drawn_turn(&self) -> i64 {
        each!(self, h => h.drawn_turn)
    }
    #[getter]
    fn last_points(&self) -> i64 {
        each!(self, h => h.last_points)
    }
    #[getter]
    fn last_player(&self) -> i64 {
        each!(self, h => h.last_player)
    }
    #[getter]
    fn domino_seat(&self) -> i64 {
        each!(self, h => h.domino_seat)
    }
    #[getter]
    fn winner(&self) -> i64 {
        each!(self, h => h.winner)
    }
    #[getter]
    fn game_over(&self) -> bool {
        each!(self, h => h.game_over)
    }
    #[getter]
    fn bone_pos(&self) -> usize {
        each!(self, h => h.bone_pos)
    }
    #[getter]
    fn bone_end(&self) -> usize {
        each!(self, h => h.bone_end)
    }
    #[getter]
    fn spinners(&self) -> u32 {
        each!(self, h => h.spinners)
    }
    #[getter]
    fn scores(&self) -> Vec<i64> {
        each!(self, h => h.scores.clone())
    }
    /// Replace the running scores (a match keeps them between hands).
    #[setter]
    fn set_scores(&mut self, scores: Vec<i64>) -> PyResult<()> {
        each_mut!(self, h => {
            if scores.len() != h.scores.len() {
                return Err(PyValueError::new_err("wrong number of scores"));
            }
            h.scores = scores;
        });
        Ok(())
    }
    #[getter]
    fn got_in(&self) -> Vec<bool> {
        each!(self, h => h.got_in.clone())
    }
    #[getter]
    fn settlement(&self) -> Option<Vec<i64>> {
        each!(self, h => h.settlement.clone())
    }
    #[getter]
    fn drawn(&self) -> Vec<u32> {
        each!(self, h => h.drawn[..h.rules.t.players].to_vec())
    }
    #[getter]
    fn out(&self) -> Vec<bool> {
        each!(self, h => h.out[..h.rules.t.players].to_vec())
    }
    #[getter]
    fn arm_open(&self) -> Vec<i64> {
        each!(self, h => h.arm_open[..h.n_arms].iter().map(|&p| i64::from(p)).collect())
    }
    /// The boneyard in drawing order; -1 for a tile scrubbed from a world
    /// (only before `bone_pos`: those are never read again).
    #[getter]
    fn boneyard(&self) -> Vec<i64> {
        each!(self, h => h.boneyard.iter().map(|&t| if t == HIDDEN { -1 } else { i64::from(t) }).collect())
    }
    /// Replace the boneyard (same length; a re-dealt world, a chance node's
    /// draw). Tiles from `bone_pos` on must be real tiles; earlier ones may be -1.
    #[setter]
    fn set_boneyard(&mut self, tiles: Vec<i64>) -> PyResult<()> {
        guard(|| {
            each_mut!(self, h => {
                if tiles.len() != h.boneyard.len() {
                    return Err(PyValueError::new_err(format!(
                        "{} boneyard tiles for a boneyard of {}", tiles.len(), h.boneyard.len())));
                }
                let size = h.rules.size as i64;
                let mut bone = Vec::with_capacity(tiles.len());
                for (i, &t) in tiles.iter().enumerate() {
                    if t == -1 && i < h.bone_pos {
                        bone.push(HIDDEN);
                    } else if (0..size).contains(&t) {
                        bone.push(t as u8);
                    } else {
                        return Err(PyValueError::new_err(format!(
                            "boneyard entry {i} is {t}, not a tile of a set of {size}")));
                    }
                }
                h.boneyard = bone;
                Ok(())
            })
        })
    }
    /// Every seat's tile mask (Python ints), in seat order.
    #[getter]
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        each!(self, h => (0..h.rules.t.players).map(|s| py_mask(py, &h.hands[s])).collect())
    }
    /// Replace every seat's tiles (tile ids per seat): a scenario's layout
    /// mode, a world with the hidden tiles dealt anew.
    fn set_hands(&mut self, hands: Vec<Vec<usize>>) -> PyResult<()> {
        guard(|| {
            each_mut!(self, h => {
                let players = h.rules.t.players;
                if hands.len() != players {
                    return Err(PyValueError::new_err(format!(
                        "{} hands for {players} players", hands.len())));
                }
                let size = h.rules.size;
                for (s, tiles) in hands.iter().enumerate() {
                    h.hands[s] = mask_of(tiles, size)?;
                }
                Ok(())
            })
        })
    }
    #[getter]
    fn out_of_play<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        each!(self, h => py_mask(py, &h.out_of_play))
    }
    #[getter]
    fn lead_tile(&self) -> i64 {
        each!(self, h => h.lead_tile)
    }
    #[getter]
    fn lead_doubles_only(&self) -> bool {
        each!(self, h => h.lead_doubles_only)
    }
    #[getter]
    fn first_double_seen(&self) -> bool {
        each!(self, h => h.first_double_seen)
    }
    /// Every field of the Python `Hand` but `rules`, `scores` and `voids`, in
    /// the order of `HAND_FIELDS` and in the Python hand's types, in one call
    /// (`NativeHand.to_python`). With `seat`, what that seat may see
    /// (`Hand.scrub_for`): the other hands empty, the boneyard's tiles -1.
    #[pyo3(signature = (seat=None))]
    fn fields<'py>(&self, py: Python<'py>, seat: Option<usize>) -> PyResult<Bound<'py, PyTuple>> {
        each!(self, h => python_fields(py, h, seat))
    }
    /// The layout as the Python `Hand` keeps it, in one call:
    /// `((arm_open, arm_end, arm_weight, arm_hub, arm_root, arm_side,
    /// arm_stub, arm_frozen), (hub_pip, hub_k, hub_mult, hub_cross,
    /// hub_sides_left, hub_spins))`; a hub without cross arms has `()`.
    fn layout(&self) -> (Arms, Hubs) {
        each!(self, h => layout_of(h))
    }
    /// (seat, move, points of the mover) per move, in order (when recording).
    #[getter]
    fn log(&self) -> Vec<(u8, i64, i64)> {
        each!(self, h => h.log.clone())
    }
    /// Moves made (recorded or not).
    #[getter]
    fn moves(&self) -> u32 {
        each!(self, h => h.moves)
    }
    /// The points the mover would score by `mv` (`policies.points_if`).
    fn points_if(&self, mv: i64) -> PyResult<i64> {
        guard(|| Ok(each!(self, h => h.points_if(mv))))
    }

    /// Move-path counts to `depth` (the perft tests' measure).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        let inner = &self.inner;
        py.allow_threads(|| {
            guard(|| {
                Ok(match inner {
                    AnyHand::W1(h) => h.perft(depth),
                    AnyHand::W2(h) => h.perft(depth),
                    AnyHand::W3(h) => h.perft(depth),
                })
            })
        })
    }

    /// The greedy bot's move (`policies.greedy_move`).
    fn greedy_move(&self) -> PyResult<i64> {
        guard(|| {
            Ok(each!(self, h => {
                let legal = h.legal_moves();
                if legal.is_empty() { -2 } else { h.greedy_move(&legal) }
            }))
        })
    }

    /// Play to the end with `policy` ("random" or "greedy"), random choices
    /// from `Rng(seed)` as docs/random.md specifies. True when the hand ended.
    #[pyo3(signature = (policy, seed, max_moves=100_000))]
    fn playout(
        &mut self,
        py: Python<'_>,
        policy: &str,
        seed: u64,
        max_moves: usize,
    ) -> PyResult<bool> {
        let greedy = match policy {
            "random" => false,
            "greedy" => true,
            other => return Err(PyValueError::new_err(format!("no native policy {other:?}"))),
        };
        let mut rng = KRng::new(seed);
        let inner = &mut self.inner;
        py.allow_threads(|| {
            guard(|| {
                Ok(match inner {
                    AnyHand::W1(h) => h.playout(greedy, &mut rng, max_moves),
                    AnyHand::W2(h) => h.playout(greedy, &mut rng, max_moves),
                    AnyHand::W3(h) => h.playout(greedy, &mut rng, max_moves),
                })
            })
        })
    }

    fn pips_left(&self, seat: usize) -> PyResult<i64> {
        each!(self, h => {
            if seat >= h.rules.t.players {
                return Err(PyValueError::new_err(format!("seat {seat} is not at the table")));
            }
            Ok(h.pips_left(seat))
        })
    }
}

/// A kernel hand with the state of the Python `Hand` `o` (a layout: its
/// hands and boneyard contents are replaced by the sampler).
pub(crate) fn hand_from_py<const W: usize>(
    rules: &Arc<KRules<W>>,
    o: &Bound<'_, PyAny>,
) -> PyResult<Kernel<W>> {
    let size = rules.size;
    let t = &rules.t;
    let boneyard: Vec<i64> = attr(o, "boneyard")?;
    let leader: usize = attr(o, "leader")?;
    if leader >= t.players {
        return Err(PyValueError::new_err(format!("leader {leader} is not a seat")));
    }
    let scores: Vec<i64> = attr(o, "scores")?;
    if scores.len() != t.owners {
        return Err(PyValueError::new_err(format!(
            "{} scores for {} sides",
            scores.len(),
            t.owners
        )));
    }
    let oop = mask::<W>(&o.getattr("out_of_play")?, size)?;
    let bone = vec![0u8; boneyard.len()];
    let setup = HandSetup {
        scores: Some(scores),
        lead_tile: attr(o, "lead_tile")?,
        lead_doubles_only: attr(o, "lead_doubles_only")?,
        out_of_play: oop,
        ..HandSetup::new(vec![Bits::<W>::ZERO; t.players], bone, leader)
    };
    let mut h = Kernel::new(Arc::clone(rules), setup);
    h.bone_pos = attr(o, "bone_pos")?;
    h.bone_end = attr(o, "bone_end")?;
    if h.bone_pos > boneyard.len() || h.bone_end > boneyard.len() {
        return Err(PyValueError::new_err("the boneyard position is beyond the boneyard"));
    }
    let arm_open: Vec<i64> = attr(o, "arm_open")?;
    let n = arm_open.len();
    if n > MAX_ARMS {
        return Err(PyValueError::new_err(format!("more than {MAX_ARMS} arms")));
    }
    let arm_end: Vec<i64> = attr(o, "arm_end")?;
    let arm_weight: Vec<i64> = attr(o, "arm_weight")?;
    let arm_hub: Vec<i64> = attr(o, "arm_hub")?;
    let arm_root: Vec<i64> = attr(o, "arm_root")?;
    let arm_side: Vec<bool> = attr(o, "arm_side")?;
    let arm_stub: Vec<bool> = attr(o, "arm_stub")?;
    let arm_frozen: Vec<i64> = attr(o, "arm_frozen")?;
    for v in [&arm_end, &arm_weight, &arm_hub, &arm_root, &arm_frozen] {
        if v.len() != n {
            return Err(PyValueError::new_err("the arms' lists differ in length"));
        }
    }
    if arm_side.len() != n || arm_stub.len() != n {
        return Err(PyValueError::new_err("the arms' lists differ in length"));
    }
    h.n_arms = n;
    for a in 0..n {
        h.arm_open[a] = small(arm_open[a], "an arm's pip")?;
        h.arm_end[a] = small(arm_end[a], "an arm's end")?;
        h.arm_weight[a] = small(arm_weight[a], "an arm's weight")?;
        h.arm_hub[a] = small(arm_hub[a], "an arm's hub")?;
        h.arm_root[a] = small(arm_root[a], "an arm's root")?;
        h.arm_side[a] = arm_side[a];
        h.arm_stub[a] = arm_stub[a];
        h.arm_frozen[a] = small(arm_frozen[a], "an arm's frozen pip")?;
    }
    let hub_pip: Vec<i64> = attr(o, "hub_pip")?;
    let m = hub_pip.len();
    if m > MAX_HUBS {
        return Err(PyValueError::new_err(format!("more than {MAX_HUBS} hubs")));
    }
    let hub_k: Vec<i64> = attr(o, "hub_k")?;
    let hub_mult: Vec<Vec<i64>> = attr(o, "hub_mult")?;
    let hub_cross: Vec<Vec<i64>> = attr(o, "hub_cross")?;
    let hub_sides_left: Vec<i64> = attr(o, "hub_sides_left")?;
    let hub_spins: Vec<bool> = attr(o, "hub_spins")?;
    if hub_k.len() != m
        || hub_mult.len() != m
        || hub_cross.len() != m
        || hub_sides_left.len() != m
        || hub_spins.len() != m
    {
        return Err(PyValueError::new_err("the hubs' lists differ in length"));
    }
    h.n_hubs = m;
    for k in 0..m {
        h.hub_pip[k] = small(hub_pip[k], "a hub's pip")?;
        h.hub_k[k] = small(hub_k[k], "a hub's cover")?;
        if hub_mult[k].len() != 5 || h.hub_k[k] > 4 {
            return Err(PyValueError::new_err("a hub needs 5 multipliers"));
        }
        h.hub_mult[k].copy_from_slice(&hub_mult[k]);
        h.hub_cross[k] = match hub_cross[k][..] {
            [] => (-1, -1),
            [a, b] => (small(a, "a cross arm")?, small(b, "a cross arm")?),
            _ => return Err(PyValueError::new_err("a hub has two cross arms or none")),
        };
        h.hub_sides_left[k] = small(hub_sides_left[k], "a hub's sides")?;
        h.hub_spins[k] = hub_spins[k];
    }
    h.spinners = attr(o, "spinners")?;
    h.first_double_seen = attr(o, "first_double_seen")?;
    h.count = attr(o, "count")?;
    h.turn = attr(o, "turn")?;
    h.placed = attr(o, "placed")?;
    h.on_table = mask::<W>(&o.getattr("on_table")?, size)?;
    h.passes = attr(o, "passes")?;
    h.drawn_turn = attr(o, "drawn_turn")?;
    let drawn: Vec<u32> = attr(o, "drawn")?;
    let out: Vec<bool> = attr(o, "out")?;
    if h.turn >= t.players
        || drawn.len() != t.players
        || out.len() != t.players
        || t.players > MAX_PLAYERS
    {
        return Err(PyValueError::new_err("the seats' lists do not match the table"));
    }
    h.drawn[..t.players].copy_from_slice(&drawn);
    h.out[..t.players].copy_from_slice(&out);
    let got_in: Vec<bool> = attr(o, "got_in")?;
    if got_in.len() != t.owners {
        return Err(PyValueError::new_err("the sides' lists do not match the table"));
    }
    h.got_in = got_in;
    h.state = attr(o, "state")?;
    h.game_over = attr(o, "game_over")?;
    h.winner = attr(o, "winner")?;
    h.domino_seat = attr(o, "domino_seat")?;
    h.last_player = attr(o, "last_player")?;
    h.settlement = attr(o, "settlement")?;
    h.last_points = attr(o, "last_points")?;
    h.open_mask = mask::<W>(&o.getattr("open_mask")?, size)?;
    h.pot = attr(o, "pot")?;
    Ok(h)
}
