//! Saves and house-rule files, run as a user runs `deckhand`: a game saved
//! at the REPL with a house rule replays the same after the rule file is
//! edited or deleted and from another folder, an edited file is named in a
//! warning, `reload` takes the file on disk, a save naming a file that is
//! not a `.lua` script is refused without showing any of it, and traces
//! carry the rule's text.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Run `deckhand ARGS` in `dir` with `input` on stdin.
fn deckhand_in(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckhand"))
        .env("COLUMNS", "1000") // no wrapping: tests read whole lines
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        // The REPL's history goes to a folder of the test.
        .env("XDG_DATA_HOME", dir.join(".history"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run deckhand");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).expect("write stdin");
    }
    child.wait_with_output().expect("wait for deckhand")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn text(o: &Output) -> String {
    format!("{}{}", stdout(o), String::from_utf8_lossy(&o.stderr))
}

/// A Sea Change house rule whose setup records an event with `mark`.
fn marking_rule(mark: &str) -> String {
    format!(
        "return {{ id = \"marked\", title = \"Marked\", game = \"sea_change\",\n\
         modify = function(rules)\n\
         local setup = rules.setup\n\
         rules.setup = function(game)\n\
         setup(game)\n\
         game:event(\"house\", {{ text = \"{mark}\" }})\n\
         end\n\
         end }}\n"
    )
}

/// In `dir`: `rule.lua` marking "VERSION 1", a game of Sea Change played
/// with it at the REPL (one move of yours, the bots' answers) and saved
/// to `game.json`.
fn saved_game(dir: &Path) {
    std::fs::write(dir.join("rule.lua"), marking_rule("VERSION 1")).expect("write rule");
    let o = deckhand_in(
        dir,
        &[
            "play",
            "sea_change",
            "-p",
            "3",
            "--seed",
            "7",
            "-v",
            "rule.lua",
            "--seat",
            "human",
            "--seat",
            "random",
            "--seat",
            "random",
        ],
        "1\nsave game.json\nquit\n",
    );
    assert!(text(&o).contains("Saved to game.json"), "{}", text(&o));
}

/// What `replay` shows of the game: the moves, events and tables, without
/// the first line and the last (they name the save's path).
fn replayed(o: &Output) -> String {
    assert!(o.status.success(), "{}", text(o));
    let out = stdout(o);
    let lines: Vec<&str> = out.lines().collect();
    lines[1..lines.len().saturating_sub(1)].join("\n")
}

#[test]
fn a_save_replays_the_same_after_its_house_rule_is_edited_or_deleted_and_from_another_folder() {
    let dir = tempfile::tempdir().expect("tmp");
    let here = dir.path().join("here");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&here).expect("mkdir");
    std::fs::create_dir_all(&elsewhere).expect("mkdir");
    saved_game(&here);
    let first = replayed(&deckhand_in(&here, &["replay", "game.json"], ""));
    assert!(first.contains("VERSION 1"), "{first}");
    assert!(first.contains("   1. seat"), "{first}");

    // Edited: the saved copy is replayed, and the file is named in a warning.
    std::fs::write(here.join("rule.lua"), marking_rule("VERSION 2")).expect("edit rule");
    let o = deckhand_in(&here, &["replay", "game.json"], "");
    assert_eq!(replayed(&o), first);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("warning: rule.lua differs") && err.contains("saved copy"),
        "{err}"
    );

    // Deleted, and replayed from another folder: the same game.
    std::fs::remove_file(here.join("rule.lua")).expect("delete rule");
    let o = deckhand_in(&elsewhere, &["replay", "../here/game.json"], "");
    assert_eq!(replayed(&o), first);
    assert!(!text(&o).contains("warning"), "{}", text(&o));
}

#[test]
fn load_names_an_edited_house_rule_and_reload_takes_the_file() {
    let dir = tempfile::tempdir().expect("tmp");
    saved_game(dir.path());
    std::fs::write(dir.path().join("rule.lua"), marking_rule("VERSION 2")).expect("edit");
    let o = deckhand_in(
        dir.path(),
        &[],
        "load game.json\nsave same.json\nreload\nsave reloaded.json\nquit\n",
    );
    let t = text(&o);
    assert!(
        t.contains("warning: rule.lua differs from the copy of it saved in game.json")
            && t.contains("the game goes on with the saved copy")
            && t.contains("`reload`"),
        "{t}"
    );
    assert!(t.contains("Loaded game.json"), "{t}");
    assert!(t.contains("Reloaded the scripts"), "{t}");
    let source = |file: &str| {
        let save: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(file)).expect("read"))
                .expect("json");
        save["config"]["sources"]["rule.lua"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    // Saved after the load: the rule the game was played with.
    assert!(source("same.json").contains("VERSION 1"));
    // Saved after `reload`: the file as it is now.
    assert!(source("reloaded.json").contains("VERSION 2"));
}

#[test]
fn an_old_save_says_which_house_rule_file_it_read() {
    let dir = tempfile::tempdir().expect("tmp");
    saved_game(dir.path());
    let path = dir.path().join("game.json");
    let mut save: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    save["config"]
        .as_object_mut()
        .expect("config")
        .remove("sources");
    std::fs::write(&path, save.to_string()).expect("write");
    let o = deckhand_in(dir.path(), &["replay", "game.json"], "");
    let out = stdout(&o);
    assert!(
        out.contains("Read the house rule rule.lua from disk: game.json holds no copy of it."),
        "{}",
        text(&o)
    );
    assert!(out.contains("VERSION 1"), "{out}");
}

#[test]
fn a_save_naming_a_file_that_is_not_a_lua_script_is_refused_without_showing_it() {
    let dir = tempfile::tempdir().expect("tmp");
    saved_game(dir.path());
    let good: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("game.json")).expect("read"))
            .expect("json");
    // Files that Lua would quote in a syntax error ("near 'tok3n'").
    std::fs::write(dir.path().join("notes.txt"), "my secret tok3n\n").expect("write");
    std::fs::create_dir_all(dir.path().join("folder.lua")).expect("mkdir");
    for variant in ["/etc/passwd", "./notes.txt", "folder.lua", "/dev/zero"] {
        let mut save = good.clone();
        save["config"]["variants"] = serde_json::json!([variant]);
        save["config"]
            .as_object_mut()
            .expect("config")
            .remove("sources");
        std::fs::write(dir.path().join("bad.json"), save.to_string()).expect("write");
        let replay = deckhand_in(dir.path(), &["replay", "bad.json"], "");
        assert!(!replay.status.success(), "{variant}: {}", text(&replay));
        let load = deckhand_in(dir.path(), &[], "load bad.json\nquit\n");
        let load_text = text(&load);
        assert!(
            load_text.contains("cannot load bad.json"),
            "{variant}: {load_text}"
        );
        for t in [text(&replay), load_text] {
            assert!(t.contains("not read"), "{variant}: {t}");
            for leak in ["tok3n", "secret", "root:"] {
                assert!(!t.contains(leak), "{variant} shows '{leak}': {t}");
            }
        }
    }
}

#[test]
fn a_trace_carries_the_house_rule_text() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("rule.lua"), marking_rule("TRACED")).expect("write");
    let o = deckhand_in(
        dir.path(),
        &[
            "sim",
            "sea_change",
            "-p",
            "3",
            "-n",
            "1",
            "-v",
            "rule.lua",
            "--trace",
            "t.jsonl",
            "--json",
        ],
        "",
    );
    assert!(o.status.success(), "{}", text(&o));
    let trace = std::fs::read_to_string(dir.path().join("t.jsonl")).expect("trace");
    let start: serde_json::Value =
        serde_json::from_str(trace.lines().next().expect("a start record")).expect("json");
    assert_eq!(start["type"], "start");
    assert_eq!(start["sources"]["rule.lua"], marking_rule("TRACED"));
}
