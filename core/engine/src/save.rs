//! Saved games: the config (with the text of its house-rule files), the
//! seat controllers and the action log, as JSON. Loading replays the log
//! from the seed under the rules saved, so the game continues identically
//! (same future shuffles and dice).

use crate::config::GameConfig;
use crate::error::{CoreError, Result};
use crate::game::{ActionRecord, Game};
use crate::house_rule;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;

/// The version of the save format written by this build.
pub const SAVE_FORMAT: u32 = 1;

/// The largest save file read: 64 MiB, far more than a game of a million
/// decisions needs.
pub const MAX_SAVE_BYTES: u64 = 64 << 20;

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

    /// Write as pretty JSON, atomically ([`crate::files::write_atomic`]):
    /// a failure leaves the file that was at `path` as it was; a symbolic
    /// link or anything else that is not a regular file at `path` is
    /// refused, never followed; temporary files that killed writers left in
    /// the folder are removed. Errors do not repeat `path`: the caller
    /// names it.
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        crate::files::write_atomic(path, text.as_bytes())
    }

    /// Read and check a save file.
    /// Only a regular file of at most [`MAX_SAVE_BYTES`] is read.
    pub fn read(path: &Path) -> Result<SaveFile> {
        let text = crate::files::read_text(path, MAX_SAVE_BYTES, "save file")?;
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
        save.check_house_rules()?;
        Ok(save)
    }

    /// A save names files only as house rules, and only `.lua` files; it
    /// holds a text only for a house-rule file among its variants. Checked
    /// without reading any file.
    fn check_house_rules(&self) -> Result<()> {
        let c = &self.config;
        if let Some(v) = c.house_rules().find(|v| !v.ends_with(".lua")) {
            return Err(CoreError::BadSave(format!(
                "variant '{v}' is neither a variant of {} nor a house-rule file: \
                 its name does not end in .lua (it was not read)",
                c.game
            )));
        }
        if let Some(k) = c
            .sources
            .keys()
            .find(|k| !house_rule::is_file(k) || !c.variants.contains(k))
        {
            return Err(CoreError::BadSave(format!(
                "the save holds a script for '{k}', which is not one of its house-rule files"
            )));
        }
        Ok(())
    }

    /// Before writing to `path`: record each house-rule path relative to
    /// the save's folder (an absolute path stays as it is), so that the save
    /// and its rule files can move together.
    pub fn relative_to(mut self, path: &Path) -> SaveFile {
        self.config
            .map_house_rules(|v| house_rule::to_save(v, path));
        self
    }

    /// After reading from `path`: each house-rule path as seen from the
    /// current folder, and the text of each house-rule file.
    ///
    /// A file whose text the save holds is not needed; when a `.lua`
    /// regular file is at its path and its text differs, it is named in a
    /// [`HouseRuleNote::Differs`] (the saved text is the one played). An
    /// older save holds no text: then the file is read, if it is a `.lua`
    /// regular file (anything else is refused unread), and named in a
    /// [`HouseRuleNote::Read`].
    pub fn resolve_house_rules(&mut self, path: &Path) -> Result<Vec<HouseRuleNote>> {
        let mut config = self.config.clone();
        config.map_house_rules(|v| house_rule::from_save(v, path));
        let mut notes = Vec::new();
        let files: Vec<String> = config.house_rules().cloned().collect();
        // Every file to read is checked before any is read: a save that
        // names one file that cannot be read has none read.
        for file in files.iter().filter(|f| !config.sources.contains_key(*f)) {
            house_rule::check(Path::new(file)).map_err(|e| no_copy(file, e))?;
        }
        for file in files {
            match config.sources.get(&file) {
                Some(saved) => {
                    // Compared only: never shown, never played.
                    if let Ok(on_disk) = house_rule::read(Path::new(&file)) {
                        if &on_disk != saved {
                            notes.push(HouseRuleNote::Differs { file });
                        }
                    }
                }
                None => {
                    let text = house_rule::read(Path::new(&file)).map_err(|e| no_copy(&file, e))?;
                    config.sources.insert(file.clone(), text);
                    notes.push(HouseRuleNote::Read { file });
                }
            }
        }
        self.config = config;
        Ok(notes)
    }
}

fn no_copy(file: &str, e: CoreError) -> CoreError {
    CoreError::BadSave(format!(
        "the save holds no copy of its house rule '{file}', and {e}"
    ))
}

/// What loading a save found out about one of its house-rule files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HouseRuleNote {
    /// The file on disk differs from the copy saved with the game; the
    /// saved copy is played.
    Differs { file: String },
    /// The save (an older one) holds no copy: the file was read from disk.
    Read { file: String },
}
