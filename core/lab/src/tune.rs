//! A tune's search and its report: the candidates (every combination of
//! the option values tried), each an arm on the same seeds; their scores
//! against the objective (a target for a statistic, or the largest or
//! smallest it gets); their ranking; and the report of a finished search.
//! Successive halving or a grid is how the command line spends the games
//! (`deckhand tune`); what a round keeps is decided here.

use crate::identity::Identity;
use crate::{Arm, ArmReport, Experiment, Key, Ran, Report, Row, Stopped, Tally};
use deckhand_bots::BotKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How the games are spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Search {
    /// Keep the better half each round, twice the games for the rest.
    Halving,
    /// Every candidate on the same -n games.
    Grid,
}

/// What makes a candidate better.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    Target(f64),
    Maximize,
    Minimize,
}

impl Objective {
    /// Lower is better.
    pub fn score(self, mean: f64) -> f64 {
        match self {
            Objective::Target(t) => (mean - t).abs(),
            Objective::Maximize => -mean,
            Objective::Minimize => mean,
        }
    }

    /// The objective in words, for the statistic called `label`.
    pub fn words(self, label: &str) -> String {
        match self {
            Objective::Target(t) => format!("{label} closest to {t}"),
            Objective::Maximize => format!("the largest {label}"),
            Objective::Minimize => format!("the smallest {label}"),
        }
    }
}

/// What a tune searches (the part of a sharded run's identity that is
/// tune's own).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    pub stat: Key,
    pub objective: Objective,
    pub search: Search,
    /// Each candidate's option values, by option.
    pub candidates: Vec<BTreeMap<String, String>>,
}

/// One candidate's result.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    pub name: String,
    pub values: BTreeMap<String, String>,
    /// Games it played (the run's first ones).
    pub games: u64,
    /// The statistic with its 95 % interval.
    pub estimate: Option<Row>,
    /// How far from the objective (lower is better): |mean − target|,
    /// −mean to maximise, mean to minimise.
    pub score: Option<f64>,
    /// The last round it played (from 1).
    pub last_round: u32,
    /// Every statistic of its games.
    #[serde(skip)]
    pub arm: Option<ArmReport>,
}

/// One round of the search.
#[derive(Debug, Clone, Serialize)]
pub struct Round {
    /// Games each candidate of the round had played at its end.
    pub games: u64,
    pub candidates: Vec<String>,
}

/// The result of a tune.
#[derive(Debug, Clone, Serialize)]
pub struct TuneReport {
    pub game: String,
    pub title: String,
    pub stat: Key,
    pub label: String,
    pub objective: Objective,
    pub search: Search,
    pub first_seed: u64,
    /// The best candidate's name (the first of `candidates`).
    pub best: String,
    pub best_values: BTreeMap<String, String>,
    /// Every candidate tried, best first (by the last round each played,
    /// then by score).
    pub candidates: Vec<Candidate>,
    pub rounds: Vec<Round>,
    pub confidence: f64,
    pub elapsed_s: f64,
    pub threads: usize,
}

/// Every combination of the values tried, the first `--try` varying
/// slowest.
pub fn candidates(
    tries: &[(String, Vec<String>)],
    max: usize,
) -> Result<Vec<BTreeMap<String, String>>, String> {
    let mut out = vec![BTreeMap::new()];
    for (key, values) in tries {
        if out[0].contains_key(key) {
            return Err(format!("--try {key}: the option is tried twice"));
        }
        if out.len() * values.len() > max {
            return Err(format!(
                "the values tried make more than {max} candidates: try fewer values \
                 (a coarse grid first, then a finer one around the best)"
            ));
        }
        out = out
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.insert(key.clone(), v.clone());
                    c
                })
            })
            .collect();
    }
    Ok(out)
}

/// A candidate's name: its values, `KEY=VALUE` each.
pub fn name_of(values: &BTreeMap<String, String>) -> String {
    values
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Arm `a` of a run's tally, as a one-arm tally.
pub fn arm_tally(t: &Tally, a: usize) -> Tally {
    Tally {
        games: t.games,
        arms: t.arms.get(a).cloned().into_iter().collect(),
        diffs: Vec::new(),
        histograms: t.histograms.get(a).cloned().into_iter().collect(),
        placings: Default::default(),
    }
}

/// The report of one candidate's games.
pub fn arm_report(identity: &Identity, c: usize, tally: &Tally) -> Option<ArmReport> {
    let a = identity.arms.get(c)?;
    let one = Identity {
        arms: vec![a.clone()],
        ..identity.clone()
    };
    let experiment = Experiment {
        arms: vec![Arm {
            name: a.name.clone(),
            config: a.config.clone(),
            seats: a.seats.iter().map(|s| BotKind::parse(s)).collect(),
            bot_salt: 0,
        }],
        first_seed: one.first_seed,
        rotate: one.rotate,
    };
    let ran = Ran {
        tally: tally.clone(),
        stopped: Stopped::Games,
    };
    Report::new(
        &experiment,
        &ran,
        one.metrics.clone(),
        one.share_metrics.clone(),
        std::slice::from_ref(&a.options),
    )
    .arms
    .into_iter()
    .next()
}

/// Rank candidates by score (lower first), then by number.
pub fn ranked(scores: &[(usize, Option<f64>)]) -> Vec<usize> {
    let mut v = scores.to_vec();
    v.sort_by(|a, b| {
        let x = a.1.unwrap_or(f64::INFINITY);
        let y = b.1.unwrap_or(f64::INFINITY);
        x.total_cmp(&y).then(a.0.cmp(&b.0))
    });
    v.into_iter().map(|(c, _)| c).collect()
}

/// The score of a candidate's tally on the statistic (an error naming the
/// statistics there are when no game has it).
pub fn score(spec: &Spec, tally: &Tally) -> Result<Option<f64>, String> {
    let rows = tally
        .arms
        .first()
        .ok_or_else(|| "a candidate without games".to_string())?;
    match rows.get(&spec.stat) {
        Some(s) => Ok(Some(spec.objective.score(s.mean()))),
        None if tally.games == 0 => Ok(None),
        None => {
            let names: Vec<String> = rows.0.keys().map(|k| k.to_string()).collect();
            Err(format!(
                "--stat {}: no game has that statistic (they have: {})",
                spec.stat,
                names.join(", ")
            ))
        }
    }
}

/// The tune report of every candidate's tally.
#[allow(clippy::too_many_arguments)]
pub fn report(
    identity: &Identity,
    spec: &Spec,
    tallies: &[Tally],
    last_round: &[u32],
    rounds: Vec<Round>,
    elapsed_s: f64,
    threads: usize,
) -> Result<TuneReport, String> {
    let mut list = Vec::new();
    for (c, t) in tallies.iter().enumerate() {
        let arm = arm_report(identity, c, t);
        let estimate = arm
            .as_ref()
            .and_then(|a| a.rows.iter().find(|r| r.key == spec.stat).cloned());
        list.push(Candidate {
            name: name_of(&spec.candidates[c]),
            values: spec.candidates[c].clone(),
            games: t.games,
            score: score(spec, t)?,
            estimate,
            last_round: last_round.get(c).copied().unwrap_or(1),
            arm,
        });
    }
    // Best first: those that lasted longest, then by score, then by number.
    let mut order: Vec<usize> = (0..list.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&list[a], &list[b]);
        y.last_round
            .cmp(&x.last_round)
            .then(
                x.score
                    .unwrap_or(f64::INFINITY)
                    .total_cmp(&y.score.unwrap_or(f64::INFINITY)),
            )
            .then(a.cmp(&b))
    });
    let candidates: Vec<Candidate> = order.into_iter().map(|c| list[c].clone()).collect();
    let best = candidates
        .first()
        .ok_or_else(|| "no candidate to tune".to_string())?;
    Ok(TuneReport {
        game: identity.game.clone(),
        title: identity.title.clone(),
        label: spec.stat.label(),
        stat: spec.stat.clone(),
        objective: spec.objective,
        search: spec.search,
        first_seed: identity.first_seed,
        best: best.name.clone(),
        best_values: best.values.clone(),
        candidates,
        rounds,
        confidence: 0.95,
        elapsed_s,
        threads,
    })
}
