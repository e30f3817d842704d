//! Strict rules through the binary: a misspelled house rule stops `check`
//! and `play` with its file and line; `check` warns about a house rule that
//! changes nothing, and not about one that changes the games.

use crate::common;

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

#[test]
fn a_house_rule_adds_a_metric_under_strict_rules_even_to_a_game_without_any() {
    // rules.metrics is always a table: a house rule adds to it without
    // `provides`, for a game with metrics (sea_change) and for a toy game
    // that declares none (high_card).
    let dir = tempfile::tempdir().expect("tmp");
    let add = |game: &str| {
        write(
            dir.path(),
            &format!("{game}_metric.lua"),
            &format!(
                "return {{ id = '{game}_metric', game = '{game}',
  modify = function(rules)
    rules.metrics['decisions made'] = {{
      doc = 'decisions of the game',
      value = function(game) return 1 end,
    }}
  end,
}}
"
            ),
        )
    };
    let rule = add("sea_change");
    let o = deckhand(&["sim", "sea_change", "-n", "2", "--json", "-v", &rule]);
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert!(v["metrics"]["decisions made"].is_string(), "{v}");
    assert!(v["metrics"]["sea changes per round"].is_string(), "{v}");
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
    let rule = add("high_card");
    let o = deckhand(&[
        "--scripts",
        &fixtures.display().to_string(),
        "sim",
        "high_card",
        "-n",
        "2",
        "--json",
        "-v",
        &rule,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["metrics"].as_object().map(|m| m.len()), Some(1), "{v}");
}
