//! bones' native core: the same games as the Python engine, from the same
//! compiled tables (see `bones.engine.flat`), at native speed.
//!
//! The kernel (`bits`, `table`, `settle`, `hand`) has no Python in it; the
//! `python` feature adds the binding (`py.rs`).

pub mod bits;
pub mod bots;
pub mod codes;
pub mod epimc;
pub mod format;
pub mod game;
pub mod hand;
pub mod infer;
pub mod ismcts;
pub mod matchvalue;
pub mod moves;
pub mod policy;
pub mod pool;
pub mod rng;
pub mod search;
pub mod settle;
pub mod sim;
pub mod solve;
pub mod table;
pub mod vector;

#[cfg(feature = "python")]
mod py;
#[cfg(feature = "python")]
mod pyismcts;
#[cfg(feature = "python")]
mod pysearch;
#[cfg(feature = "python")]
mod pysim;
#[cfg(feature = "python")]
mod pyvector;
