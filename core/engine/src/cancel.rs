//! Cancelling a long computation from outside: a flag that a front end
//! sets (the REPL's Ctrl-C) and the search and the runner check between
//! playouts and between steps. A cancelled computation returns
//! [`CoreError::Cancelled`](crate::CoreError::Cancelled) and leaves the
//! game as it was before the step it was working on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A shared cancel flag; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag that is not set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Ask whatever checks this flag to stop. Only an atomic store: safe
    /// to call from a signal handler.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called since the last reset.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Clear the flag, before the next computation it may cancel.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// `Err(Cancelled)` once the flag is set.
    pub fn check(&self) -> crate::Result<()> {
        if self.is_cancelled() {
            Err(crate::CoreError::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// [`Cancel::check`] on an optional flag.
pub fn check(cancel: Option<&Cancel>) -> crate::Result<()> {
    cancel.map_or(Ok(()), Cancel::check)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag_and_reset_clears_it() {
        let a = Cancel::new();
        let b = a.clone();
        assert!(a.check().is_ok());
        b.cancel();
        assert!(a.is_cancelled());
        assert!(matches!(a.check(), Err(crate::CoreError::Cancelled)));
        a.reset();
        assert!(!b.is_cancelled());
    }
}
