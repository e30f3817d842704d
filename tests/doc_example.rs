//! The whole game that docs/scripting.md shows ("A whole game") is the toy
//! game the core's and the REPL's tests play,
//! tests/fixtures/high_card/game.lua: one text. The page's block must be the
//! file, and the `check` output the page shows must be what `deckhand check`
//! prints for that game, saved as the page says.

use crate::common;

use std::path::PathBuf;

fn read(path: &str) -> String {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// The text of the first block fenced with `fence` after the line
/// `heading` of `doc`.
fn block_after(doc: &str, heading: &str, fence: &str) -> String {
    let at = doc
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no heading '{heading}'"));
    let start = doc[at..]
        .find(&format!("\n{fence}\n"))
        .map(|i| at + i + fence.len() + 2)
        .unwrap_or_else(|| panic!("no {fence} block after '{heading}'"));
    let end = doc[start..]
        .find("\n```\n")
        .map(|i| start + i + 1)
        .expect("the block ends");
    doc[start..end].to_string()
}

#[test]
fn the_whole_game_of_the_scripting_guide_is_the_high_card_fixture() {
    let doc = read("docs/scripting.md");
    let fixture = read("tests/fixtures/high_card/game.lua");
    let block = block_after(&doc, "## A whole game", "```lua");
    assert!(
        block == fixture,
        "docs/scripting.md (\"A whole game\") and tests/fixtures/high_card/game.lua differ: \
         they are one text, change both\n--- the page:\n{block}\n--- the file:\n{fixture}"
    );
}

#[test]
fn the_guide_shows_what_check_prints_for_its_game() {
    let doc = read("docs/scripting.md");
    let game = block_after(&doc, "## A whole game", "```lua");
    // The session the page shows after "Saved as `my_games/high_card/game.lua`".
    let session = block_after(&doc, "Saved as `my_games/high_card/game.lua`:", "```");
    let command = "$ deckhand --scripts my_games check high_card";
    let mut lines = session.lines().skip_while(|l| *l != command);
    assert_eq!(lines.next(), Some(command), "{session}");
    let shown = lines.next().expect("the output of check");

    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("my_games/high_card");
    std::fs::create_dir_all(&folder).expect("folder");
    std::fs::write(folder.join("game.lua"), game).expect("write the game");
    let o = common::run_in(
        dir.path(),
        &["--scripts", "my_games", "check", "high_card"],
        "",
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(out.trim_end(), shown);
}

/// docs/scripting.md's table of lib/trick.lua names every function the
/// module defines, as `trick.NAME(` or `T:NAME(`.
#[test]
fn the_table_of_lib_trick_names_every_function_of_the_module() {
    let lua = read("scripts/lib/trick.lua");
    let doc = read("docs/scripting.md");
    let start = doc
        .find("## Shared mechanics: lib/trick.lua")
        .expect("the section");
    let section = &doc[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let mut names = Vec::new();
    for line in lua.lines() {
        let Some(rest) = line.strip_prefix("function ") else {
            continue;
        };
        let Some((name, _)) = rest.split_once('(') else {
            continue;
        };
        let shown = match name.split_once(':') {
            Some((_, method)) => format!("`T:{method}("),
            None => format!("`{name}("),
        };
        names.push(name.to_string());
        assert!(
            section.contains(&shown),
            "{shown} is not in the table of lib/trick"
        );
    }
    assert!(names.len() >= 30, "{names:?}");
    // What the two-value functions return is said, Seas of Strife's
    // trick_winner with them.
    let flat = section.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(
        "Seas of Strife's `rules.trick_winner(game, cards)` is `trick.majority_index` with its \
         own suit counts, so it too returns two values, `(index, count)`"
    ));
    let strife = read("docs/seas-of-strife.md");
    assert!(strife.contains("| `trick_winner(game, cards)` | the play that takes the trick: returns two values, `(index, count)`"));
}

/// The README's house rule is the shipped file, its code as it is (the
/// file's opening comment aside).
#[test]
fn the_readme_house_rule_is_the_shipped_file() {
    let readme = read("README.md");
    let file = read("scripts/house_rules/eights_minus_five.lua");
    let code = file.split_once("]]\n").map_or(file.as_str(), |(_, c)| c);
    let start = readme.find("```lua\n").expect("a Lua block") + "```lua\n".len();
    let end = start + readme[start..].find("```").expect("its end");
    assert_eq!(&readme[start..end], code);
}
