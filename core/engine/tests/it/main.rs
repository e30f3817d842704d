//! The integration tests of this crate, in one binary: a module per area,
//! so a failing test's path names its area.

mod conformance;
mod copies;
mod sandbox;
mod saves;
mod script_lib;
mod secrecy;
mod strict_rules;
mod toy;
