//! A game rebuilt in a VM of its own from its config and log, for a search
//! that runs on another thread (the hint's searches side by side).

use deckhand_engine::error::Result;
use deckhand_engine::game::{ActionRecord, Game, SeatView};
use deckhand_engine::lua::Limits;
use deckhand_engine::zone::Seat;
use deckhand_engine::{Engine, GameConfig, ScriptLibrary};
use std::sync::Arc;

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
