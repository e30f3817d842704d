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
            snapshot: serde_json::to_value(game.view(None)?)?,
        })
    }

    /// Write as pretty JSON, atomically: the text goes to a new temporary
    /// file in the same folder, which then replaces `path` in one rename.
    /// If anything fails (a full disk, a folder without write access), the
    /// file that was at `path` is left as it was. A symbolic link is
    /// followed (its target is replaced); a path that names something other
    /// than a regular file (a folder, a device) is refused.
    pub fn write(&self, path: &Path) -> Result<()> {
        use std::io::Write;
        let text = serde_json::to_string_pretty(self)?;
        let mut builder = tempfile::Builder::new();
        builder.prefix(".deckhand-save-").suffix(".tmp");
        let target = match std::fs::canonicalize(path) {
            Ok(real) => {
                let meta = std::fs::metadata(&real)?;
                if !meta.is_file() {
                    return Err(CoreError::Invalid(format!(
                        "{}: not a regular file (a save is written to a plain file)",
                        path.display()
                    )));
                }
                // The new file keeps the old one's permissions.
                builder.permissions(meta.permissions());
                real
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // Not the temporary file's private 0600: the mode any new
                // file gets (0666 less the umask).
                #[cfg(unix)]
                builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
                path.to_path_buf()
            }
            Err(e) => return Err(e.into()),
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut tmp = builder.tempfile_in(dir)?;
        tmp.write_all(text.as_bytes())?;
        tmp.as_file().sync_all()?;
        // On failure the temporary file is removed when dropped.
        tmp.persist(&target).map_err(|e| CoreError::Io(e.error))?;
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
