//! `bones_native.Rules`: a flat table (`bones.engine.flat`), checked once and
//! turned into the kernel's tables.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::kernel::table::{AnyRules, Reader, Table, TABLE_FORMAT};
use crate::python::convert::guard;

/// A flat table (a Python dict) as the kernel's [`Reader`].
pub(crate) struct DictReader<'a, 'py>(pub(crate) &'a Bound<'py, PyDict>);

impl Reader for DictReader<'_, '_> {
    fn int(&self, key: &str) -> Result<i64, String> {
        self.item(key)?.extract::<i64>().map_err(|e| format!("{key}: {e}"))
    }

    fn ints(&self, key: &str) -> Result<Vec<i64>, String> {
        self.item(key)?.extract::<Vec<i64>>().map_err(|e| format!("{key}: {e}"))
    }
}

impl<'py> DictReader<'_, 'py> {
    fn item(&self, key: &str) -> Result<Bound<'py, PyAny>, String> {
        match self.0.get_item(key) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Err(format!("the flat table has no field '{key}'")),
            Err(e) => Err(format!("{key}: {e}")),
        }
    }
}

/// The table of a flat table (`bones.engine.flat.flatten`), read and checked:
/// a table of another format, a missing field or a bad code is a `ValueError`.
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
    let t = Table::read(&DictReader(d)).map_err(PyValueError::new_err)?;
    t.check().map_err(PyValueError::new_err)?;
    Ok(t)
}

/// The kernel's rules for a flat table (`bones.engine.flat`), at the width
/// its tile set needs: what every native object's constructor reads.
pub(crate) fn rules_from_dict(table: &Bound<'_, PyDict>) -> PyResult<AnyRules> {
    AnyRules::new(line_table(table_from_dict(table)?)?).map_err(PyValueError::new_err)
}

/// `t`, unless it lays out trains: the line and spinner hand, the searches
/// and the vector environment do not play them (a simulation and
/// `bones_native.TrainHand` do, docs/trains.md).
fn line_table(t: Table) -> PyResult<Table> {
    if t.trains.is_some() {
        return Err(PyValueError::new_err(
            "a train layout: the native core plays it in simulations only (docs/trains.md)",
        ));
    }
    Ok(t)
}

/// A flat rule table, checked and turned into the kernel's tables once.
#[pyclass(module = "bones_native", frozen)]
pub(crate) struct Rules {
    pub(crate) inner: AnyRules,
    size: usize,
}

#[pymethods]
impl Rules {
    #[new]
    fn new(table: &Bound<'_, PyDict>) -> PyResult<Self> {
        guard(|| {
            let t = line_table(table_from_dict(table)?)?;
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
