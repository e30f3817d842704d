//! Running an experiment for `sim` and `compare`: the arms' rules checked
//! once, then the core's lab ([`deckhand_lab`]) playing the games on
//! worker threads, under the watchdog, with a progress bar and, for `sim`,
//! the trace file. The statistics are the core's; this module only plays
//! the games and hands their outcomes over.

use crate::seats::SeatSpec;
use crate::trace_file::TraceFile;
use crate::watchdog::{Phase, Watchdog, Worker};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use deckhand_bots::BotKind;
use deckhand_engine::lua::Limits;
use deckhand_engine::{
    Choice, Chooser, Choosing, Engine, Event, Game, GameConfig, Observer, Runner, ScriptLibrary,
    Seat, Stop, TraceLevel, TraceWriter,
};
use deckhand_lab::{
    Experiment, Key, Outcome, Played, Player, Report, RunError, Schedule, Shard, StopRule, Timed,
};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most games one run may play (`-n`, `--max-games`): a billion games
/// take days.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// The most arms one experiment may have.
pub const MAX_ARMS: usize = 64;

/// The most worker threads (`-j`).
pub const MAX_THREADS: usize = 256;

/// `--step-timeout` unless given: a runaway is stopped within a second
/// (the watchdog looks every tenth of the limit), while the slowest call
/// of the games shipped takes a few hundredths of a second.
pub const DEFAULT_STEP_TIMEOUT: f64 = 0.8;

/// The range of `--step-timeout`, in seconds (a hundredth of a second to a
/// day).
pub const STEP_TIMEOUT_RANGE: (f64, f64) = (0.01, 86_400.0);

/// How many games, how to stop, how to run and how to print: shared by
/// `sim` and `compare`.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// How many games (in each arm; at most 1000000000). Default 100 for
    /// sim, 1000 for compare, 200 for tune (each candidate's first round).
    #[arg(long = "games", short = 'n', allow_negative_numbers = true, value_parser = parse_games)]
    pub games: Option<u64>,
    /// Run until the 95% interval of the statistic named by --on is at most
    /// this wide on each side (with several arms: every difference of it
    /// against the first arm), looking every --every games.
    #[arg(long, value_name = "H", requires = "on")]
    pub precision: Option<f64>,
    /// The statistic of --precision: win.seat1, edge, rounds, decisions,
    /// margin, shared, score.seat2, win.team1, win.player2, lead.player2, metric:NAME ...
    #[arg(long, value_name = "STAT", requires = "precision")]
    pub on: Option<String>,
    /// Run until the result on STAT is decisive: with several arms, until
    /// every difference of STAT against the first arm excludes 0; with one
    /// arm, until STAT excludes --against. Each look uses an interval at
    /// the level 1 - 0.05/L for at most L looks (--max-games / --every), so
    /// looking often does not raise the chance of a false stop above 5%.
    #[arg(long, value_name = "STAT", conflicts_with_all = ["precision", "games"])]
    pub decisive: Option<String>,
    /// The value a one-arm --decisive run must exclude (e.g. 0.25, a fair
    /// share of wins at 4 players).
    #[arg(long, value_name = "X", requires = "decisive")]
    pub against: Option<f64>,
    /// Games between two looks at --precision or --decisive (in seed
    /// order). Default 1000 for --precision, 100 for --decisive.
    #[arg(long, value_name = "N")]
    pub every: Option<u64>,
    /// The most games --precision or --decisive may play.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub max_games: u64,
    /// Print the report as one JSON object.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the report as CSV: one line per statistic of every table.
    #[arg(long)]
    pub csv: bool,
    /// Draw the distributions of game length (rounds, decisions), final
    /// scores and winning margin under the text report.
    #[arg(long)]
    pub histograms: bool,
    /// Count every Lua instruction against the per-step budget, so that a
    /// step that never ends fails with its script file and line (the JIT
    /// compiler is then off: about a third slower). Without it a watchdog
    /// ends the run when one step runs longer than --step-timeout.
    #[arg(long)]
    pub exact_budget: bool,
    /// Seconds a call into the scripts (loading the rules, setup, a bot's
    /// decision, a step) may run before the watchdog ends the run, when the
    /// budget is not counted exactly (0.01 to 86400).
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_STEP_TIMEOUT)]
    pub step_timeout: f64,
    /// Worker threads (default: one per core; at most 256).
    #[arg(long, short = 'j')]
    pub threads: Option<usize>,
    /// Write the report as one self-contained HTML page (tables and
    /// charts, no network) to FILE, besides the text, JSON or CSV.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Play only shard K of N: the K-th of N blocks of the games, in seed
    /// order, and print its result file (JSON) for `deckhand merge`
    /// instead of a report (see docs/scale.md).
    #[arg(long, value_name = "K/N", conflicts_with_all = ["json", "csv", "histograms", "html"])]
    pub shard: Option<Shard>,
    /// Keep every game's finishing places in the tally (`ladder` fits its
    /// ratings from them); not a flag.
    #[arg(skip)]
    pub placings: bool,
}

/// Check a number of games (`-n` of `sim`, `compare` and `check`): at
/// least one, at most [`MAX_GAMES`].
pub fn check_game_count(n: u64, per: &str) -> Result<()> {
    if n == 0 {
        bail!("-n 0: no game to play; give -n 1 or more");
    }
    if n > MAX_GAMES {
        bail!("-n {n}: at most {MAX_GAMES} games {per}");
    }
    Ok(())
}

impl RunArgs {
    /// A run of exactly `deals` games that keeps every game's finishing
    /// places (a ladder's, a skill report's), printed as JSON when `json`,
    /// as shard `shard` of the whole when given.
    pub fn of_placings(
        deals: u64,
        json: bool,
        exact_budget: bool,
        step_timeout: f64,
        threads: Option<usize>,
        shard: Option<Shard>,
    ) -> RunArgs {
        RunArgs {
            games: Some(deals),
            precision: None,
            on: None,
            decisive: None,
            against: None,
            every: None,
            max_games: deals,
            json,
            csv: false,
            histograms: false,
            exact_budget,
            step_timeout,
            threads,
            html: None,
            shard,
            placings: true,
        }
    }

    /// The stopping rule, checked (`default_games` without -n).
    pub fn stop_rule(&self, default_games: u64) -> Result<StopRule> {
        if let Some(on) = &self.decisive {
            let on: Key = on.parse().map_err(|e: String| anyhow!("--decisive {e}"))?;
            let every = self.every.unwrap_or(100);
            self.check_looks(every)?;
            if every < 20 {
                bail!("--every {every}: --decisive looks every 20 games or more");
            }
            let against = self.against.unwrap_or(0.0);
            if !against.is_finite() {
                bail!("--against {against}: must be a number");
            }
            return Ok(StopRule::Decisive {
                on,
                against,
                every,
                max: self.max_games,
            });
        }
        let Some(target) = self.precision else {
            let n = self.games.unwrap_or(default_games);
            check_game_count(n, "in one run")?;
            return Ok(StopRule::Games(n));
        };
        if self.games.is_some() {
            bail!("give either -n (a number of games) or --precision (run until it is reached)");
        }
        if !(target.is_finite() && target > 0.0) {
            bail!("--precision {target}: must be a positive number");
        }
        let on: Key = self
            .on
            .as_deref()
            .unwrap_or("")
            .parse()
            .map_err(|e: String| anyhow!("--on {e}"))?;
        let every = self.every.unwrap_or(1000);
        self.check_looks(every)?;
        Ok(StopRule::Precision {
            target,
            on,
            every,
            max: self.max_games,
        })
    }

    /// Check --max-games and the games between two looks.
    fn check_looks(&self, every: u64) -> Result<()> {
        if self.max_games == 0 || self.max_games > MAX_GAMES {
            bail!("--max-games {}: from 1 to {MAX_GAMES}", self.max_games);
        }
        if every < 2 || every > self.max_games {
            bail!(
                "--every {every}: from 2 to --max-games ({})",
                self.max_games
            );
        }
        Ok(())
    }

    /// Check the threads and the timeout.
    fn check(&self) -> Result<()> {
        if let Some(j) = self.threads {
            if !(1..=MAX_THREADS).contains(&j) {
                bail!("-j {j}: the number of threads must be from 1 to {MAX_THREADS}");
            }
        }
        let (lo, hi) = STEP_TIMEOUT_RANGE;
        let t = self.step_timeout;
        if !(t.is_finite() && (lo..=hi).contains(&t)) {
            bail!("--step-timeout {t}: must be a number of seconds from {lo} to {hi}");
        }
        Ok(())
    }
}

/// The progress bar's rate: whole games a second ("86/s"), a tenth below
/// 10 ("2.5/s").
fn rate_text(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec < 0.0 {
        "-/s".to_string()
    } else if per_sec < 10.0 {
        format!("{per_sec:.1}/s")
    } else {
        format!("{per_sec:.0}/s")
    }
}

/// `-n N`: a whole number of games; a negative one is named as such
/// rather than taken for an option.
fn parse_games(s: &str) -> std::result::Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) => Ok(n),
        Err(_) if s.trim().parse::<i64>().is_ok() => {
            Err("a number of games is 1 or more (-n 100)".to_string())
        }
        Err(_) => Err("not a whole number of games (-n 100)".to_string()),
    }
}

/// Check, before anything is played, that the file `path` (the `--html`
/// page) can be written: opened for writing when it exists (left as it
/// is), or made and removed again when it does not.
pub fn check_writable(path: &Path, what: &str) -> Result<()> {
    let tried = if path.exists() {
        std::fs::OpenOptions::new().write(true).open(path).map(drop)
    } else {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .and_then(|f| {
                drop(f);
                std::fs::remove_file(path)
            })
    };
    tried.with_context(|| format!("cannot write {what} to {}", path.display()))
}

/// Make the experiment with `build` (which composes the rules of its arms),
/// check every arm (rules composed, options resolved, game 0 set up), all
/// under the watchdog, play it and build its report. `trace`: the trace
/// file of a one-arm run.
pub fn run(
    library: Arc<ScriptLibrary>,
    args: &RunArgs,
    default_games: u64,
    first_seed: u64,
    trace: Option<&TraceSpec>,
    build: impl FnOnce(&Engine) -> Result<Experiment>,
) -> Result<Timed> {
    let stop = args.stop_rule(default_games)?;
    if let Some(path) = &args.html {
        check_writable(path, "the HTML page (--html)")?;
    }
    let total = stop.max_games();
    let (stop, games) = match args.shard {
        None => (stop, 0..total),
        Some(shard) => {
            if stop.sequential() {
                bail!(
                    "--shard needs a fixed number of games (-n): --precision and --decisive \
                     stop at a look at every game played so far, in seed order, which one \
                     shard cannot see"
                );
            }
            let games = shard.games(total);
            (StopRule::Games(games.end - games.start), games)
        }
    };
    run_games(library, args, stop, total, games, first_seed, trace, build)
}

/// [`run`] over `games` (a block of the `total` games of the run, all of
/// them when not sharded) with the stopping rule `stop`.
#[allow(clippy::too_many_arguments)]
pub fn run_games(
    library: Arc<ScriptLibrary>,
    args: &RunArgs,
    stop: StopRule,
    total: u64,
    games: std::ops::Range<u64>,
    first_seed: u64,
    trace: Option<&TraceSpec>,
    build: impl FnOnce(&Engine) -> Result<Experiment>,
) -> Result<Timed> {
    args.check()?;
    if trace.is_some() && stop.sequential() {
        bail!("--trace needs a fixed number of games (-n), not --precision or --decisive");
    }
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
    // This thread composes each arm's rules and starts its game 0 once
    // before the workers start, to fail early: under the watchdog too.
    let checker = watchdog.as_ref().map(|w| w.watch(engine.activity()));
    if let Some(w) = &checker {
        w.at(0, first_seed, Phase::Rules);
    }
    let experiment = build(&engine)?;
    let experiment = &experiment;
    if let StopRule::Decisive { on, .. } = &stop {
        match (experiment.arms.len(), args.against) {
            (1, None) => bail!(
                "--decisive {on} with one arm needs --against X: the value it must exclude \
                 (e.g. 0.25, a fair share of wins at 4 players)"
            ),
            (n, Some(x)) if n > 1 => bail!(
                "--against {x}: with several arms --decisive compares each arm with the \
                 first (its differences must exclude 0); --against is for one arm"
            ),
            _ => {}
        }
    }
    let mut metrics = BTreeMap::new();
    let mut shares = BTreeSet::new();
    let mut options = Vec::new();
    let mut titles = Vec::new();
    let mut scripts = Vec::new();
    for (a, arm) in experiment.arms.iter().enumerate() {
        if let Some(w) = &checker {
            w.at(0, first_seed, Phase::Rules);
        }
        let rules = engine.rules_of(&arm.config).map_err(|e| {
            anyhow!(super::setup::explain_rules_error(
                engine.library(),
                &arm.config.game,
                e,
                "deckhand games"
            ))
        })?;
        titles.push(rules.info.title.clone());
        scripts.push(engine.scripts_of(&arm.config)?.into_iter().collect());
        for (name, m) in &rules.info.metrics {
            metrics.insert(name.clone(), m.doc.clone());
            if m.share {
                shares.insert(name.clone());
            }
        }
        if let Some(w) = &checker {
            w.at(0, first_seed, Phase::Setup);
        }
        let game = engine
            .new_game(experiment.config(a, 0), false)
            .with_context(|| {
                let arm = if experiment.arms.len() > 1 {
                    format!("arm {}: ", arm.name)
                } else {
                    String::new()
                };
                format!("{arm}game 0 (seed {first_seed}), setup")
            })?;
        options.push(game.options().clone().into_iter().collect());
    }
    drop(checker);
    let threads = args
        .threads
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .max(1);
    let max = stop.max_games();
    // Batches small enough to balance the threads; with a trace, small
    // enough that the records a batch holds in memory stay a few megabytes
    // (a 4-player Sea Change game writes about 30 KB). The statistics do
    // not depend on the batches.
    let max_batch = if trace.is_some() { 64 } else { 500 };
    let batch = (stop.window().min(max) / (threads as u64 * 8)).clamp(1, max_batch);
    let bar = if args.json || args.csv {
        ProgressBar::hidden()
    } else {
        // Every game of every arm.
        ProgressBar::new(max.saturating_mul(experiment.arms.len() as u64))
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {rate} eta {eta}")
            .map(|s| {
                s.with_key(
                    "rate",
                    |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = w.write_str(&rate_text(state.per_sec()));
                    },
                )
            })
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if let Some(seat) = trace.and_then(|t| t.seat) {
        let players = experiment.arms.first().map_or(0, |a| a.config.players);
        if !(1..=players).contains(&seat) {
            bail!("--trace-seat {seat}: the seats are 1 to {players}");
        }
    }
    let trace_file = match trace {
        Some(t) => Some((
            TraceFile::create(&t.path).with_context(|| format!("creating {}", t.path.display()))?,
            t,
        )),
        None => None,
    };
    let schedule = Schedule {
        stop: stop.clone(),
        threads,
        batch,
        placings: args.placings,
        first_game: games.start,
    };
    let start = Instant::now();
    // Every worker thread makes one engine per arm (VM, compiled scripts:
    // as much work as a few games, and the JIT compiler's warm-up) and
    // takes the next batch until none is left. One VM per arm: two sets of
    // rules played in turn in one VM share its compiled code, which then
    // fits neither (compare was 2.5 times slower than the sims of its arms,
    // docs/lab.md).
    // Arms with the same rules (a ladder's tables) share their VM: what
    // slows arms that share one is two sets of rules in it. `engine_of[a]`:
    // the place of arm `a`'s engine among those a worker makes.
    let mut engine_of: Vec<usize> = Vec::with_capacity(experiment.arms.len());
    let mut engines = 0;
    for (a, arm) in experiment.arms.iter().enumerate() {
        match experiment.arms[..a]
            .iter()
            .position(|b| b.config == arm.config)
        {
            Some(b) => engine_of.push(engine_of[b]),
            None => {
                engine_of.push(engines);
                engines += 1;
            }
        }
    }
    let engine_of = &engine_of;
    let ran = deckhand_lab::run(
        &schedule,
        experiment.arms.len(),
        || {
            let made = (0..engines)
                .map(|_| {
                    Engine::with_limits(library.clone(), limits).map(|engine| {
                        let worker = watchdog.as_ref().map(|w| w.watch(engine.activity()));
                        (engine, worker)
                    })
                })
                .collect();
            Games {
                made,
                engine_of,
                experiment,
                offset: games.start,
                trace: trace_file
                    .as_ref()
                    .map(|(f, spec)| (f, *spec, spec.writer(Vec::new()))),
            }
        },
        || bar.inc(1),
    );
    let elapsed = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    if let Some((f, _)) = trace_file {
        f.finish().context("writing the trace")?;
    }
    let ran = match ran {
        Ok(r) => r,
        Err(RunError::Statistic(msg)) => bail!("{msg}"),
        Err(RunError::Play { error, .. }) => {
            let Some(p) = trace.map(|t| &t.path) else {
                return Err(error);
            };
            let kept =
                "holds the games before the failing one, and that one up to its failing step";
            return Err(error.context(format!("{} {kept}", p.display())));
        }
    };
    let mut report = Report::new(experiment, &ran, metrics, shares, &options);
    if stop.sequential() {
        report.stop_rule = Some(stop.clone());
    }
    let played = Played {
        tally: ran.tally,
        configs: experiment.arms.iter().map(|a| a.config.clone()).collect(),
        scripts,
        total,
        games,
    };
    let games = report.games * experiment.arms.len() as u64;
    let mut title = titles.first().cloned().unwrap_or_default();
    if experiment.arms.len() == 1 {
        for v in &experiment.arms[0].config.variants {
            title.push_str(&format!(" + {v}"));
        }
    }
    Ok(Timed {
        report,
        title,
        elapsed_s: elapsed,
        games_per_s: games as f64 / elapsed.max(1e-9),
        threads,
        played,
    })
}

/// One worker thread's games: its engine for each arm (or why one could
/// not be made),
/// its watchdog mark and the trace records of its current batch.
struct Games<'a> {
    made: deckhand_engine::Result<Vec<(Engine, Option<Arc<Worker>>)>>,
    /// The place of each arm's engine in `made` (arms with the same rules
    /// share one).
    engine_of: &'a [usize],
    experiment: &'a Experiment,
    /// The run's game number of this part's game 0 (a shard's first).
    offset: u64,
    trace: Option<(&'a TraceFile, &'a TraceSpec, TraceWriter<Vec<u8>>)>,
}

/// The trace of a one-arm run: its file, how much it holds, and whose
/// knowledge (none: everything).
#[derive(Debug, Clone)]
pub struct TraceSpec {
    pub path: PathBuf,
    pub level: TraceLevel,
    pub seat: Option<u32>,
}

impl TraceSpec {
    /// A writer of this trace's records into `buffer`.
    fn writer(&self, buffer: Vec<u8>) -> TraceWriter<Vec<u8>> {
        let w = TraceWriter::with_level(buffer, self.level);
        match self.seat {
            Some(seat) => w.for_seat(seat),
            None => w,
        }
    }
}

impl Player for Games<'_> {
    type Error = anyhow::Error;

    fn play(&mut self, index: u64, arm: usize) -> Result<Outcome> {
        let index = index + self.offset;
        let engines = self.made.as_ref().map_err(|e| anyhow!("{e}"))?;
        let (engine, worker) = self
            .engine_of
            .get(arm)
            .and_then(|&e| engines.get(e))
            .ok_or_else(|| anyhow!("no engine for arm {arm}"))?;
        let cfg = self.experiment.config(arm, index);
        let bots = self.experiment.seating(arm, index);
        let tw = self.trace.as_mut().map(|(_, _, tw)| tw);
        let bot_seed = self.experiment.bot_seed(arm, index);
        let played = play_one(engine, cfg, &bots, bot_seed, index, tw, worker.as_deref());
        if let Some(w) = worker {
            w.idle();
        }
        let mut outcome = if self.experiment.arms.len() > 1 {
            let name = &self.experiment.arms[arm].name;
            played.with_context(|| format!("arm {name}"))?
        } else {
            played?
        };
        if self.experiment.rotate {
            outcome.players_at = Some(self.experiment.players_at(arm, index));
        }
        Ok(outcome)
    }

    fn batch_done(&mut self, k: u64, failed: bool) {
        if let Some((file, spec, tw)) = &mut self.trace {
            // The buffer comes back empty, and is reused for the next batch.
            let mut records = std::mem::replace(tw, spec.writer(Vec::new())).into_inner();
            file.put(
                usize::try_from(k).unwrap_or(usize::MAX),
                &mut records,
                failed,
            );
            *tw = spec.writer(records);
        }
    }
}

/// Play one game between bots (`bots[s]` at seat `s + 1`) and read its
/// outcome; the bots are seeded by `bot_seed` (the game's seed, unless
/// the arm salts it) and their seats; `trace` receives its records when given. `watched` is told the
/// phase before every piece of script code runs (composing the rules,
/// setup, each bot decision and step, the result), so that the watchdog
/// can name it; the caller marks the worker idle after. The game is played
/// by the core's [`Runner`]: the trace writer and the watchdog's marks of
/// steps are its observers, and the bots' choosers mark their decisions.
pub fn play_one(
    engine: &Engine,
    cfg: GameConfig,
    bots: &[deckhand_bots::BotKind],
    bot_seed: u64,
    index: u64,
    trace: Option<&mut TraceWriter<Vec<u8>>>,
    watched: Option<&Worker>,
) -> Result<Outcome> {
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
    // A trace leaves the events' words out: the scripts need not build them.
    let game = match trace {
        Some(_) => engine.new_traced_game(cfg),
        None => engine.new_game(cfg, false),
    };
    let mut game = game.with_context(|| format!("game {index} (seed {seed}), setup"))?;
    if let Some(t) = &trace {
        t.prepare(&mut game);
    }
    let specs: Vec<SeatSpec> = bots.iter().map(|k| SeatSpec::Bot(k.clone())).collect();
    let seats = crate::seats::bots(&specs, bot_seed)
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
    let mut runner = Runner::new(seats);
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
        Ok(Stop::Over(result)) => {
            at(Phase::Result);
            Outcome::of(&game, &result)
                .with_context(|| format!("game {index} (seed {seed}), reading its metrics"))
        }
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
    fn decision(&mut self, game: &Game, _: Seat, _: &Choice) -> deckhand_engine::Result<()> {
        let step = game.history().len() + 1;
        self.worker.at(self.index, self.seed, Phase::Step(step));
        Ok(())
    }

    fn step(
        &mut self,
        game: &Game,
        _: Seat,
        _: &Choice,
        _: &[Event],
    ) -> deckhand_engine::Result<()> {
        if game.is_over() {
            self.worker.at(self.index, self.seed, Phase::Result);
        }
        Ok(())
    }
}

/// The bots of `specs`, which must all be bots.
pub fn bot_kinds(specs: &[SeatSpec], command: &str) -> Result<Vec<BotKind>> {
    specs
        .iter()
        .map(|s| match s {
            SeatSpec::Bot(k) => Ok(k.clone()),
            SeatSpec::Human => bail!("{command} needs bots at every seat (got 'human')"),
        })
        .collect()
}

#[cfg(test)]
mod rate_tests {
    use super::rate_text;

    #[test]
    fn the_progress_rate_is_rounded() {
        assert_eq!(rate_text(86.2062), "86/s");
        assert_eq!(rate_text(2.4567), "2.5/s");
        assert_eq!(rate_text(f64::NAN), "-/s");
    }
}
