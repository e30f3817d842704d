//! A skill report: how much a game (under each of several rule sets)
//! rewards playing well, how much of its result is luck, what one of its
//! mechanics is worth and how fair its seats are, measured with bots on a
//! strength dial (a search bot at doubling budgets).
//!
//! Every measure comes from one kind of table: one **measured player** (the
//! first of the table's bots) against the others, played on every deal in
//! every rotation of the seats (so the measured player sits in each seat
//! once per deal, and a deal that favours a seat favours it equally),
//! every table and every rule set on the same deals (deal `i` starts from
//! seed `first + i` everywhere). A deal's value is the measured player's
//! share of wins over its rotations; a measure is its mean over deals
//! against a fair share (1 / players), so 0 means "no better than a seat
//! drawn by lot":
//!
//! - **skill gap**: the dial's strongest bot against the weakest (and
//!   against `random`);
//! - **chain**: each strength of the dial against the one below it; the
//!   chain's length is how many steps from the bottom are decided in a
//!   row (each interval above 0);
//! - **upsets**: how often the weaker side wins the skill gap's table;
//! - **deal share**: the skill gap's table played twice on every deal, the
//!   bots' own random numbers drawn afresh the second time: the share of
//!   the result's variance that the deal alone explains (an intraclass
//!   correlation, `1 - mean((y - y')²) / (2 var y)`);
//! - **worth of a mechanic**: the strongest bot barred by a restriction of
//!   the rules against unbarred copies of itself: the fair share minus the
//!   barred bot's share;
//! - **seats**: the strongest bot in every seat; each seat's share minus
//!   the fair share.
//!
//! Intervals are 95 %, over deals: Wilson's for a share of whole wins,
//! Student's t otherwise and for every paired difference between rule
//! sets (deal by deal), and the jackknife over deals for the deal share.
//! A skill run is a run of the lab whose arms are its tables under each
//! rule set ([`SkillSpec::arm`]), keeping every game's finishing places,
//! so it is sharded and merged as any run is.

use crate::experiment;
use crate::identity::Identity;
use crate::ratings::{Finishes, Placing};
use crate::run::Tally;
use crate::stats::{t95, Estimate, Method, Stat};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The most strengths on one dial.
pub const MAX_DIAL: usize = 8;

/// The most restrictions measured at once.
pub const MAX_RESTRICTIONS: usize = 8;

/// The most rule sets compared at once.
pub const MAX_RULE_SETS: usize = 8;

/// What one table measures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "at")]
pub enum TableKind {
    /// The strongest bot against the weakest.
    Gap,
    /// The skill gap's table again, the bots' random numbers drawn afresh.
    Replay,
    /// The strongest bot against `random`.
    GapRandom,
    /// Strength `k` of the dial (from 1) against strength `k - 1`.
    Step(usize),
    /// The strongest bot barred by restriction `k` against itself.
    Barred(usize),
    /// The strongest bot in every seat.
    Fair,
}

/// One table: its kind, its bots (the measured player first), the salt
/// of its bots' random numbers (0: the game's seed alone) and how many
/// rotations of its seats each deal is played in (1 when every seat has
/// the same bot).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillTable {
    pub kind: TableKind,
    pub seats: Vec<String>,
    pub salt: u64,
    pub seatings: usize,
}

/// A restriction of the rules, by name, with what it bars in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Restriction {
    pub name: String,
    pub doc: String,
}

/// What a skill run measures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillSpec {
    pub players: u32,
    /// The strengths, weakest first.
    pub dial: Vec<String>,
    pub restrictions: Vec<Restriction>,
    /// The rule sets' names, the base (the one others are compared with)
    /// first.
    pub rule_sets: Vec<String>,
    pub tables: Vec<SkillTable>,
}

/// Why a skill run cannot be made or reported.
#[derive(Debug, Error, PartialEq)]
pub enum SkillError {
    #[error("a dial needs 2 strengths or more, weakest first (got {0}), e.g. --dial mc:25 --dial mc:50 --dial mc:100")]
    ShortDial(usize),
    #[error("a dial has at most {MAX_DIAL} strengths (got {0})")]
    LongDial(usize),
    #[error("at most {MAX_RESTRICTIONS} restrictions at once (got {0})")]
    TooManyRestrictions(usize),
    #[error("between 1 and {MAX_RULE_SETS} rule sets (arms) at once (got {0})")]
    RuleSets(usize),
    #[error("a skill report needs 2 players or more (got {0})")]
    Players(u32),
    #[error("the run is not a skill report (its shards were made by `deckhand {0}`)")]
    NotSkill(String),
    #[error("the places of {found} deals, of {expected}")]
    Missing { found: usize, expected: u64 },
}

/// The salt of the replayed table's bots.
const REPLAY_SALT: u64 = 0x005E_ED0F_DEA1;

impl SkillSpec {
    /// The tables of a dial (weakest first), restrictions and rule sets at
    /// `players` seats.
    pub fn new(
        players: u32,
        dial: Vec<String>,
        restrictions: Vec<Restriction>,
        rule_sets: Vec<String>,
    ) -> Result<SkillSpec, SkillError> {
        if players < 2 {
            return Err(SkillError::Players(players));
        }
        if dial.len() < 2 {
            return Err(SkillError::ShortDial(dial.len()));
        }
        if dial.len() > MAX_DIAL {
            return Err(SkillError::LongDial(dial.len()));
        }
        if restrictions.len() > MAX_RESTRICTIONS {
            return Err(SkillError::TooManyRestrictions(restrictions.len()));
        }
        if rule_sets.is_empty() || rule_sets.len() > MAX_RULE_SETS {
            return Err(SkillError::RuleSets(rule_sets.len()));
        }
        let p = players as usize;
        let strong = dial[dial.len() - 1].clone();
        let one_against = |who: &str, others: &str| {
            let mut seats = vec![who.to_string()];
            seats.extend(std::iter::repeat_n(others.to_string(), p - 1));
            seats
        };
        let table = |kind, seats| SkillTable {
            kind,
            seats,
            salt: 0,
            seatings: p,
        };
        let mut tables = vec![
            table(TableKind::Gap, one_against(&strong, &dial[0])),
            SkillTable {
                kind: TableKind::Replay,
                seats: one_against(&strong, &dial[0]),
                salt: REPLAY_SALT,
                seatings: p,
            },
        ];
        // (Against random once, when the dial does not start there.)
        if dial[0] != "random" {
            tables.push(table(TableKind::GapRandom, one_against(&strong, "random")));
        }
        for k in 1..dial.len() {
            tables.push(table(
                TableKind::Step(k),
                one_against(&dial[k], &dial[k - 1]),
            ));
        }
        for (k, r) in restrictions.iter().enumerate() {
            let barred = format!("{strong}/{}", r.name);
            tables.push(table(TableKind::Barred(k), one_against(&barred, &strong)));
        }
        tables.push(SkillTable {
            kind: TableKind::Fair,
            seats: vec![strong.clone(); p],
            salt: 0,
            seatings: 1,
        });
        Ok(SkillSpec {
            players,
            dial,
            restrictions,
            rule_sets,
            tables,
        })
    }

    /// What the skill run `identity` measures.
    pub fn of(identity: &Identity) -> Result<SkillSpec, SkillError> {
        identity
            .skill
            .clone()
            .filter(|_| identity.command == "skill")
            .and_then(|v| serde_json::from_value(v).ok())
            .ok_or_else(|| SkillError::NotSkill(identity.command.clone()))
    }

    /// The run's arms per rule set: every seating of every table.
    fn per_rule_set(&self) -> usize {
        self.tables.iter().map(|t| t.seatings).sum()
    }

    /// The run's arm of table `t` under rule set `r` in seating `k`: every
    /// seating of every table under the first rule set, then under the
    /// second, ...
    pub fn arm(&self, t: usize, r: usize, k: usize) -> usize {
        let before: usize = self.tables[..t].iter().map(|t| t.seatings).sum();
        r * self.per_rule_set() + before + k
    }

    /// The number of arms.
    pub fn arms(&self) -> usize {
        self.per_rule_set() * self.rule_sets.len()
    }

    /// Every arm's table, rule set and seating, in the run's order.
    pub fn layout(&self) -> Vec<(usize, usize, usize)> {
        (0..self.rule_sets.len())
            .flat_map(|r| {
                self.tables
                    .iter()
                    .enumerate()
                    .flat_map(move |(t, table)| (0..table.seatings).map(move |k| (t, r, k)))
            })
            .collect()
    }

    /// The bots of table `t` in seating `k`, seat 1 first: seat `s` takes
    /// the table's bot `(s + k) mod players`.
    pub fn seating(&self, t: usize, k: usize) -> Vec<String> {
        let seats = &self.tables[t].seats;
        experiment::rotation(seats.len(), k as u64)
            .into_iter()
            .map(|b| seats[b].clone())
            .collect()
    }

    /// The table of a kind.
    fn table(&self, kind: &TableKind) -> Option<usize> {
        self.tables.iter().position(|t| t.kind == *kind)
    }

    /// The arm's name in the run: the rule set, the table and the seating.
    pub fn arm_name(&self, t: usize, r: usize, k: usize) -> String {
        let table = &self.tables[t];
        let what = match &table.kind {
            TableKind::Gap => "skill gap".to_string(),
            TableKind::Replay => "skill gap, replayed".to_string(),
            TableKind::GapRandom => "against random".to_string(),
            TableKind::Step(k) => format!("step {k}"),
            TableKind::Barred(k) => format!("barred: {}", self.restrictions[*k].name),
            TableKind::Fair => "seats".to_string(),
        };
        if self.tables[t].seatings > 1 {
            format!("{} / {what} / seating {}", self.rule_sets[r], k + 1)
        } else {
            format!("{} / {what}", self.rule_sets[r])
        }
    }
}

/// A share and its interval, in share units (0.05 is 5 points).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Value {
    pub value: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// Deals it is measured over.
    pub n: u64,
    pub method: Method,
}

impl Value {
    fn of(e: &Estimate, offset: f64, sign: f64) -> Value {
        let (a, b) = (
            e.low.map(|l| sign * (l - offset)),
            e.high.map(|h| sign * (h - offset)),
        );
        let (low, high) = match (a, b) {
            (Some(a), Some(b)) => (Some(a.min(b)), Some(a.max(b))),
            _ => (None, None),
        };
        Value {
            value: sign * (e.mean - offset),
            low,
            high,
            n: e.n,
            method: e.method,
        }
    }

    /// Whether the interval lies wholly above 0.
    pub fn above_zero(&self) -> bool {
        self.low.is_some_and(|l| l > 0.0)
    }

    /// Whether the interval lies wholly below 0.
    pub fn below_zero(&self) -> bool {
        self.high.is_some_and(|h| h < 0.0)
    }

    /// Whether the interval excludes 0.
    pub fn decided(&self) -> bool {
        self.above_zero() || self.below_zero()
    }
}

/// One measure: its value under each rule set, and each rule set's
/// paired difference from the base.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measure {
    /// A short name for scripts (`skill_gap`, `step2`, `worth:never_stop`,
    /// `seat3` ...).
    pub id: String,
    /// The measure in words.
    pub label: String,
    /// Which question it answers: `skill`, `luck`, `mechanic`, `seats`.
    pub group: String,
    /// Per rule set, in order.
    pub values: Vec<Value>,
    /// Per rule set after the first: its value minus the base's, deal by
    /// deal.
    pub differences: Vec<Value>,
}

/// Per rule set, how many strengths of the dial in a row (from the
/// bottom) are decided over the one below, and whether any step was
/// measured weaker.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Chain {
    pub rule_set: String,
    pub length: usize,
    pub steps: usize,
    /// Steps measured weaker than the one below (interval below 0): a dial
    /// that is not monotone there.
    pub weaker: Vec<usize>,
}

/// A skill report.
#[derive(Debug, Clone, Serialize)]
pub struct SkillReport {
    pub game: String,
    pub title: String,
    pub players: u32,
    pub rule_sets: Vec<String>,
    pub dial: Vec<String>,
    pub restrictions: Vec<Restriction>,
    pub tables: Vec<SkillTable>,
    pub deals: u64,
    pub games: u64,
    pub first_seed: u64,
    pub measures: Vec<Measure>,
    pub chains: Vec<Chain>,
    pub elapsed_s: f64,
    pub games_per_s: f64,
    pub threads: usize,
}

/// The share of the win of the player at `seat` in a game, from its
/// places (1 for the winners): 1/k when it is one of k winners, 0
/// otherwise.
fn share_at(placing: &Placing, seat: usize) -> Option<f64> {
    let place = *placing.0.get(seat)?;
    if place != 1 {
        return Some(0.0);
    }
    let winners = placing.0.iter().filter(|&&x| x == 1).count();
    Some(1.0 / winners.max(1) as f64)
}

/// Per deal (in deal order), the measured player's share of the win in
/// table `t` under rule set `r`, over the table's seatings.
fn measured(spec: &SkillSpec, finishes: &Finishes, t: usize, r: usize) -> Vec<f64> {
    let p = spec.players as usize;
    let seatings = spec.tables[t].seatings;
    finishes
        .0
        .values()
        .filter_map(|arms| {
            let mut sum = 0.0;
            for k in 0..seatings {
                // In seating k the measured player (0) sits where the
                // rotation puts it.
                let seat = experiment::rotation(p, k as u64)
                    .iter()
                    .position(|&b| b == 0)?;
                sum += share_at(arms.get(spec.arm(t, r, k))?, seat)?;
            }
            Some(sum / seatings as f64)
        })
        .collect()
}

fn stat_of(xs: &[f64]) -> Stat {
    let mut s = Stat::default();
    xs.iter().for_each(|&x| s.add(x));
    s
}

/// The paired differences `b - a`, game by game (both series from the same
/// games in the same order).
fn paired(a: &[f64], b: &[f64]) -> Stat {
    let mut s = Stat::default();
    a.iter().zip(b).for_each(|(x, y)| s.add(y - x));
    s
}

/// The deal's share of the variance of a result measured twice on every
/// deal (`y` and `again`), `1 - mean((y - y')²) / (2 var)` with `var` the
/// variance of all the values together, and its 95 % jackknife interval
/// over deals (t at n - 1 degrees of freedom). Of `statistic` applied to
/// one or two such pairs of series: the difference of two rule sets'
/// shares is the jackknife of their difference.
fn jackknife(n: usize, statistic: impl Fn(Option<usize>) -> Option<f64>) -> Option<Value> {
    let full = statistic(None)?;
    if n < 2 {
        return Some(Value {
            value: full,
            low: None,
            high: None,
            n: n as u64,
            method: Method::StudentT,
        });
    }
    let leave: Vec<f64> = (0..n).filter_map(|i| statistic(Some(i))).collect();
    if leave.len() != n {
        return None;
    }
    let mean = leave.iter().sum::<f64>() / n as f64;
    let var = (n as f64 - 1.0) / n as f64 * leave.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
    let h = t95(n as u64 - 1) * var.sqrt();
    Some(Value {
        value: full,
        low: Some(full - h),
        high: Some(full + h),
        n: n as u64,
        method: Method::StudentT,
    })
}

/// The deal's share of a result measured twice per deal, leaving out deal
/// `skip` when given; `None` when the result never varies.
fn deal_share(y: &[f64], again: &[f64], skip: Option<usize>) -> Option<f64> {
    let (mut n, mut sum, mut sum_sq, mut d2) = (0.0, 0.0, 0.0, 0.0);
    for (i, (a, b)) in y.iter().zip(again).enumerate() {
        if Some(i) == skip {
            continue;
        }
        n += 1.0;
        sum += a + b;
        sum_sq += a * a + b * b;
        d2 += (a - b) * (a - b);
    }
    if n < 1.0 {
        return None;
    }
    let m = 2.0 * n;
    let var = (sum_sq - sum * sum / m) / (m - 1.0).max(1.0);
    if var <= 1e-12 {
        return None;
    }
    Some(1.0 - (d2 / n) / (2.0 * var))
}

/// The report of a skill run (or of its shards merged): `identity` says
/// what it was, `tally` holds the places of every game.
pub fn report(
    identity: &Identity,
    tally: &Tally,
    elapsed_s: f64,
    threads: usize,
) -> Result<SkillReport, SkillError> {
    let spec = SkillSpec::of(identity)?;
    let finishes = &tally.placings;
    if finishes.len() as u64 != identity.games {
        return Err(SkillError::Missing {
            found: finishes.len(),
            expected: identity.games,
        });
    }
    let p = spec.players as usize;
    let fair = 1.0 / p as f64;
    let rules = spec.rule_sets.len();
    // The measured player's share on every deal of table `t` under rule
    // set `r`.
    let shares = |t: usize, r: usize| measured(&spec, finishes, t, r);
    let mut measures = Vec::new();
    // A measure read from one table: `sign * (share - offset)`.
    let mut from_table =
        |t: Option<usize>, id: String, label: String, group: &str, offset: f64, sign: f64| {
            let Some(t) = t else { return };
            let per_rule: Vec<Vec<f64>> = (0..rules).map(|r| shares(t, r)).collect();
            let values = per_rule
                .iter()
                .map(|xs| Value::of(&stat_of(xs).estimate(), offset, sign))
                .collect();
            let differences = per_rule
                .iter()
                .skip(1)
                .map(|xs| Value::of(&paired(&per_rule[0], xs).estimate_mean(), 0.0, sign))
                .collect();
            measures.push(Measure {
                id,
                label,
                group: group.to_string(),
                values,
                differences,
            });
        };
    let strong = spec.dial.last().cloned().unwrap_or_default();
    let weak = spec.dial.first().cloned().unwrap_or_default();
    let gap = spec.table(&TableKind::Gap);
    from_table(
        gap,
        "skill_gap".into(),
        format!("skill gap: {strong}'s wins against {weak}, above a fair share"),
        "skill",
        fair,
        1.0,
    );
    from_table(
        spec.table(&TableKind::GapRandom),
        "skill_gap_random".into(),
        format!("skill gap: {strong}'s wins against random, above a fair share"),
        "skill",
        fair,
        1.0,
    );
    for k in 1..spec.dial.len() {
        from_table(
            spec.table(&TableKind::Step(k)),
            format!("step{k}"),
            format!(
                "step {k}: {}'s wins against {}, above a fair share",
                spec.dial[k],
                spec.dial[k - 1]
            ),
            "skill",
            fair,
            1.0,
        );
    }
    from_table(
        gap,
        "upsets".into(),
        format!("upsets: games the {weak} side wins against {strong}"),
        "luck",
        1.0,
        -1.0,
    );
    for (k, r) in spec.restrictions.iter().enumerate() {
        let doc = if r.doc.is_empty() {
            String::new()
        } else {
            format!(" ({})", r.doc)
        };
        from_table(
            spec.table(&TableKind::Barred(k)),
            format!("worth:{}", r.name),
            format!(
                "worth of what {} bars{doc}: a fair share minus the barred bot's",
                r.name
            ),
            "mechanic",
            fair,
            -1.0,
        );
    }
    // The deal's share of the skill gap's result.
    if let (Some(g), Some(again)) = (gap, spec.table(&TableKind::Replay)) {
        let per_rule: Vec<(Vec<f64>, Vec<f64>)> = (0..rules)
            .map(|r| (shares(g, r), shares(again, r)))
            .collect();
        let values: Option<Vec<Value>> = per_rule
            .iter()
            .map(|(y, y2)| jackknife(y.len().min(y2.len()), |skip| deal_share(y, y2, skip)))
            .collect();
        let differences: Option<Vec<Value>> = per_rule
            .iter()
            .skip(1)
            .map(|(y, y2)| {
                let (b, b2) = &per_rule[0];
                let n = y.len().min(b.len());
                jackknife(n, |skip| {
                    Some(deal_share(y, y2, skip)? - deal_share(b, b2, skip)?)
                })
            })
            .collect();
        if let (Some(values), Some(differences)) = (values, differences) {
            measures.push(Measure {
                id: "deal_share".into(),
                label: "deal share: of the skill gap's result, the share of its variance the deal \
                        alone explains"
                    .into(),
                group: "luck".into(),
                values,
                differences,
            });
        }
    }
    // Seats: the strongest bot everywhere, each seat's share above fair.
    if let Some(t) = spec.table(&TableKind::Fair) {
        for seat in 0..p {
            let per_rule: Vec<Vec<f64>> = (0..rules)
                .map(|r| {
                    finishes
                        .0
                        .values()
                        .filter_map(|arms| share_at(arms.get(spec.arm(t, r, 0))?, seat))
                        .collect()
                })
                .collect();
            measures.push(Measure {
                id: format!("seat{}", seat + 1),
                label: format!(
                    "seat {}: its wins with {strong} in every seat, above a fair share",
                    seat + 1
                ),
                group: "seats".into(),
                values: per_rule
                    .iter()
                    .map(|xs| Value::of(&stat_of(xs).estimate(), fair, 1.0))
                    .collect(),
                differences: per_rule
                    .iter()
                    .skip(1)
                    .map(|xs| Value::of(&paired(&per_rule[0], xs).estimate_mean(), 0.0, 1.0))
                    .collect(),
            });
        }
    }
    // In the order of the questions: skill, luck, mechanics, seats.
    let rank = |g: &str| {
        ["skill", "luck", "mechanic", "seats"]
            .iter()
            .position(|x| *x == g)
    };
    measures.sort_by_key(|m| rank(&m.group));
    let chains = (0..rules)
        .map(|r| {
            let steps: Vec<&Value> = (1..spec.dial.len())
                .filter_map(|k| {
                    measures
                        .iter()
                        .find(|m| m.id == format!("step{k}"))
                        .and_then(|m| m.values.get(r))
                })
                .collect();
            Chain {
                rule_set: spec.rule_sets[r].clone(),
                length: steps.iter().take_while(|v| v.above_zero()).count(),
                steps: steps.len(),
                weaker: steps
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| v.below_zero())
                    .map(|(k, _)| k + 1)
                    .collect(),
            }
        })
        .collect();
    let games = identity.games * spec.arms() as u64;
    Ok(SkillReport {
        game: identity.game.clone(),
        title: identity.title.clone(),
        players: spec.players,
        rule_sets: spec.rule_sets.clone(),
        dial: spec.dial.clone(),
        restrictions: spec.restrictions.clone(),
        tables: spec.tables.clone(),
        deals: identity.games,
        games,
        first_seed: identity.first_seed,
        measures,
        chains,
        elapsed_s,
        games_per_s: games as f64 / elapsed_s.max(1e-9),
        threads,
    })
}

/// The experiment of the skill run `identity` again, its tables' salts
/// with it (to play more deals of it).
pub fn experiment(identity: &Identity) -> Result<crate::Experiment, SkillError> {
    let spec = SkillSpec::of(identity)?;
    let mut e = identity.experiment();
    for (arm, (t, _, _)) in e.arms.iter_mut().zip(spec.layout()) {
        arm.bot_salt = spec.tables[t].salt;
    }
    Ok(e)
}

/// The skill gap's statistic a sequential run stops on, from the places
/// of the games so far: with one rule set, its share of wins (to be
/// told from a fair share); with several, every rule set's paired
/// difference from the base (to be told from 0). With `(stat, against,
/// proportion)` for each.
pub fn stopping_stats(spec: &SkillSpec, finishes: &Finishes) -> Vec<(Stat, f64, bool)> {
    let p = spec.players as usize;
    let Some(gap) = spec.table(&TableKind::Gap) else {
        return Vec::new();
    };
    let shares: Vec<Vec<f64>> = (0..spec.rule_sets.len())
        .map(|r| measured(spec, finishes, gap, r))
        .collect();
    if shares.len() == 1 {
        return vec![(stat_of(&shares[0]), 1.0 / p as f64, true)];
    }
    shares
        .iter()
        .skip(1)
        .map(|xs| (paired(&shares[0], xs), 0.0, false))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_put_the_measured_player_first_and_arms_follow_rule_sets() {
        let spec = SkillSpec::new(
            3,
            vec!["mc:25".into(), "mc:50".into(), "mc:100".into()],
            vec![Restriction {
                name: "never_stop".into(),
                doc: String::new(),
            }],
            vec!["base".into(), "passing".into()],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let seats: Vec<Vec<String>> = spec.tables.iter().map(|t| t.seats.clone()).collect();
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            seats,
            vec![
                s(&["mc:100", "mc:25", "mc:25"]),
                s(&["mc:100", "mc:25", "mc:25"]),
                s(&["mc:100", "random", "random"]),
                s(&["mc:50", "mc:25", "mc:25"]),
                s(&["mc:100", "mc:50", "mc:50"]),
                s(&["mc:100/never_stop", "mc:100", "mc:100"]),
                s(&["mc:100", "mc:100", "mc:100"]),
            ]
        );
        assert_eq!(spec.tables[1].kind, TableKind::Replay);
        assert_ne!(spec.tables[1].salt, 0);
        // Six tables in three seatings, the seats' table in one: 19 arms a
        // rule set.
        assert_eq!(spec.arms(), 38);
        assert_eq!(spec.arm(2, 1, 1), 19 + 7);
        assert_eq!(spec.layout()[26], (2, 1, 1));
        assert_eq!(spec.layout().len(), 38);
        assert_eq!(spec.seating(3, 1), s(&["mc:25", "mc:25", "mc:50"]));
        assert_eq!(
            spec.arm_name(5, 1, 2),
            "passing / barred: never_stop / seating 3"
        );
        assert_eq!(spec.arm_name(6, 0, 0), "base / seats");
        assert_eq!(
            SkillSpec::new(2, vec!["mc:25".into()], vec![], vec!["a".into()]),
            Err(SkillError::ShortDial(1))
        );
    }

    #[test]
    fn the_deal_share_is_one_when_the_deal_decides_and_near_zero_when_it_does_not() {
        // The same result twice on every deal: the deal explains it all.
        let y: Vec<f64> = (0..200).map(|i| ((i * 7) % 3 == 0) as u8 as f64).collect();
        let v = jackknife(y.len(), |s| deal_share(&y, &y, s)).unwrap_or_else(|| panic!("none"));
        assert!((v.value - 1.0).abs() < 1e-12, "{v:?}");
        // Two independent coins per deal: the deal explains nothing.
        let mut rng = deckhand_engine::rng::GameRng::derived(3, 1);
        let a: Vec<f64> = (0..4000).map(|_| rng.below(2) as f64).collect();
        let b: Vec<f64> = (0..4000).map(|_| rng.below(2) as f64).collect();
        let v = jackknife(a.len(), |s| deal_share(&a, &b, s)).unwrap_or_else(|| panic!("none"));
        let (lo, hi) = (v.low.unwrap_or(9.0), v.high.unwrap_or(-9.0));
        assert!(lo < 0.0 && hi > 0.0 && hi - lo < 0.15, "{v:?}");
    }

    #[test]
    fn a_deal_counts_the_measured_player_in_every_seating_and_splits_shared_wins() {
        let spec = SkillSpec::new(3, vec!["a".into(), "b".into()], vec![], vec!["x".into()])
            .unwrap_or_else(|e| panic!("{e}"));
        // Seating 1 of 3: the measured player sits at seat 3.
        assert_eq!(spec.seating(0, 1), vec!["a", "a", "b"]);
        let mut finishes = Finishes::default();
        let mut arms = vec![Placing(vec![1, 2, 2]); spec.arms()];
        // The gap's table: a win in seating 0 (seat 1), a shared win in
        // seating 1 (seat 3), a loss in seating 2 (seat 2).
        arms[spec.arm(0, 0, 0)] = Placing(vec![1, 2, 3]);
        arms[spec.arm(0, 0, 1)] = Placing(vec![1, 3, 1]);
        arms[spec.arm(0, 0, 2)] = Placing(vec![1, 3, 2]);
        finishes.0.insert(0, arms);
        let deal = measured(&spec, &finishes, 0, 0);
        assert_eq!(deal, vec![(1.0 + 0.5 + 0.0) / 3.0]);
    }
}
