//! The report of a run: every statistic of every arm and every paired
//! difference with its 95 % interval and the method that computed it.
//! Plain data, for the command line to print as text, JSON or CSV.

use super::experiment::Experiment;
use super::experiment::StopRule;
use super::histogram::Histogram;
use super::outcome::Key;
use super::run::{Ran, Rows, Stopped};
use super::stats::Method;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One statistic with its interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub key: Key,
    /// The statistic in words.
    pub label: String,
    /// Games it applies to.
    pub n: u64,
    pub mean: f64,
    pub sd: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub method: Method,
    /// Whether the 95 % interval excludes 0 (differences only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub significant: Option<bool>,
    /// The two-sided p-value of the paired t test that the difference is
    /// 0 (differences only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p: Option<f64>,
    /// Whether the difference stays decided at 5 % after Holm's
    /// correction for every row of its table (family-wise error 5 %).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holm: Option<bool>,
    /// Whether it stays decided after the Benjamini-Hochberg correction
    /// for every row of its table (false discovery rate 5 %).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bh: Option<bool>,
    /// Whether the statistic is a share of games (wins, shared wins, a
    /// metric whose every value is a boolean), shown in percent, and its
    /// differences in percentage points.
    pub share: bool,
}

impl Row {
    /// Half the interval's width.
    pub fn half_width(&self) -> Option<f64> {
        Some((self.high? - self.low?) / 2.0)
    }

    /// Whether the statistic is a share (shown in percent).
    pub fn is_share(&self) -> bool {
        self.share
    }
}

/// One arm's statistics.
#[derive(Debug, Clone, Serialize)]
pub struct ArmReport {
    pub name: String,
    pub variants: Vec<String>,
    pub options: BTreeMap<String, serde_json::Value>,
    pub players: u32,
    /// The bot of each seat as given (before rotation).
    pub seats: Vec<String>,
    pub rows: Vec<Row>,
    /// Distributions: rounds, decisions, winning margin, final scores.
    pub histograms: BTreeMap<Key, Histogram>,
}

/// The paired differences of one arm against the first.
#[derive(Debug, Clone, Serialize)]
pub struct DiffReport {
    /// "ARM − BASE".
    pub arm: String,
    pub base: String,
    pub rows: Vec<Row>,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub game: String,
    /// Games played in each arm (seeds `first_seed` on).
    pub games: u64,
    pub first_seed: u64,
    pub stopped: Stopped,
    pub rotate: bool,
    pub confidence: f64,
    pub arms: Vec<ArmReport>,
    pub differences: Vec<DiffReport>,
    /// What each metric of the rules measures, by name.
    pub metrics: BTreeMap<String, String>,
    /// The metrics the rules declare to be shares (`share = true`),
    /// reported in percent.
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    pub share_metrics: BTreeSet<String>,
    /// The stopping rule, when the run looked at its results as they came.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_rule: Option<StopRule>,
}

/// Whether a statistic is a share: of games (wins, a lead, edge, shared
/// wins, no winner, or a metric whose every value was 0 or 1 in `arms`,
/// every arm where it appears), or a metric the rules declare a share
/// (`shares`: of rounds, of tricks ...).
fn is_share(key: &Key, arms: &[&Rows], shares: &BTreeSet<String>) -> bool {
    match key {
        Key::SeatWin(_)
        | Key::TeamWin(_)
        | Key::PlayerWin(_)
        | Key::PlayerLead(_)
        | Key::Edge
        | Key::Shared
        | Key::NoWinner => true,
        Key::Metric(name) if shares.contains(name) => true,
        Key::Metric(_) => arms.iter().all(|r| r.get(key).is_none_or(|s| s.binary)),
        _ => false,
    }
}

/// Player rows named after their bot: "player 2 (mc:30) wins", "player 1
/// (ismcts:245) wins minus player 2 (mc:300) wins".
fn named_players(mut rows: Vec<Row>, seats: &[deckhand_bots::bot::BotKind]) -> Vec<Row> {
    let name = |label: &str, k: u32| match seats.get(k as usize - 1) {
        Some(bot) => label.replacen(
            &format!("player {k} "),
            &format!("player {k} ({}) ", bot.name()),
            1,
        ),
        None => label.to_string(),
    };
    for r in &mut rows {
        match r.key {
            Key::PlayerWin(k) | Key::PlayerScore(k) => r.label = name(&r.label, k),
            Key::PlayerLead(k) => r.label = name(&name(&r.label, 1), k),
            _ => {}
        }
    }
    rows
}

fn rows_of(rows: &Rows, differences: bool, arms: &[&Rows], shares: &BTreeSet<String>) -> Vec<Row> {
    rows.0
        .iter()
        .map(|(key, stat)| {
            let mut e = if differences {
                stat.estimate_mean()
            } else {
                stat.estimate()
            };
            // The first seat's edge is its share of wins minus a constant:
            // when those wins are a proportion, its interval is theirs
            // (Wilson), moved by the constant.
            if let (Key::Edge, false, Some(win)) = (key, differences, rows.get(&Key::SeatWin(1))) {
                let w = win.estimate();
                if w.method == Method::Wilson && win.n == stat.n {
                    let shift = e.mean - w.mean;
                    e.low = w.low.map(|l| l + shift);
                    e.high = w.high.map(|h| h + shift);
                    e.method = Method::Wilson;
                }
            }
            Row {
                label: key.label(),
                key: key.clone(),
                n: e.n,
                mean: e.mean,
                sd: e.sd,
                low: e.low,
                high: e.high,
                method: e.method,
                significant: differences.then(|| e.excludes_zero()),
                p: differences
                    .then(|| super::stats::p_mean_zero(e.mean, e.sd, e.n))
                    .flatten(),
                holm: None,
                bh: None,
                share: is_share(key, arms, shares),
            }
        })
        .collect()
}

/// The rows of a difference table with the corrections for their number
/// filled in: Holm's and Benjamini-Hochberg's, each at 5 %. A row is
/// decided by a correction only if its own interval excludes 0 too.
pub fn corrected(mut rows: Vec<Row>) -> Vec<Row> {
    let ps: Vec<Option<f64>> = rows.iter().map(|r| r.p).collect();
    let holm = super::stats::holm(&ps, 0.05);
    let bh = super::stats::benjamini_hochberg(&ps, 0.05);
    for ((r, h), b) in rows.iter_mut().zip(holm).zip(bh) {
        let own = r.significant == Some(true);
        r.holm = Some(h && own);
        r.bh = Some(b && own);
    }
    rows
}

impl Report {
    /// The report of a finished run of `experiment`; `metrics` are the
    /// docs of the rules' metrics (of every arm), `shares` those of them
    /// the rules declare to be shares.
    pub fn new(
        experiment: &Experiment,
        ran: &Ran,
        metrics: BTreeMap<String, String>,
        shares: BTreeSet<String>,
        options: &[BTreeMap<String, serde_json::Value>],
    ) -> Report {
        let arms = experiment
            .arms
            .iter()
            .zip(&ran.tally.arms)
            .enumerate()
            .map(|(i, (arm, rows))| ArmReport {
                name: arm.name.clone(),
                variants: arm.config.variants.clone(),
                options: options.get(i).cloned().unwrap_or_default(),
                players: arm.config.players,
                seats: arm.seats.iter().map(|k| k.name().to_string()).collect(),
                rows: named_players(rows_of(rows, false, &[rows], &shares), &arm.seats),
                histograms: ran.tally.histograms.get(i).cloned().unwrap_or_default(),
            })
            .collect();
        let base = experiment
            .arms
            .first()
            .map(|a| a.name.clone())
            .unwrap_or_default();
        let differences = experiment
            .arms
            .iter()
            .skip(1)
            .zip(&ran.tally.diffs)
            .enumerate()
            .map(|(i, (arm, rows))| {
                let both: Vec<&Rows> = [0, i + 1]
                    .iter()
                    .filter_map(|&a| ran.tally.arms.get(a))
                    .collect();
                DiffReport {
                    arm: arm.name.clone(),
                    base: base.clone(),
                    rows: corrected(rows_of(rows, true, &both, &shares)),
                }
            })
            .collect();
        Report {
            game: experiment
                .arms
                .first()
                .map(|a| a.config.game.clone())
                .unwrap_or_default(),
            games: ran.tally.games,
            first_seed: experiment.first_seed,
            stopped: ran.stopped.clone(),
            rotate: experiment.rotate,
            confidence: 0.95,
            arms,
            differences,
            metrics,
            share_metrics: shares,
            stop_rule: None,
        }
    }

    /// Why the run stopped, as a note after the number of games (empty
    /// when it played the games asked for).
    pub fn stopped_text(&self) -> String {
        let decisive_rule = match &self.stop_rule {
            Some(StopRule::Decisive { on, .. }) => Some(on),
            _ => None,
        };
        match (&self.stopped, decisive_rule) {
            (Stopped::Games, _) => String::new(),
            (Stopped::Precision, _) => " (stopped: precision reached)".into(),
            (Stopped::Decisive, Some(on)) => format!(" (stopped: decisive on {on})"),
            (Stopped::Decisive, None) => " (stopped: decisive)".into(),
            (Stopped::MaxGames, Some(on)) => {
                format!(" (stopped: the most games allowed, not decisive on {on})")
            }
            (Stopped::MaxGames, None) => {
                " (stopped: the most games allowed, before the precision)".into()
            }
        }
    }

    /// How a run that stops when decisive looked at its results, in words.
    pub fn stopping_note(&self) -> Option<String> {
        let rule = self.stop_rule.as_ref()?;
        let StopRule::Decisive {
            on, against, every, ..
        } = rule
        else {
            return None;
        };
        let looks = rule.looks();
        let level = 100.0 * (1.0 - rule.alpha_per_look());
        let what = if self.arms.len() > 1 {
            format!("every difference of {on} against the first arm excludes 0")
        } else {
            format!("{on} excludes {against}")
        };
        Some(format!(
            "Stopping rule: a look every {every} games (at most {looks}), stopping once {what} \
             in an interval at the {level:.3}% level (0.05 shared among the {looks} looks, \
             Bonferroni), so the chance of stopping on a difference that is not there is at \
             most 5%. The intervals below are the usual 95% ones."
        ))
    }
}
