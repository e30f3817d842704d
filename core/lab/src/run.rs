//! Running an experiment: the statistics of every arm and of every paired
//! difference, added up as games finish, and the batches of games spread
//! over worker threads with the stopping rule looked at in seed order.

use super::experiment::StopRule;
use super::histogram::Histogram;
use super::outcome::{Key, Outcome};
use super::ratings::{Finishes, Placing};
use super::stats::Stat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// Statistics by name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Rows(pub BTreeMap<Key, Stat>);

impl Rows {
    fn add(&mut self, key: &Key, x: f64) {
        match self.0.get_mut(key) {
            Some(s) => s.add(x),
            None => {
                let mut s = Stat::default();
                s.add(x);
                self.0.insert(key.clone(), s);
            }
        }
    }

    fn merge(&mut self, other: &Rows) {
        for (k, s) in &other.0 {
            match self.0.get_mut(k) {
                Some(mine) => mine.merge(s),
                None => {
                    self.0.insert(k.clone(), s.clone());
                }
            }
        }
    }

    /// The statistic named `key`, if any game had a value for it.
    pub fn get(&self, key: &Key) -> Option<&Stat> {
        self.0.get(key)
    }
}

/// The statistics of a run: per arm, and per difference of arm `k` (from
/// the second on) minus the first arm, on the same seeds. Two tallies of
/// disjoint games merge into exactly the tally of one run over all of them
/// ([`Tally::merge`]), whatever the order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Games played in every arm.
    pub games: u64,
    pub arms: Vec<Rows>,
    /// `diffs[k - 1]`: arm `k` minus arm 0, seed by seed (a statistic a
    /// game has in both arms).
    pub diffs: Vec<Rows>,
    /// Per arm, the distributions of rounds, decisions, winning margin and
    /// final scores (every seat).
    #[serde(default)]
    pub histograms: Vec<BTreeMap<Key, Histogram>>,
    /// Each game's finishing places in every arm, by the game's number in
    /// the run, when the run keeps them ([`Schedule::placings`]: a
    /// ladder's ratings are fitted from them).
    #[serde(default, skip_serializing_if = "Finishes::is_empty")]
    pub placings: Finishes,
}

/// Whether the distribution of a statistic is kept, and under which key.
fn histogram_key(key: &Key) -> Option<Key> {
    match key {
        Key::Rounds | Key::Decisions | Key::Margin => Some(key.clone()),
        Key::SeatScore(_) => Some(Key::Score),
        _ => None,
    }
}

impl Tally {
    pub fn new(arms: usize) -> Tally {
        Tally {
            games: 0,
            arms: vec![Rows::default(); arms],
            diffs: vec![Rows::default(); arms.saturating_sub(1)],
            histograms: vec![BTreeMap::new(); arms],
            placings: Finishes::default(),
        }
    }

    /// Add game `i` of every arm: `rows[a]` are arm `a`'s values
    /// ([`Outcome::rows`], sorted by key).
    pub fn add_game(&mut self, rows: &[Vec<(Key, f64)>]) {
        self.games += 1;
        for (a, r) in rows.iter().enumerate() {
            if let Some(arm) = self.arms.get_mut(a) {
                for (k, x) in r {
                    arm.add(k, *x);
                }
            }
            if let Some(h) = self.histograms.get_mut(a) {
                for (k, x) in r {
                    if let Some(hk) = histogram_key(k) {
                        h.entry(hk).or_default().add(*x);
                    }
                }
            }
        }
        let Some(base) = rows.first() else {
            return;
        };
        for (a, r) in rows.iter().enumerate().skip(1) {
            let Some(diff) = self.diffs.get_mut(a - 1) else {
                continue;
            };
            // Both lists are sorted by key: walk them together.
            let (mut i, mut j) = (0, 0);
            while i < r.len() && j < base.len() {
                match r[i].0.cmp(&base[j].0) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        diff.add(&r[i].0, r[i].1 - base[j].1);
                        i += 1;
                        j += 1;
                    }
                }
            }
        }
    }

    /// Add the games of another tally (of other seeds).
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        if self.arms.len() < other.arms.len() {
            self.arms.resize(other.arms.len(), Rows::default());
        }
        if self.diffs.len() < other.diffs.len() {
            self.diffs.resize(other.diffs.len(), Rows::default());
        }
        for (mine, theirs) in self.arms.iter_mut().zip(&other.arms) {
            mine.merge(theirs);
        }
        for (mine, theirs) in self.diffs.iter_mut().zip(&other.diffs) {
            mine.merge(theirs);
        }
        if self.histograms.len() < other.histograms.len() {
            self.histograms
                .resize(other.histograms.len(), BTreeMap::new());
        }
        for (mine, theirs) in self.histograms.iter_mut().zip(&other.histograms) {
            for (k, h) in theirs {
                mine.entry(k.clone()).or_default().merge(h);
            }
        }
        self.placings.merge(&other.placings);
    }

    /// The half-widths that decide a precision target on `key`: the arm's
    /// with one arm, every difference's with several (`None` for one
    /// without an interval yet). Empty when no arm has the statistic.
    pub fn half_widths(&self, key: &Key) -> Vec<Option<f64>> {
        let rows = if self.diffs.is_empty() {
            &self.arms
        } else {
            &self.diffs
        };
        if !self.arms.iter().any(|a| a.get(key).is_some()) {
            return Vec::new();
        }
        let differences = !self.diffs.is_empty();
        rows.iter()
            .map(|r| {
                r.get(key).and_then(|s| {
                    let e = if differences {
                        s.estimate_mean()
                    } else {
                        s.estimate()
                    };
                    e.half_width()
                })
            })
            .collect()
    }

    /// Whether the result on `key` is decisive at the two-sided level
    /// 1 - `alpha`: with one arm, the arm's interval lies wholly above or
    /// below `against`; with several, every difference's interval lies
    /// wholly above or below 0. `None` when no arm has the statistic.
    pub fn decisive(&self, key: &Key, against: f64, alpha: f64) -> Option<bool> {
        if !self.arms.iter().any(|a| a.get(key).is_some()) {
            return None;
        }
        let (rows, reference, proportion) = if self.diffs.is_empty() {
            (&self.arms, against, true)
        } else {
            (&self.diffs, 0.0, false)
        };
        Some(rows.iter().all(|r| {
            r.get(key)
                .and_then(|s| s.interval_at(proportion, alpha))
                .is_some_and(|(lo, hi)| lo > reference || hi < reference)
        }))
    }

    /// Every statistic's name, sorted.
    pub fn keys(&self) -> Vec<Key> {
        let mut keys: Vec<Key> = self.arms.iter().flat_map(|a| a.0.keys().cloned()).collect();
        keys.sort();
        keys.dedup();
        keys
    }
}

/// Plays the games of one worker thread.
pub trait Player {
    type Error;
    /// Play game `index` of arm `arm` to its end.
    fn play(&mut self, index: u64, arm: usize) -> Result<Outcome, Self::Error>;
    /// Batch `k` (games in seed order) is over; `failed`: it stopped at an
    /// error. Every batch number from 0 up is reported, once, by the thread
    /// that played it.
    fn batch_done(&mut self, k: u64, failed: bool) {
        let _ = (k, failed);
    }
}

/// How the games are spread: threads, games per batch, the stopping rule.
#[derive(Debug, Clone)]
pub struct Schedule {
    pub stop: StopRule,
    pub threads: usize,
    /// Games per batch (a batch is played by one thread, every arm of each
    /// game in turn).
    pub batch: u64,
    /// Keep every game's finishing places ([`Tally::placings`]), numbered
    /// from `first_game` (a shard's first game in the whole run).
    pub placings: bool,
    pub first_game: u64,
}

/// Why a run stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stopped {
    /// It played the games asked for.
    Games,
    /// The precision target was met at a look.
    Precision,
    /// The precision target was not met within the most games allowed
    /// (or the result was not decisive by then).
    MaxGames,
    /// The result became decisive at a look.
    Decisive,
}

/// A finished run.
#[derive(Debug, Clone)]
pub struct Ran {
    pub tally: Tally,
    pub stopped: Stopped,
}

/// A run that failed.
#[derive(Debug)]
pub enum RunError<E> {
    /// A game failed (the first in seed order among the batches played).
    Play { index: u64, error: E },
    /// The precision target names a statistic no game has.
    Statistic(String),
}

struct Shared<E> {
    /// Tallies of the windows not looked at yet, with their batches done.
    windows: BTreeMap<u64, (Tally, u64)>,
    /// The next window to look at.
    next_window: u64,
    total: Tally,
    stopped: Option<Stopped>,
    failure: Option<(u64, u64, E)>,
    bad_statistic: Option<String>,
}

/// Play the experiment: `arms` arms, game `i` of every arm played by the
/// same thread, in the same batch (each arm plays the batch in turn; the
/// per-seed differences are taken at the batch's end, so memory is bounded
/// by the batch size). The games are split into windows of [`StopRule::window`]
/// games, looked at in seed order once all their games are in; the
/// stopping rule is applied at each look, so the result does not depend
/// on the number of threads. `make` makes each thread's player;
/// `progress` is called after every game of every arm.
pub fn run<P, E>(
    schedule: &Schedule,
    arms: usize,
    make: impl Fn() -> P + Sync,
    progress: impl Fn() + Sync,
) -> Result<Ran, RunError<E>>
where
    P: Player<Error = E>,
    E: Send,
{
    let max = schedule.stop.max_games();
    let window = schedule.stop.window().min(max.max(1));
    let batch = schedule.batch.clamp(1, window);
    let per_window = window.div_ceil(batch);
    let windows = max.div_ceil(window);
    let batches = windows * per_window;
    // Batch k: its window and its games.
    let games_of = |k: u64| {
        let w = k / per_window;
        let start = w * window + (k % per_window) * batch;
        let end = (start + batch).min((w + 1) * window).min(max);
        (w, start, end.max(start))
    };
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let shared = Mutex::new(Shared::<E> {
        windows: BTreeMap::new(),
        next_window: 0,
        total: Tally::new(arms),
        stopped: None,
        failure: None,
        bad_statistic: None,
    });
    let lock = || shared.lock().unwrap_or_else(|p| p.into_inner());
    let worker = || {
        let mut player = make();
        // The values of the batch's games, per arm: each arm plays the
        // whole batch in turn (its VM's compiled code and data stay in the
        // caches), then the games are paired. Bounded by the batch size.
        let mut rows: Vec<Vec<Vec<(Key, f64)>>> = vec![Vec::new(); arms];
        let mut places: Vec<Vec<Placing>> = vec![Vec::new(); arms];
        let mut game_rows: Vec<Vec<(Key, f64)>> = Vec::with_capacity(arms);
        while !stop.load(Ordering::Relaxed) {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= batches {
                break;
            }
            let (w, start, end) = games_of(k);
            let mut tally = Tally::new(arms);
            let mut failure = None;
            'arms: for (a, (arm_rows, arm_places)) in rows.iter_mut().zip(&mut places).enumerate() {
                arm_rows.clear();
                arm_places.clear();
                for i in start..end {
                    match player.play(i, a) {
                        Ok(o) => {
                            if schedule.placings {
                                arm_places.push(Placing::of(&o));
                            }
                            arm_rows.push(o.rows())
                        }
                        Err(e) => {
                            failure = Some((i, e));
                            break 'arms;
                        }
                    }
                    progress();
                }
            }
            if failure.is_none() {
                for j in 0..(end - start) as usize {
                    game_rows.clear();
                    for arm_rows in rows.iter_mut() {
                        game_rows.push(std::mem::take(&mut arm_rows[j]));
                    }
                    tally.add_game(&game_rows);
                    if schedule.placings {
                        let game: Vec<Placing> = places
                            .iter_mut()
                            .filter_map(|p| p.get_mut(j).map(std::mem::take))
                            .collect();
                        let index = schedule.first_game + start + j as u64;
                        tally.placings.0.insert(index, game);
                    }
                }
            }
            player.batch_done(k, failure.is_some());
            let mut s = lock();
            if let Some((i, e)) = failure {
                stop.store(true, Ordering::Relaxed);
                if s.failure.as_ref().is_none_or(|(j, _, _)| k < *j) {
                    s.failure = Some((k, i, e));
                }
                continue;
            }
            if s.stopped.is_some() {
                continue;
            }
            let entry = s.windows.entry(w).or_insert_with(|| (Tally::new(arms), 0));
            entry.0.merge(&tally);
            entry.1 += 1;
            // Look at every complete window in order.
            loop {
                let nw = s.next_window;
                let complete = s.windows.get(&nw).is_some_and(|(_, d)| *d == per_window);
                if !complete {
                    break;
                }
                let Some((t, _)) = s.windows.remove(&nw) else {
                    break;
                };
                s.total.merge(&t);
                s.next_window += 1;
                let verdict = look(&schedule.stop, &s.total, max);
                match verdict {
                    Look::Go => {}
                    Look::Stop(why) => {
                        s.stopped = Some(why);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    Look::Unknown(msg) => {
                        s.bad_statistic = Some(msg);
                        s.stopped = Some(Stopped::MaxGames);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                }
            }
        }
    };
    let threads = schedule.threads.max(1);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(worker);
        }
    });
    let s = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some((_, index, error)) = s.failure {
        return Err(RunError::Play { index, error });
    }
    if let Some(msg) = s.bad_statistic {
        return Err(RunError::Statistic(msg));
    }
    Ok(Ran {
        tally: s.total,
        stopped: s.stopped.unwrap_or(Stopped::Games),
    })
}

enum Look {
    Go,
    Stop(Stopped),
    Unknown(String),
}

/// The stopping rule at a look, with `total` the games so far.
fn look(stop: &StopRule, total: &Tally, max: u64) -> Look {
    match stop {
        StopRule::Games(_) => {
            if total.games >= max {
                Look::Stop(Stopped::Games)
            } else {
                Look::Go
            }
        }
        StopRule::Precision { target, on, .. } => {
            let widths = total.half_widths(on);
            if widths.is_empty() {
                return unknown("--on", on, total);
            }
            if widths.iter().all(|w| w.is_some_and(|w| w <= *target)) {
                Look::Stop(Stopped::Precision)
            } else if total.games >= max {
                Look::Stop(Stopped::MaxGames)
            } else {
                Look::Go
            }
        }
        StopRule::Decisive { on, against, .. } => {
            let Some(decisive) = total.decisive(on, *against, stop.alpha_per_look()) else {
                return unknown("--decisive", on, total);
            };
            if decisive {
                Look::Stop(Stopped::Decisive)
            } else if total.games >= max {
                Look::Stop(Stopped::MaxGames)
            } else {
                Look::Go
            }
        }
    }
}

/// A statistic named by `flag` that no game has.
fn unknown(flag: &str, on: &Key, total: &Tally) -> Look {
    let names: Vec<String> = total.keys().iter().map(|k| k.to_string()).collect();
    Look::Unknown(format!(
        "{flag} {on}: no game of this run has that statistic (it has: {})",
        names.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(seat1: f64, rounds: f64, metric: Option<f64>) -> Vec<(Key, f64)> {
        let mut rows = vec![
            (Key::SeatWin(1), seat1),
            (Key::SeatWin(2), 1.0 - seat1),
            (Key::SeatScore(1), 3.0 * seat1),
            (Key::Rounds, rounds),
        ];
        if let Some(m) = metric {
            rows.push((Key::Metric("m".into()), m));
        }
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        rows
    }

    #[test]
    fn a_tally_reads_back_from_json_and_merges_in_any_order() {
        let games: Vec<[Vec<(Key, f64)>; 2]> = (0..40)
            .map(|i| {
                let w = (i % 3 == 0) as u8 as f64;
                [
                    game(w, 4.0 + (i % 5) as f64, Some(0.1 * i as f64)),
                    game(1.0 - w, 5.0, (i % 2 == 0).then_some(0.5)),
                ]
            })
            .collect();
        let mut all = Tally::new(2);
        games.iter().for_each(|g| all.add_game(g));
        let (mut a, mut b) = (Tally::new(2), Tally::new(2));
        games[..17].iter().for_each(|g| a.add_game(g));
        games[17..].iter().for_each(|g| b.add_game(g));
        let text = serde_json::to_string(&b).unwrap_or_default();
        let b: Tally = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let mut ba = b.clone();
        ba.merge(&a);
        a.merge(&b);
        assert_eq!(a, all);
        assert_eq!(ba, all);
        // The paired difference counts only seeds where both arms have the
        // metric.
        let m = all.diffs[0].get(&Key::Metric("m".into())).map(|s| s.n);
        assert_eq!(m, Some(20));
        assert_eq!(all.histograms[0][&Key::Rounds].total(), 40);
    }
}
