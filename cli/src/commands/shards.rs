//! Runs split into shards (`--shard K/N` of `sim`, `compare` and `tune`)
//! and `deckhand merge FILES...`: a shard prints its result file (the
//! core's [`ShardFile`]: its tallies and the identity of the run), and
//! merging the files of every shard rebuilds exactly the report one run
//! over all the games would have printed (docs/scale.md).

use super::lab::{Played, RunArgs, Timed};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use deckhand_bots::BotKind;
use deckhand_engine::GameConfig;
use deckhand_lab::shard::{self, FORMAT, KIND};
use deckhand_lab::{Arm, Experiment, Ran, Report, ShardFile, Stopped, Tally};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The largest shard file read (bytes): a tally is a few kilobytes per
/// arm, its histograms at most a few hundred.
const MAX_FILE: u64 = 256 << 20;

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
    /// What `tune` searches for (its own fields).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tune: Option<serde_json::Value>,
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
            deckhand: env!("CARGO_PKG_VERSION").to_string(),
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
            tune,
        }
    }

    /// The report of `tally` (every game of the run), as the run itself
    /// would have printed it; `elapsed_s` and `threads` are the shards'
    /// together.
    pub fn timed(&self, tally: Tally, elapsed_s: f64, threads: usize) -> Timed {
        let experiment = Experiment {
            arms: self
                .arms
                .iter()
                .map(|a| Arm {
                    name: a.name.clone(),
                    config: a.config.clone(),
                    seats: a.seats.iter().map(|s| BotKind::parse(s)).collect(),
                })
                .collect(),
            first_seed: self.first_seed,
            rotate: self.rotate,
        };
        let options: Vec<_> = self.arms.iter().map(|a| a.options.clone()).collect();
        let ran = Ran {
            tally,
            stopped: Stopped::Games,
        };
        let report = Report::new(&experiment, &ran, self.metrics.clone(), &options);
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

/// The shard file of a run made with `--shard`.
pub fn shard_file(identity: &Identity, t: &Timed, args: &RunArgs) -> Result<ShardFile> {
    let shard = args
        .shard
        .ok_or_else(|| anyhow!("not a sharded run: no --shard"))?;
    Ok(ShardFile {
        kind: KIND.into(),
        format: FORMAT,
        identity: serde_json::to_value(identity)?,
        shard,
        start: t.played.games.start,
        end: t.played.games.end,
        elapsed_s: t.elapsed_s,
        threads: t.threads,
        tally: t.played.tally.clone(),
    })
}

/// Print a sharded run's result file (with `--shard`), or else the report
/// as text, JSON or CSV, and the HTML page with `--html`.
pub fn finish(command: &str, t: &Timed, args: &RunArgs) -> Result<()> {
    if args.shard.is_some() {
        let file = shard_file(&Identity::of(command, t, None), t, args)?;
        outln!("{}", serde_json::to_string(&file)?);
        return Ok(());
    }
    super::report::print(t, args.json, args.csv, args.histograms)?;
    if let Some(path) = &args.html {
        crate::report_html::write(path, &crate::report_html::lab_page(t))?;
    }
    Ok(())
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The result files of every shard of one run (`--shard K/N` of sim,
    /// compare or tune), in any order.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Print the report as one JSON object.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the report as CSV (sim and compare).
    #[arg(long)]
    pub csv: bool,
    /// Draw the distributions under the text report (sim and compare).
    #[arg(long)]
    pub histograms: bool,
    /// Write the report as one self-contained HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// Read one shard file.
fn read(path: &PathBuf) -> Result<ShardFile> {
    let meta = std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
    if !meta.is_file() || meta.len() > MAX_FILE {
        bail!(
            "{}: a shard file is a regular file of at most {} MiB",
            path.display(),
            MAX_FILE >> 20
        );
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    ShardFile::parse(&text).map_err(|e| anyhow!("{}: {e}", path.display()))
}

/// The identity and merged tally of every shard file, checked.
pub fn merged(paths: &[PathBuf]) -> Result<(Identity, Tally, f64, usize)> {
    let files = paths.iter().map(read).collect::<Result<Vec<_>>>()?;
    let (identity, tally, elapsed, threads) = shard::merge(&files).map_err(|e| {
        // The merge names files by number: give their names.
        let mut msg = e.to_string();
        for (i, p) in paths.iter().enumerate().rev() {
            msg = msg.replace(&format!("file {}", i + 1), &p.display().to_string());
        }
        anyhow!(msg)
    })?;
    let identity: Identity =
        serde_json::from_value(identity).context("the shards' run is not one deckhand reads")?;
    if identity.arms.len() != tally.arms.len() {
        bail!(
            "the shards name {} arms but count {}",
            identity.arms.len(),
            tally.arms.len()
        );
    }
    Ok((identity, tally, elapsed, threads))
}

/// `deckhand merge FILES...`.
pub fn run(args: &MergeArgs) -> Result<()> {
    let (identity, tally, elapsed, threads) = merged(&args.files)?;
    let timed = identity.timed(tally, elapsed, threads);
    if identity.command == "tune" {
        if args.csv || args.histograms {
            bail!("a tune's report is text or --json (and --html), not --csv or --histograms");
        }
        return super::tune::finish_merged(&identity, &timed, args.json, args.html.as_ref());
    }
    super::report::print(&timed, args.json, args.csv, args.histograms)?;
    if let Some(path) = &args.html {
        crate::report_html::write(path, &crate::report_html::lab_page(&timed))?;
    }
    Ok(())
}
