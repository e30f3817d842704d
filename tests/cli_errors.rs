//! Mistakes on the command line, made as a user makes them: each one ends
//! the command with a non-zero exit code and one clear line, the same way
//! in `play`, `sim`, `check` and the REPL's `new`.

use crate::common;

use common::run_in;
use std::path::PathBuf;
use std::process::Output;

/// Run `deckhand ARGS` with `stdin` as its input (nothing: end of input at
/// once, so a REPL that should not have started ends by itself).
fn run(args: &[&str], stdin: &str) -> Output {
    run_in(&std::env::temp_dir(), args, stdin)
}

/// `deckhand ARGS`, which must fail: exit code 1, nothing on stdout (no
/// REPL, no table) and one line on stderr, which is returned.
fn fails(args: &[&str]) -> String {
    let o = run(args, "");
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(1),
        "deckhand {args:?} should fail\nstdout: {out}\nstderr: {err}"
    );
    assert!(out.is_empty(), "deckhand {args:?} printed on stdout: {out}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "deckhand {args:?}: not one line: {err}");
    assert!(lines[0].starts_with("error: "), "{err}");
    lines[0].to_string()
}

/// `deckhand ARGS`, which must succeed.
fn succeeds(args: &[&str]) -> String {
    let o = run(args, "");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "deckhand {args:?}: {text}");
    text
}

#[test]
fn play_that_cannot_start_exits_with_its_error_instead_of_an_empty_repl() {
    // A bad option value used to print the error, open the REPL with no
    // game and exit 0.
    let e = fails(&["play", "sea_change", "-o", "target_vp=abc"]);
    assert!(e.contains("option target_vp"), "{e}");
    let e = fails(&["play", "sea_change", "-p", "9"]);
    assert!(e.contains("1-8 players, not 9"), "{e}");
    let e = fails(&["play", "sea_change", "-p", "9", "--seat", "human"]);
    assert!(e.contains("1-8 players, not 9"), "{e}");
}

#[test]
fn a_mistyped_game_gets_did_you_mean_everywhere() {
    for cmd in ["play", "sim", "check"] {
        let e = fails(&[cmd, "sea_chnage"]);
        assert!(
            e.contains("unknown game 'sea_chnage' — did you mean 'sea_change'?"),
            "{cmd}: {e}"
        );
        assert!(e.contains("deckhand games"), "{cmd}: {e}");
    }
    // The REPL's `new` says the same (and names its own `games`).
    let o = run(&[], "new sea_chnage\nquit\n");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("unknown game 'sea_chnage' — did you mean 'sea_change'?"),
        "{out}"
    );
}

#[test]
fn check_of_a_missing_file_says_the_file_does_not_exist() {
    let e = fails(&["check", "nonexist.lua"]);
    assert_eq!(e, "error: nonexist.lua: no such file");
    let e = fails(&["check", "no/such/dir/rule.lua"]);
    assert!(e.contains("no such file"), "{e}");
    assert!(!e.contains("game '"), "{e}");
}

#[test]
fn a_bad_search_bot_budget_says_what_it_must_be() {
    for (seat, why) in [
        ("mc:abc", "'abc' is not a budget"),
        (
            "mc:0",
            "a search makes 1 to 100000 playouts a decision, not 0",
        ),
        ("mc:-5", "'-5' is not a budget"),
        ("mc:1.5", "'1.5' is not a budget"),
        (
            "mc:200000",
            "a search makes 1 to 100000 playouts a decision, not 200000",
        ),
        ("ismcts:abc", "'abc' is not a budget"),
        ("ismcts:2h", "'2h' is not a budget"),
        (
            "ismcts:0ms",
            "a search may think from 1ms to 600s a decision, not 0ms",
        ),
        ("ismcts:1xs", "'1xs' is not a time"),
        ("ismcts:5:", "the playout bot is missing"),
        ("mc:5:greedy:x", "too many parts"),
    ] {
        let e = fails(&["play", "sea_change", "--seat", seat]);
        assert!(
            e.starts_with(&format!("error: '{seat}': {why}")),
            "{seat}: {e}"
        );
        // Every such error says what a search bot's name is.
        assert!(
            e.contains("playouts a decision (1 to 100000) or a time (1s, 200ms)"),
            "{seat}: {e}"
        );
        assert!(!e.contains("no bot named"), "{seat}: {e}");
    }
    // A misspelt script bot still lists the bots.
    let e = fails(&["play", "sea_change", "--seat", "greedee"]);
    assert!(e.contains("no bot named 'greedee'"), "{e}");
}

#[test]
fn numbers_outside_an_options_range_are_refused_by_every_entry_point() {
    for v in ["0", "-1", "21"] {
        let kv = format!("target_vp={v}");
        for args in [
            vec!["play", "sea_change", "-o", &kv],
            vec!["play", "sea_change", "--seat", "random", "-o", &kv],
            vec!["sim", "sea_change", "-n", "1", "-o", &kv],
            vec!["check", "sea_change", "-n", "1", "-p", "2", "-o", &kv],
        ] {
            let e = fails(&args);
            assert_eq!(
                e,
                format!("error: option target_vp: {v} is out of range (allowed: 1..20)"),
                "{args:?}"
            );
        }
    }
    // A whole-number option takes no fraction.
    let e = fails(&["sim", "sea_change", "-n", "1", "-o", "target_vp=2.5"]);
    assert!(
        e.contains("option target_vp: expected a whole number"),
        "{e}"
    );
    // "auto"-or-number options: the number is checked, the word is not.
    let e = fails(&["sim", "sea_salt_paper", "-n", "1", "-o", "target=0"]);
    assert!(e.contains("option target: 0 is out of range"), "{e}");
    let e = fails(&["sim", "seas_of_strife", "-n", "1", "-o", "end_at=-3"]);
    assert!(e.contains("option end_at: -3 is out of range"), "{e}");
    let e = fails(&[
        "sim",
        "sea_change",
        "-p",
        "4",
        "-v",
        "team",
        "-n",
        "1",
        "-o",
        "team_target=0",
    ]);
    assert!(e.contains("option team_target: 0 is out of range"), "{e}");
    let e = fails(&[
        "sim",
        "seas_of_strife",
        "-v",
        "passing",
        "-n",
        "1",
        "-o",
        "pass_cards=0",
    ]);
    assert!(e.contains("option pass_cards: 0 is out of range"), "{e}");
    let e = fails(&[
        "sim",
        "seadogs",
        "-p",
        "2",
        "-n",
        "1",
        "-o",
        "bank_two_players=0",
    ]);
    assert!(
        e.contains("option bank_two_players: 0 is out of range"),
        "{e}"
    );
    // The ends of the range are allowed.
    for kv in ["target_vp=1", "target_vp=20"] {
        succeeds(&["sim", "sea_change", "-n", "1", "-o", kv]);
    }
    succeeds(&["sim", "sea_salt_paper", "-n", "1", "-o", "target=auto"]);
    // The REPL's `new` goes through the same check.
    let o = run(&[], "new sea_change target_vp=0\nquit\n");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("option target_vp: 0 is out of range (allowed: 1..20)"),
        "{out}"
    );
}

#[test]
fn games_shows_the_ranges_of_options() {
    let t = succeeds(&["games"]);
    let line = t
        .lines()
        .find(|l| l.trim_start().starts_with("target_vp "))
        .expect("target_vp listed");
    assert!(line.contains("default 3 (allowed: 1..20)"), "{line}");
    let json: serde_json::Value =
        serde_json::from_str(&succeeds(&["games", "--json"])).expect("JSON");
    let games = json.as_array().expect("a list of games");
    let sea_change = games
        .iter()
        .find(|g| g["info"]["id"] == "sea_change")
        .expect("sea_change");
    let o = &sea_change["info"]["options"]["target_vp"];
    assert_eq!(o["min"], 1.0, "{o}");
    assert_eq!(o["max"], 20.0, "{o}");
}

#[test]
fn a_variant_given_twice_is_refused() {
    for cmd in ["play", "sim", "check"] {
        let e = fails(&[cmd, "seas_of_strife", "-v", "strife", "-v", "strife"]);
        assert!(
            e.contains("variant 'strife' is given twice; each variant applies once"),
            "{cmd}: {e}"
        );
    }
    // A house-rule file given twice, by the same path.
    let rule = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../scripts/house_rules/five_vp.lua")
        .display()
        .to_string();
    let e = fails(&["sim", "sea_change", "-n", "1", "-v", &rule, "-v", &rule]);
    assert!(e.contains("is given twice"), "{e}");
    // And in the REPL.
    let o = run(&[], "new seas_of_strife variant=strife,strife\nquit\n");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("variant 'strife' is given twice"), "{out}");
}

#[test]
fn no_games_is_refused_by_sim_and_check() {
    for cmd in ["sim", "check"] {
        let e = fails(&[cmd, "sea_change", "-n", "0"]);
        assert_eq!(
            e, "error: -n 0: no game to play; give -n 1 or more",
            "{cmd}"
        );
    }
}

#[test]
fn the_readme_says_how_to_get_deckhand_on_the_path() {
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("README.md");
    assert!(readme.contains("cargo install --path cli"), "README");
    assert!(readme.contains("target/release/deckhand"), "README");
}

/// `-n -5` is a number of games that is not 1 or more, not an option
/// clap advises passing after `--`.
#[test]
fn a_negative_number_of_games_is_named_as_such() {
    for cmd in [
        &["sim", "sea_change"][..],
        &["compare", "sea_change", "--arm", "a=", "--arm", "b="],
    ] {
        let mut args = cmd.to_vec();
        args.extend(["-n", "-5"]);
        let o = run(&args, "");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{err}");
        assert!(
            err.contains(
                "invalid value '-5' for '--games <GAMES>': a number of games is 1 or more (-n 100)"
            ),
            "{err}"
        );
        assert!(!err.contains("'-- -5'"), "{err}");
    }
}

/// A mistyped variant gets "did you mean" and the game's variants, as a
/// mistyped game does.
#[test]
fn a_mistyped_variant_gets_did_you_mean_everywhere() {
    for cmd in ["play", "sim"] {
        let e = fails(&[cmd, "sea_change", "-v", "teams"]);
        assert!(
            e.contains("variant 'teams' of 'sea_change'")
                && e.contains("— did you mean 'team'? (variants of sea_change: team)"),
            "{cmd}: {e}"
        );
    }
    let o = run(&[], "new sea_change variants=teams\nquit\n");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("did you mean 'team'?"), "{out}");
}

#[test]
fn a_measuring_bot_is_refused_at_a_table_with_people() {
    // `seeall` sees every hand: play and the REPL refuse it, whether a
    // person plays or watches.
    for args in [
        vec![
            "play",
            "sea_change",
            "--seat",
            "human",
            "--seat",
            "seeall:20",
        ],
        vec![
            "play",
            "sea_change",
            "-p",
            "2",
            "--seat",
            "seeall",
            "--seat",
            "greedy",
        ],
    ] {
        let e = fails(&args);
        assert!(
            e.contains("is a measuring bot: it sees every hand"),
            "{args:?}: {e}"
        );
        assert!(e.contains("only in sim, compare, tune and ladder"), "{e}");
    }
    let o = run(
        &[],
        "new sea_change seats=human,seeall:20\nnew sea_change seats=human,greedy\nseats 2=seeall:5:greedy\nquit\n",
    );
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    let both = format!("{out}{err}");
    assert!(
        both.contains("'seeall:20' is a measuring bot: it sees every hand"),
        "{both}"
    );
    assert!(
        both.contains("'seeall:5:greedy' is a measuring bot: it sees every hand"),
        "{both}"
    );
    // The lab seats it, and its report says what it is.
    let out = succeeds(&[
        "sim",
        "sea_change",
        "-p",
        "2",
        "-n",
        "2",
        "-j",
        "1",
        "--seat",
        "seeall:5",
        "--seat",
        "greedy",
    ]);
    assert!(
        out.contains("seats: seeall:5 (sees every hand: for measurement only), greedy"),
        "{out}"
    );
}
