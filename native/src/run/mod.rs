//! Many games at once: whole simulations (`sim`, with train layouts'
//! matches in `trains`) and the vector environment (`vector`) on its
//! persistent thread pool (`pool`).

// every `unsafe` of the pool says why it is sound
#[deny(clippy::undocumented_unsafe_blocks)]
pub mod pool;
pub mod sim;
pub mod trains;
pub mod vector;
