//! `deckhand`: play, simulate and check card games whose rules are Lua
//! scripts. With no arguments it starts the REPL.

/// `println!` for command output: when stdout is a closed pipe
/// (`deckhand replay save.json | head`), stop quietly instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout().lock(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
    }};
}

/// mimalloc instead of the system allocator (see [`crate::allocator`]):
/// Lua allocates and frees many small tables, and a simulation runs about
/// 7 % faster with it (docs/performance.md).
#[global_allocator]
static GLOBAL: crate::allocator::Allocator = crate::allocator::Allocator;

mod allocator;
mod commands;
mod interrupt;
mod offload;
mod render;
mod repl;
mod report_html;
mod scripts;
mod seats;
mod trace_file;
mod watchdog;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "deckhand",
    version,
    about = "Play, simulate and script card games whose rules are Lua scripts"
)]
struct Cli {
    /// Extra scripts folder searched before the built-in scripts (repeatable).
    #[arg(long = "scripts", global = true, value_name = "DIR")]
    scripts: Vec<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// What defines a game, shared by `play` and `sim`.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// Game id (see `deckhand games`).
    pub game: String,
    /// Number of players (default: the game's default).
    #[arg(long, short = 'p')]
    pub players: Option<u32>,
    /// Variant name or house-rule file, applied in the order given (repeatable).
    #[arg(long = "variant", short = 'v', value_name = "V")]
    pub variants: Vec<String>,
    /// Option as KEY=VALUE (repeatable).
    #[arg(long = "option", short = 'o', value_name = "K=V")]
    pub options: Vec<String>,
    /// Seed of the game's random generator (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Who sits at each seat, in seat order: human, random, mc or ismcts (search bots; mc:500 for 500 playouts a move, up to 100000; ismcts:1s or ismcts:200ms for a time), a strength the game names (easy, medium, hard), or a bot of the game (repeatable).
    #[arg(long = "seat", value_name = "WHO")]
    pub seats: Vec<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List games, their variants, player ranges, options and bots.
    Games {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play a game at the terminal (bots take the seats not given as human).
    Play(GameArgs),
    /// Simulate many games between bots and print statistics with 95% intervals.
    #[command(mut_arg("seed", |a| a.help(
        "Seed of the first game: game i is dealt from seed + i - 1 (default: 1)"
    )))]
    Sim(commands::sim::SimArgs),
    /// Compare rule sets, options or bots on the same seeds: every statistic per arm and the paired differences, with 95% intervals.
    Compare(commands::compare::CompareArgs),
    /// Search option values for those that bring a statistic closest to a target, or maximise or minimise it (successive halving on paired seeds).
    #[command(mut_arg("seed", |a| a.help(
        "Seed of the first game: game i of every candidate is dealt from seed + i - 1 (default: 1)"
    )))]
    Tune(commands::tune::TuneArgs),
    /// Rate bots at mixed tables (every set of them in every seat rotation, on the same deals): ratings with 95% intervals on an Elo-like scale, random at 0.
    Ladder(commands::ladder::LadderArgs),
    /// Is it a better game? Per rule set: how much skill pays (a strength dial of search bots), how much is luck, what a mechanic is worth, how fair the seats are; 95% intervals and paired differences.
    Skill(commands::skill::SkillArgs),
    /// Merge the result files of the shards of one run (--shard K/N) into its report.
    Merge(commands::merge::MergeArgs),
    /// Replay a saved game, step by step or to the end.
    Replay(commands::replay::ReplayArgs),
    /// Load a game, variant or house rule and play random games checking the invariants.
    Check(commands::check::CheckArgs),
    /// Run a Lua file against a new game: set up a position by card names, play moves, print.
    Lua(commands::lua::LuaArgs),
    /// Read the scripts built into deckhand, which error messages name: list them, print one, or export them all to a folder to edit and use with --scripts.
    Scripts(commands::scripts::ScriptsArgs),
    /// A search for a game played in the counting interpreter, run compiled
    /// in a process of its own (see offload.rs); not for people.
    #[command(name = "search-worker", hide = true)]
    SearchWorker,
}

fn main() {
    let cli = Cli::parse();
    let library = scripts::library(&cli.scripts);
    offload::set_scripts(&cli.scripts);
    let result: Result<()> = match cli.command {
        None => repl::run(library, None),
        Some(Command::Games { json }) => commands::games::run(&library, json),
        Some(Command::Play(args)) => commands::play::run(library, &args),
        Some(Command::Sim(args)) => commands::sim::run(library, &args),
        Some(Command::Compare(args)) => commands::compare::run(library, &args),
        Some(Command::Tune(args)) => commands::tune::run(library, &args),
        Some(Command::Ladder(args)) => commands::ladder::run(library, &args),
        Some(Command::Skill(args)) => commands::skill::run(library, &args),
        Some(Command::Merge(args)) => commands::merge::run(&args),
        Some(Command::Replay(args)) => commands::replay::run(library, &args),
        Some(Command::Check(args)) => commands::check::run(library, &args),
        Some(Command::Lua(args)) => commands::lua::run(library, &args),
        Some(Command::Scripts(args)) => commands::scripts::run(&args),
        Some(Command::SearchWorker) => offload::serve(library),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
