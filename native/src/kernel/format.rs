//! The version of the flat table format this crate reads.
//!
//! It must equal `bones.engine.flat.FORMAT_VERSION` (a hash of that module's
//! `TABLE_FORMAT` text); `tests/test_native.py` checks that it does, so a
//! change to the table on the Python side cannot go unnoticed here.
pub const TABLE_FORMAT: &str = "9c1071f0c93ed8ae";
