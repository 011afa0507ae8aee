//! Many games at once: whole simulations (`sim`) and the vector environment
//! (`vector`) on its persistent thread pool (`pool`).

pub mod pool;
pub mod sim;
pub mod vector;
