//! Searches at compiled speed for games played in the counting interpreter.
//!
//! `play`, `replay` and the REPL run a game with the instruction budget
//! (the interpreter: a step that never ends fails with its script file and
//! line, and the game goes on). A search bot or a hint there would run its
//! playouts about five times slower than in `sim`, where LuaJIT compiles
//! them. So the search runs in a child process (`deckhand search-worker`,
//! not listed in the help): the game rebuilt there from its config and log
//! in an engine that runs the compiler, checked to be the very position,
//! under the same watchdog as `sim` and the same memory limits. Both paths
//! play every game alike (the conformance suite checks it on every shipped
//! game), so the child chooses what the search would have chosen here.
//!
//! Compiled Lua cannot be interrupted from inside the process; a process
//! can be ended. When the child fails for any reason (a script error, its
//! watchdog ending a call that never returns, the memory limit, a position
//! it cannot rebuild, no child at all), the search runs here, in the
//! interpreter, and fails with the error and line a user would have seen
//! without the child. Ctrl-C ends the child.

use anyhow::{bail, Context, Result};
use deckhand_bots::hint::Hint;
use deckhand_bots::{Bot, BotKind, Budget};
use deckhand_engine::cancel::Cancel;
use deckhand_engine::choice::Choice;
use deckhand_engine::game::{ActionRecord, Game};
use deckhand_engine::lua::Limits;
use deckhand_engine::{Engine, GameConfig, ScriptLibrary};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The name of the hidden subcommand the child runs.
pub const WORKER: &str = "search-worker";

/// The `--scripts` folders this process was given, for the child.
static SCRIPTS: OnceLock<Vec<PathBuf>> = OnceLock::new();

/// Remember the `--scripts` folders (the child searches the same ones).
pub fn set_scripts(dirs: &[PathBuf]) {
    let _ = SCRIPTS.set(dirs.to_vec());
}

/// What the child is asked.
#[derive(Serialize, Deserialize)]
struct Job {
    config: GameConfig,
    history: Vec<ActionRecord>,
    /// The whole position as JSON, which the rebuilt game must match.
    view: String,
    task: Task,
}

#[derive(Serialize, Deserialize)]
enum Task {
    /// A bot's choice: its name, the game's seed and its seat.
    Choose { bot: String, seed: u64, seat: u32 },
    /// A hint within a budget (as typed: `20000`, `2s`, `200ms`).
    Hint { budget: String },
}

/// The child's answer.
#[derive(Serialize, Deserialize)]
enum Answer {
    Choice(Choice),
    Hint(Hint),
}

/// A budget as [`Budget::parse`] reads it.
fn budget_text(b: Budget) -> String {
    match b {
        Budget::Iterations(n) => n.to_string(),
        Budget::Time(d) => format!("{}ms", d.as_millis().max(1)),
    }
}

/// Whether searches for `game` go to a child: a game played in the
/// counting interpreter, in the real binary (a test binary of this crate
/// is not `deckhand`).
fn wanted(game: &Game) -> bool {
    !cfg!(test) && game.host().limits().instructions.is_some()
}

/// `bot`'s choice for `game`, made in a child; `None` when it is not a
/// search bot or the child gave no answer (then choose here).
pub fn choose(
    bot: &Bot,
    game: &Game,
    cancel: Option<&Cancel>,
) -> Option<deckhand_engine::Result<Choice>> {
    if !matches!(bot.kind, BotKind::Search { .. }) || !wanted(game) {
        return None;
    }
    let task = Task::Choose {
        bot: bot.kind.name().to_string(),
        seed: bot.seed(),
        seat: bot.seat(),
    };
    match run_child(game, task, cancel)? {
        Ok(Answer::Choice(c)) => Some(Ok(c)),
        Ok(Answer::Hint(_)) => None,
        Err(e) => Some(Err(e)),
    }
}

/// The hint for `game`, made in a child; `None` when the child gave no
/// answer.
pub fn hint(
    game: &Game,
    budget: Budget,
    cancel: Option<&Cancel>,
) -> Option<deckhand_engine::Result<Hint>> {
    if !wanted(game) {
        return None;
    }
    let task = Task::Hint {
        budget: budget_text(budget),
    };
    match run_child(game, task, cancel)? {
        Ok(Answer::Hint(h)) => Some(Ok(h)),
        Ok(Answer::Choice(_)) => None,
        Err(e) => Some(Err(e)),
    }
}

/// Run `task` in a child: its answer, `Some(Err(Cancelled))` when `cancel`
/// was set meanwhile, `None` when it gave none.
fn run_child(
    game: &Game,
    task: Task,
    cancel: Option<&Cancel>,
) -> Option<deckhand_engine::Result<Answer>> {
    let job = Job {
        config: game.config().clone(),
        history: game.history().to_vec(),
        view: serde_json::to_string(&game.view(None).ok()?).ok()?,
        task,
    };
    let text = serde_json::to_vec(&job).ok()?;
    let exe = std::env::current_exe().ok()?;
    let mut cmd = Command::new(exe);
    for dir in SCRIPTS.get().map_or(&[][..], Vec::as_slice) {
        cmd.arg("--scripts").arg(dir);
    }
    let mut child = cmd
        .arg(WORKER)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let mut stdout = child.stdout.take()?;
    // The answer is read on a thread of its own, so that a long one never
    // fills the pipe while this thread waits for the child to end.
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).map(|_| out)
    });
    let written = stdin.write_all(&text);
    drop(stdin);
    if written.is_err() {
        let _ = child.kill();
        let _ = child.wait();
        return None;
    }
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(_) => return None,
        }
        if cancel.is_some_and(Cancel::is_cancelled) {
            let _ = child.kill();
            let _ = child.wait();
            return Some(Err(deckhand_engine::CoreError::Cancelled));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let out = reader.join().ok()?.ok()?;
    if !status.success() {
        return None;
    }
    serde_json::from_slice::<Answer>(&out).ok().map(Ok)
}

/// The child's side (`deckhand search-worker`): read a job on stdin, rebuild
/// the game compiled, run the task under the watchdog, print the answer as
/// JSON. Exits with an error when the position cannot be rebuilt or the
/// task fails (the parent then runs it itself).
pub fn serve(library: Arc<ScriptLibrary>) -> Result<()> {
    let mut input = Vec::new();
    std::io::stdin()
        .read_to_end(&mut input)
        .context("reading the job")?;
    let job: Job = serde_json::from_slice(&input).context("reading the job")?;
    let engine = Engine::with_limits(
        library,
        Limits {
            instructions: None,
            ..Limits::default()
        },
    )?;
    // Processor time of the process, and calls of any of its engines (a
    // hint's second search runs in an engine of its own, on its own thread).
    let dog = crate::watchdog::Watchdog::start_cpu(
        crate::watchdog::RERUN_LIMIT,
        Box::new(|w, limit| {
            crate::watchdog::print_stall(w, limit);
            true
        }),
    );
    let worker = dog.watch(deckhand_engine::lua::Host::all_activity());
    worker.at(0, job.config.seed, crate::watchdog::Phase::Setup);
    let game = engine
        .replay(job.config, &job.history)
        .map_err(|stop| stop.error)?;
    if serde_json::to_string(&game.view(None)?)? != job.view {
        bail!("the rebuilt game is not the position asked about");
    }
    worker.at(
        0,
        game.config().seed,
        crate::watchdog::Phase::Bot(game.history().len() + 1),
    );
    let answer = match job.task {
        Task::Choose { bot, seed, seat } => {
            let mut bot = Bot::new(BotKind::parse(&bot), seed, seat);
            Answer::Choice(bot.choose(&game)?)
        }
        Task::Hint { budget } => {
            let budget = Budget::parse(&budget).map_err(anyhow::Error::msg)?;
            Answer::Hint(deckhand_bots::hint::hint(&game, budget, None)?)
        }
    };
    worker.idle();
    outln!("{}", serde_json::to_string(&answer)?);
    Ok(())
}
