//! `deckhand merge FILES...`: the result files of every shard of one run
//! (`--shard K/N` of `sim`, `compare`, `tune` and `ladder`) read, checked against
//! each other and added up into the report one run over all the games
//! would have printed (docs/scale.md).

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use deckhand_lab::shard;
use deckhand_lab::Identity;
use deckhand_lab::{ShardFile, Tally};
use std::path::PathBuf;

/// The largest shard file read (bytes): a tally is a few kilobytes per
/// arm, its histograms at most a few hundred.
const MAX_FILE: u64 = 256 << 20;

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

/// How a report of its own kind is made and printed from a merged tally.
type Finish = fn(&Identity, &Tally, f64, usize, bool, Option<&PathBuf>) -> Result<()>;

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
    if let Some(path) = &args.html {
        super::lab::check_writable(path, "the HTML page (--html)")?;
    }
    let (identity, tally, elapsed, threads) = merged(&args.files)?;
    // Reports of their own kind: made from every game's places.
    let own: Option<(&str, Finish)> = match identity.command.as_str() {
        "ladder" => Some(("a ladder's report", super::ladder::finish)),
        "skill" => Some(("a skill report", super::skill::finish)),
        _ => None,
    };
    if let Some((what, finish)) = own {
        if args.csv || args.histograms {
            bail!("{what} is text or --json (and --html), not --csv or --histograms");
        }
        return finish(
            &identity,
            &tally,
            elapsed,
            threads,
            args.json,
            args.html.as_ref(),
        );
    }
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
