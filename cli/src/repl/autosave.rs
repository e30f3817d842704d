//! The autosave: the game in progress, written after every command that
//! changes it, so that a crash or a closed terminal loses nothing. Each
//! REPL (each session) has its own file in deckhand's data folder
//! ([`data_dir`]), `autosaves/START-PID.json`, so that several REPLs at
//! once never write over each other's game; while the session runs it
//! holds the lock of `autosaves/START-PID.lock` ([`super::lock`]), which
//! tells the other deckhands that this game is not left over. The file is
//! removed when the game ends and when deckhand is left with `quit` or
//! Ctrl-D (leaving on purpose is not a crash). A game left by a deckhand
//! that no longer runs is offered at the next start, and by `resume`;
//! resumed, its file becomes the resuming session's. Of those left, the
//! newest [`MAX_LEFT`] are kept. The single `autosave.json` of earlier
//! versions is offered as one of them.

use super::lock;
use deckhand_engine::SaveFile;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::SystemTime;

/// The environment variable that overrides the data folder.
pub const DATA_DIR_VAR: &str = "DECKHAND_DATA_DIR";

/// The folder of the sessions' autosaves, in the data folder.
pub const FOLDER: &str = "autosaves";

/// The one autosave of earlier versions, in the data folder.
pub const LEGACY: &str = "autosave.json";

/// How many games left unfinished are kept (the newest): older ones are
/// removed when a deckhand starts.
pub const MAX_LEFT: usize = 10;

/// deckhand's data folder (history, autosaves): `$DECKHAND_DATA_DIR`, else
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

/// A game left unfinished by a deckhand that no longer runs.
pub struct Found {
    pub save: SaveFile,
    /// When it was written.
    pub when: Option<SystemTime>,
    /// Its file.
    pub path: PathBuf,
}

/// The games left unfinished, newest first, and how many older ones were
/// removed (past [`MAX_LEFT`]).
pub struct Left {
    pub games: Vec<Found>,
    pub removed: usize,
}

/// This session's autosave file and what was last written to it.
pub struct Autosave {
    path: PathBuf,
    /// The data folder, where the games left by other sessions are.
    data: Option<PathBuf>,
    /// Held while this session runs.
    _lock: Option<lock::Lock>,
    lock_path: Option<PathBuf>,
    /// The save last written (its snapshot left out), to write only changes.
    last: Option<SaveFile>,
    /// Whether a failure to write was already said (said once).
    failed: bool,
}

impl Autosave {
    /// This session's autosave in the data folder, if there is one.
    pub fn new() -> Option<Autosave> {
        data_dir().map(|d| Autosave::in_data(&d))
    }

    /// This session's autosave in the data folder `data`: a file named
    /// after the time the session started and its process, whose lock
    /// it holds from now on.
    pub fn in_data(data: &Path) -> Autosave {
        let dir = data.join(FOLDER);
        let _ = std::fs::create_dir_all(&dir);
        let start = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        // A second session of one process (tests) gets a number too.
        static SESSIONS: AtomicUsize = AtomicUsize::new(0);
        let id = match SESSIONS.fetch_add(1, Ordering::Relaxed) {
            0 => format!("{start}-{}", std::process::id()),
            n => format!("{start}-{}-{n}", std::process::id()),
        };
        let lock_path = dir.join(format!("{id}.lock"));
        let lock = lock::exclusive(&lock_path).ok();
        Autosave {
            path: dir.join(format!("{id}.json")),
            data: Some(data.to_path_buf()),
            _lock: lock,
            lock_path: Some(lock_path),
            last: None,
            failed: false,
        }
    }

    /// An autosave at `path` alone (no other session's games, no lock).
    #[cfg(test)]
    pub fn at(path: PathBuf) -> Autosave {
        Autosave {
            path,
            data: None,
            _lock: None,
            lock_path: None,
            last: None,
            failed: false,
        }
    }

    /// This session's own game as last autosaved, if any can be read.
    #[cfg(test)]
    pub fn found(&self) -> Option<Found> {
        read_found(&self.path)
    }

    /// The games left unfinished by deckhands that no longer run (not
    /// this one's, not those of deckhands running now), newest first.
    /// Past the newest [`MAX_LEFT`], the older ones are removed, and the
    /// locks of sessions that ended without a game.
    pub fn left(&self) -> Left {
        let Some(data) = &self.data else {
            return Left {
                games: Vec::new(),
                removed: 0,
            };
        };
        let dir = data.join(FOLDER);
        let mut games = Vec::new();
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let ext = path.extension().and_then(|e| e.to_str());
            if path == self.path || Some(path.as_path()) == self.lock_path.as_deref() {
                continue;
            }
            match ext {
                Some("json") if !lock::held(&path.with_extension("lock")) => {
                    if let Some(found) = read_found(&path) {
                        games.push(found);
                    }
                }
                // A session that ended (its lock free) without a game.
                Some("lock") if !path.with_extension("json").exists() && !lock::held(&path) => {
                    let _ = std::fs::remove_file(&path);
                }
                _ => {}
            }
        }
        if let Some(found) = read_found(&data.join(LEGACY)) {
            games.push(found);
        }
        games.sort_by(|a, b| b.when.cmp(&a.when).then_with(|| a.path.cmp(&b.path)));
        let mut removed = 0;
        for old in games.split_off(games.len().min(MAX_LEFT)) {
            discard(&old);
            removed += 1;
        }
        Left { games, removed }
    }

    /// The game `found`, resumed by this session, is now its own: its
    /// file becomes this session's autosave (and is not offered again).
    pub fn adopt(&mut self, found: &Found) {
        self.last = None;
        if std::fs::rename(&found.path, &self.path).is_err() {
            // Written anew at the next change; the old file goes now, so
            // that it is not offered again beside it.
            discard(found);
        }
        if let Some(lock) = self.lock_path_of(&found.path) {
            let _ = std::fs::remove_file(lock);
        }
    }

    /// The lock file of another session's autosave at `path`.
    fn lock_path_of(&self, path: &Path) -> Option<PathBuf> {
        let in_folder = self
            .data
            .as_ref()
            .is_some_and(|d| path.parent() == Some(d.join(FOLDER).as_path()));
        in_folder.then(|| path.with_extension("lock"))
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

impl Drop for Autosave {
    /// The session ends: its lock file goes (the lock itself ends with
    /// the file closed), unless a game is left in the autosave, whose lock
    /// file then says the session is over by being free.
    fn drop(&mut self) {
        if let Some(lock) = &self.lock_path {
            if !self.path.exists() {
                let _ = std::fs::remove_file(lock);
            }
        }
    }
}

/// The save at `path` with the time it was written, if it can be read.
fn read_found(path: &Path) -> Option<Found> {
    let save = SaveFile::read(path).ok()?;
    let when = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    Some(Found {
        save,
        when,
        path: path.to_path_buf(),
    })
}

/// Remove a game left unfinished (declined, or too old to keep), with its
/// session's lock file.
pub fn discard(found: &Found) {
    let _ = std::fs::remove_file(&found.path);
    if found.path.extension().is_some_and(|e| e == "json")
        && found.path.file_name().is_some_and(|n| n != LEGACY)
    {
        let _ = std::fs::remove_file(found.path.with_extension("lock"));
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

    /// Two sessions in one data folder: each writes its own file, neither
    /// sees the other's game while both run, and a session that ended
    /// without leaving (killed) leaves its game to the next.
    #[test]
    fn sessions_at_once_keep_their_own_games() {
        let data = tempfile::tempdir().expect("tmp");
        let mut a = Autosave::in_data(data.path());
        let mut b = Autosave::in_data(data.path());
        assert_eq!(a.update(playing(1)), None);
        assert_eq!(b.update(playing(2)), None);
        assert_ne!(a.path, b.path);
        assert_eq!(a.found().map(|f| f.save.config.seed), Some(1));
        assert_eq!(b.found().map(|f| f.save.config.seed), Some(2));
        // Both running: neither game is left over.
        assert!(a.left().games.is_empty());
        assert!(b.left().games.is_empty());
        // `a` ends without leaving on purpose (as a killed process: its
        // file stays, its lock is free): its game is left to the others.
        drop(a);
        let c = Autosave::in_data(data.path());
        let left = c.left();
        assert_eq!(left.games.len(), 1);
        assert_eq!(left.games[0].save.config.seed, 1);
        // `b` leaves on purpose: nothing of it stays.
        b.remove();
        drop(b);
        let names = |dir: &Path| -> Vec<String> {
            let mut v: Vec<String> = std::fs::read_dir(dir)
                .expect("list")
                .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        let files = names(&data.path().join(FOLDER));
        assert_eq!(files.len(), 3, "{files:?}"); // a's game and lock, c's lock
    }

    /// Resuming a game left over makes it the session's own: it is not
    /// offered again, and it goes when that session leaves.
    #[test]
    fn a_resumed_game_becomes_the_sessions_own() {
        let data = tempfile::tempdir().expect("tmp");
        let mut a = Autosave::in_data(data.path());
        a.update(playing(7));
        drop(a);
        let mut b = Autosave::in_data(data.path());
        let left = b.left().games;
        assert_eq!(left.len(), 1);
        b.adopt(&left[0]);
        assert_eq!(b.found().map(|f| f.save.config.seed), Some(7));
        let c = Autosave::in_data(data.path());
        assert!(c.left().games.is_empty());
        b.remove();
        drop(b);
        drop(c);
        let d = Autosave::in_data(data.path());
        assert!(d.left().games.is_empty());
        drop(d);
        // Nothing piles up: no game, no lock left.
        assert_eq!(
            std::fs::read_dir(data.path().join(FOLDER))
                .expect("list")
                .count(),
            0
        );
    }

    /// The single autosave of earlier versions is offered as a game left
    /// over; of the games left, the newest are kept.
    #[test]
    fn the_old_autosave_is_offered_and_old_games_do_not_pile_up() {
        let data = tempfile::tempdir().expect("tmp");
        let mut old = Autosave::at(data.path().join(LEGACY));
        old.update(playing(100));
        for seed in 0..MAX_LEFT as u64 + 3 {
            let mut s = Autosave::in_data(data.path());
            s.update(playing(seed));
            // Written in order: the later, the newer.
            let when = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000 + seed);
            std::fs::File::options()
                .write(true)
                .open(&s.path)
                .and_then(|f| f.set_modified(when))
                .expect("set the time");
        }
        let s = Autosave::in_data(data.path());
        let left = s.left();
        // The old autosave is the newest (written now), then seeds from
        // the last down; 4 of the 14 removed.
        assert_eq!(left.games.len(), MAX_LEFT);
        assert_eq!(left.removed, 4);
        let seeds: Vec<u64> = left.games.iter().map(|f| f.save.config.seed).collect();
        assert_eq!(seeds[0], 100);
        assert_eq!(
            seeds[1..],
            (4..MAX_LEFT as u64 + 3).rev().collect::<Vec<_>>()[..]
        );
        assert_eq!(s.left().games.len(), MAX_LEFT);
        assert_eq!(s.left().removed, 0);
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
