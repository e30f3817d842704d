//! Streaming statistics that merge exactly: a statistic over games is a
//! count, an exact sum and an exact sum of squares, so two partial results
//! over disjoint sets of games combine into exactly the result of one run
//! over all of them, in any order (the basis of `-j` giving the same
//! numbers as one thread, and of shards merged later).
//!
//! Intervals (95 %): the Wilson score interval for a proportion (every
//! value 0 or 1: a win, a boolean metric), Student's t interval
//! (mean ± t·s/√n) for any other mean, and so for the per-seed paired
//! differences between two arms.

use serde::{Deserialize, Serialize};

/// The chance a 95 % interval misses.
pub const ALPHA: f64 = 0.05;

/// z for a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A sum of floating-point numbers kept exactly, as a list of
/// non-overlapping partial sums (Shewchuk's algorithm, as in Python's
/// `math.fsum`), read correctly rounded. The list stays short (one to
/// three numbers for game statistics), and the value read does not depend
/// on the order the numbers were added or sums merged.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ExactSum {
    partials: Vec<f64>,
}

/// Two sums are equal when their exact values are, however the numbers
/// were grouped into partial sums (which depends on the order of adding).
impl PartialEq for ExactSum {
    fn eq(&self, other: &ExactSum) -> bool {
        let mut difference = self.clone();
        for &p in &other.partials {
            difference.add(-p);
        }
        difference.value() == 0.0
    }
}

impl ExactSum {
    /// Add a finite number.
    pub fn add(&mut self, x: f64) {
        let mut x = x;
        let mut i = 0;
        for j in 0..self.partials.len() {
            let mut y = self.partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                self.partials[i] = lo;
                i += 1;
            }
            x = hi;
        }
        self.partials.truncate(i);
        self.partials.push(x);
    }

    /// Add every number of another sum.
    pub fn merge(&mut self, other: &ExactSum) {
        for &p in &other.partials {
            self.add(p);
        }
    }

    /// The sum, correctly rounded to the nearest `f64`.
    pub fn value(&self) -> f64 {
        let p = &self.partials;
        let mut n = p.len();
        if n == 0 {
            return 0.0;
        }
        n -= 1;
        let mut hi = p[n];
        let mut lo = 0.0;
        while n > 0 {
            let x = hi;
            n -= 1;
            let y = p[n];
            hi = x + y;
            let yr = hi - x;
            lo = y - yr;
            if lo != 0.0 {
                break;
            }
        }
        // Round half to even across the partials left below.
        if n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0)) {
            let y = lo * 2.0;
            let x = hi + y;
            if y == x - hi {
                hi = x;
            }
        }
        hi
    }
}

/// How an interval was computed (named in every report).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Wilson score interval of a proportion.
    Wilson,
    /// Student's t interval of a mean: mean ± t(n-1)·s/√n.
    StudentT,
}

impl Method {
    /// The method in words, as reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Method::Wilson => "Wilson score",
            Method::StudentT => "Student t",
        }
    }
}

/// A mean with its 95 % interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Games the value applies to.
    pub n: u64,
    pub mean: f64,
    /// Sample standard deviation (0 below two games).
    pub sd: f64,
    /// The interval's bounds; `None` below two games for a t interval.
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub method: Method,
}

impl Estimate {
    /// Half the interval's width (`None` without an interval).
    pub fn half_width(&self) -> Option<f64> {
        Some((self.high? - self.low?) / 2.0)
    }

    /// Whether the interval lies wholly above or below 0.
    pub fn excludes_zero(&self) -> bool {
        matches!((self.low, self.high), (Some(l), Some(h)) if l > 0.0 || h < 0.0)
    }
}

/// One statistic over games: how many, their exact sum and sum of squares,
/// whether every value was 0 or 1 (a proportion), and the extremes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    pub n: u64,
    sum: ExactSum,
    sum_sq: ExactSum,
    /// Every value so far was 0 or 1.
    pub binary: bool,
    pub min: f64,
    pub max: f64,
}

impl Default for Stat {
    fn default() -> Self {
        Stat {
            n: 0,
            sum: ExactSum::default(),
            sum_sq: ExactSum::default(),
            binary: true,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        }
    }
}

impl Stat {
    /// Add one game's value (a value that is not finite is left out).
    pub fn add(&mut self, x: f64) {
        if !x.is_finite() {
            return;
        }
        self.n += 1;
        self.sum.add(x);
        self.sum_sq.add(x * x);
        self.binary &= x == 0.0 || x == 1.0;
        self.min = self.min.min(x);
        self.max = self.max.max(x);
    }

    /// Add every game of another statistic.
    pub fn merge(&mut self, o: &Stat) {
        self.n += o.n;
        self.sum.merge(&o.sum);
        self.sum_sq.merge(&o.sum_sq);
        self.binary &= o.binary;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }

    /// The sum of the values.
    pub fn sum(&self) -> f64 {
        self.sum.value()
    }

    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        self.sum.value() / self.n as f64
    }

    /// Sample variance (0 below two games).
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        let s = self.sum.value();
        ((self.sum_sq.value() - s * s / n) / (n - 1.0)).max(0.0)
    }

    /// The mean with its 95 % interval: Wilson's for a proportion, else
    /// Student's t.
    pub fn estimate(&self) -> Estimate {
        self.estimate_with(self.binary)
    }

    /// The mean with Student's t interval, whatever the values (paired
    /// differences: values of -1, 0 and 1, or all 0 for identical arms,
    /// whose interval is then exactly 0..0).
    pub fn estimate_mean(&self) -> Estimate {
        self.estimate_with(false)
    }

    /// The interval of the mean at the two-sided level 1 - `alpha`
    /// (Wilson's for a `proportion`, else Student's t; `None` below two
    /// games for a t interval): the stopping rule of a sequential run looks
    /// at intervals stricter than 95 %.
    pub fn interval_at(&self, proportion: bool, alpha: f64) -> Option<(f64, f64)> {
        let z = z_two_sided(alpha);
        let mean = self.mean();
        if proportion && self.binary && self.n > 0 {
            return Some(wilson_at(mean, self.n, z));
        }
        if self.n < 2 {
            return None;
        }
        let h = t_quantile(self.n - 1, z) * self.variance().sqrt() / (self.n as f64).sqrt();
        Some((mean - h, mean + h))
    }

    fn estimate_with(&self, proportion: bool) -> Estimate {
        let mean = self.mean();
        let sd = self.variance().sqrt();
        let (method, bounds) = if proportion && self.n > 0 {
            (Method::Wilson, Some(wilson(mean, self.n)))
        } else if self.n >= 2 {
            let h = t95(self.n - 1) * sd / (self.n as f64).sqrt();
            (Method::StudentT, Some((mean - h, mean + h)))
        } else {
            (Method::StudentT, None)
        };
        Estimate {
            n: self.n,
            mean,
            sd,
            low: bounds.map(|b| b.0),
            high: bounds.map(|b| b.1),
            method,
        }
    }
}

impl Stat {
    /// Why a statistic read from a file could not have been counted over
    /// at most `games` games whose values lie in `range`: the field at
    /// fault and what is wrong with it (`None` when nothing is). Refused:
    /// more values than games, sums that are not finite or not of the few
    /// partials a real sum has, extremes that are not finite, cross or
    /// leave `range`, a sum whose mean lies outside the extremes (more wins
    /// than games), a sum of squares out of its bounds, a proportion with
    /// values other than 0 and 1. A file that lies is refused rather than
    /// merged: its numbers would print as `NaN%`, and merging it could
    /// overflow the counts or take time without bound.
    pub fn impossible(&self, games: u64, range: (f64, f64)) -> Option<String> {
        /// Non-overlapping partials of f64 sums: about 40 at most.
        const MAX_PARTIALS: usize = 64;
        let n = self.n;
        if n > games {
            return Some(format!("n: {n} values for {games} games"));
        }
        for (field, s) in [("sum", &self.sum), ("sum_sq", &self.sum_sq)] {
            if s.partials.len() > MAX_PARTIALS {
                return Some(format!(
                    "{field}: {} partial sums (a real sum has a few)",
                    s.partials.len()
                ));
            }
            if let Some(x) = s.partials.iter().find(|x| !x.is_finite()) {
                return Some(format!("{field}: a partial sum {x} is not a finite number"));
            }
            if !s.value().is_finite() {
                return Some(format!(
                    "{field}: its partial sums add up beyond the largest number (about 1.8e308)"
                ));
            }
        }
        let (sum, sum_sq) = (self.sum.value(), self.sum_sq.value());
        if sum_sq < 0.0 {
            return Some(format!(
                "sum_sq: {sum_sq}, but a sum of squares is at least 0"
            ));
        }
        if n == 0 {
            return (sum != 0.0 || sum_sq != 0.0)
                .then(|| format!("sum: {sum} with no value counted"));
        }
        let (min, max) = (self.min, self.max);
        if !min.is_finite() {
            return Some(format!("min: {min} is not a finite number"));
        }
        if !max.is_finite() {
            return Some(format!("max: {max} is not a finite number"));
        }
        if min > max {
            return Some(format!("min: {min} is above max {max}"));
        }
        let (lo, hi) = range;
        if min < lo || max > hi {
            return Some(format!(
                "values from {min} to {max}, outside the range of this statistic ({lo} to {hi})"
            ));
        }
        let zero_or_one = |x: f64| x == 0.0 || x == 1.0;
        if self.binary && !(zero_or_one(min) && zero_or_one(max)) {
            return Some(format!(
                "binary: every value 0 or 1, but the values go from {min} to {max}"
            ));
        }
        let count = n as f64;
        let big = min.abs().max(max.abs()).max(1.0);
        let slack = 1e-9 * big;
        let mean = sum / count;
        if mean < min - slack || mean > max + slack {
            return Some(format!(
                "sum: {sum} for {n} values from {min} to {max} (a mean of {mean})"
            ));
        }
        let most = count * (min * min).max(max * max);
        if sum_sq > most * (1.0 + 1e-9) + slack {
            return Some(format!(
                "sum_sq: {sum_sq} for {n} values from {min} to {max} (at most {most})"
            ));
        }
        None
    }

    /// Whether the sums are finite numbers (the sums of shards that were
    /// each possible can still add up beyond the largest number).
    pub fn finite(&self) -> bool {
        self.sum.value().is_finite() && self.sum_sq.value().is_finite()
    }
}

/// Wilson score 95 % interval of a proportion `p` of `n` trials.
pub fn wilson(p: f64, n: u64) -> (f64, f64) {
    wilson_at(p, n, Z95)
}

/// Wilson score interval of a proportion `p` of `n` trials with the normal
/// quantile `z` (1.96 for 95 %).
pub fn wilson_at(p: f64, n: u64, z: f64) -> (f64, f64) {
    let n = n as f64;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The normal quantile of a two-sided interval that misses with
/// probability `alpha` (0.05 → 1.96): the z with P(|Z| > z) = alpha, by
/// Newton's method on the complementary error function.
pub fn z_two_sided(alpha: f64) -> f64 {
    let alpha = alpha.clamp(1e-12, 1.0 - 1e-12);
    // P(|Z| > z) = erfc(z / √2); its derivative in z is -√(2/π)·e^(-z²/2).
    let mut z: f64 = 2.0;
    for _ in 0..60 {
        let f = libm::erfc(z / std::f64::consts::SQRT_2) - alpha;
        let slope = -(2.0 / std::f64::consts::PI).sqrt() * (-z * z / 2.0).exp();
        let step = f / slope;
        z = (z - step).max(0.0);
        if step.abs() < 1e-13 {
            break;
        }
    }
    z
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom: a table
/// up to 30, then the Cornish-Fisher expansion around z (error below 1e-4).
pub fn t95(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
        2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739,
        2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
    ];
    if df == 0 {
        return f64::INFINITY;
    }
    if let Some(t) = TABLE.get(df as usize - 1) {
        return *t;
    }
    t_quantile(df, Z95)
}

/// Student's t quantile with `df` degrees of freedom at the level whose
/// normal quantile is `z`, by the Cornish-Fisher expansion around z (close
/// for the numbers of games a run looks at: below 1e-3 from 30 degrees of
/// freedom at z = 3).
pub fn t_quantile(df: u64, z: f64) -> f64 {
    if df == 0 {
        return f64::INFINITY;
    }
    let d = df as f64;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * d)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * d * d)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * d * d * d)
}

/// The two-sided p-value of Student's t test that a mean is 0, from `n`
/// values with this `mean` and sample standard deviation `sd`: the
/// probability of a |t| as large if the true mean were 0, with the
/// quantiles of [`t_quantile`] (the intervals' own). `None` below two
/// values.
pub fn p_mean_zero(mean: f64, sd: f64, n: u64) -> Option<f64> {
    if n < 2 || !mean.is_finite() || !sd.is_finite() {
        return None;
    }
    if sd == 0.0 {
        return Some(if mean == 0.0 { 1.0 } else { 0.0 });
    }
    let t = mean.abs() / (sd / (n as f64).sqrt());
    // The z whose t quantile is |t| (t_quantile grows with z), by bisection.
    let (mut lo, mut hi) = (0.0_f64, 40.0_f64);
    if t_quantile(n - 1, hi) <= t {
        return Some(0.0);
    }
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if t_quantile(n - 1, mid) < t {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(libm::erfc(lo / std::f64::consts::SQRT_2).clamp(0.0, 1.0))
}

/// The p-values given (with their positions), smallest first.
fn ascending(ps: &[Option<f64>]) -> Vec<(usize, f64)> {
    let mut order: Vec<(usize, f64)> = ps
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|p| (i, p)))
        .collect();
    order.sort_by(|a, b| a.1.total_cmp(&b.1));
    order
}

/// Holm's step-down correction for many tests at once: which of the
/// p-values `ps` are decided when the chance of deciding any one wrongly
/// (the family-wise error) is held to `alpha`. The smallest p-value is
/// tested at alpha/m, the next at alpha/(m-1) ..., stopping at the first
/// that fails. `None` (no test) counts in neither direction.
pub fn holm(ps: &[Option<f64>], alpha: f64) -> Vec<bool> {
    let order = ascending(ps);
    let m = order.len();
    let mut decided = vec![false; ps.len()];
    for (k, (i, p)) in order.into_iter().enumerate() {
        if p > alpha / (m - k) as f64 {
            break;
        }
        decided[i] = true;
    }
    decided
}

/// The Benjamini-Hochberg correction: which of the p-values `ps` are
/// decided when the expected share of wrong decisions among those made
/// (the false discovery rate) is held to `alpha`: the k smallest, for the
/// largest k whose p-value is at most k·alpha/m.
pub fn benjamini_hochberg(ps: &[Option<f64>], alpha: f64) -> Vec<bool> {
    let order = ascending(ps);
    let m = order.len();
    let keep = (1..=m)
        .rev()
        .find(|&k| order[k - 1].1 <= k as f64 * alpha / m as f64)
        .unwrap_or(0);
    let mut decided = vec![false; ps.len()];
    for (i, _) in order.into_iter().take(keep) {
        decided[i] = true;
    }
    decided
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_sum_ignores_order_and_rounding() {
        let xs = [1e16, 1.0, -1e16, 0.1, 0.2, 0.3, 1e-3];
        let mut a = ExactSum::default();
        for x in xs {
            a.add(x);
        }
        let mut b = ExactSum::default();
        for x in xs.iter().rev() {
            b.add(*x);
        }
        assert_eq!(a.value(), b.value());
        assert_eq!(a, b);
        let mut c = b.clone();
        c.add(1e-300);
        assert_ne!(a, c, "equal only when the exact sums are");
        // 1 + 0.1 + 0.2 + 0.3 + 0.001 = 1.601, correctly rounded.
        assert_eq!(a.value(), 1.601);
    }

    #[test]
    fn merged_stats_equal_one_run() {
        let xs: Vec<f64> = (0..1000).map(|i| ((i * 7919) % 97) as f64 / 7.0).collect();
        let mut all = Stat::default();
        xs.iter().for_each(|&x| all.add(x));
        let (mut a, mut b) = (Stat::default(), Stat::default());
        xs[..333].iter().for_each(|&x| a.add(x));
        xs[333..].iter().for_each(|&x| b.add(x));
        b.merge(&a);
        assert_eq!(b.estimate(), all.estimate());
    }

    #[test]
    fn wilson_and_t_match_known_values() {
        // 50 of 100: Wilson 0.4038..0.5962.
        let (lo, hi) = wilson(0.5, 100);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
        // 0 of 10: the interval still has width (0..0.2775).
        let (lo, hi) = wilson(0.0, 10);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-4);
        assert!((t95(40) - 2.0211).abs() < 1e-3);
        assert!((t95(120) - 1.9799).abs() < 1e-3);
        let mut s = Stat::default();
        [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]
            .iter()
            .for_each(|&x| s.add(x));
        let e = s.estimate();
        assert_eq!(e.method, Method::StudentT);
        assert!((e.mean - 5.0).abs() < 1e-12);
        assert!((e.sd - 2.138_089_935).abs() < 1e-6);
        assert!((e.half_width().unwrap_or(0.0) - 2.3646 * e.sd / 8f64.sqrt()).abs() < 1e-9);
    }

    #[test]
    fn quantiles_at_other_levels_match_tables() {
        assert!((z_two_sided(0.05) - Z95).abs() < 1e-9);
        assert!((z_two_sided(0.01) - 2.575_829_3).abs() < 1e-6);
        // Bonferroni over 20 looks: 0.05 / 20.
        assert!((z_two_sided(0.0025) - 3.023_341_1).abs() < 1e-6);
        // t with 40 and 100 degrees of freedom at 99.75 % (two-sided).
        assert!((t_quantile(40, z_two_sided(0.0025)) - 3.2266).abs() < 1e-3);
        assert!((t_quantile(100, z_two_sided(0.0025)) - 3.1018).abs() < 1e-3);
        let mut s = Stat::default();
        (0..100).for_each(|i| s.add((i % 2) as f64));
        let (lo, hi) = s.interval_at(true, 0.05).unwrap_or((0.0, 0.0));
        assert_eq!((lo, hi), wilson(0.5, 100));
        let (lo2, hi2) = s.interval_at(true, 0.0025).unwrap_or((0.0, 0.0));
        assert!(
            lo2 < lo && hi2 > hi,
            "a stricter level gives a wider interval"
        );
    }

    #[test]
    fn p_values_agree_with_the_95_percent_interval() {
        // At 5 % exactly where the interval's bound is 0.
        let (sd, n) = (1.0, 400u64);
        let h = t95(n - 1) * sd / (n as f64).sqrt();
        let at = p_mean_zero(h, sd, n).unwrap_or(f64::NAN);
        assert!((at - 0.05).abs() < 1e-6, "{at}");
        assert!(p_mean_zero(h * 1.01, sd, n).is_some_and(|p| p < 0.05));
        assert!(p_mean_zero(-h * 0.99, sd, n).is_some_and(|p| p > 0.05));
        assert_eq!(p_mean_zero(0.0, 1.0, 100), Some(1.0));
        assert_eq!(p_mean_zero(0.0, 0.0, 100), Some(1.0));
        assert_eq!(p_mean_zero(0.5, 0.0, 100), Some(0.0));
        assert_eq!(p_mean_zero(0.5, 1.0, 1), None);
        // A large t is a tiny p, never negative.
        assert!(p_mean_zero(10.0, 1.0, 1000).is_some_and(|p| (0.0..1e-12).contains(&p)));
    }

    #[test]
    fn holm_and_benjamini_hochberg_keep_what_their_textbook_examples_keep() {
        // Eleven p-values: 5 % alone would decide six of them.
        let ps: Vec<Option<f64>> = [
            0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216, 0.01,
        ]
        .iter()
        .map(|&p| Some(p))
        .collect();
        // Holm: 0.001 <= 0.05/11, then 0.008 > 0.05/10 stops it: one.
        let h = holm(&ps, 0.05);
        let kept: Vec<usize> = (0..ps.len()).filter(|&i| h[i]).collect();
        assert_eq!(kept, vec![0]);
        // Ten p-values of 0.004 and one of 0.5: Holm keeps 0.004 <= 0.05/11
        // ... <= 0.05/2 for all ten.
        let mut same = vec![Some(0.004); 10];
        same.push(Some(0.5));
        assert_eq!(holm(&same, 0.05).iter().filter(|d| **d).count(), 10);
        // BH: the sorted p(k) <= k 0.05 / 11 holds up to k = 3 (0.01 <=
        // 0.0136); 0.039 > 4 * 0.05 / 11 = 0.018 and no later one holds.
        let b = benjamini_hochberg(&ps, 0.05);
        let kept: Vec<usize> = (0..ps.len()).filter(|&i| b[i]).collect();
        assert_eq!(kept, vec![0, 1, 10]);
        // A p-value that is missing is no test.
        let ps = [Some(0.01), None, Some(0.02)];
        assert_eq!(holm(&ps, 0.05), vec![true, false, true]);
        assert_eq!(benjamini_hochberg(&ps, 0.05), vec![true, false, true]);
        assert!(holm(&[], 0.05).is_empty());
    }
}
