//! A cooperative stop (`bones.bots.stop.Stop`): a flag any thread may set,
//! which the searches poll (between worlds and iterations, and every
//! `Stop::EVERY` positions of the exact solver), ending soon after with
//! what they have, marked as stopped. Nothing else changes: a search never
//! stopped takes the same decisions as before.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A shared flag: clones share it; the default is a fresh flag nobody sets.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// The solver looks at the flag once in this many positions (a few
    /// milliseconds of work at the most).
    pub const EVERY: u64 = 4096;

    /// Ask every search watching this flag to stop.
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is set.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag() {
        let a = Stop::default();
        let b = a.clone();
        assert!(!b.is_set());
        a.set();
        assert!(b.is_set() && a.is_set());
        assert!(!Stop::default().is_set());
    }
}
