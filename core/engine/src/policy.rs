//! How the engine's own bots choose: the random bot, a game's script bots,
//! and the random stream each bot decision draws from. The engine plays
//! games with these itself (the conformance suite, a house rule's effect,
//! the random table of [`crate::runner::Runner::random`]); the search bots
//! build on them.
//!
//! An option that asks for a set of cards ([`crate::choice`]) is built card
//! by card ([`build_subset`]): the cards in a random order, each kept when
//! the set with it still passes the rules' check, up to a size drawn
//! uniformly between the option's bounds. So the rules' check must accept
//! the parts of the sets it accepts (bounds aside): "cards of one cargo
//! type", "cards of one suit" do; a check that does not is tried again
//! with other orders, and a bot that finds no set reports it. With a score
//! (`rules.choices[..].score`), [`greedy_subset`] adds at each step the
//! card that scores best, while it improves.
//!
//! Reaction windows are decisions too: the random bot passes there with
//! probability [`WINDOW_PASS_PER_MILLE`], so that random simulations are
//! not flooded with responses.

use crate::choice::Choice;
use crate::chooser::Chooser;
use crate::error::{CoreError, Result};
use crate::game::Game;
use crate::rng::GameRng;
use crate::zone::Seat;

pub use crate::game::random::{
    build_subset, greedy_subset, random_choice, random_choice_among, WINDOW_PASS_PER_MILLE,
};

/// The random stream of the decision at `step` (1 = the first decision
/// of the game) of the bot at `seat` in a game seeded with `seed`: the
/// same position gets the same stream, whatever played before.
#[inline]
pub fn decision_rng(seed: u64, seat: Seat, step: usize) -> GameRng {
    let mixed = seed ^ (step as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    GameRng::derived(mixed, 1000 + u64::from(seat))
}

/// A bot the engine plays itself: the random bot, or a bot of the game's
/// script (`rules.bots[name]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlainBot {
    Random,
    Script(String),
}

impl PlainBot {
    /// `random`, else the name of a script bot.
    pub fn parse(name: &str) -> PlainBot {
        match name {
            "random" => PlainBot::Random,
            other => PlainBot::Script(other.to_string()),
        }
    }

    /// The name users type: `random`, or the script bot's.
    pub fn name(&self) -> &str {
        match self {
            PlainBot::Random => "random",
            PlainBot::Script(name) => name,
        }
    }

    /// The bot's choice for the seat to move, from `rng`.
    pub fn choose(&self, game: &Game, rng: GameRng) -> Result<Choice> {
        match self {
            PlainBot::Random => {
                let mut rng = rng;
                random_choice(game, &mut rng)
            }
            PlainBot::Script(name) => game
                .script_bot_choice(name, rng)
                .map_err(|e| script_bot_error(game, name, e)),
        }
    }

    /// This bot at `seat` of a game seeded with `seed`, as a chooser.
    pub fn at(self, seed: u64, seat: Seat) -> PlainChooser {
        PlainChooser {
            bot: self,
            seed,
            seat,
        }
    }
}

/// A [`PlainBot`] at one seat, drawing each decision's stream from
/// [`decision_rng`].
#[derive(Debug, Clone)]
pub struct PlainChooser {
    bot: PlainBot,
    seed: u64,
    seat: Seat,
}

impl Chooser for PlainChooser {
    fn choose(&mut self, game: &Game) -> Result<Choice> {
        if game.pending().is_none() {
            return Err(CoreError::Rule("the game is over".into()));
        }
        let rng = decision_rng(self.seed, self.seat, game.history().len() + 1);
        self.bot.choose(game, rng)
    }
}

/// A script bot's failure, saying which bot and where it is defined: an
/// answer the rules refuse (an index out of range, cards not offered),
/// which carries no position of its own, gets the line of the bot's
/// `function`; an error raised inside the bot (a runaway loop stopped by
/// the budget, a bug) keeps its own position and names the bot after it.
pub fn script_bot_error(game: &Game, name: &str, error: CoreError) -> CoreError {
    let CoreError::Script(msg) = error else {
        return error;
    };
    let Some(at) = game.script_bot_position(name) else {
        return CoreError::Script(msg);
    };
    let named = msg.contains(&format!("bot '{name}'"));
    if crate::lua::lacks_position(&msg) {
        let msg = crate::lua::with_position(&msg, &at);
        return CoreError::Script(if named {
            msg
        } else {
            format!("{msg} (bot '{name}')")
        });
    }
    if named {
        return CoreError::Script(format!("{msg} (defined at {at})"));
    }
    CoreError::Script(format!("{msg} (in bot '{name}', defined at {at})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_differ_by_seat_and_step_and_repeat_for_the_same_ones() {
        let draw = |seed, seat, step| decision_rng(seed, seat, step).next_u64();
        assert_eq!(draw(7, 1, 3), draw(7, 1, 3));
        assert_ne!(draw(7, 1, 3), draw(7, 2, 3));
        assert_ne!(draw(7, 1, 3), draw(7, 1, 4));
        assert_ne!(draw(7, 1, 3), draw(8, 1, 3));
    }
}
