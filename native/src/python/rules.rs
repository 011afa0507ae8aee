//! `bones_native.Rules`: a flat table (`bones.engine.flat`), checked once and
//! turned into the kernel's tables.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::kernel::format::TABLE_FORMAT;
use crate::kernel::table::{AnyRules, Points, Settle, Table, When};
use crate::python::convert::{get_code, get_i64, get_vec, guard};

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
pub(crate) struct Rules {
    pub(crate) inner: AnyRules,
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
