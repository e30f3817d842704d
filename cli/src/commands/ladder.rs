//! `deckhand ladder GAME --bot A --bot B ...`: the bots play mixed tables
//! (every set of bots that fills a table, in every order of its seats,
//! all on the same deals) and are rated from the games' finishing places
//! (Bradley-Terry at two players, Plackett-Luce at more), each rating and
//! each difference of two with its 95 % interval (docs/skill.md). The
//! tables, the fit and the report are the lab's ([`deckhand_lab::ladder`]);
//! this module plays them through the lab's run and prints.

use super::lab::{self, RunArgs, DEFAULT_STEP_TIMEOUT};
use super::play::default_fill;
use super::setup;
use crate::report_html::{escape, whisker_chart, Whisker};
use crate::seats::{self, SeatSpec};
use crate::GameArgs;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use deckhand_engine::{Engine, ScriptLibrary};
use deckhand_lab::ladder::{self as lab_ladder, LadderReport, LadderSpec};
use deckhand_lab::{Arm, Experiment, Identity, Shard, Tally};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

/// Deals unless `-n` says.
const DEFAULT_DEALS: u64 = 100;

#[derive(Args, Debug)]
pub struct LadderArgs {
    /// Game id (see `deckhand games`).
    pub game: String,
    /// A bot to rate (repeatable, two or more): random, a bot of the game
    /// (greedy), mc:50, mc:200, ismcts:400 ... `random` is fixed at 0;
    /// without it, the first bot.
    #[arg(long = "bot", value_name = "BOT", required = true)]
    pub bots: Vec<String>,
    /// Players at every table (default: the game's default).
    #[arg(long, short = 'p')]
    pub players: Option<u32>,
    /// Variant or house rule, applied in the order given (repeatable).
    #[arg(long = "variant", short = 'v', value_name = "V")]
    pub variants: Vec<String>,
    /// Option as KEY=VALUE (repeatable).
    #[arg(long = "option", short = 'o', value_name = "K=V")]
    pub options: Vec<String>,
    /// Seed of the first deal (deal i uses seed + i at every table).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Deals (default 100): each is played at every table, in every
    /// order of its seats, so the games are deals × tables.
    #[arg(long = "games", short = 'n', value_name = "DEALS")]
    pub games: Option<u64>,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write the report as one self-contained HTML page to FILE, besides
    /// the text or JSON.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Play only shard K of N of the deals and print its result file for
    /// `deckhand merge` (docs/scale.md).
    #[arg(long, value_name = "K/N", conflicts_with_all = ["json", "html"])]
    pub shard: Option<Shard>,
    /// Count every Lua instruction against the per-step budget (as `sim
    /// --exact-budget`).
    #[arg(long)]
    pub exact_budget: bool,
    /// Seconds a call into the scripts may run before the watchdog ends
    /// the run (as `sim --step-timeout`).
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_STEP_TIMEOUT)]
    pub step_timeout: f64,
}

pub fn run(library: Arc<ScriptLibrary>, args: &LadderArgs) -> Result<()> {
    let deals = args.games.unwrap_or(DEFAULT_DEALS);
    if deals < 2 {
        bail!("-n {deals}: a ladder needs 2 deals or more (its intervals are over deals)");
    }
    let run_args = RunArgs::of_placings(
        deals,
        args.json,
        args.exact_budget,
        args.step_timeout,
        args.threads,
        args.shard,
    );
    let first_seed = args.seed;
    let mut made: Option<LadderSpec> = None;
    let build = |engine: &Engine| {
        let game_args = GameArgs {
            game: args.game.clone(),
            players: args.players,
            variants: args.variants.clone(),
            options: args.options.clone(),
            seed: Some(first_seed),
            seats: Vec::new(),
        };
        let (config, _) = setup::bot_game_config(engine, &game_args, default_fill)?;
        let info = engine
            .rules_of(&config)
            .map_err(|e| anyhow!("cannot load {}: {e}", args.game))?
            .info
            .clone();
        let specs: Vec<SeatSpec> = args.bots.iter().map(|b| SeatSpec::parse(b)).collect();
        for s in &specs {
            seats::complete(
                std::slice::from_ref(s),
                config.players,
                s,
                &info,
                seats::Table::Lab,
            )?;
        }
        let kinds = lab::bot_kinds(&specs, "ladder")?;
        let spec = LadderSpec::new(args.bots.clone(), config.players)?;
        // Partners share a win: the ratings are of players on their own.
        refuse_partners(engine, &config, &info.title, "a ladder rates")?;
        let arms = spec
            .tables
            .iter()
            .enumerate()
            .map(|(i, t)| Arm {
                name: format!("table {}", i + 1),
                config: config.clone(),
                seats: t.iter().map(|&b| kinds[b].clone()).collect(),
                bot_salt: 0,
            })
            .collect();
        made = Some(spec);
        Ok(Experiment {
            arms,
            first_seed,
            rotate: false,
        })
    };
    let timed = lab::run(library, &run_args, DEFAULT_DEALS, first_seed, None, build)?;
    let spec = made.ok_or_else(|| anyhow!("the ladder's tables were not made"))?;
    let mut identity = Identity::of("ladder", &timed, None);
    identity.ladder = Some(serde_json::to_value(&spec)?);
    if args.shard.is_some() {
        let file = super::shards::shard_file(&identity, &timed, &run_args)?;
        outln!("{}", serde_json::to_string(&file)?);
        return Ok(());
    }
    finish(
        &identity,
        &timed.played.tally,
        timed.elapsed_s,
        timed.threads,
        args.json,
        args.html.as_ref(),
    )
}

/// Refuse rules that seat partners in teams (who share their wins), for
/// a command that `rates` players who win on their own; game 0 of
/// `config` is set up to ask.
pub(super) fn refuse_partners(
    engine: &Engine,
    config: &deckhand_engine::GameConfig,
    title: &str,
    rates: &str,
) -> Result<()> {
    let game = engine
        .new_game(config.clone(), false)
        .with_context(|| format!("game 0 (seed {}), setup", config.seed))?;
    if let Some(teams) = game.seat_teams()? {
        let mut t = teams.clone();
        t.sort_unstable();
        t.dedup();
        if t.len() < teams.len() {
            bail!("{title} seats partners in teams: {rates} players who win on their own");
        }
    }
    Ok(())
}

/// Fit and print a ladder's report (one run, or its shards merged).
pub fn finish(
    identity: &Identity,
    tally: &Tally,
    elapsed_s: f64,
    threads: usize,
    json: bool,
    html: Option<&PathBuf>,
) -> Result<()> {
    let report = lab_ladder::report(identity, tally, elapsed_s, threads)?;
    print_with(&report, text, page, json, html)
}

/// Print a report of its own kind (a ladder's, a skill report's): as JSON
/// or as the lines of `text`, and as the page of `page` to `html` when
/// given.
pub(super) fn print_with<R: serde::Serialize>(
    report: &R,
    text: fn(&R) -> Vec<String>,
    page: fn(&R) -> String,
    json: bool,
    html: Option<&std::path::PathBuf>,
) -> anyhow::Result<()> {
    if json {
        outln!("{}", serde_json::to_string_pretty(report)?);
    } else {
        for line in text(report) {
            outln!("{line}");
        }
    }
    if let Some(path) = html {
        crate::report_html::write(path, &page(report))?;
    }
    Ok(())
}

/// Decimals for rating points whose interval is `half` wide on each side:
/// none from 5 points, one from half a point, else two.
pub(super) fn decimals(half: Option<f64>) -> usize {
    match half {
        Some(h) if h >= 5.0 => 0,
        Some(h) if h >= 0.5 => 1,
        Some(_) => 2,
        None => 0,
    }
}

/// Rating points with a sign (`0` for exactly none).
pub(super) fn points(x: f64, d: usize) -> String {
    let s = format!("{x:+.d$}");
    match s
        .trim_start_matches(['+', '-'])
        .trim_start_matches(['0', '.'])
    {
        "" => format!("{:.d$}", 0.0),
        _ => s,
    }
}

fn interval(low: Option<f64>, high: Option<f64>, d: usize) -> String {
    match (low, high) {
        (Some(l), Some(h)) => format!("{} .. {}", points(l, d), points(h, d)),
        _ => "none (below 2 deals)".into(),
    }
}

pub(super) fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The header lines: what was played and how it was rated.
fn header(r: &LadderReport) -> Vec<String> {
    let bots = r.bots.len();
    let seeds = format!(
        "{}..{}",
        r.first_seed,
        r.first_seed.saturating_add(r.deals.saturating_sub(1))
    );
    let how = if bots > r.players as usize {
        format!(
            "every {} of the {bots} bots at a table, in every order of the seats",
            r.players
        )
    } else if bots == r.players as usize {
        "all the bots at one table, in every order of the seats".into()
    } else {
        "the bots in turn until the seats are full, in every order of the seats".into()
    };
    let g = &r.ratings;
    let mut lines = vec![
        format!(
            "{}: a ladder of {bots} bots at {} players, {} deals at {} tables: {} games \
             (seeds {seeds}, every table on every deal)",
            r.title,
            r.players,
            r.deals,
            r.tables.len(),
            r.games
        ),
        format!(
            "tables: {how}, so each bot sits in each seat, and before and after each other \
             bot, equally often"
        ),
        format!(
            "model: {}, fitted to every game's finishing places (winners first, then the \
             others by score; players sharing a place count every order of them as equally \
             likely), with {} drawn game between every two bots added",
            g.model.name(),
            g.prior_draws
        ),
        format!(
            "scale: 400·log10 of strength (Elo-like: +400 wins 10 to 1 head to head), {} \
             fixed at 0",
            g.anchor
        ),
    ];
    let measuring: Vec<String> = r
        .bots
        .iter()
        .filter(|b| deckhand_bots::BotKind::parse(b).sees_every_hand())
        .cloned()
        .collect();
    if !measuring.is_empty() {
        lines.push(format!(
            "{}: {}; its rating is no player's",
            measuring.join(", "),
            deckhand_bots::bot::SEES_EVERY_HAND
        ));
    }
    lines
}

/// Lines of a table, each column padded (the first to the left).
pub(super) fn columns(rows: &[Vec<String>]) -> Vec<String> {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..n)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    rows.iter()
        .map(|r| {
            let mut line = String::new();
            for (c, cell) in r.iter().enumerate() {
                let pad = widths[c].saturating_sub(cell.chars().count());
                if c == 0 {
                    line.push_str(cell);
                    line.push_str(&" ".repeat(pad));
                } else {
                    line.push_str("  ");
                    line.push_str(&" ".repeat(pad));
                    line.push_str(cell);
                }
            }
            line.trim_end().to_string()
        })
        .collect()
}

/// The rows of the ratings table.
fn rating_rows(r: &LadderReport) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "bot".into(),
        "rating".into(),
        "95% interval".into(),
        "games".into(),
    ]];
    for b in &r.ratings.bots {
        let half = b.low.zip(b.high).map(|(l, h)| (h - l) / 2.0);
        let d = decimals(half);
        let (rating, iv) = if b.anchor {
            ("0".to_string(), "anchor".to_string())
        } else {
            (points(b.rating, d), interval(b.low, b.high, d))
        };
        rows.push(vec![
            deckhand_bots::bot::listed_name(&b.name),
            rating,
            iv,
            b.games.to_string(),
        ]);
    }
    rows
}

/// The rows of the pairs table.
fn pair_rows(r: &LadderReport) -> Vec<Vec<String>> {
    let mut rows = vec![vec![
        "A − B".into(),
        "difference".into(),
        "95% interval".into(),
        "A's wins 1-on-1".into(),
        "95% interval".into(),
        "A beats B".into(),
    ]];
    for p in &r.ratings.pairs {
        let half = p.low.zip(p.high).map(|(l, h)| (h - l) / 2.0);
        let d = decimals(half);
        let shares = match (p.share_low, p.share_high) {
            (Some(l), Some(h)) => format!("{} .. {}", percent(l), percent(h)),
            _ => "none".into(),
        };
        rows.push(vec![
            format!("{} − {}", p.a, p.b),
            points(p.difference, d),
            interval(p.low, p.high, d),
            percent(p.share),
            shares,
            if p.decided {
                "decided".into()
            } else {
                "not decided".into()
            },
        ]);
    }
    rows
}

/// How to read the intervals, and the time taken.
fn footer(r: &LadderReport) -> Vec<String> {
    let g = &r.ratings;
    let pairs = g.pairs.len();
    vec![
        format!(
            "intervals: 95 %, {} with {} degrees of freedom: the games of one deal are one \
             block, so luck that the change of seats cancels narrows them and luck that favours \
             one bot on a deal widens them",
            g.method,
            r.deals.saturating_sub(1)
        ),
        format!(
            "A beats B: decided when the interval of A − B excludes 0, each pair on its own \
             ({pairs} pairs: with no difference at all, about one pair in 20 would read \
             decided by chance); A's wins 1-on-1 is the model's share of two-player games A \
             would win against B"
        ),
        format!(
            "elapsed: {:.1} s, {:.1} games/s on {} threads",
            r.elapsed_s, r.games_per_s, r.threads
        ),
    ]
}

/// The report as text.
pub fn text(r: &LadderReport) -> Vec<String> {
    let mut out = header(r);
    out.push(String::new());
    out.extend(columns(&rating_rows(r)));
    out.push(String::new());
    out.extend(columns(&pair_rows(r)));
    out.push(String::new());
    out.extend(footer(r));
    out
}

/// A table as HTML.
pub(super) fn html_table(rows: &[Vec<String>]) -> String {
    let mut s = String::from("<div class=\"table\"><table>\n<thead><tr>");
    if let Some(head) = rows.first() {
        for h in head {
            let _ = write!(s, "<th>{}</th>", escape(h));
        }
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for r in rows.iter().skip(1) {
        s.push_str("<tr>");
        for c in r {
            let _ = write!(s, "<td>{}</td>", escape(c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n");
    s
}

/// The ratings as points with their intervals as whiskers.
fn chart(r: &LadderReport) -> String {
    let rows: Vec<Whisker> = r
        .ratings
        .bots
        .iter()
        .map(|b| Whisker {
            label: b.name.clone(),
            value: b.rating,
            low: b.low,
            high: b.high,
            title: format!("{}: {:.0}", b.name, b.rating),
        })
        .collect();
    let caption = format!(
        "Ratings with their 95% intervals (rating points, {} at 0)",
        r.ratings.anchor
    );
    whisker_chart(&caption, &rows, 150.0, 480.0)
}

/// The report as one self-contained HTML page.
pub fn page(r: &LadderReport) -> String {
    let ratings = chart(r) + &html_table(&rating_rows(r));
    crate::report_html::lines_page(
        &format!("{}: ladder", r.title),
        &header(r),
        &[("Ratings", ratings), ("Pairs", html_table(&pair_rows(r)))],
        "Methods",
        &footer(r),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_read_with_their_sign_and_never_as_minus_zero() {
        assert_eq!(points(12.4, 0), "+12");
        assert_eq!(points(-0.2, 0), "0");
        assert_eq!(points(-3.26, 1), "-3.3");
        assert_eq!(points(0.0, 2), "0.00");
        assert_eq!(decimals(Some(40.0)), 0);
        assert_eq!(decimals(Some(0.7)), 1);
        assert_eq!(decimals(Some(0.0)), 2);
    }
}
