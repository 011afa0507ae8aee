//! `bones_native.Hand`: the stepwise hand, dealt from given tiles, then
//! moves applied one by one, read back in the Python hand's fields.
//!
//! Which fields a hand has, and in what order, is declared once
//! (`bones.engine.handstate.HAND_STATE`); `hand_fields.rs` is generated from
//! it and calls the conversions of each kind of field here: [`Out`] makes a
//! field's Python value, [`In`] reads it back from a Python hand. A field
//! of kind `int` or `flag` converts by its Rust type ([`Scalar`]): an
//! `Option<usize>` of the kernel (a winner, a tile to lead) is -1 in Python
//! for `None`.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use std::cell::Cell;
use std::sync::Arc;

use pyo3::exceptions::{PyAttributeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use pyo3::IntoPyObjectExt;

use crate::kernel::bits::Bits;
use crate::kernel::convert::int_or_none;
use crate::kernel::hand::{Hand as Kernel, HandSetup, MAX_ARMS, MAX_HUBS};
use crate::kernel::rng::Rng as KRng;
use crate::kernel::table::{AnyRules, Rules as KRules};
use crate::python::convert::{attr, guard, index_or_none, mask, mask_of, py_mask, small};
use crate::python::hand_fields::{self, HAND_FIELDS};
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

/// A boneyard entry scrubbed from a world (`-1` in Python): no tile has this id.
const HIDDEN: u8 = u8::MAX;

// ------------------------------------------------------- scalar fields

/// A hand field of kind `int` or `flag`, by its Rust type: its Python value
/// and back.
pub(crate) trait Scalar: Sized {
    fn to_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
    fn from_py(v: &Bound<'_, PyAny>, name: &str) -> PyResult<Self>;
}

/// The types Python holds as they are.
macro_rules! plain_scalar {
    ($($t:ty),+) => {$(
        impl Scalar for $t {
            fn to_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                self.into_bound_py_any(py)
            }
            fn from_py(v: &Bound<'_, PyAny>, _: &str) -> PyResult<Self> {
                v.extract()
            }
        }
    )+};
}

plain_scalar!(bool, u8, u32, usize, i64);

/// A seat, side or tile the hand may lack: -1 in Python for `None`.
impl Scalar for Option<usize> {
    fn to_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        int_or_none(self).into_bound_py_any(py)
    }
    fn from_py(v: &Bound<'_, PyAny>, name: &str) -> PyResult<Self> {
        index_or_none(v.extract()?, name)
    }
}

// ------------------------------------------------------- fields to Python

/// Makes the Python value of each kind of hand field (`hand_fields::to_python`):
/// per-seat lists cut to the players, per-arm and per-hub lists to the
/// layout's arms and hubs, and, for a seat (`Hand.scrub_for`), the other
/// hands empty and the boneyard's tiles -1.
pub(crate) struct Out<'py> {
    py: Python<'py>,
    seat: Option<usize>,
    players: usize,
    arms: usize,
    hubs: usize,
}

impl<'py> Out<'py> {
    pub(crate) fn new<const W: usize>(
        py: Python<'py>,
        h: &Kernel<W>,
        seat: Option<usize>,
    ) -> PyResult<Self> {
        let players = h.rules.t.players;
        if let Some(s) = seat.filter(|&s| s >= players) {
            return Err(PyValueError::new_err(format!("seat {s} is not at the table")));
        }
        Ok(Out { py, seat, players, arms: h.n_arms, hubs: h.n_hubs })
    }

    /// A field of kind `int` or `flag`.
    pub(crate) fn value<T: Scalar>(&self, v: T) -> PyResult<Bound<'py, PyAny>> {
        v.to_py(self.py)
    }

    fn any<T: IntoPyObject<'py>>(&self, v: T) -> PyResult<Bound<'py, PyAny>> {
        v.into_bound_py_any(self.py)
    }

    fn list<T: IntoPyObject<'py> + Copy>(&self, v: &[T]) -> PyResult<Bound<'py, PyAny>> {
        PyList::new(self.py, v.iter().copied())?.into_bound_py_any(self.py)
    }

    fn tuples(&self, rows: impl Iterator<Item = Vec<i64>>) -> PyResult<Bound<'py, PyAny>> {
        let rows = rows.map(|r| PyTuple::new(self.py, r)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(self.py, rows)?.into_bound_py_any(self.py)
    }

    pub(crate) fn mask<const W: usize>(&self, v: &Bits<W>) -> PyResult<Bound<'py, PyAny>> {
        py_mask(self.py, v)
    }

    pub(crate) fn seat_masks<const W: usize>(&self, v: &[Bits<W>]) -> PyResult<Bound<'py, PyAny>> {
        let masks = (0..self.players)
            .map(|s| match self.seat {
                Some(me) if me != s => 0u64.into_bound_py_any(self.py),
                _ => py_mask(self.py, &v[s]),
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(self.py, masks)?.into_bound_py_any(self.py)
    }

    pub(crate) fn boneyard(&self, v: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        let tiles: Vec<i64> = match self.seat {
            Some(_) => vec![-1; v.len()],
            None => v.iter().map(|&t| if t == HIDDEN { -1 } else { i64::from(t) }).collect(),
        };
        self.any(tiles)
    }

    pub(crate) fn seat_ints(&self, v: &[u32]) -> PyResult<Bound<'py, PyAny>> {
        self.list(&v[..self.players])
    }

    pub(crate) fn seat_flags(&self, v: &[bool]) -> PyResult<Bound<'py, PyAny>> {
        self.list(&v[..self.players])
    }

    pub(crate) fn side_flags(&self, v: &[bool]) -> PyResult<Bound<'py, PyAny>> {
        self.list(v)
    }

    pub(crate) fn arm_ints<T: Copy + Into<i64>>(&self, v: &[T]) -> PyResult<Bound<'py, PyAny>> {
        self.any(v[..self.arms].iter().map(|&x| x.into()).collect::<Vec<i64>>())
    }

    pub(crate) fn arm_flags(&self, v: &[bool]) -> PyResult<Bound<'py, PyAny>> {
        self.list(&v[..self.arms])
    }

    pub(crate) fn hub_ints<T: Copy + Into<i64>>(&self, v: &[T]) -> PyResult<Bound<'py, PyAny>> {
        self.any(v[..self.hubs].iter().map(|&x| x.into()).collect::<Vec<i64>>())
    }

    pub(crate) fn hub_flags(&self, v: &[bool]) -> PyResult<Bound<'py, PyAny>> {
        self.list(&v[..self.hubs])
    }

    /// Each hub's count by covered edges: its multipliers times its pip.
    pub(crate) fn hub_vals<const W: usize>(&self, h: &Kernel<W>) -> PyResult<Bound<'py, PyAny>> {
        self.tuples(
            h.hub_mult[..self.hubs]
                .iter()
                .zip(&h.hub_pip)
                .map(|(m, &p)| m.iter().map(|&x| x * i64::from(p)).collect()),
        )
    }

    pub(crate) fn hub_mults(&self, v: &[[i64; 5]]) -> PyResult<Bound<'py, PyAny>> {
        self.tuples(v[..self.hubs].iter().map(|m| m.to_vec()))
    }

    /// A hub's two cross arms, `()` for none.
    pub(crate) fn hub_cross(&self, v: &[(i8, i8)]) -> PyResult<Bound<'py, PyAny>> {
        self.tuples(v[..self.hubs].iter().map(|&(a, b)| {
            if a < 0 {
                Vec::new()
            } else {
                vec![i64::from(a), i64::from(b)]
            }
        }))
    }

    pub(crate) fn settlement(&self, v: &Option<Vec<i64>>) -> PyResult<Bound<'py, PyAny>> {
        self.any(v.clone())
    }

    /// `(seat, move, points of the mover)` per move, as tuples.
    pub(crate) fn log(&self, v: &[(u8, i64, i64)]) -> PyResult<Bound<'py, PyAny>> {
        self.any(v.iter().map(|&(s, m, p)| (i64::from(s), m, p)).collect::<Vec<_>>())
    }
}

// ----------------------------------------------------- fields from Python

/// Reads each kind of hand field from a Python `Hand` (`hand_fields::from_python`),
/// checking it against the table: per-seat and per-side lists of the right
/// length, tile ids and masks within the set, and every arm's (and every
/// hub's) list of one length, which becomes the layout's arms (hubs).
pub(crate) struct In<'a, 'py> {
    o: &'a Bound<'py, PyAny>,
    size: usize,
    players: usize,
    owners: usize,
    arms: Cell<Option<usize>>,
    hubs: Cell<Option<usize>>,
}

fn bad(what: String) -> PyErr {
    PyValueError::new_err(what)
}

impl<'a, 'py> In<'a, 'py> {
    pub(crate) fn new<const W: usize>(o: &'a Bound<'py, PyAny>, r: &KRules<W>) -> Self {
        In {
            o,
            size: r.size,
            players: r.t.players,
            owners: r.t.owners,
            arms: Cell::new(None),
            hubs: Cell::new(None),
        }
    }

    /// A field of kind `int` or `flag`.
    pub(crate) fn value<T: Scalar>(&self, name: &str) -> PyResult<T> {
        T::from_py(&self.o.getattr(name)?, name)
    }

    fn sized<T: FromPyObject<'py>>(&self, name: &str, len: usize) -> PyResult<Vec<T>> {
        let v: Vec<T> = attr(self.o, name)?;
        if v.len() != len {
            return Err(bad(format!("{name} holds {} entries, not {len}", v.len())));
        }
        Ok(v)
    }

    /// A per-arm (or per-hub) list: the first sets the count, the others must match.
    fn layout<T: FromPyObject<'py>>(
        &self,
        name: &str,
        count: &Cell<Option<usize>>,
        most: usize,
    ) -> PyResult<Vec<T>> {
        let v: Vec<T> = attr(self.o, name)?;
        match count.get() {
            None if v.len() > most => Err(bad(format!("{name}: more than {most} entries"))),
            None => {
                count.set(Some(v.len()));
                Ok(v)
            }
            Some(n) if n != v.len() => {
                Err(bad(format!("the layout's lists differ in length at {name}")))
            }
            Some(_) => Ok(v),
        }
    }

    pub(crate) fn mask<const W: usize>(&self, name: &str, out: &mut Bits<W>) -> PyResult<()> {
        *out = mask::<W>(&self.o.getattr(name)?, self.size)?;
        Ok(())
    }

    pub(crate) fn seat_masks<const W: usize>(
        &self,
        name: &str,
        out: &mut [Bits<W>],
    ) -> PyResult<()> {
        let masks: Vec<Bound<'py, PyAny>> = self.sized(name, self.players)?;
        for (s, m) in masks.iter().enumerate() {
            out[s] = mask::<W>(m, self.size)?;
        }
        Ok(())
    }

    /// The boneyard's tile ids (-1: hidden).
    pub(crate) fn boneyard(&self, name: &str, out: &mut Vec<u8>) -> PyResult<()> {
        let tiles: Vec<i64> = attr(self.o, name)?;
        out.clear();
        for t in tiles {
            match u8::try_from(t) {
                _ if t == -1 => out.push(HIDDEN),
                Ok(tile) if usize::from(tile) < self.size => out.push(tile),
                _ => {
                    return Err(bad(format!("{name}: {t} is not a tile of a set of {}", self.size)))
                }
            }
        }
        Ok(())
    }

    pub(crate) fn seat_ints(&self, name: &str, out: &mut [u32]) -> PyResult<()> {
        out[..self.players].copy_from_slice(&self.sized::<u32>(name, self.players)?);
        Ok(())
    }

    pub(crate) fn seat_flags(&self, name: &str, out: &mut [bool]) -> PyResult<()> {
        out[..self.players].copy_from_slice(&self.sized::<bool>(name, self.players)?);
        Ok(())
    }

    pub(crate) fn side_flags(&self, name: &str, out: &mut Vec<bool>) -> PyResult<()> {
        *out = self.sized(name, self.owners)?;
        Ok(())
    }

    pub(crate) fn arm_ints<T: TryFrom<i64>>(&self, name: &str, out: &mut [T]) -> PyResult<()> {
        for (a, v) in self.layout::<i64>(name, &self.arms, MAX_ARMS)?.into_iter().enumerate() {
            out[a] = small(v, name)?;
        }
        Ok(())
    }

    pub(crate) fn arm_flags(&self, name: &str, out: &mut [bool]) -> PyResult<()> {
        let v = self.layout::<bool>(name, &self.arms, MAX_ARMS)?;
        out[..v.len()].copy_from_slice(&v);
        Ok(())
    }

    pub(crate) fn hub_ints<T: TryFrom<i64>>(&self, name: &str, out: &mut [T]) -> PyResult<()> {
        for (k, v) in self.layout::<i64>(name, &self.hubs, MAX_HUBS)?.into_iter().enumerate() {
            out[k] = small(v, name)?;
        }
        Ok(())
    }

    pub(crate) fn hub_flags(&self, name: &str, out: &mut [bool]) -> PyResult<()> {
        let v = self.layout::<bool>(name, &self.hubs, MAX_HUBS)?;
        out[..v.len()].copy_from_slice(&v);
        Ok(())
    }

    pub(crate) fn hub_mults(&self, name: &str, out: &mut [[i64; 5]]) -> PyResult<()> {
        for (k, m) in self.layout::<Vec<i64>>(name, &self.hubs, MAX_HUBS)?.into_iter().enumerate() {
            out[k] =
                <[i64; 5]>::try_from(m).map_err(|_| bad(format!("{name}: 5 multipliers a hub")))?;
        }
        Ok(())
    }

    pub(crate) fn hub_cross(&self, name: &str, out: &mut [(i8, i8)]) -> PyResult<()> {
        for (k, c) in self.layout::<Vec<i64>>(name, &self.hubs, MAX_HUBS)?.into_iter().enumerate() {
            out[k] = match c[..] {
                [] => (-1, -1),
                [a, b] => (small(a, name)?, small(b, name)?),
                _ => return Err(bad(format!("{name}: a hub has two cross arms or none"))),
            };
        }
        Ok(())
    }

    pub(crate) fn settlement(&self, name: &str, out: &mut Option<Vec<i64>>) -> PyResult<()> {
        *out = attr(self.o, name)?;
        Ok(())
    }

    pub(crate) fn log(&self, name: &str, out: &mut Vec<(u8, i64, i64)>) -> PyResult<()> {
        let log: Vec<(i64, i64, i64)> = attr(self.o, name)?;
        *out = log
            .into_iter()
            .map(|(s, m, p)| Ok((small(s, name)?, m, p)))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(())
    }

    /// The layout's counts, and what the fields must satisfy together.
    pub(crate) fn finish<const W: usize>(&self, h: &mut Kernel<W>) -> PyResult<()> {
        h.n_arms = self.arms.get().unwrap_or(0);
        h.n_hubs = self.hubs.get().unwrap_or(0);
        if h.turn >= self.players || h.leader >= self.players {
            return Err(bad(format!("the turn or the leader is not a seat of {}", self.players)));
        }
        if h.bone_pos > h.boneyard.len() || h.bone_end > h.boneyard.len() {
            return Err(bad("the boneyard position is beyond the boneyard".into()));
        }
        if h.hub_k[..h.n_hubs].iter().any(|&k| k > 4) {
            return Err(bad("a hub has at most 4 covered edges".into()));
        }
        Ok(())
    }
}

/// A kernel hand with the state of the Python `Hand` `o` (a layout: the
/// sampler replaces its hands and its boneyard's contents, so the boneyard
/// is read for its length and zeroed, as `View::of` leaves it).
pub(crate) fn hand_from_py<const W: usize>(
    rules: &Arc<KRules<W>>,
    o: &Bound<'_, PyAny>,
) -> PyResult<Kernel<W>> {
    let t = &rules.t;
    let scores: Vec<i64> = attr(o, "scores")?;
    if scores.len() != t.owners {
        return Err(bad(format!("{} scores for {} sides", scores.len(), t.owners)));
    }
    let setup = HandSetup {
        scores: Some(scores),
        ..HandSetup::new(vec![Bits::<W>::ZERO; t.players], Vec::new(), 0)
    };
    let mut h = Kernel::new(Arc::clone(rules), setup);
    hand_fields::from_python(&In::new(o, rules), &mut h)?;
    h.boneyard.iter_mut().for_each(|b| *b = 0);
    h.log.clear();
    Ok(h)
}

// ------------------------------------------------------------ the class

/// The arguments of `bones_native.Hand(...)`, in tile ids, before they are
/// checked against a table (all but the deal are keywords).
struct HandArgs {
    hands: Vec<Vec<usize>>,
    boneyard: Vec<usize>,
    leader: usize,
    scores: Option<Vec<i64>>,
    lead_tile: Option<usize>,
    lead_doubles_only: bool,
    out_of_play: Vec<usize>,
    record: bool,
    pot: i64,
    got_in: Option<Vec<bool>>,
    number: usize,
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
    if let Some(tile) = a.lead_tile.filter(|&tile| tile >= size) {
        return Err(PyValueError::new_err(format!("lead tile {tile} is not in the set")));
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
        number: a.number,
        ..HandSetup::new(masks, bone, a.leader)
    };
    Ok(Kernel::new(Arc::clone(rules), setup))
}

impl HandArgs {
    /// The deal and the keywords (`scores`, `lead_tile`, `lead_doubles_only`,
    /// `out_of_play`, `record`, `pot`, `got_in`, `number`), each at its default when left out.
    fn new(
        hands: Vec<Vec<usize>>,
        boneyard: Vec<usize>,
        leader: usize,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let mut a = HandArgs {
            hands,
            boneyard,
            leader,
            scores: None,
            lead_tile: None,
            lead_doubles_only: false,
            out_of_play: Vec::new(),
            record: true,
            pot: 0,
            got_in: None,
            number: 1,
        };
        for (key, value) in options.into_iter().flat_map(|d| d.iter()) {
            let key: String = key.extract()?;
            match key.as_str() {
                "scores" => a.scores = value.extract()?,
                "lead_tile" => a.lead_tile = index_or_none(value.extract()?, "lead_tile")?,
                "lead_doubles_only" => a.lead_doubles_only = value.extract()?,
                "out_of_play" => a.out_of_play = value.extract()?,
                "record" => a.record = value.extract()?,
                "pot" => a.pot = value.extract()?,
                "got_in" => a.got_in = value.extract()?,
                "number" => a.number = value.extract()?,
                _ => return Err(PyValueError::new_err(format!("Hand() has no option {key:?}"))),
            }
        }
        Ok(a)
    }
}

/// The stepwise hand: dealt from given tiles, then moves applied one by one.
/// Its fields are read by name (`get`, or as attributes); `fields` gives
/// every one at once.
#[pyclass(module = "bones_native")]
pub(crate) struct Hand {
    inner: AnyHand,
}

#[pymethods]
impl Hand {
    #[new]
    #[pyo3(signature = (rules, hands, boneyard, leader, **options))]
    fn new(
        rules: &Rules,
        hands: Vec<Vec<usize>>,
        boneyard: Vec<usize>,
        leader: usize,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let args = HandArgs::new(hands, boneyard, leader, options)?;
        guard(|| {
            let inner = match &rules.inner {
                AnyRules::W1(r) => AnyHand::W1(build(r, &args)?),
                AnyRules::W2(r) => AnyHand::W2(build(r, &args)?),
                AnyRules::W3(r) => AnyHand::W3(build(r, &args)?),
            };
            Ok(Hand { inner })
        })
    }

    /// One field of the hand by name (one of `HAND_FIELDS`), as the Python hand holds it.
    fn get<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        each!(self, h => hand_fields::get(&Out::new(py, h, None)?, h, name))
    }

    /// A field read as an attribute (`hand.count`): `get`.
    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        if !HAND_FIELDS.contains(&name) {
            return Err(PyAttributeError::new_err(format!(
                "'bones_native.Hand' object has no attribute '{name}'"
            )));
        }
        self.get(py, name)
    }

    /// Every field of the Python `Hand` but `rules`, `scores` and `voids`, in
    /// the order of `HAND_FIELDS` and in the Python hand's types, in one call
    /// (`NativeHand.to_python`). With `seat`, what that seat may see
    /// (`Hand.scrub_for`): the other hands empty, the boneyard's tiles -1.
    #[pyo3(signature = (seat=None))]
    fn fields<'py>(&self, py: Python<'py>, seat: Option<usize>) -> PyResult<Bound<'py, PyTuple>> {
        each!(self, h => PyTuple::new(py, hand_fields::to_python(&Out::new(py, h, seat)?, h)?))
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
    #[setter]
    fn set_boneyard(&mut self, tiles: Vec<i64>) -> PyResult<()> {
        guard(|| {
            each_mut!(self, h => {
                if tiles.len() != h.boneyard.len() {
                    return Err(PyValueError::new_err(format!(
                        "{} boneyard tiles for a boneyard of {}", tiles.len(), h.boneyard.len())));
                }
                let size = h.rules.size;
                let mut bone = Vec::with_capacity(tiles.len());
                for (i, &t) in tiles.iter().enumerate() {
                    match u8::try_from(t) {
                        _ if t == -1 && i < h.bone_pos => bone.push(HIDDEN),
                        Ok(tile) if usize::from(tile) < size => bone.push(tile),
                        _ => return Err(PyValueError::new_err(format!(
                            "boneyard entry {i} is {t}, not a tile of a set of {size}"))),
                    }
                }
                h.boneyard = bone;
                Ok(())
            })
        })
    }
    /// Deal new hands: each seat's tile ids.
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

    /// `bones.engine.mirror.mirror_of`: per move of `legal`, the index of
    /// the first move that is one with it.
    fn mirror_of(&self, legal: Vec<i64>) -> PyResult<Vec<usize>> {
        guard(|| Ok(each!(self, h => h.mirror_of(&legal))))
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
