//! Bots: controllers that pick an option for a seat. `random` and `mc`
//! (determinised Monte Carlo search, `mc:N` for N playouts a decision) are
//! built in and play any game; any other name is a bot of the game's script
//! (`rules.bots[name]`), which decides from the seat's view only.

use crate::error::{CoreError, Result};
use crate::game::Game;
use crate::rng::GameRng;
use crate::zone::Seat;

/// Which kind of bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotKind {
    /// Uniformly random legal option.
    Random,
    /// Determinised Monte Carlo search ([`crate::search`]), as typed
    /// (`mc` or `mc:N`) with its playouts per decision.
    Search { name: String, iterations: u32 },
    /// A bot defined by the game's script.
    Script(String),
}

impl BotKind {
    /// `random`, `mc`, `mc:N`, or the name of a script bot.
    pub fn parse(name: &str) -> BotKind {
        let search = |iterations| BotKind::Search {
            name: name.to_string(),
            iterations,
        };
        match name {
            "random" => BotKind::Random,
            "mc" => search(crate::search::DEFAULT_ITERATIONS),
            other => match other.strip_prefix("mc:").map(str::parse::<u32>) {
                Some(Ok(n)) if n > 0 => search(n),
                _ => BotKind::Script(other.to_string()),
            },
        }
    }

    /// The name users type.
    pub fn name(&self) -> &str {
        match self {
            BotKind::Random => "random",
            BotKind::Search { name, .. } => name,
            BotKind::Script(n) => n,
        }
    }
}

/// A bot sitting at one seat, with its own random stream (so bots never
/// change the game's shuffles).
#[derive(Debug, Clone)]
pub struct Bot {
    pub kind: BotKind,
    rng: GameRng,
}

impl Bot {
    /// A bot for `seat` in a game seeded with `seed`.
    pub fn new(kind: BotKind, seed: u64, seat: Seat) -> Bot {
        Bot {
            kind,
            rng: GameRng::derived(seed, 1000 + seat as u64),
        }
    }

    /// Pick a 1-based option index for the seat to move.
    pub fn choose(&mut self, game: &Game) -> Result<usize> {
        let (_, n) = game
            .pending()
            .ok_or_else(|| CoreError::Rule("the game is over".into()))?;
        match &self.kind {
            BotKind::Random => Ok(self.rng.below(n as u64) as usize + 1),
            BotKind::Search { iterations, .. } => {
                crate::search::choose(game, &mut self.rng, *iterations)
            }
            BotKind::Script(name) => game.script_bot_choice(name),
        }
    }
}
