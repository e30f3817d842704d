//! The subcommands, one module each.

pub mod check;
pub mod compare;
pub mod games;
pub mod lab;
pub mod ladder;
pub mod lua;
pub mod merge;
pub mod play;
pub mod replay;
pub mod report;
pub mod scripts;
pub mod setup;
pub mod shards;
pub mod sim;
pub mod skill;
pub mod tune;
