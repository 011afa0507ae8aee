//! The Python binding: `bones_native.Rules` (a flat table, checked once) and
//! `bones_native.Hand` (the stepwise hand). Every entry point runs under
//! `guard`, so a Rust panic becomes a one-line `NativeError`, never a dead
//! interpreter or a `PanicException` (which derives from BaseException).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use pyo3::IntoPyObjectExt;

use crate::bits::Bits;
use crate::format::TABLE_FORMAT;
use crate::hand::{Hand as Kernel, HandSetup};
use crate::rng::{derive as kderive, Rng as KRng};
use crate::table::{AnyRules, Points, Rules as KRules, Settle, Table, When};

create_exception!(
    bones_native,
    NativeError,
    PyRuntimeError,
    "An internal error of the native core."
);

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_string()
    }
}

/// Run `f`, turning a panic into a one-line `NativeError`.
pub(crate) fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let msg = panic_message(payload);
            let line = msg.lines().next().unwrap_or("").to_string();
            Err(NativeError::new_err(format!(
                "internal error in the native core: {line} (please report it; \
                 BONES_CORE=python runs the Python core)"
            )))
        }
    }
}

// ------------------------------------------------------------------ tables

fn get_i64(d: &Bound<'_, PyDict>, key: &str) -> PyResult<i64> {
    match d.get_item(key)? {
        Some(v) => v.extract::<i64>(),
        None => Err(PyValueError::new_err(format!("the flat table has no field '{key}'"))),
    }
}

fn get_vec(d: &Bound<'_, PyDict>, key: &str) -> PyResult<Vec<i64>> {
    match d.get_item(key)? {
        Some(v) => v.extract::<Vec<i64>>(),
        None => Err(PyValueError::new_err(format!("the flat table has no field '{key}'"))),
    }
}

/// A rule code of the table, decoded (an unknown code is a `ValueError`).
fn get_code<T: TryFrom<i64, Error = String>>(d: &Bound<'_, PyDict>, key: &str) -> PyResult<T> {
    T::try_from(get_i64(d, key)?).map_err(PyValueError::new_err)
}

pub fn table_from_dict(d: &Bound<'_, PyDict>) -> PyResult<Table> {
    let format: String = match d.get_item("format")? {
        Some(v) => v.extract()?,
        None => String::new(),
    };
    if format != TABLE_FORMAT {
        return Err(PyValueError::new_err(format!(
            "table format {format} but the native core was built for {TABLE_FORMAT}: \
             rebuild it (pip install ./native)"
        )));
    }
    let five = |k: &str| -> PyResult<[i64; 5]> {
        <[i64; 5]>::try_from(get_vec(d, k)?)
            .map_err(|_| PyValueError::new_err(format!("{k} needs 5 entries")))
    };
    let spins_later = get_vec(d, "spins_later")?;
    if spins_later.len() != 2 {
        return Err(PyValueError::new_err("spins_later needs 2 entries"));
    }
    // both read: `floor` is in the table whether it is set or not
    let (floor_set, floor) = (get_i64(d, "floor_set")?, get_i64(d, "floor")?);
    let floor = if floor_set != 0 { Some(floor) } else { None };
    let usize_of = |k: &str| -> PyResult<usize> {
        let v = get_i64(d, k)?;
        usize::try_from(v).map_err(|_| PyValueError::new_err(format!("{k} = {v} is negative")))
    };
    let seats = |k: &str| -> PyResult<Vec<usize>> {
        get_vec(d, k)?
            .into_iter()
            .map(|o| usize::try_from(o).map_err(|_| PyValueError::new_err(format!("negative {k}"))))
            .collect()
    };
    let owner = seats("owner")?;
    let t = Table {
        players: usize_of("players")?,
        owners: usize_of("owners")?,
        teams: get_i64(d, "teams")? != 0,
        owner,
        opponent_after: seats("opponent_after")?,
        highest: usize_of("highest")?,
        hand_size: usize_of("hand_size")?,
        reserve: usize_of("reserve")?,
        order: get_code(d, "order")?,
        plain_arms: get_i64(d, "plain_arms")? != 0,
        spinner_mult: five("spinner_mult")?,
        double_weight: get_i64(d, "double_weight")?,
        spins_led: get_i64(d, "spins_led")? != 0,
        spins_later: [spins_later[0] != 0, spins_later[1] != 0],
        cross_stubs: get_i64(d, "cross_stubs")? != 0,
        lead_double_mult: five("lead_double_mult")?,
        max_arms: usize_of("max_arms")?,
        scores_plays: get_i64(d, "scores_plays")? != 0,
        count_points: get_vec(d, "count_points")?,
        headers: get_i64(d, "headers")? != 0,
        header_points: get_vec(d, "header_points")?,
        when: get_code(d, "when")?,
        when_values: get_vec(d, "when_values")?,
        points: get_code(d, "points")?,
        points_param: get_i64(d, "points_param")?,
        get_in: get_i64(d, "get_in")?,
        get_in_match: get_i64(d, "get_in_match")? != 0,
        lead_cannot_win: get_i64(d, "lead_cannot_win")? != 0,
        muggins: get_code(d, "muggins")?,
        penalise_over_claim: get_i64(d, "penalise_over_claim")? != 0,
        over_claim_points: get_code(d, "over_claim_points")?,
        drawing: get_code(d, "drawing")?,
        max_draws: get_i64(d, "max_draws")?,
        must_play_drawn: get_i64(d, "must_play_drawn")? != 0,
        draw_while_able: get_i64(d, "draw_while_able")? != 0,
        knock_bonus: get_i64(d, "knock_bonus")?,
        stuck_blocks: get_i64(d, "stuck_blocks")? != 0,
        partners_both_out: get_i64(d, "partners_both_out")? != 0,
        floor,
        check: get_code(d, "check")?,
        target: get_i64(d, "target")?,
        hands_in_match: get_i64(d, "hands_in_match")?,
        settle_domino: Settle::from_codes(&get_vec(d, "settle_domino")?)
            .map_err(PyValueError::new_err)?,
        settle_blocked: Settle::from_codes(&get_vec(d, "settle_blocked")?)
            .map_err(PyValueError::new_err)?,
    };
    if t.points == Points::Divided && t.points_param < 1 {
        return Err(PyValueError::new_err("divided points need a divisor of at least 1"));
    }
    if t.when == When::MultipleOf && t.when_values.iter().any(|&d| d < 1) {
        return Err(PyValueError::new_err("divisors must be at least 1"));
    }
    t.check().map_err(PyValueError::new_err)?;
    Ok(t)
}

/// The kernel's rules for a flat table (`bones.engine.flat`), at the width
/// its tile set needs: what every native object's constructor reads.
pub(crate) fn rules_from_dict(table: &Bound<'_, PyDict>) -> PyResult<AnyRules> {
    AnyRules::new(table_from_dict(table)?).map_err(PyValueError::new_err)
}

/// A flat rule table, checked and turned into the kernel's tables once.
#[pyclass(module = "bones_native", frozen)]
struct Rules {
    inner: AnyRules,
    size: usize,
}

#[pymethods]
impl Rules {
    #[new]
    fn new(table: &Bound<'_, PyDict>) -> PyResult<Self> {
        guard(|| {
            let t = table_from_dict(table)?;
            let size = t.size();
            let inner = AnyRules::new(t).map_err(PyValueError::new_err)?;
            Ok(Rules { inner, size })
        })
    }

    /// How many 64-bit words a tile mask takes for this set.
    #[getter]
    fn words(&self) -> usize {
        self.inner.words()
    }

    #[getter]
    fn tiles(&self) -> usize {
        self.size
    }
}

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

fn mask_of<const W: usize>(tiles: &[usize], size: usize) -> PyResult<Bits<W>> {
    let mut b = Bits::<W>::ZERO;
    for &t in tiles {
        if t >= size {
            return Err(PyValueError::new_err(format!("tile id {t} is not in a set of {size}")));
        }
        b.set(t);
    }
    Ok(b)
}

fn py_mask<'py, const W: usize>(py: Python<'py>, b: &Bits<W>) -> PyResult<Bound<'py, PyAny>> {
    if W == 1 {
        return Ok(b.0[0].into_pyobject(py)?.into_any());
    }
    let mut v = 0u64.into_pyobject(py)?.into_any();
    for i in (0..W).rev() {
        v = v.lshift(64)?.bitor(b.0[i].into_pyobject(py)?)?;
    }
    Ok(v)
}

/// The names of `Hand.fields`, in order.
const HAND_FIELDS: [&str; 44] = [
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
struct Hand {
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
                if h.state != crate::moves::PLAYING {
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

/// The specified stream (`bones.engine.rng.Rng`), for tests and tools.
#[pyclass(module = "bones_native")]
struct Rng {
    inner: KRng,
}

#[pymethods]
impl Rng {
    #[new]
    fn new(seed: u64) -> Self {
        Rng { inner: KRng::new(seed) }
    }
    #[getter]
    fn state(&self) -> u64 {
        self.inner.state
    }
    fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }
    fn random(&mut self) -> f64 {
        self.inner.random()
    }
    fn below(&mut self, n: u64) -> PyResult<u64> {
        if n == 0 {
            return Err(PyValueError::new_err("below() needs 1 <= n < 2**64"));
        }
        Ok(self.inner.below(n))
    }
    /// A shuffled copy of `a`.
    fn shuffled(&mut self, mut a: Vec<i64>) -> Vec<i64> {
        self.inner.shuffle(&mut a);
        a
    }
    fn shuffled_tail(&mut self, mut a: Vec<i64>, k: usize) -> Vec<i64> {
        self.inner.shuffle_tail(&mut a, k);
        a
    }
}

/// `bones.engine.rng.derive` for seeds and path elements already reduced mod 2**64.
#[pyfunction]
fn derive(seed: u64, path: Vec<u64>) -> u64 {
    kderive(seed, &path)
}

/// Every constant the two cores share, by name, for the test that compares
/// them with the Python modules' (`tests/test_shared_constants.py`).
#[pyfunction]
fn constants(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    use crate::moves;
    let named = |items: &[(&str, i64)]| -> PyResult<Bound<'_, PyDict>> {
        let d = PyDict::new(py);
        for &(name, value) in items {
            d.set_item(name, value)?;
        }
        Ok(d)
    };
    let out = PyDict::new(py);
    out.set_item("format", TABLE_FORMAT)?;
    out.set_item(
        "moves",
        named(&[
            ("DRAW", moves::DRAW),
            ("PASS", moves::PASS),
            ("TILE_SHIFT", i64::from(moves::TILE_SHIFT)),
            ("ARM_SHIFT", i64::from(moves::ARM_SHIFT)),
            ("ARM_MASK", moves::ARM_MASK),
            ("FLIP", moves::FLIP),
            ("NO_ARM", moves::NO_ARM),
        ])?,
    )?;
    out.set_item(
        "outcomes",
        named(&[
            ("PLAYING", i64::from(moves::PLAYING)),
            ("DOMINO", i64::from(moves::DOMINO)),
            ("BLOCKED", i64::from(moves::BLOCKED)),
            ("TARGET", i64::from(moves::TARGET)),
        ])?,
    )?;
    let codes = PyDict::new(py);
    for &(family, items) in crate::codes::FAMILIES {
        codes.set_item(family, named(items)?)?;
    }
    out.set_item("codes", codes)?;
    out.set_item("table_fields", crate::table::TABLE_FIELDS.to_vec())?;
    out.set_item("match_fields", crate::game::MATCH_FIELDS.to_vec())?;
    out.set_item("settle_fields", Settle::FIELDS.to_vec())?;
    out.set_item("lead_fields", crate::game::LeadRule::FIELDS.to_vec())?;
    out.set_item("hand_fields", HAND_FIELDS.to_vec())?;
    let as_i64 = |n: usize| i64::try_from(n).expect("a small constant");
    out.set_item(
        "streams",
        named(&[
            ("DEALS", i64::try_from(crate::game::DEALS).expect("a small constant")),
            ("BOTS", i64::try_from(crate::game::BOTS).expect("a small constant")),
        ])?,
    )?;
    out.set_item(
        "match",
        named(&[
            ("MAX_HANDS", as_i64(crate::game::MAX_HANDS)),
            ("MAX_REDEALS", as_i64(crate::game::MAX_REDEALS)),
        ])?,
    )?;
    out.set_item(
        "sim",
        named(&[
            ("TIME_SAMPLE", i64::try_from(crate::sim::TIME_SAMPLE).expect("a small constant")),
            ("PLAY", as_i64(crate::sim::PLAY)),
            ("SETTLE", as_i64(crate::sim::SETTLE)),
            ("SCORE", as_i64(crate::sim::SCORE)),
        ])?,
    )?;
    out.set_item("TIME_BINS", crate::sim::TIME_BINS)?;
    out.set_item("search", named(&[("WIN", crate::matchvalue::WIN)])?)?;
    let tree = PyDict::new(py);
    tree.set_item("DEFAULT_EXPLORE", crate::ismcts::DEFAULT_EXPLORE)?;
    tree.set_item("DEFAULT_SCALE", crate::ismcts::DEFAULT_SCALE)?;
    tree.set_item("DEFAULT_WORLDS", crate::ismcts::DEFAULT_WORLDS)?;
    out.set_item("ismcts", tree)?;
    Ok(out)
}

/// Panic on purpose (the tests check a panic becomes a one-line error).
#[pyfunction]
fn _provoke_panic() -> PyResult<()> {
    guard(|| {
        let v: Vec<i64> = Vec::new();
        let i = v.len() + 3;
        std::hint::black_box(v[i]);
        Ok(())
    })
}

#[pymodule]
fn bones_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // the message goes into the NativeError: nothing on stderr
    std::panic::set_hook(Box::new(|_| {}));
    m.add("TABLE_FORMAT", TABLE_FORMAT)?;
    m.add("HAND_FIELDS", PyTuple::new(m.py(), HAND_FIELDS)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NativeError", m.py().get_type::<NativeError>())?;
    m.add_class::<Rules>()?;
    m.add_class::<Hand>()?;
    m.add_class::<Rng>()?;
    m.add_function(wrap_pyfunction!(derive, m)?)?;
    m.add_function(wrap_pyfunction!(constants, m)?)?;
    m.add_function(wrap_pyfunction!(_provoke_panic, m)?)?;
    crate::pysim::register(m)?;
    crate::pysearch::register(m)?;
    crate::pyismcts::register(m)?;
    crate::pyvector::register(m)?;
    Ok(())
}
