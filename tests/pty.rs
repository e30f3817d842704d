//! Driving `deckhand` through a pseudo-terminal as a person types: the
//! harness shared by the REPL tests.

#![allow(dead_code)]

use rexpect::session::{spawn_with_options, PtySession};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Milliseconds any single expectation may wait.
pub const TIMEOUT_MS: u64 = 20_000;

/// The repository's scripts folder.
pub fn scripts_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts")
}

/// rexpect reads the terminal byte by byte, one char per byte: a UTF-8
/// needle must be spelled that way to be found.
pub fn as_bytes(text: &str) -> String {
    text.bytes().map(char::from).collect()
}

/// What rexpect read, back to UTF-8, without carriage returns.
pub fn from_bytes(read: &str) -> String {
    let bytes: Vec<u8> = read.chars().map(|c| c as u32 as u8).collect();
    String::from_utf8_lossy(&bytes).replace('\r', "")
}

/// A `deckhand` REPL in a pseudo-terminal.
pub struct Repl {
    pub p: PtySession,
    /// Everything read so far.
    pub seen: String,
    /// Its HOME and working directory (history, saves).
    pub home: tempfile::TempDir,
}

impl Repl {
    /// `deckhand` with no arguments on the repository's scripts, in a temp
    /// HOME and working directory, without colour; waits for the first prompt.
    pub fn start() -> Repl {
        let home = tempfile::tempdir().expect("temp home");
        Repl::spawn(&scripts_dir(), home)
    }

    /// `deckhand --scripts DIR` in `home` (also its working directory),
    /// waiting for the first prompt.
    pub fn spawn(scripts: &Path, home: tempfile::TempDir) -> Repl {
        Repl::spawn_env(scripts, home, &[])
    }

    /// As [`Repl::spawn`], with these environment variables set too.
    pub fn spawn_env(scripts: &Path, home: tempfile::TempDir, env: &[(&str, &str)]) -> Repl {
        Repl::spawn_until(scripts, home, env, "seat 1> ")
    }

    /// As [`Repl::spawn_env`], waiting for `first` (the first prompt, or
    /// the question whether to resume an autosaved game).
    pub fn spawn_until(
        scripts: &Path,
        home: tempfile::TempDir,
        env: &[(&str, &str)],
        first: &str,
    ) -> Repl {
        Repl::spawn_args(scripts, home, env, &[], first)
    }

    /// `deckhand --scripts DIR ARGS...` (a subcommand), waiting for `first`.
    pub fn spawn_args(
        scripts: &Path,
        home: tempfile::TempDir,
        env: &[(&str, &str)],
        args: &[&str],
        first: &str,
    ) -> Repl {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_deckhand"));
        // Wide enough that no line wraps, unless a test asks for a width.
        cmd.env("COLUMNS", "1000");
        cmd.envs(env.iter().copied());
        cmd.arg("--scripts")
            .arg(scripts)
            .args(args)
            .current_dir(home.path())
            .env("HOME", home.path())
            .env_remove("XDG_DATA_HOME")
            .env_remove("DECKHAND_SCRIPTS")
            .env("NO_COLOR", "1")
            .env("TERM", "xterm");
        let options = rexpect::reader::Options::new()
            .timeout_ms(Some(TIMEOUT_MS))
            .strip_ansi_escape_codes(true);
        let p = spawn_with_options(cmd, options).expect("spawn deckhand in a pty");
        let mut r = Repl {
            p,
            seen: String::new(),
            home,
        };
        r.expect(first);
        r
    }

    /// End the process as a closed terminal or a crash does (SIGTERM: no
    /// `quit`, nothing cleaned up); returns its HOME.
    pub fn kill(self) -> tempfile::TempDir {
        let Repl { p, home, .. } = self;
        // Dropping the session signals the process and waits for its end.
        drop(p);
        home
    }

    /// Wait for `needle`; return what came before it.
    pub fn expect(&mut self, needle: &str) -> String {
        match self.p.exp_string(&as_bytes(needle)) {
            Ok(before) => {
                let text = from_bytes(&before);
                self.seen.push_str(&text);
                self.seen.push_str(needle);
                text
            }
            Err(e) => panic!("expected {needle:?}: {e}\nread so far:\n{}", self.seen),
        }
    }

    /// Type a line.
    pub fn send(&mut self, line: &str) {
        self.p.send_line(line).expect("type a line");
    }

    /// Type a line, wait for `needle` in the answer, then for the prompt.
    pub fn type_expect(&mut self, line: &str, needle: &str, prompt: &str) -> String {
        self.send(line);
        let before = self.expect(needle);
        let after = self.expect(prompt);
        format!("{before}{needle}{after}")
    }

    /// Play the first option: "1", or when it asks for cards, with its
    /// first card, else its first two, and so on, until the rules accept.
    pub fn play_first_option(&mut self) {
        self.send("1");
        let (before, found) = self
            .p
            .exp_any(vec![
                rexpect::ReadUntil::String("seat 1 (you): ".into()),
                rexpect::ReadUntil::String("asks for cards".into()),
            ])
            .expect("a move or a question of cards");
        self.seen.push_str(&from_bytes(&before));
        self.seen.push_str(&found);
        if found.contains("seat 1 (you): ") {
            return;
        }
        for k in 1..=40 {
            self.expect("seat 1> ");
            let cards: Vec<String> = (1..=k).map(|i| i.to_string()).collect();
            self.send(&format!("1 {}", cards.join(" ")));
            let (before, found) = self
                .p
                .exp_any(vec![
                    rexpect::ReadUntil::String("seat 1 (you): ".into()),
                    rexpect::ReadUntil::String("not these cards".into()),
                    rexpect::ReadUntil::String("there is no card".into()),
                ])
                .expect("a move or a refusal");
            self.seen.push_str(&from_bytes(&before));
            self.seen.push_str(&found);
            assert!(!found.contains("there is no card"), "{}", self.seen);
            if found.contains("seat 1 (you): ") {
                return;
            }
        }
        panic!("no set of the first cards was accepted:\n{}", self.seen);
    }

    /// Answer every question of seat 1 with its first option
    /// ([`Repl::play_first_option`]) until the game is over; returns how
    /// many moves that took. Fails after `max` moves.
    pub fn play_first_options_to_the_end(&mut self, max: usize) -> usize {
        let mut moves = 0;
        loop {
            self.play_first_option();
            moves += 1;
            assert!(moves < max, "the game did not end after {moves} moves");
            let (before, found) = self
                .p
                .exp_any(vec![
                    rexpect::ReadUntil::String("seat 1> ".into()),
                    rexpect::ReadUntil::String("Game over".into()),
                ])
                .expect("a prompt or the end of the game");
            self.seen.push_str(&from_bytes(&before));
            self.seen.push_str(&found);
            if found.contains("Game over") {
                return moves;
            }
        }
    }

    /// `quit`, and wait for the program to end; returns its HOME.
    pub fn quit(mut self) -> tempfile::TempDir {
        self.send("quit");
        self.expect("Bye.");
        self.p.exp_eof().expect("deckhand exits");
        self.home
    }
}

/// In everything the REPL printed, the zones `zones` of the seats `seats`
/// (the bots) are only ever counted ("3 cards"), or shown empty: never
/// listed card by card.
pub fn assert_only_counted(printed: &str, seats: &[u32], zones: &[&str]) {
    for line in printed.lines() {
        let t = line.trim_start();
        for seat in seats {
            for zone in zones {
                if let Some(rest) = t.strip_prefix(&format!("{zone} (seat {seat})")) {
                    let rest = rest.trim();
                    let counted =
                        rest.ends_with(" card") || rest.ends_with(" cards") || rest.is_empty();
                    assert!(counted, "a bot's {zone} is shown: {line:?}");
                }
            }
        }
    }
}
