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
pub mod table_fields;
