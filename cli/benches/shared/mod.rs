//! What the benchmarks share: the binary's allocator (so that the figures
//! are those of `deckhand`), the repository's scripts, an engine over them
//! and the processor time of the calling thread. Each bench includes it
//! with `#[path = "shared/mod.rs"] mod shared;`.

// Its unit tests do not run in a bench (no test harness): their imports
// would be unused.
#[allow(unused_imports)]
#[path = "../../src/allocator.rs"]
mod allocator;

#[global_allocator]
static GLOBAL: allocator::Allocator = allocator::Allocator;

use deckhand_engine::lua::Limits;
use deckhand_engine::{DirSource, Engine, ScriptLibrary};
use std::path::PathBuf;
use std::sync::Arc;

/// The repository's scripts folder.
pub fn scripts() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts")
}

/// An engine over the repository's scripts with `limits`.
pub fn engine(limits: Limits) -> Engine {
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(DirSource::new(scripts())));
    Engine::with_limits(Arc::new(lib), limits).expect("engine")
}

/// Seconds this thread has spent on a CPU, so that a figure does not
/// depend on what else the machine runs; `None` where it cannot be read.
/// (`CLOCK_THREAD_CPUTIME_ID` brings the count up to date when read;
/// `/proc/thread-self/schedstat` was only brought up to date when the
/// thread was switched out or at a timer tick, so on a quiet machine it
/// read far too little.)
#[allow(dead_code)] // not every bench times by processor
pub fn thread_cpu() -> Option<f64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (rc == 0).then(|| t.tv_sec as f64 + t.tv_nsec as f64 / 1e9)
}
