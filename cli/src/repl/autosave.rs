//! The autosave: the game in progress, written after every command that
//! changes it, so that a crash or a closed terminal loses nothing. It lives
//! in deckhand's data folder ([`data_dir`]); the next `deckhand` offers to
//! resume it. It is removed when the game ends and when deckhand is left
//! with `quit` or Ctrl-D (leaving on purpose is not a crash).

use deckhand_engine::SaveFile;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The environment variable that overrides the data folder.
pub const DATA_DIR_VAR: &str = "DECKHAND_DATA_DIR";

/// deckhand's data folder (history, autosave): `$DECKHAND_DATA_DIR`, else
/// the platform's data folder with `deckhand` in it (on Linux
/// `$XDG_DATA_HOME/deckhand`, else `~/.local/share/deckhand`; on macOS
/// `~/Library/Application Support/deckhand`).
pub fn data_dir() -> Option<PathBuf> {
    match std::env::var_os(DATA_DIR_VAR).filter(|v| !v.is_empty()) {
        Some(d) => Some(PathBuf::from(d)),
        None => dirs::data_dir().map(|d| d.join("deckhand")),
    }
}

/// What the game in progress is, for the autosave.
pub enum State {
    /// A game with moves, not over: keep it.
    Playing(Box<SaveFile>),
    /// The game ended: nothing to resume.
    Over,
    /// No game, or a game without moves yet: the last autosave stays.
    Nothing,
}

/// An autosave found at start-up.
pub struct Found {
    pub save: SaveFile,
    /// When it was written.
    pub when: Option<SystemTime>,
}

/// The autosave file and what was last written to it.
pub struct Autosave {
    path: PathBuf,
    /// The save last written (its snapshot left out), to write only changes.
    last: Option<SaveFile>,
    /// Whether a failure to write was already said (said once).
    failed: bool,
}

impl Autosave {
    /// The autosave in the data folder, if there is one.
    pub fn new() -> Option<Autosave> {
        data_dir().map(|d| Autosave::at(d.join("autosave.json")))
    }

    /// The autosave at `path`.
    pub fn at(path: PathBuf) -> Autosave {
        Autosave {
            path,
            last: None,
            failed: false,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The game autosaved by an earlier run, if any can be read.
    pub fn found(&self) -> Option<Found> {
        let save = SaveFile::read(&self.path).ok()?;
        let when = std::fs::metadata(&self.path)
            .and_then(|m| m.modified())
            .ok();
        Some(Found { save, when })
    }

    /// Bring the file in line with the game: write it when the game
    /// changed, remove it when the game ended. Returns a line to show
    /// when writing failed (once).
    pub fn update(&mut self, state: State) -> Option<String> {
        match state {
            State::Nothing => None,
            State::Over => {
                self.remove();
                None
            }
            State::Playing(mut save) => {
                save.snapshot = serde_json::Value::Null;
                if self.last.as_ref() == Some(&*save) {
                    return None;
                }
                let written = self.write(&save);
                self.last = Some(*save);
                match written {
                    Ok(()) => None,
                    Err(e) if !self.failed => {
                        self.failed = true;
                        Some(format!(
                            "(cannot autosave to {}: {e}; `save FILE` still works)",
                            self.path.display()
                        ))
                    }
                    Err(_) => None,
                }
            }
        }
    }

    fn write(&self, save: &SaveFile) -> anyhow::Result<()> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        // House-rule paths relative to the autosave's folder, as any save.
        save.clone().relative_to(&self.path).write(&self.path)?;
        Ok(())
    }

    /// Remove the file (the game ended, or deckhand was left on purpose).
    pub fn remove(&mut self) {
        self.last = None;
        let _ = std::fs::remove_file(&self.path);
    }
}

/// "3 minutes ago", "just now", "2 days ago".
pub fn ago(when: SystemTime, now: SystemTime) -> String {
    let secs = now.duration_since(when).map_or(0, |d| d.as_secs());
    let (n, unit) = match secs {
        0..=59 => return "just now".into(),
        60..=3599 => (secs / 60, "minute"),
        3600..=86_399 => (secs / 3600, "hour"),
        _ => (secs / 86_400, "day"),
    };
    format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn ages_read_as_people_say_them() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let at = |s| now - Duration::from_secs(s);
        assert_eq!(ago(at(5), now), "just now");
        assert_eq!(ago(at(60), now), "1 minute ago");
        assert_eq!(ago(at(150), now), "2 minutes ago");
        assert_eq!(ago(at(7200), now), "2 hours ago");
        assert_eq!(ago(at(86_400 * 3), now), "3 days ago");
        assert_eq!(ago(now + Duration::from_secs(9), now), "just now");
    }

    /// A save with one action, made without a game.
    fn playing(seed: u64) -> State {
        let save = SaveFile {
            format: deckhand_engine::save::SAVE_FORMAT,
            config: deckhand_engine::GameConfig::new("sea_change", 2, seed),
            seats: vec!["human".into(), "random".into()],
            actions: Vec::new(),
            snapshot: serde_json::Value::Null,
        };
        State::Playing(Box::new(save))
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_at_the_autosave_path_is_not_followed() {
        let dir = tempfile::tempdir().expect("tmp");
        let other = dir.path().join("notes.txt");
        std::fs::write(&other, "my notes").expect("write");
        let path = dir.path().join("autosave.json");
        std::os::unix::fs::symlink(&other, &path).expect("symlink");
        let mut autosave = Autosave::at(path.clone());
        let said = autosave.update(playing(1)).expect("the failure is said");
        assert!(
            said.contains("cannot autosave") && said.contains("symbolic link"),
            "{said}"
        );
        assert_eq!(std::fs::read_to_string(&other).expect("read"), "my notes");
        // Said once; still not written through on the next change.
        assert_eq!(autosave.update(playing(2)), None);
        assert_eq!(std::fs::read_to_string(&other).expect("read"), "my notes");
        // Leaving removes the link itself, never its target.
        autosave.remove();
        assert!(std::fs::symlink_metadata(&path).is_err());
        assert_eq!(std::fs::read_to_string(&other).expect("read"), "my notes");
    }

    #[test]
    fn an_autosave_removes_the_temporary_files_killed_writers_left() {
        let dir = tempfile::tempdir().expect("tmp");
        // Left by a deckhand killed mid-save: no process has this id.
        let stale = dir.path().join(".deckhand-save-999999999-0.tmp");
        std::fs::write(&stale, "{\"format\": 1, \"conf").expect("write");
        let mut autosave = Autosave::at(dir.path().join("autosave.json"));
        assert_eq!(autosave.update(playing(1)), None);
        assert!(autosave.found().is_some(), "the autosave is written");
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        if std::path::Path::new("/proc/self").exists() {
            assert_eq!(names, vec!["autosave.json".to_string()]);
        }
    }
}
