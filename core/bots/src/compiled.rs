//! Searching at compiled speed for a game played in the counting
//! interpreter.
//!
//! `play`, `replay` and the REPL run a game with the instruction budget
//! (the interpreter, so that a step that never ends fails with its script
//! file and line); a search there would run its playouts about ten times
//! slower than in `sim`, where LuaJIT compiles them. So a search for such
//! a game runs on a copy of it: the game rebuilt from its config and log
//! ([`Recipe`]) in an engine that runs the compiler, on a thread of its
//! own, watched from the caller's thread.
//!
//! The copy plays exactly as the game (both paths play every game alike:
//! the conformance suite checks it on every shipped cell), so the search
//! chooses what it would have chosen in the game. When anything goes
//! wrong on the copy (the position cannot be rebuilt, the rules fail, the
//! memory limit is hit, or the copy's engine makes no call into the scripts
//! for [`STALL`]: a script that never returns, which nothing can interrupt
//! inside compiled code), the same work runs on the game itself, in the
//! interpreter, and fails there with the error and script line a user
//! would have seen without this. A copy whose script never returns keeps
//! its thread busy until the process ends (compiled Lua cannot be stopped
//! from outside); the caller is not held up by it.

use deckhand_engine::error::{CoreError, Result};
use deckhand_engine::game::{ActionRecord, Game, SeatView};
use deckhand_engine::lua::Limits;
use deckhand_engine::zone::Seat;
use deckhand_engine::{Engine, GameConfig, ScriptLibrary};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the copy's engine may go without a call into the scripts
/// before its work is taken as a runaway (the watchdog's limit for a step
/// in `sim`).
pub const STALL: Duration = Duration::from_millis(800);

/// How often the caller looks at the copy's engine.
const LOOK: Duration = Duration::from_millis(20);

/// What a thread needs to rebuild a game in a VM of its own, and what it
/// must find once rebuilt.
#[derive(Clone)]
pub struct Recipe {
    library: Arc<ScriptLibrary>,
    limits: Limits,
    config: GameConfig,
    history: Vec<ActionRecord>,
    view: SeatView,
    pending: Option<(Seat, usize)>,
}

impl Recipe {
    /// How to rebuild `game` in an engine with the limits of its own.
    pub fn of(game: &Game) -> Result<Recipe> {
        Ok(Recipe {
            library: game.host().library().clone(),
            limits: game.host().limits(),
            config: game.config().clone(),
            history: game.history().to_vec(),
            view: game.view(None)?,
            pending: game.pending(),
        })
    }

    /// The same recipe for an engine that runs the compiler.
    pub fn compiled(mut self) -> Recipe {
        self.limits.instructions = None;
        self
    }

    /// The game rebuilt from its config and log in `engine`, when that
    /// gives this very position (not after `Game::arrange`).
    pub fn rebuild_in(&self, engine: &Engine) -> Option<Game> {
        let game = engine.replay(self.config.clone(), &self.history).ok()?;
        let same = game.pending() == self.pending && game.view(None).ok()? == self.view;
        same.then_some(game)
    }

    /// A new engine with the recipe's limits.
    pub fn engine(&self) -> Option<Engine> {
        Engine::with_limits(self.library.clone(), self.limits).ok()
    }

    /// The game rebuilt in a new engine of its own (see
    /// [`Recipe::rebuild_in`]).
    pub fn rebuild(&self) -> Option<Game> {
        self.rebuild_in(&self.engine()?)
    }
}

/// What the copy's thread answers.
enum Answer<T> {
    /// The work's outcome on the copy.
    Done(Result<T>),
    /// No copy: the engine or the position could not be made.
    NoCopy,
}

/// Run `work` on a compiled copy of `game` (see the module's text); when
/// the copy fails, stalls for [`STALL`] or cannot be made, run it on
/// `game` itself. A cancelled work ([`CoreError::Cancelled`]) is not run
/// again. A game whose engine already runs the compiler needs no copy.
pub fn on_compiled_copy<T, W>(game: &Game, work: W) -> Result<T>
where
    T: Send + 'static,
    W: Fn(&Game) -> Result<T> + Send + Sync + 'static,
{
    if game.host().limits().instructions.is_none() {
        return work(game);
    }
    let work = Arc::new(work);
    match watch(game, work.clone(), STALL) {
        Some(Ok(value)) => Ok(value),
        Some(Err(CoreError::Cancelled)) => Err(CoreError::Cancelled),
        _ => work(game),
    }
}

/// The copy's outcome, or `None` when there is none to use (no copy, a
/// stall, a thread that ended without answering).
fn watch<T, W>(game: &Game, work: Arc<W>, stall: Duration) -> Option<Result<T>>
where
    T: Send + 'static,
    W: Fn(&Game) -> Result<T> + Send + Sync + 'static,
{
    let recipe = Recipe::of(game).ok()?.compiled();
    let (activity_tx, activity_rx) = mpsc::channel::<Arc<AtomicU64>>();
    let (answer_tx, answer_rx) = mpsc::channel::<Answer<T>>();
    std::thread::Builder::new()
        .name("compiled search".into())
        .spawn(move || {
            let Some(engine) = recipe.engine() else {
                let _ = answer_tx.send(Answer::NoCopy);
                return;
            };
            let _ = activity_tx.send(engine.activity());
            let answer = match recipe.rebuild_in(&engine) {
                Some(copy) => Answer::Done(work(&copy)),
                None => Answer::NoCopy,
            };
            let _ = answer_tx.send(answer);
        })
        .ok()?;
    let mut activity: Option<Arc<AtomicU64>> = None;
    let mut last = (0, Instant::now());
    loop {
        match answer_rx.recv_timeout(LOOK) {
            Ok(Answer::Done(outcome)) => return Some(outcome),
            Ok(Answer::NoCopy) | Err(RecvTimeoutError::Disconnected) => return None,
            Err(RecvTimeoutError::Timeout) => {}
        }
        if activity.is_none() {
            activity = activity_rx.try_recv().ok();
            last.1 = Instant::now();
        }
        if let Some(a) = &activity {
            let calls = a.load(Ordering::Relaxed);
            if calls != last.0 {
                last = (calls, Instant::now());
            } else if last.1.elapsed() >= stall {
                // A runaway: the thread is left to spin; the caller runs
                // the work in the interpreter, which stops it by its count.
                return None;
            }
        }
    }
}
