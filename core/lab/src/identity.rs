//! A run's identity and its timed report: what a run of `sim`, `compare`
//! or `tune` was (the version, the game, every arm's rules, options, seats
//! and scripts, the seeds), so that the files of its shards merge only
//! with each other, and the report of its games with how long they took.

use crate::{Arm, Experiment, Ran, Report, Stopped, Tally};
use deckhand_bots::BotKind;
use deckhand_engine::GameConfig;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A report with how long the run took.
#[derive(Debug, Serialize)]
pub struct Timed {
    #[serde(flatten)]
    pub report: Report,
    /// Titles of the rules (the game's title, per arm with its variants).
    pub title: String,
    pub elapsed_s: f64,
    /// Games per second, all arms together.
    pub games_per_s: f64,
    pub threads: usize,
    /// What was played, for shard files and merging.
    #[serde(skip)]
    pub played: Played,
}

/// The games a run played and their tallies.
#[derive(Debug, Clone)]
pub struct Played {
    /// The tallies of the games played.
    pub tally: Tally,
    /// Each arm's configuration (house-rule texts included).
    pub configs: Vec<GameConfig>,
    /// Each arm's script files that ran, with the hash of each one's text
    /// ([`deckhand_engine::Engine::scripts_of`]).
    pub scripts: Vec<BTreeMap<String, String>>,
    /// The games of the whole run (every shard) and those played here.
    pub total: u64,
    pub games: std::ops::Range<u64>,
}

/// The version of deckhand (every crate of the workspace shares it).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What a run is: shards merge only when every field is the same.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Identity {
    /// The version of the deckhand that played: every shard must be
    /// played by the same version (and, per arm, under the same scripts).
    pub deckhand: String,
    /// `sim`, `compare` or `tune`.
    pub command: String,
    pub game: String,
    pub title: String,
    pub first_seed: u64,
    /// Games of the whole run, in each arm.
    pub games: u64,
    pub rotate: bool,
    pub arms: Vec<IdentityArm>,
    /// The docs of the rules' metrics, by name.
    pub metrics: BTreeMap<String, String>,
    /// The metrics the rules declare to be shares.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub share_metrics: BTreeSet<String>,
    /// What `tune` searches for (its own fields).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tune: Option<serde_json::Value>,
    /// What a `ladder` rates (its bots and tables, see
    /// [`crate::ratings`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ladder: Option<serde_json::Value>,
    /// What a `skill` report measures (its dial, restrictions, rule sets
    /// and tables, see [`crate::skill`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<serde_json::Value>,
}

/// One arm of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdentityArm {
    pub name: String,
    /// Game, variants, options set, players, and the text of every house
    /// rule.
    pub config: GameConfig,
    /// The bots, seat 1 first (before rotation).
    pub seats: Vec<String>,
    /// Every option's value (the defaults too).
    pub options: BTreeMap<String, serde_json::Value>,
    /// Every script file that ran for the arm's rules (the host's own, the
    /// game file, variants, house rules, modules), with the hash of its
    /// text: shards of edited rules do not merge.
    pub scripts: BTreeMap<String, String>,
}

impl Identity {
    /// The identity of a finished run of `command`.
    pub fn of(command: &str, t: &Timed, tune: Option<serde_json::Value>) -> Identity {
        let r = &t.report;
        Identity {
            deckhand: VERSION.to_string(),
            command: command.to_string(),
            game: r.game.clone(),
            title: t.title.clone(),
            first_seed: r.first_seed,
            games: t.played.total,
            rotate: r.rotate,
            arms: r
                .arms
                .iter()
                .zip(&t.played.configs)
                .zip(&t.played.scripts)
                .map(|((a, c), s)| IdentityArm {
                    name: a.name.clone(),
                    config: c.clone(),
                    seats: a.seats.clone(),
                    options: a.options.clone(),
                    scripts: s.clone(),
                })
                .collect(),
            metrics: r.metrics.clone(),
            share_metrics: r.share_metrics.clone(),
            tune,
            ladder: None,
            skill: None,
        }
    }

    /// The experiment of the run: its arms, seeds and seating (the bots'
    /// salts are not kept here: a skill run sets its own,
    /// [`crate::skill::experiment`]).
    pub fn experiment(&self) -> Experiment {
        Experiment {
            arms: self
                .arms
                .iter()
                .map(|a| Arm {
                    name: a.name.clone(),
                    config: a.config.clone(),
                    seats: a.seats.iter().map(|s| BotKind::parse(s)).collect(),
                    bot_salt: 0,
                })
                .collect(),
            first_seed: self.first_seed,
            rotate: self.rotate,
        }
    }

    /// The report of `tally` (every game of the run), as the run itself
    /// would have printed it; `elapsed_s` and `threads` are the shards'
    /// together.
    pub fn timed(&self, tally: Tally, elapsed_s: f64, threads: usize) -> Timed {
        let experiment = self.experiment();
        let options: Vec<_> = self.arms.iter().map(|a| a.options.clone()).collect();
        let ran = Ran {
            tally,
            stopped: Stopped::Games,
        };
        let report = Report::new(
            &experiment,
            &ran,
            self.metrics.clone(),
            self.share_metrics.clone(),
            &options,
        );
        let games = report.games * self.arms.len() as u64;
        Timed {
            report,
            title: self.title.clone(),
            elapsed_s,
            games_per_s: games as f64 / elapsed_s.max(1e-9),
            threads,
            played: Played {
                tally: ran.tally,
                configs: experiment.arms.iter().map(|a| a.config.clone()).collect(),
                scripts: self.arms.iter().map(|a| a.scripts.clone()).collect(),
                total: self.games,
                games: 0..self.games,
            },
        }
    }
}
