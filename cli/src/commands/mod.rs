//! The subcommands, one module each.

pub mod check;
pub mod games;
pub mod lua;
pub mod play;
pub mod replay;
pub mod setup;
pub mod sim;
