//! `new`: start a game (or the current one again with a new seed), with
//! its players, variants, seed, seats and options given as KEY=VALUE.

use super::{Command, Run};
use crate::commands::setup::{clock_seed, default_players};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::{matching, Completion, Typed, Vocabulary};
use crate::seats::SeatSpec;
use deckhand_engine::GameConfig;

/// `new` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "new",
        aliases: &["start"],
        args: "[GAME] [players=N] [variant=V]... [seed=S] [seats=WHO,WHO,...] [OPTION=VALUE]...",
        summary: "start a new game (no GAME: the same game again with a new seed)",
        help: "Start a new game. Arguments after the game id are KEY=VALUE pairs:
  players=N          number of players (default: the game's default)
  variant=V          a variant name or a house-rule file; repeat it, or give
                     variant=a,b, to apply several in order
  seed=S             the seed of the game's shuffles (default: from the clock)
  seats=WHO,WHO,...  who sits where, seat 1 first: human, random, mc or
                     ismcts (search bots; mc:500 for 500 playouts a move,
                     up to 100000, ismcts:1s or ismcts:200ms for a time),
                     a strength the game names (easy, medium, hard: see
                     `games`), or a bot of the game;
                     seats not given get the game's first bot
                     (default: you at seat 1, bots elsewhere)
  OPTION=VALUE       any option of the game or its variants (see `options GAME`)
Without a game id, `new` starts the current game again (same variants,
options and seats) with a new seed, unless you give one.
Examples:
  new sea_change
  new sea_change players=3 target_vp=5 seed=42
  new sea_change players=4 variant=team seats=human,greedy,human,greedy
  new sea_salt_paper seats=human,hard
  new sea_change variant=my_rules/eights.lua",
    },
    parse,
    complete,
};

/// The arguments of `new`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NewArgs {
    /// The game id; `None` to restart the current game.
    pub game: Option<String>,
    pub players: Option<u32>,
    /// Variants in order (names or house-rule files).
    pub variants: Vec<String>,
    pub seed: Option<u64>,
    /// Seat kinds, seat 1 first (empty: not given).
    pub seats: Vec<String>,
    /// Game options as typed, `(name, value)`.
    pub options: Vec<(String, String)>,
}

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    Ok(Box::new(new_args(rest)?))
}

fn new_args(rest: &str) -> Result<NewArgs, String> {
    let mut args = NewArgs::default();
    for (i, word) in rest.split_whitespace().enumerate() {
        let Some((key, value)) = word.split_once('=') else {
            if i == 0 {
                args.game = Some(word.to_string());
                continue;
            }
            return Err(format!(
                "'{word}' should be KEY=VALUE (the game id comes first)"
            ));
        };
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() || value.is_empty() {
            return Err(format!("'{word}' should be KEY=VALUE"));
        }
        match key.to_ascii_lowercase().as_str() {
            "players" | "p" => {
                let n = value
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| {
                        format!(
                            "players={value}: the number of players must be a whole number from 1"
                        )
                    })?;
                args.players = Some(n);
            }
            "seed" => {
                let s = value
                    .parse::<u64>()
                    .map_err(|_| format!("seed={value}: the seed must be a whole number from 0"))?;
                args.seed = Some(s);
            }
            "variant" | "variants" | "v" => {
                args.variants.extend(args::list(value)?);
            }
            "seats" => {
                args.seats = args::list(value)?;
            }
            _ => {
                if args.options.iter().any(|(k, _)| k == key) {
                    return Err(format!("option '{key}' is given twice"));
                }
                args.options.push((key.to_string(), value.to_string()));
            }
        }
    }
    Ok(args)
}

/// The keys `new` takes besides game options.
const NEW_KEYS: &[&str] = &["players=", "variant=", "seed=", "seats="];

/// The game ids first (and the keys, when a game is in progress: `new`
/// alone restarts it), then the keys and the game's options, and after
/// `variant=` or `seats=` the game's variants or who may sit.
fn complete(v: &Vocabulary, typed: &Typed) -> Completion {
    let (word, word_start) = (typed.word(), typed.word_start);
    if typed.arg_index <= 1 && !word.contains('=') {
        let mut words: Vec<String> = v.games.iter().map(|g| g.id.clone()).collect();
        if v.current.is_some() {
            words.extend(new_keys(v, None));
        }
        return Some((word_start, matching(words, word)));
    }
    let game = typed
        .args()
        .split_whitespace()
        .next()
        .filter(|g| !g.contains('='))
        .map(str::to_string);
    let game = game.as_deref();
    match word.split_once('=') {
        None => Some((word_start, matching(new_keys(v, game), word))),
        Some((key, _)) => {
            let start = typed
                .after(',')
                .unwrap_or_else(|| typed.after('=').unwrap_or(word_start));
            let words = match key {
                "variant" | "variants" => {
                    v.game(game).map(|g| g.variants.clone()).unwrap_or_default()
                }
                "seats" => v.seat_kinds(game),
                _ => Vec::new(),
            };
            Some((start, matching(words, &typed.before[start..])))
        }
    }
}

fn new_keys(v: &Vocabulary, game: Option<&str>) -> Vec<String> {
    let mut keys: Vec<String> = NEW_KEYS.iter().map(|k| k.to_string()).collect();
    if let Some(g) = v.game(game) {
        keys.extend(g.options.iter().map(|o| format!("{o}=")));
    }
    keys
}

impl Run for NewArgs {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.new_game(*self);
        Flow::Continue
    }
}

impl Session {
    fn new_game(&mut self, args: NewArgs) {
        let base = self
            .current
            .as_ref()
            .map(|c| (c.game.config().clone(), c.seats.clone()));
        // `new GAME`: that game with its defaults; `new`: the current game again.
        let (mut cfg, mut specs) = match (&args.game, base) {
            (Some(g), _) => (GameConfig::new(g, 0, 0), vec![SeatSpec::Human]),
            (None, Some(base)) => base,
            (None, None) => {
                return self.out.error(
                    "which game? type `new GAME` (`games` lists them), e.g. `new sea_change`",
                );
            }
        };
        if !args.variants.is_empty() {
            // Variants given: their house-rule files are read afresh.
            cfg.variants = args.variants.clone();
            cfg.sources.clear();
        }
        cfg.seed = args.seed.unwrap_or_else(clock_seed);
        if let Err(e) = cfg.read_house_rules(false) {
            return self.out.error(format!("cannot start {}: {e}", cfg.game));
        }
        // Every game starts from rules loaded afresh (Engine::forget_rules).
        self.engine.forget_rules();
        let info = match self.engine.rules_of(&cfg) {
            Ok(r) => r.info.clone(),
            Err(e) => {
                let msg = self.explain_rules_error(&cfg.game, e);
                return self.out.error(msg);
            }
        };
        // Each value read by its option's declared type.
        for (k, v) in &args.options {
            match info.option_from_text(k, v) {
                Ok(value) => {
                    cfg.options.insert(k.clone(), value);
                }
                Err(e) => return self.out.error(format!("cannot start {}: {e}", cfg.game)),
            }
        }
        match args.players {
            Some(p) => cfg.players = p,
            None if args.game.is_some() => cfg.players = default_players(&info),
            None => {}
        }
        if !args.seats.is_empty() {
            specs = args.seats.iter().map(|s| SeatSpec::parse(s)).collect();
            if specs.len() > cfg.players as usize {
                return self.out.error(format!(
                    "{} seats given for {} players: give players=N or fewer seats",
                    specs.len(),
                    cfg.players
                ));
            }
        } else {
            specs.truncate(cfg.players as usize);
        }
        self.start(cfg, specs, None);
    }
}
