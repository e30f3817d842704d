//! Who picks for a seat: the one trait every controller implements (a
//! bot, a person's moves replayed, a test's script of moves), which the
//! runner ([`crate::runner`]) asks at each decision.

use crate::choice::Choice;
use crate::error::Result;
use crate::game::Game;

/// Who picks for a seat: a bot, or any function of the game (a test's
/// script of moves, a network player). A function returns an option index;
/// wrapped in [`Choosing`], a whole [`Choice`] (an option that asks for
/// cards).
pub trait Chooser {
    /// What the seat to move chooses.
    fn choose(&mut self, game: &Game) -> Result<Choice>;
}

impl<F: FnMut(&Game) -> Result<usize>> Chooser for F {
    fn choose(&mut self, game: &Game) -> Result<Choice> {
        self(game).map(Choice::option)
    }
}

/// A function that returns whole [`Choice`]s, as a chooser.
pub struct Choosing<F>(pub F);

impl<F: FnMut(&Game) -> Result<Choice>> Chooser for Choosing<F> {
    fn choose(&mut self, game: &Game) -> Result<Choice> {
        (self.0)(game)
    }
}
