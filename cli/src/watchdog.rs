//! A watchdog for simulations that run without the instruction budget.
//!
//! The budget (a Lua count hook) makes the VM stop at every instruction,
//! which costs about a third of a simulation's time. Without it nothing
//! inside Lua can interrupt a step that never ends, so `sim` runs this
//! watchdog instead: a thread that looks at every worker's engine and, when
//! one has made no call into the scripts for the time limit, ends the run
//! with a message naming the game and the step. (`--exact-budget` brings
//! the count back: the step then fails with the script's file and line.)

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What one worker is doing, as far as the watchdog needs to know.
pub struct Worker {
    /// The engine's count of calls into the scripts (Engine::activity).
    calls: Arc<AtomicU64>,
    game: AtomicU64,
    seed: AtomicU64,
    step: AtomicU64,
    /// Whether it is playing a game (an idle worker is never stuck).
    busy: AtomicBool,
}

impl Worker {
    /// Say which game and step the worker is at (for the message); the
    /// worker is busy until [`Worker::idle`].
    pub fn at(&self, game: u64, seed: u64, step: usize) {
        self.game.store(game, Ordering::Relaxed);
        self.seed.store(seed, Ordering::Relaxed);
        self.step.store(step as u64, Ordering::Relaxed);
        self.busy.store(true, Ordering::Relaxed);
    }

    /// The worker has finished its game.
    pub fn idle(&self) {
        self.busy.store(false, Ordering::Relaxed);
    }
}

/// The watchdog thread and the workers it watches; dropping it stops the
/// thread.
pub struct Watchdog {
    workers: Arc<Mutex<Vec<Weak<Worker>>>>,
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Start watching: a step that runs longer than `limit` ends the
    /// process (exit status 2) after printing what was running.
    pub fn start(limit: Duration) -> Watchdog {
        let workers: Arc<Mutex<Vec<Weak<Worker>>>> = Arc::default();
        let (stop, stopped) = mpsc::channel::<()>();
        let watched = workers.clone();
        let tick = (limit / 10).clamp(Duration::from_millis(20), Duration::from_secs(1));
        let thread = std::thread::spawn(move || {
            // Last seen call count of each worker, and since when.
            let mut seen: Vec<(Weak<Worker>, u64, Instant)> = Vec::new();
            loop {
                match stopped.recv_timeout(tick) {
                    Err(RecvTimeoutError::Timeout) => {}
                    _ => return,
                }
                let now = Instant::now();
                let live: Vec<Arc<Worker>> = match watched.lock() {
                    Ok(mut list) => {
                        list.retain(|w| w.strong_count() > 0);
                        list.iter().filter_map(Weak::upgrade).collect()
                    }
                    Err(_) => return,
                };
                seen.retain(|(w, _, _)| w.strong_count() > 0);
                for w in live {
                    let calls = w.calls.load(Ordering::Relaxed);
                    let busy = w.busy.load(Ordering::Relaxed);
                    match seen.iter_mut().find(|(s, _, _)| ptr_eq(s, &w)) {
                        Some(entry) if entry.1 != calls || !busy => {
                            entry.1 = calls;
                            entry.2 = now;
                        }
                        Some(entry) if now.duration_since(entry.2) > limit => {
                            stalled(&w, limit);
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
        let w = Arc::new(Worker {
            calls,
            game: AtomicU64::new(0),
            seed: AtomicU64::new(0),
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

/// A step has not returned within the limit: say where, and end the run
/// (the stuck step cannot be interrupted from outside the VM).
fn stalled(w: &Worker, limit: Duration) -> ! {
    eprintln!(
        "error: game {} (seed {}), step {}: a step has run for more than {} s without \
         returning (a script loop that never ends?). Run the same simulation with \
         --exact-budget, or `deckhand check`, to have the step stopped and the script \
         line named.",
        w.game.load(Ordering::Relaxed),
        w.seed.load(Ordering::Relaxed),
        w.step.load(Ordering::Relaxed),
        limit.as_secs_f64()
    );
    std::process::exit(2);
}
