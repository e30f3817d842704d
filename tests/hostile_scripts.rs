//! Hostile house rules through every entry point a user has: `play` (the
//! REPL), `check` and `replay`, which count instructions, and `sim`,
//! `compare` and `tune`, which run the compiler under the watchdog (whose
//! own tests are in tests/cli.rs). Each run must end with a clear error naming the rule file
//! and line, within a bounded time, and never crash the process; at the
//! REPL the game goes on.

use crate::common;

use common::{before_apply, run_in};
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

/// The hostile pieces of Lua, with what the error must say.
const ATTACKS: [(&str, &str, &str); 5] = [
    (
        "budget",
        "local function loop() while true do end end while true do pcall(loop) end",
        "budget exceeded",
    ),
    (
        "gsub",
        "local function f(s) return (s:gsub('.', f)) end f('aaaa')",
        "nested more than",
    ),
    (
        "tostring",
        "local t t = setmetatable({}, { __tostring = function(x) return string.format('%s', x) end }) \
         print(t)",
        "nested more than",
    ),
    (
        "memory",
        "local s = 'x' while true do s = s .. s end",
        "out of memory",
    ),
    (
        "events",
        "local s = string.rep('x', 4e7) for i = 1, 100 do game:event('big', { s = s }) end",
        "out of memory",
    ),
];

/// Run deckhand with `args` and `stdin`, timed.
fn run(dir: &Path, args: &[&str], stdin: &str) -> (Output, Duration) {
    let started = Instant::now();
    let out = run_in(dir, args, stdin);
    (out, started.elapsed())
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Killed by a signal (a crash) rather than exiting.
fn crashed(o: &Output) -> bool {
    o.status.code().is_none()
}

#[test]
fn a_hostile_step_at_the_repl_is_an_error_and_the_game_goes_on() {
    let dir = tempfile::tempdir().expect("dir");
    for (id, code, expect) in ATTACKS {
        let rule = before_apply(dir.path(), id, code);
        let rule = rule.display().to_string();
        // Every seat a bot's but the first: whoever moves first runs the rule.
        let (o, took) = run(
            dir.path(),
            &[
                "play",
                "sea_change",
                "-p",
                "2",
                "--seed",
                "3",
                "-v",
                &rule,
                "--seat",
                "human",
                "--seat",
                "random",
            ],
            "1\nmoves\nshow\nquit\n",
        );
        let all = text(&o);
        assert!(!crashed(&o), "{id}: crashed: {all}");
        assert!(o.status.success(), "{id}: {all}");
        assert!(all.contains(expect), "{id}: expected '{expect}': {all}");
        assert!(
            all.contains(&format!("{id}.lua:4")),
            "{id}: no position: {all}"
        );
        // The REPL went on to the next commands: the table and the moves.
        assert!(
            all.contains("Your hand") || all.contains("hand"),
            "{id}: {all}"
        );
        assert!(took < Duration::from_secs(60), "{id}: took {took:?}");
    }
}

#[test]
fn check_reports_a_hostile_rule_with_its_position() {
    let dir = tempfile::tempdir().expect("dir");
    for (id, code, expect) in ATTACKS {
        let rule = before_apply(dir.path(), id, code);
        let rule = rule.display().to_string();
        let (o, took) = run(dir.path(), &["check", &rule, "-n", "1", "-p", "2"], "");
        let all = text(&o);
        assert!(!crashed(&o), "{id}: crashed: {all}");
        assert!(
            !o.status.success(),
            "{id}: check passed a hostile rule: {all}"
        );
        assert!(all.contains(expect), "{id}: expected '{expect}': {all}");
        assert!(
            all.contains(&format!("{id}.lua:4")),
            "{id}: no position: {all}"
        );
        assert!(took < Duration::from_secs(60), "{id}: took {took:?}");
    }
}

#[test]
fn replaying_a_save_with_a_hostile_rule_stops_with_a_clear_error() {
    let dir = tempfile::tempdir().expect("dir");
    for (id, code, expect) in ATTACKS {
        // The save carries the rule's text (a shared save is all a victim
        // gets); the first step runs it.
        let rule = before_apply(dir.path(), id, code);
        let source = std::fs::read_to_string(&rule).expect("read");
        std::fs::remove_file(&rule).expect("remove");
        let save = serde_json::json!({
            "format": 1,
            "config": {
                "game": "sea_change",
                "variants": [format!("{id}.lua")],
                "sources": { format!("{id}.lua"): source },
                "players": 2,
                "seed": 3
            },
            "seats": ["human", "random"],
            "actions": [{ "seat": 0, "index": 1 }]
        });
        let path = dir.path().join(format!("{id}.json"));
        std::fs::write(&path, save.to_string()).expect("write save");
        let path = path.display().to_string();
        let (o, took) = run(dir.path(), &["replay", &path], "");
        let all = text(&o);
        assert!(!crashed(&o), "{id}: crashed: {all}");
        assert!(all.contains(expect), "{id}: expected '{expect}': {all}");
        assert!(took < Duration::from_secs(60), "{id}: took {took:?}");
        // The REPL's `load` of the same save.
        let (o, _) = run(dir.path(), &[], &format!("load {path}\nquit\n"));
        let all = text(&o);
        assert!(!crashed(&o), "{id}: load crashed: {all}");
        assert!(o.status.success(), "{id}: {all}");
        assert!(
            all.contains(expect),
            "{id}: load: expected '{expect}': {all}"
        );
    }
}

#[test]
fn a_hostile_rule_that_never_finishes_loading_is_stopped() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("top.lua");
    std::fs::write(
        &path,
        "local function loop() while true do end end\nwhile true do pcall(loop) end\n\
         return { id = 'top', game = 'sea_change', modify = function() end }\n",
    )
    .expect("write");
    let rule = path.display().to_string();
    for args in [
        vec!["check", rule.as_str(), "-n", "1", "-p", "2"],
        vec!["play", "sea_change", "-p", "2", "-v", rule.as_str()],
    ] {
        let (o, took) = run(dir.path(), &args, "quit\n");
        let all = text(&o);
        assert!(!crashed(&o), "{args:?}: crashed: {all}");
        assert!(all.contains("budget exceeded"), "{args:?}: {all}");
        assert!(all.contains("top.lua:1"), "{args:?}: no position: {all}");
        assert!(took < Duration::from_secs(60), "{args:?}: took {took:?}");
    }
}

#[test]
fn the_compiled_paths_stop_every_attack() {
    // `sim`, `compare` and `tune` run the rules compiled, with no count:
    // a runaway is ended by the watchdog (exit status 2, naming the game,
    // seed and phase), every other attack is an error of the script.
    let dir = tempfile::tempdir().expect("dir");
    for (id, code, expect) in ATTACKS {
        if id == "events" {
            // A simulation records no events (`game:event` does nothing
            // when nobody reads them), so this one costs nothing there.
            continue;
        }
        let rule = before_apply(dir.path(), id, code);
        let rule = rule.display().to_string();
        let arm = format!("hostile=-v {rule}");
        // The runaway with the default watchdog limit; the other attacks
        // with a longer one, since locating an out-of-memory error runs
        // the step again in the interpreter, slow in a debug build.
        let timeout = if id == "budget" { "0.8" } else { "10" };
        for mut args in [
            vec![
                "sim",
                "sea_change",
                "-n",
                "4",
                "-j",
                "2",
                "-v",
                rule.as_str(),
            ],
            vec![
                "compare",
                "sea_change",
                "-n",
                "4",
                "-j",
                "1",
                "--arm",
                "base",
                "--arm",
                arm.as_str(),
            ],
            vec![
                "tune",
                "sea_change",
                "-v",
                rule.as_str(),
                "--try",
                "target_vp=2..3",
                "--stat",
                "rounds",
                "--minimize",
                "-n",
                "4",
                "-j",
                "1",
            ],
        ] {
            args.extend(["--step-timeout", timeout]);
            let (o, took) = run(dir.path(), &args, "");
            let all = text(&o);
            assert!(!crashed(&o), "{id} {args:?}: crashed: {all}");
            assert!(!o.status.success(), "{id} {args:?}: accepted: {all}");
            if id == "budget" {
                assert_eq!(o.status.code(), Some(2), "{id} {args:?}: {all}");
                assert!(
                    all.contains("never ends") && all.contains("seed"),
                    "{id} {args:?}: {all}"
                );
            } else {
                assert!(
                    all.contains(expect),
                    "{id} {args:?}: expected '{expect}': {all}"
                );
                assert!(
                    all.contains(&format!("{id}.lua:4")),
                    "{id} {args:?}: no position: {all}"
                );
            }
            assert!(
                took < Duration::from_secs(60),
                "{id} {args:?}: took {took:?}"
            );
        }
    }
}

#[test]
fn a_rule_that_runs_away_only_in_a_searchs_playouts_is_stopped_at_its_line() {
    // The REPL's searches (hint, a search bot's move) run compiled in a
    // child process, where nothing can interrupt a loop; the child's
    // watchdog ends it, and the search runs again in the interpreter, which
    // stops it with the budget error and its line. The game goes on.
    let dir = tempfile::tempdir().expect("dir");
    let rule = common::before_apply(
        dir.path(),
        "playouts",
        "if not game.logging then while true do end end",
    );
    let rule = rule.display().to_string();
    let play = |seats: [&str; 2], input: &str| {
        run(
            dir.path(),
            &[
                "play",
                "sea_change",
                "-p",
                "2",
                "--seed",
                "3",
                "-v",
                &rule,
                "--seat",
                seats[0],
                "--seat",
                seats[1],
            ],
            input,
        )
    };
    for (seats, input) in [
        (["human", "random"], "hint 200\nmoves\nquit\n"),
        (["mc:50", "human"], "moves\nquit\n"),
    ] {
        let (o, took) = play(seats, input);
        let all = text(&o);
        assert!(!crashed(&o), "{seats:?}: crashed: {all}");
        assert!(all.contains("budget exceeded"), "{seats:?}: {all}");
        assert!(
            all.contains("playouts.lua:4"),
            "{seats:?}: no position: {all}"
        );
        assert!(took < Duration::from_secs(30), "{seats:?}: took {took:?}");
    }
}
