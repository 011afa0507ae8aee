//! The conversions every binding shares: errors (a Rust panic becomes a
//! one-line `NativeError`, never a dead interpreter or a `PanicException`,
//! which derives from BaseException), the flat table's values, and tile masks.

#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::kernel::bits::Bits;

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

// ------------------------------------------------------------------ masks

pub(crate) fn mask_of<const W: usize>(tiles: &[usize], size: usize) -> PyResult<Bits<W>> {
    let mut b = Bits::<W>::ZERO;
    for &t in tiles {
        if t >= size {
            return Err(PyValueError::new_err(format!("tile id {t} is not in a set of {size}")));
        }
        b.set(t);
    }
    Ok(b)
}

pub(crate) fn py_mask<'py, const W: usize>(
    py: Python<'py>,
    b: &Bits<W>,
) -> PyResult<Bound<'py, PyAny>> {
    if W == 1 {
        return Ok(b.0[0].into_pyobject(py)?.into_any());
    }
    let mut v = 0u64.into_pyobject(py)?.into_any();
    for i in (0..W).rev() {
        v = v.lshift(64)?.bitor(b.0[i].into_pyobject(py)?)?;
    }
    Ok(v)
}

/// A tile mask from a Python int (bit t for tile t).
pub(crate) fn mask<const W: usize>(v: &Bound<'_, PyAny>, size: usize) -> PyResult<Bits<W>> {
    let mut b = Bits::<W>::ZERO;
    for i in 0..W {
        b.0[i] = v.rshift(64 * i)?.bitand(u64::MAX)?.extract::<u64>()?;
    }
    if v.rshift(64 * W)?.is_truthy()? || b.ones().any(|t| t >= size) {
        return Err(PyValueError::new_err(format!("a tile mask beyond the set of {size} tiles")));
    }
    Ok(b)
}

pub(crate) fn attr<'py, T: FromPyObject<'py>>(o: &Bound<'py, PyAny>, name: &str) -> PyResult<T> {
    o.getattr(name)?.extract::<T>()
}

pub(crate) fn small<T: TryFrom<i64>>(v: i64, what: &str) -> PyResult<T> {
    T::try_from(v).map_err(|_| PyValueError::new_err(format!("{what} {v} is out of range")))
}

/// A seat, side or tile the kernel may lack, from Python's int: -1 is `None`.
pub(crate) fn index_or_none(v: i64, what: &str) -> PyResult<Option<usize>> {
    match v {
        -1 => Ok(None),
        _ => Ok(Some(small(v, what)?)),
    }
}
