//! The history file: every line typed at the REPL, kept in deckhand's data
//! folder and shared by all the deckhands of a user. The line editor only
//! reads it; each line is appended to it as it is typed, in one write at
//! the file's end, so a deckhand killed at any moment loses at most that
//! line and never shortens the file, and several deckhands at once lose
//! none of each other's lines. The file is bounded: past
//! [`MAX_LINES`] lines, a deckhand starting keeps the newest ones, written
//! to a new file renamed over the old one (the old one whole until then).
//! Writers take the history's lock ([`super::lock`]) in turn.
//!
//! The format is the line editor's own: a first line `#V2`, then a line
//! per entry with `\` written `\\` (an entry never holds a line break).

use super::lock;
use std::fs::OpenOptions;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The entries the line editor keeps (and a compacted file keeps).
pub const KEEP: usize = 2000;
/// Past this many entries the file is compacted to the newest [`KEEP`].
pub const MAX_LINES: usize = 2 * KEEP;

/// The first line of the format.
const HEADER: &str = "#V2";

/// The history file at a path.
pub struct HistoryFile {
    path: PathBuf,
}

impl HistoryFile {
    pub fn new(path: PathBuf) -> HistoryFile {
        HistoryFile { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The lock every writer takes.
    fn lock(&self) -> io::Result<lock::Lock> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut name = self.path.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        lock::exclusive(&self.path.with_file_name(name))
    }

    /// Append one entry at the end of the file (created with its header
    /// if missing).
    pub fn append(&self, entry: &str) -> io::Result<()> {
        let _lock = self.lock()?;
        let mut options = OpenOptions::new();
        options.create(true).append(true);
        // Never written through a symbolic link (as saves are not).
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
        let mut file = options.open(&self.path)?;
        let len = file.metadata()?.len();
        // A file written without the header (an old one) is read as is:
        // entries are written as is too.
        let v2 = len == 0 || {
            let mut first = [0u8; 3];
            let mut reader = std::fs::File::open(&self.path)?;
            reader.read_exact(&mut first).is_ok() && first == *HEADER.as_bytes()
        };
        let mut bytes = Vec::with_capacity(entry.len() + 8);
        if len == 0 {
            bytes.extend_from_slice(HEADER.as_bytes());
            bytes.push(b'\n');
        }
        // An entry is one line; a line break (never typed) is kept out.
        let entry = entry.replace(['\n', '\r'], " ");
        if v2 {
            bytes.extend_from_slice(entry.replace('\\', "\\\\").as_bytes());
        } else {
            bytes.extend_from_slice(entry.as_bytes());
        }
        bytes.push(b'\n');
        file.write_all(&bytes)
    }

    /// Keep the newest [`KEEP`] entries when the file has more than
    /// [`MAX_LINES`] lines: a new file with them is renamed over the old
    /// one. Nothing is lost if it fails or the process is killed.
    pub fn compact(&self) -> io::Result<()> {
        if !self.path.exists() {
            return Ok(());
        }
        let _lock = self.lock()?;
        let text = std::fs::read(&self.path)?;
        let mut lines: Vec<&[u8]> = text
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        let header = lines.first().is_some_and(|l| *l == HEADER.as_bytes());
        if header {
            lines.remove(0);
        }
        if lines.len() <= MAX_LINES {
            return Ok(());
        }
        let mut out = Vec::new();
        if header {
            out.extend_from_slice(HEADER.as_bytes());
            out.push(b'\n');
        }
        for l in &lines[lines.len() - KEEP..] {
            out.extend_from_slice(l);
            out.push(b'\n');
        }
        deckhand_engine::files::write_atomic(&self.path, &out).map_err(io::Error::other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustyline::history::{DefaultHistory, History};

    fn read_back(path: &Path) -> Vec<String> {
        let config = rustyline::Config::builder()
            .max_history_size(10 * KEEP)
            .expect("a size")
            .build();
        let mut h = DefaultHistory::with_config(&config);
        h.load(path).expect("the line editor reads it");
        h.iter().cloned().collect()
    }

    #[test]
    fn entries_are_appended_in_the_line_editors_format() {
        let dir = tempfile::tempdir().expect("tmp");
        let file = HistoryFile::new(dir.path().join("sub").join("history"));
        file.append("new sea_change").expect("append");
        file.append(r"lua print('a\nb')").expect("append");
        file.append("show").expect("append");
        assert_eq!(
            read_back(file.path()),
            vec!["new sea_change", r"lua print('a\nb')", "show"]
        );
        let text = std::fs::read_to_string(file.path()).expect("read");
        assert!(text.starts_with("#V2\n"), "{text}");
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_at_the_history_path_is_not_written_through() {
        let dir = tempfile::tempdir().expect("tmp");
        let other = dir.path().join("notes.txt");
        std::fs::write(&other, "my notes").expect("write");
        let path = dir.path().join("history");
        std::os::unix::fs::symlink(&other, &path).expect("symlink");
        assert!(HistoryFile::new(path).append("show").is_err());
        assert_eq!(std::fs::read_to_string(&other).expect("read"), "my notes");
    }

    #[test]
    fn a_long_file_keeps_its_newest_entries_and_a_short_one_is_left_alone() {
        let dir = tempfile::tempdir().expect("tmp");
        let file = HistoryFile::new(dir.path().join("history"));
        for i in 0..MAX_LINES {
            file.append(&format!("line {i}")).expect("append");
        }
        let before = std::fs::read(file.path()).expect("read");
        file.compact().expect("compact");
        let after = std::fs::read(file.path()).expect("read");
        assert!(after == before, "a file of {MAX_LINES} entries was changed");
        file.append("one more").expect("append");
        file.append("and another").expect("append");
        file.compact().expect("compact");
        let kept = read_back(file.path());
        assert_eq!(kept.len(), KEEP);
        assert_eq!(kept.last().map(String::as_str), Some("and another"));
        assert_eq!(
            kept.first().cloned(),
            Some(format!("line {}", MAX_LINES + 2 - KEEP))
        );
        // Appending goes on after it.
        file.append("after").expect("append");
        assert_eq!(
            read_back(file.path()).last().map(String::as_str),
            Some("after")
        );
    }

    /// Several writers at once (threads standing in for processes: each
    /// append opens the file and takes the lock as a process does): every
    /// line is there once and whole.
    #[test]
    fn writers_at_once_lose_none_of_each_others_lines() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("history");
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let file = HistoryFile::new(path);
                    for i in 0..100 {
                        file.append(&format!("writer {t} line {i}"))
                            .expect("append");
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("writer");
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "#V2");
        assert_eq!(lines.len(), 401);
        for t in 0..4 {
            for i in 0..100 {
                let l = format!("writer {t} line {i}");
                assert_eq!(lines.iter().filter(|x| **x == l).count(), 1, "{l}");
            }
        }
    }
}
