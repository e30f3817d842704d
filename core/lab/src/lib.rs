//! The variant lab: statistics of games played by bots, per arm (a set of
//! rules, options and seats) and per paired difference between arms on
//! the same seeds, with 95 % intervals. Game-agnostic: a game enters only
//! through its [`Outcome`] (result, teams, decisions and the metrics its
//! rules define).
//!
//! - [`stats`]: exactly mergeable accumulators, Wilson and Student t
//!   intervals;
//! - [`outcome`]: what one game contributes, by [`Key`];
//! - [`experiment`]: arms, seeds, seat rotation and the stopping rule;
//! - [`histogram`]: distributions of game length, scores and margin;
//! - [`run`]: the tally of a run and the threads that play it;
//! - [`report`]: the report data the command line prints;
//! - [`shard`]: runs split into blocks of seeds, and merging their files;
//! - [`identity`]: what a run was (so that only its own shards merge), and
//!   its report with how long it took;
//! - [`tune`]: a tune's candidates, scores, ranking and report;
//! - [`ratings`]: bots rated from the finishing orders of mixed tables
//!   (Bradley-Terry, Plackett-Luce) with 95 % intervals;
//! - [`ladder`]: a ladder's tables, its identity and its report;
//! - [`skill`]: a skill report's tables (a strength dial, restrictions,
//!   rule sets) and its measures of skill, luck, mechanics and seats.

pub mod experiment;
pub mod histogram;
pub mod identity;
pub mod ladder;
pub mod outcome;
pub mod ratings;
pub mod report;
pub mod run;
pub mod shard;
pub mod skill;
pub mod stats;
pub mod tune;

pub use experiment::{Arm, Experiment, StopRule};
pub use histogram::Histogram;
pub use identity::{Identity, IdentityArm, Played, Timed};
pub use outcome::{Key, Outcome};
pub use ratings::{Finishes, Placing, Ratings};
pub use report::{ArmReport, DiffReport, Report, Row};
pub use run::{run, Player, Ran, Rows, RunError, Schedule, Stopped, Tally};
pub use shard::{Shard, ShardFile};
pub use stats::{Estimate, Method, Stat};
