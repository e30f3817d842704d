//! `deckhand tune GAME --try KEY=VALUES ... --stat STAT --target X`: the
//! option values that bring a statistic closest to a target, or make it as
//! large or as small as it gets. Every candidate (one combination of the
//! values tried) is an arm of the lab, and all play the same seeds.
//!
//! Successive halving (the default): every candidate plays `-n` games; the
//! better half (by the statistic's mean) is kept and plays the next games
//! up to twice as many, and so on until two are left, whose last round
//! decides. Games go where the decision is close, and a candidate's games
//! are always the first of the run's seeds, paired with every other's.
//! `--search grid` plays `-n` games for every candidate instead (and may
//! be sharded).

use super::lab::{self, bot_kinds, RunArgs, MAX_ARMS};
use super::play::default_fill;
use super::setup;
use crate::GameArgs;
use anyhow::{anyhow, bail, Result};
use clap::{Args, ValueEnum};
use deckhand_engine::{Engine, ScriptLibrary};
use deckhand_lab::tune::{
    arm_tally, candidates, name_of, ranked, report, score, Objective, Round, Search, Spec,
    TuneReport,
};
use deckhand_lab::{Arm, Experiment, Identity, Key, Row, StopRule, Tally, Timed};
use std::path::PathBuf;
use std::sync::Arc;

/// The most values one `--try` may list or span.
const MAX_VALUES: usize = 64;

#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// An option and the values to try: KEY=V1,V2,... or KEY=LOW..HIGH or
    /// KEY=LOW..HIGH/STEP for whole numbers (repeatable: every combination
    /// is a candidate; at most 64 candidates).
    #[arg(long = "try", value_name = "KEY=VALUES", required = true)]
    pub tries: Vec<String>,
    /// The statistic to tune: rounds, decisions, edge, win.seat1, margin,
    /// score.seat2, shared, metric:NAME ... (as --on).
    #[arg(long, value_name = "STAT")]
    pub stat: String,
    /// Find the values whose mean of STAT is closest to this number.
    #[arg(
        long,
        value_name = "X",
        allow_negative_numbers = true,
        conflicts_with_all = ["maximize", "minimize"]
    )]
    pub target: Option<f64>,
    /// Find the values that make STAT largest.
    #[arg(long, conflicts_with = "minimize")]
    pub maximize: bool,
    /// Find the values that make STAT smallest.
    #[arg(long)]
    pub minimize: bool,
    /// How to search: successive halving on paired seeds, or every
    /// candidate on -n games.
    #[arg(long, value_enum, default_value_t = SearchArg::Halving)]
    pub search: SearchArg,
    #[command(flatten)]
    pub run: RunArgs,
}

/// `--search`: how the games are spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SearchArg {
    /// Keep the better half each round, twice the games for the rest.
    Halving,
    /// Every candidate on the same -n games.
    Grid,
}

impl From<SearchArg> for Search {
    fn from(s: SearchArg) -> Search {
        match s {
            SearchArg::Halving => Search::Halving,
            SearchArg::Grid => Search::Grid,
        }
    }
}

/// The values of one `--try`.
pub fn parse_try(text: &str) -> Result<(String, Vec<String>)> {
    let bad = |why: &str| {
        anyhow!(
            "--try '{text}': {why} (KEY=V1,V2,..., KEY=LOW..HIGH or KEY=LOW..HIGH/STEP, e.g. \
             bank=20..40/5)"
        )
    };
    let (key, values) = text
        .split_once('=')
        .ok_or_else(|| bad("no '=' after the option"))?;
    let key = key.trim();
    if key.is_empty() {
        return Err(bad("no option name"));
    }
    let values = values.trim();
    let list: Vec<String> = if let Some((low, rest)) = values.split_once("..") {
        let (high, step) = rest.split_once('/').unwrap_or((rest, "1"));
        let num = |s: &str| {
            s.trim()
                .parse::<i64>()
                .map_err(|_| bad("not a whole number"))
        };
        let (low, high, step) = (num(low)?, num(high)?, num(step)?);
        if step <= 0 || high < low {
            return Err(bad("LOW..HIGH/STEP needs LOW ≤ HIGH and STEP ≥ 1"));
        }
        let count = (high - low) / step + 1;
        if count as usize > MAX_VALUES {
            return Err(bad(&format!("{count} values, at most {MAX_VALUES}")));
        }
        (0..count).map(|i| (low + i * step).to_string()).collect()
    } else {
        values.split(',').map(|v| v.trim().to_string()).collect()
    };
    if list.iter().any(String::is_empty) {
        return Err(bad("an empty value"));
    }
    if list.len() > MAX_VALUES {
        return Err(bad(&format!("{} values, at most {MAX_VALUES}", list.len())));
    }
    let mut seen = list.clone();
    seen.sort();
    seen.dedup();
    if seen.len() != list.len() {
        return Err(bad("a value given twice"));
    }
    Ok((key.to_string(), list))
}

/// The experiment of the candidates `which` (arms in that order).
fn experiment(
    engine: &Engine,
    args: &TuneArgs,
    spec: &Spec,
    which: &[usize],
    first_seed: u64,
) -> Result<Experiment> {
    let mut arms = Vec::new();
    for &c in which {
        let values = &spec.candidates[c];
        let mut game_args = args.game.clone();
        game_args.seed = Some(first_seed);
        game_args
            .options
            .extend(values.iter().map(|(k, v)| format!("{k}={v}")));
        let name = name_of(values);
        let (config, specs) = setup::bot_game_config(engine, &game_args, default_fill)
            .map_err(|e| anyhow!("candidate {name}: {e:#}"))?;
        arms.push(Arm {
            name,
            config,
            seats: bot_kinds(&specs, "tune")?,
            bot_salt: 0,
        });
    }
    let mut e = Experiment {
        arms,
        first_seed,
        rotate: false,
    };
    e.rotate = e.mixed_seats();
    Ok(e)
}

pub fn run(library: Arc<ScriptLibrary>, args: &TuneArgs) -> Result<()> {
    if args.run.precision.is_some() || args.run.decisive.is_some() {
        bail!(
            "tune stops by its search (-n games a candidate, doubled each round of halving), \
             not by --precision or --decisive"
        );
    }
    if args.run.csv || args.run.histograms {
        bail!("tune prints text or --json (and --html), not --csv or --histograms");
    }
    if let Some(path) = &args.run.html {
        lab::check_writable(path, "the HTML page (--html)")?;
    }
    let objective = match (args.target, args.maximize, args.minimize) {
        (Some(t), _, _) if t.is_finite() => Objective::Target(t),
        (Some(t), _, _) => bail!("--target {t}: must be a number"),
        (None, true, _) => Objective::Maximize,
        (None, _, true) => Objective::Minimize,
        _ => bail!("tune needs a goal: --target X, --maximize or --minimize"),
    };
    let stat: Key = args
        .stat
        .parse()
        .map_err(|e: String| anyhow!("--stat {e}"))?;
    let tries = args
        .tries
        .iter()
        .map(|t| parse_try(t))
        .collect::<Result<Vec<_>>>()?;
    let spec = Spec {
        stat,
        objective,
        search: args.search.into(),
        candidates: candidates(&tries, MAX_ARMS).map_err(|e| anyhow!(e))?,
    };
    if args.run.shard.is_some() && spec.search != Search::Grid {
        bail!(
            "--shard needs --search grid: successive halving picks the candidates of each \
             round from all the games of the one before, which one shard cannot see"
        );
    }
    let first_seed = args.game.seed.unwrap_or(1);
    let n = args.run.games.unwrap_or(200);
    lab::check_game_count(n, "for each candidate")?;
    let all: Vec<usize> = (0..spec.candidates.len()).collect();
    let spec_value = serde_json::to_value(&spec)?;
    let build_all = |engine: &Engine| experiment(engine, args, &spec, &all, first_seed);
    if spec.search == Search::Grid {
        let timed = lab::run(library, &args.run, 200, first_seed, None, build_all)?;
        let identity = Identity::of("tune", &timed, Some(spec_value));
        if args.run.shard.is_some() {
            let file = super::shards::shard_file(&identity, &timed, &args.run)?;
            outln!("{}", serde_json::to_string(&file)?);
            return Ok(());
        }
        return finish_merged(&identity, &timed, args.run.json, args.run.html.as_ref());
    }
    // Successive halving.
    let mut survivors = all.clone();
    let mut tallies: Vec<Option<Tally>> = vec![None; all.len()];
    let mut last_round = vec![0u32; all.len()];
    let mut rounds = Vec::new();
    let (mut done, mut games) = (0u64, n);
    let mut elapsed = 0.0;
    let mut threads;
    let mut identity: Option<Identity> = None;
    loop {
        if games > lab::MAX_GAMES {
            bail!(
                "-n {n}: the last round would play more than {} games",
                lab::MAX_GAMES
            );
        }
        let which = survivors.clone();
        let timed = lab::run_games(
            library.clone(),
            &args.run,
            StopRule::Games(games - done),
            games,
            done..games,
            first_seed,
            None,
            |engine: &Engine| experiment(engine, args, &spec, &which, first_seed),
        )?;
        elapsed += timed.elapsed_s;
        threads = timed.threads;
        if identity.is_none() {
            // Every candidate's identity, from the first round (all of
            // them).
            identity = Some(Identity::of("tune", &timed, Some(spec_value.clone())));
        }
        for (a, &c) in which.iter().enumerate() {
            let part = arm_tally(&timed.played.tally, a);
            match &mut tallies[c] {
                Some(t) => t.merge(&part),
                slot => *slot = Some(part),
            }
            last_round[c] = rounds.len() as u32 + 1;
        }
        rounds.push(Round {
            games,
            candidates: which
                .iter()
                .map(|&c| name_of(&spec.candidates[c]))
                .collect(),
        });
        if survivors.len() <= 2 {
            break;
        }
        let scores = survivors
            .iter()
            .map(|&c| {
                let t = tallies[c]
                    .as_ref()
                    .ok_or_else(|| anyhow!("candidate {c} has no games"))?;
                Ok((c, score(&spec, t).map_err(|e| anyhow!(e))?))
            })
            .collect::<Result<Vec<_>>>()?;
        let keep = survivors.len().div_ceil(2);
        survivors = ranked(&scores).into_iter().take(keep).collect();
        survivors.sort_unstable();
        done = games;
        games = games.saturating_mul(2);
    }
    let identity = identity.ok_or_else(|| anyhow!("no round played"))?;
    let tallies: Vec<Tally> = tallies
        .into_iter()
        .map(|t| t.unwrap_or_else(|| Tally::new(1)))
        .collect();
    let r = report(
        &identity,
        &spec,
        &tallies,
        &last_round,
        rounds,
        elapsed,
        threads,
    )
    .map_err(|e| anyhow!(e))?;
    print(&r, args.run.json, args.run.html.as_ref())
}

/// The report of a grid tune (one run, or its shards merged), printed.
pub fn finish_merged(
    identity: &Identity,
    timed: &Timed,
    json: bool,
    html: Option<&PathBuf>,
) -> Result<()> {
    let spec: Spec = identity
        .tune
        .clone()
        .ok_or_else(|| anyhow!("the shards are not of a tune"))
        .and_then(|v| serde_json::from_value(v).map_err(|e| anyhow!("the tune's search: {e}")))?;
    if spec.candidates.len() != identity.arms.len() {
        bail!(
            "the tune names {} candidates for {} arms",
            spec.candidates.len(),
            identity.arms.len()
        );
    }
    let tallies: Vec<Tally> = (0..identity.arms.len())
        .map(|a| arm_tally(&timed.played.tally, a))
        .collect();
    let rounds = vec![Round {
        games: timed.report.games,
        candidates: spec.candidates.iter().map(name_of).collect(),
    }];
    let last = vec![1; tallies.len()];
    let r = report(
        identity,
        &spec,
        &tallies,
        &last,
        rounds,
        timed.elapsed_s,
        timed.threads,
    )
    .map_err(|e| anyhow!(e))?;
    print(&r, json, html)
}

/// A value of the statistic as people read it (as `sim` prints it).
pub fn value_text(row: &Row, x: f64) -> String {
    super::report::value(row, x, false)
}

fn interval_text(row: &Row) -> String {
    match (row.low, row.high) {
        (Some(l), Some(h)) => format!("{} .. {}", value_text(row, l), value_text(row, h)),
        _ => "(too few games)".into(),
    }
}

fn print(r: &TuneReport, json: bool, html: Option<&PathBuf>) -> Result<()> {
    if json {
        outln!("{}", serde_json::to_string_pretty(r)?);
    } else {
        print_text(r);
    }
    if let Some(path) = html {
        crate::report_html::write(path, &crate::report_html::tune_page(r))?;
    }
    Ok(())
}

fn print_text(r: &TuneReport) {
    let search = match r.search {
        Search::Halving => format!(
            "successive halving, {} round{}",
            r.rounds.len(),
            if r.rounds.len() == 1 { "" } else { "s" }
        ),
        Search::Grid => "grid".to_string(),
    };
    outln!(
        "{}: {} candidates for {} ({search}, seeds from {})",
        r.title,
        r.candidates.len(),
        r.objective.words(&r.label),
        r.first_seed
    );
    if let Some(best) = r.candidates.first() {
        let est = best
            .estimate
            .as_ref()
            .map(|e| {
                format!(
                    "{} {} (95% interval {}, {} games, {})",
                    r.label,
                    value_text(e, e.mean),
                    interval_text(e),
                    e.n,
                    e.method.name()
                )
            })
            .unwrap_or_default();
        outln!("best: {}: {est}", best.name);
    }
    outln!();
    let nw = r
        .candidates
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(9);
    let cells: Vec<(String, String)> = r
        .candidates
        .iter()
        .map(|c| match &c.estimate {
            Some(e) => (value_text(e, e.mean), interval_text(e)),
            None => ("-".into(), String::new()),
        })
        .collect();
    let vw = cells.iter().map(|c| c.0.len()).max().unwrap_or(0).max(4);
    let iw = cells.iter().map(|c| c.1.len()).max().unwrap_or(0).max(12);
    outln!(
        "{:<nw$}  {:>7}  {:>vw$}  {:<iw$}  round",
        "candidate",
        "games",
        "mean",
        "95% interval"
    );
    for (c, (v, i)) in r.candidates.iter().zip(cells) {
        outln!(
            "{:<nw$}  {:>7}  {:>vw$}  {:<iw$}  {}",
            c.name,
            c.games,
            v,
            i,
            c.last_round
        );
    }
    outln!();
    outln!(
        "Every candidate plays the same seeds (game i of each from seed {} + i); round: the \
         last round a candidate played. {}",
        r.first_seed,
        super::report::METHODS
    );
    outln!(
        "elapsed {:.2} s on {} thread{}",
        r.elapsed_s,
        r.threads,
        if r.threads == 1 { "" } else { "s" }
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tries_read_lists_and_ranges() {
        let ok = |s: &str| parse_try(s).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ok("bank=20..30/5").1, vec!["20", "25", "30"]);
        assert_eq!(ok("x=a, b").1, vec!["a", "b"]);
        assert_eq!(ok("n=3..5").1, vec!["3", "4", "5"]);
        for bad in [
            "bank",
            "=1",
            "n=5..3",
            "n=1..9/0",
            "n=1,1",
            "n=1..1000",
            "n=a..b",
        ] {
            assert!(parse_try(bad).is_err(), "{bad}");
        }
        let c = candidates(&[ok("a=1,2"), ok("b=x,y,z")], MAX_ARMS).unwrap_or_default();
        assert_eq!(c.len(), 6);
        assert_eq!(name_of(&c[1]), "a=1 b=y");
        assert!(candidates(&[ok("a=1..40"), ok("b=1,2")], MAX_ARMS).is_err());
    }

    #[test]
    fn ranking_prefers_the_lower_score_then_the_first() {
        assert_eq!(
            ranked(&[(0, Some(2.0)), (1, Some(0.5)), (2, None), (3, Some(0.5))]),
            vec![1, 3, 0, 2]
        );
        assert_eq!(Objective::Target(8.0).score(7.5), 0.5);
        assert_eq!(Objective::Maximize.score(3.0), -3.0);
    }
}
