//! The rules: everything that decides a game, read from the flat table.

pub mod bits;
pub mod codes;
pub mod convert;
pub mod game;
pub mod hand;
pub mod moves;
pub mod rng;
pub mod settle;
pub mod table;
pub mod trains;
// generated (tools/generate_native.py): its casts denied here
#[deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::cast_lossless
)]
pub mod table_fields;
