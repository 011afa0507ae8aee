//! The built-in players: each reads a seat's view of a hand (never a hidden
//! tile) and takes exactly the Python reference's decisions.

pub mod epimc;
pub mod heuristic;
pub mod infer;
pub mod ismcts;
pub mod matchvalue;
pub mod policy;
pub mod rollouts;
pub mod search;
pub mod solve;
pub mod stop;
pub mod world;
