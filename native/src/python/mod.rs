//! The Python binding (`bones_native`): one module a class, over the kernel,
//! the bots and the runs, sharing one module of conversions (`convert`).
//! Every entry point runs under `convert::guard`.

mod convert;
mod hand;
// generated (tools/generate_native.py): its casts denied here
#[deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]
mod hand_fields;
mod ismcts;
mod rules;
mod search;
mod sim;
mod trains;
mod trainsearch;
mod vector;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::kernel::rng::{derive as kderive, Rng as KRng};
use crate::kernel::table::{Settle, TABLE_FORMAT};
use convert::{guard, NativeError};
use hand::Hand;
use hand_fields::HAND_FIELDS;
use rules::Rules;

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
    use crate::kernel::moves;
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
    for &(family, items) in crate::kernel::codes::FAMILIES {
        codes.set_item(family, named(items)?)?;
    }
    out.set_item("codes", codes)?;
    out.set_item("table_fields", crate::kernel::table::TABLE_FIELDS.to_vec())?;
    out.set_item("match_fields", crate::kernel::table::MATCH_FIELDS.to_vec())?;
    out.set_item("settle_fields", Settle::FIELDS.to_vec())?;
    out.set_item("lead_fields", crate::kernel::game::LeadRule::FIELDS.to_vec())?;
    out.set_item("hand_fields", HAND_FIELDS.to_vec())?;
    let as_i64 = |n: usize| i64::try_from(n).expect("a small constant");
    out.set_item(
        "streams",
        named(&[
            ("DEALS", i64::try_from(crate::kernel::game::DEALS).expect("a small constant")),
            ("BOTS", i64::try_from(crate::kernel::game::BOTS).expect("a small constant")),
            ("LEADS", i64::try_from(crate::kernel::game::LEADS).expect("a small constant")),
        ])?,
    )?;
    out.set_item(
        "match",
        named(&[
            ("MAX_HANDS", as_i64(crate::kernel::game::MAX_HANDS)),
            ("MAX_REDEALS", as_i64(crate::kernel::game::MAX_REDEALS)),
        ])?,
    )?;
    out.set_item(
        "sim",
        named(&[
            ("TIME_SAMPLE", i64::try_from(crate::run::sim::TIME_SAMPLE).expect("a small constant")),
            ("PLAY", as_i64(crate::run::sim::PLAY)),
            ("SETTLE", as_i64(crate::run::sim::SETTLE)),
            ("SCORE", as_i64(crate::run::sim::SCORE)),
        ])?,
    )?;
    out.set_item("TIME_BINS", crate::run::sim::TIME_BINS)?;
    out.set_item("search", named(&[("WIN", crate::bots::matchvalue::WIN)])?)?;
    out.set_item(
        "sentinels",
        named(&[
            ("UNLIMITED_DRAWS", crate::kernel::table::UNLIMITED_DRAWS),
            ("BELOW_ANY_SCORE", crate::kernel::table::BELOW_ANY_SCORE),
        ])?,
    )?;
    let tree = PyDict::new(py);
    tree.set_item("DEFAULT_EXPLORE", crate::bots::ismcts::DEFAULT_EXPLORE)?;
    tree.set_item("DEFAULT_SCALE", crate::bots::ismcts::DEFAULT_SCALE)?;
    tree.set_item("DEFAULT_WORLDS", crate::bots::ismcts::DEFAULT_WORLDS)?;
    tree.set_item("DEFAULT_TREE_INFER", crate::bots::ismcts::DEFAULT_TREE_INFER)?;
    tree.set_item("DEFAULT_TREE_WORLDS", crate::bots::ismcts::DEFAULT_TREE_WORLDS)?;
    tree.set_item("POOL_ESS", crate::bots::infer::POOL_ESS)?;
    tree.set_item("POOL_DRAWS", crate::bots::infer::POOL_DRAWS)?;
    tree.set_item("POOL_SHARE", crate::bots::infer::POOL_SHARE)?;
    tree.set_item("TEMPER_STEPS", crate::bots::infer::TEMPER_STEPS)?;
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
    sim::register(m)?;
    search::register(m)?;
    ismcts::register(m)?;
    vector::register(m)?;
    trains::register(m)?;
    trainsearch::register(m)?;
    Ok(())
}
