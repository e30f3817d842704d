//! A watchdog for simulations that run without the instruction budget.
//!
//! The budget (a Lua count hook) makes the VM stop at every instruction,
//! which costs about a third of a simulation's time. Without it nothing
//! inside Lua can interrupt script code that never returns, so `sim` runs
//! this watchdog instead: a thread that looks at every engine `sim` uses
//! (the one that checks the rules first and one per worker thread) and,
//! when one is busy and has made no call into the scripts for the time
//! limit, ends the run with a message naming the game, its seed and the
//! phase: loading the rules (the top-level code of the game, variant and
//! house-rule files), the game's setup, a bot's decision or a step.
//! (`--exact-budget` brings the count back: the call then fails with the
//! script's file and line.)

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What a worker's engine is running scripts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Composing the rules: the top-level code of the game script and of
    /// each variant and house-rule file, then their `modify` functions.
    Rules,
    /// The game's setup (and the first decision).
    Setup,
    /// A bot choosing the move of this step (1 = the first decision).
    Bot(usize),
    /// Applying the move of this step.
    Step(usize),
    /// Reading the result of the finished game.
    Result,
}

impl Phase {
    fn code(self) -> (u8, u64) {
        match self {
            Phase::Rules => (0, 0),
            Phase::Setup => (1, 0),
            Phase::Bot(s) => (2, s as u64),
            Phase::Step(s) => (3, s as u64),
            Phase::Result => (4, 0),
        }
    }

    fn from_code(kind: u8, step: u64) -> Phase {
        let step = usize::try_from(step).unwrap_or(usize::MAX);
        match kind {
            0 => Phase::Rules,
            1 => Phase::Setup,
            2 => Phase::Bot(step),
            3 => Phase::Step(step),
            _ => Phase::Result,
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Phase::Rules => write!(f, "loading the rules"),
            Phase::Setup => write!(f, "setup"),
            Phase::Bot(s) => write!(f, "step {s}, bot decision"),
            Phase::Step(s) => write!(f, "step {s}"),
            Phase::Result => write!(f, "reading the result"),
        }
    }
}

/// What one worker is doing, as far as the watchdog needs to know.
pub struct Worker {
    /// The counts of calls into the scripts of the engines it uses
    /// (Engine::activity): it is working while their sum grows.
    calls: Vec<Arc<AtomicU64>>,
    game: AtomicU64,
    seed: AtomicU64,
    phase: AtomicU8,
    step: AtomicU64,
    /// Whether it is running scripts for a game (an idle worker is never
    /// stuck).
    busy: AtomicBool,
}

impl Worker {
    /// Say which game and phase the worker is at (for the message); the
    /// worker is busy until [`Worker::idle`]. Call it before the engine
    /// runs any script code for that phase.
    pub fn at(&self, game: u64, seed: u64, phase: Phase) {
        let (kind, step) = phase.code();
        self.game.store(game, Ordering::Relaxed);
        self.seed.store(seed, Ordering::Relaxed);
        self.phase.store(kind, Ordering::Relaxed);
        self.step.store(step, Ordering::Relaxed);
        self.busy.store(true, Ordering::Relaxed);
    }

    /// The phase last given to [`Worker::at`].
    pub fn phase(&self) -> Phase {
        Phase::from_code(
            self.phase.load(Ordering::Relaxed),
            self.step.load(Ordering::Relaxed),
        )
    }

    /// The worker has finished its game.
    pub fn idle(&self) {
        self.busy.store(false, Ordering::Relaxed);
    }

    /// The calls its engines have made into the scripts.
    fn calls(&self) -> u64 {
        self.calls
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .fold(0, u64::wrapping_add)
    }
}

/// What the watchdog does about a stalled worker, in its own thread:
/// `true` ends the process (exit status 2); `false` (the work was found
/// sound some other way: only slow) watches on.
pub type OnStall = Box<dyn Fn(&Worker, Duration) -> bool + Send>;

/// The watchdog's limit, in processor time ([`Watchdog::start_cpu`]),
/// where a stalled call is then run again in the counting interpreter
/// (`check`, the REPL's searches in a child process): short, so that a
/// runaway is stopped, and named, within about a second of processor time
/// in all. The heaviest calls of the games shipped take
/// a few hundredths of a second compiled; a call found slow but sound in
/// the interpreter costs time, never a wrong result.
pub const RERUN_LIMIT: Duration = Duration::from_millis(300);

/// The watchdog thread and the workers it watches; dropping it stops the
/// thread.
pub struct Watchdog {
    workers: Arc<Mutex<Vec<Weak<Worker>>>>,
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Start watching: a busy worker whose engine makes no new call into
    /// the scripts for longer than `limit` ends the process (exit status 2)
    /// after printing what was running.
    pub fn start(limit: Duration) -> Watchdog {
        Watchdog::start_with(
            limit,
            Box::new(|w, limit| {
                print_stall(w, limit);
                true
            }),
        )
    }

    /// [`Watchdog::start`], with `on_stall` run before the process ends
    /// (e.g. to find the stalled call's script line by running the same
    /// work again in the counting interpreter).
    pub fn start_with(limit: Duration, on_stall: OnStall) -> Watchdog {
        Watchdog::start_clocked(limit, on_stall, wall_clock)
    }

    /// [`Watchdog::start_with`], the limit counted in processor time of the
    /// whole process rather than in time: a call is stalled when the process
    /// has worked for `limit` without any of its engines making a call into
    /// the scripts. A busy machine, which gives the process less time, then
    /// never makes a sound call look stalled. (The process's other threads
    /// must be idle while it watches, as in `check` and the search worker.)
    pub fn start_cpu(limit: Duration, on_stall: OnStall) -> Watchdog {
        Watchdog::start_clocked(limit, on_stall, process_cpu)
    }

    fn start_clocked(limit: Duration, on_stall: OnStall, clock: fn() -> Duration) -> Watchdog {
        let workers: Arc<Mutex<Vec<Weak<Worker>>>> = Arc::default();
        let (stop, stopped) = mpsc::channel::<()>();
        let watched = workers.clone();
        let tick = (limit / 10).clamp(Duration::from_millis(20), Duration::from_secs(1));
        let thread = std::thread::spawn(move || {
            // Last seen call count of each worker, and since when.
            let mut seen: Vec<(Weak<Worker>, u64, Duration)> = Vec::new();
            loop {
                match stopped.recv_timeout(tick) {
                    Err(RecvTimeoutError::Timeout) => {}
                    _ => return,
                }
                let now = clock();
                let live: Vec<Arc<Worker>> = match watched.lock() {
                    Ok(mut list) => {
                        list.retain(|w| w.strong_count() > 0);
                        list.iter().filter_map(Weak::upgrade).collect()
                    }
                    Err(_) => return,
                };
                seen.retain(|(w, _, _)| w.strong_count() > 0);
                for w in live {
                    let calls = w.calls();
                    let busy = w.busy.load(Ordering::Relaxed);
                    match seen.iter_mut().find(|(s, _, _)| ptr_eq(s, &w)) {
                        Some(entry) if entry.1 != calls || !busy => {
                            entry.1 = calls;
                            entry.2 = now;
                        }
                        Some(entry) if now.saturating_sub(entry.2) > limit => {
                            if on_stall(&w, limit) {
                                std::process::exit(2);
                            }
                            entry.2 = clock();
                        }
                        Some(_) => {}
                        None => seen.push((Arc::downgrade(&w), calls, now)),
                    }
                }
            }
        });
        Watchdog {
            workers,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Watch a worker whose engine counts its calls into scripts in
    /// `calls`; it is watched as long as the returned handle lives.
    pub fn watch(&self, calls: Arc<AtomicU64>) -> Arc<Worker> {
        self.watch_all(vec![calls])
    }

    /// [`Watchdog::watch`] for a worker that uses several engines in turn.
    pub fn watch_all(&self, calls: Vec<Arc<AtomicU64>>) -> Arc<Worker> {
        let w = Arc::new(Worker {
            calls,
            game: AtomicU64::new(0),
            seed: AtomicU64::new(0),
            phase: AtomicU8::new(0),
            step: AtomicU64::new(0),
            busy: AtomicBool::new(false),
        });
        if let Ok(mut list) = self.workers.lock() {
            list.push(Arc::downgrade(&w));
        }
        w
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn ptr_eq(a: &Weak<Worker>, b: &Arc<Worker>) -> bool {
    std::ptr::eq(a.as_ptr(), Arc::as_ptr(b))
}

/// Time since the watchdog's start (any fixed origin will do).
fn wall_clock() -> Duration {
    static ORIGIN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed()
}

/// Processor time the whole process has used.
fn process_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid clock id and a timespec to write into.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0;
    if !ok {
        return wall_clock();
    }
    Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// A call into the scripts has not returned within the limit: say where
/// (the run then ends: the stuck call cannot be interrupted from outside
/// the VM).
pub fn print_stall(w: &Worker, limit: Duration) {
    eprintln!("error: {}", stall_message(w, limit));
}

/// What [`stalled`] prints (without `error: `).
fn stall_message(w: &Worker, limit: Duration) -> String {
    format!(
        "game {} (seed {}), {}: the script has run for more than {} s without \
         returning (a loop that never ends?). Run the same simulation with \
         --exact-budget, or `deckhand check`, to have the script stopped and its \
         line named.",
        w.game.load(Ordering::Relaxed),
        w.seed.load(Ordering::Relaxed),
        w.phase(),
        limit.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_game_seed_and_phase() {
        let dog = Watchdog::start(Duration::from_secs(3600));
        let w = dog.watch(Arc::default());
        let limit = Duration::from_millis(500);
        for (phase, text) in [
            (Phase::Rules, "game 3 (seed 9), loading the rules: "),
            (Phase::Setup, "game 3 (seed 9), setup: "),
            (Phase::Bot(12), "game 3 (seed 9), step 12, bot decision: "),
            (Phase::Step(12), "game 3 (seed 9), step 12: "),
            (Phase::Result, "game 3 (seed 9), reading the result: "),
        ] {
            w.at(3, 9, phase);
            assert_eq!(w.phase(), phase);
            let m = stall_message(&w, limit);
            assert!(m.starts_with(text) && m.contains("0.5 s"), "{m}");
        }
    }

    /// A clock the test moves by hand (nanoseconds).
    static FAKE: AtomicU64 = AtomicU64::new(0);

    fn fake_clock() -> Duration {
        Duration::from_nanos(FAKE.load(Ordering::Relaxed))
    }

    #[test]
    fn a_watchdog_counts_its_own_clock_not_the_time_that_passes() {
        // As the processor-time watchdog: while the process gets no time
        // (its clock stands still) a call is never stalled, however long
        // it waits; once the process works without a call, it is.
        use std::sync::atomic::AtomicBool;
        let stalled = Arc::new(AtomicBool::new(false));
        let seen = stalled.clone();
        let dog = Watchdog::start_clocked(
            Duration::from_millis(50),
            Box::new(move |_, _| {
                seen.store(true, Ordering::Relaxed);
                false
            }),
            fake_clock,
        );
        let w = dog.watch(Arc::default());
        w.at(1, 1, Phase::Step(1));
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            !stalled.load(Ordering::Relaxed),
            "stalled while its clock stood still"
        );
        let start = Instant::now();
        while !stalled.load(Ordering::Relaxed) && start.elapsed() < Duration::from_secs(10) {
            FAKE.fetch_add(10_000_000, Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            stalled.load(Ordering::Relaxed),
            "never stalled as its clock ran"
        );
    }

    #[test]
    fn the_process_clock_runs_while_the_process_works() {
        let before = process_cpu();
        let start = Instant::now();
        let mut x = 0u64;
        while start.elapsed() < Duration::from_millis(50) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        assert!(process_cpu() > before);
    }
}
