//! Bots: controllers that pick an option for a seat. `random` and `mc`
//! (determinised Monte Carlo search, `mc:N` for N playouts a decision,
//! `mc:N:BOT` to play them out with a script bot) are built in and play any
//! game; any other name is a bot of the game's script
//! (`rules.bots[name]`), which decides from the seat's view only.
//!
//! For an option that asks for a set of cards the random bot builds one
//! card by card, and in a reaction window it passes 9 times in 10 (see
//! [`crate::choice`]); the `mc` search tries a few sets of each such option
//! ([`crate::search`]).

use crate::cancel::Cancel;
use crate::choice::Choice;
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
    /// (`mc`, `mc:N` or `mc:N:BOT`): playouts per decision, and the script
    /// bot that plays them out (random moves when none).
    Search {
        name: String,
        iterations: u32,
        playout: Option<String>,
    },
    /// A bot defined by the game's script.
    Script(String),
}

impl BotKind {
    /// `random`, `mc`, `mc:N`, `mc:N:BOT`, or the name of a script bot.
    pub fn parse(name: &str) -> BotKind {
        if name == "random" {
            return BotKind::Random;
        }
        let mut parts = name.split(':');
        if parts.next() == Some("mc") {
            let iterations = match parts.next() {
                None => Some(crate::search::DEFAULT_ITERATIONS),
                Some(n) => n.parse::<u32>().ok().filter(|&n| n > 0),
            };
            let playout = parts.next().map(str::to_string);
            if let (Some(iterations), None) = (iterations, parts.next()) {
                return BotKind::Search {
                    name: name.to_string(),
                    iterations,
                    playout,
                };
            }
        }
        BotKind::Script(name.to_string())
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

/// A bot sitting at one seat. Its random numbers come from a stream of its
/// own (so bots never change the game's shuffles), drawn afresh for each
/// decision from the game's seed, the seat and the step: the same position
/// gets the same choice, after `undo`, `load` or a replay too.
#[derive(Debug, Clone)]
pub struct Bot {
    pub kind: BotKind,
    seed: u64,
    seat: Seat,
    /// Checked by the search between playouts (a person's Ctrl-C).
    cancel: Option<Cancel>,
}

impl Bot {
    /// A bot for `seat` in a game seeded with `seed`.
    pub fn new(kind: BotKind, seed: u64, seat: Seat) -> Bot {
        Bot {
            kind,
            seed,
            seat,
            cancel: None,
        }
    }

    /// Let `cancel` stop this bot's search (with
    /// [`CoreError::Cancelled`], between two playouts); `None`: nothing
    /// stops it.
    pub fn set_cancel(&mut self, cancel: Option<Cancel>) {
        self.cancel = cancel;
    }

    /// The random stream of this bot's decision at `step` (1 = the first
    /// decision of the game).
    fn rng(&self, step: usize) -> GameRng {
        let mixed = self.seed ^ (step as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        GameRng::derived(mixed, 1000 + u64::from(self.seat))
    }

    /// What the seat to move chooses: an option and, for one that asks
    /// for cards, the set (see [`crate::choice`] for how the random bot
    /// builds one and how often it passes in a reaction window).
    pub fn choose(&mut self, game: &Game) -> Result<Choice> {
        if game.pending().is_none() {
            return Err(CoreError::Rule("the game is over".into()));
        }
        let mut rng = self.rng(game.history().len() + 1);
        match &self.kind {
            BotKind::Random => crate::choice::random_choice(game, &mut rng),
            BotKind::Search {
                iterations,
                playout,
                ..
            } => crate::search::choose(
                game,
                &mut rng,
                *iterations,
                playout.as_deref(),
                self.cancel.as_ref(),
            ),
            BotKind::Script(name) => game.script_bot_choice(name, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_differ_by_seat_and_step_and_repeat_for_the_same_ones() {
        let draw = |seed, seat, step| Bot::new(BotKind::Random, seed, seat).rng(step).next_u64();
        assert_eq!(draw(7, 1, 3), draw(7, 1, 3));
        assert_ne!(draw(7, 1, 3), draw(7, 2, 3));
        assert_ne!(draw(7, 1, 3), draw(7, 1, 4));
        assert_ne!(draw(7, 1, 3), draw(8, 1, 3));
    }

    #[test]
    fn names_parse_into_kinds() {
        assert_eq!(BotKind::parse("random"), BotKind::Random);
        let mc = |name: &str, iterations, playout: Option<&str>| BotKind::Search {
            name: name.into(),
            iterations,
            playout: playout.map(str::to_string),
        };
        assert_eq!(
            BotKind::parse("mc"),
            mc("mc", crate::search::DEFAULT_ITERATIONS, None)
        );
        assert_eq!(BotKind::parse("mc:50"), mc("mc:50", 50, None));
        assert_eq!(
            BotKind::parse("mc:50:greedy"),
            mc("mc:50:greedy", 50, Some("greedy"))
        );
        for other in ["mc:0", "mc:x", "mc:5:a:b", "greedy"] {
            assert_eq!(BotKind::parse(other), BotKind::Script(other.into()));
        }
    }
}
