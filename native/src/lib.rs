//! bones' native core: the same games as the Python engine, from the same
//! compiled tables (see `bones.engine.flat`), at native speed.
//!
//! The crate is in four layers, each using only those above it here:
//!
//! - [`kernel`]: the rules themselves: tile masks, the rule codes, the flat
//!   table, moves, the random stream, one hand, settlement and a match. No
//!   bot, thread or Python in it.
//! - [`bots`]: the built-in players over the kernel: the one-move policies,
//!   `heuristic`, the world view and its sampler, inference, the exact
//!   solver, and the searches (`search`, `ismcts`, `epimc`).
//! - [`run`]: many games at once: whole simulations, the vector environment
//!   and its thread pool.
//! - `python` (with the `python` feature): the PyO3 binding, one module a
//!   Python-facing class, sharing one module of conversions.
//!
//! Every `unsafe` says why it is sound in a `// SAFETY:` comment (denied
//! without one). The kernel's conversions between its kinds of numbers are
//! one module, `kernel::convert`; the modules that use it deny clippy's
//! cast lints.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod bots;
pub mod kernel;
pub mod run;

#[cfg(feature = "python")]
mod python;
