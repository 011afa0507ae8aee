//! The binding of the `search` bot: `bones_native.Searcher(flat_table)`,
//! built once per rule table, whose `search(...)` judges a seat's moves over
//! sampled worlds exactly as `SearchBot.values` does in Python (the GIL is
//! released while it runs).

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::bits::Bits;
use crate::hand::{Hand, HandSetup, MAX_ARMS, MAX_HUBS};
use crate::matchvalue::MatchTable;
use crate::py::{guard, rules_from_dict};
use crate::rng::Rng;
use crate::search::{search, Budget, NoWorld, Policy, View};
use crate::table::{AnyRules, Rules, MAX_PLAYERS};

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

fn small<T: TryFrom<i64>>(v: i64, what: &str) -> PyResult<T> {
    T::try_from(v).map_err(|_| PyValueError::new_err(format!("{what} {v} is out of range")))
}

/// A kernel hand with the state of the Python `Hand` `o` (a layout: its
/// hands and boneyard contents are replaced by the sampler).
pub(crate) fn hand_from_py<const W: usize>(
    rules: &Arc<Rules<W>>,
    o: &Bound<'_, PyAny>,
) -> PyResult<Hand<W>> {
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
    let mut h = Hand::new(Arc::clone(rules), setup);
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

/// A judged position: (the best move, every legal move's weighted total,
/// worlds sampled, the sum of their weights).
type Judged = (i64, Vec<f64>, usize, f64);

/// What `Searcher.search` returns to Python: the best move (None when no
/// world agrees with the view), the totals, the stream's new state, worlds
/// sampled and the sum of their weights.
type SearchAnswer = (Option<i64>, Vec<f64>, u64, usize, f64);

// the arguments of `Search.search` as Python passes them, each converted here once
#[allow(clippy::too_many_arguments)]
fn run<const W: usize>(
    py: Python<'_>,
    rules: &Arc<Rules<W>>,
    layout: &Bound<'_, PyAny>,
    seat: usize,
    own: &Bound<'_, PyAny>,
    counts: Vec<usize>,
    unseen: &Bound<'_, PyAny>,
    limits: &[Vec<(Bound<'_, PyAny>, i64)>],
    legal: &[i64],
    budget: Budget,
    rng: &mut Rng,
) -> PyResult<Option<Judged>> {
    // None: no world agrees with the view (the stream has moved on as in Python)
    let size = rules.size;
    let players = rules.t.players;
    if seat >= players || counts.len() != players || limits.len() != players {
        return Err(PyValueError::new_err("the view's seats do not match the table"));
    }
    if legal.is_empty() {
        return Err(PyValueError::new_err("no legal moves to judge"));
    }
    let layout_py = layout;
    let layout = hand_from_py(rules, layout)?;
    if layout.state != crate::moves::PLAYING {
        return Err(PyValueError::new_err("the hand is over"));
    }
    let mut lim = Vec::with_capacity(players);
    for caps in limits {
        let mut v = Vec::with_capacity(caps.len());
        for (m, cap) in caps {
            v.push((mask::<W>(m, size)?, *cap));
        }
        lim.push(v);
    }
    let log: Vec<(i64, i64, i64)> = attr(layout_py, "log")?;
    let history = log.iter().map(|&(s, m, p)| (s as usize, m, p)).collect();
    let view = View {
        seat,
        own: mask::<W>(own, size)?,
        counts,
        unseen: mask::<W>(unseen, size)?,
        limits: lim,
        layout,
        history,
    };
    if view.layout.turn != seat {
        return Err(PyValueError::new_err(format!("seat {seat} is not the one to move")));
    }
    let mut legal_ok = Vec::new();
    let mut check = view.layout.clone();
    check.hands[seat] = view.own;
    check.legal_moves_into(&mut legal_ok);
    if let Some(&bad) = legal.iter().find(|m| !legal_ok.contains(m)) {
        return Err(PyValueError::new_err(format!("move {bad} is not legal here")));
    }
    let found = py.allow_threads(|| guard(|| Ok(search(&view, legal, &budget, rng))))?;
    Ok(match found {
        Ok(f) => Some((f.best, f.totals, f.iterations, f.weight)),
        Err(NoWorld) => None,
    })
}

/// The search bot's native half for one rule table.
#[pyclass(module = "bones_native", frozen)]
struct Searcher {
    inner: AnyRules,
}

#[pymethods]
impl Searcher {
    #[new]
    fn new(table: &Bound<'_, PyDict>) -> PyResult<Self> {
        guard(|| Ok(Searcher { inner: rules_from_dict(table)? }))
    }

    /// `SearchBot.values` for seat `seat` of the layout `layout` (a Python
    /// `Hand` with the hidden tiles scrubbed, as `Observation.layout`), its
    /// own tiles `own`, tile counts `counts`, unseen tiles `unseen` and void
    /// bounds `limits` (`Observation.limits()`), drawing from the stream at
    /// `state`. Returns `(best move, totals, the stream's new state, worlds
    /// sampled, the sum of their weights)`; the move is None when no world
    /// agrees with the view. `solve`, `infer` and `threads` are the
    /// budget's (see `search::Budget`); `table`, `(step, cells, values)`,
    /// is the match objective's (`matchvalue::MatchTable`, None: points).
    #[pyo3(signature = (layout, seat, own, counts, unseen, limits, legal, iterations, rollouts,
                        policy, seconds, state, solve=0, infer=0.0, threads=1, table=None))]
    // the signature the Python search bot calls: one argument a field
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        layout: &Bound<'_, PyAny>,
        seat: usize,
        own: &Bound<'_, PyAny>,
        counts: Vec<usize>,
        unseen: &Bound<'_, PyAny>,
        limits: Vec<Vec<(Bound<'_, PyAny>, i64)>>,
        legal: Vec<i64>,
        iterations: usize,
        rollouts: usize,
        policy: &str,
        seconds: f64,
        state: u64,
        solve: usize,
        infer: f64,
        threads: usize,
        table: Option<(i64, usize, Vec<i64>)>,
    ) -> PyResult<SearchAnswer> {
        let policy = Policy::from_name(policy)
            .ok_or_else(|| PyValueError::new_err(format!("no rollout policy {policy:?}")))?;
        if iterations < 1
            || rollouts < 1
            || seconds.is_nan()
            || seconds < 0.0
            || infer.is_nan()
            || infer < 0.0
            || threads < 1
        {
            return Err(PyValueError::new_err(
                "a search needs at least one world, one rollout and one thread",
            ));
        }
        let deadline = if seconds > 0.0 {
            Some(std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds.min(1e6)))
        } else {
            None
        };
        let table = match table {
            Some((step, cells, values)) => {
                Some(Arc::new(MatchTable::new(step, cells, values).map_err(PyValueError::new_err)?))
            }
            None => None,
        };
        let budget = Budget {
            threads,
            table,
            ..Budget::new(iterations, rollouts, policy, deadline, solve, infer)
        };
        let mut rng = Rng::new(state);
        let got = guard(|| match &self.inner {
            AnyRules::W1(r) => {
                run(py, r, layout, seat, own, counts, unseen, &limits, &legal, budget, &mut rng)
            }
            AnyRules::W2(r) => {
                run(py, r, layout, seat, own, counts, unseen, &limits, &legal, budget, &mut rng)
            }
            AnyRules::W3(r) => {
                run(py, r, layout, seat, own, counts, unseen, &limits, &legal, budget, &mut rng)
            }
        })?;
        Ok(match got {
            Some((best, totals, done, weight)) => (Some(best), totals, rng.state, done, weight),
            None => (None, Vec::new(), rng.state, 0, 0.0),
        })
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Searcher>()
}
