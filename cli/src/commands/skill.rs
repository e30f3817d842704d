//! `deckhand skill GAME [--arm NAME=ARGS ...]`: is it a better game? Per
//! rule set (an arm: variants, house rules, options), how much playing
//! well pays (skill gap, the strength dial's chain), how much is luck
//! (upsets, the deal's share), what a mechanic is worth (a bot barred from
//! it by a restriction of the rules) and how fair the seats are with
//! strong bots, each with its 95 % interval, and every rule set's paired
//! difference from the first (docs/skill.md). The tables and the measures
//! are the lab's ([`deckhand_lab::skill`]); this module plays them through
//! the lab's run and prints.

use super::compare::parse_arm;
use super::lab::{self, RunArgs, DEFAULT_STEP_TIMEOUT};
use super::ladder::{columns, html_table, refuse_partners};
use super::play::default_fill;
use super::setup;
use crate::report_html::{whisker_chart, Whisker};
use crate::seats::{self, SeatSpec};
use crate::GameArgs;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use deckhand_engine::{Engine, ScriptLibrary};
use deckhand_lab::skill::{self as lab_skill, Restriction, SkillReport, SkillSpec, Value};
use deckhand_lab::stats::ALPHA;
use deckhand_lab::{Arm, Experiment, Identity, Shard, StopRule, Tally};
use std::path::PathBuf;
use std::sync::Arc;

/// Deals unless `-n` says.
const DEFAULT_DEALS: u64 = 100;

/// The dial unless `--dial` says: a search bot at doubling playouts, cheap
/// enough that a report of a 4-player card game takes minutes, not hours
/// (docs/skill.md gives what each game costs).
const DEFAULT_DIAL: [&str; 4] = ["mc:10", "mc:20", "mc:40", "mc:80"];

#[derive(Args, Debug)]
pub struct SkillArgs {
    /// Game id (see `deckhand games`).
    pub game: String,
    /// A rule set: NAME, or NAME=ARGS where ARGS are -v/--variant,
    /// -o/--option and -p/--players flags, e.g. 'passing=-v passing'
    /// (repeatable; the first is the base every other is compared with;
    /// none: the game as it is, named "base").
    #[arg(long = "arm", value_name = "NAME=ARGS")]
    pub arms: Vec<String>,
    /// The strength dial, weakest first (repeatable, 2 to 8; default mc:10
    /// mc:20 mc:40 mc:80): its strongest is the skilled player, its
    /// weakest the unskilled one.
    #[arg(long = "dial", value_name = "BOT")]
    pub dial: Vec<String>,
    /// A restriction of the rules (`rules.restrictions`) to measure the
    /// worth of: the strongest bot barred by it against unbarred copies of
    /// itself (repeatable).
    #[arg(long = "restrict", value_name = "NAME")]
    pub restrictions: Vec<String>,
    /// Players at every table (default: the game's default).
    #[arg(long, short = 'p')]
    pub players: Option<u32>,
    /// Variant or house rule of every rule set, before its own (repeatable).
    #[arg(long = "variant", short = 'v', value_name = "V")]
    pub variants: Vec<String>,
    /// Option of every rule set as KEY=VALUE (repeatable).
    #[arg(long = "option", short = 'o', value_name = "K=V")]
    pub options: Vec<String>,
    /// Seed of the first deal (deal i uses seed + i at every table).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Deals (default 100), each played at every table, in every rotation
    /// of its seats, under every rule set.
    #[arg(long = "games", short = 'n', value_name = "DEALS", conflicts_with_all = ["decisive", "precision"])]
    pub games: Option<u64>,
    /// Play until the skill gap is decided: with one rule set, until its
    /// interval excludes 0; with several, until every rule set's
    /// difference from the base does (each look at the level 1 - 0.05/L,
    /// L the most looks), or --max-deals.
    #[arg(long)]
    pub decisive: bool,
    /// Play until every measure's 95% interval, and every difference's, is
    /// at most H on each side (a share: 0.03 is 3 points), or --max-deals.
    #[arg(long, value_name = "H", conflicts_with = "decisive")]
    pub precision: Option<f64>,
    /// Deals between two looks of --decisive or --precision.
    #[arg(long, value_name = "DEALS", default_value_t = 100)]
    pub every: u64,
    /// The most deals --decisive or --precision may play.
    #[arg(long, value_name = "DEALS", default_value_t = 2000)]
    pub max_deals: u64,
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
    #[arg(long, value_name = "K/N", conflicts_with_all = ["json", "html", "decisive", "precision"])]
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

/// How the run stops: after a number of deals, or at a look.
enum Stop {
    Deals(u64),
    Decisive,
    Precision(f64),
}

pub fn run(library: Arc<ScriptLibrary>, args: &SkillArgs) -> Result<()> {
    let stop = if args.decisive {
        Stop::Decisive
    } else if let Some(h) = args.precision {
        if !(h.is_finite() && h > 0.0 && h < 1.0) {
            bail!("--precision {h}: a share between 0 and 1 (0.03 is 3 points)");
        }
        Stop::Precision(h)
    } else {
        Stop::Deals(args.games.unwrap_or(DEFAULT_DEALS))
    };
    if let Stop::Deals(n) = stop {
        if n < 2 {
            bail!("-n {n}: a skill report needs 2 deals or more (its intervals are over deals)");
        }
    } else {
        if args.every < 20 || args.every > args.max_deals {
            bail!(
                "--every {}: from 20 deals to --max-deals ({})",
                args.every,
                args.max_deals
            );
        }
        lab::check_game_count(args.max_deals, "in one run")?;
    }
    if let Some(path) = &args.html {
        lab::check_writable(path, "the HTML page (--html)")?;
    }
    let mut rule_sets = Vec::new();
    for a in &args.arms {
        let (name, flags) = parse_arm(a)?;
        if !flags.seats.is_empty() {
            bail!(
                "--arm {name}: a skill report seats its own bots (the dial); give an arm's \
                 rules only (-v, -o, -p)"
            );
        }
        if rule_sets.iter().any(|(n, _)| *n == name) {
            bail!("two arms are named '{name}': give each arm its own name");
        }
        rule_sets.push((name, flags));
    }
    if rule_sets.is_empty() {
        rule_sets.push(("base".to_string(), Default::default()));
    }
    let dial: Vec<String> = if args.dial.is_empty() {
        DEFAULT_DIAL.iter().map(|s| s.to_string()).collect()
    } else {
        args.dial.clone()
    };
    let first_seed = args.seed;
    let mut made: Option<SkillSpec> = None;
    let build = |engine: &Engine| -> Result<Experiment> {
        let mut configs = Vec::new();
        let mut infos = Vec::new();
        let mut restrictions: Option<Vec<Restriction>> = None;
        let mut players = None;
        for (name, flags) in &rule_sets {
            let mut variants = args.variants.clone();
            variants.extend(flags.variants.iter().cloned());
            let mut options = args.options.clone();
            options.extend(flags.options.iter().cloned());
            let game_args = GameArgs {
                game: args.game.clone(),
                players: flags.players.or(args.players),
                variants,
                options,
                seed: Some(first_seed),
                seats: Vec::new(),
            };
            let (config, _) = setup::bot_game_config(engine, &game_args, default_fill)
                .with_context(|| format!("arm {name}"))?;
            match players {
                None => players = Some(config.players),
                Some(p) if p != config.players => bail!(
                    "arm {name}: {} players, where the first arm has {p}: every rule set of a \
                     skill report is played at one player count",
                    config.players
                ),
                _ => {}
            }
            let info = engine
                .rules_of(&config)
                .map_err(|e| anyhow!("arm {name}: cannot load {}: {e}", args.game))?
                .info
                .clone();
            for b in &dial {
                let spec = SeatSpec::parse(b);
                seats::complete(
                    std::slice::from_ref(&spec),
                    config.players,
                    &spec,
                    &info,
                    seats::Table::Lab,
                )
                .with_context(|| format!("arm {name}, --dial {b}"))?;
            }
            // (A restriction the rules lack is named when the barred bot is
            // seated, below.)
            if restrictions.is_none() {
                restrictions = Some(
                    args.restrictions
                        .iter()
                        .map(|r| Restriction {
                            name: r.clone(),
                            doc: info.restrictions.get(r).cloned().unwrap_or_default(),
                        })
                        .collect(),
                );
            }
            // Partners share a win: a skill report measures players on their own.
            refuse_partners(engine, &config, &info.title, "a skill report measures")
                .with_context(|| format!("arm {name}"))?;
            infos.push(info);
            configs.push(config);
        }
        // The dial's strongest plays barred.
        if let (Some(strong), Some(r)) = (dial.last(), args.restrictions.first()) {
            deckhand_bots::BotKind::parse(strong)
                .barred(r)
                .map_err(|e| {
                    anyhow!("--restrict {r}: the dial's strongest bot plays barred, but {e}")
                })?;
        }
        let spec = SkillSpec::new(
            players.unwrap_or(2),
            dial.clone(),
            restrictions.unwrap_or_default(),
            rule_sets.iter().map(|(n, _)| n.clone()).collect(),
        )?;
        let mut arms = Vec::with_capacity(spec.arms());
        for (t, r, k) in spec.layout() {
            let (config, info) = (&configs[r], &infos[r]);
            let seats: Vec<SeatSpec> = spec
                .seating(t, k)
                .iter()
                .map(|b| SeatSpec::parse(b))
                .collect();
            let seats = seats::complete(
                &seats,
                config.players,
                &SeatSpec::Human,
                info,
                seats::Table::Lab,
            )
            .with_context(|| format!("arm {}", spec.rule_sets[r]))?;
            arms.push(Arm {
                name: spec.arm_name(t, r, k),
                config: config.clone(),
                seats: lab::bot_kinds(&seats, "skill")?,
                bot_salt: spec.tables[t].salt,
            });
        }
        made = Some(spec);
        Ok(Experiment {
            arms,
            first_seed,
            rotate: false,
        })
    };
    let run_args = |deals: u64| {
        RunArgs::of_placings(
            deals,
            args.json,
            args.exact_budget,
            args.step_timeout,
            args.threads,
            args.shard,
        )
    };
    // The deals of the first run, and the most the run may play: the
    // looks of --decisive and --precision come after every --every deals.
    let (total, max) = match stop {
        Stop::Deals(n) => (n, n),
        _ => (args.every, args.max_deals),
    };
    let first = run_args(total);
    let timed = lab::run(
        library.clone(),
        &first,
        DEFAULT_DEALS,
        first_seed,
        None,
        build,
    )?;
    let spec = made.ok_or_else(|| anyhow!("the skill report's tables were not made"))?;
    let mut identity = Identity::of("skill", &timed, None);
    identity.skill = Some(serde_json::to_value(&spec)?);
    if args.shard.is_some() {
        let file = super::shards::shard_file(&identity, &timed, &first)?;
        outln!("{}", serde_json::to_string(&file)?);
        return Ok(());
    }
    let mut tally = timed.played.tally.clone();
    let mut elapsed = timed.elapsed_s;
    let looks = max.div_ceil(args.every);
    let mut played = total;
    while played < max && !stop_here(&stop, &spec, &identity, &tally, looks, played)? {
        let block = args.every.min(max - played);
        let again = lab::run_games(
            library.clone(),
            &run_args(block),
            StopRule::Games(block),
            played + block,
            played..played + block,
            first_seed,
            None,
            |_| Ok(lab_skill::experiment(&identity)?),
        )?;
        tally.merge(&again.played.tally);
        elapsed += again.elapsed_s;
        played += block;
    }
    identity.games = played;
    finish(
        &identity,
        &tally,
        elapsed,
        timed.threads,
        args.json,
        args.html.as_ref(),
    )
}

/// Whether a run that looks as it goes stops after `played` deals.
fn stop_here(
    stop: &Stop,
    spec: &SkillSpec,
    identity: &Identity,
    tally: &Tally,
    looks: u64,
    played: u64,
) -> Result<bool> {
    match stop {
        Stop::Deals(n) => Ok(played >= *n),
        Stop::Decisive => {
            let alpha = ALPHA / looks.max(1) as f64;
            let stats = lab_skill::stopping_stats(spec, &tally.placings);
            Ok(!stats.is_empty()
                && stats.iter().all(|(s, against, proportion)| {
                    s.interval_at(*proportion, alpha)
                        .is_some_and(|(lo, hi)| lo > *against || hi < *against)
                }))
        }
        Stop::Precision(h) => {
            let mut id = identity.clone();
            id.games = played;
            let report = lab_skill::report(&id, tally, 0.0, 1)?;
            let half = |v: &Value| v.low.zip(v.high).map(|(l, u)| (u - l) / 2.0);
            Ok(report.measures.iter().all(|m| {
                m.values
                    .iter()
                    .chain(&m.differences)
                    .all(|v| half(v).is_some_and(|w| w <= *h))
            }))
        }
    }
}

/// Measure and print a skill run's report (one run, or its shards merged).
pub fn finish(
    identity: &Identity,
    tally: &Tally,
    elapsed_s: f64,
    threads: usize,
    json: bool,
    html: Option<&PathBuf>,
) -> Result<()> {
    let report = lab_skill::report(identity, tally, elapsed_s, threads)?;
    super::ladder::print_with(&report, text, page, json, html)
}

/// A share in points (1 point = 1 % of the games), signed, one decimal.
fn points(x: f64) -> String {
    super::ladder::points(100.0 * x, 1)
}

/// A measure's value in points, or a share of games in percent.
fn shown(id: &str, x: f64) -> String {
    if id == "deal_share" || id == "upsets" {
        let s = format!("{:.1}%", 100.0 * x);
        if s == "-0.0%" {
            "0.0%".into()
        } else {
            s
        }
    } else {
        points(x)
    }
}

fn interval(id: &str, v: &Value, difference: bool) -> String {
    let f = |x: f64| {
        if difference {
            points(x)
        } else {
            shown(id, x)
        }
    };
    match (v.low, v.high) {
        (Some(l), Some(h)) => format!("{} .. {}", f(l), f(h)),
        _ => "none".into(),
    }
}

/// Whether a value is decided against 0 (for upsets and the deal share,
/// which are not measured against 0, nothing is said).
fn verdict(id: &str, v: &Value, difference: bool) -> String {
    if !difference && (id == "upsets" || id == "deal_share") {
        return String::new();
    }
    if v.above_zero() {
        "above 0".into()
    } else if v.below_zero() {
        "below 0".into()
    } else {
        "not decided".into()
    }
}

/// The header lines: what was played.
fn header(r: &SkillReport) -> Vec<String> {
    let seeds = format!(
        "{}..{}",
        r.first_seed,
        r.first_seed.saturating_add(r.deals.saturating_sub(1))
    );
    let mut lines = vec![
        format!(
            "{}: skill, luck and seats at {} players, {} deals (seeds {seeds}) at {} tables \
             under {} rule set{}: {} games",
            r.title,
            r.players,
            r.deals,
            r.tables.len(),
            r.rule_sets.len(),
            if r.rule_sets.len() == 1 { "" } else { "s" },
            r.games
        ),
        format!(
            "dial: {} (weakest first); at each table one measured bot plays copies of \
             another, in every seat in turn, every table and rule set on the same deals",
            r.dial.join(" < ")
        ),
    ];
    if r.rule_sets.len() > 1 {
        lines.push(format!(
            "rule sets: {} (the base: {})",
            r.rule_sets.join(", "),
            r.rule_sets[0]
        ));
    }
    lines
}

/// The rows of the measures' table, by group.
fn rows(r: &SkillReport) -> Vec<Vec<String>> {
    let several = r.rule_sets.len() > 1;
    let mut head = vec!["measure".to_string()];
    for name in &r.rule_sets {
        head.push(name.clone());
        head.push("95% interval".into());
    }
    if several {
        for name in r.rule_sets.iter().skip(1) {
            head.push(format!("{name} − {}", r.rule_sets[0]));
            head.push("95% interval".into());
            head.push(String::new());
        }
    } else {
        head.push(String::new());
    }
    let mut out = vec![head];
    let mut group = "";
    for m in &r.measures {
        if m.group != group {
            group = &m.group;
            out.push(vec![group_title(group).to_string()]);
        }
        let mut row = vec![format!("  {}", short_label(&m.id, r))];
        for v in &m.values {
            row.push(shown(&m.id, v.value));
            row.push(interval(&m.id, v, false));
        }
        if several {
            for d in &m.differences {
                row.push(points(d.value));
                row.push(interval(&m.id, d, true));
                row.push(verdict(&m.id, d, true));
            }
        } else if let Some(v) = m.values.first() {
            row.push(verdict(&m.id, v, false));
        }
        out.push(row);
    }
    out
}

fn group_title(group: &str) -> &'static str {
    match group {
        "skill" => "skill (points of win share above a fair share)",
        "luck" => "luck",
        "mechanic" => "what a mechanic is worth (points of win share)",
        "seats" => "seats (points of win share above a fair share)",
        _ => "other",
    }
}

/// A measure's name for the table.
fn short_label(id: &str, r: &SkillReport) -> String {
    let strong = r.dial.last().map_or("", String::as_str);
    let weak = r.dial.first().map_or("", String::as_str);
    if let Some(k) = id
        .strip_prefix("step")
        .and_then(|k| k.parse::<usize>().ok())
    {
        if let (Some(a), Some(b)) = (r.dial.get(k), r.dial.get(k.wrapping_sub(1))) {
            return format!("step {k}: {a} vs {b}");
        }
    }
    if let Some(name) = id.strip_prefix("worth:") {
        return format!("barred: {name}");
    }
    if let Some(s) = id.strip_prefix("seat") {
        return format!("seat {s}");
    }
    match id {
        "skill_gap" => format!("gap: {strong} vs {weak}"),
        "skill_gap_random" => format!("gap: {strong} vs random"),
        "upsets" => format!("upsets: {weak} side wins"),
        "deal_share" => "deal's share of the variance".into(),
        other => other.to_string(),
    }
}

/// The chain and how to read the report.
fn footer(r: &SkillReport) -> Vec<String> {
    let mut out = Vec::new();
    for c in &r.chains {
        let weaker = if c.weaker.is_empty() {
            "none measured weaker".to_string()
        } else {
            let steps: Vec<String> = c.weaker.iter().map(|k| format!("step {k}")).collect();
            format!(
                "measured weaker at {} (the dial is not monotone there)",
                steps.join(", ")
            )
        };
        out.push(format!(
            "chain{}: {} of {} steps decided in a row from the weakest; {weaker}",
            if r.rule_sets.len() > 1 {
                format!(" ({})", c.rule_set)
            } else {
                String::new()
            },
            c.length,
            c.steps
        ));
    }
    for x in &r.restrictions {
        if !x.doc.is_empty() {
            out.push(format!("{}: {}", x.name, x.doc));
        }
    }
    out.extend([
        format!(
            "intervals: 95 % over deals: Wilson's for a share of whole wins, Student's t \
             otherwise and for every difference between rule sets (deal by deal, so the deal's \
             luck cancels); the jackknife over deals for the deal's share. With {} measures, \
             about one in 20 reads decided by chance when nothing differs.",
            r.measures.len()
        ),
        "skill gap: how much more than a fair share (1 / players) the strong bot wins against \
         weaker copies; 0 is a game where strength does not show. chain: how many doublings \
         of strength in a row still win decidedly more: a long chain is a game with room to \
         get better. upsets: how often the weaker side still wins. deal's share: the skill \
         gap's table played twice on every deal with the bots' own chance drawn afresh; the \
         share of the result's variance the deal alone explains (near 1: the cards decide)."
            .into(),
        "what the bots cannot tell: these bots, at these strengths and this player count, not \
         people; a mechanic's worth is what it gives this bot, which may use it worse than a \
         person would; a fair seat among equal bots may not be fair among players who differ."
            .into(),
        format!(
            "elapsed: {:.1} s, {:.1} games/s on {} threads",
            r.elapsed_s, r.games_per_s, r.threads
        ),
    ]);
    out
}

/// The report as text.
pub fn text(r: &SkillReport) -> Vec<String> {
    let mut out = header(r);
    out.push(String::new());
    out.extend(columns(&rows(r)));
    out.push(String::new());
    out.extend(footer(r));
    out
}

/// The skill measures of every rule set as points with their intervals as
/// whiskers (one row per measure and rule set; luck is not in points).
fn chart(r: &SkillReport) -> String {
    let mut rows = Vec::new();
    for m in r.measures.iter().filter(|m| m.group != "luck") {
        for (name, v) in r.rule_sets.iter().zip(&m.values) {
            let label = if r.rule_sets.len() > 1 {
                format!("{} ({name})", short_label(&m.id, r))
            } else {
                short_label(&m.id, r)
            };
            rows.push(Whisker {
                title: format!("{label}: {}", points(v.value)),
                label,
                value: 100.0 * v.value,
                low: v.low.map(|x| 100.0 * x),
                high: v.high.map(|x| 100.0 * x),
            });
        }
    }
    whisker_chart(
        "Skill, mechanics and seats with their 95% intervals (points of win share)",
        &rows,
        250.0,
        560.0,
    )
}

/// The report as one self-contained HTML page.
pub fn page(r: &SkillReport) -> String {
    crate::report_html::lines_page(
        &format!("{}: skill, luck and seats", r.title),
        &header(r),
        &[("", chart(r)), ("Measures", html_table(&rows(r)))],
        "How to read it",
        &footer(r),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_signed_and_never_minus_zero() {
        assert_eq!(points(0.1234), "+12.3");
        assert_eq!(points(-0.0004), "0.0");
        assert_eq!(shown("deal_share", 0.5), "50.0%");
        assert_eq!(shown("upsets", -0.0), "0.0%");
    }
}
