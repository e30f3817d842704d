//! Bots: controllers that pick an option for a seat. `random` is built in;
//! any other name is a bot of the game's script (`rules.bots[name]`), which
//! decides from the seat's view only.

use crate::error::{CoreError, Result};
use crate::game::Game;
use crate::rng::GameRng;
use crate::zone::Seat;

/// Which kind of bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotKind {
    /// Uniformly random legal option.
    Random,
    /// A bot defined by the game's script.
    Script(String),
}

impl BotKind {
    /// `random` or the name of a script bot.
    pub fn parse(name: &str) -> BotKind {
        match name {
            "random" => BotKind::Random,
            other => BotKind::Script(other.to_string()),
        }
    }

    /// The name users type.
    pub fn name(&self) -> &str {
        match self {
            BotKind::Random => "random",
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
            BotKind::Script(name) => game.script_bot_choice(name),
        }
    }
}
