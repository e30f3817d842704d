//! Runs split over processes or machines: shard `K/N` of a run of `n`
//! games plays a contiguous block of its games (and so of its seeds), and
//! writes a [`ShardFile`]: the full tallies of its games with the identity
//! of the run. Because tallies merge exactly ([`Tally::merge`]), merging
//! the files of shards `1/N` to `N/N` gives exactly the tally of one run
//! over all the games.
//!
//! Which games: shard `K` of `N` (K from 1) plays games
//! `floor((K-1)·n/N)` up to, not including, `floor(K·n/N)`: blocks in seed
//! order whose sizes differ by one game at most.

use super::run::Tally;
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// The version of the shard file format, raised at every incompatible
/// change: a file of another version is refused rather than misread.
pub const FORMAT: u32 = 1;

/// What a shard file says it is (its first field).
pub const KIND: &str = "deckhand-lab-shard";

/// The most shards a run may be split into.
pub const MAX_SHARDS: u64 = 1_000_000;

/// The most games a merged run may have (far beyond any run: the bound
/// keeps every count of a merge far from overflowing).
pub const MAX_GAMES: u64 = 1 << 40;

/// The most games one distribution may count per game (a value per seat).
const MAX_PER_GAME: u64 = 1 << 12;

/// Shard `k` of `n` (1 ≤ k ≤ n).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N`, with 1 ≤ K ≤ N ≤ [`MAX_SHARDS`].
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad =
            || format!("'{s}': a shard is K/N, K from 1 to N, N from 1 to {MAX_SHARDS} (e.g. 2/8)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || k > n || n > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl Shard {
    /// The games of this shard in a run of `games`: `start..end`.
    pub fn games(&self, games: u64) -> std::ops::Range<u64> {
        let at = |k: u64| ((k as u128 * games as u128) / self.n.max(1) as u128) as u64;
        at(self.k - 1)..at(self.k)
    }
}

/// The result of one shard: who it is, which run it belongs to, and the
/// tallies of its games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardFile {
    /// Always [`KIND`].
    pub kind: String,
    /// Always [`FORMAT`] when written.
    pub format: u32,
    /// What the run is (its command, game, arms, options, seats, first
    /// seed and number of games...): shards merge only with shards of the
    /// same identity. The lab does not read it.
    pub identity: serde_json::Value,
    pub shard: Shard,
    /// The first game of the shard and the game after its last.
    pub start: u64,
    pub end: u64,
    /// Seconds the shard took and the threads it ran on.
    pub elapsed_s: f64,
    pub threads: usize,
    pub tally: Tally,
}

/// Why shard files do not merge.
#[derive(Debug, Error, PartialEq)]
pub enum MergeError {
    #[error("no shard file to merge")]
    Empty,
    #[error("file {0}: not a shard file of deckhand's lab")]
    NotShard(usize),
    #[error("file {file}: shard format {found}, this deckhand reads format {FORMAT}")]
    Format { file: usize, found: u32 },
    #[error("file {file} (shard {shard}) is of another run than file 1: {what}")]
    OtherRun {
        file: usize,
        shard: Shard,
        what: String,
    },
    #[error("shard {0} is given twice")]
    Twice(Shard),
    #[error("missing shard{s} {list} of {n}", s = if .missing.len() > 1 { "s" } else { "" }, list = .missing.iter().map(u64::to_string).collect::<Vec<_>>().join(", "))]
    Missing { missing: Vec<u64>, n: u64 },
    #[error("file {file} (shard {shard}): its games or tallies do not match the shard: {what}")]
    Inconsistent {
        file: usize,
        shard: Shard,
        what: String,
    },
}

/// The first field where two identities differ, as `path: a ≠ b`.
fn difference(a: &serde_json::Value, b: &serde_json::Value, path: &str) -> Option<String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                let (u, v) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                difference(u, v, &format!("{path}.{k}"))
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (u, v))| difference(u, v, &format!("{path}[{i}]"))),
        _ if a == b => None,
        _ => {
            let short = |v: &Value| {
                let s = v.to_string();
                if s.chars().count() > 60 {
                    format!("{}…", s.chars().take(60).collect::<String>())
                } else {
                    s
                }
            };
            Some(format!(
                "{} {} ≠ {}",
                path.trim_start_matches('.'),
                short(a),
                short(b)
            ))
        }
    }
}

/// Merge the files of every shard of one run, in any order: the run's
/// identity and the tally of all its games, exactly as one run would have
/// counted them. Refuses files of another format or run, a shard given
/// twice or missing, and a file whose tally does not fit its shard.
pub fn merge(files: &[ShardFile]) -> Result<(serde_json::Value, Tally, f64, usize), MergeError> {
    let first = files.first().ok_or(MergeError::Empty)?;
    let n = first.shard.n;
    // The games of the whole run: every shard's block is checked against
    // it, so the blocks are disjoint and their counts add up to at most
    // this many games.
    let games = first
        .identity
        .get("games")
        .and_then(serde_json::Value::as_u64)
        .filter(|&g| g <= MAX_GAMES)
        .ok_or(MergeError::NotShard(1))?;
    let arms = first.tally.arms.len();
    let mut seen = vec![
        false;
        usize::try_from(n)
            .unwrap_or(usize::MAX)
            .min(files.len() + 1)
    ];
    let mut got = 0u64;
    let mut total = Tally::new(arms);
    let (mut elapsed, mut threads) = (0.0, 0);
    for (i, f) in files.iter().enumerate() {
        let file = i + 1;
        if f.kind != KIND {
            return Err(MergeError::NotShard(file));
        }
        if f.format != FORMAT {
            return Err(MergeError::Format {
                file,
                found: f.format,
            });
        }
        if let Some(what) = difference(&first.identity, &f.identity, "") {
            return Err(MergeError::OtherRun {
                file,
                shard: f.shard,
                what,
            });
        }
        if f.shard.n != n {
            return Err(MergeError::OtherRun {
                file,
                shard: f.shard,
                what: format!("split into {} shards, not {n}", f.shard.n),
            });
        }
        if f.shard.k == 0 || f.shard.k > n {
            return Err(MergeError::NotShard(file));
        }
        let inconsistent = |what: String| MergeError::Inconsistent {
            file,
            shard: f.shard,
            what,
        };
        let expect = f.shard.games(games);
        if (f.start, f.end) != (expect.start, expect.end) {
            return Err(inconsistent(format!(
                "games {}..{}, expected {}..{}",
                f.start, f.end, expect.start, expect.end
            )));
        }
        if f.tally.games != f.end.saturating_sub(f.start) {
            return Err(inconsistent(format!(
                "{} games counted for {} played",
                f.tally.games,
                f.end.saturating_sub(f.start)
            )));
        }
        if f.tally.arms.len() != arms
            || f.tally.diffs.len() != arms.saturating_sub(1)
            || f.tally.histograms.len() != arms
        {
            return Err(inconsistent(format!(
                "{} arms, expected {arms}",
                f.tally.arms.len()
            )));
        }
        let g = f.tally.games;
        let rows_ok = f
            .tally
            .arms
            .iter()
            .chain(&f.tally.diffs)
            .all(|r| r.0.values().all(|s| s.plausible(g)));
        let counts_ok = f.tally.histograms.iter().all(|hs| {
            hs.values().all(|h| {
                h.counts
                    .values()
                    .chain(std::iter::once(&h.other))
                    .try_fold(0u64, |t, &c| t.checked_add(c))
                    .is_some_and(|t| t <= g.saturating_mul(MAX_PER_GAME))
            })
        });
        if !rows_ok || !counts_ok {
            return Err(inconsistent(
                "a statistic counts more values than the shard's games".into(),
            ));
        }
        let k = (f.shard.k - 1) as usize;
        if k < seen.len() {
            if seen[k] {
                return Err(MergeError::Twice(f.shard));
            }
            seen[k] = true;
        }
        got += 1;
        total.merge(&f.tally);
        elapsed += f.elapsed_s;
        threads += f.threads;
    }
    if got != n {
        let missing: Vec<u64> = (1..=n)
            .filter(|k| seen.get((k - 1) as usize) != Some(&true))
            .take(20)
            .collect();
        return Err(MergeError::Missing { missing, n });
    }
    Ok((first.identity.clone(), total, elapsed, threads))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_game_once_in_blocks() {
        for games in [0u64, 1, 7, 100, 1001] {
            for n in 1..=7u64 {
                let mut next = 0;
                for k in 1..=n {
                    let r = Shard { k, n }.games(games);
                    assert_eq!(r.start, next);
                    assert!(r.end - r.start <= games / n + 1);
                    next = r.end;
                }
                assert_eq!(next, games);
            }
        }
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { k: 2, n: 3 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    fn file(k: u64, n: u64, games: u64, identity: serde_json::Value) -> ShardFile {
        let r = Shard { k, n }.games(games);
        let mut tally = Tally::new(1);
        for i in r.clone() {
            let rows = vec![vec![(crate::lab::Key::Rounds, i as f64)]];
            tally.add_game(&rows);
        }
        ShardFile {
            kind: KIND.into(),
            format: FORMAT,
            identity,
            shard: Shard { k, n },
            start: r.start,
            end: r.end,
            elapsed_s: 1.0,
            threads: 1,
            tally,
        }
    }

    #[test]
    fn merging_refuses_missing_doubled_foreign_and_implausible_shards() {
        let id = serde_json::json!({"games": 10, "game": "g"});
        let files: Vec<ShardFile> = (1..=3).map(|k| file(k, 3, 10, id.clone())).collect();
        let (_, all, elapsed, _) = merge(&[files[2].clone(), files[0].clone(), files[1].clone()])
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(all, file(1, 1, 10, id.clone()).tally);
        assert_eq!(elapsed, 3.0);
        assert_eq!(
            merge(&files[..2]),
            Err(MergeError::Missing {
                missing: vec![3],
                n: 3
            })
        );
        assert_eq!(
            merge(&[files[0].clone(), files[0].clone(), files[1].clone()]),
            Err(MergeError::Twice(Shard { k: 1, n: 3 }))
        );
        let other = file(2, 3, 10, serde_json::json!({"games": 10, "game": "h"}));
        let e = merge(&[files[0].clone(), other, files[2].clone()]);
        assert!(
            matches!(&e, Err(MergeError::OtherRun { what, .. }) if what.contains("game \"g\" ≠ \"h\"")),
            "{e:?}"
        );
        // A statistic with more values than the shard has games.
        let mut lying = files[1].clone();
        let mut extra = Tally::new(1);
        for _ in 0..5 {
            extra.add_game(&[vec![(crate::lab::Key::Rounds, 1.0)]]);
        }
        lying.tally.arms = extra.arms;
        lying.tally.histograms = extra.histograms;
        let e = merge(&[files[0].clone(), lying, files[2].clone()]);
        assert!(
            matches!(&e, Err(MergeError::Inconsistent { what, .. }) if what.contains("more values")),
            "{e:?}"
        );
        let mut old = files[1].clone();
        old.format = 0;
        assert!(matches!(
            merge(&[files[0].clone(), old]),
            Err(MergeError::Format { .. })
        ));
    }
}
