//! `deckhand skill`: skill, luck, a mechanic's worth and seats, calibrated
//! on toy games whose answers are known (tests/fixtures/lab): `coin_flip`
//! (pure chance: no skill, no chain), `nim` (pure skill: the strong bot
//! nearly always wins, the chain is longer than 0), `call_coin` (a choice
//! that changes nothing: barring it is worth nothing), `push` (a mechanic
//! that decides the game: barring it is worth nearly a whole fair share);
//! rule sets compared deal by deal; shards merged into the one-run report;
//! the errors.

use crate::common::lab::{fails, merge_json, ok, shard};
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    serde_json::from_slice(&ok(&all)).expect("JSON")
}

/// The measure `id`.
fn measure<'a>(r: &'a Value, id: &str) -> &'a Value {
    r["measures"]
        .as_array()
        .and_then(|m| m.iter().find(|x| x["id"] == id))
        .unwrap_or_else(|| panic!("no measure {id} in {r}"))
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// (value, low, high) of rule set `k`'s value of a measure.
fn value(r: &Value, id: &str, k: usize) -> (f64, f64, f64) {
    let v = &measure(r, id)["values"][k];
    (num(&v["value"]), num(&v["low"]), num(&v["high"]))
}

fn covers_zero((_, lo, hi): (f64, f64, f64)) -> bool {
    lo <= 0.0 && hi >= 0.0
}

#[test]
fn pure_chance_shows_no_skill_and_no_chain() {
    let r = json(&[
        "skill",
        "coin_flip",
        "--dial",
        "random",
        "--dial",
        "mc:10",
        "--dial",
        "mc:20",
        "-n",
        "60",
    ]);
    // Every deal is played in both seatings: whoever the coin favours, the
    // measured bot wins exactly one of the two.
    for id in ["skill_gap", "step1", "step2"] {
        let v = value(&r, id, 0);
        assert!(covers_zero(v), "{id}: {v:?}");
        assert_eq!(v.0, 0.0, "{id}");
    }
    assert_eq!(r["chains"][0]["length"], 0);
    assert_eq!(r["deals"], 60);
}

#[test]
fn pure_skill_is_won_by_the_strong_bot_nearly_always_with_a_chain() {
    let r = json(&[
        "skill", "nim", "--dial", "random", "--dial", "greedy", "--dial", "mc:200", "-n", "60",
    ]);
    // At two players a fair share is 50 %: the strong bot wins over 90 %
    // against random.
    let (gap, lo, _) = value(&r, "skill_gap", 0);
    assert!(gap > 0.4 && lo > 0.3, "{gap} {lo}");
    let upsets = value(&r, "upsets", 0);
    assert!(upsets.0 < 0.1, "{upsets:?}");
    let chain = num(&r["chains"][0]["length"]);
    assert!(chain >= 1.0, "{}", r["chains"]);
    assert!(r["chains"][0]["weaker"]
        .as_array()
        .is_some_and(Vec::is_empty));
}

#[test]
fn a_mechanic_that_changes_nothing_is_worth_nothing_and_one_that_decides_is_worth_much() {
    let r = json(&[
        "skill",
        "call_coin",
        "--dial",
        "random",
        "--dial",
        "mc:10",
        "--restrict",
        "never_heads",
        "-n",
        "100",
    ]);
    let nothing = value(&r, "worth:never_heads", 0);
    assert!(covers_zero(nothing), "{nothing:?}");
    let r = json(&[
        "skill",
        "push",
        "-p",
        "3",
        "--dial",
        "greedy",
        "--dial",
        "mc:20:greedy",
        "--restrict",
        "never_stop",
        "-n",
        "40",
    ]);
    // A seat that never stops busts: it gives up nearly all of its fair
    // share of a third.
    let (worth, lo, _) = value(&r, "worth:never_stop", 0);
    assert!(worth > 0.25 && lo > 0.2, "{worth} {lo}");
    assert_eq!(measure(&r, "worth:never_stop")["group"], "mechanic");
}

#[test]
fn rule_sets_are_compared_deal_by_deal_and_the_same_rules_differ_by_nothing() {
    let r = json(&[
        "skill", "push", "-p", "3", "--dial", "random", "--dial", "greedy", "--arm", "a", "--arm",
        "b", "-n", "30",
    ]);
    assert_eq!(r["rule_sets"], serde_json::json!(["a", "b"]));
    for m in r["measures"].as_array().expect("measures") {
        let d = &m["differences"][0];
        assert_eq!(num(&d["value"]), 0.0, "{m}");
        assert_eq!(m["values"][0], m["values"][1], "{m}");
    }
}

#[test]
fn a_skill_report_split_into_shards_merges_into_the_one_run_report() {
    let base = [
        "skill", "push", "-p", "3", "--dial", "random", "--dial", "greedy", "-n", "12",
    ];
    let whole = json(&base);
    let dir = tempfile::tempdir().expect("tmp");
    let files: Vec<String> = (1..=3).map(|k| shard(dir.path(), &base, k, 3)).collect();
    let merged: Value = serde_json::from_slice(&merge_json(&files)).expect("JSON");
    assert_eq!(merged["measures"], whole["measures"]);
    assert_eq!(merged["chains"], whole["chains"]);
}

#[test]
fn decisive_stops_once_the_gap_is_decided() {
    let r = json(&[
        "skill",
        "nim",
        "--dial",
        "random",
        "--dial",
        "mc:50",
        "--decisive",
        "--every",
        "20",
        "--max-deals",
        "400",
    ]);
    // The gap is huge: decided at the first or second look.
    assert!(num(&r["deals"]) <= 40.0, "{}", r["deals"]);
}

#[test]
fn a_skill_report_refuses_what_it_cannot_measure() {
    let e = fails(&["skill", "push", "--restrict", "never_fly"]);
    assert!(
        e.contains("no restriction named 'never_fly'") && e.contains("never_stop"),
        "{e}"
    );
    let e = fails(&[
        "skill",
        "push",
        "--dial",
        "greedy",
        "--restrict",
        "never_stop",
    ]);
    assert!(
        e.contains("only random, mc and ismcts bots take a restriction"),
        "{e}"
    );
    let e = fails(&["skill", "push", "--dial", "mc:10"]);
    assert!(e.contains("2 strengths or more"), "{e}");
    let e = fails(&["skill", "push", "--arm", "x=--seat greedy"]);
    assert!(e.contains("seats its own bots"), "{e}");
    let e = fails(&["skill", "push", "-n", "1"]);
    assert!(e.contains("2 deals or more"), "{e}");
}

#[test]
fn the_text_names_the_measures_the_chain_and_what_bots_cannot_tell() {
    let o = ok(&[
        "skill",
        "push",
        "-p",
        "3",
        "--dial",
        "random",
        "--dial",
        "mc:10",
        "--restrict",
        "never_stop",
        "-n",
        "10",
    ]);
    let t = String::from_utf8_lossy(&o);
    for want in [
        "gap: mc:10 vs random",
        "upsets: random side wins",
        "barred: never_stop",
        "never_stop: never stops rolling",
        "seat 3",
        "chain: ",
        "what the bots cannot tell",
        "95 % over deals",
    ] {
        assert!(t.contains(want), "no '{want}' in:\n{t}");
    }
}

#[test]
fn a_strength_the_rules_name_sits_at_the_table_as_its_bot() {
    let o = crate::common::deckhand(&["games", "--json"]);
    let games: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let sea_change = games
        .as_array()
        .and_then(|g| g.iter().find(|x| x["info"]["id"] == "sea_change"))
        .unwrap_or_else(|| panic!("no sea_change in {games}"));
    let hard = sea_change["info"]["strengths"]["hard"]
        .as_str()
        .unwrap_or_else(|| panic!("no hard strength: {sea_change}"));
    let o = crate::common::deckhand(&[
        "play",
        "sea_change",
        "-p",
        "2",
        "--seat",
        "human",
        "--seat",
        "hard",
        "--seed",
        "3",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&format!("seat 2 ({hard})")), "{out}");
}

#[test]
fn check_plays_a_bot_barred_by_each_restriction_and_names_a_broken_one() {
    let dir = tempfile::tempdir().expect("tmp");
    let rule = dir.path().join("broken_bar.lua");
    std::fs::write(
        &rule,
        "return { id = 'broken_bar', game = 'push', modify = function(rules)\n  \
         rules.restrictions.broken = { doc = 'x', allows = function(view, option)\n    \
         return option.nothing.here end }\nend }\n",
    )
    .expect("write");
    let out = ok(&["check", "push", "-n", "2"]);
    let out = String::from_utf8_lossy(&out);
    assert!(
        out.contains("with a bot barred by each restriction (never_stop)"),
        "{out}"
    );
    let e = fails(&["check", &rule.display().to_string(), "-n", "2"]);
    assert!(
        e.contains("restriction 'broken'") && e.contains("broken_bar.lua:3"),
        "{e}"
    ); // A strength must name a bot of the game.
    let rule = dir.path().join("no_such_strength.lua");
    std::fs::write(
        &rule,
        "return { id = 'no_such_strength', game = 'push',\n  \
         modify = function(rules) rules.strengths = { hard = 'nobot' } end }\n",
    )
    .expect("write");
    let e = fails(&["check", &rule.display().to_string(), "-n", "2"]);
    assert!(e.contains("strength 'hard' names 'nobot'"), "{e}");
}

#[test]
fn barred_bots_keep_to_what_their_restriction_allows() {
    // Seat 1 may never stop in Push: it rolls until it busts, so it
    // (almost) never wins, where the same bot unbarred wins a fair part
    // against random seats (a search, far more).
    let share = |seat: &str| {
        let r = json(&[
            "sim", "push", "-p", "3", "--seat", seat, "--seat", "random", "--seat", "random", "-n",
            "200",
        ]);
        let rows = r["arms"][0]["rows"].as_array().cloned().unwrap_or_default();
        let row = rows
            .iter()
            .find(|x| x["key"] == "win.seat1")
            .unwrap_or_else(|| panic!("no win.seat1 in {r}"))
            .clone();
        num(&row["mean"])
    };
    for bot in ["random", "mc:20", "ismcts:20"] {
        let barred = share(&format!("{bot}/never_stop"));
        let free = share(bot);
        assert!(
            barred < 0.05 && free > 0.15,
            "{bot}: barred {barred}, free {free}"
        );
    }
    // The same bar names the restriction when the rules lack it.
    let e = fails(&["sim", "push", "--seat", "random/never_fly"]);
    assert!(e.contains("no restriction named 'never_fly'"), "{e}");
}

#[test]
fn games_lists_the_strengths_and_the_restrictions_of_each_game() {
    let o = crate::common::deckhand(&["games"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("strengths: easy = greedy, medium = "), "{out}");
    assert!(
        out.contains("restrictions (deckhand skill --restrict): never_last_chance, never_stop"),
        "{out}"
    );
}
