//! `deckhand sim`: many games between bots, in parallel, with statistics,
//! optional JSON output and a JSON Lines trace.

use super::setup;
use crate::seats::{self, SeatSpec};
use crate::trace_file::TraceFile;
use crate::watchdog::{Phase, Watchdog, Worker};
use crate::GameArgs;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use deckhand_core::lua::Limits;
use deckhand_core::{
    Choice, Chooser, Choosing, Engine, Event, Game, GameConfig, GameResult, Observer, Runner,
    ScriptLibrary, Seat, Stop, TraceLevel, TraceWriter,
};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a worker thread gives back: the totals of its games and the first
/// error that stopped one of its batches, with the batch's number (its
/// trace records go to the [`TraceFile`]).
type ThreadResult = (Totals, Option<(usize, anyhow::Error)>);

/// The most games one run may play (`-n`): a billion games take days.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// The most worker threads (`-j`).
pub const MAX_THREADS: usize = 256;

/// The range of `--step-timeout`, in seconds (a hundredth of a second to a
/// day).
pub const STEP_TIMEOUT_RANGE: (f64, f64) = (0.01, 86_400.0);

#[derive(Args, Debug)]
pub struct SimArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// How many games (at most 1000000000).
    #[arg(long, short = 'n', default_value_t = 100)]
    pub games: u64,
    /// Print the statistics as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write a JSON Lines trace of every game to FILE, gzipped when FILE
    /// ends in .gz (see docs/trace.md).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// How much the trace holds: events (the rules' events and results),
    /// decisions (and every choice made) or full (everything: enough to
    /// check every rule).
    #[arg(long, value_name = "LEVEL", default_value = "full", value_parser = parse_trace_level)]
    pub trace_level: TraceLevel,
    /// Write the trace one seat may know instead of everything: the cards it
    /// cannot see written as 0, other seats' options and choices left out
    /// (see docs/trace.md).
    #[arg(long, value_name = "SEAT")]
    pub trace_seat: Option<u32>,
    /// Count every Lua instruction against the per-step budget, so that a
    /// step that never ends fails with its script file and line (the JIT
    /// compiler is then off: about a third slower). Without it a watchdog
    /// ends the run when one step runs longer than --step-timeout.
    #[arg(long)]
    pub exact_budget: bool,
    /// Seconds a call into the scripts (loading the rules, setup, a bot's
    /// decision, a step) may run before the watchdog ends the run, when the
    /// budget is not counted exactly (0.01 to 86400).
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
    pub step_timeout: f64,
    /// Worker threads (default: one per core; at most 256).
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
}

fn parse_trace_level(s: &str) -> std::result::Result<TraceLevel, String> {
    TraceLevel::parse(s).ok_or_else(|| {
        let names: Vec<&str> = TraceLevel::ALL.iter().map(|l| l.name()).collect();
        format!("'{s}': the trace levels are {}", names.join(", "))
    })
}

/// Per-seat statistics.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SeatStats {
    pub seat: u32,
    pub bot: String,
    pub wins: u64,
    pub win_rate: f64,
    pub mean_score: f64,
}

/// The statistics `sim` prints.
#[derive(Debug, Clone, Serialize)]
pub struct SimReport {
    pub game: String,
    pub variants: Vec<String>,
    pub options: serde_json::Map<String, serde_json::Value>,
    pub players: u32,
    pub games: u64,
    pub first_seed: u64,
    pub seats: Vec<SeatStats>,
    pub shared_wins: u64,
    pub no_winner: u64,
    pub mean_rounds: f64,
    pub mean_steps: f64,
    pub elapsed_s: f64,
    pub games_per_s: f64,
    pub threads: usize,
}

/// The statistics of games, added up as each one ends.
#[derive(Default)]
pub struct Totals {
    wins: Vec<u64>,
    score: Vec<f64>,
    shared: u64,
    none: u64,
    rounds: u64,
    steps: u64,
}

impl Totals {
    fn add(&mut self, r: &GameResult, steps: usize, players: usize) {
        self.wins.resize(players, 0);
        self.score.resize(players, 0.0);
        for &w in &r.winners {
            if let Some(x) = self.wins.get_mut(w as usize - 1) {
                *x += 1;
            }
        }
        for (i, s) in r.scores.iter().enumerate().take(players) {
            self.score[i] += s;
        }
        match r.winners.len() {
            0 => self.none += 1,
            1 => {}
            _ => self.shared += 1,
        }
        self.rounds += r.rounds as u64;
        self.steps += steps as u64;
    }

    fn merge(mut self, o: Totals) -> Totals {
        let n = self.wins.len().max(o.wins.len());
        self.wins.resize(n, 0);
        self.score.resize(n, 0.0);
        for (i, w) in o.wins.iter().enumerate() {
            self.wins[i] += w;
        }
        for (i, s) in o.score.iter().enumerate() {
            self.score[i] += s;
        }
        self.shared += o.shared;
        self.none += o.none;
        self.rounds += o.rounds;
        self.steps += o.steps;
        self
    }
}

impl Observer for Totals {
    fn game_end(&mut self, game: &Game, r: &GameResult) -> deckhand_core::Result<()> {
        self.add(r, game.history().len(), game.config().players as usize);
        Ok(())
    }
}

/// Play one game between bots, adding it to `totals`; `trace` receives
/// its records when given. `watched` is told the phase before every piece
/// of script code runs (composing the rules, setup, each bot decision and
/// step, the result), so that the watchdog can name it; the caller marks
/// the worker idle after. The game is played by the core's [`Runner`]:
/// the statistics, the trace writer and the watchdog's marks of steps are
/// its observers, and the bots' choosers mark their decisions.
pub fn play_one(
    engine: &Engine,
    cfg: GameConfig,
    specs: &[SeatSpec],
    index: u64,
    totals: &mut Totals,
    trace: Option<&mut TraceWriter<Vec<u8>>>,
    watched: Option<&Worker>,
) -> Result<()> {
    let seed = cfg.seed;
    let at = |phase: Phase| {
        if let Some(w) = watched {
            w.at(index, seed, phase);
        }
    };
    // The rules are composed once per engine, when its first game asks for
    // them: the top-level code of every rule file runs then.
    at(Phase::Rules);
    engine
        .rules(&cfg.game, &cfg.variants)
        .with_context(|| format!("game {index} (seed {seed}), loading the rules"))?;
    at(Phase::Setup);
    let mut game = engine
        .new_game(cfg, trace.is_some())
        .with_context(|| format!("game {index} (seed {seed}), setup"))?;
    if let Some(t) = &trace {
        t.prepare(&mut game);
    }
    let seats = seats::bots(specs, seed)
        .into_iter()
        .map(|bot| {
            bot.map(|mut bot| {
                Box::new(Choosing(move |g: &Game| {
                    if let Some(w) = watched {
                        w.at(index, seed, Phase::Bot(g.history().len() + 1));
                    }
                    bot.choose(g)
                })) as Box<dyn Chooser>
            })
        })
        .collect();
    let mut runner = Runner::new(seats).observe(totals);
    if let Some(t) = trace {
        runner = runner.observe(t.game(index));
    }
    if let Some(w) = watched {
        runner = runner.observe(Marks {
            worker: w,
            index,
            seed,
        });
    }
    runner.started(&mut game)?;
    match runner.play(&mut game) {
        Ok(Stop::Over(_)) => Ok(()),
        Ok(Stop::Waiting(seat)) => bail!("seat {seat} has no bot"),
        Err(e) => {
            let step = e.step;
            let what = if e.choosing {
                format!(
                    "game {index} (seed {seed}), step {step}, bot of seat {}",
                    e.seat
                )
            } else {
                format!("game {index} (seed {seed}), step {step}")
            };
            Err(anyhow::Error::new(e.error).context(what))
        }
    }
}

/// Tells the watchdog which step a game is applying, and when it reads the
/// result (the bots' choosers mark their decisions).
struct Marks<'w> {
    worker: &'w Worker,
    index: u64,
    seed: u64,
}

impl Observer for Marks<'_> {
    fn decision(&mut self, game: &Game, _: Seat, _: &Choice) -> deckhand_core::Result<()> {
        let step = game.history().len() + 1;
        self.worker.at(self.index, self.seed, Phase::Step(step));
        Ok(())
    }

    fn step(&mut self, game: &Game, _: Seat, _: &Choice, _: &[Event]) -> deckhand_core::Result<()> {
        if game.is_over() {
            self.worker.at(self.index, self.seed, Phase::Result);
        }
        Ok(())
    }
}

/// Check a number of games (`-n` of `sim` and `check`): at least one, at
/// most [`MAX_GAMES`].
pub fn check_game_count(n: u64, per: &str) -> Result<()> {
    if n == 0 {
        bail!("-n 0: no game to play; give -n 1 or more");
    }
    if n > MAX_GAMES {
        bail!("-n {n}: at most {MAX_GAMES} games {per}");
    }
    Ok(())
}

/// Check the numbers of the command line before anything is allocated
/// from them.
fn check_numbers(args: &SimArgs) -> Result<()> {
    check_game_count(args.games, "in one run")?;
    if let Some(j) = args.threads {
        if !(1..=MAX_THREADS).contains(&j) {
            bail!("-j {j}: the number of threads must be from 1 to {MAX_THREADS}");
        }
    }
    let (lo, hi) = STEP_TIMEOUT_RANGE;
    let t = args.step_timeout;
    if !(t.is_finite() && (lo..=hi).contains(&t)) {
        bail!("--step-timeout {t}: must be a number of seconds from {lo} to {hi}");
    }
    Ok(())
}

pub fn run(library: Arc<ScriptLibrary>, args: &SimArgs) -> Result<()> {
    check_numbers(args)?;
    let mut limits = Limits::default();
    // Without the exact count, the watchdog stops script code that never
    // returns.
    let watchdog = if args.exact_budget {
        None
    } else {
        limits.instructions = None;
        let limit = Duration::try_from_secs_f64(args.step_timeout)
            .map_err(|e| anyhow!("--step-timeout {}: {e}", args.step_timeout))?;
        Some(Watchdog::start(limit))
    };
    let engine = Engine::with_limits(library.clone(), limits)?;
    let mut game_args = args.game.clone();
    let first_seed = game_args.seed.unwrap_or(1);
    game_args.seed = Some(first_seed);
    // This thread composes the rules and starts game 0 once before the
    // workers start, to fail early: under the watchdog too.
    let checker = watchdog.as_ref().map(|w| w.watch(engine.activity()));
    if let Some(w) = &checker {
        w.at(0, first_seed, Phase::Rules);
    }
    let fill = |_: &_| SeatSpec::Bot(deckhand_core::BotKind::Random);
    let (cfg, specs) = setup::game_config(&engine, &game_args, fill)?;
    let rules = engine.rules_of(&cfg)?;
    if let Some(seat) = args.trace_seat {
        if !(1..=cfg.players).contains(&seat) {
            bail!("--trace-seat {seat}: the seats are 1 to {}", cfg.players);
        }
    }
    if specs.contains(&SeatSpec::Human) {
        bail!("sim needs bots at every seat (got 'human')");
    }
    if let Some(w) = &checker {
        w.at(0, first_seed, Phase::Setup);
    }
    let options = engine
        .new_game(cfg.clone(), false)
        .with_context(|| format!("game 0 (seed {first_seed}), setup"))?
        .options()
        .clone();
    drop(checker);
    let threads = args
        .threads
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let n = args.games;
    // Batches small enough to balance the threads; with a trace, small
    // enough that the records a batch holds in memory stay a few megabytes
    // (a 4-player Sea Change game writes about 30 KB).
    let max_batch = if args.trace.is_some() { 64 } else { 500 };
    let chunk = (n / (threads as u64 * 8)).clamp(1, max_batch);
    // Batch k holds the games k * chunk .. (k + 1) * chunk (the last one
    // fewer), computed when taken: nothing is allocated per game.
    let batches = n.div_ceil(chunk);
    let batch = |k: u64| (k * chunk, ((k + 1) * chunk).min(n));
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(n)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let tracing = args.trace.is_some();
    let players = cfg.players as usize;
    let start = Instant::now();
    // Each thread adds up the totals of its batches and keeps the first
    // (lowest numbered) batch that failed; each batch hands its trace
    // records to the trace file, which keeps those written before a
    // failure.
    // Every worker thread makes one engine (VM, compiled scripts: as much
    // work as a few games, and the JIT compiler's warm-up) and takes the
    // next batch from a shared counter until none is left, so that a slow
    // batch does not hold the others up.
    let trace_file = match &args.trace {
        Some(p) => Some(TraceFile::create(p).with_context(|| format!("creating {}", p.display()))?),
        None => None,
    };
    let next = AtomicU64::new(0);
    // After a failed batch no new one starts: every later batch would be
    // thrown away.
    let failed = AtomicBool::new(false);
    let per_thread: Vec<ThreadResult> = pool.broadcast(|_| {
        let made = Engine::with_limits(library.clone(), limits).map(|engine| {
            let worker = watchdog.as_ref().map(|w| w.watch(engine.activity()));
            (engine, worker)
        });
        let mut all = Totals::default();
        let mut first_error: Option<(usize, anyhow::Error)> = None;
        // The trace records of this thread's batch, one buffer reused.
        let mut buffer = Vec::new();
        while !failed.load(Ordering::Relaxed) {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= batches {
                break;
            }
            let (a, b) = batch(k);
            let k = usize::try_from(k).unwrap_or(usize::MAX);
            let mut totals = Totals::default();
            let mut tw = tracing.then(|| {
                let w = TraceWriter::with_level(std::mem::take(&mut buffer), args.trace_level);
                match args.trace_seat {
                    Some(seat) => w.for_seat(seat),
                    None => w,
                }
            });
            let mut play_batch = || -> Result<()> {
                let (engine, worker) = made.as_ref().map_err(|e| anyhow!("{e}"))?;
                for i in a..b {
                    let mut c = cfg.clone();
                    c.seed = first_seed.wrapping_add(i);
                    let played = play_one(
                        engine,
                        c,
                        &specs,
                        i,
                        &mut totals,
                        tw.as_mut(),
                        worker.as_deref(),
                    );
                    if let Some(w) = worker {
                        w.idle();
                    }
                    played?;
                    bar.inc(1);
                }
                Ok(())
            };
            let error = play_batch().err();
            if error.is_some() {
                failed.store(true, Ordering::Relaxed);
            }
            if let (Some(f), Some(tw)) = (&trace_file, tw) {
                // The buffer comes back empty, for the next batch.
                buffer = tw.into_inner();
                f.put(k, &mut buffer, error.is_some());
            }
            all = all.merge(totals);
            if let Some(e) = error {
                if first_error.as_ref().is_none_or(|(j, _)| k < *j) {
                    first_error = Some((k, e));
                }
            }
        }
        (all, first_error)
    });
    let elapsed = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    // The totals of every game, or the error of the first failing batch.
    let mut totals = Totals::default();
    let mut failure: Option<(usize, anyhow::Error)> = None;
    for (t, error) in per_thread {
        totals = totals.merge(t);
        if let Some((k, e)) = error {
            if failure.as_ref().is_none_or(|(j, _)| k < *j) {
                failure = Some((k, e));
            }
        }
    }
    let failure = failure.map(|(_, e)| e);
    if let Some(f) = trace_file {
        f.finish().context("writing the trace")?;
    }
    if let Some(e) = failure {
        return Err(match &args.trace {
            Some(p) => e.context(format!(
                "{} holds the games before the failing one, and that one up to its failing step",
                p.display()
            )),
            None => e,
        });
    }
    totals.wins.resize(players, 0);
    totals.score.resize(players, 0.0);
    let report = SimReport {
        game: cfg.game.clone(),
        variants: cfg.variants.clone(),
        options: options.into_iter().collect(),
        players: cfg.players,
        games: n,
        first_seed,
        seats: specs
            .iter()
            .enumerate()
            .map(|(i, s)| SeatStats {
                seat: i as u32 + 1,
                bot: s.name(),
                wins: totals.wins[i],
                win_rate: totals.wins[i] as f64 / n.max(1) as f64,
                mean_score: totals.score[i] / n.max(1) as f64,
            })
            .collect(),
        shared_wins: totals.shared,
        no_winner: totals.none,
        mean_rounds: totals.rounds as f64 / n.max(1) as f64,
        mean_steps: totals.steps as f64 / n.max(1) as f64,
        elapsed_s: elapsed,
        games_per_s: n as f64 / elapsed.max(1e-9),
        threads,
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_report(&report, &rules.info.title);
    }
    Ok(())
}

fn print_report(r: &SimReport, title: &str) {
    let variants = if r.variants.is_empty() {
        String::new()
    } else {
        format!(" + {}", r.variants.join(" + "))
    };
    outln!(
        "{title}{variants}: {} players, {} games (seeds {}..{})",
        r.players,
        r.games,
        r.first_seed,
        r.first_seed.wrapping_add(r.games.saturating_sub(1))
    );
    outln!(
        "{:<6}{:<10}{:>8}{:>9}{:>13}",
        "seat",
        "bot",
        "wins",
        "win %",
        "mean score"
    );
    for s in &r.seats {
        outln!(
            "{:<6}{:<10}{:>8}{:>8.1}%{:>13.2}",
            s.seat,
            s.bot,
            s.wins,
            s.win_rate * 100.0,
            s.mean_score
        );
    }
    outln!(
        "shared wins: {}, games without a winner: {}",
        r.shared_wins,
        r.no_winner
    );
    outln!(
        "mean rounds per game: {:.2}, mean decisions per game: {:.1}",
        r.mean_rounds,
        r.mean_steps
    );
    outln!(
        "elapsed {:.2} s, {:.0} games/s on {} thread{}",
        r.elapsed_s,
        r.games_per_s,
        r.threads,
        if r.threads == 1 { "" } else { "s" }
    );
}
