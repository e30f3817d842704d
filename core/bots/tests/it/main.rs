//! The integration tests of this crate, in one binary: a module per area,
//! so a failing test's path names its area.

mod choices;
mod direct_calls;
mod host;
mod infer;
mod ismcts;
mod mc;
mod runner;
mod seeall;
#[path = "../../../engine/tests/it/toy/mod.rs"]
mod toy;
