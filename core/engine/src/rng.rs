//! The game's random generator: ChaCha8 with sampling code owned here, so the
//! same seed gives the same shuffles and dice on every machine and build.
//!
//! `rand`'s own `shuffle`/`random_range` may change output between minor
//! releases, so they are not used; the golden vectors in the tests pin the
//! exact sequence.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// A seeded, portable, serialisable random generator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRng {
    inner: ChaCha8Rng,
}

impl GameRng {
    /// The generator for `seed` (ChaCha8, seeded by `SeedableRng::seed_from_u64`).
    pub fn from_seed(seed: u64) -> Self {
        GameRng {
            inner: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// A derived generator for a named purpose (bots, determinisation), so
    /// that using it never changes the game's own sequence.
    #[inline]
    pub fn derived(seed: u64, stream: u64) -> Self {
        let mut inner = ChaCha8Rng::seed_from_u64(seed);
        inner.set_stream(stream);
        GameRng { inner }
    }

    /// The next raw 64-bit word.
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// A uniform integer in `0..n` (unbiased, by rejection). `n` must be > 0.
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let limit = (u64::MAX / n) * n;
        loop {
            let x = self.inner.next_u64();
            if x < limit {
                return x % n;
            }
        }
    }

    /// A uniform integer in `lo..=hi`; `lo` when `hi < lo`. Any two `i64`
    /// bounds are fine (a script may ask for the widest range): the span is
    /// worked out in unsigned arithmetic, where it always fits.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let gap = hi.wrapping_sub(lo) as u64;
        let offset = match gap.checked_add(1) {
            Some(span) => self.below(span),
            None => self.next_u64(),
        };
        lo.wrapping_add(offset as i64)
    }

    /// Fisher-Yates shuffle, from the last element down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_vectors_are_stable() {
        // Pinned outputs: if these change, every saved game and seed changes.
        let mut r = GameRng::from_seed(42);
        let draws: Vec<u64> = (0..8).map(|_| r.below(100)).collect();
        let mut deck: Vec<u32> = (1..=10).collect();
        GameRng::from_seed(7).shuffle(&mut deck);
        let golden = include_str!("rng_golden.txt").trim().to_string();
        assert_eq!(format!("{draws:?} {deck:?}"), golden);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = GameRng::from_seed(1);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[r.below(6) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }

    #[test]
    fn range_takes_any_bounds() {
        let mut r = GameRng::from_seed(2);
        for (lo, hi) in [
            (i64::MIN, i64::MAX),
            (i64::MIN, 0),
            (-1, i64::MAX),
            (3, 3),
            (5, 1),
        ] {
            for _ in 0..50 {
                let x = r.range(lo, hi);
                assert!(x >= lo && (x <= hi || hi < lo), "{x} in {lo}..={hi}");
            }
        }
        // Small ranges draw exactly as before (the golden vectors hold).
        let (mut a, mut b) = (GameRng::from_seed(9), GameRng::from_seed(9));
        assert_eq!(a.range(-3, 10), -3 + b.below(14) as i64);
    }

    #[test]
    fn state_survives_serialisation() {
        let mut r = GameRng::from_seed(3);
        r.next_u64();
        let json = serde_json::to_string(&r).expect("serialise");
        let mut back: GameRng = serde_json::from_str(&json).expect("deserialise");
        assert_eq!(r.next_u64(), back.next_u64());
    }

    #[test]
    fn derived_streams_differ_from_the_game_stream() {
        let mut a = GameRng::from_seed(5);
        let mut b = GameRng::derived(5, 1);
        assert_ne!(a.next_u64(), b.next_u64());
    }
}
