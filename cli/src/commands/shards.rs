//! Runs split into shards (`--shard K/N` of `sim`, `compare` and `tune`):
//! a shard prints its result file (the lab's [`ShardFile`]: its tallies
//! and the identity of the run); `deckhand merge` (see [`super::merge`])
//! rebuilds from the files of every shard exactly the report one run over
//! all the games would have printed (docs/scale.md).

use super::lab::RunArgs;
use anyhow::{anyhow, Result};
use deckhand_lab::shard::{FORMAT, KIND};
use deckhand_lab::{Identity, ShardFile, Timed};

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
