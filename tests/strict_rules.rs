//! Strict rules through the binary: a misspelled house rule stops `check`
//! and `play` with its file and line; `check` warns about a house rule that
//! changes nothing, and not about one that changes the games.

mod common;

use common::*;

fn text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn write(dir: &std::path::Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).expect("write");
    path.display().to_string()
}

const MISSPELLED: &str =
    "return { id = 'zero_ten', title = 'The trump 0 is worth 10', game = 'sea_change',
  modify = function(rules)
    rules.TRUMP_ZERO_POINT = 10
  end,
}
";

#[test]
fn a_misspelled_house_rule_fails_check_and_play_with_its_file_and_line() {
    let dir = tempfile::tempdir().expect("tmp");
    let rule = write(dir.path(), "zero_ten.lua", MISSPELLED);
    let at = format!("{rule}:3:");
    for args in [
        vec!["check", rule.as_str(), "-n", "1", "-p", "4"],
        vec![
            "play",
            "sea_change",
            "-p",
            "4",
            "--seat",
            "random",
            "--variant",
            rule.as_str(),
        ],
    ] {
        let o = deckhand(&args);
        let t = text(&o);
        assert!(!o.status.success(), "{args:?} succeeded: {t}");
        assert!(t.contains(&at), "{args:?}: {t}");
        assert!(
            t.contains(
                "sea_change has no rule `TRUMP_ZERO_POINT` (did you mean `TRUMP_ZERO_POINTS`?)"
            ),
            "{args:?}: {t}"
        );
    }
}

const NO_OP: &str =
    "return { id = 'same_points', title = 'Card points as they were', game = 'sea_change',
  modify = function(rules)
    local card_points = rules.card_points
    rules.card_points = function(game, card) return card_points(game, card) end
  end,
}
";

#[test]
fn check_warns_about_a_house_rule_that_changes_nothing() {
    let dir = tempfile::tempdir().expect("tmp");
    let rule = write(dir.path(), "same_points.lua", NO_OP);
    let o = deckhand(&["check", &rule, "-n", "3", "-p", "4"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("ok: sea_change"), "{t}");
    assert!(
        t.contains(&format!("warning: {rule} changed nothing in 3 games")),
        "{t}"
    );

    // A rule that changes the games gets no warning.
    let o = deckhand(&[
        "check",
        &scripts_dir()
            .join("house_rules/eights_minus_five.lua")
            .display()
            .to_string(),
        "-n",
        "3",
        "-p",
        "4",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(!t.contains("changed nothing"), "{t}");
}
