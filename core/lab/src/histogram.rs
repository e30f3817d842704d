//! Distributions of whole-number statistics (game length, scores, margin):
//! a count per value, merged exactly like the other statistics. Memory is
//! bounded by the number of distinct values, at most [`MAX_VALUES`]; a
//! value beyond that is counted apart, as "other".

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The most distinct values one histogram keeps.
pub const MAX_VALUES: usize = 4096;

/// How many games had each value (rounded to a whole number).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    pub counts: BTreeMap<i64, u64>,
    /// Values not kept: more than [`MAX_VALUES`] distinct ones, or not
    /// finite.
    pub other: u64,
}

impl Histogram {
    pub fn add(&mut self, x: f64) {
        self.add_count(x, 1);
    }

    fn add_count(&mut self, x: f64, n: u64) {
        if !x.is_finite() || x.abs() > 1e15 {
            self.other += n;
            return;
        }
        let v = x.round() as i64;
        if let Some(c) = self.counts.get_mut(&v) {
            *c += n;
        } else if self.counts.len() < MAX_VALUES {
            self.counts.insert(v, n);
        } else {
            self.other += n;
        }
    }

    pub fn merge(&mut self, o: &Histogram) {
        for (&v, &n) in &o.counts {
            self.add_count(v as f64, n);
        }
        self.other += o.other;
    }

    /// All values counted.
    pub fn total(&self) -> u64 {
        self.counts.values().sum::<u64>() + self.other
    }

    /// The counts in at most `bins` bins of equal width, each as (lowest
    /// value, highest value, count), from the smallest value to the largest.
    /// The width is a whole number of the data's grain (the greatest common
    /// divisor of the values' distances from the smallest: 40 when every
    /// game takes a multiple of 40 decisions), so that no bin is empty for
    /// want of a value it could hold; a bin's highest value is the last of
    /// the grain it holds.
    pub fn bins(&self, bins: usize) -> Vec<(i64, i64, u64)> {
        let (Some((&lo, _)), Some((&hi, _))) =
            (self.counts.first_key_value(), self.counts.last_key_value())
        else {
            return Vec::new();
        };
        let grain = self
            .counts
            .keys()
            .fold(0u64, |g, &v| gcd(g, v.abs_diff(lo)))
            .max(1);
        let steps = (hi.abs_diff(lo) / grain) + 1;
        let width = steps.div_ceil(bins.max(1) as u64).max(1) * grain;
        let (width, grain) = (width as i64, grain as i64);
        let mut out: Vec<(i64, i64, u64)> = Vec::new();
        let mut start = lo;
        while start <= hi {
            let end = start + width - grain;
            let n = self.counts.range(start..=end).map(|(_, n)| n).sum();
            out.push((start, end.min(hi), n));
            start += width;
        }
        out
    }
}

/// The greatest common divisor (`gcd(0, b) = b`).
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_every_value_and_merge_exactly() {
        let mut a = Histogram::default();
        let mut b = Histogram::default();
        for x in 0..50 {
            if x % 3 == 0 {
                a.add(x as f64)
            } else {
                b.add(x as f64)
            }
        }
        a.merge(&b);
        let mut all = Histogram::default();
        (0..50).for_each(|x| all.add(x as f64));
        assert_eq!(a, all);
        let bins = all.bins(10);
        assert_eq!(bins.len(), 10);
        assert_eq!(bins[0], (0, 4, 5));
        assert_eq!(bins.iter().map(|b| b.2).sum::<u64>(), 50);
        assert_eq!(all.bins(100).len(), 50);
    }

    #[test]
    fn bins_follow_the_grain_of_the_data() {
        // Decisions per game: multiples of 40 from 120 to 1000.
        let mut h = Histogram::default();
        for k in 3..=25 {
            for _ in 0..k {
                h.add((k * 40) as f64);
            }
        }
        let bins = h.bins(30);
        assert_eq!(bins.len(), 23);
        assert!(bins.iter().all(|b| b.2 > 0), "{bins:?}");
        assert_eq!(bins[0], (120, 120, 3));
        // Fewer bins than values: two grains a bin, none empty.
        let bins = h.bins(12);
        assert_eq!(bins.len(), 12);
        assert!(bins.iter().all(|b| b.2 > 0), "{bins:?}");
        assert_eq!(bins[0], (120, 160, 3 + 4));
    }
}
