//! `deckhand compare GAME --arm NAME=ARGS ...`: two or more arms (each a
//! set of variants, house rules, options and seats) play the same seeds,
//! and the report gives every statistic per arm and the paired difference
//! of every arm against the first, with 95 % intervals. Arms come from the
//! command line or from a JSON experiment file.

use super::lab::{self, RunArgs};
use super::lab::{bot_kinds, MAX_ARMS};
use super::play::default_fill;
use super::setup;
use crate::GameArgs;
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Parser};
use deckhand_engine::{Engine, ScriptLibrary};
use deckhand_lab::{Arm, Experiment};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest experiment file read (bytes).
const MAX_FILE: u64 = 1 << 20;

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Game id (see `deckhand games`); may be left out with --experiment.
    pub game: Option<String>,
    /// An arm: NAME, or NAME=ARGS where ARGS are the usual -v/--variant,
    /// -o/--option, --seat and -p/--players flags, e.g.
    /// 'eights=-v scripts/house_rules/eights_minus_five.lua' (repeatable; the first
    /// arm is the baseline every other arm is compared with).
    #[arg(long = "arm", value_name = "NAME=ARGS")]
    pub arms: Vec<String>,
    /// A JSON experiment file: {"game": ..., "arms": [{"name": ...,
    /// "variants": [...], "options": {...}, "seats": [...], "players": N}]}
    /// (see docs/lab.md); its arms come before those of --arm.
    #[arg(long, value_name = "FILE")]
    pub experiment: Option<PathBuf>,
    /// Number of players of every arm that does not set its own.
    #[arg(long, short = 'p')]
    pub players: Option<u32>,
    /// Variant or house rule of every arm, applied before the arm's own
    /// (repeatable).
    #[arg(long = "variant", short = 'v', value_name = "V")]
    pub variants: Vec<String>,
    /// Option of every arm as KEY=VALUE (repeatable; an arm's own win).
    #[arg(long = "option", short = 'o', value_name = "K=V")]
    pub options: Vec<String>,
    /// Seats of every arm that gives none, in seat order (repeatable).
    #[arg(long = "seat", value_name = "WHO")]
    pub seats: Vec<String>,
    /// Seed of game 0 (game i of every arm uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Keep every bot in its seat even when the arms seat different bots
    /// (by default the seats then rotate: every bot sits in every seat
    /// equally often, paired across arms).
    #[arg(long)]
    pub no_rotate: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

/// An arm's own flags (what follows `NAME=`).
#[derive(Parser, Debug, Default)]
#[command(no_binary_name = true)]
pub(super) struct ArmFlags {
    #[arg(long, short = 'p')]
    pub(super) players: Option<u32>,
    #[arg(long = "variant", short = 'v')]
    pub(super) variants: Vec<String>,
    #[arg(long = "option", short = 'o')]
    pub(super) options: Vec<String>,
    #[arg(long = "seat")]
    pub(super) seats: Vec<String>,
}

/// An arm in an experiment file.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct FileArm {
    name: String,
    #[serde(default)]
    variants: Vec<String>,
    #[serde(default)]
    options: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    seats: Vec<String>,
    #[serde(default)]
    players: Option<u32>,
}

/// An experiment file.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct FileExperiment {
    #[serde(default)]
    game: Option<String>,
    arms: Vec<FileArm>,
}

/// Split ARGS as a shell would for simple cases: words between spaces,
/// 'single' and "double" quotes keeping spaces.
pub fn split_words(s: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        bail!("unclosed quote in '{s}'");
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// An arm from `NAME` or `NAME=ARGS`.
pub(super) fn parse_arm(text: &str) -> Result<(String, ArmFlags)> {
    let (name, rest) = text.split_once('=').unwrap_or((text, ""));
    let name = name.trim();
    if name.is_empty() {
        bail!("--arm '{text}': an arm needs a name (NAME or NAME=ARGS)");
    }
    let flags = ArmFlags::try_parse_from(split_words(rest)?).map_err(|e| {
        let first = e.to_string();
        let first = first
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("error: ");
        anyhow!("--arm {name}: {first} (an arm takes -v, -o, --seat and -p)")
    })?;
    Ok((name.to_string(), flags))
}

/// Arms by name with their flags, in order.
type NamedArms = Vec<(String, ArmFlags)>;

/// Read an experiment file: its game and arms (house-rule paths taken
/// relative to the file's folder).
fn read_file(path: &Path) -> Result<(Option<String>, NamedArms)> {
    let meta = std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
    if !meta.is_file() || meta.len() > MAX_FILE {
        bail!(
            "{}: an experiment file is a regular file of at most 1 MiB",
            path.display()
        );
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let file: FileExperiment = serde_json::from_str(&text)
        .with_context(|| format!("{}: not an experiment file", path.display()))?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let arms = file
        .arms
        .into_iter()
        .map(|a| {
            let variants = a
                .variants
                .into_iter()
                .map(|v| {
                    if deckhand_engine::house_rule::is_file(&v) && Path::new(&v).is_relative() {
                        dir.join(&v).display().to_string()
                    } else {
                        v
                    }
                })
                .collect();
            let options = a
                .options
                .into_iter()
                .map(|(k, v)| match v {
                    serde_json::Value::String(s) => format!("{k}={s}"),
                    v => format!("{k}={v}"),
                })
                .collect();
            (
                a.name,
                ArmFlags {
                    players: a.players,
                    variants,
                    options,
                    seats: a.seats,
                },
            )
        })
        .collect();
    Ok((file.game, arms))
}

pub fn run(library: Arc<ScriptLibrary>, args: &CompareArgs) -> Result<()> {
    let mut arms = Vec::new();
    let mut game = args.game.clone();
    if let Some(path) = &args.experiment {
        let (file_game, file_arms) = read_file(path)?;
        match (&game, file_game) {
            (Some(g), Some(f)) if *g != f => {
                bail!("{}: is for game '{f}', not '{g}'", path.display())
            }
            (None, f) => game = f,
            _ => {}
        }
        arms.extend(file_arms);
    }
    for a in &args.arms {
        arms.push(parse_arm(a)?);
    }
    let Some(game) = game else {
        bail!("compare needs a game: `deckhand compare GAME --arm ...` (or \"game\" in the experiment file)");
    };
    if arms.len() < 2 {
        bail!(
            "compare needs two arms or more (got {}): e.g. --arm base \
             --arm 'eights=-v scripts/house_rules/eights_minus_five.lua'",
            arms.len()
        );
    }
    if arms.len() > MAX_ARMS {
        bail!("{} arms: at most {MAX_ARMS}", arms.len());
    }
    for (i, (name, _)) in arms.iter().enumerate() {
        if arms[..i].iter().any(|(n, _)| n == name) {
            bail!("two arms are named '{name}': give each arm its own name");
        }
    }
    let first_seed = args.seed;
    let build = |engine: &Engine| {
        let mut built = Vec::new();
        for (name, flags) in &arms {
            let mut variants = args.variants.clone();
            variants.extend(flags.variants.iter().cloned());
            let mut options = args.options.clone();
            options.extend(flags.options.iter().cloned());
            let seats = if flags.seats.is_empty() {
                args.seats.clone()
            } else {
                flags.seats.clone()
            };
            let game_args = GameArgs {
                game: game.clone(),
                players: flags.players.or(args.players),
                variants,
                options,
                seed: Some(first_seed),
                seats,
            };
            let (config, specs) = setup::bot_game_config(engine, &game_args, default_fill)
                .with_context(|| format!("arm {name}"))?;
            built.push(Arm {
                name: name.clone(),
                config,
                seats: bot_kinds(&specs, "compare").with_context(|| format!("arm {name}"))?,
                bot_salt: 0,
            });
        }
        let mut experiment = Experiment {
            arms: built,
            first_seed,
            rotate: false,
        };
        experiment.rotate = !args.no_rotate && experiment.mixed_seats();
        Ok(experiment)
    };
    let timed = lab::run(library, &args.run, 1000, first_seed, None, build)?;
    super::shards::finish("compare", &timed, &args.run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arm_arguments_split_like_a_shell() {
        assert_eq!(
            split_words("-v 'my rules/x.lua' -o target_vp=5").ok(),
            Some(vec![
                "-v".to_string(),
                "my rules/x.lua".into(),
                "-o".into(),
                "target_vp=5".into()
            ])
        );
        assert!(split_words("-v 'open").is_err());
        let (name, flags) = parse_arm("eights=-v house_rules/e.lua --seat greedy -p 3")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(name, "eights");
        assert_eq!(flags.variants, vec!["house_rules/e.lua".to_string()]);
        assert_eq!(flags.seats, vec!["greedy".to_string()]);
        assert_eq!(flags.players, Some(3));
        assert!(parse_arm("base").is_ok());
        assert!(parse_arm("x=--bogus").is_err());
        assert!(parse_arm("=-v a.lua").is_err());
    }
}
