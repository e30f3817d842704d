//! Saved games: the config, the seat controllers and the action log, as JSON.
//! Loading replays the log from the seed, so the game continues identically
//! (same future shuffles and dice).

use crate::config::GameConfig;
use crate::error::{CoreError, Result};
use crate::game::{ActionRecord, Game};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;

/// The version of the save format written by this build.
pub const SAVE_FORMAT: u32 = 1;

/// A saved game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SaveFile {
    pub format: u32,
    pub config: GameConfig,
    /// Who sits where (front-end names such as "human", "random", "greedy").
    #[serde(default)]
    pub seats: Vec<String>,
    pub actions: Vec<ActionRecord>,
    /// For people reading the file: the table as an observer sees it. Not
    /// used when loading.
    #[serde(default)]
    pub snapshot: Value,
}

impl SaveFile {
    /// The save of a game.
    pub fn of(game: &Game, seats: Vec<String>) -> Result<SaveFile> {
        Ok(SaveFile {
            format: SAVE_FORMAT,
            config: game.config().clone(),
            seats,
            actions: game.history().to_vec(),
            // A game a failed step left unusable still saves its log.
            snapshot: match game.view(None) {
                Ok(view) => serde_json::to_value(view)?,
                Err(_) => Value::Null,
            },
        })
    }

    /// Write as pretty JSON.
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        std::fs::write(path, text)?;
        Ok(())
    }

    /// Read and check a save file.
    pub fn read(path: &Path) -> Result<SaveFile> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CoreError::BadSave(format!("{}: {e}", path.display())))?;
        Self::parse(&text)
    }

    /// Parse and check a save file's text.
    pub fn parse(text: &str) -> Result<SaveFile> {
        let save: SaveFile = serde_json::from_str(text)
            .map_err(|e| CoreError::BadSave(format!("not a deckhand save: {e}")))?;
        if save.format != SAVE_FORMAT {
            return Err(CoreError::BadSave(format!(
                "format {} is not supported (this build reads format {SAVE_FORMAT})",
                save.format
            )));
        }
        Ok(save)
    }
}
