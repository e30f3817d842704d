//! Ratings of bots from the finishing orders of games at mixed tables: a
//! Bradley-Terry model when every table has two players, Plackett-Luce
//! when tables have three or more, on an Elo-like scale (400·log10 of a
//! bot's strength) with one bot, the anchor, fixed at 0, and a 95 %
//! interval for every rating and every difference of two.
//!
//! **The model.** Each bot has a strength `w = e^θ`. In a game, the
//! winners are picked first from everyone at the table, each with
//! probability its strength over the sum of the strengths still in; then
//! the next place from those left, and so on (Plackett-Luce; with two
//! players it is Bradley-Terry: `P(a beats b) = w_a / (w_a + w_b)`).
//!
//! **Places** ([`Placing::of`]): the winners share first place; the other
//! seats follow by their final score, in the direction the winners' score
//! shows (the winners highest: most points win; lowest: fewest win). Equal
//! scores share a place; without scores, or when the winners are neither
//! highest nor lowest, the other seats are not placed (they only lost to
//! the winners). A game nobody won is a tie of everyone.
//!
//! **Ties.** Players who share a place are counted as if every order of
//! them were equally likely: the game's log-likelihood is the mean of the
//! log-likelihoods of those orders (with two players, a shared win is half
//! a win for each).
//!
//! **The prior.** One drawn game between every two bots is added, so that
//! a bot that never loses (or never wins) gets a finite rating; it weighs
//! as one game among the thousands of a run.
//!
//! **The interval.** The covariance of the fitted strengths is the
//! cluster-robust (sandwich) estimate over deals: every game of one seed
//! (every table and order of its seats played on that deal) is one block,
//! `V = B/(B-1) · I⁻¹ (Σ_b g_b g_bᵀ + g_0 g_0ᵀ) I⁻¹`, with `I` the
//! observed information (minus the Hessian of the log-likelihood and the
//! prior), `g_b` the gradient of block `b`'s log-likelihood at the fit, `B`
//! the number of blocks and `g_0` the prior's gradient (so an interval does
//! not collapse when a bot never loses). Games of one deal are not
//! independent (the same cards in every seating), and the sandwich counts
//! that: the luck of the deal that the change of seats cancels narrows the
//! intervals, luck that favours the same bot in every game of a deal
//! widens them. The interval is the estimate ± Student's t with `B - 1`
//! degrees of freedom times its standard error. Its coverage is checked
//! on synthetic games of known strengths in this module's tests.

use super::outcome::Outcome;
use super::stats::t95;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use thiserror::Error;

/// Rating points per natural-log unit of strength: 400 / ln 10 (a
/// difference of 400 points is a strength ten times as large).
pub const SCALE: f64 = 400.0 / std::f64::consts::LN_10;

/// The most players at one table the fit takes (the orders of players
/// sharing a place are enumerated).
pub const MAX_TABLE: usize = 8;

/// Drawn games added between every two bots (the prior).
pub const PRIOR_DRAWS: f64 = 1.0;

/// The finishing places of one game, seat 1 first: 1 for the winners, 2
/// for the next place, ...; players who share a place share its number;
/// 0 for a seat that is not placed (see the module's docs).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Placing(pub Vec<u8>);

impl Placing {
    /// The places of a finished game.
    pub fn of(o: &Outcome) -> Placing {
        let p = (o.players as usize).min(u8::MAX as usize - 1);
        let mut winners: Vec<usize> = o
            .winners
            .iter()
            .filter(|&&w| w >= 1 && w as usize <= p)
            .map(|&w| w as usize - 1)
            .collect();
        winners.sort_unstable();
        winners.dedup();
        if winners.is_empty() {
            return Placing(vec![1; p]);
        }
        let mut places = vec![0u8; p];
        for &w in &winners {
            places[w] = 1;
        }
        let others: Vec<usize> = (0..p).filter(|s| !winners.contains(s)).collect();
        let scores = match o.scores.get(..p) {
            Some(s) if s.iter().all(|x| x.is_finite()) => s,
            _ => return Placing(places),
        };
        let fold = |seats: &[usize], f: fn(f64, f64) -> f64, init: f64| {
            seats.iter().map(|&s| scores[s]).fold(init, f)
        };
        let (w_lo, w_hi) = (
            fold(&winners, f64::min, f64::INFINITY),
            fold(&winners, f64::max, f64::NEG_INFINITY),
        );
        let (o_lo, o_hi) = (
            fold(&others, f64::min, f64::INFINITY),
            fold(&others, f64::max, f64::NEG_INFINITY),
        );
        // +1: most points win; -1: fewest win.
        let direction = if w_lo >= o_hi {
            1.0
        } else if w_hi <= o_lo {
            -1.0
        } else {
            return Placing(places);
        };
        let first = winners.len() + 1;
        for &s in &others {
            let better = others
                .iter()
                .filter(|&&t| direction * scores[t] > direction * scores[s])
                .count();
            places[s] = (first + better).min(u8::MAX as usize) as u8;
        }
        Placing(places)
    }
}

/// The places of every game of a run: per game (its number in the run,
/// so per seed), the placing of each table's game, in the order of the
/// tables. Shards hold disjoint games and merge by union.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Finishes(pub BTreeMap<u64, Vec<Placing>>);

impl Finishes {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Add the games of another run's part (other game numbers).
    pub fn merge(&mut self, other: &Finishes) {
        for (k, v) in &other.0 {
            self.0.insert(*k, v.clone());
        }
    }
}

/// Which model a fit used: Bradley-Terry when every table has two
/// players, else Plackett-Luce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Model {
    BradleyTerry,
    PlackettLuce,
}

impl Model {
    /// The model of a set of tables.
    pub fn of(tables: &[Vec<usize>]) -> Model {
        if tables.iter().all(|t| t.len() == 2) {
            Model::BradleyTerry
        } else {
            Model::PlackettLuce
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Model::BradleyTerry => "Bradley-Terry",
            Model::PlackettLuce => "Plackett-Luce",
        }
    }
}

/// The interval method, in words, as reports print it.
pub const METHOD: &str = "cluster-robust (sandwich) over deals, Student t";

/// Why ratings cannot be fitted.
#[derive(Debug, Error, PartialEq)]
pub enum RatingsError {
    #[error("a ladder needs two bots or more (got {0})")]
    TooFewBots(usize),
    #[error("the anchor is bot {anchor}, of {bots}")]
    Anchor { anchor: usize, bots: usize },
    #[error("table {table} seats {players} players: the fit takes 2 to {MAX_TABLE}")]
    TableSize { table: usize, players: usize },
    #[error("table {table} seats bot {bot}, of {bots}")]
    UnknownBot {
        table: usize,
        bot: usize,
        bots: usize,
    },
    #[error("game {game}: {what}")]
    BadGame { game: u64, what: String },
    #[error("no game to fit")]
    NoGames,
    #[error("the fit did not converge in {0} steps")]
    NotConverged(usize),
}

/// One term `-weight · log Σ_{m ∈ members} e^{θ_bot(m)}` of a game's
/// log-likelihood.
#[derive(Debug, Clone)]
struct Term {
    weight: f64,
    members: Vec<usize>,
}

/// A game's log-likelihood as a function of the strengths:
/// `Σ linear · θ - Σ terms`.
#[derive(Debug, Clone, Default)]
struct Pattern {
    linear: Vec<(usize, f64)>,
    terms: Vec<Term>,
}

/// Binomial coefficient (small arguments).
fn choose(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |c, i| c * (n - i) as f64 / (i + 1) as f64)
}

impl Pattern {
    /// The log-likelihood of `placing` at a table seating `table[s]` at
    /// seat `s + 1`.
    fn compile(table: &[usize], placing: &Placing) -> Result<Pattern, String> {
        let p = table.len();
        if placing.0.len() != p {
            return Err(format!(
                "{} places for a table of {p} players",
                placing.0.len()
            ));
        }
        if let Some(&x) = placing.0.iter().find(|&&x| x as usize > p) {
            return Err(format!("place {x} at a table of {p} players"));
        }
        let mut places: Vec<u8> = placing.0.iter().copied().filter(|&x| x > 0).collect();
        places.sort_unstable();
        places.dedup();
        let mut pattern = Pattern::default();
        // Seats not yet placed (the unplaced ones stay in to the end).
        let mut remaining: Vec<usize> = (0..p).collect();
        for place in places {
            let group: Vec<usize> = (0..p).filter(|&s| placing.0[s] == place).collect();
            let m = group.len();
            if m == 1 && remaining.len() == 1 {
                break;
            }
            for &s in &group {
                pattern.linear.push((table[s], 1.0));
            }
            // Every order of the group equally likely: the j-th of the
            // group is picked from the remaining seats less a random
            // subset of j - 1 of the group.
            for subset in 0u32..(1u32 << m) - 1 {
                let taken: Vec<usize> = (0..m)
                    .filter(|i| subset & (1 << i) != 0)
                    .map(|i| group[i])
                    .collect();
                let members: Vec<usize> = remaining
                    .iter()
                    .filter(|s| !taken.contains(s))
                    .map(|&s| table[s])
                    .collect();
                pattern.terms.push(Term {
                    weight: 1.0 / choose(m, taken.len()),
                    members,
                });
            }
            remaining.retain(|s| !group.contains(s));
        }
        Ok(pattern)
    }

    /// The log-likelihood, its gradient (added to `grad`) and Hessian
    /// (added to `hess`, when given), each times `count`.
    fn eval(
        &self,
        theta: &[f64],
        count: f64,
        grad: &mut [f64],
        mut hess: Option<&mut [Vec<f64>]>,
    ) -> f64 {
        let mut value = 0.0;
        for &(b, c) in &self.linear {
            value += c * theta[b];
            grad[b] += count * c;
        }
        let mut probs: Vec<(usize, f64)> = Vec::with_capacity(MAX_TABLE);
        for t in &self.terms {
            let top = t
                .members
                .iter()
                .map(|&b| theta[b])
                .fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = t.members.iter().map(|&b| (theta[b] - top).exp()).sum();
            value -= t.weight * (top + sum.ln());
            // The share of each bot among the members (a bot may sit twice).
            probs.clear();
            for &b in &t.members {
                let x = (theta[b] - top).exp() / sum;
                match probs.iter_mut().find(|(c, _)| *c == b) {
                    Some(e) => e.1 += x,
                    None => probs.push((b, x)),
                }
            }
            let w = count * t.weight;
            for &(b, x) in &probs {
                grad[b] -= w * x;
            }
            if let Some(h) = hess.as_deref_mut() {
                for &(b, x) in &probs {
                    h[b][b] -= w * x;
                    for &(c, y) in &probs {
                        h[b][c] += w * x * y;
                    }
                }
            }
        }
        count * value
    }
}

/// The fitted strengths and their covariance.
#[derive(Debug, Clone)]
pub struct Fit {
    pub model: Model,
    /// Each bot's strength in natural-log units, the anchor's 0.
    pub theta: Vec<f64>,
    /// The covariance of `theta` (sandwich over deals); the anchor's row
    /// and column are 0.
    pub cov: Vec<Vec<f64>>,
    /// The inverse of the observed information: the covariance if every
    /// game were independent of every other (for comparison only).
    pub model_cov: Vec<Vec<f64>>,
    /// Blocks (deals) fitted.
    pub blocks: u64,
    /// Games each bot sat at.
    pub games: Vec<u64>,
    pub anchor: usize,
}

/// Solve `a x = b` for a symmetric positive definite `a` (Cholesky);
/// `None` when `a` is not.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let d = a[i][i] - s;
                if d.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                    return None;
                }
                l[i][j] = d.sqrt();
            } else {
                l[i][j] = (a[i][j] - s) / l[j][j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
    }
    Some(x)
}

/// The inverse of a symmetric positive definite matrix.
fn inverse(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut cols = Vec::with_capacity(n);
    for j in 0..n {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        cols.push(solve(a, &e)?);
    }
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| cols[j][i]).collect())
            .collect(),
    )
}

/// The games of a run, compiled: distinct patterns, how often each came,
/// and which came on each deal.
struct Data {
    bots: usize,
    patterns: Vec<Pattern>,
    counts: Vec<f64>,
    blocks: Vec<Vec<usize>>,
    prior: Vec<Pattern>,
}

impl Data {
    /// The log-likelihood with the prior, its gradient and Hessian.
    fn eval(&self, theta: &[f64], hess: bool) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
        let k = self.bots;
        let mut g = vec![0.0; k];
        let mut h = vec![vec![0.0; k]; k];
        let mut value = 0.0;
        let all = self
            .patterns
            .iter()
            .zip(&self.counts)
            .chain(self.prior.iter().map(|p| (p, &PRIOR_DRAWS)));
        for (p, &c) in all {
            value += p.eval(theta, c, &mut g, hess.then_some(&mut h[..]));
        }
        (value, g, h)
    }
}

/// Fit the strengths of `bots` bots from the places of every game of
/// `finishes` at `tables` (per table, the bot at each seat; the places of
/// game `i` are in table order), `anchor` fixed at 0.
pub fn fit(
    tables: &[Vec<usize>],
    finishes: &Finishes,
    bots: usize,
    anchor: usize,
) -> Result<Fit, RatingsError> {
    if bots < 2 {
        return Err(RatingsError::TooFewBots(bots));
    }
    if anchor >= bots {
        return Err(RatingsError::Anchor { anchor, bots });
    }
    for (i, t) in tables.iter().enumerate() {
        if !(2..=MAX_TABLE).contains(&t.len()) {
            return Err(RatingsError::TableSize {
                table: i + 1,
                players: t.len(),
            });
        }
        if let Some(&b) = t.iter().find(|&&b| b >= bots) {
            return Err(RatingsError::UnknownBot {
                table: i + 1,
                bot: b,
                bots,
            });
        }
    }
    if finishes.is_empty() {
        return Err(RatingsError::NoGames);
    }
    let mut ids: HashMap<(usize, &Placing), usize> = HashMap::new();
    let mut data = Data {
        bots,
        patterns: Vec::new(),
        counts: Vec::new(),
        blocks: Vec::with_capacity(finishes.len()),
        prior: Vec::new(),
    };
    let mut games = vec![0u64; bots];
    for (&game, placings) in &finishes.0 {
        if placings.len() != tables.len() {
            return Err(RatingsError::BadGame {
                game,
                what: format!(
                    "{} tables' places, the run has {} tables",
                    placings.len(),
                    tables.len()
                ),
            });
        }
        let mut block = Vec::with_capacity(tables.len());
        for (t, placing) in placings.iter().enumerate() {
            let id = match ids.get(&(t, placing)) {
                Some(&id) => id,
                None => {
                    let p = Pattern::compile(&tables[t], placing).map_err(|what| {
                        RatingsError::BadGame {
                            game,
                            what: format!("table {}: {what}", t + 1),
                        }
                    })?;
                    data.patterns.push(p);
                    data.counts.push(0.0);
                    ids.insert((t, placing), data.patterns.len() - 1);
                    data.patterns.len() - 1
                }
            };
            data.counts[id] += 1.0;
            block.push(id);
            let mut seen = tables[t].clone();
            seen.sort_unstable();
            seen.dedup();
            for b in seen {
                games[b] += 1;
            }
        }
        data.blocks.push(block);
    }
    for a in 0..bots {
        for b in a + 1..bots {
            let draw = Placing(vec![1, 1]);
            if let Ok(p) = Pattern::compile(&[a, b], &draw) {
                data.prior.push(p);
            }
        }
    }
    let free: Vec<usize> = (0..bots).filter(|&b| b != anchor).collect();
    let sub = |h: &[Vec<f64>]| -> Vec<Vec<f64>> {
        free.iter()
            .map(|&i| free.iter().map(|&j| -h[i][j]).collect())
            .collect()
    };
    let mut theta = vec![0.0; bots];
    let (mut value, mut g, mut h) = data.eval(&theta, true);
    let max_steps = 200;
    let mut converged = false;
    for _ in 0..max_steps {
        let gf: Vec<f64> = free.iter().map(|&i| g[i]).collect();
        let Some(step) = solve(&sub(&h), &gf) else {
            return Err(RatingsError::NotConverged(0));
        };
        let mut scale = 1.0;
        let mut accepted = false;
        for _ in 0..60 {
            let mut next = theta.clone();
            for (&i, d) in free.iter().zip(&step) {
                next[i] += scale * d;
            }
            let (v, g2, h2) = data.eval(&next, true);
            if v >= value - 1e-12 * value.abs().max(1.0) {
                theta = next;
                (value, g, h) = (v, g2, h2);
                accepted = true;
                break;
            }
            scale /= 2.0;
        }
        let size = step.iter().fold(0.0f64, |m, d| m.max(d.abs())) * scale;
        if !accepted || size < 1e-10 {
            converged = true;
            break;
        }
    }
    if !converged {
        return Err(RatingsError::NotConverged(max_steps));
    }
    let info = sub(&h);
    let inv = inverse(&info).ok_or(RatingsError::NotConverged(max_steps))?;
    // The meat: every deal's gradient at the fit, and the prior's.
    let mut per_pattern = Vec::with_capacity(data.patterns.len());
    for p in &data.patterns {
        let mut gp = vec![0.0; bots];
        p.eval(&theta, 1.0, &mut gp, None);
        per_pattern.push(gp);
    }
    let n = free.len();
    let mut meat = vec![vec![0.0; n]; n];
    let mut add = |gb: &[f64]| {
        for (a, &i) in free.iter().enumerate() {
            for (b, &j) in free.iter().enumerate() {
                meat[a][b] += gb[i] * gb[j];
            }
        }
    };
    for block in &data.blocks {
        let mut gb = vec![0.0; bots];
        for &id in block {
            for (x, y) in gb.iter_mut().zip(&per_pattern[id]) {
                *x += y;
            }
        }
        add(&gb);
    }
    let mut g0 = vec![0.0; bots];
    for p in &data.prior {
        p.eval(&theta, PRIOR_DRAWS, &mut g0, None);
    }
    add(&g0);
    let blocks = data.blocks.len() as u64;
    let small = if blocks > 1 {
        blocks as f64 / (blocks - 1) as f64
    } else {
        f64::INFINITY
    };
    let mut sandwich = vec![vec![0.0; n]; n];
    for a in 0..n {
        for b in 0..n {
            let mut s = 0.0;
            for c in 0..n {
                for d in 0..n {
                    s += inv[a][c] * meat[c][d] * inv[d][b];
                }
            }
            sandwich[a][b] = small * s;
        }
    }
    let full = |m: &[Vec<f64>]| {
        let mut out = vec![vec![0.0; bots]; bots];
        for (a, &i) in free.iter().enumerate() {
            for (b, &j) in free.iter().enumerate() {
                out[i][j] = m[a][b];
            }
        }
        out
    };
    Ok(Fit {
        model: Model::of(tables),
        theta,
        cov: full(&sandwich),
        model_cov: full(&inv),
        blocks,
        games,
        anchor,
    })
}

impl Fit {
    /// The standard error of `θ_a - θ_b` (natural-log units).
    pub fn se(&self, a: usize, b: usize) -> f64 {
        let v = self.cov[a][a] + self.cov[b][b] - 2.0 * self.cov[a][b];
        v.max(0.0).sqrt()
    }

    /// The 0.975 quantile the intervals use: Student's t with one degree
    /// of freedom less than the deals (infinite below two deals).
    pub fn quantile(&self) -> f64 {
        t95(self.blocks.saturating_sub(1))
    }

    /// The 95 % interval of `θ_a - θ_b` (natural-log units).
    pub fn interval(&self, a: usize, b: usize) -> (f64, f64) {
        let d = self.theta[a] - self.theta[b];
        let h = self.quantile() * self.se(a, b);
        (d - h, d + h)
    }
}

/// One bot's rating.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BotRating {
    /// The bot as given (`mc:50`; a name given twice gets ` #2`).
    pub name: String,
    /// Rating points (400·log10 of its strength), the anchor's 0.
    pub rating: f64,
    /// The 95 % interval (`None` below two deals; the anchor's is 0..0).
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// Games it sat at.
    pub games: u64,
    /// Whether it is the anchor (fixed at 0).
    pub anchor: bool,
}

/// Two bots compared: the first rated higher.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairRating {
    pub a: String,
    pub b: String,
    /// Rating points of `a` minus `b`, with its 95 % interval.
    pub difference: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The model's share of two-player games `a` wins against `b`, with
    /// the interval of the difference carried over.
    pub share: f64,
    pub share_low: Option<f64>,
    pub share_high: Option<f64>,
    /// Whether the interval of the difference excludes 0: `a` beats `b`,
    /// decided at the 95 % level (each pair on its own).
    pub decided: bool,
}

/// The ratings of a ladder.
#[derive(Debug, Clone, Serialize)]
pub struct Ratings {
    /// `bradley-terry` or `plackett-luce`.
    pub model: Model,
    /// The interval method in words.
    pub method: String,
    pub confidence: f64,
    /// The bot fixed at 0.
    pub anchor: String,
    /// Deals (blocks of games on one seed) the fit used.
    pub deals: u64,
    /// Drawn games added between every two bots.
    pub prior_draws: f64,
    /// Best first.
    pub bots: Vec<BotRating>,
    /// Every two bots, the higher rated first, in the order of `bots`.
    pub pairs: Vec<PairRating>,
}

/// A model's share of wins for a difference of `d` rating points.
pub fn share(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

/// Names made unique: a name given again gets ` #2`, ` #3` ...
pub fn unique_names(names: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(names.len());
    for (i, n) in names.iter().enumerate() {
        let before = names[..i].iter().filter(|m| *m == n).count();
        out.push(if before == 0 {
            n.clone()
        } else {
            format!("{n} #{}", before + 1)
        });
    }
    out
}

impl Ratings {
    /// The ratings of a fit, the bots named by `names`.
    pub fn of(fit: &Fit, names: &[String]) -> Ratings {
        let names = unique_names(names);
        let name = |i: usize| names.get(i).cloned().unwrap_or_else(|| format!("bot {i}"));
        let intervals = fit.blocks >= 2;
        let mut order: Vec<usize> = (0..fit.theta.len()).collect();
        order.sort_by(|&a, &b| fit.theta[b].total_cmp(&fit.theta[a]).then(a.cmp(&b)));
        let bots = order
            .iter()
            .map(|&i| {
                let (lo, hi) = fit.interval(i, fit.anchor);
                BotRating {
                    name: name(i),
                    rating: SCALE * fit.theta[i],
                    low: intervals.then_some(SCALE * lo),
                    high: intervals.then_some(SCALE * hi),
                    games: fit.games[i],
                    anchor: i == fit.anchor,
                }
            })
            .collect();
        let mut pairs = Vec::new();
        for (x, &a) in order.iter().enumerate() {
            for &b in &order[x + 1..] {
                let (lo, hi) = fit.interval(a, b);
                let d = SCALE * (fit.theta[a] - fit.theta[b]);
                let (lo, hi) = (SCALE * lo, SCALE * hi);
                pairs.push(PairRating {
                    a: name(a),
                    b: name(b),
                    difference: d,
                    low: intervals.then_some(lo),
                    high: intervals.then_some(hi),
                    share: share(d),
                    share_low: intervals.then_some(share(lo)),
                    share_high: intervals.then_some(share(hi)),
                    decided: intervals && (lo > 0.0 || hi < 0.0),
                });
            }
        }
        Ratings {
            model: fit.model,
            method: METHOD.into(),
            confidence: 0.95,
            anchor: name(fit.anchor),
            deals: fit.blocks,
            prior_draws: PRIOR_DRAWS,
            bots,
            pairs,
        }
    }
}

/// The next order of `v` in lexicographic order (`false` after the last):
/// from a sorted list, every distinct order once.
fn next_order(v: &mut [usize]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let Some(j) = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]) else {
        return false;
    };
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// The sets of bots that fill a table of `players` seats: every
/// combination of `players` of the `bots` (in increasing order), or with
/// fewer bots than seats, the bots in turn until the seats are full.
fn sets(bots: usize, players: usize) -> Vec<Vec<usize>> {
    let mut sets: Vec<Vec<usize>> = Vec::new();
    if bots == 0 || players == 0 {
        return sets;
    }
    if bots <= players {
        let mut set: Vec<usize> = (0..players).map(|s| s % bots).collect();
        set.sort_unstable();
        sets.push(set);
        return sets;
    }
    let mut c: Vec<usize> = (0..players).collect();
    loop {
        sets.push(c.clone());
        let Some(i) = (0..players).rev().find(|&i| c[i] < bots - players + i) else {
            break;
        };
        c[i] += 1;
        for j in i + 1..players {
            c[j] = c[j - 1] + 1;
        }
    }
    sets
}

/// The tables of a ladder of `bots` bots at `players` seats (per table,
/// the bot at each seat): every set of bots that fills the seats ([`sets`])
/// in every order of its seats (each distinct order once, in
/// lexicographic order). Every bot sits in every seat equally often, and
/// for any two bots, each sits before the other, and at each distance
/// from it round the table, equally often: with rotations alone, a bot
/// would always follow the same neighbour.
pub fn tables(bots: usize, players: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for mut set in sets(bots, players) {
        loop {
            out.push(set.clone());
            if !next_order(&mut set) {
                break;
            }
        }
    }
    out
}

/// How many tables [`tables`] makes, without making them (saturating).
pub fn table_count(bots: usize, players: usize) -> u128 {
    let factorial = |n: usize| (1..=n as u128).fold(1u128, |f, i| f.saturating_mul(i));
    if bots == 0 || players == 0 {
        return 0;
    }
    if bots <= players {
        // Distinct orders of a multiset: players! / Π (copies of each)!.
        let copies = (0..bots).map(|b| (players - b).div_ceil(bots));
        return copies.fold(factorial(players), |n, c| n / factorial(c));
    }
    let mut c: u128 = 1;
    for i in 0..players as u128 {
        c = c.saturating_mul(bots as u128 - i) / (i + 1);
    }
    c.saturating_mul(factorial(players))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small, seeded random stream (splitmix64) for synthetic games.
    struct Rand(u64);

    impl Rand {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        /// Uniform in (0, 1).
        fn unit(&mut self) -> f64 {
            ((self.next() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
        }

        fn gumbel(&mut self) -> f64 {
            -(-self.unit().ln()).ln()
        }
    }

    fn outcome(scores: Vec<f64>, winners: Vec<u32>) -> Outcome {
        Outcome {
            players: scores.len() as u32,
            scores,
            winners,
            teams: None,
            rounds: 1,
            decisions: 1,
            metrics: Vec::new(),
            players_at: None,
        }
    }

    #[test]
    fn places_follow_the_winners_then_the_scores_the_way_the_game_counts() {
        // Most points win; seats 3 and 4 tie for third.
        let p = Placing::of(&outcome(vec![5.0, 9.0, 1.0, 1.0], vec![2]));
        assert_eq!(p.0, vec![2, 1, 3, 3]);
        // Fewest points win.
        let p = Placing::of(&outcome(vec![5.0, 0.0, 1.0, 7.0], vec![2]));
        assert_eq!(p.0, vec![3, 1, 2, 4]);
        // A shared win, then the rest.
        let p = Placing::of(&outcome(vec![4.0, 4.0, 1.0], vec![1, 2]));
        assert_eq!(p.0, vec![1, 1, 3]);
        // A winner neither highest nor lowest: the others are not placed.
        let p = Placing::of(&outcome(vec![5.0, 3.0, 1.0], vec![2]));
        assert_eq!(p.0, vec![0, 1, 0]);
        // Nobody won: everyone ties.
        let p = Placing::of(&outcome(vec![0.0, 0.0], vec![]));
        assert_eq!(p.0, vec![1, 1]);
        // A tie-broken win: the loser with the winner's score comes second.
        let p = Placing::of(&outcome(vec![3.0, 3.0], vec![1]));
        assert_eq!(p.0, vec![1, 2]);
    }

    #[test]
    fn a_shared_win_of_two_is_half_a_win_for_each() {
        let theta = [0.3, -0.4];
        let tie = Pattern::compile(&[0, 1], &Placing(vec![1, 1])).expect("tie");
        let win = Pattern::compile(&[0, 1], &Placing(vec![1, 2])).expect("win");
        let loss = Pattern::compile(&[0, 1], &Placing(vec![2, 1])).expect("loss");
        let mut g = [0.0; 2];
        let v = |p: &Pattern, g: &mut [f64]| p.eval(&theta, 1.0, g, None);
        let t = v(&tie, &mut g);
        let half = 0.5 * v(&win, &mut [0.0; 2]) + 0.5 * v(&loss, &mut [0.0; 2]);
        assert!((t - half).abs() < 1e-12, "{t} {half}");
        // A win is log P(a beats b) of Bradley-Terry.
        let p = 1.0 / (1.0 + (theta[1] - theta[0]).exp());
        assert!((v(&win, &mut [0.0; 2]) - p.ln()).abs() < 1e-12);
    }

    #[test]
    fn gradients_and_hessians_match_finite_differences_with_ties() {
        // Four seats, bot 1 twice: a tie for first, one second, one not placed.
        let table = [0, 1, 2, 1];
        let placing = Placing(vec![1, 0, 1, 3]);
        let p = Pattern::compile(&table, &placing).expect("pattern");
        let theta = [0.2, -0.5, 0.9];
        let mut g = vec![0.0; 3];
        let mut h = vec![vec![0.0; 3]; 3];
        p.eval(&theta, 1.0, &mut g, Some(&mut h));
        let e = 1e-5;
        for i in 0..3 {
            let mut up = theta;
            let mut down = theta;
            up[i] += e;
            down[i] -= e;
            let (mut gu, mut gd) = (vec![0.0; 3], vec![0.0; 3]);
            let fu = p.eval(&up, 1.0, &mut gu, None);
            let fd = p.eval(&down, 1.0, &mut gd, None);
            assert!((g[i] - (fu - fd) / (2.0 * e)).abs() < 1e-6, "grad {i}");
            for j in 0..3 {
                let num = (gu[j] - gd[j]) / (2.0 * e);
                assert!((h[i][j] - num).abs() < 1e-5, "hessian {i},{j}");
            }
        }
        // The probabilities of every order of a table sum to 1.
        let table = [0, 1, 2];
        let mut total = 0.0;
        for order in [
            [1, 2, 3],
            [1, 3, 2],
            [2, 1, 3],
            [2, 3, 1],
            [3, 1, 2],
            [3, 2, 1],
        ] {
            let p = Pattern::compile(&table, &Placing(order.to_vec())).expect("order");
            total += p.eval(&theta, 1.0, &mut [0.0; 3], None).exp();
        }
        assert!((total - 1.0).abs() < 1e-12, "{total}");
    }

    #[test]
    fn tables_seat_every_bot_in_every_seat_and_at_every_distance_equally() {
        for (bots, players) in [(4, 2), (5, 3), (4, 4), (2, 4), (3, 4), (6, 4), (3, 3)] {
            let t = tables(bots, players);
            assert_eq!(
                t.len() as u128,
                table_count(bots, players),
                "{bots} {players}"
            );
            let mut distinct = t.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), t.len());
            for b in 0..bots {
                let per_seat: Vec<usize> = (0..players)
                    .map(|s| t.iter().filter(|row| row[s] == b).count())
                    .collect();
                assert!(
                    per_seat.iter().all(|&c| c == per_seat[0] && c > 0),
                    "{bots} bots, {players} players, bot {b}: {per_seat:?}"
                );
            }
            // Each bot at each distance (round the table) from each other.
            for a in 0..bots {
                for b in 0..bots {
                    if a == b || bots < players {
                        continue;
                    }
                    let mut at = vec![0; players];
                    for row in t.iter() {
                        let (Some(x), Some(y)) = (
                            row.iter().position(|&v| v == a),
                            row.iter().position(|&v| v == b),
                        ) else {
                            continue;
                        };
                        at[(y + players - x) % players] += 1;
                    }
                    assert!(at[1..].iter().all(|&c| c == at[1]), "{a} {b}: {at:?}");
                }
            }
        }
        assert_eq!(
            tables(3, 2),
            vec![
                vec![0, 1],
                vec![1, 0],
                vec![0, 2],
                vec![2, 0],
                vec![1, 2],
                vec![2, 1]
            ]
        );
        assert_eq!(table_count(2, 4), 6);
        assert_eq!(table_count(3, 4), 12);
        assert_eq!(table_count(6, 6), 720);
    }

    /// How the games of one deal depend on each other.
    #[derive(Clone, Copy, PartialEq)]
    enum Deal {
        /// Every game independent.
        Independent,
        /// One number per deal decides every game: the deal favours the
        /// first seat in every seating (luck the change of seats cancels).
        SeatLuck,
        /// One number per deal decides every game: the deal favours the
        /// stronger bot in every game (luck that does not cancel).
        FavouriteLuck,
    }

    /// Games of two-player tables between bots of strengths `theta`: every
    /// table of [`tables`], `deals` deals.
    fn two_player_games(theta: &[f64], deals: u64, deal: Deal, r: &mut Rand) -> Finishes {
        let t = tables(theta.len(), 2);
        let mut f = Finishes::default();
        for i in 0..deals {
            let u = r.unit();
            let placings = t
                .iter()
                .map(|row| {
                    let (a, b) = (row[0], row[1]);
                    let p_first = 1.0 / (1.0 + (theta[b] - theta[a]).exp());
                    let first_wins = match deal {
                        Deal::Independent => r.unit() < p_first,
                        Deal::SeatLuck => u < p_first,
                        Deal::FavouriteLuck => {
                            if theta[a] >= theta[b] {
                                u < p_first
                            } else {
                                u >= 1.0 - p_first
                            }
                        }
                    };
                    Placing(if first_wins { vec![1, 2] } else { vec![2, 1] })
                })
                .collect();
            f.0.insert(i, placings);
        }
        f
    }

    /// The share of (run, bot) where the interval of the bot's rating
    /// against the anchor (bot 0) holds its true value, over `runs` runs;
    /// and the same for the intervals the model's own covariance gives.
    fn coverage(
        theta: &[f64],
        runs: usize,
        mut games: impl FnMut(&mut Rand) -> Finishes,
        players: usize,
    ) -> (f64, f64, f64) {
        let t = tables(theta.len(), players);
        let mut r = Rand(7);
        // Printed with --nocapture: the rates docs/skill.md quotes.
        let (mut hit, mut model_hit, mut width, mut total) = (0, 0, 0.0, 0);
        for _ in 0..runs {
            let f = games(&mut r);
            let fit = fit(&t, &f, theta.len(), 0).expect("fit");
            for b in 1..theta.len() {
                let truth = theta[b] - theta[0];
                let (lo, hi) = fit.interval(b, 0);
                hit += (lo <= truth && truth <= hi) as usize;
                let d = fit.theta[b];
                let h = fit.quantile() * fit.model_cov[b][b].sqrt();
                model_hit += (d - h <= truth && truth <= d + h) as usize;
                width += hi - lo;
                total += 1;
            }
        }
        let rates = (
            hit as f64 / total as f64,
            model_hit as f64 / total as f64,
            width / total as f64,
        );
        eprintln!("{runs} runs: coverage, the model's own, mean width: {rates:?}");
        rates
    }

    #[test]
    fn bradley_terry_recovers_known_strengths_95_times_in_100() {
        // Ratings 0, 100, 250 and 500 points: 1000 runs of 100 deals of
        // the 12 tables (every pair, both seat orders).
        let theta: Vec<f64> = [0.0, 100.0, 250.0, 500.0]
            .iter()
            .map(|r| r / SCALE)
            .collect();
        let (cover, _, _) = coverage(
            &theta,
            1000,
            |r| two_player_games(&theta, 100, Deal::Independent, r),
            2,
        );
        assert!((0.935..=0.965).contains(&cover), "coverage {cover}");
    }

    #[test]
    fn luck_of_the_deal_is_counted_by_the_blocks() {
        let theta: Vec<f64> = [0.0, 80.0, 200.0].iter().map(|r| r / SCALE).collect();
        let runs = 1000;
        let (_, _, independent_width) = coverage(
            &theta,
            runs,
            |r| two_player_games(&theta, 100, Deal::Independent, r),
            2,
        );
        // Luck the change of seats cancels: still about 95 %, with intervals
        // narrower than those that take every game as independent (which
        // cover more than they say).
        let (cover, model_cover, width) = coverage(
            &theta,
            runs,
            |r| two_player_games(&theta, 100, Deal::SeatLuck, r),
            2,
        );
        assert!((0.935..=0.97).contains(&cover), "seat luck: {cover}");
        assert!(model_cover >= cover, "seat luck, model: {model_cover}");
        assert!(
            width < 0.9 * independent_width,
            "{width} {independent_width}"
        );
        // Luck that favours the same bot in every game of a deal: still
        // about 95 %, where the model's own intervals fall well short.
        let (cover, model_cover, _) = coverage(
            &theta,
            runs,
            |r| two_player_games(&theta, 100, Deal::FavouriteLuck, r),
            2,
        );
        assert!((0.935..=0.97).contains(&cover), "favourite luck: {cover}");
        assert!(model_cover < 0.85, "favourite luck, model: {model_cover}");
    }

    /// Four-player games of Plackett-Luce: each seat's performance is its
    /// strength plus Gumbel noise, and the seats finish in its order.
    fn four_player_games(theta: &[f64], deals: u64, r: &mut Rand) -> Finishes {
        let t = tables(theta.len(), 4);
        let mut f = Finishes::default();
        for i in 0..deals {
            let placings = t
                .iter()
                .map(|row| {
                    let perf: Vec<f64> = row.iter().map(|&b| theta[b] + r.gumbel()).collect();
                    Placing(
                        (0..4)
                            .map(|s| 1 + (0..4).filter(|&o| perf[o] > perf[s]).count() as u8)
                            .collect(),
                    )
                })
                .collect();
            f.0.insert(i, placings);
        }
        f
    }

    #[test]
    fn plackett_luce_recovers_known_strengths_95_times_in_100() {
        // Four bots at four-player tables: the 24 orders of their seats.
        let theta: Vec<f64> = [0.0, 50.0, 150.0, 300.0]
            .iter()
            .map(|r| r / SCALE)
            .collect();
        let (cover, _, _) = coverage(&theta, 400, |r| four_player_games(&theta, 60, r), 4);
        assert!((0.935..=0.965).contains(&cover), "coverage {cover}");
    }

    #[test]
    fn equal_bots_have_differences_that_cover_0_95_times_in_100() {
        let theta = [0.0; 3];
        let t = tables(3, 2);
        let mut r = Rand(11);
        let (mut covered, mut decided, mut total) = (0, 0, 0);
        for _ in 0..1000 {
            let f = two_player_games(&theta, 100, Deal::Independent, &mut r);
            let fit = fit(&t, &f, 3, 0).expect("fit");
            let ratings = Ratings::of(&fit, &["a".into(), "b".into(), "c".into()]);
            for p in &ratings.pairs {
                let (lo, hi) = (p.low.expect("low"), p.high.expect("high"));
                covered += (lo <= 0.0 && 0.0 <= hi) as usize;
                decided += p.decided as usize;
                total += 1;
            }
        }
        let cover = covered as f64 / total as f64;
        eprintln!("equal bots: {cover} of the differences cover 0");
        assert!((0.935..=0.965).contains(&cover), "coverage {cover}");
        assert_eq!(covered + decided, total);
    }

    #[test]
    fn a_bot_that_never_loses_gets_a_finite_rating_and_a_wide_interval() {
        let t = tables(2, 2);
        let mut f = Finishes::default();
        for i in 0..200 {
            f.0.insert(i, vec![Placing(vec![1, 2]), Placing(vec![2, 1])]);
        }
        let fit = fit(&t, &f, 2, 1).expect("fit");
        let r = Ratings::of(&fit, &["strong".into(), "weak".into()]);
        let strong = &r.bots[0];
        assert_eq!(strong.name, "strong");
        assert!(
            strong.rating > 600.0 && strong.rating.is_finite(),
            "{strong:?}"
        );
        let width = strong.high.expect("high") - strong.low.expect("low");
        assert!(width > 200.0, "{strong:?}");
        assert!(r.pairs[0].decided);
        // Identical games on every deal: exactly equal ratings, no width.
        let mut f = Finishes::default();
        for i in 0..50 {
            f.0.insert(i, vec![Placing(vec![1, 2]), Placing(vec![1, 2])]);
        }
        let fit = super::fit(&t, &f, 2, 0).expect("fit");
        assert_eq!(fit.theta, vec![0.0, 0.0]);
        let (lo, hi) = fit.interval(0, 1);
        assert_eq!((lo, hi), (0.0, 0.0));
    }

    #[test]
    fn bad_games_are_named() {
        let t = tables(2, 2);
        let mut f = Finishes::default();
        f.0.insert(4, vec![Placing(vec![1, 2])]);
        assert!(matches!(
            fit(&t, &f, 2, 0),
            Err(RatingsError::BadGame { game: 4, .. })
        ));
        f.0.insert(4, vec![Placing(vec![1, 2]), Placing(vec![1, 9])]);
        let e = fit(&t, &f, 2, 0).err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("game 4: table 2: place 9 at a table of 2 players")
        );
        assert_eq!(
            fit(&t, &Finishes::default(), 2, 0).err(),
            Some(RatingsError::NoGames)
        );
        assert_eq!(
            unique_names(&["mc".into(), "mc".into(), "x".into()]),
            vec!["mc".to_string(), "mc #2".into(), "x".into()]
        );
    }
}
