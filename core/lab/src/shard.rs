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

use super::outcome::Key;
use super::run::{Rows, Tally};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use thiserror::Error;

/// The version of the shard file format, raised at every incompatible
/// change: a file of another version is refused rather than misread.
pub const FORMAT: u32 = 2;

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
    /// same identity. [`merge`] reads its `games`, and for clearer
    /// messages its `deckhand` (the version that played) and each of its
    /// `arms[i].scripts` (script file → hash of its text, see
    /// [`deckhand_engine::digest`]); the rest is compared field by field.
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
    #[error("file {file} (shard {shard}) ran different rules than file 1: {what}")]
    OtherRules {
        file: usize,
        shard: Shard,
        what: String,
    },
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
    #[error("file {file} (shard {shard}): an impossible figure: {what}")]
    Impossible {
        file: usize,
        shard: Shard,
        what: String,
    },
    #[error("the shards' figures add up beyond the largest number (about 1.8e308): {what}")]
    Overflow { what: String },
}

/// Why the text of a shard file cannot be read.
#[derive(Debug, Error, PartialEq)]
pub enum ReadError {
    #[error("not a shard file (made by `deckhand sim|compare|tune ... --shard K/N`)")]
    NotShard,
    #[error(
        "shard format {found}, this deckhand reads format {FORMAT}: run the shard again with \
         this deckhand"
    )]
    Format { found: String },
    #[error("{field} is {value}: a count is a whole number from 0")]
    Count { field: String, value: String },
    #[error("a damaged shard file: {0}")]
    Damaged(String),
}

/// `path` followed by the field `key`: `.key` for a name, `["key"]`
/// for anything else (a statistic's name such as `win.seat1`).
fn field(path: &str, key: &str) -> String {
    let name = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    match (name, path.is_empty()) {
        (true, true) => key.to_string(),
        (true, false) => format!("{path}.{key}"),
        (false, _) => format!("{path}[{}]", Value::String(key.to_string())),
    }
}

/// The first count that is not a whole number from 0, as (field, value):
/// the fields of the shard, its tally, its statistics and distributions
/// that count games or values (`identity` is not looked at).
fn bad_count(v: &Value, path: &str, count: bool) -> Option<(String, String)> {
    const COUNTS: [&str; 7] = ["k", "n", "games", "start", "end", "threads", "other"];
    match v {
        Value::Number(x) if count && x.as_u64().is_none() => {
            Some((path.to_string(), x.to_string()))
        }
        Value::Object(o) => o.iter().find_map(|(k, x)| {
            if path.is_empty() && k == "identity" {
                return None;
            }
            let counted = COUNTS.contains(&k.as_str()) || path.ends_with(".counts");
            bad_count(x, &field(path, k), counted)
        }),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .find_map(|(i, x)| bad_count(x, &format!("{path}[{i}]"), false)),
        _ => None,
    }
}

impl ShardFile {
    /// Read the text of a shard file: a JSON object of [`KIND`] and
    /// [`FORMAT`] (checked before anything else, so that a file of another
    /// format is named as such), whose counts are whole numbers from 0
    /// (a field that is not is named), with every field a shard file has.
    /// Its figures are checked by [`merge`].
    pub fn parse(text: &str) -> Result<ShardFile, ReadError> {
        let v: Value = serde_json::from_str(text).map_err(|e| {
            // A shard file cut short or garbled, or something else.
            if text.contains(KIND) {
                ReadError::Damaged(e.to_string())
            } else {
                ReadError::NotShard
            }
        })?;
        if v.get("kind").and_then(Value::as_str) != Some(KIND) {
            return Err(ReadError::NotShard);
        }
        match v.get("format") {
            Some(f) if f.as_u64() == Some(u64::from(FORMAT)) => {}
            Some(f) => {
                return Err(ReadError::Format {
                    found: f.to_string(),
                })
            }
            None => {
                return Err(ReadError::Format {
                    found: "none".into(),
                })
            }
        }
        if let Some((field, value)) = bad_count(&v, "", false) {
            return Err(ReadError::Count { field, value });
        }
        serde_json::from_value(v).map_err(|e| ReadError::Damaged(e.to_string()))
    }
}

/// The range one game's value of `key` lies in.
fn value_range(key: &Key) -> (f64, f64) {
    match key {
        Key::SeatWin(_) | Key::TeamWin(_) | Key::PlayerWin(_) | Key::Shared | Key::NoWinner => {
            (0.0, 1.0)
        }
        Key::Edge | Key::PlayerLead(_) => (-1.0, 1.0),
        Key::Rounds | Key::Decisions => (0.0, f64::INFINITY),
        _ => (f64::NEG_INFINITY, f64::INFINITY),
    }
}

/// The first statistic of `rows` that could not have been counted over
/// `games` games, named from `path` (ranges widened for differences).
fn impossible_row(rows: &Rows, games: u64, path: &str, difference: bool) -> Option<String> {
    rows.0.iter().find_map(|(key, stat)| {
        let (lo, hi) = value_range(key);
        let range = if difference {
            (lo - hi, hi - lo)
        } else {
            (lo, hi)
        };
        stat.impossible(games, range)
            .map(|what| format!("{}.{what}", field(path, &key.to_string())))
    })
}

/// The first figure of a shard file that no run could have written: a
/// duration, a thread count, a statistic (see [`super::Stat::impossible`])
/// or a distribution with more values than its games allow.
fn impossible(f: &ShardFile) -> Option<String> {
    if !(f.elapsed_s.is_finite() && f.elapsed_s >= 0.0) {
        return Some(format!(
            "elapsed_s: {} is not a number of seconds",
            f.elapsed_s
        ));
    }
    if f.threads == 0 {
        return Some("threads: 0 (a shard runs on one thread or more)".into());
    }
    let g = f.tally.games;
    let rows = f.tally.arms.iter().enumerate().map(|(a, r)| (a, r, false));
    let diffs = f.tally.diffs.iter().enumerate().map(|(d, r)| (d, r, true));
    for (i, r, difference) in rows.chain(diffs) {
        let path = if difference {
            format!("tally.diffs[{i}]")
        } else {
            format!("tally.arms[{i}]")
        };
        if let Some(what) = impossible_row(r, g, &path, difference) {
            return Some(what);
        }
    }
    for (a, hs) in f.tally.histograms.iter().enumerate() {
        for (key, h) in hs {
            // One value a game, or one per seat (the scores).
            let per_game = match key {
                Key::Rounds | Key::Decisions | Key::Margin => 1,
                _ => MAX_PER_GAME,
            };
            let total = h
                .counts
                .values()
                .chain(std::iter::once(&h.other))
                .try_fold(0u64, |t, &c| t.checked_add(c));
            if total.is_none_or(|t| t > g.saturating_mul(per_game)) {
                let name = field(&format!("tally.histograms[{a}]"), &key.to_string());
                let total = total.map_or_else(|| "more than 2^64".into(), |t| t.to_string());
                return Some(format!("{name}: {total} values counted for {g} games"));
            }
        }
    }
    None
}

/// How the scripts two identities ran differ: the first script file (by
/// name) whose hash differs or that only one of them ran, per arm
/// (`arms[i].scripts`: name → hash of the text), as
/// `sea_change/game.lua differs`.
fn rules_difference(first: &Value, other: &Value) -> Option<String> {
    let arms = |v: &Value| v.get("arms").and_then(Value::as_array).cloned();
    let (a, b) = (arms(first)?, arms(other)?);
    let several = a.len() > 1;
    a.iter().zip(&b).find_map(|(x, y)| {
        let scripts = |v: &Value| v.get("scripts").and_then(Value::as_object).cloned();
        let (sx, sy) = (scripts(x)?, scripts(y)?);
        let mut names: Vec<&String> = sx.keys().chain(sy.keys()).collect();
        names.sort();
        names.dedup();
        let what = names
            .into_iter()
            .find_map(|n| match (sx.get(n), sy.get(n)) {
                (Some(p), Some(q)) if p == q => None,
                (Some(_), Some(_)) => Some(format!("{n} differs")),
                (Some(_), None) => Some(format!("{n} ran in file 1's rules only")),
                (None, _) => Some(format!("{n} ran in this file's rules only")),
            })?;
        let arm = x.get("name").and_then(Value::as_str).unwrap_or("");
        Some(if several {
            format!("{what} (arm {arm})")
        } else {
            what
        })
    })
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
    // The arms of the run: as many as its identity names, when it does.
    let arms = match first.identity.get("arms").and_then(Value::as_array) {
        Some(named) => named.len(),
        None => first.tally.arms.len(),
    };
    if arms == 0 {
        return Err(MergeError::Inconsistent {
            file: 1,
            shard: first.shard,
            what: "a run of no arm".into(),
        });
    }
    let mut seen = vec![
        false;
        usize::try_from(n)
            .unwrap_or(usize::MAX)
            .min(files.len() + 1)
    ];
    let mut got = 0u64;
    let mut keeps_places: Option<bool> = None;
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
        let version = |f: &ShardFile| f.identity.get("deckhand").cloned();
        if let (Some(Value::String(a)), Some(Value::String(b))) = (version(first), version(f)) {
            if a != b {
                return Err(MergeError::OtherRun {
                    file,
                    shard: f.shard,
                    what: format!("played by deckhand {b}, file 1 by deckhand {a}"),
                });
            }
        }
        if let Some(what) = rules_difference(&first.identity, &f.identity) {
            return Err(MergeError::OtherRules {
                file,
                shard: f.shard,
                what,
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
        if let Some(what) = shape(&f.tally, arms) {
            return Err(inconsistent(what));
        }
        if let Some(what) = placings(&f.tally, f.start..f.end, arms) {
            return Err(inconsistent(what));
        }
        // Either every shard kept its games' places (a ladder) or none.
        if f.start < f.end {
            let keeps = !f.tally.placings.is_empty();
            match keeps_places {
                None => keeps_places = Some(keeps),
                Some(k) if k != keeps => {
                    return Err(inconsistent(if keeps {
                        "it kept its games' places, the shards before it did not".into()
                    } else {
                        "it kept no game's places, the shards before it did".into()
                    }))
                }
                Some(_) => {}
            }
        }
        if let Some(what) = impossible(f) {
            return Err(MergeError::Impossible {
                file,
                shard: f.shard,
                what,
            });
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
    let overflow = |rows: &[Rows], name: &str| {
        rows.iter().enumerate().find_map(|(i, r)| {
            r.0.iter()
                .find(|(_, s)| !s.finite())
                .map(|(key, _)| field(&format!("tally.{name}[{i}]"), &key.to_string()) + ".sum")
        })
    };
    if let Some(what) = overflow(&total.arms, "arms").or_else(|| overflow(&total.diffs, "diffs")) {
        return Err(MergeError::Overflow { what });
    }
    Ok((first.identity.clone(), total, elapsed, threads))
}

/// How the places a tally kept differ from those of the games `games` of
/// a run of `arms` arms: none at all, or every game's, each with a placing
/// per arm.
fn placings(t: &Tally, games: std::ops::Range<u64>, arms: usize) -> Option<String> {
    let p = &t.placings.0;
    if p.is_empty() {
        return None;
    }
    let (first, last) = (p.keys().next()?, p.keys().next_back()?);
    if p.len() as u64 != games.end.saturating_sub(games.start)
        || *first != games.start
        || *last + 1 != games.end
    {
        return Some(format!(
            "places of {} games numbered {first}..{}, expected games {}..{}",
            p.len(),
            last + 1,
            games.start,
            games.end
        ));
    }
    p.iter()
        .find(|(_, v)| v.len() != arms)
        .map(|(g, v)| format!("game {g}: places at {} tables, the run has {arms}", v.len()))
}

/// How the tally's lists differ from those of a run of `arms` arms: one
/// list of statistics and one of distributions per arm, one list of
/// differences per arm after the first.
fn shape(t: &Tally, arms: usize) -> Option<String> {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    if t.arms.len() != arms {
        return Some(format!(
            "{} counted, the run has {}",
            plural(t.arms.len(), "arm", "arms"),
            plural(arms, "arm", "arms")
        ));
    }
    if t.diffs.len() != arms.saturating_sub(1) {
        return Some(format!(
            "{}, expected {} (one per arm after the first, of {})",
            plural(t.diffs.len(), "paired difference", "paired differences"),
            arms.saturating_sub(1),
            plural(arms, "arm", "arms")
        ));
    }
    if t.histograms.len() != arms {
        return Some(format!(
            "distributions for {}, expected {} (one set per arm)",
            plural(t.histograms.len(), "arm", "arms"),
            arms
        ));
    }
    None
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
            let rows = vec![vec![(crate::Key::Rounds, i as f64)]];
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
            extra.add_game(&[vec![(crate::Key::Rounds, 1.0)]]);
        }
        lying.tally.arms = extra.arms;
        lying.tally.histograms = extra.histograms;
        let e = merge(&[files[0].clone(), lying, files[2].clone()]);
        assert!(
            matches!(&e, Err(MergeError::Impossible { what, .. }) if what == "tally.arms[0].rounds.n: 5 values for 3 games"),
            "{e:?}"
        );
        let mut old = files[1].clone();
        old.format = 0;
        assert!(matches!(
            merge(&[files[0].clone(), old]),
            Err(MergeError::Format { .. })
        ));
    }

    #[test]
    fn kept_places_merge_by_game_and_must_cover_every_game() {
        use crate::ratings::Placing;
        let id = serde_json::json!({"games": 10, "game": "g"});
        let placed = |k: u64| {
            let mut f = file(k, 2, 10, id.clone());
            for i in f.start..f.end {
                let order = if i % 3 == 0 { vec![1, 2] } else { vec![2, 1] };
                f.tally.placings.0.insert(i, vec![Placing(order)]);
            }
            f
        };
        let (a, b) = (placed(1), placed(2));
        let (_, all, _, _) = merge(&[b.clone(), a.clone()]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(all.placings.len(), 10);
        assert_eq!(all.placings.0[&9], vec![Placing(vec![1, 2])]);
        // A game's places missing, or a shard that kept none.
        let mut short = b.clone();
        short.tally.placings.0.remove(&7);
        let e = merge(&[a.clone(), short]).err().map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|e| e.contains("places of 4 games numbered 5..10")),
            "{e:?}"
        );
        let e = merge(&[a, file(2, 2, 10, id.clone())])
            .err()
            .map(|e| e.to_string());
        assert!(
            e.as_deref()
                .is_some_and(|e| e.contains("kept no game's places")),
            "{e:?}"
        );
    }

    #[test]
    fn impossible_figures_are_refused_with_their_field() {
        let id = serde_json::json!({"games": 10, "game": "g", "arms": [{"name": "a"}]});
        let files: Vec<ShardFile> = (1..=2).map(|k| file(k, 2, 10, id.clone())).collect();
        let refused = |edit: &dyn Fn(&mut Value)| {
            let mut v = serde_json::to_value(&files[1]).expect("json");
            edit(&mut v);
            let text = v.to_string();
            match ShardFile::parse(&text) {
                Err(e) => e.to_string(),
                Ok(f) => match merge(&[files[0].clone(), f]) {
                    Err(e) => e.to_string(),
                    Ok(_) => panic!("merged: {text}"),
                },
            }
        };
        // Partial sums that add up beyond the largest number.
        let e = refused(&|v| {
            v["tally"]["arms"][0]["rounds"]["sum"]["partials"] = serde_json::json!([1e308, 1e308])
        });
        assert!(
            e.contains("tally.arms[0].rounds.sum: its partial sums add up beyond"),
            "{e}"
        );
        // More wins than games, as a sum and as extremes.
        let mut wins = Tally::new(1);
        for _ in 0..5 {
            wins.add_game(&[vec![(Key::SeatWin(1), 1.0)]]);
        }
        let win = serde_json::to_value(&wins.arms[0].0[&Key::SeatWin(1)]).expect("json");
        let e = refused(&|v| {
            let mut w = win.clone();
            w["sum"]["partials"] = serde_json::json!([9.0]);
            w["sum_sq"]["partials"] = serde_json::json!([9.0]);
            v["tally"]["arms"][0]["win.seat1"] = w;
        });
        assert!(
            e.contains(r#"tally.arms[0]["win.seat1"].sum: 9 for 5 values from 1 to 1"#),
            "{e}"
        );
        let e = refused(&|v| {
            let mut w = win.clone();
            w["max"] = serde_json::json!(3.0);
            w["binary"] = serde_json::json!(false);
            v["tally"]["arms"][0]["win.seat1"] = w;
        });
        assert!(
            e.contains(r#"["win.seat1"].values from 1 to 3, outside"#),
            "{e}"
        );
        // Negative counts, named by their field before anything is merged.
        let e = refused(&|v| v["tally"]["arms"][0]["rounds"]["n"] = serde_json::json!(-2));
        assert_eq!(
            e,
            "tally.arms[0].rounds.n is -2: a count is a whole number from 0"
        );
        let e = refused(&|v| {
            v["tally"]["histograms"][0]["rounds"]["counts"]["5"] = serde_json::json!(-1)
        });
        assert!(
            e.starts_with(r#"tally.histograms[0].rounds.counts["5"] is -1"#),
            "{e}"
        );
        let e = refused(&|v| v["elapsed_s"] = serde_json::json!(-1.5));
        assert!(
            e.contains("elapsed_s: -1.5 is not a number of seconds"),
            "{e}"
        );
        // A distribution of one value a game with more values than games.
        let e =
            refused(&|v| v["tally"]["histograms"][0]["rounds"]["other"] = serde_json::json!(99));
        assert!(
            e.contains("tally.histograms[0].rounds: 104 values counted for 5 games"),
            "{e}"
        );
        // Lists that do not fit the run's arms say what differs.
        let e = refused(&|v| v["tally"]["histograms"] = serde_json::json!([]));
        assert!(e.contains("distributions for 0 arms, expected 1"), "{e}");
        let e = refused(&|v| v["tally"]["diffs"] = serde_json::json!([{}]));
        assert!(e.contains("1 paired difference, expected 0"), "{e}");
        // Another format is named as such, whatever its fields.
        let e = refused(&|v| v["format"] = serde_json::json!(FORMAT + 1));
        assert!(
            e.starts_with(&format!("shard format {}", FORMAT + 1)),
            "{e}"
        );
    }
}
